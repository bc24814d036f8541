// SPDX-License-Identifier: MIT
// Dawid-Skene crowd simulator: worker pools of experts, ordinary workers, spammers
// and adversaries, with known truth and confusion matrices. Internal (not part of
// the public API): used by the command-line program (demo, simulate), the tests
// and the benchmarks. Deterministic by seed (cs::Rng).
#pragma once

#include <cstdint>
#include <vector>

namespace cs {
namespace sim {

enum class WorkerType : int32_t { Expert = 0, Normal = 1, Spammer = 2, Adversary = 3 };

/// What to simulate. The worker-type fractions are normalised to sum to 1.
struct CrowdSpec {
    int32_t n_items = 2000;
    int32_t n_workers = 100;
    int32_t k = 3;
    int32_t labels_per_item = 5;   // distinct workers per item (<= n_workers)
    double expert = 0.10;          // accuracy 0.90-0.98 per class
    double normal = 0.65;          // accuracy 0.55-0.85 per class
    double spammer = 0.20;         // answers from one fixed distribution, ignoring the item
    double adversary = 0.05;       // accuracy 0.05-0.20; errors concentrated on one class
    std::vector<double> class_prior;  // k weights; empty = uniform
    uint64_t seed = 1;
    // One-coin workers: one accuracy p per worker, drawn from its type's range (expert
    // 0.90-0.98, normal 0.55-0.85, adversary 0.05-0.20; spammer p = 1/k), and errors
    // spread uniformly, pi[l][l] = p, pi[l][c] = (1 - p) / (k - 1). false (default):
    // the class-wise confusion matrices above, with the same random stream as always.
    bool one_coin = false;
};

struct Crowd {
    int32_t n_items = 0;
    int32_t n_workers = 0;
    int32_t k = 0;
    std::vector<int32_t> item, worker, label;  // the label triples, item by item
    std::vector<int32_t> truth;                // n_items true classes
    std::vector<double> confusion;             // n_workers x k (true) x k (observed)
    std::vector<WorkerType> type;              // n_workers
};

/// Simulate a crowd. Throws std::invalid_argument on an impossible spec.
Crowd simulate_crowd(const CrowdSpec &spec);

/// Bayes-optimal ("oracle") labels given the true confusion matrices and prior:
/// A simulated classifier's probabilities for the crowd's items (benches of issue 34):
/// per item the true class with probability `accuracy`, else a uniformly random other
/// class, said with probability 0.8 and the other classes 0.2 / (k - 1) each;
/// n_items x k, from a std::mt19937_64 seeded with seed ^ 0x9e3779b97f4a7c15.
std::vector<double> classifier_probs(const Crowd &crowd, int32_t k, double accuracy, uint64_t seed);

/// argmax_l log w_l + sum log pi_i[l][c], ties to the lowest index.
std::vector<int32_t> oracle_labels(const Crowd &crowd, const std::vector<double> &prior);

}  // namespace sim
}  // namespace cs
