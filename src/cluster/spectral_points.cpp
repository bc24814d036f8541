// SPDX-License-Identifier: MIT
#include "cluster/spectral_points.hpp"

#include <algorithm>

#include "linalg/cblas_lapacke.hpp"
#include "util/memory_budget.hpp"

#include "linalg/lapack_status.hpp"
#include "linalg/subspace_eigen.hpp"
#include "util/error.hpp"

namespace cs {

namespace {

// Iterative solver settings for wide data: a relative residual of 1e-6 fixes the
// subspace far beyond what k-means on it can resolve; the Chebyshev filter speeds up
// the noise-bulk-limited convergence of Y^T Y.
constexpr double kSubspaceTol = 1e-6;
constexpr int32_t kSubspaceMaxProducts = 600;
constexpr int32_t kSubspaceFilterDegree = 4;

}  // namespace

SubspaceProjection project_top_singular(const PointSet &points, int32_t k, Rng &rng, int threads) {
    (void)threads;  // BLAS threads itself; nothing else here is parallel
    SubspaceProjection out;
    const int32_t d = points.d;
    const int64_t n = points.n;
    if (d <= k) {
        out.identity = true;
        out.dims = d;
        return out;
    }
    const int32_t r = k;
    require_blas_headroom(8.0 * (3.0 * d * d + static_cast<double>(n) * r),
                          "the points' projection (dsyrk, dsyevd, dgemm)");
    std::vector<double> v(static_cast<std::size_t>(d) * r);  // d x r basis
    if (d <= kGramMaxDims) {
        out.gram = true;
        std::vector<double> gram(static_cast<std::size_t>(d) * d, 0.0), w(static_cast<std::size_t>(d));
        cblas_dsyrk(CblasRowMajor, CblasUpper, CblasTrans, d, static_cast<int>(n), 1.0, points.x,
                    static_cast<int>(points.ld), 0.0, gram.data(), d);
        if (lapack_checked(LAPACKE_dsyevd(LAPACK_ROW_MAJOR, 'V', 'U', d, gram.data(), d, w.data())) != 0)
            throw Error(CS_ERR_INTERNAL, "dsyevd failed on the Gram matrix of the points");
        // Ascending eigenvalues: the top r eigenvectors are the last r columns.
        for (int32_t i = 0; i < d; ++i)
            for (int32_t c = 0; c < r; ++c)
                v[static_cast<std::size_t>(i) * r + c] = gram[static_cast<std::size_t>(i) * d + (d - 1 - c)];
    } else {
        // Y^T (Y X) for a d x p block X: two dgemms through an n x p buffer.
        std::vector<double> t;
        BlockOperator apply = [&](const double *x, double *y, int32_t p) {
            t.resize(static_cast<std::size_t>(n) * p);
            cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(n), p, d, 1.0,
                        points.x, static_cast<int>(points.ld), x, p, 0.0, t.data(), p);
            cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, d, p, static_cast<int>(n), 1.0,
                        points.x, static_cast<int>(points.ld), t.data(), p, 0.0, y, p);
        };
        EigenOptions options;
        options.k = r;
        options.tol = kSubspaceTol;
        options.max_iter = kSubspaceMaxProducts;
        options.filter_degree = kSubspaceFilterDegree;
        const EigenResult e = top_eigenpairs(d, apply, options, rng);
        if (e.values.empty()) throw Error(CS_ERR_INTERNAL, "the subspace iteration failed (LAPACK error)");
        out.converged = e.converged;
        out.products = e.iterations;
        v = e.vectors;
    }
    out.dims = r;
    out.coords.resize(static_cast<std::size_t>(n) * r);
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(n), r, d, 1.0, points.x,
                static_cast<int>(points.ld), v.data(), r, 0.0, out.coords.data(), r);
    return out;
}

}  // namespace cs
