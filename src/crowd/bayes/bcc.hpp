// SPDX-License-Identifier: MIT
// Bayesian Classifier Combination (bcc): the independent model of Kim and Ghahramani
// (AISTATS 2012) -- class proportions tau ~ Dir(alpha 1_k), each worker's confusion row
// pi_il ~ Dir(beta_l), labels independent given the true class -- by mean-field
// variational Bayes. It is ebcc's model with one subtype per class, and is fitted by
// the same engine (crowd/bayes/ebcc.hpp), where the subtype weights and their KL term
// vanish exactly.
#pragma once

#include "core/fit_result.hpp"
#include "core/fit_options.hpp"
#include "data/crowd_data.hpp"
#include "util/progress.hpp"

namespace cs {

/// The bcc method: variational Bayes from the soft majority vote, with the prior
/// parameters of the options (class_concentration, confusion_diagonal,
/// confusion_off_diagonal). Returns true when the progress callback cancelled.
bool fit_bcc(const CrowdData &data, const FitOptions &options, const Progress &progress, FitResult &out);

}  // namespace cs
