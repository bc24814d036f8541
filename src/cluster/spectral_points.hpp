// SPDX-License-Identifier: MIT
// Spectral initialisation of point clustering (ALGORITHMS.md, "Lloyd for sub-Gaussian
// mixtures"): the projection of the n x d data matrix Y onto its top-k right singular
// subspace, on which k-means is run.
#pragma once

#include <cstdint>
#include <vector>

#include "linalg/kmeans.hpp"
#include "util/rng.hpp"

namespace cs {

/// Points at most this wide use the d x d Gram matrix Y^T Y and LAPACK dsyevd; wider
/// ones (including d > n) use block subspace iteration on the operator Y^T (Y v), which
/// never forms a d x d matrix.
constexpr int32_t kGramMaxDims = 512;

struct SubspaceProjection {
    std::vector<double> coords;  // n x dims, row-major: the coordinates Y V
    int32_t dims = 0;
    bool identity = false;       // d <= k: the subspace is all of R^d, use Y itself
    bool gram = false;           // computed through the Gram matrix (else subspace iteration)
    bool converged = true;       // the iterative solver met its tolerance
    int32_t products = 0;        // operator applications of the iterative solver
};

/// Coordinates of the points in the top-k right singular subspace of Y (the k
/// eigenvectors of Y^T Y of largest eigenvalue), Y uncentred as in Lu and Zhou.
SubspaceProjection project_top_singular(const PointSet &points, int32_t k, Rng &rng, int threads);

}  // namespace cs
