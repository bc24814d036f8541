// SPDX-License-Identifier: MIT
// Run a points fit (cs_fit_points): validation of the matrix, then the method's entry
// point (from the registry, src/api/registry.cpp): lloyd (spectral initialisation +
// Lloyd) or kmeans++ (k-means++ + Lloyd), then the parts of the result both share.
#pragma once

#include <cstddef>

#include "core/fit_options.hpp"
#include "core/fit_result.hpp"
#include "linalg/kmeans.hpp"
#include "util/progress.hpp"
#include "util/rng.hpp"

namespace cs {

/// The validated points of a fit and what every pass over them needs.
struct PointsProblem {
    PointSet points;      // the caller's matrix
    CentredPoints data;   // the points with their mean and squared norms
    int threads = 1;
};

/// The entry point of a points method: k-means from its own start. `settings` hold k,
/// max_iter and the progress callback; notes about the initialisation go to `out`.
/// Empty clusters re-seeded anywhere are counted in the returned run's `reseeded`.
using PointsMethod = KmeansRun (*)(const PointsProblem &problem, const FitOptions &options,
                                   const LloydOptions &settings, Rng &rng, FitResult &out);

/// "lloyd": spectral initialisation (k-means on the projection onto the top-k right
/// singular subspace, on a sample when n is large), then Lloyd on the points.
KmeansRun fit_lloyd_points(const PointsProblem &problem, const FitOptions &options, const LloydOptions &settings,
                           Rng &rng, FitResult &out);

/// "kmeans++": k-means++ seeding and Lloyd on the points, best of options.n_init.
KmeansRun fit_kmeanspp_points(const PointsProblem &problem, const FitOptions &options, const LloydOptions &settings,
                              Rng &rng, FitResult &out);

/// Validate the n x d matrix (leading dimension ld, 0 = d) and fit `method` to it into
/// `out`. Throws cs::Error on invalid input. Returns true when the progress callback
/// cancelled the fit (out then holds the last completed iteration).
bool run_points_method(const double *x, std::size_t n, std::size_t d, std::size_t ld,
                       const FitOptions &options, const Progress &progress, PointsMethod method, FitResult &out);

}  // namespace cs
