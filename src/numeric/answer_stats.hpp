// SPDX-License-Identifier: MIT
// Summaries of numeric answers that every method of this folder starts from or ends
// with: per-item means, medians and spreads, the crowd's scale, per-worker residual
// statistics, and the loop of the iterative methods (stopping rule, trace, progress).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "core/fit_options.hpp"
#include "core/fit_result.hpp"
#include "data/numeric_data.hpp"
#include "util/progress.hpp"

namespace cs {

/// Mean and population variance of all answers.
struct AnswerMoments {
    double mean = 0.0;
    double variance = 0.0;
    /// The unit of every tolerance and floor: the answers' standard deviation, or 1
    /// when every answer is the same.
    double scale() const;
};
AnswerMoments answer_moments(const NumericData &data);

/// Mean of each item's answers (the overall mean for an item without answers).
std::vector<double> item_means(const NumericData &data, const AnswerMoments &moments);
/// Median of each item's answers (the mean of the middle two for an even count).
std::vector<double> item_medians(const NumericData &data, const AnswerMoments &moments);
/// Population standard deviation of each item's answers (0 for 0 or 1 answer).
std::vector<double> item_deviations(const NumericData &data);

/// The pooled within-item variance sum_j sum (x - mean_j)^2 / sum_j (n_j - 1) over the
/// items with two answers or more; the answers' variance when there are none.
double pooled_within_variance(const NumericData &data, const AnswerMoments &moments);
/// The median over items with two answers or more of their sample variance (v_0 of
/// the inverse-gamma prior); the pooled within-item variance when that median is 0.
double typical_item_variance(const NumericData &data, const AnswerMoments &moments);

/// Per worker: the mean residual x - estimate (bias) and the root mean square of the
/// residuals about it (noise); a worker without answers gets 0 and the crowd's noise.
void residual_worker_stats(const NumericData &data, const std::vector<double> &estimate, std::vector<double> &bias,
                           std::vector<double> &noise);

/// Standard errors from each item's own spread: factor * s_j / sqrt(n_j), s_j the
/// sample standard deviation (the pooled one for an item with a single answer).
std::vector<double> spread_standard_errors(const NumericData &data, const AnswerMoments &moments, double factor);

/// The loop of the iterative methods: calls round(current, next) until no estimate
/// moves by more than sqrt(tol) x scale (tol at least 1e-24), or max_iter rounds; the trace gets each
/// round's largest move, and the progress callback sees it. Returns true when cancelled
/// (estimate then holds the last completed round). Sets out.iterations, converged,
/// trace.
bool iterate_estimates(const NumericData &data, const FitOptions &options, const Progress &progress,
                       std::vector<double> &estimate,
                       const std::function<void(const std::vector<double> &, std::vector<double> &)> &round,
                       FitResult &out);

/// Threads for a pass over the answers of `data` (util/parallel.hpp threads_for).
int answer_threads(const NumericData &data, const FitOptions &options);

}  // namespace cs
