// SPDX-License-Identifier: MIT
// Bayesian Weighted Average (bwa) of Li, Rubinstein and Cohn (WWW 2019): one binary
// problem per class c (one-versus-rest), in which an item's score z_ic is the
// indicator "item i is of class c" relaxed to a real number, each label
// y_ijc = [worker j said c] is normal around z_ic with the worker's variance 1 / v_jc,
// and v_jc has a conjugate Gamma prior. Every iteration is closed form: a precision-
// weighted average per item (docs/algorithms.md, "BWA", equations B1-B4).
#pragma once

#include "core/fit_result.hpp"
#include "core/fit_options.hpp"
#include "data/crowd_data.hpp"
#include "util/progress.hpp"

namespace cs {

/// Absolute part of bwa's stopping test, |z_new - z_old| <= kBwaAbsTol + tol |z_new| for
/// every item of a class (numpy's allclose, the rule of the authors' code).
constexpr double kBwaAbsTol = 1e-8;

/// Entry point of "bwa" (crowd/run_crowd.hpp): from the soft majority vote, the
/// iterations of every class until its scores pass the stopping test (options.tol,
/// relative to the new score, plus kBwaAbsTol; tol = 0 runs exactly options.max_iter
/// iterations) or options.max_iter iterations. Hyperparameters: options.bwa_strength
/// (a_v), options.bwa_item_precision (lambda), options.bwa_prior_correction. Returns
/// true when the progress callback cancelled (out holds the last completed iteration).
bool fit_bwa(const CrowdData &data, const FitOptions &options, const Progress &progress, FitResult &out);

}  // namespace cs
