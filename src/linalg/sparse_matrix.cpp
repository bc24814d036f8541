// SPDX-License-Identifier: MIT
#include "linalg/sparse_matrix.hpp"

namespace cs {

std::vector<int64_t> row_ranges(const int64_t *start, int64_t rows, int64_t table) {
    constexpr int64_t kMaxParts = 64;
    const int64_t nnz = start[rows];
    int64_t parts = std::min<int64_t>(kMaxParts, nnz / std::max<int64_t>(table, 1));
    parts = std::max<int64_t>(1, std::min<int64_t>(parts, rows));
    std::vector<int64_t> bounds(static_cast<std::size_t>(parts) + 1, 0);
    for (int64_t part = 1; part < parts; ++part) {
        // The first row at which the cumulative entry count reaches part/parts of all.
        const int64_t target = nnz * part / parts;
        const int64_t row = std::lower_bound(start + bounds[part - 1], start + rows, target) - start;
        bounds[part] = std::max(row, bounds[part - 1]);
    }
    bounds[parts] = rows;
    return bounds;
}

void CsrMatrix::multiply(const double *x, double *y, int32_t p, int threads) const {
#pragma omp parallel for schedule(dynamic, 256) num_threads(threads)
    for (int64_t r = 0; r < rows; ++r) {
        double *yr = y + r * p;
        std::fill(yr, yr + p, 0.0);
        for (int64_t e = start[r]; e < start[r + 1]; ++e) {
            const double a = value[e];
            const double *xr = x + static_cast<int64_t>(index[e]) * p;
            for (int32_t c = 0; c < p; ++c) yr[c] += a * xr[c];
        }
    }
}

}  // namespace cs
