// SPDX-License-Identifier: MIT
#include "numeric/answer_stats.hpp"

#include <algorithm>
#include <cmath>

#include "util/parallel.hpp"

namespace cs {

double AnswerMoments::scale() const { return variance > 0.0 ? std::sqrt(variance) : 1.0; }

AnswerMoments answer_moments(const NumericData &data) {
    AnswerMoments m;
    const std::size_t n = data.n_answers();
    double sum = 0.0;
    for (double x : data.value) sum += x;
    m.mean = sum / static_cast<double>(n);
    double ss = 0.0;  // two passes: no cancellation for a large common offset
    for (double x : data.value) ss += (x - m.mean) * (x - m.mean);
    m.variance = ss / static_cast<double>(n);
    return m;
}

int answer_threads(const NumericData &data, const FitOptions &options) {
    return threads_for(options.threads, static_cast<int64_t>(data.n_answers()));
}

std::vector<double> item_means(const NumericData &data, const AnswerMoments &moments) {
    const AnswerOrder &o = data.order;
    std::vector<double> mean(static_cast<std::size_t>(o.n_items), moments.mean);
#pragma omp parallel for schedule(static) num_threads(answer_threads(data, FitOptions()))
    for (int32_t j = 0; j < o.n_items; ++j) {
        const int64_t b = o.item_start[j], e = o.item_start[j + 1];
        if (b == e) continue;
        double sum = 0.0;
        for (int64_t p = b; p < e; ++p) sum += data.value[p];
        mean[j] = sum / static_cast<double>(e - b);
    }
    return mean;
}

std::vector<double> item_medians(const NumericData &data, const AnswerMoments &moments) {
    const AnswerOrder &o = data.order;
    std::vector<double> median(static_cast<std::size_t>(o.n_items), moments.mean);
    std::vector<double> scratch;
    for (int32_t j = 0; j < o.n_items; ++j) {
        const int64_t b = o.item_start[j], e = o.item_start[j + 1];
        if (b == e) continue;
        scratch.assign(data.value.begin() + b, data.value.begin() + e);
        const std::size_t n = scratch.size(), h = n / 2;
        std::nth_element(scratch.begin(), scratch.begin() + static_cast<std::ptrdiff_t>(h), scratch.end());
        double m = scratch[h];
        if (n % 2 == 0) m = 0.5 * (m + *std::max_element(scratch.begin(), scratch.begin() + static_cast<std::ptrdiff_t>(h)));
        median[j] = m;
    }
    return median;
}

std::vector<double> item_deviations(const NumericData &data) {
    const AnswerOrder &o = data.order;
    std::vector<double> sd(static_cast<std::size_t>(o.n_items), 0.0);
    for (int32_t j = 0; j < o.n_items; ++j) {
        const int64_t b = o.item_start[j], e = o.item_start[j + 1];
        if (e - b < 2) continue;
        double sum = 0.0;
        for (int64_t p = b; p < e; ++p) sum += data.value[p];
        const double mean = sum / static_cast<double>(e - b);
        double ss = 0.0;
        for (int64_t p = b; p < e; ++p) ss += (data.value[p] - mean) * (data.value[p] - mean);
        sd[j] = std::sqrt(ss / static_cast<double>(e - b));
    }
    return sd;
}

namespace {

// Sample variance of item j's answers (n_j >= 2).
double item_sample_variance(const NumericData &data, int32_t j, double &ss_out) {
    const int64_t b = data.order.item_start[j], e = data.order.item_start[j + 1];
    double sum = 0.0;
    for (int64_t p = b; p < e; ++p) sum += data.value[p];
    const double mean = sum / static_cast<double>(e - b);
    double ss = 0.0;
    for (int64_t p = b; p < e; ++p) ss += (data.value[p] - mean) * (data.value[p] - mean);
    ss_out = ss;
    return ss / static_cast<double>(e - b - 1);
}

}  // namespace

double pooled_within_variance(const NumericData &data, const AnswerMoments &moments) {
    double ss = 0.0, dof = 0.0;
    for (int32_t j = 0; j < data.n_items(); ++j) {
        const int64_t n = data.order.item_start[j + 1] - data.order.item_start[j];
        if (n < 2) continue;
        double item_ss = 0.0;
        item_sample_variance(data, j, item_ss);
        ss += item_ss;
        dof += static_cast<double>(n - 1);
    }
    return dof > 0.0 ? ss / dof : moments.variance;
}

double typical_item_variance(const NumericData &data, const AnswerMoments &moments) {
    std::vector<double> variances;
    for (int32_t j = 0; j < data.n_items(); ++j) {
        if (data.order.item_start[j + 1] - data.order.item_start[j] < 2) continue;
        double unused = 0.0;
        variances.push_back(item_sample_variance(data, j, unused));
    }
    double v = 0.0;
    if (!variances.empty()) {
        const std::size_t h = variances.size() / 2;
        std::nth_element(variances.begin(), variances.begin() + static_cast<std::ptrdiff_t>(h), variances.end());
        v = variances[h];
    }
    if (v > 0.0) return v;
    v = pooled_within_variance(data, moments);
    return v > 0.0 ? v : moments.variance;
}

void residual_worker_stats(const NumericData &data, const std::vector<double> &estimate, std::vector<double> &bias,
                           std::vector<double> &noise) {
    const AnswerOrder &o = data.order;
    const std::size_t m = static_cast<std::size_t>(o.n_workers);
    bias.assign(m, 0.0);
    noise.assign(m, 0.0);
    // Residuals by position, so each worker's sums run over its own positions in order.
    std::vector<double> residual(data.n_answers());
    for (int32_t j = 0; j < o.n_items; ++j)
        for (int64_t p = o.item_start[j]; p < o.item_start[j + 1]; ++p) residual[p] = data.value[p] - estimate[j];
    double crowd_ss = 0.0;
    for (double r : residual) crowd_ss += r * r;
    const double crowd_noise = std::sqrt(crowd_ss / static_cast<double>(std::max<std::size_t>(1, residual.size())));
    for (int32_t w = 0; w < o.n_workers; ++w) {
        const int64_t b = o.worker_start[w], e = o.worker_start[w + 1];
        if (b == e) {
            noise[w] = crowd_noise;
            continue;
        }
        double sum = 0.0;
        for (int64_t q = b; q < e; ++q) sum += residual[o.by_worker[q]];
        const double mean = sum / static_cast<double>(e - b);
        double ss = 0.0;
        for (int64_t q = b; q < e; ++q) ss += (residual[o.by_worker[q]] - mean) * (residual[o.by_worker[q]] - mean);
        bias[w] = mean;
        noise[w] = std::sqrt(ss / static_cast<double>(e - b));
    }
}

std::vector<double> spread_standard_errors(const NumericData &data, const AnswerMoments &moments, double factor) {
    const double pooled = std::sqrt(pooled_within_variance(data, moments));
    std::vector<double> se(static_cast<std::size_t>(data.n_items()), 0.0);
    for (int32_t j = 0; j < data.n_items(); ++j) {
        const int64_t n = data.order.item_start[j + 1] - data.order.item_start[j];
        if (n == 0) continue;
        double unused = 0.0;
        const double s = n >= 2 ? std::sqrt(item_sample_variance(data, j, unused)) : pooled;
        se[j] = factor * s / std::sqrt(static_cast<double>(n));
    }
    return se;
}

bool iterate_estimates(const NumericData &data, const FitOptions &options, const Progress &progress,
                       std::vector<double> &estimate,
                       const std::function<void(const std::vector<double> &, std::vector<double> &)> &round,
                       FitResult &out) {
    const double stop = std::max(options.tol, 1e-12) * answer_moments(data).scale();
    out.iterations = 0;
    out.converged = false;
    if (progress.cancelled(0, 0.0)) return true;
    std::vector<double> next(estimate.size());
    for (int32_t it = 1; it <= options.max_iter; ++it) {
        round(estimate, next);
        double move = 0.0;
        for (std::size_t j = 0; j < next.size(); ++j) move = std::max(move, std::fabs(next[j] - estimate[j]));
        estimate.swap(next);
        out.iterations = it;
        out.trace.push_back(move);
        out.converged = move <= stop;
        if (progress.cancelled(it, move)) {
            out.converged = false;
            return true;
        }
        if (out.converged) break;
    }
    if (!out.converged) out.notes |= CS_NOTE_MAX_ITER_REACHED;
    return false;
}

}  // namespace cs
