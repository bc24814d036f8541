/* SPDX-License-Identifier: MIT */
/* Warm starts (cs_set_initial_confusion, cs_set_initial_prior) and prediction of a
 * new batch with known workers (cs_predict): issue 18, part 1. */
#include "cs_test.h"

#include <stdlib.h>

#define MAX_ROUNDS 16

/* The log-likelihood trace of a ds fit on cs_k3 with plain EM (accel none), tol 0. */
static size_t ds_trace(cs_model *m, int32_t rounds, double *trace) {
    size_t n = 0;
    CS_ASSERT_OK(cs_set_param_string(m, "accel", "none"));
    CS_ASSERT_OK(cs_set_double(m, CS_PARAM_TOL, 0.0));
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_MAX_ITER, rounds));
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_THREADS, 1));
    cs_fit_or_fail(m, &cs_k3);
    CS_ASSERT_OK(cs_trace_length(m, &n));
    CS_ASSERT_OK(cs_trace(m, trace, MAX_ROUNDS));
    return n;
}

/* EM from the matrices and prior of a 4-round fit continues that fit: its trace is
 * the cold fit's from round 4 on (round 4's E-step is the warm fit's first round). */
static void warm_start_continues_a_fit(void **state) {
    cs_model *cold = cs_new_model("ds"), *short_fit = cs_new_model("ds"), *warm = cs_new_model("ds");
    double full[MAX_ROUNDS], part[MAX_ROUNDS], cont[MAX_ROUNDS];
    double confusion[4 * 3 * 3], prior[3];
    size_t i;
    (void)state;
    assert_int_equal(ds_trace(cold, 10, full), 10);
    assert_int_equal(ds_trace(short_fit, 4, part), 4);
    CS_ASSERT_OK(cs_confusion(short_fit, confusion, 36));
    CS_ASSERT_OK(cs_class_prior(short_fit, prior, 3));
    CS_ASSERT_OK(cs_set_initial_confusion(warm, confusion, 36));
    CS_ASSERT_OK(cs_set_initial_prior(warm, prior, 3));
    assert_int_equal(ds_trace(warm, 7, cont), 7);
    for (i = 0; i < 7; ++i)
        if (fabs(cont[i] - full[i + 3]) > 1e-12 * fabs(full[i + 3]))
            fail_msg("round %zu: warm %.17g, cold %.17g", i + 1, cont[i], full[i + 3]);
    /* opt-ds from the same start is the same EM (no spectral stage, no other start). */
    CS_ASSERT_OK(cs_set_param_string(warm, "method", "opt-ds"));
    assert_int_equal(ds_trace(warm, 7, cont), 7);
    for (i = 0; i < 7; ++i) assert_true(fabs(cont[i] - full[i + 3]) <= 1e-12 * fabs(full[i + 3]));
    cs_destroy(cold);
    cs_destroy(short_fit);
    cs_destroy(warm);
}

/* A row of zeros marks an unknown worker, which starts from the majority-vote
 * estimate: with every worker unknown and the uniform prior this is ds's own start,
 * one round later (ds's first round is that M-step and its E-step). */
static void unknown_workers_start_from_the_vote(void **state) {
    cs_model *cold = cs_new_model("ds"), *warm = cs_new_model("ds");
    double full[MAX_ROUNDS], cont[MAX_ROUNDS], zeros[36] = {0};
    size_t i;
    (void)state;
    CS_ASSERT_OK(cs_set_param_string(cold, "prior", "uniform"));
    CS_ASSERT_OK(cs_set_param_string(warm, "prior", "uniform"));
    assert_int_equal(ds_trace(cold, 6, full), 6);
    CS_ASSERT_OK(cs_set_initial_confusion(warm, zeros, 36));
    assert_int_equal(ds_trace(warm, 6, cont), 6);
    for (i = 0; i < 6; ++i)
        if (fabs(cont[i] - full[i]) > 1e-12 * fabs(full[i]))
            fail_msg("round %zu: warm %.17g, cold %.17g", i + 1, cont[i], full[i]);
    cs_destroy(cold);
    cs_destroy(warm);
}

static void warm_start_errors(void **state) {
    cs_model *m = cs_new_model("ds");
    double good[36], bad[2] = {0.5, -0.1}, nan_value[1] = {NAN}, prior[3] = {1, 1, 1};
    size_t i;
    (void)state;
    for (i = 0; i < 36; ++i) good[i] = 1.0;
    CS_ASSERT_FAIL(m, cs_set_initial_confusion(m, bad, 2), CS_ERR_INVALID_ARGUMENT, "[1]", ">= 0");
    CS_ASSERT_FAIL(m, cs_set_initial_confusion(m, nan_value, 1), CS_ERR_INVALID_ARGUMENT, "finite");
    CS_ASSERT_STATUS(cs_set_initial_confusion(m, NULL, 3), CS_ERR_NULL_POINTER);
    CS_ASSERT_STATUS(cs_set_initial_confusion(NULL, good, 36), CS_ERR_NULL_HANDLE);
    /* A prior alone: EM starts from both. */
    CS_ASSERT_OK(cs_set_initial_prior(m, prior, 3));
    CS_ASSERT_FAIL(m, cs_fit_data(m, &cs_k3), CS_ERR_INVALID_ARGUMENT, "without initial confusion");
    /* Wrong sizes, named. */
    CS_ASSERT_OK(cs_set_initial_confusion(m, good, 27));
    CS_ASSERT_FAIL(m, cs_fit_data(m, &cs_k3), CS_ERR_INVALID_ARGUMENT, "27 values", "36");
    CS_ASSERT_OK(cs_set_initial_confusion(m, good, 36));
    CS_ASSERT_OK(cs_set_initial_prior(m, prior, 2));
    CS_ASSERT_FAIL(m, cs_fit_data(m, &cs_k3), CS_ERR_INVALID_ARGUMENT, "prior has 2 values");
    CS_ASSERT_OK(cs_set_initial_prior(m, prior, 3));
    cs_fit_or_fail(m, &cs_k3);
    /* Methods that cannot start from matrices refuse rather than ignore them. */
    CS_ASSERT_OK(cs_set_param_string(m, "method", "mv"));
    CS_ASSERT_FAIL(m, cs_fit_data(m, &cs_k3), CS_ERR_INVALID_ARGUMENT, "'mv'", "cannot start");
    /* Cleared, mv fits again. */
    CS_ASSERT_OK(cs_set_initial_confusion(m, NULL, 0));
    CS_ASSERT_OK(cs_set_initial_prior(m, NULL, 0));
    cs_fit_or_fail(m, &cs_k3);
    cs_destroy(m);
}

/* Two known workers, k = 2, and a batch of three items (computed by hand):
 *   worker 0: P(.|0) = (0.9, 0.1), P(.|1) = (0.2, 0.8)
 *   worker 1: P(.|0) = (0.6, 0.4), P(.|1) = (0.3, 0.7);  prior (0.7, 0.3)
 *   item 0: worker 0 says 0, worker 1 says 1: 0.7*0.9*0.4 = 0.252 vs 0.3*0.2*0.7 = 0.042
 *           -> q = (6/7, 1/7), likelihood 0.294
 *   item 1: worker 0 says 1: 0.7*0.1 = 0.07 vs 0.3*0.8 = 0.24 -> q0 = 7/31, 0.31
 *   item 2: worker 2 (unknown: the mean matrix, P(.|0) = (0.75, 0.25),
 *           P(.|1) = (0.25, 0.75)) says 1: 0.175 vs 0.225 -> q0 = 0.4375, 0.4 */
static const double known_confusion[8] = {0.9, 0.1, 0.2, 0.8, 0.6, 0.4, 0.3, 0.7};
static const int32_t batch_item[4] = {0, 0, 1, 2}, batch_worker[4] = {0, 1, 0, 2},
                     batch_label[4] = {0, 1, 1, 1};

static void check_hand_batch(cs_model *m) {
    double q[6], pi[12], ll = 0.0;
    int32_t labels[3], notes = 0, iterations = -1, converged = -1;
    size_t n = 0;
    CS_ASSERT_OK(cs_n_items(m, &n));
    assert_int_equal(n, 3);
    CS_ASSERT_OK(cs_posteriors(m, q, 6));
    assert_true(fabs(q[0] - 6.0 / 7.0) < 1e-15 && fabs(q[1] - 1.0 / 7.0) < 1e-15);
    assert_true(fabs(q[2] - 7.0 / 31.0) < 1e-15 && fabs(q[3] - 24.0 / 31.0) < 1e-15);
    assert_true(fabs(q[4] - 0.4375) < 1e-15 && fabs(q[5] - 0.5625) < 1e-15);
    CS_ASSERT_OK(cs_labels(m, labels, 3));
    assert_int_equal(labels[0], 0);
    assert_int_equal(labels[1], 1);
    assert_int_equal(labels[2], 1);
    CS_ASSERT_OK(cs_log_likelihood(m, &ll));
    assert_true(fabs(ll - (log(0.294) + log(0.31) + log(0.4))) < 1e-13);
    CS_ASSERT_OK(cs_fit_notes(m, &notes));
    assert_int_equal(notes, CS_NOTE_UNKNOWN_WORKERS);
    assert_non_null(strstr(cs_last_error(m), "1 workers of the batch were not in the fit"));
    CS_ASSERT_OK(cs_n_workers(m, &n));
    assert_int_equal(n, 3);
    CS_ASSERT_OK(cs_confusion(m, pi, 12));
    assert_true(fabs(pi[8] - 0.75) < 1e-15 && fabs(pi[9] - 0.25) < 1e-15);
    assert_true(fabs(pi[10] - 0.25) < 1e-15 && fabs(pi[11] - 0.75) < 1e-15);
    CS_ASSERT_OK(cs_iterations(m, &iterations));
    CS_ASSERT_OK(cs_converged(m, &converged));
    assert_int_equal(iterations, 0);
    assert_int_equal(converged, 1);
}

static void predict_with_given_workers(void **state) {
    cs_model *m = cs_new_model("ds");
    const double prior[2] = {0.7, 0.3};
    double unnormalised[8];
    size_t i;
    (void)state;
    CS_ASSERT_OK(cs_set_initial_confusion(m, known_confusion, 8));
    CS_ASSERT_OK(cs_set_initial_prior(m, prior, 2));
    CS_ASSERT_OK(cs_predict(m, batch_item, batch_worker, batch_label, 4));
    check_hand_batch(m);
    /* Rows and prior are normalised: each row scaled by its own factor (row r by
     * r + 2) and the prior by 10 give the same batch. */
    for (i = 0; i < 8; ++i) unnormalised[i] = known_confusion[i] * (double)(i / 2 + 2);
    {
        const double scaled_prior[2] = {7.0, 3.0};
        cs_model *s = cs_new_model("ds");
        CS_ASSERT_OK(cs_set_initial_confusion(s, unnormalised, 8));
        CS_ASSERT_OK(cs_set_initial_prior(s, scaled_prior, 2));
        CS_ASSERT_OK(cs_predict(s, batch_item, batch_worker, batch_label, 4));
        check_hand_batch(s);
        cs_destroy(s);
    }
    cs_destroy(m);
}

/* Predicting the training items with the fit's own workers gives the fit's
 * posteriors (the fit ends with an E-step at the matrices it reports). */
static void predict_after_a_fit_reproduces_it(void **state) {
    const char *methods[] = {"ds", "opt-ds", "mv", "one-coin-ds"};
    size_t t;
    (void)state;
    for (t = 0; t < sizeof methods / sizeof *methods; ++t) {
        cs_model *m = cs_new_model(methods[t]);
        double fitted[18], predicted[18];
        size_t i;
        CS_ASSERT_OK(cs_set_param_string(m, "support", "all"));
        cs_fit_or_fail(m, &cs_k3);
        CS_ASSERT_OK(cs_posteriors(m, fitted, 18));
        CS_ASSERT_OK(cs_predict(m, cs_k3_item, cs_k3_worker, cs_k3_label, 18));
        CS_ASSERT_OK(cs_posteriors(m, predicted, 18));
        if (strcmp(methods[t], "mv") != 0) /* mv's posteriors are vote shares, not an E-step */
            for (i = 0; i < 18; ++i)
                if (fabs(fitted[i] - predicted[i]) > 1e-12)
                    fail_msg("%s: posterior %zu: fit %.17g, predict %.17g", methods[t], i, fitted[i],
                             predicted[i]);
        cs_destroy(m);
    }
}

static void predict_errors(void **state) {
    cs_model *m = cs_new_model("ds");
    const int32_t big_label[1] = {5}, one[1] = {0};
    const double x[4] = {0, 0, 1, 1};
    (void)state;
    CS_ASSERT_FAIL(m, cs_predict(m, batch_item, batch_worker, batch_label, 4), CS_ERR_NOT_FITTED,
                   "cs_set_initial_confusion");
    CS_ASSERT_OK(cs_set_initial_confusion(m, known_confusion, 8));
    CS_ASSERT_FAIL(m, cs_predict(m, batch_item, batch_worker, batch_label, 4), CS_ERR_INVALID_ARGUMENT,
                   "number of classes");
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_CLASSES, 2));
    CS_ASSERT_OK(cs_predict(m, batch_item, batch_worker, batch_label, 4));
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_CLASSES, 3));
    /* A failed fit leaves no results, so the next prediction uses the initial matrices
     * again: 8 values are not 3 x 3 matrices. */
    CS_ASSERT_STATUS(cs_fit(m, NULL, NULL, NULL, 0), CS_ERR_NULL_POINTER);
    CS_ASSERT_FAIL(m, cs_predict(m, batch_item, batch_worker, batch_label, 4), CS_ERR_INVALID_ARGUMENT,
                   "not a whole number of 3 x 3");
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_CLASSES, 0));
    CS_ASSERT_OK(cs_set_initial_confusion(m, NULL, 0));
    cs_fit_or_fail(m, &cs_tiny);
    CS_ASSERT_STATUS(cs_predict(m, one, one, big_label, 1), CS_ERR_INVALID_LABEL);
    CS_ASSERT_STATUS(cs_predict(m, one, one, one, 0), CS_ERR_EMPTY_INPUT);
    CS_ASSERT_STATUS(cs_predict(m, NULL, one, one, 1), CS_ERR_NULL_POINTER);
    /* A failed prediction keeps the previous results. */
    {
        size_t n = 0;
        CS_ASSERT_OK(cs_n_items(m, &n));
        assert_int_equal(n, 4);
    }
    CS_ASSERT_OK(cs_set_param_string(m, "method", "lloyd"));
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_CLASSES, 2));
    CS_ASSERT_OK(cs_fit_points(m, x, 4, 1, 1));
    CS_ASSERT_FAIL(m, cs_predict(m, one, one, one, 1), CS_ERR_WRONG_INPUT_KIND, "points");
    cs_destroy(m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(warm_start_continues_a_fit),
        cmocka_unit_test(unknown_workers_start_from_the_vote),
        cmocka_unit_test(warm_start_errors),
        cmocka_unit_test(predict_with_given_workers),
        cmocka_unit_test(predict_after_a_fit_reproduces_it),
        cmocka_unit_test(predict_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
