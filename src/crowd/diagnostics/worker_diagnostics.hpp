// SPDX-License-Identifier: MIT
// What a crowd fit tells about its workers and what to label next (issue 34;
// docs/algorithms.md, "Scores and worker diagnostics"). Computed once after the fit
// from its posteriors q (whatever the method) in one pass over the labels -- cheaper
// than one E-step -- or, when these very posteriors were counted already
// (FitResult::posterior_counts: by Dawid-Skene EM's last E-step when nothing changed
// them since, or by the calibration as it tempered them), from those counts with no
// pass at all:
//
// * soft counts per worker, n_i[t][c] = sum over i's labels c of items j of q_j(t);
// * the typical worker, T[t][c] = sum_i n_i[t][c] / sum_{i,c} n_i[t][c]: the confusion
//   matrix of the worker who gave a label drawn at random from the crowd's labels;
// * per worker the accuracy a_i = sum_t n_i[t][t] / m_i (m_i labels) and the 95 %
//   equal-tailed interval of the Beta(1 + m_i a_i, 1 + m_i (1 - a_i)) posterior of its
//   accuracy (soft counts as Bernoulli successes, uniform prior);
// * per worker the worst class, argmin_t n_i[t][t] / sum_c n_i[t][c] over the classes
//   with mass on its labels (ties to the lowest index; -1 without labels);
// * per worker the spammer score of Raykar and Yu (JMLR 13, 2012, Section 4): with A
//   the worker's confusion matrix (the fit's, else its soft counts with 1/k added to
//   every entry, rows normalised), S = sum_{t<t'} sum_c (A[t][c] - A[t'][c])^2 / (k (k - 1)),
//   the squared Frobenius distance of A from the nearest rank-one matrix e v^T scaled
//   to [0, 1]: 0 for a spammer (every row the same: its label ignores the truth), 1 for
//   a perfect (or perfectly permuting) worker; (alpha + beta - 1)^2 at k = 2.
#pragma once

#include <cstdint>
#include <vector>

#include "core/fit_result.hpp"
#include "crowd/diagnostics/beta_quantile.hpp"
#include "data/crowd_data.hpp"

namespace cs {

/// Fills out.typical_confusion and the worker_* diagnostics of a crowd fit from its
/// posteriors (and its confusion matrices, when it has them).
void compute_worker_diagnostics(const CrowdData &data, FitResult &out);

/// The label-next score of each item (n_items values into score): the expected fall in
/// the probability that its label is wrong when one more label comes from the typical
/// worker,
///     sum_c max_t q_j(t) T[t][c] - max_t q_j(t)   (>= 0),
/// since after label c the error is 1 - max_t q'_j(t), q'_j(t) proportional to q_j(t) T[t][c].
/// All 0 for a fit without the typical worker.
void label_next_scores(const FitResult &fit, double *score);

/// The same as a vector.
std::vector<double> label_next_scores(const FitResult &fit);

}  // namespace cs
