// SPDX-License-Identifier: MIT
// Simulators of the answer kinds beside class labels, with known truth: numeric
// answers from workers who are good, biased, noisy or adversarial, and tag sets from
// workers who are good, sloppy (tick too little), spammers or never tick anything, on
// correlated tags. Internal (tests, bench, the command-line program's simulate);
// deterministic by seed (cs::Rng).
#pragma once

#include <cstdint>
#include <vector>

namespace cs {
namespace sim {

/// Numeric crowds: truth ~ N(truth_mean, truth_sd^2); each item answered by
/// answers_per_item distinct workers drawn uniformly. Worker types (fractions
/// normalised): good (bias 0, sd = noise), biased (bias +- 2..4 x noise, sd = noise),
/// noisy (sd 5..10 x noise), adversarial (answers 2 truth_mean - truth + N(0, noise^2):
/// the scale reversed). Any answer is replaced by a wild one, truth_mean +- 10 x
/// truth_sd, with probability outlier_rate.
struct NumbersSpec {
    int32_t n_items = 2000;
    int32_t n_workers = 50;
    int32_t answers_per_item = 5;
    double good = 0.5, biased = 0.2, noisy = 0.2, adversarial = 0.1;
    double truth_mean = 50.0, truth_sd = 20.0, noise = 3.0;
    double outlier_rate = 0.0;
    uint64_t seed = 1;
};

struct NumericCrowd {
    int32_t n_items = 0, n_workers = 0;
    std::vector<int32_t> item, worker;  // answers, item by item
    std::vector<double> value;
    std::vector<double> truth;          // n_items
    std::vector<int32_t> type;          // per worker: 0 good, 1 biased, 2 noisy, 3 adversarial
    std::vector<double> bias, sd;       // per worker (adversaries: 0 and noise)
};

NumericCrowd simulate_numbers(const NumbersSpec &spec);

/// Tag crowds: each tag applies with probability base_rate, tags in pairs (2g, 2g + 1)
/// where the second copies the first with probability correlation; each item answered
/// by answers_per_item distinct workers. Worker types (fractions normalised): good
/// (sensitivity 0.75-0.95, specificity 0.90-0.99), sloppy (sensitivity 0.3-0.5,
/// specificity 0.97-0.995: ticks too little), spammer (ticks each tag with one
/// probability 0.1-0.5 whatever applies), never (ticks nothing). Each good or sloppy
/// worker's sensitivity varies by +- tag_spread between tags around its own (its
/// specificity by half that).
struct TagsSpec {
    int32_t n_items = 2000;
    int32_t n_workers = 50;
    int32_t n_tags = 6;
    int32_t answers_per_item = 5;
    double base_rate = 0.25, correlation = 0.6;
    double good = 0.55, sloppy = 0.15, spammer = 0.2, never = 0.1;
    double tag_spread = 0.05;
    uint64_t seed = 1;
};

struct TagCrowd {
    int32_t n_items = 0, n_workers = 0, n_tags = 0;
    std::vector<int32_t> item, worker;     // answers
    std::vector<int64_t> tag_start;        // answers + 1
    std::vector<int32_t> tag;
    std::vector<uint8_t> truth;            // n_items x n_tags
    std::vector<int32_t> type;             // per worker: 0 good, 1 sloppy, 2 spammer, 3 never
    std::vector<double> sensitivity, specificity;  // n_workers x n_tags (spammer: the tick rate and 1 - it)
};

TagCrowd simulate_tags(const TagsSpec &spec);

}  // namespace sim
}  // namespace cs
