/* SPDX-License-Identifier: MIT */
/* Saved models from R (issue 38): a crowd fit's saved model as a raw vector
 * (cs_save_buffer), and update() of a fit through it (cs_load_buffer, cs_update,
 * cs_refit). The fit's machinery (parameters, progress) is crowdspec_r.c's, its results
 * results_r.c's. */
#include <R.h>
#include <Rinternals.h>

#include <crowdspec/crowdspec.h>
#include "crowdspec_r.h"

/* The handle's saved model as a raw vector in out[index], or NULL there when the fit
 * cannot be saved (not of the Dawid-Skene family, or its labels were not kept). */
void cs_r_put_saved_model(cs_model *model, SEXP out, R_xlen_t index) {
    size_t size = 0;
    if (cs_save_buffer(model, NULL, 0, &size) != CS_OK || size > (size_t)R_XLEN_T_MAX) return;
    SEXP bytes = Rf_allocVector(RAWSXP, (R_xlen_t)size);
    SET_VECTOR_ELT(out, index, bytes); /* reachable from out, which the caller protects */
    if (cs_save_buffer(model, RAW(bytes), size, &size) != CS_OK) SET_VECTOR_ELT(out, index, R_NilValue);
}

/* The arguments of cs_r_update and cs_r_predict_model. */
typedef struct {
    SEXP bytes, item, worker, label, refit, params;
    SEXP model_item, model_probs; /* a classifier's rows (zero rows: none) */
    int32_t model_k;
} update_args;

/* The classifier's rows, when there are some, in the model's item ids (cs_update) or
 * the batch's (cs_predict_model_probs, which takes them itself). */
static void check_model_rows(SEXP model_item, SEXP model_probs, int k) {
    cs_r_check_int_vector(model_item, "model item");
    if (TYPEOF(model_probs) != REALSXP) Rf_error("crowdspec: model probabilities must be a double vector");
    if (XLENGTH(model_item) > 0 && (k == NA_INTEGER || k < 1 || XLENGTH(model_probs) % k != 0 ||
                                    XLENGTH(model_probs) / k != XLENGTH(model_item)))
        Rf_error("crowdspec: model probabilities must be one row of model_k values per model item");
}

/* The saved model loaded, the parameters set, the classifier's rows, then cs_update
 * and/or cs_refit. */
static cs_status call_update(cs_model *model, const void *args) {
    const update_args *a = (const update_args *)args;
    cs_status status = cs_load_buffer(model, RAW(a->bytes), (size_t)XLENGTH(a->bytes));
    if (status == CS_OK) status = cs_r_set_params(model, a->params);
    if (status == CS_OK && XLENGTH(a->model_item) > 0)
        status = cs_set_model_probs(model, INTEGER(a->model_item), REAL(a->model_probs),
                                    (size_t)XLENGTH(a->model_item), a->model_k);
    if (status == CS_OK && (XLENGTH(a->item) > 0 || XLENGTH(a->model_item) > 0))
        status = cs_update(model, INTEGER(a->item), INTEGER(a->worker), INTEGER(a->label),
                           (size_t)XLENGTH(a->item));
    if (status == CS_OK && LOGICAL(a->refit)[0] == TRUE) status = cs_refit(model);
    return status;
}

/* New labels added to a saved model (cs_load_buffer, cs_update; cs_refit when refit is
 * TRUE): ids at or beyond the model's are new items and workers. The results are those
 * of a fit, with the updated model's bytes. */
SEXP cs_r_update(SEXP bytes, SEXP item, SEXP worker, SEXP label, SEXP refit, SEXP params,
                 SEXP model_item, SEXP model_probs, SEXP model_k, SEXP progress) {
    cs_r_check_crowd_labels(item, worker, label);
    if (TYPEOF(bytes) != RAWSXP) Rf_error("crowdspec: the saved model must be a raw vector");
    if (TYPEOF(refit) != LGLSXP || XLENGTH(refit) != 1) Rf_error("crowdspec: refit must be TRUE or FALSE");
    const int k = Rf_asInteger(model_k);
    check_model_rows(model_item, model_probs, k);
    const update_args args = {bytes, item, worker, label, refit, params, model_item, model_probs, k};
    return cs_r_run_fit(R_NilValue, progress, CS_R_CROWD_MODEL, call_update, &args, NULL);
}

/* The saved model loaded, the parameters set, then cs_predict_model_probs. */
static cs_status call_predict_model(cs_model *model, const void *args) {
    const update_args *a = (const update_args *)args;
    cs_status status = cs_load_buffer(model, RAW(a->bytes), (size_t)XLENGTH(a->bytes));
    if (status == CS_OK) status = cs_r_set_params(model, a->params);
    if (status == CS_OK)
        status = cs_predict_model_probs(model, INTEGER(a->item), INTEGER(a->worker), INTEGER(a->label),
                                        (size_t)XLENGTH(a->item), INTEGER(a->model_item), REAL(a->model_probs),
                                        (size_t)XLENGTH(a->model_item));
    return status;
}

/* One E-step on a new batch with a saved model's workers and a classifier's rows for
 * the batch's items (cs_predict_model_probs: weighed by the classifier's matrix the
 * saved fit estimated). Worker ids at or beyond the model's are unknown to it. */
SEXP cs_r_predict_model(SEXP bytes, SEXP item, SEXP worker, SEXP label, SEXP model_item, SEXP model_probs,
                        SEXP model_k, SEXP params) {
    cs_r_check_crowd_labels(item, worker, label);
    if (TYPEOF(bytes) != RAWSXP) Rf_error("crowdspec: the saved model must be a raw vector");
    const int k = Rf_asInteger(model_k);
    check_model_rows(model_item, model_probs, k);
    const update_args args = {bytes, item, worker, label, R_NilValue, params, model_item, model_probs, k};
    return cs_r_run_fit(R_NilValue, R_NilValue, CS_INPUT_CROWD, call_predict_model, &args, NULL);
}
