// SPDX-License-Identifier: MIT
// The pooled-centre confusion prior of the Dawid-Skene M-step (smoothing_center =
// pooled): each worker's confusion row l gets the pseudo-counts s P[l][c], P the
// crowd's pooled confusion matrix of the same M-step, s pseudo-labels per row. So the
// M-step is the MAP estimate under a Dirichlet(1 + s P[l]) prior on every row, a
// prior centred on the crowd's average and re-centred every round.
//
// smoothing_center = strata (the prior of `auto`) centres each worker on the workers of
// its activity stratum instead: g(w) = floor(log2 n_w), n_w the worker's labels, so
// that a worker with 3 labels is pulled towards the crowd's other occasional workers,
// not towards its regulars (on real crowds accuracy rises with activity: mill 41 % at
// one label, 96 % at 1,024). Each stratum's centre is its workers' pooled rows with k
// pseudo-labels of the crowd's pooled rows added (a small stratum falls back to the
// crowd), and the pseudo-labels of row l are s k rho_l, rho the class prior: s k
// imaginary items drawn like the real ones, so a rare class's row is not given as many
// imaginary labels as a frequent one's (which, with one or two labels per worker, made
// the pooled prior collapse onto one class in simulations).
#pragma once

#include <cstdint>
#include <vector>

#include "core/fit_options.hpp"
#include "data/crowd_data.hpp"

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

/// The activity stratum of every worker, floor(log2 n_w) with n_w its labels over the
/// whole problem (a worker without labels is in stratum 0). `n_strata` receives 1 + the
/// largest stratum.
/// Counts each worker's labels in a pass over them; worker_strata_of_codes is the
/// cheaper way for a caller that has the labels per code counted already.
std::vector<int32_t> worker_strata(const CrowdData &data, int32_t &n_strata);

/// The same strata from code_labels[c], the process's labels with code c = worker * k +
/// label (n_workers x k exact integer counts; summed over the problem here).
std::vector<int32_t> worker_strata_of_codes(const CrowdData &data, const std::vector<double> &code_labels,
                                            int32_t &n_strata);

/// The same strata from each worker's label count, already summed over the problem
/// (for a caller that has the counts: calibration reads them from its count table).
std::vector<int32_t> strata_of_counts(const std::vector<uint64_t> &labels, int32_t &n_strata);

/// The pseudo-counts of smoothing_center = strata: n_strata tables of k x k (true x
/// observed), table g for the workers of stratum g:
///   a_g[l][c] = s k rho_l C_g[l][c],  C_g[l] = normalise(sum_{i in g} total[i][.][l] + k P[l]),
/// with P the crowd's pooled rows (as in pooled_pseudo_counts), rho_l = class_mass[l] /
/// n_items (1/k when there are no items) and s = pooled_strength(). Deterministic.
void strata_pseudo_counts(const double *total, const double *class_mass, int64_t n_items,
                          const std::vector<int32_t> &strata, int32_t n_strata, int32_t k, const FitOptions &options,
                          std::vector<double> &out);

}  // namespace cs
