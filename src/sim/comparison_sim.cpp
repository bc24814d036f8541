// SPDX-License-Identifier: MIT
#include "sim/comparison_sim.hpp"

#include <cmath>
#include <cstddef>

#include "util/rng.hpp"

namespace cs::sim {

namespace {

constexpr int32_t kLeft = 0, kRight = 1, kTie = 2;  // CS_ANSWER_LEFT / RIGHT / TIE

double logistic(double x) { return 1.0 / (1.0 + std::exp(-x)); }

}  // namespace

SimulatedComparisons simulate_comparisons(const ComparisonSimOptions &o) {
    Rng rng(o.seed);
    SimulatedComparisons out;
    out.score.resize(static_cast<std::size_t>(o.items));
    for (double &s : out.score) s = o.score_sd * rng.normal();
    const std::size_t n = static_cast<std::size_t>(o.comparisons);
    out.worker.resize(n);
    out.left.resize(n);
    out.right.resize(n);
    out.answer.resize(n);
    const auto items = static_cast<uint64_t>(o.items);
    for (std::size_t t = 0; t < n; ++t) {
        const int32_t w = static_cast<int32_t>(rng.below(static_cast<uint64_t>(o.workers)));
        const int32_t a = static_cast<int32_t>(rng.below(items));
        int32_t b = static_cast<int32_t>(rng.below(items - 1));
        if (b >= a) ++b;
        const double d = out.score[static_cast<std::size_t>(a)] - out.score[static_cast<std::size_t>(b)];
        // The Bradley-Terry (Davidson) answer on the true scores.
        int32_t answer;
        const double u = rng.uniform();
        if (o.nu > 0.0 && o.model == ComparisonModel::Bt) {
            const double pa = std::exp(0.5 * d), pb = std::exp(-0.5 * d), total = pa + pb + o.nu;
            answer = u < pa / total ? kLeft : u < (pa + o.nu) / total ? kTie : kRight;
        } else {
            answer = u < logistic(d) ? kLeft : kRight;
        }
        const double r = o.reliability.empty() ? 1.0 : o.reliability[static_cast<std::size_t>(w)];
        if (o.model == ComparisonModel::Noisy && rng.uniform() >= r) {
            const double bias = o.bias.empty() ? 0.5 : o.bias[static_cast<std::size_t>(w)];
            answer = rng.uniform() < bias ? kLeft : kRight;
        } else if (o.model == ComparisonModel::Crowd && rng.uniform() >= r) {
            answer = answer == kLeft ? kRight : kLeft;
        }
        out.worker[t] = w;
        out.left[t] = a;
        out.right[t] = b;
        out.answer[t] = answer;
    }
    return out;
}

}  // namespace cs::sim
