// SPDX-License-Identifier: MIT
// Majority vote on hand-computed cases: ties go to the lowest class index, the
// posterior is the vote share, unlabeled items are uniform.
#include "support/cmocka_cpp.hpp"
#include "support/fit_helpers.hpp"

static void test_ties_go_to_lowest_class(void **) {
    test::Triples t;
    t.add(0, 0, 1); t.add(0, 1, 0);                                  // 1-1 tie between 0 and 1 -> 0
    t.add(1, 0, 1); t.add(1, 1, 2); t.add(1, 2, 2); t.add(1, 3, 0); t.add(1, 4, 0);  // 0 and 2 tie -> 0
    t.add(2, 0, 2); t.add(2, 1, 1); t.add(2, 2, 1);                  // 1 wins 2:1
    t.add(3, 3, 2);                                                  // single vote
    auto m = test::make_model("mv");
    assert_int_equal(test::fit(m.get(), t), CS_OK);
    const auto labels = test::labels(m.get());
    assert_int_equal(labels.size(), 4);
    assert_int_equal(labels[0], 0);
    assert_int_equal(labels[1], 0);
    assert_int_equal(labels[2], 1);
    assert_int_equal(labels[3], 2);

    const auto q = test::posteriors(m.get());
    const double expected[4][3] = {{0.5, 0.5, 0}, {0.4, 0.2, 0.4}, {0, 2.0 / 3, 1.0 / 3}, {0, 0, 1}};
    for (int j = 0; j < 4; ++j)
        for (int l = 0; l < 3; ++l) assert_near(q[j * 3 + l], expected[j][l], 1e-15);

    int32_t iterations = -1, converged = -1;
    assert_int_equal(cs_iterations(m.get(), &iterations), CS_OK);
    assert_int_equal(cs_converged(m.get(), &converged), CS_OK);
    assert_int_equal(iterations, 0);
    assert_int_equal(converged, 1);
}

static void test_unlabeled_items_are_uniform(void **) {
    test::Triples t;
    t.add(0, 0, 1); t.add(0, 1, 1); t.add(2, 0, 0);
    auto m = test::make_model("mv");
    assert_int_equal(cs_set_int(m.get(), CS_PARAM_ITEMS, 4), CS_OK);
    assert_int_equal(test::fit(m.get(), t), CS_OK);
    const auto q = test::posteriors(m.get());
    assert_int_equal(q.size(), 8);
    assert_near(q[1 * 2 + 0], 0.5, 0);  // item 1: no labels
    assert_near(q[3 * 2 + 1], 0.5, 0);  // item 3: no labels
    int32_t notes = 0;
    assert_int_equal(cs_fit_notes(m.get(), &notes), CS_OK);
    assert_true(notes & CS_NOTE_UNLABELED_ITEMS);
    assert_non_null(strstr(cs_last_error(m.get()), "2 items have no labels"));
}

// mv's confusion output is the M-step from the vote shares (Z-5).
static void test_confusion_is_vote_share_m_step(void **) {
    test::Triples t;
    t.add(0, 0, 0); t.add(0, 1, 0);
    t.add(1, 0, 1); t.add(1, 1, 0);
    auto m = test::make_model("mv");
    assert_int_equal(test::fit(m.get(), t), CS_OK);
    const auto pi = test::confusion(m.get());
    // Worker 0: q(item0) = (1, 0) with label 0, q(item1) = (1/2, 1/2) with label 1.
    // Counts true 0: (1, 1/2) -> (2/3, 1/3); true 1: (0, 1/2) -> (0, 1).
    assert_near(pi[0], 2.0 / 3, 1e-15);
    assert_near(pi[1], 1.0 / 3, 1e-15);
    assert_near(pi[2], 0.0, 0);
    assert_near(pi[3], 1.0, 1e-15);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ties_go_to_lowest_class),
        cmocka_unit_test(test_unlabeled_items_are_uniform),
        cmocka_unit_test(test_confusion_is_vote_share_m_step),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
