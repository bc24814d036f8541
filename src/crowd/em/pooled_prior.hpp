// SPDX-License-Identifier: MIT
// The pooled-centre confusion prior of the Dawid-Skene M-step (smoothing_center =
// pooled): each worker's confusion row l gets the pseudo-counts s P[l][c], P the
// crowd's pooled confusion matrix of the same M-step, s pseudo-labels per row. So the
// M-step is the MAP estimate under a Dirichlet(1 + s P[l]) prior on every row, a
// prior centred on the crowd's average and re-centred every round.
#pragma once

#include <cstdint>
#include <vector>

#include "core/fit_options.hpp"

namespace cs {

/// The pseudo-labels per confusion row: options.smoothing_strength, or k when it is 0
/// (automatic: the mass of the uniform Dirichlet(1, ..., 1) prior).
double pooled_strength(const FitOptions &options, int32_t k);

/// The pseudo-counts s P[l][c] (k x k, true x observed) from an M-step count table
/// `total` laid out worker x observed x true: P[l][c] = sum_i total[i][c][l] /
/// sum_i sum_c total[i][c][l], uniform where class l has no mass. Workers are summed in
/// order, so the result is deterministic. Writes into `out` (resized to k x k).
void pooled_pseudo_counts(const double *total, int32_t n_workers, int32_t k, const FitOptions &options,
                          std::vector<double> &out);

}  // namespace cs
