// SPDX-License-Identifier: MIT
// Dispatch a crowd fit to its method and complete the common parts of the result.
#pragma once

#include "core/fit_result.hpp"
#include "crowd/options.hpp"
#include "data/crowd_data.hpp"
#include "util/progress.hpp"

namespace cs {

/// Fit options.method to the data into `out`. Returns true when the progress
/// callback cancelled the fit (out then holds the last completed iteration).
bool run_crowd_method(const CrowdData &data, const FitOptions &options, const Progress &progress,
                      FitResult &out);

}  // namespace cs
