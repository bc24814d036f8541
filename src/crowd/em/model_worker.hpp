// SPDX-License-Identifier: MIT
// A classifier's probabilities as one more, soft-labelling worker of Dawid-Skene EM
// (issue 34; docs/algorithms.md, "Model probabilities"). The model M gives item j a
// probability vector p_j over the k classes (CrowdData::model_probs). It has its own
// confusion matrix pi_M (k x k, true x "model label") that EM estimates like a
// worker's, and item j's evidence from it is the likelihood of a hidden hard label
// o_j of the model that is seen only through p_j (virtual evidence):
//
//     L_j(t) = sum_o p_j(o) pi_M[t][o],     log-likelihood term m_j(t) = log L_j(t).
//
// Why this term and not sum_o p_j(o) log pi_M[t][o] (p_j as fractional labels): with
// pi_M near the identity, L_j(t) = p_j(t), so a calibrated model counts with exactly
// its own confidence (a 0.99 weighs more than a 0.6), while the fractional form caps
// every prediction at the weight of one hard label whatever its confidence; and as
// pi_M moves away from the identity -- an overconfident model, or one that calls
// class a "b" -- L_j flattens towards the row pi_M[t], so EM itself discounts the model
// where it errs. A model that always says "b" for items of class a gets pi_M[a][b]
// near pi_M[b][b]: its "b" then no longer separates a from b, and the workers decide.
//
// EM on the augmented model (latent t_j and o_j): the E-step multiplies L_j(t) into
// item j's posterior (added to its log sums, the only change to the kernels), and the
// M-step takes the expected counts
//     n_M[t][o] = sum_j q_j(t) pi_M[t][o] p_j(o) / L_j(t)
// over the items whose row is not flat (an item the model gave no row has the uniform
// row: its o_j is missing, and its imputed counts q_j(t) pi_M[t][o] would leave the
// maximum where it is but slow EM down in proportion to the missing share -- with
// rows for 5 % of the items pi_M hardly moved from its uniform start)
// (pi_M the matrix of the E-step that made q) and sets
//     pi_M[t][o] = (n_M[t][o] + smoothing + 1/k) / (row sum),
// then applies the fit's confusion model (one-coin ...). The one pseudo-label per row,
// 1/k per entry, keeps every entry positive, so L_j(t) > 0 and the model never makes a
// class impossible; against the n items it labels it is negligible. The model is not
// a crowd worker: it is in no activity stratum of `auto`, does not enter the pooled or
// stratified centres, and does not count in the "typical worker" of the label-next
// scores. An empty pi_M means "uniform" (a parameter start, whose first E-step has no
// estimate yet: L_j(t) = 1/k for every t, no information), and its M-step counts are
// then q_j(t) p_j(o).
#pragma once

#include <cstdint>
#include <vector>

#include "core/fit_options.hpp"
#include "data/crowd_data.hpp"

namespace cs {

class Team;

/// Whether the data carry model probabilities.
inline bool has_model(const CrowdData &data) { return data.model_probs != nullptr; }

/// m_j(t) = log sum_o p_j(o) pi_M[t][o] for every item (n_items x k, into `terms`).
/// Finite whenever pi_M's entries are positive (model_m_step's always are).
void model_log_terms(const CrowdData &data, const std::vector<double> &model_confusion, std::vector<double> &terms);

/// m_j(t) of item j alone, into `terms` (k values): for a caller that needs a few items'.
void model_log_terms_of_item(const CrowdData &data, const std::vector<double> &model_confusion, int32_t j,
                             double *terms);

/// The model's expected M-step counts (k x k, true x model label, into `counts`) from
/// the posteriors q (n_items x k) and the pi_M of the E-step that made them (empty:
/// uniform). Items in order: deterministic.
void model_counts(const CrowdData &data, const double *q, const std::vector<double> &model_confusion,
                  std::vector<double> &counts);

/// model_counts of the items j of `data` with skip[j] == 0 (skip null: every item),
/// added into `counts` (k x k, sized by the caller) in item order. An incremental
/// update (incremental.cpp) sums the untouched items' share from the state and the
/// working items' from its gathered copy.
void add_model_counts(const CrowdData &data, const double *q, const std::vector<double> &model_confusion,
                      const uint8_t *skip, std::vector<double> &counts);

/// What settle_model_confusion keeps between the M-steps of one fit (the model's rows do
/// not change during it): the answered items (rows not flat) and each confusion row's
/// item list, whose memory is reused (allocated afresh every round, its pages were a
/// tenth of a classifier fit's time). Empty at first; tied to one CrowdData.
struct ClassifierRowScratch {
    bool answered_ready = false;
    std::vector<int32_t> answered;
    std::vector<std::vector<int32_t>> items;
};

/// The classifier's M-step solved for the posteriors q instead of stepped once:
/// `model_confusion` (k x k, from model_m_step of the E-step's counts) is moved to the
/// maximum over pi_M of sum_j sum_t q_j(t) log L_j(t) plus the M-step's pseudo-counts,
/// by repeating the counts-then-M-step pass with q fixed until no entry moves by more
/// than 1e-9 (at most 200 passes). EM's single pass moves pi_M only part of the way:
/// the counts n_M[t][o] weigh p_j(o) by the pi_M that made them, so a classifier whose
/// matrix belongs near the identity approached it by a few per cent a round and a fit
/// took 60-90 rounds instead of 10. Each pass is O(items x k^2); the maximum is the
/// same fixed point, so a converged fit keeps its result. For the full matrix (k <= 8)
/// each row is solved by Newton's method over the items whose q_j(t) is not negligible
/// (the left-out ones weigh at most 1e-12 of the row), the rows spread over `team`
/// (null: the caller's thread); each row on one thread, so the result does not depend
/// on the number of threads. `scratch` (null: a local one) carries memory from one call
/// to the next of the same fit.
void settle_model_confusion(const CrowdData &data, const double *q, const FitOptions &options,
                            std::vector<double> &model_confusion, Team *team = nullptr,
                            ClassifierRowScratch *scratch = nullptr);

/// Whether a model row carries no information: every class equal (also the row an item
/// without a model row gets in the dense table).
bool flat_model_row(const double *p, int32_t k);

/// The soft majority-vote start of EM with the model as one more, soft voter: q_j
/// becomes (n_j q_j + p_j) / (n_j + 1), n_j the item's labels (p_j alone for an item
/// without labels). Without it the first pi_M is measured against the crowd's vote
/// alone, and on a crowd worse than the model EM stays at the crowd's consensus. Gold
/// items keep the pinned rows the vote gave them (a fit stopped at max_iter = 0 left a
/// gold item mixed with the model's row before: found by fuzz_fit).
void add_model_vote(const CrowdData &data, std::vector<double> &q);

/// pi_M from the counts (see above) under options.smoothing and options.confusion.
void model_m_step(const std::vector<double> &counts, int32_t k, const FitOptions &options,
                  std::vector<double> &model_confusion);

/// Whether class t is an answer of the model on item j, for the answer-set support
/// (a class nobody answered is impossible): one of its most probable classes, unless
/// its row is flat (every class equal: it answered nothing).
bool model_answers(const CrowdData &data, int32_t j, int32_t t);

}  // namespace cs
