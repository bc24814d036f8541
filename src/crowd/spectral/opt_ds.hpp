// SPDX-License-Identifier: MIT
// Opt-D&S (ALGORITHMS.md "Opt-D&S"; Zhang, Chen, Zhou, Jordan): the spectral estimate
// of every confusion matrix (Stage 1), then Dawid-Skene EM (Stage 2) -- from several
// starts, keeping the fit of highest likelihood.
#pragma once

#include "core/fit_result.hpp"
#include "core/fit_options.hpp"
#include "data/crowd_data.hpp"
#include "util/progress.hpp"

namespace cs {

/// The opt-ds method. options.starts EM starts (0: 3 up to 10^6 labels, 2 above): with
/// 1, one spectral start from the
/// options.groups partition (the paper's algorithm); with s >= 2, s - 1 spectral
/// starts (the options.groups partition, then seeded balanced ones) and the soft
/// majority vote. Each spectral start's classes are named by agreement with the soft
/// majority vote (options.identify). Each start runs options.start_rounds EM rounds
/// (0: to convergence up to 10^6 labels, 1 round above); the start of highest
/// log-likelihood (the earlier on ties) continues to convergence. Fills `out`;
/// returns true when the progress callback cancelled.
bool fit_opt_ds(const CrowdData &data, const FitOptions &options, const Progress &progress,
                FitResult &out);

}  // namespace cs
