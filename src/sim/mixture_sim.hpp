// SPDX-License-Identifier: MIT
// Gaussian mixture simulator (internal: tests, benchmarks, the command-line program):
// k centres at equal pairwise distance delta, spherical noise of standard deviation
// sigma, labels uniform on the k classes. Deterministic by seed (cs::Rng).
#pragma once

#include <cstdint>
#include <vector>

namespace cs {
namespace sim {

struct MixtureSpec {
    int64_t n = 1000;
    int32_t d = 10;
    int32_t k = 2;          // requires k <= d
    double delta = 5.0;     // distance between any two centres
    double sigma = 1.0;     // noise standard deviation per coordinate
    uint64_t seed = 1;
};

struct Mixture {
    int64_t n = 0;
    int32_t d = 0;
    int32_t k = 0;
    std::vector<double> x;        // n x d, row-major
    std::vector<int32_t> truth;   // n
    std::vector<double> centres;  // k x d: centre h = (delta / sqrt 2) e_h
};

/// Simulate the mixture. Throws std::invalid_argument on an impossible spec.
Mixture simulate_mixture(const MixtureSpec &spec);

/// The oracle: each point's nearest true centre (ties to the lowest index).
std::vector<int32_t> nearest_centre_labels(const Mixture &mixture);

}  // namespace sim
}  // namespace cs
