// SPDX-License-Identifier: MIT
// "minimax-entropy" and "ordinal-minimax": the minimax conditional entropy methods of
// Zhou et al. (NIPS 2012, ICML 2014), with the regularisation constant chosen by
// likelihood cross-validation over the labels (eq. 17). The model and its fit are in
// minimax_model.hpp; the specification is in crowdspec.h (CS_METHOD_MINIMAX_ENTROPY,
// CS_METHOD_ORDINAL_MINIMAX) and docs/algorithms.md, the defaults' reasons in
// docs/defaults.md.
#pragma once

#include <vector>

#include "core/fit_options.hpp"
#include "core/fit_result.hpp"
#include "data/crowd_data.hpp"
#include "util/progress.hpp"

namespace cs {

/// The paper's candidates for gamma ([Z14] section 5): 1/4, 1/2, 1, 2, 4.
const std::vector<double> &minimax_gamma_grid();

/// Likelihood cross-validation of gamma ([Z14] section 5): the labels are split into
/// `folds` parts at random (from options.seed); for each candidate gamma and part, the
/// model is fitted on the other parts and scored by heldout_log_likelihood on that part.
/// Returns the mean held-out log-likelihood per label of each candidate of the grid (in
/// grid order); empty when there are fewer than 2 labels per fold (nothing to hold out).
/// `grid`: the candidates (the bench measures others).
std::vector<double> minimax_cv_scores(const CrowdData &data, const FitOptions &options, bool ordinal,
                                      int32_t folds, const std::vector<double> &grid = minimax_gamma_grid());

/// The gamma a fit uses: options.gamma when > 0, else the candidate of the highest
/// cross-validation score (the smaller on ties), or kMinimaxDefaultGamma when there are
/// too few labels to cross-validate.
double minimax_gamma(const CrowdData &data, const FitOptions &options, bool ordinal);

/// The default gamma (CS_PARAM_GAMMA), also used when options.gamma is 0 and the labels
/// are too few to cross-validate: the smallest of the paper's candidates, which its
/// cross-validation chose on 14 of the 15 shared sets and tied on the 15th
/// (docs/defaults.md).
constexpr double kMinimaxDefaultGamma = 0.25;

/// Entry points (crowd/run_crowd.hpp). O(labels x K^2) per iteration, times the
/// 1 + folds x 5 fits of the cross-validation when gamma is chosen.
bool fit_minimax_entropy(const CrowdData &data, const FitOptions &options, const Progress &progress, FitResult &out);
bool fit_ordinal_minimax(const CrowdData &data, const FitOptions &options, const Progress &progress, FitResult &out);

}  // namespace cs
