/* SPDX-License-Identifier: MIT */
/*
 * The .Call routines of the R package: R vectors in, the C API's results out.
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

static SEXP handle_tag = NULL;
/* Handles created and not yet destroyed (R runs these routines on one thread). */
static int live_handles = 0;

void cs_r_init_tag(void) { handle_tag = Rf_install("crowdspec_model"); }

/* ------------------------------------------------------------------------------- */
/* Handles */

static void destroy_handle(SEXP ptr) {
    cs_model *model = (cs_model *)R_ExternalPtrAddr(ptr);
    if (model == NULL) return;
    R_ClearExternalPtr(ptr); /* first: a second call (the finalizer) sees NULL */
    cs_destroy(model);
    --live_handles;
}

static void handle_finalizer(SEXP ptr) { destroy_handle(ptr); }

/* A new cs_model owned by an external pointer with a finalizer. The pointer exists
 * (and its finalizer is registered) before cs_create, so that no allocation by R can
 * fail while the model is not owned. Its address is NULL if cs_create failed. */
static SEXP new_handle(void) {
    SEXP ptr = PROTECT(R_MakeExternalPtr(NULL, handle_tag, R_NilValue));
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
    if (TYPEOF(ptr) != EXTPTRSXP || R_ExternalPtrTag(ptr) != handle_tag)
        Rf_error("crowdspec: not a crowdspec handle");
    return (cs_model *)R_ExternalPtrAddr(ptr);
}

/* A new vector of `type` and length n, stored as element i of the list `out` (which
 * protects it). */
static SEXP list_element(SEXP out, R_xlen_t i, SEXPTYPE type, R_xlen_t n) {
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
static SEXP failure(SEXP ptr, cs_status status) {
    cs_model *model = (cs_model *)R_ExternalPtrAddr(ptr);
    SEXP out = make_failure(status, model ? cs_last_error(model) : "NULL handle");
    destroy_handle(ptr);
    return out;
}

static SEXP out_of_memory_failure(SEXP ptr, const char *what) {
    SEXP out = make_failure(CS_ERR_OUT_OF_MEMORY, what);
    destroy_handle(ptr);
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

/* ------------------------------------------------------------------------------- */
/* Results */

static SEXP interrupted_result(SEXP ptr) {
    destroy_handle(ptr);
    const char *names[] = {"interrupted", ""};
    SEXP out = PROTECT(Rf_mkNamed(VECSXP, names));
    SET_VECTOR_ELT(out, 0, Rf_ScalarLogical(TRUE));
    UNPROTECT(1);
    return out;
}

/* a * b as an R vector length, or -1 when it does not fit. */
static R_xlen_t checked_length(size_t a, size_t b) {
    if (a != 0 && b > (size_t)R_XLEN_T_MAX / a) return -1;
    return (R_xlen_t)(a * b);
}

enum {
    R_CROWD = CS_INPUT_CROWD,
    R_POINTS = CS_INPUT_POINTS,
    R_GRAPH = CS_INPUT_GRAPH,
    R_COMPARISONS = CS_INPUT_COMPARISONS,
    R_TAGS = CS_INPUT_TAGS,
    R_NUMBERS = CS_INPUT_NUMBERS,
    R_CROWD_MODEL = CS_R_CROWD_MODEL
};


/* A comparisons fit's scores, standard errors, ranks, worker reliabilities (noisy-bt,
 * crowd-bt; empty for bt) and noisy-bt's biases into elements 22-26 of `out`. */
static cs_status collect_ranking(cs_model *model, SEXP out, size_t n, size_t m) {
    SEXP score = list_element(out, 22, REALSXP, (R_xlen_t)n);
    SEXP se = list_element(out, 23, REALSXP, (R_xlen_t)n);
    SEXP rank = list_element(out, 24, INTSXP, (R_xlen_t)n);
    cs_status s = cs_scores(model, REAL(score), REAL(se), INTEGER(rank), n);
    if (s) return s;
    SEXP reliability = list_element(out, 25, REALSXP, (R_xlen_t)m);
    if (cs_worker_reliability(model, REAL(reliability), m) != CS_OK)
        SET_VECTOR_ELT(out, 25, Rf_allocVector(REALSXP, 0)); /* bt: none */
    size_t rows = 0;
    if (cs_estimate(model, "bias", NULL, 0, &rows, NULL) == CS_OK) {
        SEXP bias = list_element(out, 26, REALSXP, (R_xlen_t)rows);
        s = cs_estimate(model, "bias", REAL(bias), rows, NULL, NULL);
    }
    return s;
}

/* The thresholds of a tags fit (cs_tag_sets), set by cs_r_fit_tags for collect. */
typedef struct {
    const double *values;
    size_t n;
} tag_thresholds;
static tag_thresholds current_thresholds = {NULL, 0};

/* The results of a numbers or tags fit (since 0.2), as a named list; then the handle
 * is destroyed. */
static SEXP collect_answers(SEXP ptr, int kind, int stopped) {
    cs_model *model = (cs_model *)R_ExternalPtrAddr(ptr);
    size_t n = 0, m = 0, T = 1, n_trace = 0;
    cs_status s;
    if ((s = cs_n_items(model, &n)) || (s = cs_n_workers(model, &m)) || (s = cs_trace_length(model, &n_trace)) ||
        (kind == R_TAGS && (s = cs_n_tags(model, &T))))
        return failure(ptr, s);
    const R_xlen_t len_items = checked_length(n, T), len_workers = checked_length(m, T);
    if (len_items < 0 || len_workers < 0 || n_trace > (size_t)R_XLEN_T_MAX)
        return out_of_memory_failure(ptr, "the results are too large for R vectors");
    const char *names[] = {"value", "se", "bias", "noise", "trace", "iterations", "converged", "notes",
                           "message", "n_items", "n_workers", "n_tags", "stopped", "probabilities",
                           "sets", "sensitivity", "specificity", ""};
    SEXP out = PROTECT(Rf_mkNamed(VECSXP, names));
    SEXP trace = list_element(out, 4, REALSXP, (R_xlen_t)n_trace);
    int32_t iterations = 0, converged = 0, notes = 0;
    if ((n_trace > 0 && (s = cs_trace(model, REAL(trace), n_trace))) || (s = cs_iterations(model, &iterations)) ||
        (s = cs_converged(model, &converged)) || (s = cs_fit_notes(model, &notes))) {
        UNPROTECT(1);
        return failure(ptr, s);
    }
    if (kind == R_NUMBERS) {
        SEXP value = list_element(out, 0, REALSXP, (R_xlen_t)n), se = list_element(out, 1, REALSXP, (R_xlen_t)n);
        SEXP bias = list_element(out, 2, REALSXP, (R_xlen_t)m), noise = list_element(out, 3, REALSXP, (R_xlen_t)m);
        if ((s = cs_number_estimates(model, REAL(value), REAL(se), n)) ||
            (s = cs_number_workers(model, REAL(bias), REAL(noise), m))) {
            UNPROTECT(1);
            return failure(ptr, s);
        }
    } else {
        SEXP p = list_element(out, 13, REALSXP, len_items), sets = list_element(out, 14, INTSXP, len_items);
        SEXP sens = list_element(out, 15, REALSXP, len_workers), spec = list_element(out, 16, REALSXP, len_workers);
        if ((s = cs_tag_probabilities(model, REAL(p), (size_t)len_items)) ||
            (s = cs_tag_sets(model, current_thresholds.values, current_thresholds.n, INTEGER(sets), (size_t)len_items)) ||
            (s = cs_tag_workers(model, REAL(sens), REAL(spec), (size_t)len_workers))) {
            UNPROTECT(1);
            return failure(ptr, s);
        }
    }
    SET_VECTOR_ELT(out, 5, Rf_ScalarInteger(iterations));
    SET_VECTOR_ELT(out, 6, Rf_ScalarLogical(converged != 0));
    SET_VECTOR_ELT(out, 7, Rf_ScalarInteger(notes));
    SET_VECTOR_ELT(out, 8, Rf_ScalarString(Rf_mkCharCE(notes ? cs_last_error(model) : "", CE_UTF8)));
    SET_VECTOR_ELT(out, 9, Rf_ScalarReal((double)n));
    SET_VECTOR_ELT(out, 10, Rf_ScalarReal((double)m));
    SET_VECTOR_ELT(out, 11, Rf_ScalarReal((double)T));
    SET_VECTOR_ELT(out, 12, Rf_ScalarLogical(stopped != 0));
    destroy_handle(ptr);
    UNPROTECT(1);
    return out;
}

/* Every result of the fit on the handle, as a named list; then the handle is
 * destroyed. `stopped` says that the R progress function ended the fit. */
static SEXP collect(SEXP ptr, int kind, int stopped) {
    if (kind == R_TAGS || kind == R_NUMBERS) return collect_answers(ptr, kind, stopped);
    cs_model *model = (cs_model *)R_ExternalPtrAddr(ptr);
    const int with_model = kind == R_CROWD_MODEL;
    if (with_model) kind = R_CROWD;
    size_t n = 0, m = 0, k = 0, n_trace = 0, d = 0;
    cs_status s;
    if ((s = cs_n_items(model, &n)) || (s = cs_n_workers(model, &m)) ||
        (s = cs_n_classes(model, &k)) || (s = cs_trace_length(model, &n_trace)))
        return failure(ptr, s);
    if (kind == R_POINTS && (s = cs_n_dims(model, &d))) return failure(ptr, s);
    const R_xlen_t len_post = checked_length(n, k);
    const R_xlen_t len_kk = checked_length(k, k);
    const R_xlen_t len_conf = len_kk < 0 ? -1 : checked_length(m, (size_t)len_kk);
    const R_xlen_t len_centres = checked_length(k, d);
    if (n > (size_t)R_XLEN_T_MAX || len_post < 0 || len_conf < 0 || len_centres < 0 ||
        n_trace > (size_t)R_XLEN_T_MAX)
        return out_of_memory_failure(ptr, "the results are too large for R vectors");

    const char *names[] = {"labels",     "posteriors", "confusion",      "prior",
                           "trace",      "iterations", "converged",      "log_likelihood",
                           "notes",      "message",    "n_items",        "n_workers",
                           "n_classes",  "stopped",    "centres",        "n_dims",
                           "densities",  "temperature", "mixing",        "calibration",
                           "median_grades", "mean_grades", "scores",     "se",
                           "ranks",      "reliability", "bias",         "model",
                           "label_next",  "spammer",     "worst_class",  "label_accuracy",
                           "accuracy_low", "accuracy_high", "model_confusion", ""};
    SEXP out = PROTECT(Rf_mkNamed(VECSXP, names));
    SEXP labels = list_element(out, 0, INTSXP, (R_xlen_t)n);
    SEXP post = list_element(out, 1, REALSXP, len_post);
    SEXP conf = list_element(out, 2, REALSXP, len_conf);
    SEXP prior = list_element(out, 3, REALSXP, (R_xlen_t)k);
    SEXP trace = list_element(out, 4, REALSXP, (R_xlen_t)n_trace);

    int32_t iterations = 0, converged = 0, notes = 0;
    double loglik = 0;
    if ((s = cs_labels(model, INTEGER(labels), n)) ||
        (s = cs_posteriors(model, REAL(post), (size_t)len_post)) ||
        (len_conf > 0 && (s = cs_confusion(model, REAL(conf), (size_t)len_conf))) ||
        (s = cs_class_prior(model, REAL(prior), k)) ||
        (n_trace > 0 && (s = cs_trace(model, REAL(trace), n_trace))) ||
        (s = cs_iterations(model, &iterations)) || (s = cs_converged(model, &converged)) ||
        (s = cs_log_likelihood(model, &loglik)) || (s = cs_fit_notes(model, &notes))) {
        UNPROTECT(1);
        return failure(ptr, s);
    }
    SET_VECTOR_ELT(out, 5, Rf_ScalarInteger(iterations));
    SET_VECTOR_ELT(out, 6, Rf_ScalarLogical(converged != 0));
    SET_VECTOR_ELT(out, 7, Rf_ScalarReal(loglik));
    SET_VECTOR_ELT(out, 8, Rf_ScalarInteger(notes));
    SET_VECTOR_ELT(out, 9, Rf_ScalarString(Rf_mkCharCE(notes ? cs_last_error(model) : "", CE_UTF8)));
    SET_VECTOR_ELT(out, 10, Rf_ScalarReal((double)n));
    SET_VECTOR_ELT(out, 11, Rf_ScalarReal((double)m));
    SET_VECTOR_ELT(out, 12, Rf_ScalarReal((double)k));
    SET_VECTOR_ELT(out, 13, Rf_ScalarLogical(stopped != 0));
    if (kind == R_POINTS) {
        SEXP centres = list_element(out, 14, REALSXP, len_centres);
        if (len_centres > 0 && (s = cs_centres(model, REAL(centres), (size_t)len_centres))) {
            UNPROTECT(1);
            return failure(ptr, s);
        }
        SET_VECTOR_ELT(out, 15, Rf_ScalarReal((double)d));
    } else if (kind == R_GRAPH) {
        SEXP dens = list_element(out, 16, REALSXP, 2);
        if ((s = cs_graph_densities(model, REAL(dens), REAL(dens) + 1))) {
            UNPROTECT(1);
            return failure(ptr, s);
        }
    } else if (kind == R_COMPARISONS) {
        if ((s = collect_ranking(model, out, n, m))) {
            UNPROTECT(1);
            return failure(ptr, s);
        }
    } else {
        /* how the posteriors were calibrated (the Dawid-Skene family; T = 1 otherwise) */
        double temperature = 1, mixing = 0;
        int32_t source = CS_CALIBRATION_NONE;
        if ((s = cs_calibration(model, &temperature, &mixing, &source))) {
            UNPROTECT(1);
            return failure(ptr, s);
        }
        SET_VECTOR_ELT(out, 17, Rf_ScalarReal(temperature));
        SET_VECTOR_ELT(out, 18, Rf_ScalarReal(mixing));
        SET_VECTOR_ELT(out, 19, Rf_ScalarInteger(source));
        if (n > 0) {
            /* Ordered grades only (an ordinal method or ordinal = 1): the library refuses
             * (CS_ERR_INVALID_ARGUMENT) otherwise, and both stay NULL. */
            SEXP median = PROTECT(Rf_allocVector(INTSXP, (R_xlen_t)n));
            if (cs_median_grades(model, INTEGER(median), n) == CS_OK) {
                SEXP mean = list_element(out, 21, REALSXP, (R_xlen_t)n);
                if ((s = cs_mean_grades(model, REAL(mean), n))) {
                    UNPROTECT(2);
                    return failure(ptr, s);
                }
                SET_VECTOR_ELT(out, 20, median);
            }
            UNPROTECT(1);
        }
        /* Issue 34: label-next scores and worker diagnostics (NULL when the fit has none). */
        SEXP next = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t)n));
        if (cs_label_next(model, REAL(next), n) == CS_OK) {
            SET_VECTOR_ELT(out, 28, next);
            SEXP spam = list_element(out, 29, REALSXP, (R_xlen_t)m);
            SEXP worst = list_element(out, 30, INTSXP, (R_xlen_t)m);
            SEXP acc = list_element(out, 31, REALSXP, (R_xlen_t)m);
            SEXP low = list_element(out, 32, REALSXP, (R_xlen_t)m);
            SEXP high = list_element(out, 33, REALSXP, (R_xlen_t)m);
            if (m > 0 && (s = cs_worker_diagnostics(model, REAL(spam), INTEGER(worst), REAL(acc), REAL(low),
                                                    REAL(high), m))) {
                UNPROTECT(2);
                return failure(ptr, s);
            }
        }
        UNPROTECT(1);
        /* The classifier's confusion matrix, when the fit estimated one (model
         * probabilities with a Dawid-Skene method; NULL otherwise). */
        SEXP pi = PROTECT(Rf_allocVector(REALSXP, len_kk));
        if (len_kk > 0 && cs_model_confusion(model, REAL(pi), (size_t)len_kk) == CS_OK) SET_VECTOR_ELT(out, 34, pi);
        UNPROTECT(1);
    }
    if (with_model && !stopped) cs_r_put_saved_model(model, out, 27);
    destroy_handle(ptr);
    UNPROTECT(1);
    return out;
}

/* The common tail of the three fits: the status of the fit call becomes the results,
 * a failure, or the interrupted marker. */
static SEXP finish(SEXP ptr, cs_status status, const progress_state *state, int kind) {
    cs_model *model = (cs_model *)R_ExternalPtrAddr(ptr);
    cs_set_progress(model, NULL, NULL);
    if (status == CS_ERR_CANCELLED && state->interrupted) return interrupted_result(ptr);
    if (status == CS_ERR_CANCELLED && state->stopped) return collect(ptr, kind, 1);
    if (status != CS_OK) return failure(ptr, status);
    return collect(ptr, kind, 0);
}

static void check_int_vector(SEXP x, const char *what) {
    if (TYPEOF(x) != INTSXP) Rf_error("crowdspec: %s must be an integer vector", what);
}

/* item, worker and label: integer vectors of one length. */
void cs_r_check_crowd_labels(SEXP item, SEXP worker, SEXP label) {
    check_int_vector(item, "item");
    check_int_vector(worker, "worker");
    check_int_vector(label, "label");
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
            out = failure(ptr, status);
        else
            *model = m;
    }
    UNPROTECT(1);
    return out;
}

/* A fit's calls of the library on a prepared handle (parameters set, progress
 * installed), given the entry point's arguments: returns the status of the fit. */

/* Every fit: a prepared handle, `call` on it, and its status turned into the results
 * of `kind`, a failure or the interrupted marker (finish). */
SEXP cs_r_run_fit(SEXP params, SEXP progress, int kind, cs_r_fit_call call, const void *args) {
    progress_state state;
    cs_model *model;
    SEXP ptr = PROTECT(prepare(params, progress, &state, &model));
    SEXP out = model == NULL ? ptr : finish(ptr, call(model, args), &state, kind);
    UNPROTECT(1);
    return out;
}

/* ------------------------------------------------------------------------------- */
/* The .Call entry points */

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
    check_int_vector(gold_item, "gold item");
    check_int_vector(gold_label, "gold label");
    check_real_or_null(initial_confusion, "the initial confusion matrices");
    check_real_or_null(initial_prior, "the initial prior");
    if (XLENGTH(gold_item) != XLENGTH(gold_label))
        Rf_error("crowdspec: gold items and labels must have the same length");
    check_int_vector(model_item, "model item");
    if (TYPEOF(model_probs) != REALSXP) Rf_error("crowdspec: model probabilities must be a double vector");
    const int k = Rf_asInteger(model_k);
    if (XLENGTH(model_item) > 0 && (k == NA_INTEGER || k < 1 ||
                                    XLENGTH(model_probs) / k != XLENGTH(model_item) ||
                                    XLENGTH(model_probs) % k != 0))
        Rf_error("crowdspec: model probabilities must be one row of model_k values per model item");
    const crowd_args args = {item, worker, label, gold_item, gold_label, initial_confusion,
                             initial_prior, R_NilValue, model_item, model_probs, k};
    return cs_r_run_fit(params, progress, R_CROWD_MODEL, call_fit_crowd, &args);
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
    return cs_r_run_fit(params, R_NilValue, R_CROWD, call_predict, &args);
}

typedef struct {
    const double *x;
    size_t n, d;
} points_args;

static cs_status call_fit_points(cs_model *model, const void *args) {
    const points_args *a = (const points_args *)args;
    return cs_fit_points(model, a->x, a->n, a->d, a->d);
}

/* x: the points as a d x n column-major matrix (R's t(X)), which is the library's
 * n x d row-major layout. */
SEXP cs_r_fit_points(SEXP x, SEXP params, SEXP progress) {
    SEXP dim = Rf_getAttrib(x, R_DimSymbol);
    if (TYPEOF(x) != REALSXP || TYPEOF(dim) != INTSXP || XLENGTH(dim) != 2)
        Rf_error("crowdspec: points must be a double matrix");
    const points_args args = {REAL(x), (size_t)INTEGER(dim)[1], (size_t)INTEGER(dim)[0]};
    return cs_r_run_fit(params, progress, R_POINTS, call_fit_points, &args);
}

typedef struct {
    SEXP u, v;
    size_t n_nodes;
} graph_args;

static cs_status call_fit_graph(cs_model *model, const void *args) {
    const graph_args *a = (const graph_args *)args;
    return cs_fit_graph(model, a->n_nodes, INTEGER(a->u), INTEGER(a->v), (size_t)XLENGTH(a->u));
}

SEXP cs_r_fit_graph(SEXP u, SEXP v, SEXP n_nodes, SEXP params, SEXP progress) {
    check_int_vector(u, "edge endpoints");
    check_int_vector(v, "edge endpoints");
    if (XLENGTH(u) != XLENGTH(v)) Rf_error("crowdspec: both edge columns must have the same length");
    const double n = Rf_asReal(n_nodes);
    if (!(n >= 0) || n != (double)(R_xlen_t)n) Rf_error("crowdspec: bad number of nodes");
    const graph_args args = {u, v, (size_t)n};
    return cs_r_run_fit(params, progress, R_GRAPH, call_fit_graph, &args);
}

typedef struct {
    SEXP worker, left, right, answer;
} comparison_args;

static cs_status call_fit_comparisons(cs_model *model, const void *args) {
    const comparison_args *a = (const comparison_args *)args;
    return cs_fit_comparisons(model, INTEGER(a->worker), INTEGER(a->left), INTEGER(a->right), INTEGER(a->answer),
                              (size_t)XLENGTH(a->left));
}

/* Comparisons: 0-based worker, left and right ids and answers (0 left, 1 right, 2 tie). */
SEXP cs_r_fit_comparisons(SEXP worker, SEXP left, SEXP right, SEXP answer, SEXP params, SEXP progress) {
    check_int_vector(worker, "worker");
    check_int_vector(left, "left");
    check_int_vector(right, "right");
    check_int_vector(answer, "answer");
    if (XLENGTH(worker) != XLENGTH(left) || XLENGTH(right) != XLENGTH(left) || XLENGTH(answer) != XLENGTH(left))
        Rf_error("crowdspec: worker, left, right and answer must have the same length");
    const comparison_args args = {worker, left, right, answer};
    return cs_r_run_fit(params, progress, R_COMPARISONS, call_fit_comparisons, &args);
}

typedef struct {
    SEXP item, worker, value;
} numbers_args;

static cs_status call_fit_numbers(cs_model *model, const void *args) {
    const numbers_args *a = (const numbers_args *)args;
    return cs_fit_numbers(model, INTEGER(a->item), INTEGER(a->worker), REAL(a->value), (size_t)XLENGTH(a->item));
}

SEXP cs_r_fit_numbers(SEXP item, SEXP worker, SEXP value, SEXP params, SEXP progress) {
    check_int_vector(item, "item");
    check_int_vector(worker, "worker");
    if (TYPEOF(value) != REALSXP) Rf_error("crowdspec: value must be a double vector");
    if (XLENGTH(worker) != XLENGTH(item) || XLENGTH(value) != XLENGTH(item))
        Rf_error("crowdspec: item, worker and value must have the same length");
    const numbers_args args = {item, worker, value};
    return cs_r_run_fit(params, progress, R_NUMBERS, call_fit_numbers, &args);
}

typedef struct {
    SEXP item, worker, tag;
    const int64_t *tag_start;
    int32_t n_tags;
} tags_args;

static cs_status call_fit_tags(cs_model *model, const void *args) {
    const tags_args *a = (const tags_args *)args;
    return cs_fit_tags(model, INTEGER(a->item), INTEGER(a->worker), a->tag_start, INTEGER(a->tag),
                       (size_t)XLENGTH(a->item), a->n_tags);
}

/* tag_start: a double vector of the n + 1 offsets (R has no 64-bit integers); tag:
 * 0-based tag ids; threshold: NULL-like (length 0), one value, or one per tag. */
SEXP cs_r_fit_tags(SEXP item, SEXP worker, SEXP tag_start, SEXP tag, SEXP n_tags, SEXP threshold, SEXP params,
                   SEXP progress) {
    check_int_vector(item, "item");
    check_int_vector(worker, "worker");
    check_int_vector(tag, "tag");
    if (TYPEOF(tag_start) != REALSXP || TYPEOF(threshold) != REALSXP)
        Rf_error("crowdspec: tag_start and threshold must be double vectors");
    if (XLENGTH(worker) != XLENGTH(item) || XLENGTH(tag_start) != XLENGTH(item) + 1)
        Rf_error("crowdspec: item, worker and the tag lists must have the same length");
    const R_xlen_t n = XLENGTH(tag_start);
    int64_t *start = (int64_t *)R_alloc((size_t)n, sizeof(int64_t));
    for (R_xlen_t i = 0; i < n; ++i) {
        const double v = REAL(tag_start)[i];
        if (!(v >= 0 && v <= (double)XLENGTH(tag)) || v != (double)(int64_t)v)
            Rf_error("crowdspec: tag_start[%lld] is not an offset into tag", (long long)i + 1);
        start[i] = (int64_t)v;
    }
    const tags_args args = {item, worker, tag, start, Rf_asInteger(n_tags)};
    current_thresholds.values = XLENGTH(threshold) ? REAL(threshold) : NULL;
    current_thresholds.n = (size_t)XLENGTH(threshold);
    SEXP out = cs_r_run_fit(params, progress, R_TAGS, call_fit_tags, &args);
    current_thresholds.values = NULL;
    current_thresholds.n = 0;
    return out;
}

/* ------------------------------------------------------------------------------- */
/* What the library offers */

SEXP cs_r_status_string(SEXP status) {
    return Rf_mkString(cs_status_string((cs_status)Rf_asInteger(status)));
}

SEXP cs_r_version(void) {
    const char *names[] = {"header", "library", "string", ""};
    SEXP out = PROTECT(Rf_mkNamed(VECSXP, names));
    SET_VECTOR_ELT(out, 0, Rf_ScalarInteger(CS_VERSION_NUMBER));
    SET_VECTOR_ELT(out, 1, Rf_ScalarInteger(cs_version_number()));
    SET_VECTOR_ELT(out, 2, Rf_mkString(cs_version_string()));
    UNPROTECT(1);
    return out;
}

SEXP cs_r_methods(void) {
    const int32_t count = cs_method_count();
    const char *names[] = {"name", "input", ""};
    SEXP out = PROTECT(Rf_mkNamed(VECSXP, names));
    SEXP name = list_element(out, 0, STRSXP, count);
    SEXP input = list_element(out, 1, INTSXP, count);
    for (int32_t i = 0; i < count; ++i) {
        const int32_t method = cs_method_at(i);
        const char *text = cs_method_name(method);
        SET_STRING_ELT(name, i, Rf_mkChar(text ? text : ""));
        INTEGER(input)[i] = cs_method_input(method);
    }
    UNPROTECT(1);
    return out;
}

SEXP cs_r_params(void) {
    const int32_t count = cs_param_count();
    const char *names[] = {"name", "id", "default", "lower", "upper", "integer", ""};
    SEXP out = PROTECT(Rf_mkNamed(VECSXP, names));
    SEXP name = list_element(out, 0, STRSXP, count);
    SEXP id = list_element(out, 1, INTSXP, count);
    SEXP def = list_element(out, 2, REALSXP, count);
    SEXP lower = list_element(out, 3, REALSXP, count);
    SEXP upper = list_element(out, 4, REALSXP, count);
    SEXP integer = list_element(out, 5, LGLSXP, count);
    for (int32_t i = 0; i < count; ++i) {
        const int32_t param = cs_param_at(i);
        const char *text = cs_param_name(param);
        int32_t is_int = 0;
        SET_STRING_ELT(name, i, Rf_mkChar(text ? text : ""));
        INTEGER(id)[i] = param;
        if (cs_param_info(param, REAL(lower) + i, REAL(upper) + i, REAL(def) + i, &is_int) != CS_OK) {
            REAL(lower)[i] = REAL(upper)[i] = REAL(def)[i] = NA_REAL;
            LOGICAL(integer)[i] = NA_LOGICAL;
        } else {
            LOGICAL(integer)[i] = is_int != 0;
        }
    }
    UNPROTECT(1);
    return out;
}

/* ------------------------------------------------------------------------------- */
/* Handles seen from R: for the tests of the finalizer (not exported) */

SEXP cs_r_live_handles(void) { return Rf_ScalarInteger(live_handles); }

SEXP cs_r_handle_new(void) { return new_handle(); }

SEXP cs_r_handle_destroy(SEXP ptr) {
    (void)handle_model(ptr);
    destroy_handle(ptr);
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
