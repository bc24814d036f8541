// SPDX-License-Identifier: MIT
// The classifier in an incremental update (issue 34): its rows entering a saved state,
// its terms in the E-step of the items an update works on, and its M-step counts.
//
// The model is one more, soft-labelling worker (model_worker.hpp): item j's posterior
// gets the factor L_j(t) = sum_o p_j(o) pi_M[t][o], and the M-step of pi_M reads
//     n_M[t][o] = sum_j q_j(t) r_j(o | t),   r_j(o | t) = pi_M[t][o] p_j(o) / L_j(t).
// Unlike a worker's counts, an item's share of n_M depends on the pi_M of the step that
// made it, so it cannot be taken out of a kept sum exactly once pi_M has moved. So an
// update sums the share of the items it does not work on afresh, once, at the pi_M it
// starts from (their kept q_j, r_j recomputed at that pi_M), and each round adds the
// working items' share at their new posteriors and the round's pi_M. Recomputing
// r_j(. | t) for a fixed q_j(t) is its exact conditional given t, and keeping it over
// the rounds is keeping part of the E-step fixed: a partial E-step in the sense of Neal
// and Hinton (1998), so the rounds still raise the free energy. Cost: O(items with a row
// x k^2) once an update, plus the working items' share each round (docs/incremental.md).
#pragma once

#include <cstdint>
#include <vector>

#include "crowd/em/incremental.hpp"

namespace cs {

/// The items whose row in `rows` changes what the state has (a different row, or an
/// informative row for an item without one), increasing. Checks first: rows.k must be
/// the state's k (CS_ERR_INVALID_ARGUMENT) and every item < n_items_after, the model's
/// items once the batch is in (CS_ERR_INVALID_ID, naming the row).
std::vector<int32_t> changed_model_rows(const UpdateState &s, const ModelRows &rows, int32_t n_items_after);

/// Write the rows into a classifier table of n_items x k (grown to n_items, uniform rows
/// for the new items); an empty table stays empty (false) unless some row informs.
bool rows_into_table(std::vector<double> &table, int32_t n_items, int32_t k, const ModelRows &rows);

/// Write the rows into the state's table, grown to s.data.n_items items (uniform rows
/// for the new ones), creating it when the state had no model and some row informs;
/// pi_M starts uniform when the state has none. Re-attaches data.model_probs.
void apply_model_rows(UpdateState &s, const ModelRows &rows);

/// The model's terms m_j(t) of every item of `data` at pi_M into `terms`; returns them,
/// or null (terms cleared) when the data carry no model or pi_M is not estimated yet.
const double *model_terms_for(const CrowdData &data, const std::vector<double> &model_confusion,
                              std::vector<double> &terms);

/// The share of n_M (k x k, into `rest`) of the state's items with working[j] == 0, at
/// their kept posteriors and the state's pi_M. Nothing (rest cleared) without a model.
void model_counts_of_rest(const UpdateState &s, const std::vector<uint8_t> &working, std::vector<double> &rest);

/// n_M (into `counts`): `rest` plus every item of `gathered` (the working items) at
/// `gathered_q` and the state's pi_M. Nothing (counts cleared) when rest is empty.
void model_counts_with(const UpdateState &s, const std::vector<double> &rest, const CrowdData &gathered,
                       const double *gathered_q, std::vector<double> &counts);

}  // namespace cs
