// SPDX-License-Identifier: MIT
// Deterministic pseudo-random numbers, identical on every platform.
//
// Every random choice in crowdspec draws from a Rng seeded by CS_PARAM_SEED
// (DESIGN.md, "Determinism"). The standard library's distributions are
// implementation-defined, so we do not use them: the generator (xoshiro256**,
// seeded through splitmix64) and the conversions below are written here, and give
// the same stream for the same seed with any compiler and standard library.
#pragma once

#include <cmath>
#include <cstdint>

namespace cs {

class Rng {
public:
    explicit Rng(uint64_t seed) {
        // splitmix64 expands the seed into the 256-bit state (never all zero).
        uint64_t x = seed;
        for (uint64_t &s : state_) {
            x += 0x9E3779B97F4A7C15ull;
            uint64_t z = x;
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
            s = z ^ (z >> 31);
        }
    }

    /// Next 64 random bits (xoshiro256**).
    uint64_t next() {
        const uint64_t result = rotl(state_[1] * 5, 7) * 9;
        const uint64_t t = state_[1] << 17;
        state_[2] ^= state_[0];
        state_[3] ^= state_[1];
        state_[1] ^= state_[2];
        state_[0] ^= state_[3];
        state_[2] ^= t;
        state_[3] = rotl(state_[3], 45);
        return result;
    }

    /// Uniform double in [0, 1) with 53 random bits.
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

    /// Uniform integer in [0, bound), bound > 0, without modulo bias (Lemire's method).
    uint64_t below(uint64_t bound) {
        __uint128_t product = static_cast<__uint128_t>(next()) * bound;
        uint64_t low = static_cast<uint64_t>(product);
        if (low < bound) {
            const uint64_t threshold = (0 - bound) % bound;
            while (low < threshold) {
                product = static_cast<__uint128_t>(next()) * bound;
                low = static_cast<uint64_t>(product);
            }
        }
        return static_cast<uint64_t>(product >> 64);
    }

    /// Standard normal deviate (Box-Muller; one value per call, the pair's twin kept).
    double normal() {
        if (has_spare_) {
            has_spare_ = false;
            return spare_;
        }
        double u1 = 0.0;
        while (u1 <= 0.0) u1 = uniform();
        const double u2 = uniform();
        const double radius = std::sqrt(-2.0 * std::log(u1));
        const double angle = 6.283185307179586476925286766559 * u2;
        spare_ = radius * std::sin(angle);
        has_spare_ = true;
        return radius * std::cos(angle);
    }

private:
    static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

    uint64_t state_[4];
    double spare_ = 0.0;
    bool has_spare_ = false;
};

}  // namespace cs
