// SPDX-License-Identifier: MIT
// Warm starts and prediction with known worker parameters (issue 18, part 1):
// EM started from confusion matrices and a prior the caller gives
// (cs_set_initial_confusion, cs_set_initial_prior; crowd-kit's `initial_error`), and
// one E-step that labels a new batch of items with fitted or given workers (cs_predict).
#pragma once

#include <cstdint>
#include <vector>

#include "core/fit_result.hpp"
#include "crowd/em/dawid_skene.hpp"
#include "core/fit_options.hpp"
#include "data/crowd_data.hpp"
#include "util/progress.hpp"

namespace cs {

/// Parameters the caller gives: confusion n_workers x k (true) x k (observed), rows
/// P(observed | true), and the class prior (k). Either may be empty (not given).
struct InitialParams {
    std::vector<double> confusion;
    std::vector<double> prior;
    bool empty() const { return confusion.empty() && prior.empty(); }
};

/// Check values given to a setter: finite and >= 0. Throws cs::Error
/// (CS_ERR_INVALID_ARGUMENT naming the first bad index).
void check_initial_values(const std::vector<double> &values, const char *what);

/// Whether a method can start from given parameters: the Dawid-Skene EM methods (ds,
/// opt-ds, one-coin-ds, class-one-coin-ds).
bool takes_initial_params(int32_t method);

/// Fit an EM method from the given parameters instead of its own start (opt-ds skips
/// its spectral stage and its other starts: a warm start says where EM is to begin).
/// The confusion must have data.n_workers x k x k values, the prior k (CS_ERR_INVALID_
/// ARGUMENT otherwise). Each row (and the prior) is normalised; a row that is all zeros
/// means "unknown": that worker starts from the majority-vote estimate of its matrix
/// (one M-step from the soft vote), as a ds start would. Without a given prior, or
/// with CS_PRIOR_UNIFORM, EM starts from the uniform prior. Returns true when the
/// progress callback cancelled.
bool fit_from_initial(const CrowdData &data, const FitOptions &options, const Progress &progress,
                      const InitialParams &initial, FitResult &out);

/// The initial parameters as the known workers of a prediction (cs_predict before
/// any fit): rows normalised (all-zero rows become uniform), the prior normalised
/// (uniform when not given). k is the prior's size, else `classes` (CS_PARAM_CLASSES).
/// Throws CS_ERR_INVALID_ARGUMENT when k is unknown (< 2) or the confusion is not a
/// whole number of k x k matrices.
DsParams initial_for_prediction(const InitialParams &initial, int32_t classes);

/// Label a batch of items by workers with known parameters: one E-step (Z-4, with the
/// answer-set support of options.support) with `params` (known_workers x k x k and the
/// prior). data's workers beyond known_workers are unknown: they get the mean of the
/// known workers' matrices (the average worker), and the result notes
/// CS_NOTE_UNKNOWN_WORKERS. Gold is not used. Fills out's labels, posteriors, the
/// matrices used (data.n_workers of them), the prior, the batch log-likelihood (one
/// trace entry), iterations = 0, converged = true.
void predict_items(const CrowdData &data, const FitOptions &options, const DsParams &params,
                   int32_t known_workers, FitResult &out);

}  // namespace cs
