/* SPDX-License-Identifier: MIT */
/* C API tests of the parameters: defaults and ranges (cs_param_info), typed setters
 * and getters, rejection of bad values (old value kept, message names the parameter),
 * cs_set_param_string, and parameters taking effect at the next fit. */
#include "cs_test.h"

#include <float.h>

typedef struct {
    int32_t id;
    const char *name;
    double lower, upper, def;
    int32_t is_integer;
} Documented;

/* From crowdspec.h. NAN bounds are not documented there and are not checked. */
static const Documented documented[] = {
    {CS_PARAM_METHOD, "method", NAN, NAN, CS_METHOD_AUTO, 1},
    {CS_PARAM_CLASSES, "classes", 0, 100000, 0, 1},
    {CS_PARAM_ITEMS, "items", 0, NAN, 0, 1},
    {CS_PARAM_WORKERS, "workers", 0, NAN, 0, 1},
    {CS_PARAM_SEED, "seed", 0, 9223372036854775807.0, 0, 1},
    {CS_PARAM_THREADS, "threads", 0, 1024, 0, 1},
    {CS_PARAM_DUPLICATES, "duplicates", 0, 2, CS_DUPLICATES_REJECT, 1},
    {CS_PARAM_MAX_ITER, "max_iter", 0, 1e7, 1000, 1},
    {CS_PARAM_TOL, "tol", 0, 1, 1e-10, 0},
    {CS_PARAM_CONFUSION, "confusion", 0, 2, CS_CONFUSION_FULL, 1},
    {CS_PARAM_PRIOR, "prior", 0, 1, CS_PRIOR_ESTIMATED, 1},
    {CS_PARAM_SMOOTHING, "smoothing", 0, 1e6, 0, 0},
    {CS_PARAM_DELTA, "delta", 0, 0.5, 1e-6, 0},
    {CS_PARAM_POWER_STARTS, "power_starts", 1, 100000, 100, 1},
    {CS_PARAM_POWER_ITERS, "power_iters", 1, 100000, 100, 1},
    {CS_PARAM_SMOOTHING_CENTER, "smoothing_center", 0, 2, CS_SMOOTHING_CENTER_UNIFORM, 1},
    {CS_PARAM_CALIBRATION, "calibration", 0, 2, CS_CALIBRATION_AUTO, 1},
    {CS_PARAM_ORDINAL, "ordinal", 0, 1, 0, 1},
    {CS_PARAM_GAMMA, "gamma", 0, 1e6, 0.25, 0},
    {CS_PARAM_CV_FOLDS, "cv_folds", 2, 100, 5, 1},
    {CS_PARAM_MINIMAX_START, "minimax_start", 0, 1, CS_MINIMAX_START_VOTE, 1},
    {CS_PARAM_KEEP_LABELS, "keep_labels", 0, 1, 1, 1},
    {CS_PARAM_UPDATE_ROUNDS, "update_rounds", 1, 100000, 50, 1},
    {CS_PARAM_UPDATE_SWEEP, "update_sweep", 0, 1e6, 4, 0},
    {CS_PARAM_UPDATE_RECALIBRATE, "update_recalibrate", 0, 1e6, 0.1, 0},
    {CS_PARAM_UPDATE_REFIT, "update_refit", 0, 1e6, 2, 0},
    {CS_PARAM_UPDATE_REFIT_WORK, "update_refit_work", 0, 1, 0.5, 0},
};
#define N_DOCUMENTED (sizeof documented / sizeof documented[0])

static void param_info_matches_the_header(void **state) {
    size_t i;
    (void)state;
    for (i = 0; i < N_DOCUMENTED; ++i) {
        const Documented *d = &documented[i];
        double lower = -1, upper = -1, def = -1;
        int32_t is_integer = -1;
        CS_ASSERT_OK(cs_param_info(d->id, &lower, &upper, &def, &is_integer));
        if (def != d->def) fail_msg("%s: default %.17g, documented %.17g", d->name, def, d->def);
        if (is_integer != d->is_integer)
            fail_msg("%s: is_integer %d, documented %d", d->name, is_integer, d->is_integer);
        if (!isnan(d->lower) && lower != d->lower)
            fail_msg("%s: lower %.17g, documented %.17g", d->name, lower, d->lower);
        if (!isnan(d->upper) && upper != d->upper)
            fail_msg("%s: upper %.17g, documented %.17g", d->name, upper, d->upper);
        if (!(lower <= def && def <= upper))
            fail_msg("%s: default %.17g outside [%.17g, %.17g]", d->name, def, lower, upper);
    }
    /* Items and workers take any int32 id count; every method id is in range. */
    {
        double upper = 0, lower = 0;
        int32_t k;
        CS_ASSERT_OK(cs_param_info(CS_PARAM_ITEMS, NULL, &upper, NULL, NULL));
        assert_true(upper >= 2147483647.0);
        CS_ASSERT_OK(cs_param_info(CS_PARAM_WORKERS, NULL, &upper, NULL, NULL));
        assert_true(upper >= 2147483647.0);
        CS_ASSERT_OK(cs_param_info(CS_PARAM_METHOD, &lower, &upper, NULL, NULL));
        for (k = 0; k < cs_method_count(); ++k)
            assert_true(lower <= cs_method_at(k) && cs_method_at(k) <= upper);
    }
}

/* A fresh handle reads back every default, through both getters. */
static void getters_read_the_defaults(void **state) {
    cs_model *m = (cs_model *)*state;
    int32_t i;
    for (i = 0; i < cs_param_count(); ++i) {
        const int32_t p = cs_param_at(i);
        double def, d = -1;
        int32_t is_integer;
        int64_t v = -1;
        CS_ASSERT_OK(cs_param_info(p, NULL, NULL, &def, &is_integer));
        CS_ASSERT_OK(cs_get_double(m, p, &d));
        if (d != def) fail_msg("%s: cs_get_double %.17g, default %.17g", cs_param_name(p), d, def);
        if (is_integer) {
            CS_ASSERT_OK(cs_get_int(m, p, &v));
            if ((double)v != def) fail_msg("%s: cs_get_int %lld", cs_param_name(p), (long long)v);
        } else {
            CS_ASSERT_FAIL(m, cs_get_int(m, p, &v), CS_ERR_INVALID_ARGUMENT, cs_param_name(p),
                           "double");
            assert_int_equal(v, -1);
        }
    }
    {
        int64_t v = 0;
        double d = 0;
        CS_ASSERT_OK(cs_get_int(m, CS_PARAM_MAX_ITER, &v));
        assert_int_equal(v, 1000);
        CS_ASSERT_OK(cs_get_double(m, CS_PARAM_TOL, &d));
        assert_true(d == 1e-10);
        CS_ASSERT_OK(cs_get_double(m, CS_PARAM_DELTA, &d));
        assert_true(d == 1e-6);
        CS_ASSERT_OK(cs_get_int(m, CS_PARAM_METHOD, &v));
        assert_int_equal(v, CS_METHOD_AUTO);
        assert_string_equal(cs_method_name((int32_t)v), "auto");
    }
}

static void unknown_param_ids(void **state) {
    cs_model *m = (cs_model *)*state;
    int64_t v = 5;
    double d = 5;
    CS_ASSERT_FAIL(m, cs_set_int(m, 9999, 1), CS_ERR_UNKNOWN_PARAM, "9999");
    CS_ASSERT_FAIL(m, cs_set_double(m, 0, 1.0), CS_ERR_UNKNOWN_PARAM, "0");
    CS_ASSERT_FAIL(m, cs_get_int(m, -7, &v), CS_ERR_UNKNOWN_PARAM, "-7");
    CS_ASSERT_FAIL(m, cs_get_double(m, 99, &d), CS_ERR_UNKNOWN_PARAM, "99");
    assert_int_equal(v, 5);
    assert_true(d == 5);
}

static void setters_round_trip(void **state) {
    cs_model *m = (cs_model *)*state;
    int64_t v;
    double d;
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_MAX_ITER, 50));
    CS_ASSERT_OK(cs_get_int(m, CS_PARAM_MAX_ITER, &v));
    assert_int_equal(v, 50);
    CS_ASSERT_OK(cs_get_double(m, CS_PARAM_MAX_ITER, &d));
    assert_true(d == 50.0);

    CS_ASSERT_OK(cs_set_double(m, CS_PARAM_TOL, 1e-6));
    CS_ASSERT_OK(cs_get_double(m, CS_PARAM_TOL, &d));
    assert_true(d == 1e-6);

    /* Either setter accepts either kind when the value converts exactly. */
    CS_ASSERT_OK(cs_set_double(m, CS_PARAM_MAX_ITER, 20.0));
    CS_ASSERT_OK(cs_get_int(m, CS_PARAM_MAX_ITER, &v));
    assert_int_equal(v, 20);
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_TOL, 1));
    CS_ASSERT_OK(cs_get_double(m, CS_PARAM_TOL, &d));
    assert_true(d == 1.0);
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_SMOOTHING, 3));
    CS_ASSERT_OK(cs_get_double(m, CS_PARAM_SMOOTHING, &d));
    assert_true(d == 3.0);

    /* Every method id is accepted. */
    {
        int32_t i;
        for (i = 0; i < cs_method_count(); ++i) {
            CS_ASSERT_OK(cs_set_int(m, CS_PARAM_METHOD, cs_method_at(i)));
            CS_ASSERT_OK(cs_get_int(m, CS_PARAM_METHOD, &v));
            assert_int_equal(v, cs_method_at(i));
        }
    }
    /* The full seed range, including 2^63 - 1. */
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_SEED, INT64_MAX));
    CS_ASSERT_OK(cs_get_int(m, CS_PARAM_SEED, &v));
    assert_true(v == INT64_MAX);
    CS_ASSERT_FAIL(m, cs_set_int(m, CS_PARAM_SEED, -1), CS_ERR_PARAM_RANGE, "seed");
    CS_ASSERT_OK(cs_get_int(m, CS_PARAM_SEED, &v));
    assert_true(v == INT64_MAX);
}

/* For every parameter (from the table, so new ones are covered): both bounds are
 * accepted, the values just outside are rejected with a message naming it, and the
 * last accepted value is kept. The method id is tested separately. */
static void bounds_accepted_outside_rejected(void **state) {
    cs_model *m = (cs_model *)*state;
    int32_t i;
    for (i = 0; i < cs_param_count(); ++i) {
        const int32_t p = cs_param_at(i);
        const char *name = cs_param_name(p);
        double lower, upper, d;
        int32_t is_integer;
        if (p == CS_PARAM_METHOD) continue;
        CS_ASSERT_OK(cs_param_info(p, &lower, &upper, NULL, &is_integer));
        if (is_integer) {
            const int64_t lo = (int64_t)lower;
            const int64_t hi = upper >= 9.2e18 ? INT64_MAX : (int64_t)upper;
            int64_t v;
            CS_ASSERT_OK(cs_set_int(m, p, hi));
            CS_ASSERT_OK(cs_set_int(m, p, lo));
            CS_ASSERT_FAIL(m, cs_set_int(m, p, lo - 1), CS_ERR_PARAM_RANGE, name);
            CS_ASSERT_FAIL(m, cs_set_double(m, p, (double)(lo - 1)), CS_ERR_PARAM_RANGE, name);
            if (hi < INT64_MAX) {
                CS_ASSERT_FAIL(m, cs_set_int(m, p, hi + 1), CS_ERR_PARAM_RANGE, name);
                CS_ASSERT_FAIL(m, cs_set_double(m, p, (double)(hi + 1)), CS_ERR_PARAM_RANGE, name);
            }
            CS_ASSERT_FAIL(m, cs_set_double(m, p, (double)lo + 0.5), CS_ERR_PARAM_RANGE, name);
            CS_ASSERT_FAIL(m, cs_set_double(m, p, NAN), CS_ERR_PARAM_RANGE, name);
            CS_ASSERT_FAIL(m, cs_set_double(m, p, INFINITY), CS_ERR_PARAM_RANGE, name);
            CS_ASSERT_FAIL(m, cs_set_double(m, p, -INFINITY), CS_ERR_PARAM_RANGE, name);
            CS_ASSERT_OK(cs_get_int(m, p, &v));
            if (v != lo) fail_msg("%s: %lld after rejected values, expected %lld", name,
                                  (long long)v, (long long)lo);
        } else {
            CS_ASSERT_OK(cs_set_double(m, p, upper));
            CS_ASSERT_OK(cs_set_double(m, p, lower));
            CS_ASSERT_FAIL(m, cs_set_double(m, p, nextafter(lower, -INFINITY)),
                           CS_ERR_PARAM_RANGE, name);
            CS_ASSERT_FAIL(m, cs_set_double(m, p, nextafter(upper, INFINITY)),
                           CS_ERR_PARAM_RANGE, name);
            CS_ASSERT_FAIL(m, cs_set_double(m, p, NAN), CS_ERR_PARAM_RANGE, name);
            CS_ASSERT_FAIL(m, cs_set_double(m, p, INFINITY), CS_ERR_PARAM_RANGE, name);
            CS_ASSERT_FAIL(m, cs_set_double(m, p, -INFINITY), CS_ERR_PARAM_RANGE, name);
            CS_ASSERT_OK(cs_get_double(m, p, &d));
            if (d != lower) fail_msg("%s: %.17g after rejected values", name, d);
        }
    }
}

/* The specific bad values, each keeping a non-default old value. */
static void bad_values_keep_the_old_value(void **state) {
    cs_model *m = (cs_model *)*state;
    int64_t v;
    double d;

    CS_ASSERT_OK(cs_set_double(m, CS_PARAM_TOL, 1e-7));
    CS_ASSERT_FAIL(m, cs_set_double(m, CS_PARAM_TOL, -1.0), CS_ERR_PARAM_RANGE, "tol");
    CS_ASSERT_FAIL(m, cs_set_double(m, CS_PARAM_TOL, NAN), CS_ERR_PARAM_RANGE, "tol", "NaN");
    CS_ASSERT_FAIL(m, cs_set_double(m, CS_PARAM_TOL, 2.0), CS_ERR_PARAM_RANGE, "tol");
    CS_ASSERT_FAIL(m, cs_set_int(m, CS_PARAM_TOL, -1), CS_ERR_PARAM_RANGE, "tol");
    CS_ASSERT_OK(cs_get_double(m, CS_PARAM_TOL, &d));
    assert_true(d == 1e-7);

    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_MAX_ITER, 77));
    CS_ASSERT_FAIL(m, cs_set_int(m, CS_PARAM_MAX_ITER, -1), CS_ERR_PARAM_RANGE, "max_iter",
                   "-1");
    CS_ASSERT_FAIL(m, cs_set_int(m, CS_PARAM_MAX_ITER, 10000001), CS_ERR_PARAM_RANGE,
                   "max_iter");
    /* A non-integral double for an int parameter. */
    CS_ASSERT_FAIL(m, cs_set_double(m, CS_PARAM_MAX_ITER, 2.5), CS_ERR_PARAM_RANGE, "max_iter",
                   "2.5");
    CS_ASSERT_OK(cs_get_int(m, CS_PARAM_MAX_ITER, &v));
    assert_int_equal(v, 77);

    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_THREADS, 3));
    CS_ASSERT_FAIL(m, cs_set_int(m, CS_PARAM_THREADS, 5000), CS_ERR_PARAM_RANGE, "threads",
                   "5000");
    CS_ASSERT_OK(cs_get_int(m, CS_PARAM_THREADS, &v));
    assert_int_equal(v, 3);

    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_CLASSES, 4));
    CS_ASSERT_FAIL(m, cs_set_int(m, CS_PARAM_CLASSES, 1), CS_ERR_TOO_FEW_CLASSES, "classes");
    CS_ASSERT_FAIL(m, cs_set_double(m, CS_PARAM_CLASSES, 1.0), CS_ERR_TOO_FEW_CLASSES,
                   "classes");
    CS_ASSERT_FAIL(m, cs_set_int(m, CS_PARAM_CLASSES, 100001), CS_ERR_PARAM_RANGE, "classes");
    CS_ASSERT_OK(cs_get_int(m, CS_PARAM_CLASSES, &v));
    assert_int_equal(v, 4);
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_CLASSES, 0)); /* 0 = infer */

    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_DELTA, 0));
    CS_ASSERT_FAIL(m, cs_set_int(m, CS_PARAM_DELTA, 1), CS_ERR_PARAM_RANGE, "delta");
    CS_ASSERT_OK(cs_get_double(m, CS_PARAM_DELTA, &d));
    assert_true(d == 0.0);

    /* An id in the method range that no method has. Ids outside 1..99 are in
     * test_known_issues.c. */
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_METHOD, CS_METHOD_DS));
    CS_ASSERT_FAIL(m, cs_set_int(m, CS_PARAM_METHOD, 50), CS_ERR_UNKNOWN_METHOD, "method",
                   "50");
    CS_ASSERT_FAIL(m, cs_set_double(m, CS_PARAM_METHOD, 2.5), CS_ERR_PARAM_RANGE, "method");
    CS_ASSERT_OK(cs_get_int(m, CS_PARAM_METHOD, &v));
    assert_int_equal(v, CS_METHOD_DS);
}

static void set_param_string_names_and_values(void **state) {
    cs_model *m = (cs_model *)*state;
    static const struct {
        const char *name, *value;
        int32_t param;
        double expected;
    } ok[] = {
        {"method", "crowd-lloyd", CS_PARAM_METHOD, CS_METHOD_CROWD_LLOYD},
        {"method", "mv", CS_PARAM_METHOD, CS_METHOD_MV},
        {"method", "ds", CS_PARAM_METHOD, CS_METHOD_DS},
        {"method", "opt-ds", CS_PARAM_METHOD, CS_METHOD_OPT_DS},
        {"method", "2", CS_PARAM_METHOD, CS_METHOD_DS},
        {"prior", "estimated", CS_PARAM_PRIOR, CS_PRIOR_ESTIMATED},
        {"prior", "uniform", CS_PARAM_PRIOR, CS_PRIOR_UNIFORM},
        {"prior", "1", CS_PARAM_PRIOR, CS_PRIOR_ESTIMATED},
        {"confusion", "one-coin", CS_PARAM_CONFUSION, CS_CONFUSION_ONE_COIN},
        {"confusion", "class-one-coin", CS_PARAM_CONFUSION, CS_CONFUSION_CLASS_ONE_COIN},
        {"confusion", "full", CS_PARAM_CONFUSION, CS_CONFUSION_FULL},
        {"duplicates", "first", CS_PARAM_DUPLICATES, CS_DUPLICATES_KEEP_FIRST},
        {"duplicates", "last", CS_PARAM_DUPLICATES, CS_DUPLICATES_KEEP_LAST},
        {"duplicates", "reject", CS_PARAM_DUPLICATES, CS_DUPLICATES_REJECT},
        {"tol", "1e-8", CS_PARAM_TOL, 1e-8},
        {"tol", "0.25", CS_PARAM_TOL, 0.25},
        {"tol", "0", CS_PARAM_TOL, 0.0},
        {"max_iter", "250", CS_PARAM_MAX_ITER, 250},
        {"smoothing", "0.5", CS_PARAM_SMOOTHING, 0.5},
        {"delta", "1e-3", CS_PARAM_DELTA, 1e-3},
        {"seed", "12345", CS_PARAM_SEED, 12345},
        {"seed", "9223372036854775807", CS_PARAM_SEED, 9223372036854775807.0},
        {"threads", "1", CS_PARAM_THREADS, 1},
        {"classes", "3", CS_PARAM_CLASSES, 3},
        {"items", "10", CS_PARAM_ITEMS, 10},
        {"workers", "7", CS_PARAM_WORKERS, 7},
        {"power_starts", "5", CS_PARAM_POWER_STARTS, 5},
        {"power_iters", "6", CS_PARAM_POWER_ITERS, 6},
    };
    size_t i;
    double d;
    int64_t v;
    for (i = 0; i < sizeof ok / sizeof ok[0]; ++i) {
        cs_status s = cs_set_param_string(m, ok[i].name, ok[i].value);
        if (s != CS_OK)
            fail_msg("(\"%s\", \"%s\") returned %s: %s", ok[i].name, ok[i].value,
                     cs_status_string(s), cs_last_error(m));
        CS_ASSERT_OK(cs_get_double(m, ok[i].param, &d));
        if (d != ok[i].expected)
            fail_msg("(\"%s\", \"%s\") gave %.17g", ok[i].name, ok[i].value, d);
    }
    CS_ASSERT_OK(cs_get_int(m, CS_PARAM_SEED, &v));
    assert_true(v == INT64_MAX);

    /* Failures keep the old value (tol = 0, max_iter = 250, method = ds). */
    CS_ASSERT_FAIL(m, cs_set_param_string(m, "tol", "abc"), CS_ERR_INVALID_ARGUMENT, "tol",
                   "abc");
    CS_ASSERT_FAIL(m, cs_set_param_string(m, "tol", ""), CS_ERR_INVALID_ARGUMENT, "tol");
    CS_ASSERT_FAIL(m, cs_set_param_string(m, "tol", "1e-3x"), CS_ERR_INVALID_ARGUMENT, "tol",
                   "1e-3x");
    CS_ASSERT_FAIL(m, cs_set_param_string(m, "tol", "2"), CS_ERR_PARAM_RANGE, "tol");
    CS_ASSERT_FAIL(m, cs_set_param_string(m, "tol", "-1e-3"), CS_ERR_PARAM_RANGE, "tol");
    CS_ASSERT_OK(cs_get_double(m, CS_PARAM_TOL, &d));
    assert_true(d == 0.0);

    CS_ASSERT_FAIL(m, cs_set_param_string(m, "max_iter", "12abc"), CS_ERR_INVALID_ARGUMENT,
                   "max_iter", "12abc");
    CS_ASSERT_FAIL(m, cs_set_param_string(m, "max_iter", "2.5"), CS_ERR_INVALID_ARGUMENT,
                   "max_iter");
    CS_ASSERT_FAIL(m, cs_set_param_string(m, "max_iter", "-1"), CS_ERR_PARAM_RANGE, "max_iter");
    CS_ASSERT_FAIL(m, cs_set_param_string(m, "threads", "5000"), CS_ERR_PARAM_RANGE, "threads");
    CS_ASSERT_FAIL(m, cs_set_param_string(m, "classes", "1"), CS_ERR_TOO_FEW_CLASSES, "classes");
    CS_ASSERT_OK(cs_get_int(m, CS_PARAM_MAX_ITER, &v));
    assert_int_equal(v, 250);

    CS_ASSERT_FAIL(m, cs_set_param_string(m, "nosuch", "1"), CS_ERR_UNKNOWN_PARAM, "nosuch");
    CS_ASSERT_FAIL(m, cs_set_param_string(m, "", "1"), CS_ERR_UNKNOWN_PARAM, "parameter");
    CS_ASSERT_FAIL(m, cs_set_param_string(m, "method", "nosuch"), CS_ERR_UNKNOWN_METHOD,
                   "nosuch");
    CS_ASSERT_FAIL(m, cs_set_param_string(m, "method", "OPT-DS"), CS_ERR_UNKNOWN_METHOD,
                   "OPT-DS");
    CS_ASSERT_FAIL(m, cs_set_param_string(m, "prior", "bogus"), CS_ERR_INVALID_ARGUMENT,
                   "prior", "bogus");
    CS_ASSERT_FAIL(m, cs_set_param_string(m, "confusion", "two-coin"), CS_ERR_INVALID_ARGUMENT,
                   "confusion", "two-coin");
    CS_ASSERT_FAIL(m, cs_set_param_string(m, "duplicates", "5"), CS_ERR_PARAM_RANGE,
                   "duplicates");
    CS_ASSERT_OK(cs_get_int(m, CS_PARAM_METHOD, &v));
    assert_int_equal(v, CS_METHOD_DS);
    CS_ASSERT_OK(cs_get_int(m, CS_PARAM_PRIOR, &v));
    assert_int_equal(v, CS_PRIOR_ESTIMATED);
}

/* ------------------------------------------------------------------------------ */
/* Parameters take effect at the next fit                                           */

static void max_iter_and_tol_take_effect(void **state) {
    cs_model *m = (cs_model *)*state;
    int32_t iterations, converged, notes;
    size_t tl;

    CS_ASSERT_OK(cs_set_param_string(m, "method", "ds"));
    /* max_iter = 1 with tol > 0: stops at max_iter, not converged, noted. */
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_MAX_ITER, 1));
    cs_fit_or_fail(m, &cs_k3);
    CS_ASSERT_OK(cs_iterations(m, &iterations));
    CS_ASSERT_OK(cs_converged(m, &converged));
    CS_ASSERT_OK(cs_fit_notes(m, &notes));
    assert_int_equal(iterations, 1);
    assert_int_equal(converged, 0);
    assert_true((notes & CS_NOTE_MAX_ITER_REACHED) != 0);
    assert_non_null(strstr(cs_last_error(m), "max_iter"));

    /* tol = 0 runs exactly max_iter rounds. */
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_MAX_ITER, 6));
    CS_ASSERT_OK(cs_set_double(m, CS_PARAM_TOL, 0.0));
    cs_fit_or_fail(m, &cs_k3);
    CS_ASSERT_OK(cs_iterations(m, &iterations));
    CS_ASSERT_OK(cs_trace_length(m, &tl));
    assert_int_equal(iterations, 6);
    assert_int_equal(tl, 6);

    /* max_iter = 0 stops after the initialisation. */
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_MAX_ITER, 0));
    cs_fit_or_fail(m, &cs_k3);
    CS_ASSERT_OK(cs_iterations(m, &iterations));
    CS_ASSERT_OK(cs_trace_length(m, &tl));
    assert_int_equal(iterations, 0);
    assert_int_equal(tl, 0);

    /* The default tol converges on this set well before 1000 rounds. */
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_MAX_ITER, 1000));
    CS_ASSERT_OK(cs_set_double(m, CS_PARAM_TOL, 1e-10));
    cs_fit_or_fail(m, &cs_k3);
    CS_ASSERT_OK(cs_iterations(m, &iterations));
    CS_ASSERT_OK(cs_converged(m, &converged));
    CS_ASSERT_OK(cs_fit_notes(m, &notes));
    assert_true(iterations >= 2 && iterations < 1000);
    assert_int_equal(converged, 1);
    assert_true((notes & CS_NOTE_MAX_ITER_REACHED) == 0);
}

/* Results do not depend on the number of threads, and the same seed gives the same
 * results (compared bit for bit). */
static void results_independent_of_threads_and_repeatable(void **state) {
    static const char *methods[] = {"ds", "opt-ds", "crowd-lloyd"};
    size_t i;
    (void)state;
    for (i = 0; i < sizeof methods / sizeof methods[0]; ++i) {
        double ref[18 + 36], got[18 + 36];
        int threads[] = {1, 2, 0, 1};
        size_t t;
        for (t = 0; t < sizeof threads / sizeof threads[0]; ++t) {
            cs_model *m = cs_new_model(methods[i]);
            double *out = t == 0 ? ref : got;
            CS_ASSERT_OK(cs_set_int(m, CS_PARAM_THREADS, threads[t]));
            CS_ASSERT_OK(cs_set_int(m, CS_PARAM_SEED, 7));
            cs_fit_or_fail(m, &cs_k3);
            CS_ASSERT_OK(cs_posteriors(m, out, 18));
            CS_ASSERT_OK(cs_confusion(m, out + 18, 36));
            cs_destroy(m);
            if (t > 0 && memcmp(ref, got, sizeof ref) != 0)
                fail_msg("%s: results differ with threads = %d", methods[i], threads[t]);
        }
    }
}

/* A pseudo-count keeps every estimated confusion entry positive. */
static void smoothing_takes_effect(void **state) {
    cs_model *m = (cs_model *)*state;
    double conf[36];
    size_t i;
    /* (Plain maximum likelihood, smoothing 0, gives zero entries on this set.) */
    CS_ASSERT_OK(cs_set_param_string(m, "method", "ds"));
    CS_ASSERT_OK(cs_set_double(m, CS_PARAM_SMOOTHING, 1.0));
    cs_fit_or_fail(m, &cs_k3);
    CS_ASSERT_OK(cs_confusion(m, conf, 36));
    for (i = 0; i < 36; ++i)
        if (!(conf[i] > 0.0)) fail_msg("confusion entry %zu = %g with smoothing 1", i, conf[i]);
}

int main(void) {
#define T(f) cmocka_unit_test_setup_teardown(f, cs_setup_model, cs_teardown_model)
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(param_info_matches_the_header),
        T(getters_read_the_defaults),
        T(unknown_param_ids),
        T(setters_round_trip),
        T(bounds_accepted_outside_rejected),
        T(bad_values_keep_the_old_value),
        T(set_param_string_names_and_values),
        T(max_iter_and_tol_take_effect),
        cmocka_unit_test(results_independent_of_threads_and_repeatable),
        T(smoothing_takes_effect),
    };
#undef T
    return cmocka_run_group_tests_name("params", tests, NULL, NULL);
}
