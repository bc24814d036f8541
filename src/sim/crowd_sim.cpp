// SPDX-License-Identifier: MIT
#include "sim/crowd_sim.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>

#include "util/rng.hpp"

namespace cs {
namespace sim {

namespace {

// Random probability vector with `mass` spread over the entries other than `skip`
// (skip < 0: over all entries), with random (uniform-then-normalised) proportions.
void spread(Rng &rng, double *row, int32_t k, int32_t skip, double mass) {
    double total = 0.0;
    for (int32_t c = 0; c < k; ++c) {
        row[c] = c == skip ? 0.0 : 0.05 + rng.uniform();
        total += row[c];
    }
    for (int32_t c = 0; c < k; ++c) row[c] = row[c] * mass / total;
}

WorkerType draw_type(Rng &rng, const CrowdSpec &s) {
    const double total = s.expert + s.normal + s.spammer + s.adversary;
    double u = rng.uniform() * total;
    if ((u -= s.expert) < 0) return WorkerType::Expert;
    if ((u -= s.normal) < 0) return WorkerType::Normal;
    if ((u -= s.spammer) < 0) return WorkerType::Spammer;
    return WorkerType::Adversary;
}

void draw_confusion(Rng &rng, WorkerType type, int32_t k, double *pi) {
    switch (type) {
        case WorkerType::Expert:
        case WorkerType::Normal: {
            const double lo = type == WorkerType::Expert ? 0.90 : 0.55;
            const double hi = type == WorkerType::Expert ? 0.98 : 0.85;
            for (int32_t l = 0; l < k; ++l) {
                const double acc = lo + (hi - lo) * rng.uniform();
                spread(rng, pi + l * k, k, l, 1.0 - acc);
                pi[l * k + l] = acc;
            }
            break;
        }
        case WorkerType::Spammer: {
            // The same answer distribution whatever the true class.
            spread(rng, pi, k, -1, 1.0);
            for (int32_t l = 1; l < k; ++l) std::copy(pi, pi + k, pi + l * k);
            break;
        }
        case WorkerType::Adversary: {
            // Mostly answers a fixed wrong class: true class l -> (l + shift) mod k.
            const int32_t shift = 1 + static_cast<int32_t>(rng.below(static_cast<uint64_t>(k - 1)));
            for (int32_t l = 0; l < k; ++l) {
                const double acc = 0.05 + 0.15 * rng.uniform();
                const int32_t wrong = (l + shift) % k;
                double *row = pi + l * k;
                std::fill(row, row + k, 0.0);
                const double rest = 1.0 - acc;
                row[wrong] = 0.8 * rest;
                row[l] = acc;
                if (k > 2) {
                    const double each = 0.2 * rest / (k - 2);
                    for (int32_t c = 0; c < k; ++c)
                        if (c != l && c != wrong) row[c] = each;
                } else {
                    row[wrong] += 0.2 * rest;
                }
            }
            break;
        }
    }
}

// The one-coin variant of draw_confusion: one accuracy per worker, uniform errors.
void draw_one_coin(Rng &rng, WorkerType type, int32_t k, double *pi) {
    double p = 1.0 / k;  // spammer: answers uniformly at random
    if (type == WorkerType::Expert) p = 0.90 + 0.08 * rng.uniform();
    if (type == WorkerType::Normal) p = 0.55 + 0.30 * rng.uniform();
    if (type == WorkerType::Adversary) p = 0.05 + 0.15 * rng.uniform();
    for (int32_t l = 0; l < k; ++l)
        for (int32_t c = 0; c < k; ++c) pi[l * k + c] = c == l ? p : (1.0 - p) / (k - 1);
}

int32_t draw_from(Rng &rng, const double *p, int32_t k) {
    double u = rng.uniform();
    for (int32_t c = 0; c < k - 1; ++c) {
        if (u < p[c]) return c;
        u -= p[c];
    }
    return k - 1;
}

}  // namespace

Crowd simulate_crowd(const CrowdSpec &spec) {
    if (spec.k < 2) throw std::invalid_argument("simulate: k must be >= 2");
    if (spec.n_items < 1 || spec.n_workers < 1) throw std::invalid_argument("simulate: no items or workers");
    if (spec.labels_per_item < 1 || spec.labels_per_item > spec.n_workers)
        throw std::invalid_argument("simulate: labels per item must be in [1, workers]");
    if (spec.expert < 0 || spec.normal < 0 || spec.spammer < 0 || spec.adversary < 0 ||
        spec.expert + spec.normal + spec.spammer + spec.adversary <= 0)
        throw std::invalid_argument("simulate: worker fractions must be >= 0 with a positive sum");
    if (!spec.class_prior.empty() && static_cast<int32_t>(spec.class_prior.size()) != spec.k)
        throw std::invalid_argument("simulate: class prior needs k weights");

    const int32_t k = spec.k;
    Rng rng(spec.seed);
    Crowd crowd;
    crowd.n_items = spec.n_items;
    crowd.n_workers = spec.n_workers;
    crowd.k = k;
    crowd.type.resize(static_cast<std::size_t>(spec.n_workers));
    crowd.confusion.resize(static_cast<std::size_t>(spec.n_workers) * k * k);
    for (int32_t i = 0; i < spec.n_workers; ++i) {
        crowd.type[i] = draw_type(rng, spec);
        double *pi = crowd.confusion.data() + static_cast<int64_t>(i) * k * k;
        if (spec.one_coin)
            draw_one_coin(rng, crowd.type[i], k, pi);
        else
            draw_confusion(rng, crowd.type[i], k, pi);
    }

    std::vector<double> prior(spec.class_prior);
    if (prior.empty()) prior.assign(static_cast<std::size_t>(k), 1.0);
    double total = 0.0;
    for (double w : prior) {
        if (!(w >= 0.0)) throw std::invalid_argument("simulate: negative class weight");
        total += w;
    }
    if (!(total > 0.0)) throw std::invalid_argument("simulate: class weights sum to 0");
    for (double &w : prior) w /= total;

    const int64_t n_labels = static_cast<int64_t>(spec.n_items) * spec.labels_per_item;
    crowd.truth.resize(static_cast<std::size_t>(spec.n_items));
    crowd.item.reserve(static_cast<std::size_t>(n_labels));
    crowd.worker.reserve(static_cast<std::size_t>(n_labels));
    crowd.label.reserve(static_cast<std::size_t>(n_labels));
    // Distinct workers per item: partial Fisher-Yates over a permutation that is
    // restored after each item (O(labels per item) per item).
    std::vector<int32_t> perm(static_cast<std::size_t>(spec.n_workers));
    for (int32_t i = 0; i < spec.n_workers; ++i) perm[i] = i;
    std::vector<std::pair<int32_t, int32_t>> swaps;
    for (int32_t j = 0; j < spec.n_items; ++j) {
        const int32_t y = draw_from(rng, prior.data(), k);
        crowd.truth[j] = y;
        swaps.clear();
        for (int32_t r = 0; r < spec.labels_per_item; ++r) {
            const int32_t pick = r + static_cast<int32_t>(rng.below(static_cast<uint64_t>(spec.n_workers - r)));
            std::swap(perm[r], perm[pick]);
            swaps.emplace_back(r, pick);
            const int32_t w = perm[r];
            crowd.item.push_back(j);
            crowd.worker.push_back(w);
            crowd.label.push_back(draw_from(rng, crowd.confusion.data() + (static_cast<int64_t>(w) * k + y) * k, k));
        }
        for (auto it = swaps.rbegin(); it != swaps.rend(); ++it) std::swap(perm[it->first], perm[it->second]);
    }
    return crowd;
}

std::vector<int32_t> oracle_labels(const Crowd &crowd, const std::vector<double> &prior) {
    const int32_t k = crowd.k;
    std::vector<double> score(static_cast<std::size_t>(crowd.n_items) * k);
    for (int32_t j = 0; j < crowd.n_items; ++j)
        for (int32_t l = 0; l < k; ++l) score[static_cast<int64_t>(j) * k + l] = std::log(prior[l]);
    for (std::size_t t = 0; t < crowd.item.size(); ++t) {
        const int32_t j = crowd.item[t], i = crowd.worker[t], c = crowd.label[t];
        for (int32_t l = 0; l < k; ++l)
            score[static_cast<int64_t>(j) * k + l] += std::log(crowd.confusion[(static_cast<int64_t>(i) * k + l) * k + c]);
    }
    std::vector<int32_t> labels(static_cast<std::size_t>(crowd.n_items));
    for (int32_t j = 0; j < crowd.n_items; ++j) {
        const double *s = score.data() + static_cast<int64_t>(j) * k;
        labels[j] = static_cast<int32_t>(std::max_element(s, s + k) - s);
    }
    return labels;
}

std::vector<double> classifier_probs(const Crowd &crowd, int32_t k, double accuracy, uint64_t seed) {
    std::mt19937_64 rng(seed ^ 0x9e3779b97f4a7c15ULL);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::vector<double> probs(static_cast<std::size_t>(crowd.n_items) * k, 0.2 / (k - 1));
    for (int32_t j = 0; j < crowd.n_items; ++j) {
        int32_t said = crowd.truth[j];
        if (u(rng) > accuracy) said = (said + 1 + static_cast<int32_t>(rng() % static_cast<uint64_t>(k - 1))) % k;
        probs[static_cast<std::size_t>(j) * k + said] = 0.8;
    }
    return probs;
}

}  // namespace sim
}  // namespace cs
