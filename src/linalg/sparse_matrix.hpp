// SPDX-License-Identifier: MIT
// Sparse matrices for the spectral baselines (ALGORITHMS.md, "Baselines of the Opt-D&S
// paper": "All with sparse matrices: never form a dense n x m matrix"). Products act on
// a block of p vectors stored row-major (row r holds coordinate r of every vector, the
// layout of linalg/subspace_eigen.hpp), so one pass over a sparse row updates the whole
// block. Results are bit-identical for any thread count: every output row of a
// gather is summed by one thread in storage order, and every scatter goes through
// fixed row ranges with their own tables, summed in range order.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "util/parallel.hpp"

namespace cs {

/// One entry of a sparse row: its column and value.
struct SparseEntry {
    int32_t col;
    double value;
};

/// Boundaries of consecutive row ranges with about equal numbers of entries, for a
/// product that scatters each range into its own table of `table` doubles: at most 64
/// ranges and at most nnz / table of them (so the tables cost at most 8 bytes per
/// entry), at least 1. They depend only on the layout, never on the thread count.
/// Returns parts + 1 row indices, from 0 to rows.
std::vector<int64_t> row_ranges(const int64_t *start, int64_t rows, int64_t table);

/// A rows x cols sparse matrix read in place from the caller's compressed rows: the
/// entries of row r are the positions start[r] .. start[r + 1] - 1, and entry(e)
/// returns the column and value of position e. It stores nothing per entry, so the
/// caller's layout (CrowdData's labels by item, read through its accessors) serves as
/// the matrix; only the transposed product needs temporary tables (at most 8 bytes per
/// entry, see row_ranges), and no column layout is kept.
template <class Entry>
class CsrView {
public:
    CsrView(int64_t rows, int64_t cols, const int64_t *start, Entry entry)
        : rows_(rows), cols_(cols), start_(start), entry_(entry) {}

    int64_t rows() const { return rows_; }
    int64_t cols() const { return cols_; }

    /// Y = A X: x is cols x p, y is rows x p (both row-major); y is overwritten.
    /// Gathers row by row.
    void multiply(const double *x, double *y, int32_t p, int threads) const {
#pragma omp parallel for schedule(dynamic, 256) num_threads(threads)
        for (int64_t r = 0; r < rows_; ++r) {
            double *yr = y + r * p;
            std::fill(yr, yr + p, 0.0);
            for (int64_t e = start_[r]; e < start_[r + 1]; ++e) {
                const SparseEntry a = entry_(e);
                const double *xr = x + static_cast<int64_t>(a.col) * p;
                for (int32_t c = 0; c < p; ++c) yr[c] += a.value * xr[c];
            }
        }
    }

    /// Y = A^T X: x is rows x p, y is cols x p (both row-major); y is overwritten.
    /// Each fixed row range scatters into its own cols x p table; the tables are summed
    /// in range order.
    void multiply_transpose(const double *x, double *y, int32_t p, int threads) const {
        const int64_t table = cols_ * p;
        const std::vector<int64_t> bounds = row_ranges(start_, rows_, table);
        const int64_t parts = static_cast<int64_t>(bounds.size()) - 1;
        std::vector<double> tables(parts > 1 ? static_cast<std::size_t>(parts * table) : 0);
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) if (parts > 1)
        for (int64_t part = 0; part < parts; ++part) {
            double *t = parts > 1 ? tables.data() + part * table : y;
            std::fill(t, t + table, 0.0);
            for (int64_t r = bounds[part]; r < bounds[part + 1]; ++r) {
                const double *xr = x + r * p;
                for (int64_t e = start_[r]; e < start_[r + 1]; ++e) {
                    const SparseEntry a = entry_(e);
                    double *tc = t + static_cast<int64_t>(a.col) * p;
                    for (int32_t c = 0; c < p; ++c) tc[c] += a.value * xr[c];
                }
            }
        }
        if (parts > 1) sum_tables(tables.data(), table, parts, y, threads);
    }

private:
    int64_t rows_, cols_;
    const int64_t *start_;
    Entry entry_;
};

/// A square sparse matrix in compressed sparse rows with double values, owning its
/// storage (EigenRatio's worker x worker matrices over co-labelling pairs). The entries
/// of row r are the positions start[r] .. start[r + 1] - 1 of index (column) and value.
struct CsrMatrix {
    int64_t rows = 0;
    int64_t cols = 0;
    std::vector<int64_t> start;  // rows + 1
    std::vector<int32_t> index;  // column of each entry
    std::vector<double> value;   // value of each entry

    /// Y = A X: x is cols x p, y is rows x p (both row-major); y is overwritten.
    void multiply(const double *x, double *y, int32_t p, int threads) const;
};

}  // namespace cs
