// SPDX-License-Identifier: MIT
// splitmix64 as a deterministic generator of test data: the same stream on every
// platform and standard library (no std:: distribution).
#pragma once

#include <algorithm>
#include <cstdint>

namespace test {

struct SplitMix {
    uint64_t s;
    uint64_t next() {
        uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    /// Uniform in [0, 1).
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
    /// Uniform in 0 .. n - 1.
    int32_t below(int32_t n) { return std::min<int32_t>(n - 1, static_cast<int32_t>(uniform() * n)); }
};

}  // namespace test
