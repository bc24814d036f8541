#include "linalg/sparse_matrix.hpp"

#include <algorithm>

namespace cs {

namespace {

// Y = A X over one compressed layout: output row r gathers the rows index[e] of X,
// weighted by the entry values, in storage order (one thread per output row).
template <typename Weight>
void gather(int64_t rows, const int64_t *start, const int32_t *index, const Weight &weight,
            const double *x, double *y, int32_t p, int threads) {
#pragma omp parallel for schedule(dynamic, 256) num_threads(threads)
    for (int64_t r = 0; r < rows; ++r) {
        double *yr = y + r * p;
        std::fill(yr, yr + p, 0.0);
        for (int64_t e = start[r]; e < start[r + 1]; ++e) {
            const double a = weight(e);
            const double *xr = x + static_cast<int64_t>(index[e]) * p;
            for (int32_t c = 0; c < p; ++c) yr[c] += a * xr[c];
        }
    }
}

std::vector<int64_t> sums(int64_t rows, const SignMatrix::Layout &layout, int32_t threshold) {
    std::vector<int64_t> out(static_cast<std::size_t>(rows), 0);
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t e = layout.start[r]; e < layout.start[r + 1]; ++e)
            out[r] += layout.code[e] > threshold ? 1 : -1;
    return out;
}

}  // namespace

void SignMatrix::multiply(const double *x, double *y, int32_t p, int threads) const {
    const int32_t *code = by_row_.code;
    const int32_t threshold = threshold_;
    gather(rows_, by_row_.start, by_row_.index,
           [code, threshold](int64_t e) { return code[e] > threshold ? 1.0 : -1.0; }, x, y, p,
           threads);
}

void SignMatrix::multiply_transpose(const double *x, double *y, int32_t p, int threads) const {
    const int32_t *code = by_col_.code;
    const int32_t threshold = threshold_;
    gather(cols_, by_col_.start, by_col_.index,
           [code, threshold](int64_t e) { return code[e] > threshold ? 1.0 : -1.0; }, x, y, p,
           threads);
}

std::vector<int64_t> SignMatrix::row_sums() const { return sums(rows_, by_row_, threshold_); }

std::vector<int64_t> SignMatrix::col_sums() const { return sums(cols_, by_col_, threshold_); }

std::vector<int64_t> SignMatrix::col_counts() const {
    std::vector<int64_t> out(static_cast<std::size_t>(cols_));
    for (int64_t c = 0; c < cols_; ++c) out[c] = by_col_.start[c + 1] - by_col_.start[c];
    return out;
}

void CsrMatrix::multiply(const double *x, double *y, int32_t p, int threads) const {
    const double *v = value.data();
    gather(rows, start.data(), index.data(), [v](int64_t e) { return v[e]; }, x, y, p, threads);
}

}  // namespace cs
