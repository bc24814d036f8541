// SPDX-License-Identifier: MIT
// CROWDLAB (Goh, Tkachenko, Mueller, arXiv:2210.06812, Section 3): consensus labels
// from a weighted ensemble of a classifier's probabilities and the workers' labels,
// the weights measured against the baseline of always answering the most common
// class. Written from the paper (issue 34), for
// comparison with the model as a Dawid-Skene worker (crowd/em/model_worker.hpp).
//
// With y the consensus, I_multi the items with >= 2 labels, n_j the labels of item j:
//   A_j = share of item j's labels equal to y_j; P = mean of A_j over I_multi;
//   a label c of item j is the distribution p(c) = P, p(l) = (1 - P) / (k - 1) else;
//   s_i = worker i's agreement with its co-workers, sum over its labels on I_multi of
//         (the other labels of the item equal to it) / sum of (n_j - 1) (the mean of the
//         others' s for a worker with no shared item);
//   E = max(share of I_multi whose y differs from its most common y, 1e-6);
//   w_i = max(1 - (1 - s_i) / E, 1e-6);
//   w_M = max(1 - E_M / E, 1e-6) sqrt(mean n_j), E_M the share of I_multi whose model
//         argmax differs from y;
//   p_CR(l | j) = (w_M p_M(l | j) + sum_i w_i p_i(l | j)) / (w_M + sum_i w_i).
// y starts as majority vote (ties: the model's most probable tied class, then the
// class most frequent among all labels, then the one whose voters have the larger
// sum of s_i, then the lowest index); y_best = argmax p_CR (a tie keeps y); the weights
// and p_CR are then computed once more from y_best (the paper's "best_quality"
// consensus). Posteriors are the second p_CR and labels their argmax (ties to the lowest
// index, as every method's), which is cleanlab's consensus y_best except where the
// recomputed weights move an item across a tie. Confusion matrices and prior: the
// Dawid-Skene M-step of the posteriors, as mv's. Items without labels get
// p_M (only the model speaks) and are left out of I_multi and of the mean n_j.
// Gold items (cs_set_gold) are pinned: their consensus is the gold class and their
// posterior one-hot.
// Estimates (cs_estimate): "annotator_weight" (n_workers x 1) and "model_weight" (1 x 1).
// O(labels + n_items k); two passes, iterations 0 and 1 (progress is polled after each).
// Fallbacks, each reported with CS_NOTE_CROWDLAB_FALLBACK: without model probabilities
// every model row is uniform (the model carries no information; its weight is then
// ~1e-6: crowdlab is the worker-weighted vote); without an item of two or more labels
// (nothing to measure agreement on) every weight is 1 and P = 1, so each label counts
// at face value, as ActiveLab's single-label case (spec section 5) does.
#pragma once

#include "core/fit_options.hpp"
#include "core/fit_result.hpp"
#include "data/crowd_data.hpp"
#include "util/progress.hpp"

namespace cs {

/// CROWDLAB (CS_ERR_INVALID_ARGUMENT when k < 2); returns true when cancelled.
bool fit_crowdlab(const CrowdData &data, const FitOptions &options, const Progress &progress, FitResult &out);

}  // namespace cs
