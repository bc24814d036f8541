// SPDX-License-Identifier: MIT
// The threading and SIMD helpers of the EM round (issue 19), through the internal API:
// the blocking team runs every task exactly once, whatever the team size and however
// often it is reused; the inlined two-lane exp agrees with libm's exp to 2 ulp, is
// exactly 1 at 0 and handles the ends of its range; and a Dawid-Skene fit is bit for
// bit the same on 1, 2 and 3 threads and on the automatic count; the remainder by
// multiplication (util/fast_mod.hpp) is the % operator's for every divisor tried.
#include <atomic>
#include <ctime>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "support/cmocka_cpp.hpp"
#include "crowdspec/crowdspec.h"
#include "util/fast_mod.hpp"
#include "util/parallel.hpp"
#include "util/simd_pair.hpp"

static void test_team_runs_every_task_once(void **) {
    for (int size : {1, 2, 3, 4}) {
        cs::Team team(size);
        assert_int_equal(team.size(), size);
        for (int64_t n : {0, 1, 2, 3, 7, 64, 1000}) {
            for (int repeat = 0; repeat < 200; ++repeat) {
                std::vector<std::atomic<int>> hits(static_cast<std::size_t>(n));
                for (auto &h : hits) h.store(0);
                team.run(n, [&](int64_t t) { hits[static_cast<std::size_t>(t)].fetch_add(1); });
                for (int64_t t = 0; t < n; ++t)
                    if (hits[static_cast<std::size_t>(t)].load() != 1)
                        fail_msg("team of %d, %lld tasks, run %d: task %lld ran %d times", size,
                                 static_cast<long long>(n), repeat, static_cast<long long>(t),
                                 hits[static_cast<std::size_t>(t)].load());
            }
        }
    }
}

// A team that sleeps between runs (longer than its spin) still wakes for the next one.
static void test_team_wakes_after_sleeping(void **) {
    cs::Team team(2);
    std::atomic<int64_t> sum{0};
    for (int round = 0; round < 5; ++round) {
        team.run(100, [&](int64_t t) { sum.fetch_add(t); });
        struct timespec pause = {0, 2000000};  // 2 ms
        nanosleep(&pause, nullptr);
    }
    assert_int_equal(sum.load(), 5 * 4950);
}

#if defined(CS_HAVE_PAIR)
// Relative difference in units of DBL_EPSILON (2^-52).
static double ulps(double got, double want) { return std::fabs(got - want) / (std::fabs(want) * DBL_EPSILON); }

static void test_exp_matches_libm(void **) {
    double worst = 0.0;
    // A dense grid over [-708, 0] plus points next to the multiples of ln 2 / 2, where
    // the reduced argument is largest.
    for (int i = 0; i <= 2000000; ++i) {
        const double x = -708.0 * i / 2000000.0;
        const cs::Pair y = cs::exp_nonpositive(cs::Pair{x, x * 0.5});
        worst = std::max({worst, ulps(y[0], std::exp(x)), ulps(y[1], std::exp(x * 0.5))});
    }
    for (int m = 0; m < 2040; ++m) {
        const double x = -0.5 * m * 0.6931471805599453;
        for (double d : {-1e-12, 0.0, 1e-12}) {
            const double v = std::min(0.0, x + d);
            worst = std::max(worst, ulps(cs::exp_nonpositive(cs::Pair{v, v})[0], std::exp(v)));
        }
    }
    print_message("exp_nonpositive: largest difference from libm's exp %.2f ulp\n", worst);
    assert_true(worst <= 2.0);
}

static void test_exp_ends_of_range(void **) {
    const double inf = std::numeric_limits<double>::infinity();
    cs::Pair y = cs::exp_nonpositive(cs::Pair{0.0, -0.0});
    assert_true(y[0] == 1.0 && y[1] == 1.0);  // exactly: the E-step's top class
    y = cs::exp_nonpositive(cs::Pair{-inf, -800.0});
    assert_true(y[0] == 0.0 && y[1] == 0.0);
    // Subnormal results (exp(-720) = 2.95e-313) are libm's.
    y = cs::exp_nonpositive(cs::Pair{-720.0, -745.0});
    assert_true(y[0] == std::exp(-720.0) && y[1] == std::exp(-745.0));
    assert_true(y[0] > 0.0 && y[1] > 0.0);
    // One small value: exp(-1e-300) rounds to 1; exp(-1) = 0.36787944117144233.
    y = cs::exp_nonpositive(cs::Pair{-1e-300, -1.0});
    assert_true(y[0] == 1.0);
    assert_near(y[1], 0.36787944117144233, 1e-16);
}
#endif

// A fit big enough for several threads (2 x 10^5 labels: above the one-thread limit) is
// the same bit for bit on 1, 2 and 3 threads and on the automatic count, for k = 2
// (the register kernel) and k = 7 (the generic kernel).
static void test_ds_identical_for_any_thread_count(void **) {
    for (int k : {2, 5, 7}) {
        const int32_t n_items = 20000, per_item = 10, n_workers = 700;
        std::vector<int32_t> item, worker, label;
        uint64_t state = 12345 + static_cast<uint64_t>(k);
        const auto next = [&] {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            return static_cast<uint32_t>(state >> 33);
        };
        for (int32_t j = 0; j < n_items; ++j) {
            const int32_t truth = static_cast<int32_t>(next() % static_cast<uint32_t>(k));
            for (int32_t r = 0; r < per_item; ++r) {
                item.push_back(j);
                worker.push_back((j * 37 + r * 101) % n_workers);
                const bool right = next() % 100 < 70;
                label.push_back(right ? truth : static_cast<int32_t>(next() % static_cast<uint32_t>(k)));
            }
        }
        std::vector<double> reference;
        for (int threads : {1, 2, 3, 0}) {
            cs_model *m = cs_create();
            assert_int_equal(cs_set_param_string(m, "method", "ds"), CS_OK);
            assert_int_equal(cs_set_int(m, CS_PARAM_THREADS, threads), CS_OK);
            assert_int_equal(cs_set_int(m, CS_PARAM_MAX_ITER, 15), CS_OK);
            assert_int_equal(cs_fit(m, item.data(), worker.data(), label.data(), item.size()), CS_OK);
            std::vector<double> out(static_cast<std::size_t>(n_items) * k + static_cast<std::size_t>(n_workers) * k * k);
            assert_int_equal(cs_posteriors(m, out.data(), static_cast<std::size_t>(n_items) * k), CS_OK);
            assert_int_equal(cs_confusion(m, out.data() + static_cast<std::size_t>(n_items) * k,
                                          static_cast<std::size_t>(n_workers) * k * k),
                             CS_OK);
            cs_destroy(m);
            if (reference.empty()) reference = out;
            else if (std::memcmp(reference.data(), out.data(), out.size() * sizeof(double)) != 0)
                fail_msg("k = %d: results with threads = %d differ from one thread", k, threads);
        }
    }
}

// The calibration tempers a fit's items on its threads and counts the tempered rows for
// the worker diagnostics in fixed partitions: a default fit whose items share mistakes
// (T > 1, so both run), 2 x 10^5 labels, is the same bit for bit on 1, 2 and 3 threads and
// on the automatic count -- posteriors, labels, temperature and every worker figure.
static void test_calibrated_fit_identical_for_any_thread_count(void **) {
    const int32_t k = 3, n_items = 20000, per_item = 10, n_workers = 700;
    std::vector<int32_t> item, worker, label;
    uint64_t state = 777;
    const auto next = [&] {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<uint32_t>(state >> 33);
    };
    for (int32_t j = 0; j < n_items; ++j) {
        const int32_t truth = static_cast<int32_t>(next() % k), trap = (truth + 1 + static_cast<int32_t>(next() % 2)) % k;
        const bool hard = next() % 100 < 35;  // a hard item: one wrong answer tempts everyone
        for (int32_t r = 0; r < per_item; ++r) {
            item.push_back(j);
            worker.push_back((j * 37 + r * 101) % n_workers);
            int32_t c = next() % 100 < 75 ? truth : static_cast<int32_t>(next() % k);
            if (hard && next() % 100 < 60) c = trap;
            label.push_back(c);
        }
    }
    const std::size_t nq = static_cast<std::size_t>(n_items) * k, nw = static_cast<std::size_t>(n_workers);
    std::vector<double> reference;
    std::vector<int32_t> reference_labels;
    for (int threads : {1, 2, 3, 0}) {
        cs_model *m = cs_create();
        assert_int_equal(cs_set_int(m, CS_PARAM_THREADS, threads), CS_OK);
        assert_int_equal(cs_fit(m, item.data(), worker.data(), label.data(), item.size()), CS_OK);
        double temperature = 0.0;
        assert_int_equal(cs_calibration(m, &temperature, nullptr, nullptr), CS_OK);
        assert_true(temperature > 1.1);  // tempered: the parallel tempering and counting ran
        // posteriors, four figures a worker, the label-next scores (from the typical
        // worker of the counts), the temperature; labels and each worker's worst class
        std::vector<double> out(nq + 4 * nw + static_cast<std::size_t>(n_items) + 1);
        std::vector<int32_t> labels(static_cast<std::size_t>(n_items) + nw);
        assert_int_equal(cs_posteriors(m, out.data(), nq), CS_OK);
        double *d = out.data() + nq;
        assert_int_equal(cs_worker_diagnostics(m, d, labels.data() + n_items, d + nw, d + 2 * nw, d + 3 * nw, nw), CS_OK);
        assert_int_equal(cs_label_next(m, d + 4 * nw, static_cast<std::size_t>(n_items)), CS_OK);
        out.back() = temperature;
        assert_int_equal(cs_labels(m, labels.data(), static_cast<std::size_t>(n_items)), CS_OK);
        cs_destroy(m);
        if (reference.empty()) {
            reference = out;
            reference_labels = labels;
        } else if (std::memcmp(reference.data(), out.data(), out.size() * sizeof(double)) != 0 ||
                   reference_labels != labels) {
            fail_msg("a calibrated fit with threads = %d differs from one thread", threads);
        }
    }
}

// a mod d by multiplication against the division instruction: small divisors (class
// counts), the largest, powers of two and primes, with the ends of the 32-bit range and
// a fixed pseudo-random spread of numerators (a 64-bit LCG, Knuth's MMIX constants).
static void test_fast_mod_matches_the_remainder(void **) {
    uint64_t state = 12345;
    const auto next = [&state]() {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<uint32_t>(state >> 32);
    };
    std::vector<uint32_t> divisors;
    for (uint32_t d = 1; d <= 1100; ++d) divisors.push_back(d);
    for (uint32_t d : {65536u, 65537u, 1000003u, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFEu, 0xFFFFFFFFu})
        divisors.push_back(d);
    for (uint32_t d : divisors) {
        const cs::FastMod32 mod(d);
        for (int i = 0; i < 3000; ++i) {
            const uint32_t a = i == 0 ? 0u : i == 1 ? 0xFFFFFFFFu : i == 2 ? d - 1 : i == 3 ? d : next();
            if (mod(a) != a % d) fail_msg("%u mod %u: %u, expected %u", a, d, mod(a), a % d);
        }
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_team_runs_every_task_once),
        cmocka_unit_test(test_fast_mod_matches_the_remainder),
        cmocka_unit_test(test_team_wakes_after_sleeping),
#if defined(CS_HAVE_PAIR)
        cmocka_unit_test(test_exp_matches_libm),
        cmocka_unit_test(test_exp_ends_of_range),
#endif
        cmocka_unit_test(test_ds_identical_for_any_thread_count),
        cmocka_unit_test(test_calibrated_fit_identical_for_any_thread_count),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
