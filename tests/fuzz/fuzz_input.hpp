// SPDX-License-Identifier: MIT
// Shared by the libFuzzer targets (tests/fuzz, CMake option CS_FUZZ): the fuzzer's
// bytes as a stream of small decisions, and the failure report of a broken invariant
// (printed, then abort(), which libFuzzer records as a crash with its input).
#pragma once

#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>

namespace fuzz {

/// Reads decisions off the input; past its end every read gives 0.
class Input {
public:
    Input(const uint8_t *data, size_t size) : p_(data), n_(size) {}

    uint8_t byte() {
        if (n_ == 0) return 0;
        --n_;
        return *p_++;
    }
    uint32_t u32() {
        uint32_t v = 0;
        for (int i = 0; i < 4; ++i) v = v << 8 | byte();
        return v;
    }
    /// Uniform-ish in [lo, hi] (inclusive), from one or four bytes.
    int32_t in(int32_t lo, int32_t hi) {
        const uint64_t span = static_cast<uint64_t>(static_cast<int64_t>(hi) - lo) + 1;
        const uint64_t draw = span <= 256 ? byte() : u32();
        return static_cast<int32_t>(lo + static_cast<int64_t>(draw % span));
    }
    bool flip(int one_in) { return byte() % one_in == 0; }
    /// A coordinate: mostly small numbers, sometimes one of the values that break
    /// numerics (huge, tiny, infinite, NaN, the 1e100 limit and just above it).
    double number() {
        static const double special[] = {0.0, -0.0, 1.0, -1.0, 1e15, -1e15, 1e100, -1e100, 1.0000000000000002e100,
                                         5e-324, 1e-300, 1e300, std::numeric_limits<double>::infinity(),
                                         -std::numeric_limits<double>::infinity(),
                                         std::numeric_limits<double>::quiet_NaN(), 3.0, 10.375, 8.625};
        const uint8_t b = byte();
        if (b < 32) return special[b % (sizeof special / sizeof special[0])];
        if (b < 48) {  // raw bits
            uint64_t bits = 0;
            for (int i = 0; i < 8; ++i) bits = bits << 8 | byte();
            double v;
            std::memcpy(&v, &bits, sizeof v);
            return v;
        }
        return (static_cast<int32_t>(byte()) - 128) / 8.0 + (b & 3) * 100.0;
    }
    std::string_view rest() {
        std::string_view r(reinterpret_cast<const char *>(p_), n_);
        p_ += n_;
        n_ = 0;
        return r;
    }
    size_t left() const { return n_; }

private:
    const uint8_t *p_;
    size_t n_;
};

/// A broken invariant: say which, then abort (libFuzzer keeps the input).
[[noreturn]] inline void fail(const char *format, ...) {
    std::va_list args;
    va_start(args, format);
    std::fprintf(stderr, "INVARIANT VIOLATED: ");
    std::vfprintf(stderr, format, args);
    std::fprintf(stderr, "\n");
    va_end(args);
    std::abort();
}

}  // namespace fuzz
