/* SPDX-License-Identifier: MIT */
/* C API tests: versions, status codes, handles, name tables, results, progress and
 * cancellation, independence of handles. Compiled as C99 so that the public header
 * is checked as C. Every failure asserts the exact status and what cs_last_error()
 * says. */
#include "cs_test.h"

#include <stdlib.h>

/* ------------------------------------------------------------------------------ */
/* Versions and status codes                                                       */

static void version_macros_match_library(void **state) {
    char expected[64];
    (void)state;
    assert_int_equal(CS_VERSION_NUMBER,
                     CS_VERSION_MAJOR * 10000 + CS_VERSION_MINOR * 100 + CS_VERSION_PATCH);
    assert_int_equal(cs_version_number(), CS_VERSION_NUMBER);
    snprintf(expected, sizeof expected, "%d.%d.%d", CS_VERSION_MAJOR, CS_VERSION_MINOR,
             CS_VERSION_PATCH);
    assert_non_null(cs_version_string());
    assert_string_equal(cs_version_string(), expected);
    assert_true(CS_VERSION_MINOR >= 0 && CS_VERSION_MINOR < 100);
    assert_true(CS_VERSION_PATCH >= 0 && CS_VERSION_PATCH < 100);
}

/* Enum values are pinned by the header ("never renumbered"): a change here is an ABI
 * break, not a test to update. */
static void enum_values_are_pinned(void **state) {
    (void)state;
    assert_int_equal(CS_OK, 0);
    assert_int_equal(CS_ERR_NULL_HANDLE, -1);
    assert_int_equal(CS_ERR_NULL_POINTER, -2);
    assert_int_equal(CS_ERR_INVALID_ARGUMENT, -3);
    assert_int_equal(CS_ERR_UNKNOWN_PARAM, -4);
    assert_int_equal(CS_ERR_PARAM_RANGE, -5);
    assert_int_equal(CS_ERR_UNKNOWN_METHOD, -6);
    assert_int_equal(CS_ERR_EMPTY_INPUT, -7);
    assert_int_equal(CS_ERR_INVALID_ID, -8);
    assert_int_equal(CS_ERR_INVALID_LABEL, -9);
    assert_int_equal(CS_ERR_TOO_FEW_CLASSES, -10);
    assert_int_equal(CS_ERR_DUPLICATE, -11);
    assert_int_equal(CS_ERR_BUFFER_TOO_SMALL, -12);
    assert_int_equal(CS_ERR_NOT_FITTED, -13);
    assert_int_equal(CS_ERR_CANCELLED, -14);
    assert_int_equal(CS_ERR_OUT_OF_MEMORY, -15);
    assert_int_equal(CS_ERR_INTERNAL, -16);
    assert_int_equal(CS_ERR_WRONG_INPUT_KIND, -17);
    assert_int_equal(CS_ERR_TOO_LARGE, -20);
    assert_int_equal(CS_ERR_BUSY, -21);
    assert_int_equal(CS_ERR_CORRUPT_MODEL, -22);
    assert_int_equal(CS_ERR_MODEL_VERSION, -23);
    assert_int_equal(CS_ERR_INVALID_ANSWER, -24);
    assert_int_equal(CS_ERR_NOT_CONNECTED, -25);

    assert_int_equal(CS_METHOD_MV, 1);
    assert_int_equal(CS_METHOD_DS, 2);
    assert_int_equal(CS_METHOD_OPT_DS, 3);
    assert_int_equal(CS_METHOD_CROWD_LLOYD, 4);

    assert_int_equal(CS_PARAM_METHOD, 1);
    assert_int_equal(CS_PARAM_CLASSES, 2);
    assert_int_equal(CS_PARAM_ITEMS, 3);
    assert_int_equal(CS_PARAM_WORKERS, 4);
    assert_int_equal(CS_PARAM_SEED, 5);
    assert_int_equal(CS_PARAM_THREADS, 6);
    assert_int_equal(CS_PARAM_DUPLICATES, 7);
    assert_int_equal(CS_PARAM_MAX_ITER, 100);
    assert_int_equal(CS_PARAM_TOL, 101);
    assert_int_equal(CS_PARAM_CONFUSION, 102);
    assert_int_equal(CS_PARAM_PRIOR, 103);
    assert_int_equal(CS_PARAM_SMOOTHING, 104);
    assert_int_equal(CS_PARAM_DELTA, 200);
    assert_int_equal(CS_PARAM_POWER_STARTS, 201);
    assert_int_equal(CS_PARAM_POWER_ITERS, 202);

    assert_int_equal(CS_CONFUSION_FULL, 0);
    assert_int_equal(CS_CONFUSION_ONE_COIN, 1);
    assert_int_equal(CS_CONFUSION_CLASS_ONE_COIN, 2);
    assert_int_equal(CS_PRIOR_UNIFORM, 0);
    assert_int_equal(CS_PRIOR_ESTIMATED, 1);
    assert_int_equal(CS_DUPLICATES_REJECT, 0);
    assert_int_equal(CS_DUPLICATES_KEEP_FIRST, 1);
    assert_int_equal(CS_DUPLICATES_KEEP_LAST, 2);

    assert_int_equal(CS_NOTE_MAX_ITER_REACHED, 1);
    assert_int_equal(CS_NOTE_SPECTRAL_FALLBACK, 2);
    assert_int_equal(CS_NOTE_IMPOSSIBLE_ITEMS, 4);
    assert_int_equal(CS_NOTE_UNLABELED_ITEMS, 8);
    assert_int_equal(CS_NOTE_CANCELLED, 16);

    assert_int_equal(sizeof(cs_status), 4);
}

static void status_string_names_every_code(void **state) {
    static const struct {
        cs_status code;
        const char *name;
    } codes[] = {
        {CS_OK, "CS_OK"},
        {CS_ERR_NULL_HANDLE, "CS_ERR_NULL_HANDLE"},
        {CS_ERR_NULL_POINTER, "CS_ERR_NULL_POINTER"},
        {CS_ERR_INVALID_ARGUMENT, "CS_ERR_INVALID_ARGUMENT"},
        {CS_ERR_UNKNOWN_PARAM, "CS_ERR_UNKNOWN_PARAM"},
        {CS_ERR_PARAM_RANGE, "CS_ERR_PARAM_RANGE"},
        {CS_ERR_UNKNOWN_METHOD, "CS_ERR_UNKNOWN_METHOD"},
        {CS_ERR_EMPTY_INPUT, "CS_ERR_EMPTY_INPUT"},
        {CS_ERR_INVALID_ID, "CS_ERR_INVALID_ID"},
        {CS_ERR_INVALID_LABEL, "CS_ERR_INVALID_LABEL"},
        {CS_ERR_TOO_FEW_CLASSES, "CS_ERR_TOO_FEW_CLASSES"},
        {CS_ERR_DUPLICATE, "CS_ERR_DUPLICATE"},
        {CS_ERR_BUFFER_TOO_SMALL, "CS_ERR_BUFFER_TOO_SMALL"},
        {CS_ERR_NOT_FITTED, "CS_ERR_NOT_FITTED"},
        {CS_ERR_CANCELLED, "CS_ERR_CANCELLED"},
        {CS_ERR_OUT_OF_MEMORY, "CS_ERR_OUT_OF_MEMORY"},
        {CS_ERR_INTERNAL, "CS_ERR_INTERNAL"},
        {CS_ERR_WRONG_INPUT_KIND, "CS_ERR_WRONG_INPUT_KIND"},
        {CS_ERR_NON_FINITE, "CS_ERR_NON_FINITE"},
        {CS_ERR_TOO_MANY_CLASSES, "CS_ERR_TOO_MANY_CLASSES"},
        {CS_ERR_TOO_LARGE, "CS_ERR_TOO_LARGE"},
        {CS_ERR_BUSY, "CS_ERR_BUSY"},
        {CS_ERR_CORRUPT_MODEL, "CS_ERR_CORRUPT_MODEL"},
        {CS_ERR_MODEL_VERSION, "CS_ERR_MODEL_VERSION"},
        {CS_ERR_INVALID_ANSWER, "CS_ERR_INVALID_ANSWER"},
        {CS_ERR_NOT_CONNECTED, "CS_ERR_NOT_CONNECTED"},
    };
    static const cs_status unknown[] = {1, 2, 100, -99, -100, 1000, INT32_MAX, INT32_MIN};
    size_t i;
    (void)state;
    for (i = 0; i < sizeof codes / sizeof codes[0]; ++i) {
        assert_non_null(cs_status_string(codes[i].code));
        assert_string_equal(cs_status_string(codes[i].code), codes[i].name);
    }
    for (i = 0; i < sizeof unknown / sizeof unknown[0]; ++i) {
        assert_non_null(cs_status_string(unknown[i]));
        assert_string_equal(cs_status_string(unknown[i]), "CS_UNKNOWN_STATUS");
    }
}

/* ------------------------------------------------------------------------------ */
/* Handles                                                                          */

static void destroy_null_is_a_no_op(void **state) {
    (void)state;
    cs_destroy(NULL);
    cs_destroy(NULL);
}

static void last_error_of_null_handle(void **state) {
    (void)state;
    assert_non_null(cs_last_error(NULL));
    assert_string_equal(cs_last_error(NULL), "NULL handle");
}

static void fresh_handle_has_a_message_string(void **state) {
    cs_model *m = (cs_model *)*state;
    assert_non_null(cs_last_error(m));
}

/* Every function that takes a handle returns CS_ERR_NULL_HANDLE for NULL, even with
 * valid other arguments, and writes nothing. */
static void null_handle_everywhere(void **state) {
    int64_t i64 = 77;
    double d = 77.0, buf[8] = {0};
    int32_t i32 = 77, lab[8] = {0};
    size_t n = 77;
    (void)state;

    CS_ASSERT_STATUS(cs_set_int(NULL, CS_PARAM_MAX_ITER, 10), CS_ERR_NULL_HANDLE);
    CS_ASSERT_STATUS(cs_set_double(NULL, CS_PARAM_TOL, 1e-6), CS_ERR_NULL_HANDLE);
    CS_ASSERT_STATUS(cs_get_int(NULL, CS_PARAM_MAX_ITER, &i64), CS_ERR_NULL_HANDLE);
    CS_ASSERT_STATUS(cs_get_double(NULL, CS_PARAM_TOL, &d), CS_ERR_NULL_HANDLE);
    CS_ASSERT_STATUS(cs_set_param_string(NULL, "tol", "1e-6"), CS_ERR_NULL_HANDLE);
    CS_ASSERT_STATUS(cs_set_progress(NULL, NULL, NULL), CS_ERR_NULL_HANDLE);
    CS_ASSERT_STATUS(cs_fit(NULL, cs_tiny.item, cs_tiny.worker, cs_tiny.label, cs_tiny.n),
                     CS_ERR_NULL_HANDLE);
    CS_ASSERT_STATUS(cs_n_items(NULL, &n), CS_ERR_NULL_HANDLE);
    CS_ASSERT_STATUS(cs_n_workers(NULL, &n), CS_ERR_NULL_HANDLE);
    CS_ASSERT_STATUS(cs_n_classes(NULL, &n), CS_ERR_NULL_HANDLE);
    CS_ASSERT_STATUS(cs_labels(NULL, lab, 8), CS_ERR_NULL_HANDLE);
    CS_ASSERT_STATUS(cs_posteriors(NULL, buf, 8), CS_ERR_NULL_HANDLE);
    CS_ASSERT_STATUS(cs_confusion(NULL, buf, 8), CS_ERR_NULL_HANDLE);
    CS_ASSERT_STATUS(cs_class_prior(NULL, buf, 8), CS_ERR_NULL_HANDLE);
    CS_ASSERT_STATUS(cs_trace_length(NULL, &n), CS_ERR_NULL_HANDLE);
    CS_ASSERT_STATUS(cs_trace(NULL, buf, 8), CS_ERR_NULL_HANDLE);
    CS_ASSERT_STATUS(cs_iterations(NULL, &i32), CS_ERR_NULL_HANDLE);
    CS_ASSERT_STATUS(cs_converged(NULL, &i32), CS_ERR_NULL_HANDLE);
    CS_ASSERT_STATUS(cs_log_likelihood(NULL, &d), CS_ERR_NULL_HANDLE);
    CS_ASSERT_STATUS(cs_fit_notes(NULL, &i32), CS_ERR_NULL_HANDLE);

    assert_int_equal(i64, 77);
    assert_true(d == 77.0);
    assert_int_equal(i32, 77);
    assert_int_equal(n, 77);
    assert_string_equal(cs_last_error(NULL), "NULL handle");
}

/* NULL output pointers on a fitted handle: CS_ERR_NULL_POINTER with a message. */
static void null_output_pointers(void **state) {
    cs_model *m = (cs_model *)*state;
    cs_fit_or_fail(m, &cs_tiny);

    CS_ASSERT_FAIL(m, cs_get_int(m, CS_PARAM_MAX_ITER, NULL), CS_ERR_NULL_POINTER, "NULL");
    CS_ASSERT_FAIL(m, cs_get_double(m, CS_PARAM_TOL, NULL), CS_ERR_NULL_POINTER, "NULL");
    CS_ASSERT_FAIL(m, cs_set_param_string(m, NULL, "1"), CS_ERR_NULL_POINTER, "name", "NULL");
    CS_ASSERT_FAIL(m, cs_set_param_string(m, "tol", NULL), CS_ERR_NULL_POINTER, "value",
                   "NULL");
    CS_ASSERT_FAIL(m, cs_n_items(m, NULL), CS_ERR_NULL_POINTER, "NULL");
    CS_ASSERT_FAIL(m, cs_n_workers(m, NULL), CS_ERR_NULL_POINTER, "NULL");
    CS_ASSERT_FAIL(m, cs_n_classes(m, NULL), CS_ERR_NULL_POINTER, "NULL");
    CS_ASSERT_FAIL(m, cs_labels(m, NULL, 100), CS_ERR_NULL_POINTER, "labels", "NULL");
    CS_ASSERT_FAIL(m, cs_posteriors(m, NULL, 100), CS_ERR_NULL_POINTER, "posteriors", "NULL");
    CS_ASSERT_FAIL(m, cs_confusion(m, NULL, 100), CS_ERR_NULL_POINTER, "confusion", "NULL");
    CS_ASSERT_FAIL(m, cs_class_prior(m, NULL, 100), CS_ERR_NULL_POINTER, "prior", "NULL");
    CS_ASSERT_FAIL(m, cs_trace_length(m, NULL), CS_ERR_NULL_POINTER, "NULL");
    CS_ASSERT_FAIL(m, cs_trace(m, NULL, 100), CS_ERR_NULL_POINTER, "trace", "NULL");
    CS_ASSERT_FAIL(m, cs_iterations(m, NULL), CS_ERR_NULL_POINTER, "iterations", "NULL");
    CS_ASSERT_FAIL(m, cs_converged(m, NULL), CS_ERR_NULL_POINTER, "converged", "NULL");
    CS_ASSERT_FAIL(m, cs_log_likelihood(m, NULL), CS_ERR_NULL_POINTER, "log_likelihood",
                   "NULL");
    CS_ASSERT_FAIL(m, cs_fit_notes(m, NULL), CS_ERR_NULL_POINTER, "notes", "NULL");

    /* The handle-free lookups. */
    {
        int32_t id = 0;
        CS_ASSERT_STATUS(cs_method_from_name(NULL, &id), CS_ERR_NULL_POINTER);
        CS_ASSERT_STATUS(cs_method_from_name("mv", NULL), CS_ERR_NULL_POINTER);
        CS_ASSERT_STATUS(cs_param_from_name(NULL, &id), CS_ERR_NULL_POINTER);
        CS_ASSERT_STATUS(cs_param_from_name("tol", NULL), CS_ERR_NULL_POINTER);
        assert_int_equal(id, 0);
        /* cs_param_info's outputs may all be NULL. */
        CS_ASSERT_OK(cs_param_info(CS_PARAM_TOL, NULL, NULL, NULL, NULL));
    }

    /* A NULL output does not spoil the fit. */
    {
        size_t n = 0;
        CS_ASSERT_OK(cs_n_items(m, &n));
        assert_int_equal(n, 4);
    }
}

static void results_before_fit_are_not_fitted(void **state) {
    cs_model *m = (cs_model *)*state;
    size_t n = 77;
    int32_t i32 = 77, lab[64];
    double d = 77.0, buf[64];

    CS_ASSERT_FAIL(m, cs_n_items(m, &n), CS_ERR_NOT_FITTED, "fit");
    CS_ASSERT_FAIL(m, cs_n_workers(m, &n), CS_ERR_NOT_FITTED, "fit");
    CS_ASSERT_FAIL(m, cs_n_classes(m, &n), CS_ERR_NOT_FITTED, "fit");
    CS_ASSERT_FAIL(m, cs_labels(m, lab, 64), CS_ERR_NOT_FITTED, "fit");
    CS_ASSERT_FAIL(m, cs_posteriors(m, buf, 64), CS_ERR_NOT_FITTED, "fit");
    CS_ASSERT_FAIL(m, cs_confusion(m, buf, 64), CS_ERR_NOT_FITTED, "fit");
    CS_ASSERT_FAIL(m, cs_class_prior(m, buf, 64), CS_ERR_NOT_FITTED, "fit");
    CS_ASSERT_FAIL(m, cs_trace_length(m, &n), CS_ERR_NOT_FITTED, "fit");
    CS_ASSERT_FAIL(m, cs_trace(m, buf, 64), CS_ERR_NOT_FITTED, "fit");
    CS_ASSERT_FAIL(m, cs_iterations(m, &i32), CS_ERR_NOT_FITTED, "fit");
    CS_ASSERT_FAIL(m, cs_converged(m, &i32), CS_ERR_NOT_FITTED, "fit");
    CS_ASSERT_FAIL(m, cs_log_likelihood(m, &d), CS_ERR_NOT_FITTED, "fit");
    CS_ASSERT_FAIL(m, cs_fit_notes(m, &i32), CS_ERR_NOT_FITTED, "fit");
    assert_int_equal(n, 77);
    assert_int_equal(i32, 77);
    assert_true(d == 77.0);
}

/* ------------------------------------------------------------------------------ */
/* Name tables                                                                      */

static void method_names_round_trip(void **state) {
    static const struct {
        int32_t id;
        const char *name;
    } documented[] = {
        {CS_METHOD_MV, "mv"},
        {CS_METHOD_DS, "ds"},
        {CS_METHOD_OPT_DS, "opt-ds"},
        {CS_METHOD_CROWD_LLOYD, "crowd-lloyd"},
    };
    const int32_t count = cs_method_count();
    int32_t i, j, id;
    const char *summary;
    (void)state;

    assert_true(count >= 4);
    for (i = 0; i < count; ++i) {
        const int32_t method = cs_method_at(i);
        const char *name = cs_method_name(method);
        assert_true(method > 0);
        assert_non_null(name);
        assert_true(strlen(name) > 0);
        id = -1;
        CS_ASSERT_OK(cs_method_from_name(name, &id));
        assert_int_equal(id, method);
        /* The registry's one doc line: present, one line, no trailing space. */
        summary = cs_method_summary(method);
        assert_non_null(summary);
        assert_true(strlen(summary) > 10);
        assert_null(strchr(summary, '\n'));
        assert_true(summary[strlen(summary) - 1] != ' ');
        /* Ids are grouped by input kind (crowdspec.h, "Methods"). */
        assert_int_equal(cs_method_input(method),
                         method < 100   ? CS_INPUT_CROWD
                         : method < 200 ? CS_INPUT_POINTS
                         : method < 300 ? CS_INPUT_GRAPH
                         : method < 400 ? CS_INPUT_COMPARISONS
                         : method < 500 ? CS_INPUT_NUMBERS
                                        : CS_INPUT_TAGS);
        for (j = 0; j < i; ++j) {
            assert_int_not_equal(cs_method_at(j), method);
            assert_string_not_equal(cs_method_name(cs_method_at(j)), name);
        }
    }
    for (i = 0; i < (int32_t)(sizeof documented / sizeof documented[0]); ++i) {
        assert_string_equal(cs_method_name(documented[i].id), documented[i].name);
        CS_ASSERT_OK(cs_method_from_name(documented[i].name, &id));
        assert_int_equal(id, documented[i].id);
    }
    /* Out of range indices and unknown ids. */
    assert_int_equal(cs_method_at(-1), 0);
    assert_int_equal(cs_method_at(count), 0);
    assert_int_equal(cs_method_at(INT32_MAX), 0);
    assert_null(cs_method_name(0));
    assert_null(cs_method_name(-1));
    assert_null(cs_method_name(999));
    assert_null(cs_method_summary(0));
    assert_null(cs_method_summary(999));
    assert_string_equal(cs_method_summary(CS_METHOD_MV), "majority vote, ties to the lowest class");
    /* Unknown names (matching is case-sensitive); the output is untouched. */
    id = 1234;
    CS_ASSERT_STATUS(cs_method_from_name("nosuch", &id), CS_ERR_UNKNOWN_METHOD);
    CS_ASSERT_STATUS(cs_method_from_name("OPT-DS", &id), CS_ERR_UNKNOWN_METHOD);
    CS_ASSERT_STATUS(cs_method_from_name("", &id), CS_ERR_UNKNOWN_METHOD);
    CS_ASSERT_STATUS(cs_method_from_name("mv ", &id), CS_ERR_UNKNOWN_METHOD);
    assert_int_equal(id, 1234);
}

static void param_names_round_trip(void **state) {
    static const struct {
        int32_t id;
        const char *name;
    } documented[] = {
        {CS_PARAM_METHOD, "method"},         {CS_PARAM_CLASSES, "classes"},
        {CS_PARAM_ITEMS, "items"},           {CS_PARAM_WORKERS, "workers"},
        {CS_PARAM_SEED, "seed"},             {CS_PARAM_THREADS, "threads"},
        {CS_PARAM_DUPLICATES, "duplicates"}, {CS_PARAM_MAX_ITER, "max_iter"},
        {CS_PARAM_TOL, "tol"},               {CS_PARAM_CONFUSION, "confusion"},
        {CS_PARAM_PRIOR, "prior"},           {CS_PARAM_SMOOTHING, "smoothing"},
        {CS_PARAM_DELTA, "delta"},           {CS_PARAM_POWER_STARTS, "power_starts"},
        {CS_PARAM_POWER_ITERS, "power_iters"},
    };
    const int32_t count = cs_param_count();
    const int32_t n_documented = (int32_t)(sizeof documented / sizeof documented[0]);
    int32_t i, j, id;
    (void)state;

    assert_true(count >= n_documented);
    for (i = 0; i < count; ++i) {
        const int32_t param = cs_param_at(i);
        const char *name = cs_param_name(param);
        assert_true(param > 0);
        assert_non_null(name);
        id = -1;
        CS_ASSERT_OK(cs_param_from_name(name, &id));
        assert_int_equal(id, param);
        CS_ASSERT_OK(cs_param_info(param, NULL, NULL, NULL, NULL));
        for (j = 0; j < i; ++j) assert_int_not_equal(cs_param_at(j), param);
    }
    for (i = 0; i < n_documented; ++i) {
        int found = 0;
        assert_string_equal(cs_param_name(documented[i].id), documented[i].name);
        CS_ASSERT_OK(cs_param_from_name(documented[i].name, &id));
        assert_int_equal(id, documented[i].id);
        for (j = 0; j < count; ++j) found |= cs_param_at(j) == documented[i].id;
        assert_true(found);
    }
    assert_int_equal(cs_param_at(-1), 0);
    assert_int_equal(cs_param_at(count), 0);
    assert_null(cs_param_name(0));
    assert_null(cs_param_name(99));
    assert_null(cs_param_name(-5));
    id = 1234;
    CS_ASSERT_STATUS(cs_param_from_name("nosuch", &id), CS_ERR_UNKNOWN_PARAM);
    CS_ASSERT_STATUS(cs_param_from_name("", &id), CS_ERR_UNKNOWN_PARAM);
    CS_ASSERT_STATUS(cs_param_from_name("max-iter", &id), CS_ERR_UNKNOWN_PARAM);
    assert_int_equal(id, 1234);
    CS_ASSERT_STATUS(cs_param_info(0, NULL, NULL, NULL, NULL), CS_ERR_UNKNOWN_PARAM);
    CS_ASSERT_STATUS(cs_param_info(9999, NULL, NULL, NULL, NULL), CS_ERR_UNKNOWN_PARAM);
}

/* ------------------------------------------------------------------------------ */
/* Results                                                                          */

static void result_sizes_after_a_tiny_fit(void **state) {
    cs_model *m = (cs_model *)*state;
    size_t n;
    cs_fit_or_fail(m, &cs_tiny);
    CS_ASSERT_OK(cs_n_items(m, &n));
    assert_int_equal(n, 4);
    CS_ASSERT_OK(cs_n_workers(m, &n));
    assert_int_equal(n, 3);
    CS_ASSERT_OK(cs_n_classes(m, &n));
    assert_int_equal(n, 2);

    /* Declared counts larger than the data are kept. */
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_ITEMS, 6));
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_WORKERS, 5));
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_CLASSES, 3));
    cs_fit_or_fail(m, &cs_tiny);
    CS_ASSERT_OK(cs_n_items(m, &n));
    assert_int_equal(n, 6);
    CS_ASSERT_OK(cs_n_workers(m, &n));
    assert_int_equal(n, 5);
    CS_ASSERT_OK(cs_n_classes(m, &n));
    assert_int_equal(n, 3);
}

#define SENTINEL_I (-12345)
#define SENTINEL_D (-777.25)

static void check_untouched_i(const int32_t *buf, size_t n) {
    size_t i;
    for (i = 0; i < n; ++i) assert_int_equal(buf[i], SENTINEL_I);
}

static void check_untouched_d(const double *buf, size_t n) {
    size_t i;
    for (i = 0; i < n; ++i) assert_true(buf[i] == SENTINEL_D);
}

static void fill_d(double *buf, size_t n) {
    size_t i;
    for (i = 0; i < n; ++i) buf[i] = SENTINEL_D;
}

/* A buffer one element short is rejected and nothing is written; the exact size works. */
static void buffer_too_small_writes_nothing(void **state) {
    cs_model *m = (cs_model *)*state;
    int32_t lab[16];
    double buf[64];
    size_t i, trace_n = 0;

    CS_ASSERT_OK(cs_set_param_string(m, "method", "ds"));
    CS_ASSERT_OK(cs_set_double(m, CS_PARAM_TOL, 0.0));
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_MAX_ITER, 3));
    cs_fit_or_fail(m, &cs_tiny); /* n = 4, m = 3, k = 2 */
    CS_ASSERT_OK(cs_trace_length(m, &trace_n));
    assert_int_equal(trace_n, 3);

    for (i = 0; i < 16; ++i) lab[i] = SENTINEL_I;
    CS_ASSERT_FAIL(m, cs_labels(m, lab, 3), CS_ERR_BUFFER_TOO_SMALL, "labels", "3", "4");
    check_untouched_i(lab, 16);
    CS_ASSERT_FAIL(m, cs_labels(m, lab, 0), CS_ERR_BUFFER_TOO_SMALL, "labels");
    check_untouched_i(lab, 16);
    CS_ASSERT_OK(cs_labels(m, lab, 4));
    check_untouched_i(lab + 4, 12);

    fill_d(buf, 64);
    CS_ASSERT_FAIL(m, cs_posteriors(m, buf, 7), CS_ERR_BUFFER_TOO_SMALL, "posteriors", "7", "8");
    check_untouched_d(buf, 64);
    CS_ASSERT_OK(cs_posteriors(m, buf, 8));
    check_untouched_d(buf + 8, 56);

    fill_d(buf, 64);
    CS_ASSERT_FAIL(m, cs_confusion(m, buf, 11), CS_ERR_BUFFER_TOO_SMALL, "confusion", "11",
                   "12");
    check_untouched_d(buf, 64);
    CS_ASSERT_OK(cs_confusion(m, buf, 12));
    check_untouched_d(buf + 12, 52);

    fill_d(buf, 64);
    CS_ASSERT_FAIL(m, cs_class_prior(m, buf, 1), CS_ERR_BUFFER_TOO_SMALL, "prior");
    check_untouched_d(buf, 64);
    CS_ASSERT_OK(cs_class_prior(m, buf, 2));
    check_untouched_d(buf + 2, 62);

    fill_d(buf, 64);
    CS_ASSERT_FAIL(m, cs_trace(m, buf, 2), CS_ERR_BUFFER_TOO_SMALL, "trace");
    check_untouched_d(buf, 64);
    CS_ASSERT_OK(cs_trace(m, buf, 3));
    check_untouched_d(buf + 3, 61);

    /* A larger buffer is fine too. */
    CS_ASSERT_OK(cs_posteriors(m, buf, 64));
}

/* Checks every documented invariant of a fit's results; `ctx` names the case. */
static void check_fit_results(cs_model *m, size_t want_n, size_t want_w, size_t want_k,
                              const char *ctx) {
    size_t n, w, k, j, l, c, tl;
    int32_t method, prior_param, iterations, converged, notes, *lab;
    int64_t v;
    double ll, *post, *conf, *prior, *trace;

    CS_ASSERT_OK(cs_get_int(m, CS_PARAM_METHOD, &v));
    method = (int32_t)v;
    CS_ASSERT_OK(cs_get_int(m, CS_PARAM_PRIOR, &v));
    prior_param = (int32_t)v;

    CS_ASSERT_OK(cs_n_items(m, &n));
    CS_ASSERT_OK(cs_n_workers(m, &w));
    CS_ASSERT_OK(cs_n_classes(m, &k));
    if (n != want_n || w != want_w || k != want_k)
        fail_msg("%s: sizes %zu/%zu/%zu, expected %zu/%zu/%zu", ctx, n, w, k, want_n, want_w,
                 want_k);
    CS_ASSERT_OK(cs_trace_length(m, &tl));

    lab = (int32_t *)malloc(n * sizeof *lab);
    post = (double *)malloc(n * k * sizeof *post);
    conf = (double *)malloc(w * k * k * sizeof *conf);
    prior = (double *)malloc(k * sizeof *prior);
    trace = (double *)malloc((tl + 1) * sizeof *trace);
    assert_non_null(lab);
    assert_non_null(post);
    assert_non_null(conf);
    assert_non_null(prior);
    assert_non_null(trace);

    CS_ASSERT_OK(cs_labels(m, lab, n));
    CS_ASSERT_OK(cs_posteriors(m, post, n * k));
    CS_ASSERT_OK(cs_confusion(m, conf, w * k * k));
    CS_ASSERT_OK(cs_class_prior(m, prior, k));
    CS_ASSERT_OK(cs_trace(m, trace, tl));
    CS_ASSERT_OK(cs_iterations(m, &iterations));
    CS_ASSERT_OK(cs_converged(m, &converged));
    CS_ASSERT_OK(cs_log_likelihood(m, &ll));
    CS_ASSERT_OK(cs_fit_notes(m, &notes));

    /* Posteriors: finite probabilities, rows sum to 1; labels = argmax, ties low. */
    for (j = 0; j < n; ++j) {
        double sum = 0.0;
        const double *row = post + j * k;
        if (lab[j] < 0 || (size_t)lab[j] >= k) fail_msg("%s: label %d out of range", ctx, lab[j]);
        for (l = 0; l < k; ++l) {
            if (!isfinite(row[l]) || row[l] < 0.0 || row[l] > 1.0)
                fail_msg("%s: posterior[%zu][%zu] = %g", ctx, j, l, row[l]);
            sum += row[l];
            if (l < (size_t)lab[j] && !(row[l] < row[lab[j]]))
                fail_msg("%s: item %zu: label %d but class %zu is at least as probable", ctx, j,
                         lab[j], l);
            if (l > (size_t)lab[j] && !(row[l] <= row[lab[j]]))
                fail_msg("%s: item %zu: label %d but class %zu is more probable", ctx, j, lab[j],
                         l);
        }
        if (fabs(sum - 1.0) > 1e-12) fail_msg("%s: posterior row %zu sums to %.17g", ctx, j, sum);
        if (method == CS_METHOD_CROWD_LLOYD) /* hard labels, one-hot posteriors */
            for (l = 0; l < k; ++l)
                if (row[l] != ((size_t)lab[j] == l ? 1.0 : 0.0))
                    fail_msg("%s: crowd-lloyd posterior[%zu] is not one-hot", ctx, j);
    }
    /* Confusion: finite probabilities, every (worker, true class) row sums to 1. */
    for (c = 0; c < w * k; ++c) {
        double sum = 0.0;
        for (l = 0; l < k; ++l) {
            const double v = conf[c * k + l];
            if (!isfinite(v) || v < 0.0 || v > 1.0)
                fail_msg("%s: confusion entry %zu = %g", ctx, c * k + l, v);
            sum += v;
        }
        if (fabs(sum - 1.0) > 1e-12)
            fail_msg("%s: confusion row (worker %zu, class %zu) sums to %.17g", ctx, c / k, c % k,
                     sum);
    }
    /* Prior: k probabilities summing to 1; uniform unless estimated. */
    {
        double sum = 0.0;
        for (l = 0; l < k; ++l) {
            if (!isfinite(prior[l]) || prior[l] < 0.0) fail_msg("%s: prior[%zu] = %g", ctx, l, prior[l]);
            if (prior_param == CS_PRIOR_UNIFORM && fabs(prior[l] - 1.0 / (double)k) > 1e-15)
                fail_msg("%s: prior[%zu] = %.17g with the uniform prior", ctx, l, prior[l]);
            sum += prior[l];
        }
        if (fabs(sum - 1.0) > 1e-12) fail_msg("%s: prior sums to %.17g", ctx, sum);
    }
    /* Trace: one finite entry per completed iteration; log-likelihood = last entry for
     * EM methods, 0 for mv and crowd-lloyd. */
    if (iterations < 0 || tl != (size_t)iterations)
        fail_msg("%s: trace length %zu, iterations %d", ctx, tl, iterations);
    for (j = 0; j < tl; ++j)
        if (!isfinite(trace[j])) fail_msg("%s: trace[%zu] = %g", ctx, j, trace[j]);
    if (!isfinite(ll)) fail_msg("%s: log-likelihood %g", ctx, ll);
    if (method == CS_METHOD_MV || method == CS_METHOD_CROWD_LLOYD) {
        if (ll != 0.0) fail_msg("%s: log-likelihood %g, expected 0", ctx, ll);
    } else if (tl > 0 && ll != trace[tl - 1]) {
        fail_msg("%s: log-likelihood %.17g != last trace entry %.17g", ctx, ll, trace[tl - 1]);
    }
    if (method == CS_METHOD_MV && (tl != 0 || converged != 1))
        fail_msg("%s: mv has trace length %zu and converged %d", ctx, tl, converged);
    if (converged != 0 && converged != 1) fail_msg("%s: converged = %d", ctx, converged);
    /* Notes and message: a fit without notes leaves an empty message. */
    if (notes == 0 && cs_last_error(m)[0] != '\0')
        fail_msg("%s: no notes but message \"%s\"", ctx, cs_last_error(m));
    if (notes != 0 && cs_last_error(m)[0] == '\0')
        fail_msg("%s: notes %d but an empty message", ctx, notes);

    free(lab);
    free(post);
    free(conf);
    free(prior);
    free(trace);
}

/* Every method, confusion model and prior on two tiny data sets gives well-formed
 * results. */
static void every_method_gives_distributions(void **state) {
    const CsData *sets[2];
    size_t sizes[2][3] = {{4, 3, 2}, {6, 4, 3}};
    int32_t i, s, confusion, prior;
    (void)state;
    sets[0] = &cs_tiny;
    sets[1] = &cs_k3;

    for (i = 0; i < cs_method_count(); ++i) {
        const int32_t method = cs_method_at(i);
        if (cs_method_input(method) != CS_INPUT_CROWD) continue; /* test_points.cpp, test_graph.cpp */
        for (s = 0; s < 2; ++s)
            for (confusion = 0; confusion <= 2; ++confusion)
                for (prior = 0; prior <= 1; ++prior) {
                    char ctx[160];
                    cs_model *m = cs_create();
                    assert_non_null(m);
                    snprintf(ctx, sizeof ctx, "method %s, data set %d, confusion %d, prior %d",
                             cs_method_name(method), s, confusion, prior);
                    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_METHOD, method));
                    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_CONFUSION, confusion));
                    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_PRIOR, prior));
                    cs_fit_or_fail(m, sets[s]);
                    check_fit_results(m, sizes[s][0], sizes[s][1], sizes[s][2], ctx);
                    cs_destroy(m);
                }
    }
}

/* mv's results on the tiny set, by hand: posteriors are the vote shares. */
static void mv_posteriors_are_vote_shares(void **state) {
    cs_model *m = (cs_model *)*state;
    const double want[8] = {2.0 / 3, 1.0 / 3, 0, 1, 1, 0, 1.0 / 3, 2.0 / 3};
    double post[8];
    int32_t lab[4], i, converged;
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_METHOD, CS_METHOD_MV));
    cs_fit_or_fail(m, &cs_tiny);
    CS_ASSERT_OK(cs_posteriors(m, post, 8));
    CS_ASSERT_OK(cs_labels(m, lab, 4));
    for (i = 0; i < 8; ++i) assert_true(fabs(post[i] - want[i]) < 1e-15);
    assert_int_equal(lab[0], 0);
    assert_int_equal(lab[1], 1);
    assert_int_equal(lab[2], 0);
    assert_int_equal(lab[3], 1);
    CS_ASSERT_OK(cs_converged(m, &converged));
    assert_int_equal(converged, 1);
}

/* ------------------------------------------------------------------------------ */
/* Progress and cancellation                                                        */

#define MAX_CALLS 64

typedef struct {
    int32_t stop_at; /* return non-zero at this iteration (-1: never) */
    int calls;
    int32_t iteration[MAX_CALLS];
    double objective[MAX_CALLS];
} Recorder;

static int32_t record_progress(void *user, int32_t iteration, double objective) {
    Recorder *r = (Recorder *)user;
    if (r->calls < MAX_CALLS) {
        r->iteration[r->calls] = iteration;
        r->objective[r->calls] = objective;
    }
    r->calls++;
    return iteration == r->stop_at ? 1 : 0;
}

/* The callback sees 0 (after the initialisation), then 1, 2, ... up to the number of
 * iterations; its objective at iteration r >= 1 is trace entry r - 1. mv has no
 * iterations and is covered in test_known_issues.c. */
static void progress_reports_each_iteration(void **state) {
    int32_t i;
    (void)state;
    for (i = 0; i < cs_method_count(); ++i) {
        const int32_t method = cs_method_at(i);
        Recorder rec;
        cs_model *m;
        int32_t iterations, c;
        size_t tl;
        double trace[MAX_CALLS];
        if (method == CS_METHOD_MV || cs_method_input(method) != CS_INPUT_CROWD) continue;
        memset(&rec, 0, sizeof rec);
        rec.stop_at = -1;
        m = cs_create();
        assert_non_null(m);
        CS_ASSERT_OK(cs_set_int(m, CS_PARAM_METHOD, method));
        CS_ASSERT_OK(cs_set_double(m, CS_PARAM_TOL, 0.0));
        CS_ASSERT_OK(cs_set_int(m, CS_PARAM_MAX_ITER, 5));
        /* One EM run: opt-ds with several starts reports the rounds of every start
         * (progress_counts_every_start). */
        CS_ASSERT_OK(cs_set_int(m, CS_PARAM_STARTS, 1));
        CS_ASSERT_OK(cs_set_progress(m, record_progress, &rec));
        cs_fit_or_fail(m, &cs_k3);
        CS_ASSERT_OK(cs_iterations(m, &iterations));
        CS_ASSERT_OK(cs_trace_length(m, &tl));
        CS_ASSERT_OK(cs_trace(m, trace, MAX_CALLS));
        if (rec.calls != iterations + 1)
            fail_msg("%s: %d callback calls for %d iterations", cs_method_name(method), rec.calls,
                     iterations);
        for (c = 0; c < rec.calls; ++c) {
            if (rec.iteration[c] != c)
                fail_msg("%s: call %d reported iteration %d", cs_method_name(method), c,
                         rec.iteration[c]);
            if (!isfinite(rec.objective[c]))
                fail_msg("%s: objective %g", cs_method_name(method), rec.objective[c]);
            if (c >= 1 && rec.objective[c] != trace[c - 1])
                fail_msg("%s: objective %.17g at iteration %d, trace entry %.17g",
                         cs_method_name(method), rec.objective[c], c, trace[c - 1]);
        }
        /* EM methods with tol = 0 run exactly max_iter rounds. */
        if (method == CS_METHOD_DS || method == CS_METHOD_OPT_DS) assert_int_equal(iterations, 5);
        cs_destroy(m);
    }
}

/* opt-ds with three starts (two spectral, one majority vote): the callback sees 0 once,
 * then every round of every start, counted on (1 .. 3 x max_iter here, where each
 * start runs max_iter rounds); the results are those of the kept start. */
static void progress_counts_every_start(void **state) {
    Recorder rec;
    cs_model *m = cs_create();
    int32_t iterations = -1, c;
    size_t tl = 0;
    (void)state;
    assert_non_null(m);
    memset(&rec, 0, sizeof rec);
    rec.stop_at = -1;
    CS_ASSERT_OK(cs_set_param_string(m, "method", "opt-ds"));
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_STARTS, 3));
    CS_ASSERT_OK(cs_set_double(m, CS_PARAM_TOL, 0.0));
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_MAX_ITER, 4));
    CS_ASSERT_OK(cs_set_progress(m, record_progress, &rec));
    cs_fit_or_fail(m, &cs_k3);
    assert_int_equal(rec.calls, 13);
    for (c = 0; c < rec.calls; ++c) assert_int_equal(rec.iteration[c], c);
    CS_ASSERT_OK(cs_iterations(m, &iterations));
    assert_int_equal(iterations, 4);
    CS_ASSERT_OK(cs_trace_length(m, &tl));
    assert_int_equal(tl, 4);
    cs_destroy(m);
}

/* The callback calls of an opt-ds fit (tol 0, max_iter 2) of n_items x 10 labels: a
 * binary crowd where worker 0 disagrees with the other nine on every third item. */
static int32_t opt_ds_progress_calls(int32_t n_items, int32_t starts) {
    const size_t n = (size_t)n_items * 10;
    int32_t *item = malloc(n * sizeof *item), *worker = malloc(n * sizeof *worker),
            *label = malloc(n * sizeof *label);
    Recorder rec;
    cs_model *m = cs_create();
    size_t p;
    assert_non_null(item);
    assert_non_null(worker);
    assert_non_null(label);
    assert_non_null(m);
    for (p = 0; p < n; ++p) {
        const int32_t j = (int32_t)(p / 10), w = (int32_t)(p % 10);
        item[p] = j;
        worker[p] = w;
        label[p] = (j % 2) ^ (w == 0 && j % 3 == 0);
    }
    memset(&rec, 0, sizeof rec);
    rec.stop_at = -1;
    CS_ASSERT_OK(cs_set_param_string(m, "method", "opt-ds"));
    if (starts > 0) CS_ASSERT_OK(cs_set_int(m, CS_PARAM_STARTS, starts));
    CS_ASSERT_OK(cs_set_double(m, CS_PARAM_TOL, 0.0));
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_MAX_ITER, 2));
    CS_ASSERT_OK(cs_set_progress(m, record_progress, &rec));
    CS_ASSERT_OK(cs_fit(m, item, worker, label, n));
    cs_destroy(m);
    free(item);
    free(worker);
    free(label);
    return rec.calls;
}

/* The automatic number of starts: 3 (two spectral, majority vote) up to 10^6 labels,
 * each run to max_iter: 1 + 3 x 2 callback calls; above 10^6 labels 2 starts, each
 * screened by 1 round before the best goes on for the other round: 1 + 2 + 1 calls
 * (1 + 3 + 1 with starts = 3 set explicitly). */
static void automatic_starts_follow_the_size(void **state) {
    (void)state;
    assert_int_equal(opt_ds_progress_calls(100000, 0), 7);   /* 10^6 labels */
    assert_int_equal(opt_ds_progress_calls(100001, 0), 4);   /* 10^6 + 10 */
    assert_int_equal(opt_ds_progress_calls(100001, 3), 5);
}

static void cancel_at_iteration_2_keeps_results(void **state) {
    static const int32_t methods[] = {CS_METHOD_DS, CS_METHOD_OPT_DS};
    size_t i;
    (void)state;
    for (i = 0; i < sizeof methods / sizeof methods[0]; ++i) {
        Recorder rec;
        cs_model *m = cs_create();
        int32_t iterations = -1, notes = 0, converged = -1, c;
        size_t tl = 0;
        char ctx[64];
        assert_non_null(m);
        memset(&rec, 0, sizeof rec);
        rec.stop_at = 2;
        snprintf(ctx, sizeof ctx, "cancelled %s", cs_method_name(methods[i]));
        CS_ASSERT_OK(cs_set_int(m, CS_PARAM_METHOD, methods[i]));
        CS_ASSERT_OK(cs_set_double(m, CS_PARAM_TOL, 0.0));
        CS_ASSERT_OK(cs_set_int(m, CS_PARAM_MAX_ITER, 10));
        CS_ASSERT_OK(cs_set_progress(m, record_progress, &rec));

        CS_ASSERT_FAIL(m, cs_fit_data(m, &cs_k3), CS_ERR_CANCELLED, "cancel");
        assert_int_equal(rec.calls, 3);
        for (c = 0; c < 3; ++c) assert_int_equal(rec.iteration[c], c);

        CS_ASSERT_OK(cs_iterations(m, &iterations));
        assert_int_equal(iterations, 2);
        CS_ASSERT_OK(cs_trace_length(m, &tl));
        assert_int_equal(tl, 2);
        CS_ASSERT_OK(cs_fit_notes(m, &notes));
        assert_true((notes & CS_NOTE_CANCELLED) != 0);
        assert_true((notes & CS_NOTE_MAX_ITER_REACHED) == 0);
        CS_ASSERT_OK(cs_converged(m, &converged));
        assert_int_equal(converged, 0);
        /* The results of iteration 2 are complete and well-formed. */
        check_fit_results(m, 6, 4, 3, ctx);
        cs_destroy(m);
    }
}

static void cancel_at_iteration_0_keeps_the_start(void **state) {
    int32_t i;
    (void)state;
    for (i = 0; i < cs_method_count(); ++i) {
        const int32_t method = cs_method_at(i);
        Recorder rec;
        cs_model *m;
        int32_t iterations = -1, notes = 0;
        char ctx[64];
        if (method == CS_METHOD_MV) continue; /* no callback (test_known_issues.c) */
        if (cs_method_input(method) != CS_INPUT_CROWD) continue;
        memset(&rec, 0, sizeof rec);
        rec.stop_at = 0;
        m = cs_create();
        assert_non_null(m);
        snprintf(ctx, sizeof ctx, "%s cancelled at 0", cs_method_name(method));
        CS_ASSERT_OK(cs_set_int(m, CS_PARAM_METHOD, method));
        CS_ASSERT_OK(cs_set_progress(m, record_progress, &rec));
        CS_ASSERT_FAIL(m, cs_fit_data(m, &cs_tiny), CS_ERR_CANCELLED, "cancel");
        assert_int_equal(rec.calls, 1);
        CS_ASSERT_OK(cs_iterations(m, &iterations));
        assert_int_equal(iterations, 0);
        CS_ASSERT_OK(cs_fit_notes(m, &notes));
        assert_true((notes & CS_NOTE_CANCELLED) != 0);
        check_fit_results(m, 4, 3, 2, ctx);
        cs_destroy(m);
    }
}

/* After cancellation the handle fits normally again; removing the callback works. */
static void callback_can_be_removed(void **state) {
    cs_model *m = (cs_model *)*state;
    Recorder rec;
    memset(&rec, 0, sizeof rec);
    rec.stop_at = 1;
    CS_ASSERT_OK(cs_set_param_string(m, "method", "ds"));
    CS_ASSERT_OK(cs_set_progress(m, record_progress, &rec));
    CS_ASSERT_FAIL(m, cs_fit_data(m, &cs_tiny), CS_ERR_CANCELLED, "cancel");
    assert_int_equal(rec.calls, 2);

    CS_ASSERT_OK(cs_set_progress(m, NULL, &rec));
    cs_fit_or_fail(m, &cs_tiny);
    assert_int_equal(rec.calls, 2);
    {
        int32_t notes = -1;
        CS_ASSERT_OK(cs_fit_notes(m, &notes));
        assert_true((notes & CS_NOTE_CANCELLED) == 0);
    }
}

/* ------------------------------------------------------------------------------ */
/* Handles are independent                                                          */

typedef struct {
    size_t n, k;
    int32_t labels[16];
    double posteriors[64];
    double ll;
    int32_t iterations;
    char message[512]; /* cs_last_error() */
} Snapshot;

static void snapshot(cs_model *m, Snapshot *s) {
    memset(s, 0, sizeof *s);
    snprintf(s->message, sizeof s->message, "%s", cs_last_error(m));
    CS_ASSERT_OK(cs_n_items(m, &s->n));
    CS_ASSERT_OK(cs_n_classes(m, &s->k));
    CS_ASSERT_OK(cs_labels(m, s->labels, 16));
    CS_ASSERT_OK(cs_posteriors(m, s->posteriors, 64));
    CS_ASSERT_OK(cs_log_likelihood(m, &s->ll));
    CS_ASSERT_OK(cs_iterations(m, &s->iterations));
}

static void assert_same(const Snapshot *a, const Snapshot *b) {
    assert_memory_equal(a, b, sizeof *a);
}

static void configure_a(cs_model *m) {
    CS_ASSERT_OK(cs_set_param_string(m, "method", "ds"));
    CS_ASSERT_OK(cs_set_double(m, CS_PARAM_TOL, 0.0));
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_MAX_ITER, 4));
}

static void configure_b(cs_model *m) {
    CS_ASSERT_OK(cs_set_param_string(m, "method", "opt-ds"));
    CS_ASSERT_OK(cs_set_param_string(m, "prior", "estimated"));
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_SEED, 42));
}

static void two_handles_do_not_interfere(void **state) {
    Snapshot ref_a, ref_b, got;
    cs_model *a = cs_create(), *b = cs_create();
    int round;
    int64_t v;
    (void)state;
    assert_non_null(a);
    assert_non_null(b);

    /* References, each from a handle of its own. */
    configure_a(a);
    cs_fit_or_fail(a, &cs_tiny);
    snapshot(a, &ref_a);
    configure_b(b);
    cs_fit_or_fail(b, &cs_k3);
    snapshot(b, &ref_b);
    cs_destroy(a);
    cs_destroy(b);

    a = cs_create();
    b = cs_create();
    configure_a(a);
    configure_b(b);
    CS_ASSERT_OK(cs_get_int(a, CS_PARAM_METHOD, &v));
    assert_int_equal(v, CS_METHOD_DS);
    CS_ASSERT_OK(cs_get_int(b, CS_PARAM_METHOD, &v));
    assert_int_equal(v, CS_METHOD_OPT_DS);

    for (round = 0; round < 3; ++round) {
        cs_fit_or_fail(a, &cs_tiny);
        cs_fit_or_fail(b, &cs_k3);
        snapshot(a, &got);
        assert_same(&got, &ref_a);
        snapshot(b, &got);
        assert_same(&got, &ref_b);
        cs_fit_or_fail(b, &cs_k3);
        snapshot(a, &got);
        assert_same(&got, &ref_a);
    }

    /* A failure on b leaves a's results and message alone. */
    CS_ASSERT_FAIL(b, cs_set_double(b, CS_PARAM_TOL, -1.0), CS_ERR_PARAM_RANGE, "tol");
    CS_ASSERT_FAIL(b, cs_fit(b, cs_tiny.item, cs_tiny.worker, cs_tiny.label, 0),
                   CS_ERR_EMPTY_INPUT, "n_labels");
    snapshot(a, &got);
    assert_same(&got, &ref_a);
    /* ... and parameters set on b do not reach a. */
    CS_ASSERT_OK(cs_set_int(b, CS_PARAM_MAX_ITER, 1));
    CS_ASSERT_OK(cs_get_int(a, CS_PARAM_MAX_ITER, &v));
    assert_int_equal(v, 4);

    cs_destroy(a);
    cs_destroy(b);
}

/* cs_last_error(): failures set it, other successful calls keep it, cs_fit resets it. */
static void last_error_lifecycle(void **state) {
    cs_model *m = (cs_model *)*state;
    int64_t v;
    int32_t notes;
    size_t n;
    CS_ASSERT_FAIL(m, cs_set_int(m, CS_PARAM_THREADS, 5000), CS_ERR_PARAM_RANGE, "threads");
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_THREADS, 2));
    CS_ASSERT_OK(cs_get_int(m, CS_PARAM_THREADS, &v));
    CS_ASSERT_OK(cs_set_param_string(m, "method", "mv"));
    CS_ASSERT_OK(cs_set_progress(m, NULL, NULL));
    assert_non_null(strstr(cs_last_error(m), "threads"));

    cs_fit_or_fail(m, &cs_tiny); /* resets the message: notes or nothing */
    CS_ASSERT_OK(cs_fit_notes(m, &notes));
    assert_null(strstr(cs_last_error(m), "threads"));
    if (notes == 0) assert_string_equal(cs_last_error(m), "");

    CS_ASSERT_FAIL(m, cs_set_param_string(m, "nosuch", "1"), CS_ERR_UNKNOWN_PARAM, "nosuch");
    CS_ASSERT_OK(cs_n_items(m, &n));
    assert_non_null(strstr(cs_last_error(m), "nosuch"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(version_macros_match_library),
        cmocka_unit_test(enum_values_are_pinned),
        cmocka_unit_test(status_string_names_every_code),
        cmocka_unit_test(destroy_null_is_a_no_op),
        cmocka_unit_test(last_error_of_null_handle),
        cmocka_unit_test_setup_teardown(fresh_handle_has_a_message_string, cs_setup_model,
                                        cs_teardown_model),
        cmocka_unit_test(null_handle_everywhere),
        cmocka_unit_test_setup_teardown(null_output_pointers, cs_setup_model, cs_teardown_model),
        cmocka_unit_test_setup_teardown(results_before_fit_are_not_fitted, cs_setup_model,
                                        cs_teardown_model),
        cmocka_unit_test(method_names_round_trip),
        cmocka_unit_test(param_names_round_trip),
        cmocka_unit_test_setup_teardown(result_sizes_after_a_tiny_fit, cs_setup_model,
                                        cs_teardown_model),
        cmocka_unit_test_setup_teardown(buffer_too_small_writes_nothing, cs_setup_model,
                                        cs_teardown_model),
        cmocka_unit_test(every_method_gives_distributions),
        cmocka_unit_test_setup_teardown(mv_posteriors_are_vote_shares, cs_setup_model,
                                        cs_teardown_model),
        cmocka_unit_test(progress_reports_each_iteration),
        cmocka_unit_test(progress_counts_every_start),
        cmocka_unit_test(automatic_starts_follow_the_size),
        cmocka_unit_test(cancel_at_iteration_2_keeps_results),
        cmocka_unit_test(cancel_at_iteration_0_keeps_the_start),
        cmocka_unit_test_setup_teardown(callback_can_be_removed, cs_setup_model,
                                        cs_teardown_model),
        cmocka_unit_test(two_handles_do_not_interfere),
        cmocka_unit_test_setup_teardown(last_error_lifecycle, cs_setup_model, cs_teardown_model),
    };
    return cmocka_run_group_tests_name("api", tests, NULL, NULL);
}
