// SPDX-License-Identifier: MIT
#include "linalg/dense.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "linalg/cblas_lapacke.hpp"

namespace cs {

Matrix Matrix::identity(int32_t n) {
    Matrix m(n, n);
    for (int32_t i = 0; i < n; ++i) m(i, i) = 1.0;
    return m;
}

Matrix multiply(const Matrix &a, const Matrix &b, bool transpose_a, bool transpose_b) {
    const int32_t m = transpose_a ? a.cols : a.rows;
    const int32_t inner = transpose_a ? a.rows : a.cols;
    const int32_t n = transpose_b ? b.rows : b.cols;
    Matrix c(m, n);
    if (m == 0 || n == 0 || inner == 0) return c;
    cblas_dgemm(CblasRowMajor, transpose_a ? CblasTrans : CblasNoTrans,
                transpose_b ? CblasTrans : CblasNoTrans, m, n, inner, 1.0, a.a.data(), a.cols,
                b.a.data(), b.cols, 0.0, c.a.data(), c.cols);
    return c;
}

Matrix transpose(const Matrix &a) {
    Matrix t(a.cols, a.rows);
    for (int32_t i = 0; i < a.rows; ++i)
        for (int32_t j = 0; j < a.cols; ++j) t(j, i) = a(i, j);
    return t;
}

bool all_finite(const Matrix &a) {
    return std::all_of(a.a.begin(), a.a.end(), [](double v) { return std::isfinite(v); });
}

bool invert(Matrix &a, double min_rcond) {
    const lapack_int n = a.rows;
    if (n != a.cols || !all_finite(a)) return false;
    if (n == 0) return true;
    double norm1 = 0.0;  // 1-norm: largest column sum of |a|
    for (int32_t j = 0; j < n; ++j) {
        double col = 0.0;
        for (int32_t i = 0; i < n; ++i) col += std::fabs(a(i, j));
        norm1 = std::max(norm1, col);
    }
    std::vector<lapack_int> pivots(static_cast<std::size_t>(n));
    if (LAPACKE_dgetrf(LAPACK_ROW_MAJOR, n, n, a.a.data(), n, pivots.data()) != 0) return false;
    double rcond = 0.0;
    if (LAPACKE_dgecon(LAPACK_ROW_MAJOR, '1', n, a.a.data(), n, norm1, &rcond) != 0) return false;
    if (!(rcond >= min_rcond)) return false;
    if (LAPACKE_dgetri(LAPACK_ROW_MAJOR, n, a.a.data(), n, pivots.data()) != 0) return false;
    return all_finite(a);
}

bool svd(const Matrix &a, Svd &out) {
    const lapack_int m = a.rows, n = a.cols, r = std::min(m, n);
    if (!all_finite(a)) return false;
    Matrix work = a;
    out.u = Matrix(m, r);
    out.vt = Matrix(r, n);
    out.s.assign(static_cast<std::size_t>(r), 0.0);
    if (r == 0) return true;
    std::vector<double> superb(static_cast<std::size_t>(std::max<lapack_int>(1, r - 1)));
    const lapack_int info =
        LAPACKE_dgesvd(LAPACK_ROW_MAJOR, 'S', 'S', m, n, work.a.data(), n, out.s.data(),
                       out.u.a.data(), r, out.vt.a.data(), n, superb.data());
    return info == 0;
}

bool pseudo_inverse(const Matrix &a, Matrix &out) {
    Svd d;
    if (!svd(a, d)) return false;
    const double cutoff = std::max(a.rows, a.cols) * std::numeric_limits<double>::epsilon() *
                          (d.s.empty() ? 0.0 : d.s[0]);
    out = Matrix(a.cols, a.rows);
    // a^+ = V diag(1/s) U^T over the singular values above the cutoff.
    for (std::size_t t = 0; t < d.s.size(); ++t) {
        if (!(d.s[t] > cutoff)) continue;
        const double inv = 1.0 / d.s[t];
        for (int32_t i = 0; i < a.cols; ++i)
            for (int32_t j = 0; j < a.rows; ++j)
                out(i, j) += d.vt(static_cast<int32_t>(t), i) * inv * d.u(j, static_cast<int32_t>(t));
    }
    return all_finite(out);
}

}  // namespace cs
