// SPDX-License-Identifier: MIT
// cmocka from C++: the headers it expects first, and a tolerance assertion.
#pragma once

#include <cmath>
#include <csetjmp>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>

extern "C" {
#include <cmocka.h>
}

/// Fail unless |actual - expected| <= tolerance, printing both values.
#define assert_near(actual, expected, tolerance)                                                  \
    do {                                                                                          \
        const double a_ = (actual), e_ = (expected), t_ = (tolerance);                            \
        if (!(std::fabs(a_ - e_) <= t_)) {                                                        \
            print_error("%s = %.15g, expected %.15g +- %.3g\n", #actual, a_, e_, t_);             \
            fail();                                                                               \
        }                                                                                         \
    } while (0)
