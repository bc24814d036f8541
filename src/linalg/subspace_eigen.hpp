// SPDX-License-Identifier: MIT
// Top eigenpairs of a large symmetric operator known only through products with a
// block of vectors (a sparse matrix, A^T A for singular vectors, a graph's
// adjacency): randomized block subspace iteration with Rayleigh-Ritz. Memory is
// O(n * block) plus whatever the operator needs -- never a dense n x n matrix.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "util/rng.hpp"

namespace cs {

/// Y = A X for a block of `cols` vectors, both n x cols row-major (row i holds the
/// i-th coordinate of every vector, so one pass over a sparse row updates them all).
using BlockOperator = std::function<void(const double *x, double *y, int32_t cols)>;

struct EigenOptions {
    int32_t k = 1;             // eigenpairs wanted
    int32_t oversample = 8;    // extra block columns (faster convergence; block = k + oversample)
    int32_t max_iter = 1000;   // block products at most
    double tol = 1e-10;        // residual ||A v - lambda v|| <= tol * |lambda_1| for the k pairs
    // Called after every block product with the number of products so far (a fit's
    // progress report); returning true stops the iteration there, and the result holds
    // the current Ritz pairs (converged only if they already met tol). Empty: never stops.
    std::function<bool(int32_t products)> observer;
    // Degree m of the Chebyshev filter applied between Rayleigh-Ritz steps (1 = plain
    // subspace iteration, one product per step). With m > 1 each step applies the
    // polynomial T_m(A / c) scaled to 1 at |theta_1| -- c = the smallest |Ritz value| of
    // the block, theta_1 the largest -- which damps the spectrum in [-c, c] and converges
    // in about sqrt(gap) fewer products when the wanted eigenvalues sit just outside a
    // dense bulk (sparse random graphs). Costs m products per step.
    int32_t filter_degree = 1;
};

struct EigenResult {
    std::vector<double> values;   // k eigenvalues, by decreasing |value|
    std::vector<double> vectors;  // n x k row-major, orthonormal columns
    int32_t iterations = 0;       // block products used
    bool converged = false;
    bool stopped = false;         // the observer asked to stop
};

/// The k eigenpairs of largest |eigenvalue| of the symmetric operator `apply` on R^n.
/// Stops when the residual test holds, after options.max_iter products (none when it is
/// 0: the result is then empty), when the observer asks, or on a LAPACK failure (empty
/// result). Deterministic for a given rng state. Sign convention: each eigenvector's entry of
/// largest magnitude (the first such index on ties) is positive.
EigenResult top_eigenpairs(int64_t n, const BlockOperator &apply, const EigenOptions &options,
                           Rng &rng);

}  // namespace cs
