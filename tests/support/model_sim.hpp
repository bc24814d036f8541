// SPDX-License-Identifier: MIT
// A simulated crowd with a classifier's probabilities (issue 34), shared by
// test_model_assist and test_model_update: workers of one accuracy, and a model right
// with a given probability except on one class, which it calls by another.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "support/fit_helpers.hpp"

namespace test {

// Simulated crowd: k classes, a class-balanced truth, sparse workers of a given
// accuracy (errors uniform), and a model right with probability `model_acc` except on
// class `bad_class`, where it answers bad_class - 1 with confidence 0.9.
struct Sim {
    int32_t k = 3, n_items = 0;
    std::vector<int32_t> truth;
    test::Triples crowd;
    std::vector<double> probs;  // n_items x k
};

inline Sim simulate_with_model(int32_t n_items, int32_t k, int32_t labels_per_item, double worker_acc,
                               double model_acc, int32_t bad_class, uint32_t seed) {
    Sim s;
    s.k = k;
    s.n_items = n_items;
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    const int32_t n_workers = 30;
    for (int32_t j = 0; j < n_items; ++j) {
        const int32_t t = j % k;
        s.truth.push_back(t);
        std::vector<int32_t> used;
        for (int32_t r = 0; r < labels_per_item; ++r) {
            int32_t w;
            do w = static_cast<int32_t>(rng() % n_workers);
            while (std::find(used.begin(), used.end(), w) != used.end());
            used.push_back(w);
            int32_t c = t;
            if (u(rng) > worker_acc) c = (t + 1 + static_cast<int32_t>(rng() % (k - 1))) % k;
            s.crowd.add(j, w, c);
        }
        int32_t said = t;
        double confidence = 0.9;
        if (t == bad_class) said = (t + k - 1) % k;
        else if (u(rng) > model_acc) said = (t + 1 + static_cast<int32_t>(rng() % (k - 1))) % k;
        for (int32_t c = 0; c < k; ++c) s.probs.push_back(c == said ? confidence : (1.0 - confidence) / (k - 1));
    }
    return s;
}

inline double error_rate(const std::vector<int32_t> &labels, const std::vector<int32_t> &truth, int32_t only = -1) {
    int32_t wrong = 0, n = 0;
    for (std::size_t j = 0; j < truth.size(); ++j) {
        if (only >= 0 && truth[j] != only) continue;
        ++n;
        wrong += labels[j] != truth[j];
    }
    return static_cast<double>(wrong) / n;
}

inline std::vector<int32_t> model_argmax(const Sim &s) {
    std::vector<int32_t> out;
    for (int32_t j = 0; j < s.n_items; ++j)
        out.push_back(static_cast<int32_t>(std::max_element(s.probs.begin() + j * s.k, s.probs.begin() + (j + 1) * s.k) -
                                           (s.probs.begin() + j * s.k)));
    return out;
}

}  // namespace test
