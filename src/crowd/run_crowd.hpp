// SPDX-License-Identifier: MIT
// Dispatch a crowd fit to its method and complete the common parts of the result.
#pragma once

#include "core/fit_result.hpp"
#include "crowd/options.hpp"
#include "crowd/warm_start.hpp"
#include "data/crowd_data.hpp"
#include "util/progress.hpp"

namespace cs {

/// Fit options.method to the data into `out`. Returns true when the progress
/// callback cancelled the fit (out then holds the last completed iteration).
bool run_crowd_method(const CrowdData &data, const FitOptions &options, const Progress &progress,
                      FitResult &out);

/// The same for a warm start: EM method options.method from the caller's parameters
/// (warm_start.hpp, fit_from_initial).
bool run_crowd_from_initial(const CrowdData &data, const FitOptions &options, const Progress &progress,
                            const InitialParams &initial, FitResult &out);

}  // namespace cs
