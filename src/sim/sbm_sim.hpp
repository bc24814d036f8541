// SPDX-License-Identifier: MIT
// Stochastic block model simulator (internal: tests, benchmarks): n nodes in k
// communities of sizes as equal as possible (randomly assigned), each pair of nodes
// adjacent with probability a / n inside a community and b / n across. O(edges + n)
// time through geometric skips over the pairs. Deterministic by seed (cs::Rng).
#pragma once

#include <cstdint>
#include <vector>

namespace cs {
namespace sim {

struct SbmSpec {
    int32_t n = 1000;
    int32_t k = 2;
    double a = 10.0;   // n x within-community edge probability
    double b = 2.0;    // n x between-community edge probability
    uint64_t seed = 1;
};

struct Sbm {
    int32_t n = 0;
    int32_t k = 0;
    std::vector<int32_t> u, v;     // edges (u < v not guaranteed), each pair at most once
    std::vector<int32_t> truth;    // n communities
};

/// Simulate the graph. Throws std::invalid_argument on an impossible spec.
Sbm simulate_sbm(const SbmSpec &spec);

}  // namespace sim
}  // namespace cs
