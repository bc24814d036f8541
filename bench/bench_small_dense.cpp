// SPDX-License-Identifier: MIT
// The k x k work of opt-ds's spectral stage (issue 12, item 3): the library's functions
// (linalg/dense.cpp: direct loops for small sizes) against the CBLAS / LAPACKE calls
// they made before, written out here the same way (a result Matrix allocated, the
// same arguments). One JSON line per size, nanoseconds per call: the best of 7
// repetitions of a timed batch, so that other jobs on the machine inflate the figures
// as little as possible.
//
//   OPENBLAS_NUM_THREADS=1 build/bench/bench_small_dense
#include <algorithm>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <vector>

#include <cblas.h>
#include <lapacke.h>

#include "linalg/dense.hpp"
#include "util/rng.hpp"

namespace {

template <class F>
double best_ns(F &&f, int reps) {
    double best = 1e300;
    for (int t = 0; t < 7; ++t) {
        const auto start = std::chrono::steady_clock::now();
        for (int r = 0; r < reps; ++r) f();
        const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
        best = std::min(best, ns / reps);
    }
    return best;
}

volatile double g_sink = 0.0;  // keeps the results alive

}  // namespace

int main() {
    cs::Rng rng(7);
    for (int32_t n : {2, 3, 4, 5, 6, 8, 12, 16, 24, 32}) {
        cs::Matrix a(n, n), b(n, n);
        for (double &v : a.a) v = rng.uniform() - 0.5;
        for (double &v : b.a) v = rng.uniform() - 0.5;
        for (int32_t i = 0; i < n; ++i) a(i, i) += 1.0;
        const int reps = std::max(20, 200000 / (n * n * n));

        const double loop_product = best_ns([&] { g_sink = g_sink + cs::multiply(a, b).a[0]; }, reps);
        const double dgemm = best_ns([&] {
            cs::Matrix r(n, n);
            cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a.a.data(), n, b.a.data(), n, 0.0,
                        r.a.data(), n);
            g_sink = g_sink + r.a[0];
        }, reps);
        const double loop_inverse = best_ns([&] {
            cs::Matrix x = a;
            g_sink = g_sink + (cs::invert(x, 1e-12) ? x.a[0] : 0.0);
        }, reps);
        const double lapack_inverse = best_ns([&] {
            cs::Matrix x = a;
            std::vector<lapack_int> pivots(static_cast<std::size_t>(n));
            std::vector<double> &w = x.a;
            double norm = 0.0, rcond = 0.0;
            for (int32_t j = 0; j < n; ++j) {
                double col = 0.0;
                for (int32_t i = 0; i < n; ++i) col += std::abs(w[i * n + j]);
                norm = std::max(norm, col);
            }
            LAPACKE_dgetrf(LAPACK_ROW_MAJOR, n, n, w.data(), n, pivots.data());
            LAPACKE_dgecon(LAPACK_ROW_MAJOR, '1', n, w.data(), n, norm, &rcond);
            LAPACKE_dgetri(LAPACK_ROW_MAJOR, n, w.data(), n, pivots.data());
            g_sink = g_sink + w[0] + rcond;
        }, reps);
        const double loop_svd = best_ns([&] {
            cs::Svd d;
            g_sink = g_sink + (cs::svd(a, d) ? d.s[0] : 0.0);
        }, std::max(10, reps / 10));
        const double dgesvd = best_ns([&] {
            cs::Matrix x = a;
            cs::Svd d;
            d.u = cs::Matrix(n, n);
            d.vt = cs::Matrix(n, n);
            d.s.assign(static_cast<std::size_t>(n), 0.0);
            std::vector<double> sb(static_cast<std::size_t>(std::max(1, n - 1)));
            LAPACKE_dgesvd(LAPACK_ROW_MAJOR, 'S', 'S', n, n, x.a.data(), n, d.s.data(), d.u.a.data(), n, d.vt.a.data(),
                           n, sb.data());
            g_sink = g_sink + d.s[0];
        }, std::max(10, reps / 10));
        std::printf("{\"n\":%d,\"product_ns\":%.0f,\"dgemm_ns\":%.0f,\"inverse_ns\":%.0f,"
                    "\"dgetrf_dgecon_dgetri_ns\":%.0f,\"svd_ns\":%.0f,\"dgesvd_ns\":%.0f}\n",
                    n, loop_product, dgemm, loop_inverse, lapack_inverse, loop_svd, dgesvd);
    }
    return 0;
}
