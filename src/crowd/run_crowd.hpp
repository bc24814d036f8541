// SPDX-License-Identifier: MIT
// Run a crowd fit: the method's entry point (from the registry, src/api/registry.cpp)
// and the parts of the result every crowd method shares.
#pragma once

#include "core/fit_options.hpp"
#include "core/fit_result.hpp"
#include "crowd/em/warm_start.hpp"
#include "data/crowd_data.hpp"
#include "util/progress.hpp"

namespace cs {

/// The entry point of a crowd method: fit the data into `out` (labels, posteriors,
/// confusion, prior, trace, iterations, converged, notes). Returns true when the
/// progress callback cancelled the fit (out then holds the last completed iteration).
using CrowdMethod = bool (*)(const CrowdData &data, const FitOptions &options, const Progress &progress,
                             FitResult &out);

/// Fit `method` to the data into `out`, after setting the sizes of the result, and add
/// the notes every crowd method shares (items without labels). Returns what the method
/// returns (true when cancelled).
bool run_crowd_method(const CrowdData &data, const FitOptions &options, const Progress &progress,
                      CrowdMethod method, FitResult &out);

/// The same for a warm start: EM method options.method from the caller's parameters
/// (warm_start.hpp, fit_from_initial).
bool run_crowd_from_initial(const CrowdData &data, const FitOptions &options, const Progress &progress,
                            const InitialParams &initial, FitResult &out);

/// Whether a crowd method treats its classes as ordered grades whatever the "ordinal"
/// parameter says (ordinal-minimax, ordinal-ds).
bool ordinal_method(int32_t method);

/// Each item's posterior median grade: the lowest class g whose cumulative posterior
/// q_0 + ... + q_g reaches 1/2 (up to 1e-12, for rounding), from n_items x k posteriors.
std::vector<int32_t> median_grades(const std::vector<double> &posteriors, int32_t n_items, int32_t k);

/// Each item's posterior mean grade sum_g g q_g.
std::vector<double> mean_grades(const std::vector<double> &posteriors, int32_t n_items, int32_t k);

}  // namespace cs
