// SPDX-License-Identifier: MIT
// Majority vote (ALGORITHMS.md "Majority vote (MV)").
#pragma once

#include <vector>

#include "core/fit_result.hpp"
#include "crowd/options.hpp"
#include "data/crowd_data.hpp"

namespace cs {

/// Soft majority vote: each item's normalised vote counts (n_items x k); an item
/// with no labels gets the uniform distribution, a gold item its one-hot class.
std::vector<double> soft_majority_vote(const CrowdData &data);

/// The mv method: hard labels = most voted class (ties to the lowest index),
/// posteriors = vote shares, confusion (and estimated prior) = one M-step from the
/// vote shares.
void fit_majority_vote(const CrowdData &data, const FitOptions &options, FitResult &out);

}  // namespace cs
