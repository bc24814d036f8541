// SPDX-License-Identifier: MIT
// The result writers' number formatting (tools/io/output.cpp, append_number) against the
// C library's printf: "%.10g" of every value must be byte-identical, whichever of its
// paths (shortest digits rounded to 10, or the exact conversion near a tie) made it.
// Random bit patterns cover every exponent; constructed ties and their neighbours
// cover the rounding; posteriors-like values in [0, 1] are what result files hold.
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "io/output.hpp"
#include "support/cmocka_cpp.hpp"

namespace {

uint64_t g_state = 0x9E3779B97F4A7C15ull;
uint64_t next_random() {  // splitmix64
    uint64_t z = (g_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

int g_mismatches = 0;
void compare(double v) {
    char want[64];
    std::snprintf(want, sizeof want, "%.10g", v);
    std::string got;
    cli::append_number(got, "%.10g", v);
    if (!std::isfinite(v)) {
        if (got != "null") ++g_mismatches;
        return;
    }
    if (got != want) {
        if (g_mismatches < 10) std::fprintf(stderr, "%.17g: printf %s, append_number %s\n", v, want, got.c_str());
        ++g_mismatches;
    }
}

void test_special_values(void **) {
    g_mismatches = 0;
    const double values[] = {0.0, -0.0, 1.0, -1.0, 0.1, 0.5, 1e-4, 9.99999999995e-5, 1e-5, 0.0001234567891,
                             123456789.0, 1234567890.0, 9999999999.0, 9999999999.5, 99999.999995, 1e10, 1e15,
                             1e-300, 1e-310, 5e-324, DBL_MIN, DBL_MAX, -DBL_MAX, 1e300, 1.5e300,
                             0.30000000000000004, 2.0 / 3.0, 1.0 / 3.0, 0.99999999995, 0.999999999949999,
                             HUGE_VAL, -HUGE_VAL, NAN};
    for (double v : values) {
        compare(v);
        compare(std::nextafter(v, 0.0));
        compare(std::nextafter(v, 2.0));
    }
    assert_int_equal(g_mismatches, 0);
}

void test_random_bits(void **) {
    g_mismatches = 0;
    for (int i = 0; i < 1000000; ++i) {
        const uint64_t bits = next_random();
        double v;
        std::memcpy(&v, &bits, sizeof v);
        compare(v);
    }
    assert_int_equal(g_mismatches, 0);
}

void test_posteriors(void **) {
    g_mismatches = 0;
    for (int i = 0; i < 1000000; ++i) {
        const double u = static_cast<double>(next_random() >> 11) * 0x1p-53;  // [0, 1)
        compare(u);
        compare(1.0 - u);
        compare(u * u * u * u);  // small posteriors, down to 1e-20 and below
    }
    assert_int_equal(g_mismatches, 0);
}

// Doubles nearest to 10-digit ties (m + 1/2) * 10^e, and their neighbours: where
// rounding the shortest digits instead of the exact value would go wrong.
void test_ties(void **) {
    g_mismatches = 0;
    for (int i = 0; i < 300000; ++i) {
        const uint64_t m = 1000000000ull + next_random() % 9000000000ull;
        const int e = static_cast<int>(next_random() % 40) - 30;
        const double tie = (static_cast<double>(m) + 0.5) * std::pow(10.0, e - 9);
        compare(tie);
        compare(std::nextafter(tie, 0.0));
        compare(std::nextafter(tie, HUGE_VAL));
        // Short decimals (k / 10^n) have short shortest forms.
        compare(static_cast<double>(next_random() % 100000) / std::pow(10.0, static_cast<int>(next_random() % 12)));
    }
    assert_int_equal(g_mismatches, 0);
}

}  // namespace

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_special_values),
        cmocka_unit_test(test_random_bits),
        cmocka_unit_test(test_posteriors),
        cmocka_unit_test(test_ties),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
