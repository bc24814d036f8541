// SPDX-License-Identifier: MIT
// Weighted majority votes whose weights are the workers' agreement with a vote: Wawa
// and Zero-Based Skill (crowd-kit's Wawa and ZeroBasedSkill), and the helpers they share
// with M-MSR (crowd/voting/m_msr.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/fit_options.hpp"
#include "core/fit_result.hpp"
#include "data/crowd_data.hpp"
#include "util/progress.hpp"

namespace cs {

/// Weighted vote shares: q_jl = sum of weight[worker] over item j's labels l, divided by
/// the sum over classes (n_items x k). An item without labels, or whose weights sum to
/// 0, gets the uniform distribution; a gold item its one-hot class. Weights must be >= 0.
std::vector<double> weighted_vote(const CrowdData &data, const std::vector<double> &weight, int threads);

/// Each worker's agreement with hard labels (one per item): `rate` is the fraction of
/// the worker's labels equal to the item's label (0 for a worker without labels),
/// `labels` the worker's number of labels.
struct WorkerAgreement {
    std::vector<double> rate;
    std::vector<int64_t> labels;
};
WorkerAgreement agreement(const CrowdData &data, const std::vector<int32_t> &labels, int threads);

/// One-coin confusion matrices (n_workers x k x k) from accuracies p: p on the diagonal,
/// (1 - p) / (k - 1) elsewhere; uniform rows for a worker without labels (labels[i] = 0).
std::vector<double> one_coin_confusion(const std::vector<double> &accuracy, const std::vector<int64_t> &labels,
                                       int32_t k);

/// The class prior of a method without one in its model: the mean posterior
/// (CS_PRIOR_ESTIMATED) or uniform (CS_PRIOR_UNIFORM).
std::vector<double> posterior_mean_prior(const std::vector<double> &q, int32_t n_items, int32_t k,
                                         const FitOptions &options);

/// Entry point of "wawa" (crowd/run_crowd.hpp): majority vote (iteration 0), then one
/// round: each worker's weight is its agreement with the vote, and the items are
/// labelled by the weighted vote.
bool fit_wawa(const CrowdData &data, const FitOptions &options, const Progress &progress, FitResult &out);

/// Entry point of "zbs" (Zero-Based Skill): from equal skills (the majority vote,
/// iteration 0), round r moves every skill by lr_r towards its agreement with the
/// current weighted vote, lr_r = 0.5^floor(r / 20), and votes again with the new
/// skills; stops when no skill moves by more than options.tol, or at options.max_iter.
bool fit_zbs(const CrowdData &data, const FitOptions &options, const Progress &progress, FitResult &out);

}  // namespace cs
