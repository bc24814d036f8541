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
    // Per worker the sum of its residuals, then the sum of squares about its mean: two
    // passes in item order, so a large common bias costs no precision.
    std::vector<double> scratch, sums, squares;
    const std::vector<int32_t> blocks = o.item_blocks(m);
    Team team(answer_threads(data, FitOptions()));
    scatter_by_blocks(o, blocks, m, team, scratch, sums,
                      [&](int32_t j, int64_t p, double *t) { t[o.worker[p]] += data.value[p] - estimate[j]; });
    bias.assign(m, 0.0);
    for (std::size_t w = 0; w < m; ++w)
        if (o.worker_count[w] > 0) bias[w] = sums[w] / static_cast<double>(o.worker_count[w]);
    scatter_by_blocks(o, blocks, m, team, scratch, squares, [&](int32_t j, int64_t p, double *t) {
        const int32_t w = o.worker[p];
        const double r = data.value[p] - estimate[j] - bias[w];
        t[w] += r * r;
    });
    double crowd_ss = 0.0;
    for (int32_t j = 0; j < o.n_items; ++j)
        for (int64_t p = o.item_start[j]; p < o.item_start[j + 1]; ++p)
            crowd_ss += (data.value[p] - estimate[j]) * (data.value[p] - estimate[j]);
    const double crowd_noise = std::sqrt(crowd_ss / static_cast<double>(std::max<std::size_t>(1, data.n_answers())));
    noise.assign(m, crowd_noise);
    for (std::size_t w = 0; w < m; ++w)
        if (o.worker_count[w] > 0) noise[w] = std::sqrt(squares[w] / static_cast<double>(o.worker_count[w]));
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

namespace {

double largest_move(const std::vector<double> &a, const std::vector<double> &b) {
    double move = 0.0;
    for (std::size_t j = 0; j < a.size(); ++j) move = std::max(move, std::fabs(a[j] - b[j]));
    return move;
}

}  // namespace

bool iterate_estimates(const NumericData &data, const FitOptions &options, const Progress &progress,
                       std::vector<double> &estimate,
                       const std::function<void(const std::vector<double> &, std::vector<double> &)> &round,
                       FitResult &out) {
    // The objectives these methods climb change by the square of the estimates' moves,
    // so moves below sqrt(tol) x scale match the crowd methods' tol on the objective.
    const double stop = std::sqrt(std::max(options.tol, 1e-24)) * answer_moments(data).scale();
    out.iterations = 0;
    out.converged = false;
    if (progress.cancelled(0, 0.0)) return true;
    const std::size_t n = estimate.size();
    bool cancelled = false;
    // One counted round from x into y: its move is the trace entry; false when the fit
    // must stop (converged, cancelled or out of rounds).
    const auto step = [&](const std::vector<double> &x, std::vector<double> &y, double &move) {
        round(x, y);
        move = largest_move(x, y);
        ++out.iterations;
        out.trace.push_back(move);
        out.converged = move <= stop;
        if (progress.cancelled(out.iterations, move)) {
            cancelled = true;
            out.converged = false;
        }
        return !out.converged && !cancelled && out.iterations < options.max_iter;
    };
    std::vector<double> x1(n), x2(n), x3(n), jump(n);
    double move1 = 0.0, move2 = 0.0, move3 = 0.0;
    if (options.max_iter <= 0) {
        out.notes |= CS_NOTE_MAX_ITER_REACHED;
        return false;
    }
    for (;;) {
        if (!step(estimate, x1, move1)) {
            estimate.swap(x1);
            break;
        }
        if (options.accel != CS_ACCEL_SQUAREM) {
            estimate.swap(x1);
            continue;
        }
        // SQUAREM (Varadhan and Roland 2008) on the estimates: r = F(x) - x, v = F(F(x))
        // - 2 F(x) + x, alpha = -|r| / |v| (at most -1), x' = x - 2 alpha r + alpha^2 v,
        // then one plain round from x'. Kept when that round moves no more than the plain
        // second round did (the fixed-point residual as merit), else the plain rounds go on.
        if (!step(x1, x2, move2)) {
            estimate.swap(x2);
            break;
        }
        double rr = 0.0, vv = 0.0;
        for (std::size_t j = 0; j < n; ++j) {
            const double r = x1[j] - estimate[j], v = x2[j] - 2.0 * x1[j] + estimate[j];
            rr += r * r;
            vv += v * v;
        }
        const double alpha = vv > 0.0 ? std::min(-1.0, -std::sqrt(rr / vv)) : -1.0;
        for (std::size_t j = 0; j < n; ++j) {
            const double r = x1[j] - estimate[j], v = x2[j] - 2.0 * x1[j] + estimate[j];
            jump[j] = estimate[j] - 2.0 * alpha * r + alpha * alpha * v;
        }
        bool finite = true;
        for (double v : jump) finite = finite && std::isfinite(v);
        const std::vector<double> &from = finite ? jump : x2;
        const bool more = step(from, x3, move3);
        if (finite && !(move3 <= move2) && more) {
            // Rejected: one more plain round from the second one.
            if (!step(x2, x3, move3)) {
                estimate.swap(x3);
                break;
            }
        }
        estimate.swap(x3);
        if (!more) break;
    }
    if (!out.converged && !cancelled) out.notes |= CS_NOTE_MAX_ITER_REACHED;
    return cancelled;
}

}  // namespace cs
