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

/* The arguments of cs_r_update. */
typedef struct {
    SEXP bytes, item, worker, label, refit, params;
} update_args;

/* The saved model loaded, the parameters set, then cs_update and/or cs_refit. */
static cs_status call_update(cs_model *model, const void *args) {
    const update_args *a = (const update_args *)args;
    cs_status status = cs_load_buffer(model, RAW(a->bytes), (size_t)XLENGTH(a->bytes));
    if (status == CS_OK) status = cs_r_set_params(model, a->params);
    if (status == CS_OK && XLENGTH(a->item) > 0)
        status = cs_update(model, INTEGER(a->item), INTEGER(a->worker), INTEGER(a->label),
                           (size_t)XLENGTH(a->item));
    if (status == CS_OK && LOGICAL(a->refit)[0] == TRUE) status = cs_refit(model);
    return status;
}

/* New labels added to a saved model (cs_load_buffer, cs_update; cs_refit when refit is
 * TRUE): ids at or beyond the model's are new items and workers. The results are those
 * of a fit, with the updated model's bytes. */
SEXP cs_r_update(SEXP bytes, SEXP item, SEXP worker, SEXP label, SEXP refit, SEXP params,
                 SEXP progress) {
    cs_r_check_crowd_labels(item, worker, label);
    if (TYPEOF(bytes) != RAWSXP) Rf_error("crowdspec: the saved model must be a raw vector");
    if (TYPEOF(refit) != LGLSXP || XLENGTH(refit) != 1) Rf_error("crowdspec: refit must be TRUE or FALSE");
    const update_args args = {bytes, item, worker, label, refit, params};
    return cs_r_run_fit(R_NilValue, progress, CS_R_CROWD_MODEL, call_update, &args, NULL);
}
