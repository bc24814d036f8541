// SPDX-License-Identifier: MIT
// Two doubles in one SSE2 register (the GCC/Clang vector extension), for kernels that
// work on the k values of a class-indexed row two at a time, and an inlined exp of
// both lanes. CS_HAVE_PAIR is defined where the extension exists; callers keep a
// scalar path for other compilers.
#pragma once

#if defined(__GNUC__)
#define CS_HAVE_PAIR 1

#include <cmath>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace cs {

/// Two doubles; + - * / act lane by lane with IEEE rounding, so a loop over classes
/// done in pairs gives bit for bit the results of the scalar loop.
typedef double Pair __attribute__((vector_size(16)));
/// The bits of a Pair, as two 64-bit unsigned integers.
typedef unsigned long long PairBits __attribute__((vector_size(16)));

/// p[0], p[1] (any alignment).
inline Pair load_pair(const double *p) {
    Pair v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

/// p[0], p[1] = v (any alignment).
inline void store_pair(double *p, Pair v) { std::memcpy(p, &v, sizeof v); }

/// Whether any lane of a comparison result is set (all bits of a lane set or clear).
inline bool any_lane(PairBits m) {
#if defined(__SSE2__)
    __m128d v;
    std::memcpy(&v, &m, sizeof v);
    return _mm_movemask_pd(v) != 0;  // one instruction, the lanes stay in the register
#else
    return (m[0] | m[1]) != 0;
#endif
}

/// The lanes of exp_nonpositive_lanes whose result is subnormal, by libm (rare: out of
/// line; the values go through memory, so no vector register crosses the call and the
/// inlined exp keeps its argument in a register).
__attribute__((noinline, cold)) inline void exp_subnormal_lanes(const double *x, const unsigned long long *lanes,
                                                                double *y, int n) {
    for (int i = 0; i < n; ++i)
        if (lanes[i]) y[i] = std::exp(x[i]);
}

/// Per vector type: `Bits`, its lanes as 64-bit unsigned integers, and any(m), whether
/// any lane of a comparison result is set (Pair below, Quad in util/simd_quad.hpp).
template <class V>
struct LaneOps;

template <>
struct LaneOps<Pair> {
    using Bits = PairBits;
    static bool any(const PairBits &m) { return any_lane(m); }
};

/// x = exp(x) in every lane of a vector V of doubles (Pair here, Quad in
/// util/simd_quad.hpp), for x <= 0 (-inf included), inlined. The Dawid-Skene E-step
/// takes k - 1 exponentials per item, and libm's exp (a call, which also forces the
/// kernel's registers to the stack) was a third of its time (profile of issue 19,
/// bench/README.md). Always inlined, so that it is compiled for its caller's target
/// (SSE2 or AVX2): every lane takes the same IEEE operations either way.
///
/// x = n ln 2 + r with n = round(x / ln 2) and |r| <= ln 2 / 2 (ln 2 in two parts, the
/// first with 32 trailing zero bits so that n ln2_hi is exact); exp(r) by its Taylor
/// polynomial of degree 13 (truncation error below 5e-18 relative), times 2^n built
/// in the exponent bits. exp(0) = 1 exactly. Relative error within 2 ulp (libm's: 1).
/// Below x = -708, where 2^n would leave the normal range, a lane is std::exp(x), or 0
/// below -746 (where exp rounds to 0) and at -inf. Arguments above 0 are not handled.
template <class V>
__attribute__((always_inline)) inline void exp_nonpositive_lanes(V &x) {
    using B = typename LaneOps<V>::Bits;
    constexpr int kLanes = static_cast<int>(sizeof(V) / sizeof(double));
    constexpr double kLog2e = 1.4426950408889634;          // 1 / ln 2
    constexpr double kLn2Hi = 6.93147180369123816490e-01;  // ln 2, upper bits
    constexpr double kLn2Lo = 1.90821492927058770002e-10;  // ln 2 - kLn2Hi
    constexpr double kShift = 6755399441055744.0;          // 1.5 * 2^52: rounds to an integer
    constexpr double kLowest = -708.0;
    const V t = x * kLog2e + kShift;  // n in the low bits of t
    const V n = t - kShift;
    const V r = (x - n * kLn2Hi) - n * kLn2Lo;
    // 1/13!, ..., 1/2!, 1, 1 by Horner's rule.
    V y = r * (1.0 / 6227020800.0) + 1.0 / 479001600.0;
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
    B bits;
    std::memcpy(&bits, &t, sizeof bits);
    bits = (bits + 1023u) << 52;  // 2^n: the shift drops the bits of kShift
    V scale;
    std::memcpy(&scale, &bits, sizeof scale);
    y *= scale;
    // Lanes below kLowest become 0 by a mask, not a branch: -inf lanes (classes outside
    // an item's answer set) are common and fall at random, and a branch on them was
    // mispredicted about as often as taken. The rare lanes in [-746, -708), whose exp is
    // subnormal, take std::exp.
    const B low = x < kLowest;
    B ybits;
    std::memcpy(&ybits, &y, sizeof ybits);
    ybits &= ~low;
    std::memcpy(&y, &ybits, sizeof y);
    const B subnormal = low & (x >= -746.0);
    if (LaneOps<V>::any(subnormal)) {
        double xs[kLanes], ys[kLanes];
        unsigned long long lanes[kLanes];
        std::memcpy(xs, &x, sizeof xs);
        std::memcpy(ys, &y, sizeof ys);
        std::memcpy(lanes, &subnormal, sizeof lanes);
        exp_subnormal_lanes(xs, lanes, ys, kLanes);
        std::memcpy(&y, ys, sizeof y);
    }
    x = y;
}

/// exp(x) of both lanes, for x <= 0 (exp_nonpositive_lanes).
inline Pair exp_nonpositive(Pair x) {
    exp_nonpositive_lanes(x);
    return x;
}

}  // namespace cs

#endif
