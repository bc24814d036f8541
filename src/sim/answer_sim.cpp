// SPDX-License-Identifier: MIT
#include "sim/answer_sim.hpp"

#include <algorithm>
#include <stdexcept>

#include "util/rng.hpp"

namespace cs {
namespace sim {

namespace {

// A worker type from cumulative fractions.
int32_t draw_type(Rng &rng, const std::vector<double> &fractions) {
    double total = 0.0;
    for (double f : fractions) total += f;
    double u = rng.uniform() * total;
    for (std::size_t t = 0; t < fractions.size(); ++t) {
        if (u < fractions[t]) return static_cast<int32_t>(t);
        u -= fractions[t];
    }
    return static_cast<int32_t>(fractions.size()) - 1;
}

double between(Rng &rng, double lo, double hi) { return lo + (hi - lo) * rng.uniform(); }

// `count` distinct workers out of n_workers (Floyd's algorithm), in increasing order.
std::vector<int32_t> distinct_workers(Rng &rng, int32_t n_workers, int32_t count) {
    std::vector<int32_t> chosen;
    for (int32_t j = n_workers - count; j < n_workers; ++j) {
        const int32_t t = static_cast<int32_t>(rng.uniform() * (j + 1));
        chosen.push_back(std::find(chosen.begin(), chosen.end(), t) == chosen.end() ? t : j);
    }
    std::sort(chosen.begin(), chosen.end());
    return chosen;
}

void check_sizes(int32_t items, int32_t workers, int32_t per_item) {
    if (items < 1 || workers < 1 || per_item < 1 || per_item > workers)
        throw std::invalid_argument("simulation sizes: need items, workers >= 1 and 1 <= answers per item <= workers");
}

}  // namespace

NumericCrowd simulate_numbers(const NumbersSpec &spec) {
    check_sizes(spec.n_items, spec.n_workers, spec.answers_per_item);
    Rng rng(spec.seed);
    NumericCrowd c;
    c.n_items = spec.n_items;
    c.n_workers = spec.n_workers;
    const std::vector<double> fractions = {spec.good, spec.biased, spec.noisy, spec.adversarial};
    for (int32_t w = 0; w < spec.n_workers; ++w) {
        const int32_t type = draw_type(rng, fractions);
        double bias = 0.0, sd = spec.noise;
        if (type == 1) bias = (rng.uniform() < 0.5 ? -1.0 : 1.0) * between(rng, 2.0, 4.0) * spec.noise;
        if (type == 2) sd = between(rng, 5.0, 10.0) * spec.noise;
        c.type.push_back(type);
        c.bias.push_back(bias);
        c.sd.push_back(sd);
    }
    for (int32_t j = 0; j < spec.n_items; ++j) {
        const double truth = spec.truth_mean + spec.truth_sd * rng.normal();
        c.truth.push_back(truth);
        for (int32_t w : distinct_workers(rng, spec.n_workers, spec.answers_per_item)) {
            double x = c.type[w] == 3 ? 2.0 * spec.truth_mean - truth + spec.noise * rng.normal()
                                      : truth + c.bias[w] + c.sd[w] * rng.normal();
            if (spec.outlier_rate > 0.0 && rng.uniform() < spec.outlier_rate)
                x = spec.truth_mean + (rng.uniform() < 0.5 ? -10.0 : 10.0) * spec.truth_sd;
            c.item.push_back(j);
            c.worker.push_back(w);
            c.value.push_back(x);
        }
    }
    return c;
}

TagCrowd simulate_tags(const TagsSpec &spec) {
    check_sizes(spec.n_items, spec.n_workers, spec.answers_per_item);
    if (spec.n_tags < 1) throw std::invalid_argument("simulation: need at least one tag");
    Rng rng(spec.seed);
    const int32_t T = spec.n_tags;
    TagCrowd c;
    c.n_items = spec.n_items;
    c.n_workers = spec.n_workers;
    c.n_tags = T;
    const std::vector<double> fractions = {spec.good, spec.sloppy, spec.spammer, spec.never};
    for (int32_t w = 0; w < spec.n_workers; ++w) {
        const int32_t type = draw_type(rng, fractions);
        c.type.push_back(type);
        double sens = 0.0, spec_ = 1.0;
        if (type == 0) {
            sens = between(rng, 0.75, 0.95);
            spec_ = between(rng, 0.90, 0.99);
        } else if (type == 1) {
            sens = between(rng, 0.3, 0.5);
            spec_ = between(rng, 0.97, 0.995);
        } else if (type == 2) {
            sens = between(rng, 0.1, 0.5);
            spec_ = 1.0 - sens;
        }
        for (int32_t g = 0; g < T; ++g) {
            const double jitter = type <= 1 ? between(rng, -spec.tag_spread, spec.tag_spread) : 0.0;
            c.sensitivity.push_back(std::min(1.0, std::max(0.0, sens + jitter)));
            c.specificity.push_back(type <= 1 ? std::min(1.0, std::max(0.0, spec_ - 0.5 * jitter)) : spec_);
        }
    }
    c.tag_start.push_back(0);
    for (int32_t j = 0; j < spec.n_items; ++j) {
        for (int32_t g = 0; g < T; ++g) {
            bool on = rng.uniform() < spec.base_rate;
            if (g % 2 == 1 && rng.uniform() < spec.correlation) on = c.truth.back() != 0;
            c.truth.push_back(on ? 1 : 0);
        }
        const uint8_t *truth = c.truth.data() + static_cast<std::size_t>(j) * T;
        for (int32_t w : distinct_workers(rng, spec.n_workers, spec.answers_per_item)) {
            c.item.push_back(j);
            c.worker.push_back(w);
            for (int32_t g = 0; g < T; ++g) {
                const std::size_t at = static_cast<std::size_t>(w) * T + g;
                const double p = truth[g] ? c.sensitivity[at] : 1.0 - c.specificity[at];
                if (rng.uniform() < p) c.tag.push_back(g);
            }
            c.tag_start.push_back(static_cast<int64_t>(c.tag.size()));
        }
    }
    return c;
}

}  // namespace sim
}  // namespace cs
