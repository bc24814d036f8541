// SPDX-License-Identifier: MIT
// Dispatch a points fit (cs_fit_points) to its method: validation of the matrix, then
// lloyd (spectral initialisation + Lloyd) or kmeans++ (k-means++ + Lloyd).
#pragma once

#include <cstddef>

#include "core/fit_result.hpp"
#include "crowd/options.hpp"
#include "util/progress.hpp"

namespace cs {

/// Validate the n x d matrix (leading dimension ld, 0 = d) and fit options.method to
/// it into `out`. Throws cs::Error on invalid input. Returns true when the progress
/// callback cancelled the fit (out then holds the last completed iteration).
bool run_points_method(const double *x, std::size_t n, std::size_t d, std::size_t ld,
                       const FitOptions &options, const Progress &progress, FitResult &out);

}  // namespace cs
