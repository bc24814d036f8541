// SPDX-License-Identifier: MIT
// Division of 32-bit codes by a divisor fixed for a whole fit (a label code, worker * k +
// label, split into its worker and label) without an integer division instruction, which
// costs more than the rest of a label's work in a one-pass or closed-form method.
#pragma once

#include <cstdint>

namespace cs {

class FixedDivisor {
public:
    /// divisor >= 1.
    explicit FixedDivisor(uint32_t divisor) : divisor_(divisor), inverse_(1.0 / divisor) {}

    /// value / divisor, exactly: the quotient by a double reciprocal, off by at most one
    /// (value < 2^32 is far inside a double's 53 bits), then corrected.
    uint32_t quotient(uint32_t value) const {
        uint32_t q = static_cast<uint32_t>(static_cast<double>(value) * inverse_);
        if (static_cast<uint64_t>(q) * divisor_ > value) --q;
        else if ((static_cast<uint64_t>(q) + 1) * divisor_ <= value) ++q;
        return q;
    }

    /// Splits a label code: row = worker * k (the offset of the worker's row in a worker x
    /// class table), label = code - row.
    void split(uint32_t code, uint32_t &row, int32_t &label) const {
        row = quotient(code) * divisor_;
        label = static_cast<int32_t>(code - row);
    }

private:
    uint32_t divisor_;
    double inverse_;
};

}  // namespace cs
