// SPDX-License-Identifier: MIT
// Majority vote (ALGORITHMS.md "Majority vote (MV)").
#pragma once

#include <vector>

#include "core/fit_result.hpp"
#include "core/fit_options.hpp"
#include "data/crowd_data.hpp"
#include "util/progress.hpp"

namespace cs {

/// Soft majority vote: each item's normalised vote counts (n_items x k); an item
/// with no labels gets the uniform distribution, a gold item its one-hot class.
/// `threads`: a fit's requested count (FitOptions::threads, 0 = automatic), resolved
/// by threads_for from the labels; the result is the same for any count.
std::vector<double> soft_majority_vote(const CrowdData &data, int32_t threads = 1);

/// The mv method: hard labels = most voted class (ties to the lowest index),
/// posteriors = vote shares, confusion (and estimated prior) = one M-step from the
/// vote shares.
void fit_majority_vote(const CrowdData &data, const FitOptions &options, FitResult &out);

/// Entry point of "mv" (crowd/run_crowd.hpp): fit_majority_vote, then the progress
/// callback once at iteration 0 (its one step is the initialisation).
bool fit_mv(const CrowdData &data, const FitOptions &options, const Progress &progress, FitResult &out);

}  // namespace cs
