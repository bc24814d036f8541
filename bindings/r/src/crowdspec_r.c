/* SPDX-License-Identifier: MIT */
/*
 * The R package's glue: handles, failures, parameters, progress and the run of a fit
 * (cs_r_run_fit), which every .Call routine of a fit uses. The routines themselves are
 * in crowd_r.c (crowd labels), inputs_r.c (the other inputs), update_r.c (saved models)
 * and info_r.c; results_r.c reads a fit's results.
 *
 * The glue only converts. Every decision about the data (valid ids, labels, sizes,
 * parameter values) is the library's: a failing status comes back to R as a list of
 * class "crowdspec_failure" (status, its name, cs_last_error), which the R code turns
 * into a condition of class "crowdspec_error". Nothing here calls Rf_error while a
 * cs_model is live and unowned: every handle is held by an external pointer whose
 * finalizer destroys it, so an R error (an allocation failure, say) between cs_create
 * and the explicit destroy cannot leak it, and the explicit destroy clears the pointer
 * first so that the finalizer cannot free it twice.
 *
 * R is never entered from inside the library except through the progress callback,
 * and there only under R_ToplevelExec, so that neither an R error nor an interrupt can
 * longjmp through the library's C++ frames.
 */
#include <stdint.h>
#include <string.h>

#include <R.h>
#include <Rinternals.h>

#include <crowdspec/crowdspec.h>

#include "crowdspec_r.h"

/* R's int is the library's int32_t: INTEGER() vectors are passed as they are. */
typedef char cs_r_int_is_32_bits[(sizeof(int) == sizeof(int32_t)) ? 1 : -1];

/* Handles created and not yet destroyed, for the tests of the finalizer (R runs these
 * routines on one thread). */
static int live_handles = 0;

/* The tag of the package's external pointers (R keeps installed symbols for good). */
static SEXP handle_tag(void) { return Rf_install("crowdspec_model"); }

/* ------------------------------------------------------------------------------- */
/* Handles */

void cs_r_destroy_handle(SEXP ptr) {
    cs_model *model = (cs_model *)R_ExternalPtrAddr(ptr);
    if (model == NULL) return;
    R_ClearExternalPtr(ptr); /* first: a second call (the finalizer) sees NULL */
    cs_destroy(model);
    --live_handles;
}

static void handle_finalizer(SEXP ptr) { cs_r_destroy_handle(ptr); }

/* A new cs_model owned by an external pointer with a finalizer. The pointer exists
 * (and its finalizer is registered) before cs_create, so that no allocation by R can
 * fail while the model is not owned. Its address is NULL if cs_create failed. */
static SEXP new_handle(void) {
    SEXP ptr = PROTECT(R_MakeExternalPtr(NULL, handle_tag(), R_NilValue));
    R_RegisterCFinalizerEx(ptr, handle_finalizer, TRUE);
    cs_model *model = cs_create();
    if (model != NULL) {
        R_SetExternalPtrAddr(ptr, model);
        ++live_handles;
    }
    UNPROTECT(1);
    return ptr;
}

static cs_model *handle_model(SEXP ptr) {
    if (TYPEOF(ptr) != EXTPTRSXP || R_ExternalPtrTag(ptr) != handle_tag())
        Rf_error("crowdspec: not a crowdspec handle");
    return (cs_model *)R_ExternalPtrAddr(ptr);
}

/* A new vector of `type` and length n, stored as element i of the list `out` (which
 * protects it). */
SEXP cs_r_list_element(SEXP out, R_xlen_t i, SEXPTYPE type, R_xlen_t n) {
    SEXP x = Rf_allocVector(type, n);
    SET_VECTOR_ELT(out, i, x);
    return x;
}

/* ------------------------------------------------------------------------------- */
/* Failures */

static SEXP make_failure(cs_status status, const char *message) {
    const char *names[] = {"status", "status_name", "message", ""};
    SEXP out = PROTECT(Rf_mkNamed(VECSXP, names));
    SET_VECTOR_ELT(out, 0, Rf_ScalarInteger(status));
    SET_VECTOR_ELT(out, 1, Rf_mkString(cs_status_string(status)));
    SET_VECTOR_ELT(out, 2, Rf_ScalarString(Rf_mkCharCE(message ? message : "", CE_UTF8)));
    Rf_setAttrib(out, R_ClassSymbol, Rf_mkString("crowdspec_failure"));
    UNPROTECT(1);
    return out;
}

/* The failure of a call on the handle: the message is copied out of the handle into
 * R memory, then the handle is destroyed. */
SEXP cs_r_failure(SEXP ptr, cs_status status) {
    cs_model *model = (cs_model *)R_ExternalPtrAddr(ptr);
    SEXP out = make_failure(status, model ? cs_last_error(model) : "NULL handle");
    cs_r_destroy_handle(ptr);
    return out;
}

SEXP cs_r_out_of_memory_failure(SEXP ptr, const char *what) {
    SEXP out = make_failure(CS_ERR_OUT_OF_MEMORY, what);
    cs_r_destroy_handle(ptr);
    return out;
}

/* ------------------------------------------------------------------------------- */
/* Parameters: a named character vector, each entry given to cs_set_param_string. */

cs_status cs_r_set_params(cs_model *model, SEXP params) {
    if (params == R_NilValue) return CS_OK;
    if (TYPEOF(params) != STRSXP) Rf_error("crowdspec: parameters must be a character vector");
    SEXP names = Rf_getAttrib(params, R_NamesSymbol);
    if (XLENGTH(params) > 0 && TYPEOF(names) != STRSXP)
        Rf_error("crowdspec: parameters must be named");
    for (R_xlen_t i = 0; i < XLENGTH(params); ++i) {
        const char *name = Rf_translateCharUTF8(STRING_ELT(names, i));
        const char *value = Rf_translateCharUTF8(STRING_ELT(params, i));
        cs_status status = cs_set_param_string(model, name, value);
        if (status != CS_OK) return status;
    }
    return CS_OK;
}

/* ------------------------------------------------------------------------------- */
/* Progress: an optional R function, and R's interrupt */

typedef struct {
    SEXP fn;         /* an R function(iteration, objective) or R_NilValue */
    int interrupted; /* an interrupt (Ctrl-C) reached R during the fit */
    int stopped;     /* the R function returned TRUE (or failed; see the R code) */
} progress_state;

typedef struct {
    SEXP fn;
    int iteration;
    double objective;
    int stop;
} progress_call;

static void check_interrupt(void *unused) {
    (void)unused;
    R_CheckUserInterrupt();
}

static void call_progress(void *data) {
    progress_call *call = (progress_call *)data;
    SEXP iteration = PROTECT(Rf_ScalarInteger(call->iteration));
    SEXP objective = PROTECT(Rf_ScalarReal(call->objective));
    SEXP expr = PROTECT(Rf_lang3(call->fn, iteration, objective));
    SEXP value = PROTECT(Rf_eval(expr, R_GlobalEnv));
    call->stop = Rf_asLogical(value) == TRUE;
    UNPROTECT(4);
}

/* The cs_progress_fn: runs on the thread that called the fit (R's), between
 * iterations. R code runs only under R_ToplevelExec: an error or interrupt there ends
 * at R_ToplevelExec (which returns FALSE) instead of unwinding the library. */
static int32_t progress_callback(void *user, int32_t iteration, double objective) {
    progress_state *state = (progress_state *)user;
    if (state->interrupted || state->stopped) return 1;
    if (state->fn != R_NilValue) {
        progress_call call = {state->fn, iteration, objective, 0};
        if (!R_ToplevelExec(call_progress, &call)) {
            state->interrupted = 1;
            return 1;
        }
        if (call.stop) {
            state->stopped = 1;
            return 1;
        }
    }
    if (!R_ToplevelExec(check_interrupt, NULL)) {
        state->interrupted = 1;
        return 1;
    }
    return 0;
}

static SEXP interrupted_result(SEXP ptr) {
    cs_r_destroy_handle(ptr);
    const char *names[] = {"interrupted", ""};
    SEXP out = PROTECT(Rf_mkNamed(VECSXP, names));
    SET_VECTOR_ELT(out, 0, Rf_ScalarLogical(TRUE));
    UNPROTECT(1);
    return out;
}

/* a * b as an R vector length, or -1 when it does not fit. */
R_xlen_t cs_r_checked_length(size_t a, size_t b) {
    if (a != 0 && b > (size_t)R_XLEN_T_MAX / a) return -1;
    return (R_xlen_t)(a * b);
}

/* ------------------------------------------------------------------------------- */
/* Running a fit */

/* The common tail of the three fits: the status of the fit call becomes the results,
 * a failure, or the interrupted marker. */
static SEXP finish(SEXP ptr, cs_status status, const progress_state *state, int kind,
                   const cs_r_collect_options *options) {
    cs_model *model = (cs_model *)R_ExternalPtrAddr(ptr);
    cs_set_progress(model, NULL, NULL);
    if (status == CS_ERR_CANCELLED && state->interrupted) return interrupted_result(ptr);
    if (status == CS_ERR_CANCELLED && state->stopped) return cs_r_collect(ptr, kind, 1, options);
    if (status != CS_OK) return cs_r_failure(ptr, status);
    return cs_r_collect(ptr, kind, 0, options);
}

void cs_r_check_int_vector(SEXP x, const char *what) {
    if (TYPEOF(x) != INTSXP) Rf_error("crowdspec: %s must be an integer vector", what);
}

/* item, worker and label: integer vectors of one length. */
void cs_r_check_crowd_labels(SEXP item, SEXP worker, SEXP label) {
    cs_r_check_int_vector(item, "item");
    cs_r_check_int_vector(worker, "worker");
    cs_r_check_int_vector(label, "label");
    if (XLENGTH(worker) != XLENGTH(item) || XLENGTH(label) != XLENGTH(item))
        Rf_error("crowdspec: item, worker and label must have the same length");
}

/* A handle with the parameters set and the progress callback installed, or a failure
 * (a VECSXP of class crowdspec_failure; *model is then NULL). */
static SEXP prepare(SEXP params, SEXP progress, progress_state *state, cs_model **model) {
    if (progress != R_NilValue && !Rf_isFunction(progress))
        Rf_error("crowdspec: progress must be a function or NULL");
    state->fn = progress;
    state->interrupted = 0;
    state->stopped = 0;
    *model = NULL;
    SEXP ptr = PROTECT(new_handle()); /* set_params allocates: keep the handle reachable */
    cs_model *m = (cs_model *)R_ExternalPtrAddr(ptr);
    SEXP out = ptr;
    if (m == NULL) {
        out = make_failure(CS_ERR_OUT_OF_MEMORY, "cs_create: out of memory");
    } else {
        cs_status status = cs_r_set_params(m, params);
        if (status == CS_OK) status = cs_set_progress(m, progress_callback, state);
        if (status != CS_OK)
            out = cs_r_failure(ptr, status);
        else
            *model = m;
    }
    UNPROTECT(1);
    return out;
}

/* Every fit: a prepared handle, `call` on it, and its status turned into the results
 * of `kind`, a failure or the interrupted marker (finish). */
SEXP cs_r_run_fit(SEXP params, SEXP progress, int kind, cs_r_fit_call call, const void *args,
                  const cs_r_collect_options *options) {
    progress_state state;
    cs_model *model;
    SEXP ptr = PROTECT(prepare(params, progress, &state, &model));
    SEXP out = model == NULL ? ptr : finish(ptr, call(model, args), &state, kind, options);
    UNPROTECT(1);
    return out;
}

/* ------------------------------------------------------------------------------- */
/* Handles seen from R: for the tests of the finalizer (not exported) */

SEXP cs_r_live_handles(void) { return Rf_ScalarInteger(live_handles); }

SEXP cs_r_handle_new(void) { return new_handle(); }

SEXP cs_r_handle_destroy(SEXP ptr) {
    (void)handle_model(ptr);
    cs_r_destroy_handle(ptr);
    return R_NilValue;
}

/* cs_set_param_string on a handle that may have been destroyed (its address is then
 * NULL, which the library reports as CS_ERR_NULL_HANDLE). NULL on success. */
SEXP cs_r_handle_set(SEXP ptr, SEXP name, SEXP value) {
    cs_model *model = handle_model(ptr);
    cs_status status = cs_set_param_string(model, Rf_translateCharUTF8(STRING_ELT(name, 0)),
                                           Rf_translateCharUTF8(STRING_ELT(value, 0)));
    if (status == CS_OK) return R_NilValue;
    return make_failure(status, cs_last_error(model));
}

/* cs_n_items of a handle: a count, or a failure (CS_ERR_NOT_FITTED before a fit). */
SEXP cs_r_handle_n_items(SEXP ptr) {
    cs_model *model = handle_model(ptr);
    size_t n = 0;
    cs_status status = cs_n_items(model, &n);
    if (status == CS_OK) return Rf_ScalarReal((double)n);
    return make_failure(status, cs_last_error(model));
}
