// SPDX-License-Identifier: MIT
// Coordinate ascent on the posterior of the worker-noise model (docs/algorithms.md,
// "Numeric answers"). One round, from the current estimates mu:
//   E (t only)  u_p = (nu + 1) / (nu + (x_p - mu_j - b_w)^2 / sigma_w^2)     (scale mixture weight)
//   bias        b_w = sum_p u_p r_p / (sum_p u_p + kappa),  r_p = x_p - mu_j  (normal prior, kappa = 1
//               pseudo-answer of zero bias), then all b_w - c with c the answer-weighted mean bias
//               (the gauge: the average answer is unbiased)
//   noise       sigma_w^2 = (b_0 + 1/2 sum_p u_p (r_p - b_w)^2 + 1/2 kappa b_w^2) / (a_0 + 1 + (N_w + 1) / 2)
//               (inverse-gamma prior IG(a_0, b_0), b_0 = (a_0 + 1) v_0; a_0 = 0: the maximum
//               likelihood sum u (r - b)^2 / N_w of Raykar's (R2)), floored at 1e-6 x Var(answers)
//   estimate    mu_j = sum_p u_p (x_p - b_w) / sigma_w^2 / sum_p u_p / sigma_w^2            (Raykar's (R1))
// Each step maximises the posterior in its block, so the posterior never decreases.
// O(answers) per round. Standard error of mu_j: the inverse square root of its Fisher
// information, sum_w 1 / sigma_w^2 (Gaussian) or sum_w (nu + 1) / ((nu + 3) sigma_w^2) (t).
#include "numeric/worker_model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "numeric/answer_stats.hpp"

namespace cs {

namespace {

constexpr double kBiasPseudoAnswers = 1.0;  // kappa

struct NoiseModel {
    double nu;         // degrees of freedom; infinity = Gaussian
    bool bias;         // additive bias per worker
    double a0, b0;     // inverse-gamma prior (a0 = 0: none)
    double floor;      // smallest variance
};

bool fit_worker_model(const NumericData &data, const FitOptions &options, const Progress &progress,
                      std::vector<double> estimate, const NoiseModel &model, FitResult &out) {
    const AnswerOrder &o = data.order;
    Team team(answer_threads(data, options));
    const bool gaussian = std::isinf(model.nu);
    const std::size_t m = static_cast<std::size_t>(o.n_workers);
    std::vector<double> bias(m, 0.0);
    std::vector<double> variance(m, model.b0 > 0 ? model.b0 / (model.a0 + 1.0) : 1.0);
    std::vector<double> weight(data.n_answers(), 1.0);  // u_p
    // Per worker: sum u, sum u r, sum u r^2 (r = x - mu), gathered block by block in
    // item order (a sequential pass; data/answer_order.hpp, scatter_by_blocks).
    const std::vector<int32_t> blocks = o.item_blocks(3 * m);
    std::vector<double> scratch, sums;
    bool floored = false;
    bool first = true;
    const auto round = [&](const std::vector<double> &mu, std::vector<double> &next) {
        // E-step of the t model with the previous round's worker parameters (the first
        // round has none yet: every weight 1), fused with the worker sums.
        const bool reweigh = !gaussian && !first;
        first = false;
        scatter_by_blocks(o, blocks, 3 * m, team, scratch, sums, [&](int32_t j, int64_t p, double *t) {
            const int32_t w = o.worker[p];
            const double r = data.value[p] - mu[j];
            if (reweigh) {
                const double e = r - bias[w];
                weight[p] = (model.nu + 1.0) / (model.nu + e * e / variance[w]);
            }
            const double u = weight[p];
            t[3 * w] += u;
            t[3 * w + 1] += u * r;
            t[3 * w + 2] += u * r * r;
        });
        // Worker step: bias, the gauge, then noise.
        for (std::size_t w = 0; w < m; ++w) bias[w] = model.bias ? sums[3 * w + 1] / (sums[3 * w] + kBiasPseudoAnswers) : 0.0;
        if (model.bias) {  // the gauge: sum_w N_w b_w = 0
            double sum = 0.0;
            for (int32_t w = 0; w < o.n_workers; ++w) sum += static_cast<double>(o.count(w)) * bias[w];
            const double c = sum / static_cast<double>(data.n_answers());
            for (double &b : bias) b -= c;
        }
        for (int32_t w = 0; w < o.n_workers; ++w) {
            const int64_t n = o.count(w);
            if (n == 0) continue;
            const double s0 = sums[3 * w], s1 = sums[3 * w + 1], s2 = sums[3 * w + 2], b = bias[w];
            // sum u (r - b)^2, from the three sums (never below 0 in rounding).
            const double ss = std::max(0.0, s2 - 2.0 * b * s1 + b * b * s0);
            double v;
            if (model.a0 > 0.0) {
                const double extra = model.bias ? 1.0 : 0.0;
                v = (model.b0 + 0.5 * ss + 0.5 * kBiasPseudoAnswers * b * b * extra) /
                    (model.a0 + 1.0 + 0.5 * (static_cast<double>(n) + extra));
            } else {
                v = ss / static_cast<double>(n);
            }
            if (!(v > model.floor)) {
                v = model.floor;
                floored = true;
            }
            variance[w] = v;
        }
        // Estimate step (R1).
        for_items_by_blocks(blocks, team, [&](int32_t j) {
            const int64_t b = o.item_start[j], e = o.item_start[j + 1];
            if (b == e) {
                next[j] = mu[j];
                return;
            }
            double num = 0.0, den = 0.0;
            for (int64_t p = b; p < e; ++p) {
                const int32_t w = o.worker[p];
                const double c = weight[p] / variance[w];
                num += c * (data.value[p] - bias[w]);
                den += c;
            }
            next[j] = num / den;
        });
    };
    const bool cancelled = iterate_estimates(data, options, progress, estimate, round, out);
    // Standard errors from the Fisher information of each estimate.
    const double info = gaussian ? 1.0 : (model.nu + 1.0) / (model.nu + 3.0);
    out.standard_errors.assign(static_cast<std::size_t>(o.n_items), 0.0);
    for (int32_t j = 0; j < o.n_items; ++j) {
        double precision = 0.0;
        for (int64_t p = o.item_start[j]; p < o.item_start[j + 1]; ++p) precision += info / variance[o.worker[p]];
        out.standard_errors[j] = precision > 0.0 ? 1.0 / std::sqrt(precision) : 0.0;
    }
    out.values = std::move(estimate);
    out.worker_bias = bias;
    out.worker_noise.resize(variance.size());
    for (std::size_t w = 0; w < variance.size(); ++w) out.worker_noise[w] = std::sqrt(variance[w]);
    if (floored) out.notes |= CS_NOTE_VARIANCE_FLOOR;
    return cancelled;
}

NoiseModel noise_model(const NumericData &data, const FitOptions &options, double nu) {
    const AnswerMoments moments = answer_moments(data);
    NoiseModel m;
    m.nu = nu;
    m.bias = options.worker_bias != 0;
    m.a0 = options.variance_prior;
    m.b0 = m.a0 > 0.0 ? (m.a0 + 1.0) * typical_item_variance(data, moments) : 0.0;
    m.floor = 1e-6 * (moments.variance > 0.0 ? moments.variance : 1.0);
    if (m.a0 > 0.0 && !(m.b0 > 0.0)) m.b0 = (m.a0 + 1.0) * m.floor;  // every answer equal
    return m;
}

}  // namespace

bool fit_gaussian(const NumericData &data, const FitOptions &options, const Progress &progress, FitResult &out) {
    const NoiseModel model = noise_model(data, options, std::numeric_limits<double>::infinity());
    return fit_worker_model(data, options, progress, item_means(data, answer_moments(data)), model, out);
}

bool fit_student_t(const NumericData &data, const FitOptions &options, const Progress &progress, FitResult &out) {
    const NoiseModel model = noise_model(data, options, options.t_dof);
    return fit_worker_model(data, options, progress, item_medians(data, answer_moments(data)), model, out);
}

}  // namespace cs
