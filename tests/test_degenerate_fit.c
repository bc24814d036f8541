/* SPDX-License-Identifier: MIT */
/* Degenerate maxima of the Dawid-Skene likelihood (issue 12, item 4;
 * CS_NOTE_DEGENERATE_MAXIMUM). Each crowd below is unanimous item by item, so the
 * expected labels are the votes, by hand; the posteriors expected after the fallback
 * are the vote shares among the confounded classes. */
#include "cs_test.h"

#define assert_near_c(actual, expected, tolerance)                                          \
    do {                                                                                    \
        const double a_ = (actual), e_ = (expected);                                        \
        if (!(fabs(a_ - e_) <= (tolerance)))                                                \
            fail_msg("%s = %.17g, expected %.17g", #actual, a_, e_);                        \
    } while (0)

static void fit_or_fail(cs_model *m, const int32_t *item, const int32_t *worker, const int32_t *label,
                        size_t n) {
    const cs_status s = cs_fit(m, item, worker, label, n);
    if (s != CS_OK) fail_msg("cs_fit: %s: %s", cs_status_string(s), cs_last_error(m));
}

static cs_model *em_model(const char *method, int32_t k, const char *prior, const char *support) {
    cs_model *m = cs_new_model(method);
    if (k > 0) CS_ASSERT_OK(cs_set_int(m, CS_PARAM_CLASSES, k));
    CS_ASSERT_OK(cs_set_param_string(m, "prior", prior));
    CS_ASSERT_OK(cs_set_param_string(m, "support", support));
    return m;
}

static int32_t notes_of(const cs_model *m) {
    int32_t notes = -1;
    CS_ASSERT_OK(cs_fit_notes(m, &notes));
    return notes;
}

/* The case: 10 items, 3 workers, every label class 1, k = 5 declared, uniform
 * prior, every class allowed. EM ends where every worker's five rows are (0, 1, 0, 0, 0)
 * ("every class always says 1"), the posterior of every item is 0.2 everywhere, and the
 * lowest-index rule said class 0. Now: class 1, posterior one-hot, noted; the
 * confusion matrices and the prior are still EM's. Also with k = 2 (support = auto is
 * every class there) and for every EM method. */
static void unanimous_crowd_gets_its_class(void **state) {
    /* class-one-coin-ds only at k = 2: with k = 5 its rows (one accuracy per class, the
     * rest uniform) cannot all be equal, and it already labels the crowd 1. */
    static const char *const methods[] = {"ds", "opt-ds", "class-one-coin-ds"};
    static const int32_t ks[] = {5, 2};
    int32_t item[30], worker[30], label[30];
    size_t t, mi, ki;
    (void)state;
    for (t = 0; t < 30; ++t) {
        item[t] = (int32_t)(t / 3);
        worker[t] = (int32_t)(t % 3);
        label[t] = 1;
    }
    for (mi = 0; mi < sizeof methods / sizeof methods[0]; ++mi)
        for (ki = mi == 2 ? 1 : 0; ki < 2; ++ki) {
            const int32_t k = ks[ki];
            cs_model *m = em_model(methods[mi], k, "uniform", ki == 0 ? "all" : "auto");
            int32_t labels[10], j, l;
            double post[50], prior[5], conf[3 * 25];
            fit_or_fail(m, item, worker, label, 30);
            CS_ASSERT_OK(cs_labels(m, labels, 10));
            CS_ASSERT_OK(cs_posteriors(m, post, (size_t)(10 * k)));
            CS_ASSERT_OK(cs_class_prior(m, prior, (size_t)k));
            CS_ASSERT_OK(cs_confusion(m, conf, (size_t)(3 * k * k)));
            if ((notes_of(m) & CS_NOTE_DEGENERATE_MAXIMUM) == 0)
                fail_msg("%s, k = %d: no degenerate-maximum note (notes %d)", methods[mi], k, notes_of(m));
            assert_non_null(strstr(cs_last_error(m), "degenerate maximum"));
            assert_non_null(strstr(cs_last_error(m), "10 items"));
            for (j = 0; j < 10; ++j) {
                if (labels[j] != 1) fail_msg("%s, k = %d: item %d got class %d", methods[mi], k, j, labels[j]);
                for (l = 0; l < k; ++l) assert_true(post[j * k + l] == (l == 1 ? 1.0 : 0.0));
            }
            for (l = 0; l < k; ++l) assert_near_c(prior[l], 1.0 / k, 1e-12);
            if (mi == 0) /* ds: the degenerate maximum itself, every row (0, 1, 0, ...) */
                for (t = 0; t < (size_t)(3 * k * k); ++t)
                    assert_near_c(conf[t], t % (size_t)k == 1 ? 1.0 : 0.0, 1e-9);
            cs_destroy(m);
        }
}

/* One confounded item in an otherwise fine fit: item 0 gets class 2 from four workers,
 * item 1 class 1 from workers 1 and 2, k = 4, uniform prior, every class allowed. EM
 * leaves item 0 at class 2 (one-hot) and item 1 tied among classes 0, 1 and 3, whose
 * rows workers 1 and 2 have equal, (0, 1, 0, 0); the index rule said 0. Now item 1 is
 * class 1 (one-hot: both votes), and item 0 keeps EM's class 2. */
static void one_confounded_item_gets_its_vote(void **state) {
    static const int32_t item[6] = {0, 0, 0, 0, 1, 1}, worker[6] = {0, 1, 2, 3, 1, 2},
                         label[6] = {2, 2, 2, 2, 1, 1};
    cs_model *m = em_model("ds", 4, "uniform", "all");
    int32_t labels[2];
    double post[8];
    (void)state;
    fit_or_fail(m, item, worker, label, 6);
    CS_ASSERT_OK(cs_labels(m, labels, 2));
    CS_ASSERT_OK(cs_posteriors(m, post, 8));
    assert_int_equal(labels[0], 2);
    assert_int_equal(labels[1], 1);
    assert_near_c(post[2], 1.0, 1e-12);
    assert_true(post[5] == 1.0 && post[4] == 0.0 && post[6] == 0.0 && post[7] == 0.0);
    assert_true((notes_of(m) & CS_NOTE_DEGENERATE_MAXIMUM) != 0);
    assert_non_null(strstr(cs_last_error(m), "1 items (the first is item 1)"));
    cs_destroy(m);
}

/* Under the estimated prior, classes can be confounded without a tie: 5 items, k = 4,
 * items 0, 1 and 4 unanimous for class 2, item 2 for class 1 (workers 0, 2, 3), item 3
 * for class 3 (workers 1, 4). EM merges classes 1 and 3 into clones (equal rows for
 * every worker), and their estimated prior split the two items 0.52 : 0.48 in favour of
 * class 1 for both. Each now takes its vote. */
static void confounded_classes_under_the_estimated_prior(void **state) {
    static const int32_t item[16] = {0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 4, 4, 4};
    static const int32_t worker[16] = {0, 1, 2, 3, 4, 2, 3, 4, 0, 2, 3, 1, 4, 0, 1, 4};
    static const int32_t label[16] = {2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 3, 3, 2, 2, 2};
    static const int32_t expected[5] = {2, 2, 1, 3, 2};
    cs_model *m = em_model("ds", 4, "estimated", "all");
    int32_t labels[5], j;
    (void)state;
    fit_or_fail(m, item, worker, label, 16);
    CS_ASSERT_OK(cs_labels(m, labels, 5));
    for (j = 0; j < 5; ++j)
        if (labels[j] != expected[j]) fail_msg("item %d got class %d, its vote is %d", j, labels[j], expected[j]);
    assert_true((notes_of(m) & CS_NOTE_DEGENERATE_MAXIMUM) != 0);
    cs_destroy(m);
}

/* Nothing changes where nothing is confounded: the hand-made 6-item crowd (cs_k3) and
 * a crowd with a symmetric tie (two equally good workers disagreeing on item 2: the tie
 * goes to class 0 by the documented rule, and their rows differ, so it stays). */
static void informative_fits_are_untouched(void **state) {
    static const int32_t item[6] = {0, 0, 1, 1, 2, 2}, worker[6] = {0, 1, 0, 1, 0, 1},
                         label[6] = {0, 0, 1, 1, 1, 0};
    cs_model *m = em_model("ds", 0, "uniform", "all");
    int32_t labels[3];
    double post[6];
    (void)state;
    cs_fit_or_fail(m, &cs_k3);
    assert_int_equal(notes_of(m) & CS_NOTE_DEGENERATE_MAXIMUM, 0);
    fit_or_fail(m, item, worker, label, 6);
    assert_int_equal(notes_of(m) & CS_NOTE_DEGENERATE_MAXIMUM, 0);
    CS_ASSERT_OK(cs_labels(m, labels, 3));
    CS_ASSERT_OK(cs_posteriors(m, post, 6));
    assert_int_equal(labels[2], 0);
    assert_near_c(post[4], 0.5, 1e-9);
    cs_destroy(m);
}

/* The note's value is pinned (enum values are only appended). */
static void note_value_is_pinned(void **state) {
    (void)state;
    assert_int_equal(CS_NOTE_MAJORITY_START, 1024);
    assert_int_equal(CS_NOTE_UNKNOWN_WORKERS, 65536);
    assert_int_equal(CS_NOTE_DEGENERATE_MAXIMUM, 131072);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(unanimous_crowd_gets_its_class),
        cmocka_unit_test(one_confounded_item_gets_its_vote),
        cmocka_unit_test(confounded_classes_under_the_estimated_prior),
        cmocka_unit_test(informative_fits_are_untouched),
        cmocka_unit_test(note_value_is_pinned),
    };
    return cmocka_run_group_tests_name("degenerate_fit", tests, NULL, NULL);
}
