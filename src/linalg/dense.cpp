// SPDX-License-Identifier: MIT
#include "linalg/dense.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "linalg/cblas_lapacke.hpp"

#include "linalg/lapack_status.hpp"
#include "util/memory_budget.hpp"

namespace cs {

namespace {

// Opt-D&S works on k x k matrices. For the small k of real crowds a direct loop is as
// fast as the BLAS and LAPACK calls or faster, their fixed cost dominating
// (bench/bench_small_dense.cpp, figures in bench/README.md: a 5 x 5 inverse with its
// condition number 0.5 us against 1.7 us for dgetrf + dgecon + dgetri, a 5 x 5 SVD 1.7
// us against 3.9 us for dgesvd, a 5 x 5 product 30 ns against 39 ns), and it keeps those
// fits clear of the BLAS: OpenBLAS 0.3.21 retries its buffer allocation forever when the
// address space is exhausted (README, Limits). Beyond these sizes the libraries are faster.
constexpr int32_t kLoopProduct = 6;   // square products up to 6 x 6
constexpr int32_t kLoopInverse = 16;  // inverse (with its condition number) up to 16 x 16
constexpr int32_t kLoopSvd = 8;       // SVD up to 8 x 8 (and 8 x n, m x 8)

// c = a b for n x n row-major matrices, n fixed at compile time (unrolled rows).
template <int N>
void square_product(const double *__restrict a, const double *__restrict b, double *__restrict c) {
    for (int i = 0; i < N; ++i) {
        double row[N] = {};
        for (int p = 0; p < N; ++p) {
            const double x = a[i * N + p];
            for (int j = 0; j < N; ++j) row[j] += x * b[p * N + j];
        }
        for (int j = 0; j < N; ++j) c[i * N + j] = row[j];
    }
}

// op(x) as a dense n x n row-major copy.
void operand(const Matrix &x, bool transpose_x, double *out) {
    const int32_t n = x.rows;
    for (int32_t i = 0; i < n; ++i)
        for (int32_t j = 0; j < n; ++j) out[i * n + j] = transpose_x ? x(j, i) : x(i, j);
}

bool small_square_product(const Matrix &a, const Matrix &b, bool ta, bool tb, Matrix &c) {
    const int32_t n = a.rows;
    if (n > kLoopProduct || a.cols != n || b.rows != n || b.cols != n) return false;
    double xt[kLoopProduct * kLoopProduct], yt[kLoopProduct * kLoopProduct];
    const double *x = a.a.data(), *y = b.a.data();
    if (ta) operand(a, true, xt), x = xt;  // only a transposed operand is copied
    if (tb) operand(b, true, yt), y = yt;
    double *z = c.a.data();
    switch (n) {
        case 1: z[0] = x[0] * y[0]; return true;
        case 2: square_product<2>(x, y, z); return true;
        case 3: square_product<3>(x, y, z); return true;
        case 4: square_product<4>(x, y, z); return true;
        case 5: square_product<5>(x, y, z); return true;
        default: square_product<6>(x, y, z); return true;
    }
}

// In-place LU factorisation with partial pivoting (row swaps in `pivot`); false when a
// pivot is exactly zero.
bool lu_factor(double *a, int32_t n, std::vector<int32_t> &pivot) {
    pivot.resize(static_cast<std::size_t>(n));
    for (int32_t c = 0; c < n; ++c) {
        int32_t p = c;
        for (int32_t r = c + 1; r < n; ++r)
            if (std::fabs(a[r * n + c]) > std::fabs(a[p * n + c])) p = r;
        pivot[c] = p;
        if (a[p * n + c] == 0.0) return false;
        if (p != c)
            for (int32_t j = 0; j < n; ++j) std::swap(a[p * n + j], a[c * n + j]);
        const double inv = 1.0 / a[c * n + c];
        for (int32_t r = c + 1; r < n; ++r) {
            const double f = a[r * n + c] * inv;
            a[r * n + c] = f;
            if (f != 0.0)
                for (int32_t j = c + 1; j < n; ++j) a[r * n + j] -= f * a[c * n + j];
        }
    }
    return true;
}

// The inverse from the LU factors: solve L U x = P e_j for every column j.
void lu_inverse(const double *lu, int32_t n, const std::vector<int32_t> &pivot, double *out) {
    std::vector<double> col(static_cast<std::size_t>(n));
    for (int32_t j = 0; j < n; ++j) {
        std::fill(col.begin(), col.end(), 0.0);
        col[j] = 1.0;
        for (int32_t c = 0; c < n; ++c) std::swap(col[c], col[pivot[c]]);
        for (int32_t r = 1; r < n; ++r) {  // L y = P e_j, unit diagonal
            double s = col[r];
            for (int32_t c = 0; c < r; ++c) s -= lu[r * n + c] * col[c];
            col[r] = s;
        }
        for (int32_t r = n - 1; r >= 0; --r) {  // U x = y
            double s = col[r];
            for (int32_t c = r + 1; c < n; ++c) s -= lu[r * n + c] * col[c];
            col[r] = s / lu[r * n + r];
        }
        for (int32_t r = 0; r < n; ++r) out[r * n + j] = col[r];
    }
}

double norm1(const double *a, int32_t n) {
    double norm = 0.0;  // largest column sum of |a|
    for (int32_t j = 0; j < n; ++j) {
        double col = 0.0;
        for (int32_t i = 0; i < n; ++i) col += std::fabs(a[i * n + j]);
        norm = std::max(norm, col);
    }
    return norm;
}

// One-sided Jacobi SVD (Hestenes) of an m x n matrix with m >= n: rotate pairs of
// columns of W = A V until every pair is orthogonal to working precision; then
// s_h = ||W e_h||, U e_h = W e_h / s_h. Accurate to a few ulps relative to each
// singular value. Sorted by decreasing s; columns of U for zero singular values are
// completed to an orthonormal set.
bool jacobi_svd(const Matrix &a, Svd &out) {
    const int32_t m = a.rows, n = a.cols;
    Matrix w = a, v = Matrix::identity(n);
    const double eps = std::numeric_limits<double>::epsilon();
    // A column reduced to rounding noise (a rank-deficient a) is orthogonal enough: its
    // relative test would chase the noise forever.
    double frobenius = 0.0;
    for (double x : a.a) frobenius += x * x;
    const double negligible = eps * eps * frobenius;
    bool rotated = true;
    for (int sweep = 0; sweep < 60 && rotated; ++sweep) {
        rotated = false;
        for (int32_t p = 0; p < n - 1; ++p)
            for (int32_t q = p + 1; q < n; ++q) {
                double alpha = 0.0, beta = 0.0, gamma = 0.0;
                for (int32_t i = 0; i < m; ++i) {
                    alpha += w(i, p) * w(i, p);
                    beta += w(i, q) * w(i, q);
                    gamma += w(i, p) * w(i, q);
                }
                if (!(std::fabs(gamma) > eps * std::sqrt(alpha * beta)) || gamma == 0.0 ||
                    alpha <= negligible || beta <= negligible)
                    continue;
                rotated = true;
                const double zeta = (beta - alpha) / (2.0 * gamma);
                const double t = std::copysign(1.0, zeta) / (std::fabs(zeta) + std::sqrt(1.0 + zeta * zeta));
                const double c = 1.0 / std::sqrt(1.0 + t * t), s = c * t;
                for (int32_t i = 0; i < m; ++i) {
                    const double x = w(i, p), y = w(i, q);
                    w(i, p) = c * x - s * y;
                    w(i, q) = s * x + c * y;
                }
                for (int32_t i = 0; i < n; ++i) {
                    const double x = v(i, p), y = v(i, q);
                    v(i, p) = c * x - s * y;
                    v(i, q) = s * x + c * y;
                }
            }
    }
    if (rotated || !all_finite(w)) return false;
    std::vector<double> norm(static_cast<std::size_t>(n));
    for (int32_t h = 0; h < n; ++h) {
        double ss = 0.0;
        for (int32_t i = 0; i < m; ++i) ss += w(i, h) * w(i, h);
        norm[h] = std::sqrt(ss);
    }
    std::vector<int32_t> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int32_t x, int32_t y) { return norm[x] > norm[y]; });
    out.u = Matrix(m, n);
    out.vt = Matrix(n, n);
    out.s.assign(static_cast<std::size_t>(n), 0.0);
    const double cutoff = std::max(m, n) * eps * (n > 0 ? norm[order[0]] : 0.0);
    for (int32_t h = 0; h < n; ++h) {
        const int32_t src = order[h];
        out.s[h] = norm[src];
        for (int32_t i = 0; i < n; ++i) out.vt(h, i) = v(i, src);
        if (norm[src] > cutoff && norm[src] > 0.0)
            for (int32_t i = 0; i < m; ++i) out.u(i, h) = w(i, src) / norm[src];
    }
    // Complete U where the singular value vanished: Gram-Schmidt on unit vectors.
    for (int32_t h = 0; h < n; ++h) {
        if (out.s[h] > cutoff && out.s[h] > 0.0) continue;
        for (int32_t e = 0; e < m; ++e) {
            std::vector<double> x(static_cast<std::size_t>(m), 0.0);
            x[e] = 1.0;
            for (int pass = 0; pass < 2; ++pass)
                for (int32_t g = 0; g < n; ++g) {
                    if (g == h) continue;
                    double dot = 0.0;
                    for (int32_t i = 0; i < m; ++i) dot += out.u(i, g) * x[i];
                    for (int32_t i = 0; i < m; ++i) x[i] -= dot * out.u(i, g);
                }
            double len = 0.0;
            for (double y : x) len += y * y;
            len = std::sqrt(len);
            if (len > 0.5) {
                for (int32_t i = 0; i < m; ++i) out.u(i, h) = x[i] / len;
                break;
            }
        }
    }
    return true;
}

}  // namespace

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
    if (small_square_product(a, b, transpose_a, transpose_b, c)) return c;
    require_blas_headroom(0.0, "a dense matrix product (dgemm)");
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
    const int32_t n = a.rows;
    if (n != a.cols || !all_finite(a)) return false;
    if (n == 0) return true;
    const double norm = norm1(a.a.data(), n);
    if (n <= kLoopInverse) {
        // LU with partial pivoting, the inverse column by column, and the exact 1-norm
        // condition number 1 / (||a||_1 ||a^-1||_1) (LAPACK's dgecon estimates the same).
        std::vector<double> lu = a.a;
        std::vector<int32_t> pivot;
        if (!lu_factor(lu.data(), n, pivot)) return false;
        lu_inverse(lu.data(), n, pivot, a.a.data());
        if (!all_finite(a)) return false;
        const double rcond = 1.0 / (norm * norm1(a.a.data(), n));
        return rcond >= min_rcond;
    }
    // LAPACKE's row-major wrappers work on a transposed copy (n^2 doubles).
    require_blas_headroom(8.0 * n * n + 8.0 * n, "a matrix inverse (dgetrf, dgecon, dgetri)");
    std::vector<lapack_int> pivots(static_cast<std::size_t>(n));
    if (lapack_checked(LAPACKE_dgetrf(LAPACK_ROW_MAJOR, n, n, a.a.data(), n, pivots.data())) != 0) return false;
    double rcond = 0.0;
    if (lapack_checked(LAPACKE_dgecon(LAPACK_ROW_MAJOR, '1', n, a.a.data(), n, norm, &rcond)) != 0) return false;
    if (!(rcond >= min_rcond)) return false;
    if (lapack_checked(LAPACKE_dgetri(LAPACK_ROW_MAJOR, n, a.a.data(), n, pivots.data())) != 0) return false;
    return all_finite(a);
}

bool svd(const Matrix &a, Svd &out) {
    const lapack_int m = a.rows, n = a.cols, r = std::min(m, n);
    if (!all_finite(a)) return false;
    if (r == 0) {
        out.u = Matrix(m, r);
        out.vt = Matrix(r, n);
        out.s.clear();
        return true;
    }
    if (std::max(m, n) <= kLoopSvd) {
        if (m >= n) return jacobi_svd(a, out);
        // a^T = U' S V'^T, so a = V' S U'^T.
        Svd t;
        if (!jacobi_svd(transpose(a), t)) return false;
        out.s = std::move(t.s);
        out.u = transpose(t.vt);
        out.vt = transpose(t.u);
        return true;
    }
    // Transposed copies of a, u and vt in LAPACKE's row-major wrapper, and dgesvd's work.
    require_blas_headroom(8.0 * (2.0 * m * n + static_cast<double>(m) * r + static_cast<double>(r) * n +
                                 5.0 * std::max(m, n)),
                          "an SVD (dgesvd)");
    Matrix work = a;
    out.u = Matrix(m, r);
    out.vt = Matrix(r, n);
    out.s.assign(static_cast<std::size_t>(r), 0.0);
    std::vector<double> superb(static_cast<std::size_t>(std::max<lapack_int>(1, r - 1)));
    const lapack_int info = lapack_checked(LAPACKE_dgesvd(LAPACK_ROW_MAJOR, 'S', 'S', m, n, work.a.data(), n,
                                                          out.s.data(), out.u.a.data(), r, out.vt.a.data(), n,
                                                          superb.data()));
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
