// SPDX-License-Identifier: MIT
// The remainder a mod d of 32-bit unsigned integers by a divisor fixed at run time, by
// multiplication instead of a division instruction (Lemire, Kaser and Kurz, "Faster
// remainder by direct computation", Software: Practice and Experience 49(6), 2019):
// with c = ceil(2^64 / d), a mod d = floor(((c a) mod 2^64) d / 2^64), exact for every
// a < 2^32 and 1 <= d < 2^32. A label's class is its code mod k (CrowdData::label_of);
// in a pass over 10^7 labels that does little else the division is most of the cost.
#pragma once

#include <cstdint>

namespace cs {

class FastMod32 {
public:
    explicit FastMod32(uint32_t d) : c_(~uint64_t{0} / d + 1), d_(d) {}
    uint32_t operator()(uint32_t a) const {
        const uint64_t low = c_ * a;  // the fractional part of a / d, scaled by 2^64
        return static_cast<uint32_t>((static_cast<__uint128_t>(low) * d_) >> 64);
    }

private:
    uint64_t c_;  // ceil(2^64 / d) mod 2^64 (0 for d = 1, where every remainder is 0)
    uint32_t d_;
};

}  // namespace cs
