/* SPDX-License-Identifier: MIT */
/* C API tests of cs_fit's input checks: NULL arrays, empty input, invalid ids and
 * labels (the message names the label index and the value), too few classes,
 * duplicates and the "duplicates" policy, declared counts, and that a failed fit
 * leaves the handle without results. */
#include "cs_test.h"

#include <stdlib.h>

/* A writable copy of the tiny set, to spoil one entry at a time. */
typedef struct {
    int32_t item[12], worker[12], label[12];
} Tiny;

static void tiny_copy(Tiny *t) {
    memcpy(t->item, cs_tiny.item, sizeof t->item);
    memcpy(t->worker, cs_tiny.worker, sizeof t->worker);
    memcpy(t->label, cs_tiny.label, sizeof t->label);
}

static cs_status fit_tiny(cs_model *m, const Tiny *t) {
    return cs_fit(m, t->item, t->worker, t->label, 12);
}

/* After a failed fit nothing can be read. */
static void assert_not_fitted(cs_model *m) {
    size_t n;
    int32_t lab[16];
    CS_ASSERT_STATUS(cs_n_items(m, &n), CS_ERR_NOT_FITTED);
    CS_ASSERT_STATUS(cs_labels(m, lab, 16), CS_ERR_NOT_FITTED);
}

static void null_arrays(void **state) {
    cs_model *m = (cs_model *)*state;
    Tiny t;
    tiny_copy(&t);
    CS_ASSERT_FAIL(m, cs_fit(m, NULL, t.worker, t.label, 12), CS_ERR_NULL_POINTER, "item",
                   "NULL");
    CS_ASSERT_FAIL(m, cs_fit(m, t.item, NULL, t.label, 12), CS_ERR_NULL_POINTER, "worker",
                   "NULL");
    CS_ASSERT_FAIL(m, cs_fit(m, t.item, t.worker, NULL, 12), CS_ERR_NULL_POINTER, "label",
                   "NULL");
    assert_not_fitted(m);
}

static void no_labels(void **state) {
    cs_model *m = (cs_model *)*state;
    Tiny t;
    tiny_copy(&t);
    CS_ASSERT_FAIL(m, cs_fit(m, t.item, t.worker, t.label, 0), CS_ERR_EMPTY_INPUT, "n_labels");
    assert_not_fitted(m);
}

static void negative_ids(void **state) {
    cs_model *m = (cs_model *)*state;
    Tiny t;
    tiny_copy(&t);
    t.item[4] = -3;
    CS_ASSERT_FAIL(m, fit_tiny(m, &t), CS_ERR_INVALID_ID, "item id -3", "label index 4",
                   "negative");
    tiny_copy(&t);
    t.worker[11] = -1;
    CS_ASSERT_FAIL(m, fit_tiny(m, &t), CS_ERR_INVALID_ID, "worker id -1", "label index 11",
                   "negative");
    tiny_copy(&t);
    t.worker[0] = INT32_MIN;
    CS_ASSERT_FAIL(m, fit_tiny(m, &t), CS_ERR_INVALID_ID, "worker id -2147483648",
                   "label index 0");
    assert_not_fitted(m);
}

/* The header's own example: "worker id 17 at label index 3 is >= n_workers (12)". */
static void ids_beyond_declared_counts(void **state) {
    cs_model *m = (cs_model *)*state;
    Tiny t;
    tiny_copy(&t);
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_WORKERS, 12));
    t.worker[3] = 17;
    CS_ASSERT_FAIL(m, fit_tiny(m, &t), CS_ERR_INVALID_ID,
                   "worker id 17 at label index 3 is >= n_workers (12)");
    t.worker[3] = 12; /* == n_workers is out too */
    CS_ASSERT_FAIL(m, fit_tiny(m, &t), CS_ERR_INVALID_ID, "worker id 12", "label index 3",
                   "n_workers (12)");
    t.worker[3] = 11; /* the largest valid id */
    cs_fit_or_fail(m, &cs_tiny);
    CS_ASSERT_OK(fit_tiny(m, &t));

    tiny_copy(&t);
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_WORKERS, 0));
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_ITEMS, 4));
    t.item[7] = 4;
    CS_ASSERT_FAIL(m, fit_tiny(m, &t), CS_ERR_INVALID_ID, "item id 4", "label index 7",
                   "n_items (4)");
    assert_not_fitted(m);
}

static void labels_out_of_range(void **state) {
    cs_model *m = (cs_model *)*state;
    Tiny t;
    tiny_copy(&t);
    t.label[5] = -1;
    CS_ASSERT_FAIL(m, fit_tiny(m, &t), CS_ERR_INVALID_LABEL, "label -1", "label index 5");
    tiny_copy(&t);
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_CLASSES, 2));
    t.label[9] = 2;
    CS_ASSERT_FAIL(m, fit_tiny(m, &t), CS_ERR_INVALID_LABEL, "label 2", "label index 9",
                   "k (2)");
    assert_not_fitted(m);
    /* With k inferred the same label is fine: k becomes 3. */
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_CLASSES, 0));
    CS_ASSERT_OK(fit_tiny(m, &t));
    {
        size_t k;
        CS_ASSERT_OK(cs_n_classes(m, &k));
        assert_int_equal(k, 3);
    }
}

static void all_labels_zero_is_too_few_classes(void **state) {
    cs_model *m = (cs_model *)*state;
    Tiny t;
    size_t k;
    tiny_copy(&t);
    memset(t.label, 0, sizeof t.label);
    CS_ASSERT_FAIL(m, fit_tiny(m, &t), CS_ERR_TOO_FEW_CLASSES, "class");
    assert_not_fitted(m);
    /* Declaring k = 2 makes the same input valid. */
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_CLASSES, 2));
    CS_ASSERT_OK(cs_set_param_string(m, "method", "mv"));
    CS_ASSERT_OK(fit_tiny(m, &t));
    CS_ASSERT_OK(cs_n_classes(m, &k));
    assert_int_equal(k, 2);
}

static void duplicates_rejected_by_default(void **state) {
    cs_model *m = (cs_model *)*state;
    Tiny t;
    tiny_copy(&t);
    t.worker[10] = 0; /* worker 0 labels item 3 at label indices 9 and 10 */
    CS_ASSERT_FAIL(m, fit_tiny(m, &t), CS_ERR_DUPLICATE, "worker 0", "item 3", "9", "10");
    assert_not_fitted(m);
}

/* Worker 0 labels item 0 three times (0, then 1, then 1) and worker 2 labels item 1
 * twice (1, then 0), interleaved with other labels. "first" keeps 0 and 1, "last"
 * keeps 1 and 0; each item then has one label, so mv's label is the kept one. */
static void duplicates_keep_first_or_last(void **state) {
    static const int32_t item[] = {0, 1, 2, 0, 1, 2, 0, 1};
    static const int32_t worker[] = {0, 2, 1, 0, 1, 0, 0, 2};
    static const int32_t label[] = {0, 1, 1, 1, 1, 0, 1, 0};
    /* item 1 also has worker 1's label 1: with "last" item 1 gets votes 0 and 1. */
    cs_model *m = (cs_model *)*state;
    int32_t lab[3];
    double post[6];

    CS_ASSERT_OK(cs_set_param_string(m, "method", "mv"));
    CS_ASSERT_FAIL(m, cs_fit(m, item, worker, label, 8), CS_ERR_DUPLICATE, "worker", "item");

    CS_ASSERT_OK(cs_set_param_string(m, "duplicates", "first"));
    CS_ASSERT_OK(cs_fit(m, item, worker, label, 8));
    CS_ASSERT_OK(cs_labels(m, lab, 3));
    CS_ASSERT_OK(cs_posteriors(m, post, 6));
    assert_int_equal(lab[0], 0); /* worker 0's first label */
    assert_true(post[0] == 1.0 && post[1] == 0.0);
    assert_int_equal(lab[1], 1); /* worker 2's first label (1) + worker 1's 1 */
    assert_true(post[2] == 0.0 && post[3] == 1.0);

    CS_ASSERT_OK(cs_set_param_string(m, "duplicates", "last"));
    CS_ASSERT_OK(cs_fit(m, item, worker, label, 8));
    CS_ASSERT_OK(cs_labels(m, lab, 3));
    CS_ASSERT_OK(cs_posteriors(m, post, 6));
    assert_int_equal(lab[0], 1); /* worker 0's last label */
    assert_true(post[0] == 0.0 && post[1] == 1.0);
    /* worker 2's last label (0) + worker 1's 1: a tie, to the lowest class */
    assert_int_equal(lab[1], 0);
    assert_true(post[2] == 0.5 && post[3] == 0.5);

    /* Numeric values work too; item 2 is untouched either way. */
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_DUPLICATES, CS_DUPLICATES_KEEP_FIRST));
    CS_ASSERT_OK(cs_fit(m, item, worker, label, 8));
    CS_ASSERT_OK(cs_labels(m, lab, 3));
    assert_int_equal(lab[0], 0);
    CS_ASSERT_OK(cs_posteriors(m, post, 6));
    assert_true(post[4] == 0.5 && post[5] == 0.5);
}

/* A failed fit discards the results of an earlier successful one. */
static void failed_fit_leaves_handle_not_fitted(void **state) {
    cs_model *m = (cs_model *)*state;
    Tiny t;
    size_t n;
    cs_fit_or_fail(m, &cs_tiny);
    CS_ASSERT_OK(cs_n_items(m, &n));
    tiny_copy(&t);
    t.label[2] = -5;
    CS_ASSERT_FAIL(m, fit_tiny(m, &t), CS_ERR_INVALID_LABEL, "label -5", "label index 2");
    CS_ASSERT_FAIL(m, cs_n_items(m, &n), CS_ERR_NOT_FITTED, "fit");
    {
        double buf[8];
        int32_t i32;
        CS_ASSERT_STATUS(cs_posteriors(m, buf, 8), CS_ERR_NOT_FITTED);
        CS_ASSERT_STATUS(cs_fit_notes(m, &i32), CS_ERR_NOT_FITTED);
    }
    /* ... and the handle is usable again. */
    cs_fit_or_fail(m, &cs_tiny);
    CS_ASSERT_OK(cs_n_items(m, &n));
    assert_int_equal(n, 4);
}

/* The arrays are copied: freeing them right after cs_fit is fine (checked by the
 * sanitizer build), and the results do not change. */
static void inputs_are_copied(void **state) {
    cs_model *m = (cs_model *)*state;
    int32_t *item = (int32_t *)malloc(sizeof cs_tiny_item);
    int32_t *worker = (int32_t *)malloc(sizeof cs_tiny_worker);
    int32_t *label = (int32_t *)malloc(sizeof cs_tiny_label);
    double before[8], after[8];
    assert_non_null(item);
    assert_non_null(worker);
    assert_non_null(label);
    memcpy(item, cs_tiny_item, sizeof cs_tiny_item);
    memcpy(worker, cs_tiny_worker, sizeof cs_tiny_worker);
    memcpy(label, cs_tiny_label, sizeof cs_tiny_label);
    CS_ASSERT_OK(cs_set_param_string(m, "method", "ds"));
    CS_ASSERT_OK(cs_fit(m, item, worker, label, 12));
    CS_ASSERT_OK(cs_posteriors(m, before, 8));
    memset(label, 0xff, sizeof cs_tiny_label);
    free(item);
    free(worker);
    free(label);
    CS_ASSERT_OK(cs_posteriors(m, after, 8));
    assert_memory_equal(before, after, sizeof before);
}

/* Items in [0, n_items) without labels get a uniform posterior and class 0 with the
 * uniform prior, the estimated prior and its most probable class with the estimated
 * one, and a note (for the probabilistic methods; crowd-lloyd is in
 * test_known_issues.c). Workers without labels get uniform confusion rows under mv. */
static void declared_counts_larger_than_the_data(void **state) {
    static const char *methods[] = {"mv", "ds", "opt-ds"};
    size_t i;
    int32_t prior_param;
    (void)state;
    for (i = 0; i < sizeof methods / sizeof methods[0]; ++i)
        for (prior_param = 0; prior_param <= 1; ++prior_param) {
            cs_model *m = cs_new_model(methods[i]);
            double post[12], prior[2];
            int32_t lab[6], notes, best;
            size_t j;
            CS_ASSERT_OK(cs_set_int(m, CS_PARAM_PRIOR, prior_param));
            CS_ASSERT_OK(cs_set_int(m, CS_PARAM_ITEMS, 6));
            cs_fit_or_fail(m, &cs_tiny);
            CS_ASSERT_OK(cs_posteriors(m, post, 12));
            CS_ASSERT_OK(cs_labels(m, lab, 6));
            CS_ASSERT_OK(cs_class_prior(m, prior, 2));
            CS_ASSERT_OK(cs_fit_notes(m, &notes));
            if (prior_param == CS_PRIOR_UNIFORM) assert_true(prior[0] == 0.5 && prior[1] == 0.5);
            best = prior[1] > prior[0] ? 1 : 0;
            for (j = 4; j < 6; ++j) {
                if (fabs(post[2 * j] - prior[0]) > 1e-15 || fabs(post[2 * j + 1] - prior[1]) > 1e-15)
                    fail_msg("%s, prior %d: unlabelled item %zu has posterior (%.17g, %.17g), "
                             "class prior (%.17g, %.17g)", methods[i], prior_param, j,
                             post[2 * j], post[2 * j + 1], prior[0], prior[1]);
                assert_int_equal(lab[j], best);
            }
            assert_true((notes & CS_NOTE_UNLABELED_ITEMS) != 0);
            assert_non_null(strstr(cs_last_error(m), "no labels"));
            cs_destroy(m);
        }
    {
        cs_model *m = cs_new_model("mv");
        double conf[5 * 2 * 2];
        size_t j;
        CS_ASSERT_OK(cs_set_int(m, CS_PARAM_WORKERS, 5));
        cs_fit_or_fail(m, &cs_tiny);
        CS_ASSERT_OK(cs_confusion(m, conf, 20));
        for (j = 12; j < 20; ++j) assert_true(conf[j] == 0.5);
        cs_destroy(m);
    }
}

int main(void) {
#define T(f) cmocka_unit_test_setup_teardown(f, cs_setup_model, cs_teardown_model)
    const struct CMUnitTest tests[] = {
        T(null_arrays),
        T(no_labels),
        T(negative_ids),
        T(ids_beyond_declared_counts),
        T(labels_out_of_range),
        T(all_labels_zero_is_too_few_classes),
        T(duplicates_rejected_by_default),
        T(duplicates_keep_first_or_last),
        T(failed_fit_leaves_handle_not_fitted),
        T(inputs_are_copied),
        cmocka_unit_test(declared_counts_larger_than_the_data),
    };
#undef T
    return cmocka_run_group_tests_name("inputs", tests, NULL, NULL);
}
