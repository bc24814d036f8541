// SPDX-License-Identifier: MIT
#include "linalg/subspace_eigen.hpp"

#include "linalg/lapack_status.hpp"
#include "util/aligned.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "linalg/cblas_lapacke.hpp"
#include "util/memory_budget.hpp"

namespace cs {

namespace {

// Orthonormalise the columns of an n x p row-major block in place (Householder QR).
// Returns false on a LAPACK failure.
bool orthonormalise(double *x, int64_t n, int32_t p) {
    const lapack_int rows = static_cast<lapack_int>(n);
    std::vector<double> tau(static_cast<std::size_t>(p));
    if (lapack_checked(LAPACKE_dgeqrf(LAPACK_ROW_MAJOR, rows, p, x, p, tau.data())) != 0) return false;
    return lapack_checked(LAPACKE_dorgqr(LAPACK_ROW_MAJOR, rows, p, p, x, p, tau.data())) == 0;
}

}  // namespace

EigenResult top_eigenpairs(int64_t n, const BlockOperator &apply, const EigenOptions &options,
                           Rng &rng) {
    EigenResult result;
    const int32_t k = static_cast<int32_t>(std::min<int64_t>(options.k, n));
    const int32_t p = static_cast<int32_t>(std::min<int64_t>(k + options.oversample, n));
    if (k <= 0) return result;
    // dsyevd on p x p (1 + 6p + 2p^2 doubles) and LAPACKE's transposed copies, n x p
    // for the QR: checked before OpenBLAS could retry its buffer forever (R1 of issue 40).
    require_blas_headroom(8.0 * (static_cast<double>(n) * p + 3.0 * p * p + 6.0 * p),
                          "the block eigensolver (dgemm, dgeqrf, dsyevd)");

    // The n x p blocks are cache-line aligned: with p = 8 a row is exactly one line.
    using Block = std::vector<double, AlignedAllocator<double>>;
    Block x(static_cast<std::size_t>(n) * p), y(x.size()), ritz(x.size());
    for (double &v : x) v = rng.uniform() - 0.5;
    orthonormalise(x.data(), n, p);
    std::vector<double> h(static_cast<std::size_t>(p) * p), lambda(static_cast<std::size_t>(p));
    std::vector<int32_t> order(static_cast<std::size_t>(p));
    std::vector<double> w(h.size());

    Block spare;  // third block of the Chebyshev recurrence
    int32_t products = 0;
    while (products < options.max_iter) {
        apply(x.data(), y.data(), p);
        const int32_t it = ++products;
        result.iterations = it;
        // Rayleigh-Ritz: H = X^T A X (symmetrised), H = W diag(lambda) W^T.
        cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, p, p, static_cast<int32_t>(n), 1.0,
                    x.data(), p, y.data(), p, 0.0, h.data(), p);
        for (int32_t a = 0; a < p; ++a)
            for (int32_t b = 0; b < a; ++b) h[a * p + b] = h[b * p + a] = 0.5 * (h[a * p + b] + h[b * p + a]);
        if (lapack_checked(LAPACKE_dsyevd(LAPACK_ROW_MAJOR, 'V', 'U', p, h.data(), p, lambda.data())) != 0) break;
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
            return std::fabs(lambda[a]) > std::fabs(lambda[b]);
        });
        for (int32_t a = 0; a < p; ++a)
            for (int32_t c = 0; c < p; ++c) w[a * p + c] = h[a * p + order[c]];
        // Ritz vectors X W and their images A X W.
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int32_t>(n), p, p, 1.0,
                    x.data(), p, w.data(), p, 0.0, ritz.data(), p);
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int32_t>(n), p, p, 1.0,
                    y.data(), p, w.data(), p, 0.0, x.data(), p);  // x <- A X W
        // Convergence: residuals of the k wanted pairs relative to |lambda_1|.
        const double scale = std::max(std::fabs(lambda[order[0]]), 1e-300);
        bool converged = true;
        for (int32_t c = 0; c < k && converged; ++c) {
            const double l = lambda[order[c]];
            double r2 = 0.0;
            for (int64_t i = 0; i < n; ++i) {
                const double d = x[i * p + c] - l * ritz[i * p + c];
                r2 += d * d;
            }
            converged = std::sqrt(r2) <= options.tol * scale;
        }
        const bool stop = options.observer && options.observer(it);
        if (converged || stop || it >= options.max_iter) {
            result.converged = converged;
            result.stopped = stop;
            result.values.resize(static_cast<std::size_t>(k));
            result.vectors.assign(static_cast<std::size_t>(n) * k, 0.0);
            for (int32_t c = 0; c < k; ++c) {
                result.values[c] = lambda[order[c]];
                // Sign: the entry of largest magnitude is positive.
                int64_t top = 0;
                for (int64_t i = 1; i < n; ++i)
                    if (std::fabs(ritz[i * p + c]) > std::fabs(ritz[top * p + c])) top = i;
                const double sign = ritz[top * p + c] < 0 ? -1.0 : 1.0;
                for (int64_t i = 0; i < n; ++i) result.vectors[i * k + c] = sign * ritz[i * p + c];
            }
            return result;
        }
        // Next block: orthonormalised A X W (a power step on the Ritz basis), or the
        // Chebyshev filter T_m applied to the Ritz basis (its first product, A X W, is
        // already in x). The filter damps [-c, c] with c^2 = the smallest Ritz value of
        // A^2 on the block, the eigenvalues of (A X W)^T (A X W): a lower bound of the
        // p-th eigenvalue of A^2 (Courant-Fischer), so the wanted eigenvalues, |lambda| >=
        // |lambda_k| >= |lambda_p|, are never damped. (Ritz values of A itself would not
        // do: on an indefinite spectrum the unconverged ones sit near 0.)
        // The filter spends degree - 1 products after the one already in x; it stops one
        // short of max_iter so that the final product feeds a Rayleigh-Ritz step (ending on
        // a filter would leave no Ritz pairs to return).
        const int32_t degree = std::min(options.filter_degree, options.max_iter - products);
        double top = 0.0, c = 0.0;
        if (degree > 1 && p > k) {
            cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, p, p, static_cast<int32_t>(n), 1.0,
                        x.data(), p, x.data(), p, 0.0, h.data(), p);
            if (lapack_checked(LAPACKE_dsyev(LAPACK_ROW_MAJOR, 'N', 'U', p, h.data(), p, lambda.data())) != 0) break;
            c = std::sqrt(std::max(0.0, lambda[0]));
            top = std::sqrt(std::max(0.0, lambda[p - 1]));
        }
        if (degree > 1 && p > k && top > 1.001 * c && c > 0.0) {
            // Scaled three-term recurrence (Zhou and Saad's filter on [-c, c], value 1 at
            // top so nothing overflows): Y_1 = A R sigma_1 / c, Y_(j+1) = 2 sigma_(j+1) / c
            // A Y_j - sigma_j sigma_(j+1) Y_(j-1), sigma_1 = c / top,
            // sigma_(j+1) = 1 / (2 / sigma_1 - sigma_j).
            const std::size_t size = x.size();
            spare.resize(size);
            double *prev = ritz.data();  // Y_0 = R
            double *cur = x.data();      // Y_1, scaled below
            double *next = spare.data();
            const double sigma1 = c / top;
            double sigma = sigma1;
            for (std::size_t e = 0; e < size; ++e) cur[e] *= sigma1 / c;
            for (int32_t j = 2; j <= degree; ++j) {
                apply(cur, y.data(), p);
                ++products;
                const double sigma_next = 1.0 / (2.0 / sigma1 - sigma);
                const double alpha = 2.0 * sigma_next / c, beta = sigma * sigma_next;
                for (std::size_t e = 0; e < size; ++e) next[e] = alpha * y[e] - beta * prev[e];
                sigma = sigma_next;
                double *old = prev;
                prev = cur;
                cur = next;
                next = old;
            }
            if (cur != x.data()) std::copy(cur, cur + size, x.data());
        }
        if (!orthonormalise(x.data(), n, p)) break;
    }
    return result;  // LAPACK failure: empty values, converged = false
}

}  // namespace cs
