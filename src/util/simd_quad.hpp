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

#include <cstring>

#include "util/simd_pair.hpp"

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

template <>
struct LaneOps<Quad> {
    using Bits = QuadBits;
    // By reference: exp_nonpositive_lanes (no target attribute of its own) calls it, and
    // Clang refuses a 32-byte vector passed by value from code compiled without AVX
    // ("changes the ABI"), even where everything is inlined into an AVX2 function.
    CS_TARGET_AVX2 static bool any(const QuadBits &m) { return (m[0] | m[1] | m[2] | m[3]) != 0; }
};

/// exp(x) of four lanes, x <= 0 (-inf included): exp_nonpositive_lanes (util/simd_pair.hpp),
/// each lane bit for bit the pair version's result.
CS_TARGET_AVX2 inline Quad exp_nonpositive_quad(Quad x) {
    exp_nonpositive_lanes(x);
    return x;
}

}  // namespace cs

#endif
