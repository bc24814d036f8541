/* SPDX-License-Identifier: MIT */
/* Edge cases of the documented behaviour: method ids no method has, mv's progress
 * call, unlabelled items under crowd-lloyd, the full seed range through
 * cs_set_double(), items impossible under every class, the size limits of cs_fit()
 * (CS_MAX_CROWD_CLASSES, n_workers x k < 2^32) and converged = 0 after a cancel. */
#include <float.h>

#include <stdlib.h>

#include "cs_test.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CS_TEST_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define CS_TEST_ASAN 1
#endif

/* CS_PARAM_METHOD: "an id no method has is CS_ERR_UNKNOWN_METHOD", whatever its value. */
static void unknown_method_ids_are_unknown_method(void **state) {
    cs_model *m = (cs_model *)*state;
    int64_t v;
    CS_ASSERT_FAIL(m, cs_set_int(m, CS_PARAM_METHOD, 999), CS_ERR_UNKNOWN_METHOD, "999");
    CS_ASSERT_FAIL(m, cs_set_int(m, CS_PARAM_METHOD, 0), CS_ERR_UNKNOWN_METHOD, "0");
    CS_ASSERT_FAIL(m, cs_set_int(m, CS_PARAM_METHOD, -1), CS_ERR_UNKNOWN_METHOD, "-1");
    CS_ASSERT_FAIL(m, cs_set_double(m, CS_PARAM_METHOD, 999.0), CS_ERR_UNKNOWN_METHOD, "999");
    CS_ASSERT_FAIL(m, cs_set_param_string(m, "method", "999"), CS_ERR_UNKNOWN_METHOD, "999");
    CS_ASSERT_OK(cs_get_int(m, CS_PARAM_METHOD, &v));
    assert_int_equal(v, CS_METHOD_AUTO);
}

static int32_t count_calls(void *user, int32_t iteration, double objective) {
    int *calls = (int *)user;
    (void)objective;
    if (*calls == 0 && iteration != 0) return 1;
    ++*calls;
    return 0;
}

/* cs_progress_fn: "called by a fit after its initialisation (iteration 0) and after
 * every completed iteration": mv has only the initialisation. */
static void mv_reports_iteration_0(void **state) {
    cs_model *m = (cs_model *)*state;
    int calls = 0;
    CS_ASSERT_OK(cs_set_param_string(m, "method", "mv"));
    CS_ASSERT_OK(cs_set_progress(m, count_calls, &calls));
    cs_fit_or_fail(m, &cs_tiny);
    assert_int_equal(calls, 1);
}

/* CS_NOTE_UNLABELED_ITEMS: unlabelled items' posterior is uniform for crowd-lloyd
 * (there is no information about them), and their label class 0. */
static void crowd_lloyd_unlabeled_items_get_uniform_posterior(void **state) {
    cs_model *m = (cs_model *)*state;
    double post[12];
    int32_t lab[6], notes;
    CS_ASSERT_OK(cs_set_param_string(m, "method", "crowd-lloyd"));
    CS_ASSERT_OK(cs_set_param_string(m, "prior", "uniform"));
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_ITEMS, 6));
    cs_fit_or_fail(m, &cs_tiny);
    CS_ASSERT_OK(cs_posteriors(m, post, 12));
    CS_ASSERT_OK(cs_labels(m, lab, 6));
    CS_ASSERT_OK(cs_fit_notes(m, &notes));
    assert_true((notes & CS_NOTE_UNLABELED_ITEMS) != 0);
    assert_int_equal(lab[4], 0);
    assert_int_equal(lab[5], 0);
    if (post[8] != 0.5 || post[9] != 0.5 || post[10] != 0.5 || post[11] != 0.5)
        fail_msg("unlabelled items' posteriors: (%g, %g), (%g, %g)", post[8], post[9], post[10],
                 post[11]);
}

/* CS_PARAM_SEED: "0..2^63-1", and cs_set_double() accepts a whole number for an int
 * parameter, up to the largest double below 2^63, 9223372036854774784. */
static void seed_accepts_whole_doubles_up_to_2_pow_63(void **state) {
    cs_model *m = (cs_model *)*state;
    int64_t v;
    CS_ASSERT_OK(cs_set_double(m, CS_PARAM_SEED, 9.21e18));
    CS_ASSERT_OK(cs_get_int(m, CS_PARAM_SEED, &v));
    assert_true(v == INT64_C(9210000000000000000));
    CS_ASSERT_OK(cs_set_double(m, CS_PARAM_SEED, 9223372036854774784.0));
    CS_ASSERT_OK(cs_get_int(m, CS_PARAM_SEED, &v));
    assert_true(v == INT64_C(9223372036854774784));
    /* 2^63 itself is out of range. */
    CS_ASSERT_FAIL(m, cs_set_double(m, CS_PARAM_SEED, 9223372036854775808.0),
                   CS_ERR_PARAM_RANGE, "seed");
}

/* CS_NOTE_IMPOSSIBLE_ITEMS: items with zero likelihood under every class get the class
 * prior as posterior. Reproduced with an Opt-D&S start without the delta floor, stopped
 * after the initialisation, with the estimated prior (so that prior != uniform). The
 * spectral estimate of so small a crowd depends on rounding (the tensor power method's
 * starts are drawn in the whitened basis); this crowd has impossible items whether the
 * small matrix work runs through LAPACK or through the library's own loops. The
 * E-step gives such an item exp(log w) normalised, equal to the prior w to rounding. */
static void impossible_items_get_the_prior(void **state) {
    static const int32_t item[66] = {
        0,  0,  0,  1,  1,  1,  2,  2,  2,  2,  3,  3,  3,  3,  4,  4,  4,  5,  5,  6,  6,  7,
        7,  8,  8,  8,  9,  10, 10, 10, 10, 11, 11, 12, 12, 12, 13, 13, 13, 14, 14, 15, 15, 15,
        15, 16, 16, 17, 17, 18, 18, 18, 19, 19, 19, 19, 20, 21, 22, 22, 22, 23, 23, 24, 24, 24};
    static const int32_t worker[66] = {
        0, 1, 2, 0, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 0, 2, 1, 3, 1, 3, 0, 1, 3, 3, 0,
        1, 2, 3, 1, 3, 0, 1, 3, 0, 1, 2, 0, 2, 0, 1, 2, 3, 2, 3, 0, 1, 0, 1, 3, 0, 1, 2, 3,
        2, 2, 0, 1, 3, 1, 2, 0, 2, 3};
    static const int32_t label[66] = {
        2, 1, 2, 0, 0, 0, 0, 2, 2, 2, 2, 2, 1, 2, 0, 0, 2, 2, 2, 0, 0, 0, 0, 0, 2, 0, 0, 1,
        1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 0, 2, 2, 0, 0, 0, 0, 2, 2, 2, 0, 1, 1, 1, 1, 2, 2, 2,
        1, 0, 1, 2, 2, 0, 0, 0, 0, 0};
    cs_model *m = (cs_model *)*state;
    double post[25 * 3], prior[3];
    int32_t notes;
    size_t j;
    int prior_rows = 0;
    CS_ASSERT_OK(cs_set_param_string(m, "method", "opt-ds"));
    CS_ASSERT_OK(cs_set_param_string(m, "prior", "estimated"));
    /* The reference code's spectral start alone, every class possible: the zero entries
     * of that estimate are the point. */
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_STARTS, 1));
    CS_ASSERT_OK(cs_set_param_string(m, "groups", "reference"));
    CS_ASSERT_OK(cs_set_param_string(m, "identify", "reference"));
    CS_ASSERT_OK(cs_set_param_string(m, "support", "all"));
    CS_ASSERT_OK(cs_set_double(m, CS_PARAM_DELTA, 0.0));
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_CLASSES, 3));
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_MAX_ITER, 0));
    CS_ASSERT_OK(cs_fit(m, item, worker, label, 66));
    CS_ASSERT_OK(cs_fit_notes(m, &notes));
    CS_ASSERT_OK(cs_posteriors(m, post, 75));
    CS_ASSERT_OK(cs_class_prior(m, prior, 3));
    assert_true((notes & CS_NOTE_IMPOSSIBLE_ITEMS) != 0);
    assert_true(prior[0] != prior[1]);
    /* The fallback posterior is the prior divided by its sum, which is 1 up to
     * rounding: whether that sum is exactly 1.0 depends on the BLAS that computed the
     * spectral prior (OpenBLAS and the reference BLAS round differently), so the
     * comparison allows a few units in the last place. */
    for (j = 0; j < 25; ++j)
        prior_rows += fabs(post[3 * j] - prior[0]) <= 4 * DBL_EPSILON &&
                      fabs(post[3 * j + 1] - prior[1]) <= 4 * DBL_EPSILON &&
                      fabs(post[3 * j + 2] - prior[2]) <= 4 * DBL_EPSILON;
    if (prior_rows == 0)
        fail_msg("no posterior equals the prior (%g, %g, %g)", prior[0], prior[1], prior[2]);
    /* The note names the first such item (issue 39): its posterior is the prior. */
    {
        const char *message = cs_last_error(m);
        const char *at = strstr(message, " is item ");
        long first;
        if (at == NULL) fail_msg("the note does not name the item: %s", message);
        first = strtol(at + strlen(" is item "), NULL, 10);
        assert_true(first >= 0 && first < 25);
        for (j = 0; j < 3; ++j) assert_true(fabs(post[3 * first + j] - prior[j]) <= 4 * DBL_EPSILON);
    }
}

/* Issue 12, item 11: the documented range and the real limits of cs_fit() agree, each
 * with its own status and a message giving the numbers. k <= CS_MAX_CROWD_CLASSES
 * (10000), declared or inferred from the largest label or gold label. */
static void crowd_classes_limit_is_documented(void **state) {
    static const int32_t item[3] = {0, 0, 1}, worker[3] = {0, 1, 0};
    int32_t label[3] = {0, 1, 1};
    static const int32_t gold_item[1] = {1}, gold_label[1] = {10000};
    cs_model *m = (cs_model *)*state;
    double upper = 0.0;
    assert_int_equal(CS_MAX_CROWD_CLASSES, 10000);
    /* The parameter's own range is wider (points and graphs take up to 10^5 clusters). */
    CS_ASSERT_OK(cs_param_info(CS_PARAM_CLASSES, NULL, &upper, NULL, NULL));
    assert_true(upper == 100000.0);
    CS_ASSERT_OK(cs_set_param_string(m, "method", "mv"));
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_CLASSES, 10001));
    CS_ASSERT_FAIL(m, cs_fit(m, item, worker, label, 3), CS_ERR_TOO_MANY_CLASSES, "k = 10001",
                   "'classes' parameter", "at most 10000");
    CS_ASSERT_STATUS(cs_labels(m, label, 3), CS_ERR_NOT_FITTED);
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_CLASSES, 0));
    label[2] = 10000; /* k inferred as 10001 */
    CS_ASSERT_FAIL(m, cs_fit(m, item, worker, label, 3), CS_ERR_TOO_MANY_CLASSES, "k = 10001",
                   "inferred from the largest label, 10000", "at most 10000");
    label[2] = INT32_MAX; /* k = 2^31 does not fit an int32_t (tests/fuzz found the overflow) */
    CS_ASSERT_FAIL(m, cs_fit(m, item, worker, label, 3), CS_ERR_TOO_MANY_CLASSES, "k = 2147483648",
                   "inferred from the largest label, 2147483647");
    label[2] = 1;
    CS_ASSERT_OK(cs_set_gold(m, gold_item, gold_label, 1));
    CS_ASSERT_FAIL(m, cs_fit(m, item, worker, label, 3), CS_ERR_TOO_MANY_CLASSES, "k = 10001");
    CS_ASSERT_OK(cs_set_gold(m, NULL, NULL, 0));
    /* The handle is fine afterwards. */
    CS_ASSERT_OK(cs_fit(m, item, worker, label, 3));
}

/* An id of 2^31 - 1 cannot be counted (the count, id + 1, is an int32): the message
 * states the limit and where the id is (issue 40, R9). */
static void id_limit_is_stated(void **state) {
    static const int32_t item[3] = {0, 0, 1}, label[3] = {0, 1, 1};
    int32_t worker[3] = {0, 1, INT32_MAX};
    static const int32_t gold_item[1] = {INT32_MAX}, gold_label[1] = {0};
    cs_model *m = (cs_model *)*state;
    CS_ASSERT_OK(cs_set_param_string(m, "method", "mv"));
    CS_ASSERT_FAIL(m, cs_fit(m, item, worker, label, 3), CS_ERR_INVALID_ID, "worker id 2147483647",
                   "at label index 2", "at most 2147483646");
    worker[2] = 0;
    CS_ASSERT_OK(cs_set_gold(m, gold_item, gold_label, 1));
    CS_ASSERT_FAIL(m, cs_fit(m, item, worker, label, 3), CS_ERR_INVALID_ID, "gold item id 2147483647",
                   "at gold index 0", "at most 2147483646");
    CS_ASSERT_OK(cs_set_gold(m, NULL, NULL, 0));
    CS_ASSERT_OK(cs_fit(m, item, worker, label, 3));
}

/* n_workers x k < 2^32 (the label codes): 1431655766 x 3 = 4294967298 is refused with
 * CS_ERR_TOO_LARGE before anything is allocated. One below the limit, 429496 x 10000 =
 * 4294960000, passes the check, and mv then needs 429496 k x k confusion matrices
 * (3.4e14 bytes): CS_ERR_OUT_OF_MEMORY, a valid handle, and a normal fit afterwards
 * (not under AddressSanitizer, whose operator new never throws std::bad_alloc). */
static void workers_times_classes_limit_is_documented(void **state) {
    static const int32_t item[3] = {0, 0, 1}, worker[3] = {0, 1, 0}, label[3] = {0, 1, 1};
    cs_model *m = (cs_model *)*state;
    int32_t labels[2];
    CS_ASSERT_OK(cs_set_param_string(m, "method", "mv"));
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_CLASSES, 3));
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_WORKERS, INT64_C(1431655766)));
    CS_ASSERT_FAIL(m, cs_fit(m, item, worker, label, 3), CS_ERR_TOO_LARGE,
                   "1431655766 x 3 = 4294967298", ">= 2^32", "'workers' parameter");
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_CLASSES, 10000));
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_WORKERS, 429497));
    CS_ASSERT_FAIL(m, cs_fit(m, item, worker, label, 3), CS_ERR_TOO_LARGE,
                   "429497 x 10000 = 4294970000");
#ifndef CS_TEST_ASAN /* AddressSanitizer's operator new reports a failed allocation and exits */
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_WORKERS, 429496));
    CS_ASSERT_FAIL(m, cs_fit(m, item, worker, label, 3), CS_ERR_OUT_OF_MEMORY, "out of memory");
    CS_ASSERT_STATUS(cs_labels(m, labels, 2), CS_ERR_NOT_FITTED);
#endif
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_WORKERS, 0));
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_CLASSES, 0));
    CS_ASSERT_OK(cs_fit(m, item, worker, label, 3));
    CS_ASSERT_OK(cs_labels(m, labels, 2));
    assert_int_equal(labels[0], 0); /* one vote each: the tie goes to class 0 */
    assert_int_equal(labels[1], 1);
}

typedef struct {
    int32_t at; /* cancel at this call (0-based); -1: never */
    int32_t calls;
} StopAt;

static int32_t stop_at_call(void *user, int32_t iteration, double objective) {
    StopAt *s = (StopAt *)user;
    (void)iteration;
    (void)objective;
    return s->calls++ == s->at ? 1 : 0;
}

/* Fits `method` on the data of its input kind (crowd: cs_k3; points: two clusters of 3
 * points; graph: two triangles joined by one edge; comparisons: four items by two
 * workers; numbers and tags: six answers on three items). */
static cs_status fit_any(cs_model *m, int32_t method) {
    static const double x[12] = {0, 0, 0, 1, 1, 0, 10, 10, 10, 11, 11, 10};
    static const int32_t u[7] = {0, 0, 1, 3, 3, 4, 2}, v[7] = {1, 2, 2, 4, 5, 5, 3};
    static const int32_t judge[6] = {0, 1, 0, 1, 0, 1}, left[6] = {0, 1, 2, 0, 3, 2}, right[6] = {1, 2, 3, 2, 1, 0};
    static const int32_t answer[6] = {CS_ANSWER_LEFT, CS_ANSWER_LEFT, CS_ANSWER_RIGHT, CS_ANSWER_TIE,
                                      CS_ANSWER_RIGHT, CS_ANSWER_LEFT};
    static const int32_t item[6] = {0, 0, 1, 1, 2, 2}, worker[6] = {0, 1, 0, 1, 0, 1};
    static const double value[6] = {1.0, 1.5, 4.0, 3.0, -2.0, -2.5};
    static const int64_t tag_start[7] = {0, 1, 3, 3, 4, 5, 7};
    static const int32_t tag[7] = {0, 0, 1, 1, 0, 0, 1};
    switch (cs_method_input(method)) {
        case CS_INPUT_CROWD: return cs_fit_data(m, &cs_k3);
        case CS_INPUT_POINTS: return cs_fit_points(m, x, 6, 2, 0);
        case CS_INPUT_COMPARISONS: return cs_fit_comparisons(m, judge, left, right, answer, 6);
        case CS_INPUT_NUMBERS: return cs_fit_numbers(m, item, worker, value, 6);
        case CS_INPUT_TAGS: return cs_fit_tags(m, item, worker, tag_start, tag, 6, 2);
        default: return cs_fit_graph(m, 6, u, v, 7);
    }
}

/* Issue 12, item 12: cs_converged() is 0 after a cancel, for every method (mv
 * included) and wherever the cancel comes: at every progress call of the fit. */
static void every_method_reports_not_converged_after_cancel(void **state) {
    int32_t i;
    (void)state;
    for (i = 0; i < cs_method_count(); ++i) {
        const int32_t method = cs_method_at(i);
        StopAt count = {-1, 0};
        int32_t at, converged = -1;
        cs_model *m = cs_create();
        assert_non_null(m);
        CS_ASSERT_OK(cs_set_int(m, CS_PARAM_METHOD, method));
        if (cs_method_input(method) == CS_INPUT_POINTS || cs_method_input(method) == CS_INPUT_GRAPH)
            CS_ASSERT_OK(cs_set_int(m, CS_PARAM_CLASSES, 2));
        CS_ASSERT_OK(cs_set_progress(m, stop_at_call, &count));
        CS_ASSERT_OK(fit_any(m, method));
        assert_true(count.calls >= 1);
        for (at = 0; at < count.calls; ++at) {
            StopAt s;
            int32_t notes = 0;
            s.at = at;
            s.calls = 0;
            CS_ASSERT_OK(cs_set_progress(m, stop_at_call, &s));
            CS_ASSERT_FAIL(m, fit_any(m, method), CS_ERR_CANCELLED, "cancel");
            CS_ASSERT_OK(cs_fit_notes(m, &notes));
            CS_ASSERT_OK(cs_converged(m, &converged));
            if (converged != 0 || (notes & CS_NOTE_CANCELLED) == 0)
                fail_msg("%s cancelled at progress call %d of %d: converged %d, notes %d",
                         cs_method_name(method), at, count.calls, converged, notes);
        }
        cs_destroy(m);
    }
}

int main(void) {
#define T(f) cmocka_unit_test_setup_teardown(f, cs_setup_model, cs_teardown_model)
    const struct CMUnitTest tests[] = {
        T(unknown_method_ids_are_unknown_method),
        T(mv_reports_iteration_0),
        T(crowd_lloyd_unlabeled_items_get_uniform_posterior),
        T(seed_accepts_whole_doubles_up_to_2_pow_63),
        T(impossible_items_get_the_prior),
        T(crowd_classes_limit_is_documented),
        T(id_limit_is_stated),
        T(workers_times_classes_limit_is_documented),
        cmocka_unit_test(every_method_reports_not_converged_after_cancel),
    };
#undef T
    return cmocka_run_group_tests_name("edge_cases", tests, NULL, NULL);
}
