// SPDX-License-Identifier: MIT
// The E-step (Z-4) on parameters with zero entries, through the internal API: a
// zero confusion entry makes a class impossible; an item impossible under every
// class gets the prior, is counted, and is left out of the log-likelihood.
#include <cmath>
#include <vector>

#include "support/cmocka_cpp.hpp"
#include "crowd/em/dawid_skene.hpp"
#include "data/crowd_data.hpp"

static void test_zero_entries_make_classes_impossible(void **) {
    // Items: 0 labelled (w0: 0), 1 labelled (w0: 1, w1: 0), 2 labelled (w1: 1).
    const int32_t item[] = {0, 1, 1, 2};
    const int32_t worker[] = {0, 0, 1, 1};
    const int32_t label[] = {0, 1, 0, 1};
    cs::FitOptions options;
    const cs::CrowdData data = cs::CrowdData::build(item, worker, label, 4, options);

    cs::DsParams params;
    // w0 is perfect (identity); w1 always says the opposite (anti-diagonal).
    params.confusion = {1, 0, 0, 1, /* w1 */ 0, 1, 1, 0};
    params.prior = {0.25, 0.75};
    std::vector<double> q;
    const cs::EStep e = cs::e_step(data, params, options, q);

    // Item 0: w0 said 0, so class 1 (pi0[1][0] = 0) is impossible.
    // Item 1: w0 said 1 rules out class 0 (pi0[0][1] = 0); class 1 has
    //   pi0[1][1] * pi1[1][0] = 1.
    // Item 2: w1 said 1 rules out class 1 (pi1[1][1] = 0).
    assert_near(q[0], 1.0, 0);
    assert_near(q[1], 0.0, 0);
    assert_near(q[2], 0.0, 0);
    assert_near(q[3], 1.0, 0);
    assert_near(q[4], 1.0, 0);
    assert_near(q[5], 0.0, 0);
    assert_int_equal(e.impossible_items, 0);
    // LL = log(0.25 * 1) + log(0.75 * 1) + log(0.25 * 1).
    assert_near(e.log_likelihood, 2 * std::log(0.25) + std::log(0.75), 1e-15);
}

static void test_item_impossible_under_every_class(void **) {
    // Item 0: w0 says 0 and w1 says 0, but w1 (anti-diagonal) rules out class 0 and
    // w0 (identity) rules out class 1. Item 1: w0 says 1 (fine).
    const int32_t item[] = {0, 0, 1};
    const int32_t worker[] = {0, 1, 0};
    const int32_t label[] = {0, 0, 1};
    cs::FitOptions options;
    const cs::CrowdData data = cs::CrowdData::build(item, worker, label, 3, options);
    cs::DsParams params;
    params.confusion = {1, 0, 0, 1, 0, 1, 1, 0};
    params.prior = {0.4, 0.6};
    std::vector<double> q;
    const cs::EStep e = cs::e_step(data, params, options, q);
    assert_int_equal(e.impossible_items, 1);
    assert_near(q[0], 0.4, 0);  // the prior
    assert_near(q[1], 0.6, 0);
    assert_near(q[2], 0.0, 0);
    assert_near(q[3], 1.0, 0);
    assert_near(e.log_likelihood, std::log(0.6), 1e-15);  // item 0 left out
    for (double v : q) assert_true(std::isfinite(v));
}

// A zero prior weight rules its class out everywhere, without NaN.
static void test_zero_prior_weight(void **) {
    const int32_t item[] = {0, 1};
    const int32_t worker[] = {0, 0};
    const int32_t label[] = {0, 1};
    cs::FitOptions options;
    const cs::CrowdData data = cs::CrowdData::build(item, worker, label, 2, options);
    cs::DsParams params;
    params.confusion = {0.9, 0.1, 0.2, 0.8};
    params.prior = {1.0, 0.0};
    std::vector<double> q;
    const cs::EStep e = cs::e_step(data, params, options, q);
    assert_near(q[0], 1.0, 0);
    assert_near(q[2], 1.0, 0);
    assert_near(q[3], 0.0, 0);
    assert_int_equal(e.impossible_items, 0);
    assert_near(e.log_likelihood, std::log(0.9) + std::log(0.1), 1e-15);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zero_entries_make_classes_impossible),
        cmocka_unit_test(test_item_impossible_under_every_class),
        cmocka_unit_test(test_zero_prior_weight),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
