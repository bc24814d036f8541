// SPDX-License-Identifier: MIT
#include "numeric/baselines.hpp"

#include <algorithm>
#include <cmath>

#include "numeric/answer_stats.hpp"

namespace cs {

namespace {

// A one-pass method: iteration 0 only, converged.
bool finish_one_pass(const Progress &progress, FitResult &out) {
    out.iterations = 0;
    out.converged = true;
    return progress.cancelled(0, 0.0);
}

}  // namespace

bool fit_mean(const NumericData &data, const FitOptions &, const Progress &progress, FitResult &out) {
    const AnswerMoments moments = answer_moments(data);
    out.values = item_means(data, moments);
    out.standard_errors = spread_standard_errors(data, moments, 1.0);
    return finish_one_pass(progress, out);
}

bool fit_median(const NumericData &data, const FitOptions &, const Progress &progress, FitResult &out) {
    const AnswerMoments moments = answer_moments(data);
    out.values = item_medians(data, moments);
    out.standard_errors = spread_standard_errors(data, moments, std::sqrt(std::acos(-1.0) / 2.0));
    return finish_one_pass(progress, out);
}

bool fit_trimmed_mean(const NumericData &data, const FitOptions &options, const Progress &progress, FitResult &out) {
    const AnswerMoments moments = answer_moments(data);
    const double pooled = std::sqrt(pooled_within_variance(data, moments));
    const int32_t n_items = data.n_items();
    out.values.assign(static_cast<std::size_t>(n_items), moments.mean);
    out.standard_errors.assign(static_cast<std::size_t>(n_items), 0.0);
    std::vector<double> sorted;
    for (int32_t j = 0; j < n_items; ++j) {
        const int64_t b = data.order.item_start[j], e = data.order.item_start[j + 1];
        if (b == e) continue;
        sorted.assign(data.value.begin() + b, data.value.begin() + e);
        std::sort(sorted.begin(), sorted.end());
        const std::size_t n = sorted.size();
        const std::size_t g = static_cast<std::size_t>(std::floor(options.trim_fraction * static_cast<double>(n)));
        double sum = 0.0;
        for (std::size_t r = g; r < n - g; ++r) sum += sorted[r];
        const double mean = sum / static_cast<double>(n - 2 * g);
        out.values[j] = mean;
        if (n < 2) {
            out.standard_errors[j] = pooled;
            continue;
        }
        // The winsorized sample: the g extreme answers at each end moved to the nearest kept one.
        double wsum = 0.0;
        for (std::size_t r = 0; r < n; ++r) wsum += sorted[std::min(std::max(r, g), n - 1 - g)];
        const double wmean = wsum / static_cast<double>(n);
        double ss = 0.0;
        for (std::size_t r = 0; r < n; ++r) {
            const double x = sorted[std::min(std::max(r, g), n - 1 - g)] - wmean;
            ss += x * x;
        }
        const double sw = std::sqrt(ss / static_cast<double>(n - 1));
        out.standard_errors[j] =
            sw / ((1.0 - 2.0 * static_cast<double>(g) / static_cast<double>(n)) * std::sqrt(static_cast<double>(n)));
    }
    return finish_one_pass(progress, out);
}

}  // namespace cs
