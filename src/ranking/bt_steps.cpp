// SPDX-License-Identifier: MIT
#include "ranking/bt_steps.hpp"

#include <cmath>
#include <string>

#include "util/error.hpp"

namespace cs {

double log_sigmoid(double x) { return x >= 0.0 ? -std::log1p(std::exp(-x)) : x - std::log1p(std::exp(x)); }

double sigmoid(double x) {
    if (x >= 0.0) return 1.0 / (1.0 + std::exp(-x));
    const double e = std::exp(x);
    return e / (1.0 + e);
}

bool all_finite(const std::vector<double> &values) {
    for (double v : values)
        if (!std::isfinite(v)) return false;
    return true;
}

double sum_in_order(const std::vector<double> &partial) {
    double total = 0.0;
    for (double v : partial) total += v;
    return total;
}

PairWeights count_weights(const ComparisonData &data, int32_t ties) {
    PairWeights w;
    w.pair.resize(data.pair_count.size());
    for (std::size_t p = 0; p < data.pair_count.size(); ++p) {
        w.pair[p] = {static_cast<double>(data.low_wins[p]), static_cast<double>(data.high_wins(p)), 0.0};
        const double t = data.pair_ties[p];
        if (ties == CS_TIES_DAVIDSON) {
            w.pair[p].tie = t;
            w.total_ties += t;
        } else if (ties == CS_TIES_HALF) {
            w.pair[p].low += 0.5 * t;
            w.pair[p].high += 0.5 * t;
        }
    }
    return w;
}

PairTotals::PairTotals(const ComparisonData &data, int32_t ties) : count_(data.pair_count.data()) {
    if (ties == CS_TIES_DAVIDSON) total_ties_ = static_cast<double>(data.ties);
    if (ties == CS_TIES_IGNORE && data.ties > 0) {
        without_ties_.resize(data.pair_count.size());
        for (std::size_t p = 0; p < without_ties_.size(); ++p) without_ties_[p] = data.pair_count[p] - data.pair_ties[p];
        count_ = without_ties_.data();
    }
}

std::vector<double> item_wins(const ComparisonData &data, int32_t ties) {
    const double tie_share = ties == CS_TIES_IGNORE ? 0.0 : 0.5;
    std::vector<double> wins(static_cast<std::size_t>(data.n_items));
    for (std::size_t i = 0; i < wins.size(); ++i) wins[i] = data.item_won[i] + tie_share * data.item_tied[i];
    return wins;
}

void mm_update(const double *wins, const double *first, const double *second, double lambda, double nu,
               const std::vector<double> &pi, std::vector<double> &out) {
    const std::size_t n = pi.size();
    out.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        // Numerator: own wins + half the ties + lambda virtual wins (bt.md B13/B15);
        // denominator: the comparisons' terms + the virtual item's 2 lambda / (1 + pi_i).
        double denominator = first[i] + (lambda > 0.0 ? 2.0 * lambda / (1.0 + pi[i]) : 0.0);
        if (second != nullptr && nu > 0.0) denominator += 0.5 * nu * second[i] / pi[i];
        // No comparison and no prior: nothing moves the item (only with lambda = 0,
        // where the existence check allows it for a single item alone).
        out[i] = denominator > 0.0 ? (wins[i] + lambda) / denominator : pi[i];
    }
    if (lambda == 0.0 && n > 0) {
        // The likelihood is scale-free: fix the gauge at mean log-score 0.
        double mean_log = 0.0;
        for (double v : out) mean_log += std::log(v);
        mean_log /= static_cast<double>(n);
        const double scale = std::exp(-mean_log);
        for (double &v : out) v *= scale;
    }
}

std::vector<double> score_scales(const ComparisonData &data, double lambda) {
    std::vector<double> scale(static_cast<std::size_t>(data.n_items));
    for (std::size_t i = 0; i < scale.size(); ++i) scale[i] = std::sqrt(0.25 * data.item_comparisons[i] + 0.5 * lambda);
    return scale;
}

void optimal_shift(const ComparisonData &data, std::vector<double> &pi, double lambda) {
    if (lambda == 0.0 || pi.empty()) return;
    const std::size_t components = static_cast<std::size_t>(data.n_components);
    std::vector<double> c(components, 0.0), scale(components, 1.0), gradient(components), curvature(components);
    std::vector<char> done(components, 0);
    for (int step = 0; step < 100; ++step) {
        std::fill(gradient.begin(), gradient.end(), 0.0);
        std::fill(curvature.begin(), curvature.end(), 0.0);
        for (std::size_t i = 0; i < pi.size(); ++i) {
            const std::size_t k = static_cast<std::size_t>(data.component[i]);
            if (done[k]) continue;
            // sigma(s_i + c) = x / (1 + x) with x = pi_i e^c: one exp per component and
            // step rather than one per item (this step runs after every sweep).
            const double x = pi[i] * scale[k];
            if (!(x <= 1e300)) {
                gradient[k] -= 1.0;  // sigma = 1
                continue;
            }
            const double inverse = 1.0 / (1.0 + x);
            gradient[k] += (1.0 - x) * inverse;  // d/dc [log sigma + log sigma(-.)] = 1 - 2 sigma
            curvature[k] += 2.0 * x * inverse * inverse;  // 2 sigma (1 - sigma)
        }
        bool moving = false;
        for (std::size_t k = 0; k < components; ++k) {
            if (done[k]) continue;
            // Newton, its step bounded by 1 (the function is concave, the step then safe).
            const double move =
                curvature[k] > 0.0 ? std::max(-1.0, std::min(1.0, gradient[k] / curvature[k])) : 0.0;
            c[k] += move;
            scale[k] = std::exp(c[k]);
            if (std::fabs(move) < 1e-13) done[k] = 1;
            moving = moving || !done[k];
        }
        if (!moving) break;
    }
    for (std::size_t i = 0; i < pi.size(); ++i) pi[i] *= scale[static_cast<std::size_t>(data.component[i])];
}

double nu_step(const ComparisonData &data, const PairTotals &n, double nu, const std::vector<double> &pi,
               Team &team) {
    if (n.total_ties() <= 0.0) return 0.0;
    const uint32_t *count = n.count();
    const int64_t pairs = data.n_pairs();
    std::vector<double> partial(static_cast<std::size_t>((pairs + kPairBlock - 1) / kPairBlock), 0.0);
    for_blocks(team, pairs, kPairBlock, [&](int64_t begin, int64_t end, int64_t b) {
        double sum = 0.0;
        for (int64_t q = begin; q < end; ++q) {
            const std::size_t p = static_cast<std::size_t>(q);
            const double a = pi[static_cast<std::size_t>(data.pair_lo[p])], c = pi[static_cast<std::size_t>(data.pair_hi[p])];
            const double root = std::sqrt(a * c);
            sum += count[p] * root / (a + c + nu * root);
        }
        partial[static_cast<std::size_t>(b)] = sum;
    });
    const double denominator = sum_in_order(partial);
    return denominator > 0.0 ? std::min(kMaxNu, n.total_ties() / denominator) : kMaxNu;
}

double log_prior(const std::vector<double> &s, double lambda) {
    if (lambda == 0.0) return 0.0;
    double sum = 0.0;
    for (double v : s) sum += log_sigmoid(v) + log_sigmoid(-v);
    return lambda * sum;
}

void require_strongly_connected(const ComparisonData &data, const PairWeights &w) {
    const std::size_t n = static_cast<std::size_t>(data.n_items);
    if (n <= 1) return;
    // Per item, its pairs and the other item of each (only this check, with lambda = 0,
    // walks the graph item by item).
    const std::size_t pairs = data.pair_lo.size();
    std::vector<int64_t> row_start(n + 1, 0);
    for (std::size_t p = 0; p < pairs; ++p) {
        ++row_start[static_cast<std::size_t>(data.pair_lo[p]) + 1];
        ++row_start[static_cast<std::size_t>(data.pair_hi[p]) + 1];
    }
    for (std::size_t i = 0; i < n; ++i) row_start[i + 1] += row_start[i];
    std::vector<uint32_t> row_pair(2 * pairs);
    std::vector<int32_t> row_other(2 * pairs);
    {
        std::vector<int64_t> next(row_start.begin(), row_start.end() - 1);
        for (std::size_t p = 0; p < pairs; ++p) {
            const int32_t lo = data.pair_lo[p], hi = data.pair_hi[p];
            const std::size_t a = static_cast<std::size_t>(next[static_cast<std::size_t>(lo)]++);
            const std::size_t b = static_cast<std::size_t>(next[static_cast<std::size_t>(hi)]++);
            row_pair[a] = row_pair[b] = static_cast<uint32_t>(p);
            row_other[a] = hi;
            row_other[b] = lo;
        }
    }
    // Forward from item 0 along "i beat or tied j" (i -> j), then backward (j -> i): the
    // graph is strongly connected iff both reach every item.
    for (int direction = 0; direction < 2; ++direction) {
        std::vector<char> seen(n, 0);
        std::vector<int32_t> stack = {0};
        seen[0] = 1;
        std::size_t reached = 1;
        while (!stack.empty()) {
            const int32_t i = stack.back();
            stack.pop_back();
            for (int64_t e = row_start[static_cast<std::size_t>(i)]; e < row_start[static_cast<std::size_t>(i) + 1]; ++e) {
                const std::size_t p = row_pair[static_cast<std::size_t>(e)];
                const int32_t j = row_other[static_cast<std::size_t>(e)];
                const bool low = j > i;
                // Forward: an edge i -> j when i beat j; backward: when j beat i.
                const double beat = (low == (direction == 0)) ? w.pair[p].low : w.pair[p].high;
                if ((beat > 0.0 || w.pair[p].tie > 0.0) && !seen[static_cast<std::size_t>(j)]) {
                    seen[static_cast<std::size_t>(j)] = 1;
                    ++reached;
                    stack.push_back(j);
                }
            }
        }
        if (reached < n) {
            std::size_t missing = 0;
            while (seen[missing]) ++missing;
            throw Error(CS_ERR_NOT_CONNECTED,
                        "with comparison_prior = 0 the maximum-likelihood scores do not exist: item " +
                            std::to_string(missing) + (direction == 0 ? " was never beaten (or tied) by a chain of wins "
                                                                         "from item 0"
                                                                       : " never beat (or tied) item 0 through a chain of "
                                                                         "wins") +
                            ", so the comparison graph is not strongly connected; set comparison_prior > 0 (default 1)");
        }
    }
}

}  // namespace cs
