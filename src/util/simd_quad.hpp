// SPDX-License-Identifier: MIT
// Four doubles in one AVX register (the GCC/Clang vector extension) for kernels that
// take a class-indexed row of k = 4 or 5 values in one register instead of two or three
// SSE2 pairs (util/simd_pair.hpp), and an inlined exp of the four lanes. The library is
// built for the baseline x86-64 (SSE2), so every function here is compiled for AVX2 by
// a target attribute and may run only where cpu_has_avx2() is true; callers keep the
// pair kernels for other processors. CS_HAVE_QUAD is defined where this exists (GCC or
// Clang on x86-64).
//
// FMA is deliberately not enabled: every lane does the same IEEE operations, in the
// same order, as the pair and scalar code, so results are identical bit for bit (a
// fused multiply-add would round once where they round twice).
#pragma once

#if defined(__GNUC__) && defined(__x86_64__)
#define CS_HAVE_QUAD 1

#include <cmath>
#include <cstring>

/// Compiles a function for AVX2 (without FMA): call it only where cpu_has_avx2().
#define CS_TARGET_AVX2 __attribute__((target("avx2")))

namespace cs {

/// Four doubles; + - * / act lane by lane with IEEE rounding.
typedef double Quad __attribute__((vector_size(32)));
/// The bits of a Quad, as four 64-bit unsigned integers.
typedef unsigned long long QuadBits __attribute__((vector_size(32)));

/// Whether this processor runs AVX2 (the functions of this header).
inline bool cpu_has_avx2() { return __builtin_cpu_supports("avx2"); }

/// p[0..3] (any alignment).
CS_TARGET_AVX2 inline Quad load_quad(const double *p) {
    Quad v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

/// p[0..3] = v (any alignment).
CS_TARGET_AVX2 inline void store_quad(double *p, Quad v) { std::memcpy(p, &v, sizeof v); }

/// The lanes of exp_nonpositive_quad whose result is subnormal, by libm (rare: out of
/// line; the values go through memory so that no AVX value crosses a call).
__attribute__((noinline, cold)) inline void exp_subnormal_quad_lanes(const double *x, const unsigned long long *lanes,
                                                                     double *y) {
    for (int i = 0; i < 4; ++i)
        if (lanes[i]) y[i] = std::exp(x[i]);
}

/// exp(x) of four lanes, x <= 0 (-inf included): exp_nonpositive of util/simd_pair.hpp
/// (its comment gives the method and the error) four lanes at a time, the same
/// operations lane by lane, so each lane is bit for bit the pair version's result.
CS_TARGET_AVX2 inline Quad exp_nonpositive_quad(Quad x) {
    constexpr double kLog2e = 1.4426950408889634;          // 1 / ln 2
    constexpr double kLn2Hi = 6.93147180369123816490e-01;  // ln 2, upper bits
    constexpr double kLn2Lo = 1.90821492927058770002e-10;  // ln 2 - kLn2Hi
    constexpr double kShift = 6755399441055744.0;          // 1.5 * 2^52: rounds to an integer
    constexpr double kLowest = -708.0;
    const Quad t = x * kLog2e + kShift;  // n in the low bits of t
    const Quad n = t - kShift;
    const Quad r = (x - n * kLn2Hi) - n * kLn2Lo;
    // 1/13!, ..., 1/2!, 1, 1 by Horner's rule.
    Quad y = r * (1.0 / 6227020800.0) + 1.0 / 479001600.0;
    y = y * r + 1.0 / 39916800.0;
    y = y * r + 1.0 / 3628800.0;
    y = y * r + 1.0 / 362880.0;
    y = y * r + 1.0 / 40320.0;
    y = y * r + 1.0 / 5040.0;
    y = y * r + 1.0 / 720.0;
    y = y * r + 1.0 / 120.0;
    y = y * r + 1.0 / 24.0;
    y = y * r + 1.0 / 6.0;
    y = y * r + 0.5;
    y = y * r + 1.0;
    y = y * r + 1.0;
    QuadBits bits;
    std::memcpy(&bits, &t, sizeof bits);
    bits = (bits + 1023u) << 52;  // 2^n: the shift drops the bits of kShift
    Quad scale;
    std::memcpy(&scale, &bits, sizeof scale);
    y *= scale;
    // Lanes below kLowest become 0 by a mask (see exp_nonpositive); the rare lanes in
    // [-746, -708), whose exp is subnormal, take std::exp.
    const QuadBits low = x < kLowest;
    QuadBits ybits;
    std::memcpy(&ybits, &y, sizeof ybits);
    ybits &= ~low;
    std::memcpy(&y, &ybits, sizeof y);
    const QuadBits subnormal = low & (x >= -746.0);
    if ((subnormal[0] | subnormal[1] | subnormal[2] | subnormal[3]) != 0) {
        double xs[4], ys[4];
        unsigned long long lanes[4];
        std::memcpy(xs, &x, sizeof xs);
        std::memcpy(ys, &y, sizeof ys);
        std::memcpy(lanes, &subnormal, sizeof lanes);
        exp_subnormal_quad_lanes(xs, lanes, ys);
        std::memcpy(&y, ys, sizeof y);
    }
    return y;
}

}  // namespace cs

#endif
