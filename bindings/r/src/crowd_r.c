/* SPDX-License-Identifier: MIT */
/* The .Call routines of crowd labels: cs_r_fit_crowd (gold, warm start, a classifier's
 * probabilities, then cs_fit) and cs_r_predict (cs_predict with given matrices). */
#include <stdint.h>
#include <string.h>

#include <R.h>
#include <Rinternals.h>

#include <crowdspec/crowdspec.h>

#include "crowdspec_r.h"

static void check_real_or_null(SEXP x, const char *what) {
    if (x != R_NilValue && TYPEOF(x) != REALSXP)
        Rf_error("crowdspec: %s must be a double vector or NULL", what);
}

/* cs_set_initial_confusion / cs_set_initial_prior for the vectors that are not NULL
 * (the confusion row-major worker x true x observed, as cs_confusion gives it). */
static cs_status set_initial(cs_model *model, SEXP confusion, SEXP prior) {
    cs_status status = CS_OK;
    if (confusion != R_NilValue)
        status = cs_set_initial_confusion(model, REAL(confusion), (size_t)XLENGTH(confusion));
    if (status == CS_OK && prior != R_NilValue)
        status = cs_set_initial_prior(model, REAL(prior), (size_t)XLENGTH(prior));
    return status;
}

/* The arguments of cs_r_fit_crowd and cs_r_predict (predict has no gold; the fit no
 * calibration: NULL, or predict's (temperature, mixing)). */
typedef struct {
    SEXP item, worker, label, gold_item, gold_label, confusion, prior, calibration;
    SEXP model_item, model_probs; /* the fit's classifier rows (zero rows: none) */
    int32_t model_k;
} crowd_args;

/* Gold labels, the warm start and the classifier's probabilities, then cs_fit. */
static cs_status call_fit_crowd(cs_model *model, const void *args) {
    const crowd_args *a = (const crowd_args *)args;
    cs_status status = CS_OK;
    if (XLENGTH(a->gold_item) > 0)
        status = cs_set_gold(model, INTEGER(a->gold_item), INTEGER(a->gold_label),
                             (size_t)XLENGTH(a->gold_item));
    if (status == CS_OK) status = set_initial(model, a->confusion, a->prior);
    if (status == CS_OK && XLENGTH(a->model_item) > 0)
        status = cs_set_model_probs(model, INTEGER(a->model_item), REAL(a->model_probs),
                                    (size_t)XLENGTH(a->model_item), a->model_k);
    if (status == CS_OK)
        status = cs_fit(model, INTEGER(a->item), INTEGER(a->worker), INTEGER(a->label),
                        (size_t)XLENGTH(a->item));
    return status;
}

/* model_item: 0-based item ids of the classifier's rows (length 0: no classifier);
 * model_probs: their values, row-major rows x model_k (cs_set_model_probs; whether
 * they are valid probabilities is the library's decision). */
SEXP cs_r_fit_crowd(SEXP item, SEXP worker, SEXP label, SEXP params, SEXP gold_item,
                    SEXP gold_label, SEXP initial_confusion, SEXP initial_prior,
                    SEXP model_item, SEXP model_probs, SEXP model_k, SEXP progress) {
    cs_r_check_crowd_labels(item, worker, label);
    cs_r_check_int_vector(gold_item, "gold item");
    cs_r_check_int_vector(gold_label, "gold label");
    check_real_or_null(initial_confusion, "the initial confusion matrices");
    check_real_or_null(initial_prior, "the initial prior");
    if (XLENGTH(gold_item) != XLENGTH(gold_label))
        Rf_error("crowdspec: gold items and labels must have the same length");
    cs_r_check_int_vector(model_item, "model item");
    if (TYPEOF(model_probs) != REALSXP) Rf_error("crowdspec: model probabilities must be a double vector");
    const int k = Rf_asInteger(model_k);
    if (XLENGTH(model_item) > 0 && (k == NA_INTEGER || k < 1 ||
                                    XLENGTH(model_probs) / k != XLENGTH(model_item) ||
                                    XLENGTH(model_probs) % k != 0))
        Rf_error("crowdspec: model probabilities must be one row of model_k values per model item");
    const crowd_args args = {item, worker, label, gold_item, gold_label, initial_confusion,
                             initial_prior, R_NilValue, model_item, model_probs, k};
    /* the fit's own labels, for each label's probability of being wrong */
    const cs_r_collect_options options = {NULL, 0, INTEGER(item), INTEGER(label), (size_t)XLENGTH(item)};
    return cs_r_run_fit(params, progress, CS_R_CROWD_MODEL, call_fit_crowd, &args, &options);
}

/* The given matrices, prior and calibration, then cs_predict. */
static cs_status call_predict(cs_model *model, const void *args) {
    const crowd_args *a = (const crowd_args *)args;
    cs_status status = set_initial(model, a->confusion, a->prior);
    if (status == CS_OK && a->calibration != R_NilValue)
        status = cs_set_initial_calibration(model, REAL(a->calibration)[0], REAL(a->calibration)[1]);
    if (status == CS_OK)
        status = cs_predict(model, INTEGER(a->item), INTEGER(a->worker), INTEGER(a->label),
                            (size_t)XLENGTH(a->item));
    return status;
}

/* One E-step on a new batch (cs_predict) with the given worker matrices and prior:
 * confusion row-major worker x true x observed; worker ids at or beyond its number of
 * workers are unknown to it (the library weighs them by the mean matrix). calibration:
 * NULL, or c(temperature, mixing) for cs_set_initial_calibration (a fit's own, so that
 * its items predict as it gave them). */
SEXP cs_r_predict(SEXP item, SEXP worker, SEXP label, SEXP confusion, SEXP prior,
                  SEXP params, SEXP calibration) {
    cs_r_check_crowd_labels(item, worker, label);
    if (TYPEOF(confusion) != REALSXP || TYPEOF(prior) != REALSXP)
        Rf_error("crowdspec: the confusion matrices and the prior must be double vectors");
    if (calibration != R_NilValue && (TYPEOF(calibration) != REALSXP || XLENGTH(calibration) != 2))
        Rf_error("crowdspec: the calibration must be NULL or c(temperature, mixing)");
    const crowd_args args = {item, worker, label, R_NilValue, R_NilValue, confusion, prior,
                             calibration, R_NilValue, R_NilValue, 0};
    return cs_r_run_fit(params, R_NilValue, CS_INPUT_CROWD, call_predict, &args, NULL);
}
