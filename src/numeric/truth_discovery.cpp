// SPDX-License-Identifier: MIT
// CATD and CRH (docs/algorithms.md, "Numeric answers"). Both alternate
//   weights   omega_w from the residuals of worker w's answers under the current mu
//   estimate  mu_j = sum_{w in W_j} omega_w x_jw / sum_{w in W_j} omega_w
// from the item medians. O(answers) per round.
//
// CATD (Li, Li, Gao, Su, Zhao, Demirbas, Fan, Han 2014, eq. (T2) of the spec): with the
// truths known, sum (x - mu)^2 / sigma_w^2 ~ chi2(N_w), so the upper end of the
// (1 - alpha) interval of sigma_w^2 is S_w / chi2_{alpha/2}(N_w), and its inverse is the
// weight: a worker with few answers is discounted by the small quantile.
// CRH (Li, Li, Gao, Zhao, Fan, Han 2014): min sum_w w_w L_w subject to sum exp(-w_w) = 1
// gives w_w = -log(L_w / sum L) (the paper's weight update), with the normalised
// squared loss L_w = sum (mu_j - x_jw)^2 / std_j (std_j the population deviation of item
// j's answers; unanimous items carry no information on reliability and are skipped).
#include "numeric/truth_discovery.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "numeric/answer_stats.hpp"
#include "numeric/chi_square.hpp"

namespace cs {

namespace {

// mu_j = the weighted mean of item j's answers; the plain mean when its weights sum to 0.
void weighted_means(const NumericData &data, const std::vector<double> &weight, const std::vector<double> &mu,
                    std::vector<double> &next, const std::vector<int32_t> &blocks, Team &team) {
    const AnswerOrder &o = data.order;
    for_items_by_blocks(blocks, team, [&](int32_t j) {
        const int64_t b = o.item_start[j], e = o.item_start[j + 1];
        if (b == e) {
            next[j] = mu[j];
            return;
        }
        double num = 0.0, den = 0.0, plain = 0.0;
        for (int64_t p = b; p < e; ++p) {
            num += weight[o.worker[p]] * data.value[p];
            den += weight[o.worker[p]];
            plain += data.value[p];
        }
        next[j] = den > 0.0 ? num / den : plain / static_cast<double>(e - b);
    });
}

// Each worker's sum over its answers of f(item, residual), gathered block by block in
// item order (data/answer_order.hpp, scatter_by_blocks).
template <class F>
std::vector<double> worker_sums(const NumericData &data, const std::vector<int32_t> &blocks, Team &team,
                                std::vector<double> &scratch, const std::vector<double> &mu, F f) {
    const AnswerOrder &o = data.order;
    std::vector<double> sum;
    scatter_by_blocks(o, blocks, static_cast<std::size_t>(o.n_workers), team, scratch, sum,
                      [&](int32_t j, int64_t p, double *t) { t[o.worker[p]] += f(j, data.value[p] - mu[j]); });
    return sum;
}

// The truth-discovery loop: from the medians, each round sets the weights from the
// current estimates (update_weights) and takes the weighted means. Returns whether the
// fit was cancelled; `estimate` holds the result.
template <class UpdateWeights>
bool iterate_weighted_means(const NumericData &data, const FitOptions &options, const Progress &progress,
                            const std::vector<int32_t> &blocks, Team &team, const std::vector<double> &weight,
                            UpdateWeights update_weights, std::vector<double> &estimate, FitResult &out) {
    estimate = item_medians(data, answer_moments(data));
    return iterate_estimates(
        data, options, progress, estimate,
        [&](const std::vector<double> &mu, std::vector<double> &next) {
            update_weights(mu);
            weighted_means(data, weight, mu, next, blocks, team);
        },
        out);
}

}  // namespace

bool fit_catd(const NumericData &data, const FitOptions &options, const Progress &progress, FitResult &out) {
    const AnswerOrder &o = data.order;
    const AnswerMoments moments = answer_moments(data);
    const double eps = 1e-9 * moments.scale() * moments.scale();
    Team team(answer_threads(data, options));
    const std::vector<int32_t> blocks = o.item_blocks(static_cast<std::size_t>(o.n_workers));
    std::vector<double> scratch;
    // chi2_{alpha/2}(N_w), once per distinct answer count.
    std::vector<double> quantile(static_cast<std::size_t>(o.n_workers), 0.0);
    std::unordered_map<int64_t, double> by_count;
    for (int32_t w = 0; w < o.n_workers; ++w) {
        const int64_t n = o.count(w);
        if (n == 0) continue;
        auto it = by_count.find(n);
        if (it == by_count.end()) it = by_count.emplace(n, chi_square_quantile(options.catd_alpha / 2.0, n)).first;
        quantile[w] = it->second;
    }
    std::vector<double> weight(static_cast<std::size_t>(o.n_workers), 0.0);
    const auto update_weights = [&](const std::vector<double> &mu) {
        const std::vector<double> ss =
            worker_sums(data, blocks, team, scratch, mu, [](int32_t, double r) { return r * r; });
        for (int32_t w = 0; w < o.n_workers; ++w) weight[w] = quantile[w] / (ss[w] + eps);
    };
    std::vector<double> estimate;
    const bool cancelled =
        iterate_weighted_means(data, options, progress, blocks, team, weight, update_weights, estimate, out);
    // omega_w is the inverse of an upper bound of sigma_w^2: (sum omega)^(-1/2) is a
    // conservative standard error of the weighted mean.
    update_weights(estimate);
    out.standard_errors.assign(static_cast<std::size_t>(o.n_items), 0.0);
    for (int32_t j = 0; j < o.n_items; ++j) {
        double sum = 0.0;
        for (int64_t p = o.item_start[j]; p < o.item_start[j + 1]; ++p) sum += weight[o.worker[p]];
        out.standard_errors[j] = sum > 0.0 ? 1.0 / std::sqrt(sum) : 0.0;
    }
    out.values = std::move(estimate);
    return cancelled;
}

bool fit_crh(const NumericData &data, const FitOptions &options, const Progress &progress, FitResult &out) {
    const AnswerOrder &o = data.order;
    const AnswerMoments moments = answer_moments(data);
    Team team(answer_threads(data, options));
    const std::vector<int32_t> blocks = o.item_blocks(static_cast<std::size_t>(o.n_workers));
    std::vector<double> scratch;
    const std::vector<double> deviation = item_deviations(data);
    std::vector<double> weight(static_cast<std::size_t>(o.n_workers), 1.0);
    const auto update_weights = [&](const std::vector<double> &mu) {
        std::vector<double> loss = worker_sums(data, blocks, team, scratch, mu, [&](int32_t j, double r) {
            return deviation[j] > 0.0 ? r * r / deviation[j] : 0.0;
        });
        double total = 0.0;
        for (double l : loss) total += l;
        if (!(total > 0.0)) {  // every answer on the estimates: no worker is better
            std::fill(weight.begin(), weight.end(), 1.0);
            return;
        }
        for (int32_t w = 0; w < o.n_workers; ++w) {
            if (o.count(w) == 0) {
                weight[w] = 0.0;
                continue;
            }
            const double l = std::max(loss[w], 1e-12 * total);  // L_w = 0 would give an infinite weight
            weight[w] = -std::log(l / total);
        }
    };
    std::vector<double> estimate;
    const bool cancelled =
        iterate_weighted_means(data, options, progress, blocks, team, weight, update_weights, estimate, out);
    // Standard error of a weighted mean with weights w and worker variances s_w^2 (the
    // residual mean squares, floored): sqrt(sum w^2 s^2) / sum w.
    update_weights(estimate);
    const double floor = 1e-6 * (moments.variance > 0.0 ? moments.variance : 1.0);
    const std::vector<double> ss =
        worker_sums(data, blocks, team, scratch, estimate, [](int32_t, double r) { return r * r; });
    out.standard_errors.assign(static_cast<std::size_t>(o.n_items), 0.0);
    for (int32_t j = 0; j < o.n_items; ++j) {
        double num = 0.0, den = 0.0, plain = 0.0;
        const int64_t b = o.item_start[j], e = o.item_start[j + 1];
        for (int64_t p = b; p < e; ++p) {
            const int32_t w = o.worker[p];
            const double s2 = std::max(floor, ss[w] / static_cast<double>(o.count(w)));
            num += weight[w] * weight[w] * s2;
            den += weight[w];
            plain += s2;
        }
        if (b == e) continue;
        out.standard_errors[j] =
            den > 0.0 ? std::sqrt(num) / den : std::sqrt(plain) / static_cast<double>(e - b);
    }
    out.values = std::move(estimate);
    return cancelled;
}

}  // namespace cs
