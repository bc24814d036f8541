// Sparse matrices for the spectral baselines (ALGORITHMS.md, "Baselines of the Opt-D&S
// paper": "All with sparse matrices: never form a dense n x m matrix"). Products act on
// a block of p vectors stored row-major (row r holds coordinate r of every vector, the
// layout of linalg/subspace_eigen.hpp), so one pass over a sparse row updates the whole
// block. Every product is parallel over output rows and each output row is summed by
// one thread in storage order: results are bit-identical for any thread count.
#pragma once

#include <cstdint>
#include <vector>

namespace cs {

/// A rows x cols matrix with entries +1 or -1 at given positions and 0 elsewhere. Entry
/// e is +1 when its integer code exceeds `threshold`, else -1: with crowd labels as codes
/// and threshold s this is the label matrix O of binary split s (ALGORITHMS.md, "k-1
/// binary splits"). The matrix does not copy anything: it reads two compressed layouts
/// of the same entries that the caller owns and keeps alive -- by row (for A X) and by
/// column (for A^T X) -- so it costs no memory per entry.
class SignMatrix {
public:
    /// One compressed layout: the entries of row (or column) r are the positions
    /// start[r] .. start[r + 1] - 1; index[e] is the column (row) of entry e and code[e]
    /// its code.
    struct Layout {
        const int64_t *start = nullptr;
        const int32_t *index = nullptr;
        const int32_t *code = nullptr;
    };

    SignMatrix(int64_t rows, int64_t cols, Layout by_row, Layout by_col, int32_t threshold)
        : rows_(rows), cols_(cols), by_row_(by_row), by_col_(by_col), threshold_(threshold) {}

    int64_t rows() const { return rows_; }
    int64_t cols() const { return cols_; }

    /// Y = A X: x is cols x p, y is rows x p (both row-major); y is overwritten.
    void multiply(const double *x, double *y, int32_t p, int threads) const;
    /// Y = A^T X: x is rows x p, y is cols x p (both row-major); y is overwritten.
    void multiply_transpose(const double *x, double *y, int32_t p, int threads) const;

    /// A 1 (sum of each row), exact.
    std::vector<int64_t> row_sums() const;
    /// A^T 1 (sum of each column), exact.
    std::vector<int64_t> col_sums() const;
    /// Number of non-zero entries of each column.
    std::vector<int64_t> col_counts() const;

private:
    int64_t rows_, cols_;
    Layout by_row_, by_col_;
    int32_t threshold_;
};

/// A square sparse matrix in compressed sparse rows with double values (EigenRatio's
/// worker x worker matrices over co-labelling pairs). The entries of row r are the
/// positions start[r] .. start[r + 1] - 1 of index (column) and value.
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
