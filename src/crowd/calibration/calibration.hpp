// SPDX-License-Identifier: MIT
// Calibrated posteriors for the Dawid-Skene family (ds, opt-ds, one-coin-ds,
// class-one-coin-ds, auto): the model's posterior assumes that the labels of an item are
// independent given its class, so it grows more certain with every label than the
// labels warrant (crowds share mistakes on hard items). The fitted posterior q_j is
// tempered, q_j(t) proportional to q_j(t)^(1/T), which keeps every label (the order
// of the classes is unchanged), with the one number T chosen from the crowd alone:
//
// - From held-out labels (no truth needed). Each label l = (item j, worker w, answer
//   o) is predicted from the item's OTHER labels and the worker's confusion row
//   fitted WITHOUT this label:
//       P_T(o | rest) = sum_t softmax_t( (log w_t + R_l(t)) / T ) * pi_w^(-l)[t][o],
//   R_l(t) = sum over the other labels l' of j of log pi_w'[t][o'], and
//   pi_w^(-l)[t][o] = (n_w[t][o] - q_j(t) + a[t][o]) / (N_w[t] - q_j(t) + A[t]), the
//   M-step counts n_w = sum of posteriors over the worker's labels less this label's
//   own share, a the model's pseudo-counts (or one pooled pseudo-label per row, the
//   smallest proper prior, when the model has none). T maximises the mean
//   log P_T(o | rest) over log T in [0, log 10] (safeguarded Newton steps). A crowd whose
//   labels of one item agree more than independent workers would (shared mistakes)
//   makes the rest of the item a worse predictor of the held-out label than the
//   model claims, and the fitted T > 1 widens the posterior to match.
// - From gold items (cs_set_gold), when there are at least kMinGoldItems of them: each
//   gold item's labels are scored by its workers' rows fitted without that item, and
//   T and a mixing weight eps with the class prior,
//       q'(t) = (1 - eps) softmax_t((log w_t + S(t)) / T) + eps w_t,
//   minimise the gold items' negative log-likelihood of their known class (eps on a
//   grid 0, 0.02, ..., 0.4; T by golden section in [0.2, 200]). eps is the share of
//   items whose truth the crowd's evidence does not reach (a truth that disagrees
//   with a unanimous crowd); only gold can measure it.
//
// With a classifier's probabilities (crowd/em/model_worker.hpp) its term m_j(t) is part
// of the logits T is fitted on from held-out labels, but it is left out when T is
// applied, q_j(t) proportional to exp((log q_j(t) - m_j(t)) / T + m_j(t)): T stands for
// the workers' shared mistakes, which the classifier does not share. From gold, T and
// eps are fitted for that very transformation.
//
// docs/algorithms.md ("Calibration") and docs/defaults.md give the measurements.
#pragma once

#include "core/fit_options.hpp"
#include "core/fit_result.hpp"
#include "data/crowd_data.hpp"

namespace cs {

/// Gold items needed before gold, rather than held-out labels, calibrates a fit.
constexpr int64_t kMinGoldItems = 10;

/// Chooses T (and, from gold, eps) as described above and applies them to the
/// posteriors and labels of `out` (a finished, not cancelled, crowd fit of the
/// Dawid-Skene family; `options` as its EM ran, crowd/em/dawid_skene.hpp em_options); records them in out.temperature, out.mixing and
/// out.calibration (a cs_calibration value: the source actually used). Gold items keep
/// their pinned posteriors. Nothing changes with options.calibration = none. When
/// `out` holds EM's counts of its rows (FitResult::posterior_counts) and the rows
/// change, the counts are replaced by those of the calibrated rows, summed while the
/// rows are tempered (for the worker diagnostics); otherwise they are left as they
/// are (T = 1) or dropped. The items are tempered by options.threads threads. Costs
/// O(labels x k) for the counts and the subsample's evidence, then O(sample x k) per
/// Newton step (a handful) on at most kCalibrationLabels labels. Deterministic; in a
/// distributed fit every process takes the same decisions (sums over shards).
void calibrate_crowd_posteriors(const CrowdData &data, const FitOptions &options, FitResult &out);

/// Applies a calibration chosen elsewhere (a fit's, for cs_predict with its workers) to
/// the posteriors and labels of `out`, an E-step at out.confusion and out.prior, and
/// records it in `out`: the same transformation as calibrate_crowd_posteriors.
void apply_calibration(const CrowdData &data, double temperature, double mixing, int32_t source, FitResult &out);

/// The transformation above on one posterior row in place, q <- (1 - eps) softmax(log q
/// / T) + eps w, for a caller that knows which items to leave alone (gold, unlabeled and
/// impossible items keep theirs). With `model` (the item's classifier terms m(t), k
/// values, crowd/em/model_worker.hpp; null without a classifier) they are left out of
/// the tempering: q <- (1 - eps) softmax((log q - m) / T + m) + eps w, which may change
/// the argmax. Returns the new argmax (ties to the lowest class), or -1 when the row has
/// no positive entry (left unchanged). scratch: k doubles.
int32_t calibrate_row(double *q, int32_t k, double temperature, double mixing, const double *prior, double *scratch,
                      const double *model = nullptr);

}  // namespace cs
