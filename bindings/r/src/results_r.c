/* SPDX-License-Identifier: MIT */
/* A fit's results read from its handle into a named R list (cs_r_collect), by input
 * kind: crowd labels (with the issue-34 scores and diagnostics, and the saved model of
 * a crowd fit), points, graphs, comparisons, numbers and tags. */
#include <stdint.h>
#include <string.h>

#include <R.h>
#include <Rinternals.h>

#include <crowdspec/crowdspec.h>

#include "crowdspec_r.h"

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
    SEXP score = cs_r_list_element(out, 22, REALSXP, (R_xlen_t)n);
    SEXP se = cs_r_list_element(out, 23, REALSXP, (R_xlen_t)n);
    SEXP rank = cs_r_list_element(out, 24, INTSXP, (R_xlen_t)n);
    cs_status s = cs_scores(model, REAL(score), REAL(se), INTEGER(rank), n);
    if (s) return s;
    SEXP reliability = cs_r_list_element(out, 25, REALSXP, (R_xlen_t)m);
    if (cs_worker_reliability(model, REAL(reliability), m) != CS_OK)
        SET_VECTOR_ELT(out, 25, Rf_allocVector(REALSXP, 0)); /* bt: none */
    size_t rows = 0;
    if (cs_estimate(model, "bias", NULL, 0, &rows, NULL) == CS_OK) {
        SEXP bias = cs_r_list_element(out, 26, REALSXP, (R_xlen_t)rows);
        s = cs_estimate(model, "bias", REAL(bias), rows, NULL, NULL);
    }
    return s;
}

/* The results of a numbers or tags fit (since 0.2), as a named list; then the handle
 * is destroyed. A tags fit's sets use the caller's thresholds (cs_tag_sets). */
static SEXP collect_answers(SEXP ptr, int kind, int stopped, const cs_r_collect_options *options) {
    cs_model *model = (cs_model *)R_ExternalPtrAddr(ptr);
    size_t n = 0, m = 0, T = 1, n_trace = 0;
    cs_status s;
    if ((s = cs_n_items(model, &n)) || (s = cs_n_workers(model, &m)) || (s = cs_trace_length(model, &n_trace)) ||
        (kind == R_TAGS && (s = cs_n_tags(model, &T))))
        return cs_r_failure(ptr, s);
    const R_xlen_t len_items = cs_r_checked_length(n, T), len_workers = cs_r_checked_length(m, T);
    if (len_items < 0 || len_workers < 0 || n_trace > (size_t)R_XLEN_T_MAX)
        return cs_r_out_of_memory_failure(ptr, "the results are too large for R vectors");
    const char *names[] = {"value", "se", "bias", "noise", "trace", "iterations", "converged", "notes",
                           "message", "n_items", "n_workers", "n_tags", "stopped", "probabilities",
                           "sets", "sensitivity", "specificity", ""};
    SEXP out = PROTECT(Rf_mkNamed(VECSXP, names));
    SEXP trace = cs_r_list_element(out, 4, REALSXP, (R_xlen_t)n_trace);
    int32_t iterations = 0, converged = 0, notes = 0;
    if ((n_trace > 0 && (s = cs_trace(model, REAL(trace), n_trace))) || (s = cs_iterations(model, &iterations)) ||
        (s = cs_converged(model, &converged)) || (s = cs_fit_notes(model, &notes))) {
        UNPROTECT(1);
        return cs_r_failure(ptr, s);
    }
    if (kind == R_NUMBERS) {
        SEXP value = cs_r_list_element(out, 0, REALSXP, (R_xlen_t)n), se = cs_r_list_element(out, 1, REALSXP, (R_xlen_t)n);
        SEXP bias = cs_r_list_element(out, 2, REALSXP, (R_xlen_t)m), noise = cs_r_list_element(out, 3, REALSXP, (R_xlen_t)m);
        if ((s = cs_number_estimates(model, REAL(value), REAL(se), n)) ||
            (s = cs_number_workers(model, REAL(bias), REAL(noise), m))) {
            UNPROTECT(1);
            return cs_r_failure(ptr, s);
        }
    } else {
        SEXP p = cs_r_list_element(out, 13, REALSXP, len_items), sets = cs_r_list_element(out, 14, INTSXP, len_items);
        SEXP sens = cs_r_list_element(out, 15, REALSXP, len_workers), spec = cs_r_list_element(out, 16, REALSXP, len_workers);
        if ((s = cs_tag_probabilities(model, REAL(p), (size_t)len_items)) ||
            (s = cs_tag_sets(model, options ? options->tag_thresholds : NULL, options ? options->n_tag_thresholds : 0,
                             INTEGER(sets), (size_t)len_items)) ||
            (s = cs_tag_workers(model, REAL(sens), REAL(spec), (size_t)len_workers))) {
            UNPROTECT(1);
            return cs_r_failure(ptr, s);
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
    cs_r_destroy_handle(ptr);
    UNPROTECT(1);
    return out;
}

/* Every result of the fit on the handle, as a named list; then the handle is
 * destroyed. `stopped` says that the R progress function ended the fit. */
SEXP cs_r_collect(SEXP ptr, int kind, int stopped, const cs_r_collect_options *options) {
    if (kind == R_TAGS || kind == R_NUMBERS) return collect_answers(ptr, kind, stopped, options);
    cs_model *model = (cs_model *)R_ExternalPtrAddr(ptr);
    const int with_model = kind == R_CROWD_MODEL;
    if (with_model) kind = R_CROWD;
    size_t n = 0, m = 0, k = 0, n_trace = 0, d = 0;
    cs_status s;
    if ((s = cs_n_items(model, &n)) || (s = cs_n_workers(model, &m)) ||
        (s = cs_n_classes(model, &k)) || (s = cs_trace_length(model, &n_trace)))
        return cs_r_failure(ptr, s);
    if (kind == R_POINTS && (s = cs_n_dims(model, &d))) return cs_r_failure(ptr, s);
    const R_xlen_t len_post = cs_r_checked_length(n, k);
    const R_xlen_t len_kk = cs_r_checked_length(k, k);
    const R_xlen_t len_conf = len_kk < 0 ? -1 : cs_r_checked_length(m, (size_t)len_kk);
    const R_xlen_t len_centres = cs_r_checked_length(k, d);
    if (n > (size_t)R_XLEN_T_MAX || len_post < 0 || len_conf < 0 || len_centres < 0 ||
        n_trace > (size_t)R_XLEN_T_MAX)
        return cs_r_out_of_memory_failure(ptr, "the results are too large for R vectors");

    const char *names[] = {"labels",     "posteriors", "confusion",      "prior",
                           "trace",      "iterations", "converged",      "log_likelihood",
                           "notes",      "message",    "n_items",        "n_workers",
                           "n_classes",  "stopped",    "centres",        "n_dims",
                           "densities",  "temperature", "mixing",        "calibration",
                           "median_grades", "mean_grades", "scores",     "se",
                           "ranks",      "reliability", "bias",         "model",
                           "label_next",  "spammer",     "worst_class",  "label_accuracy",
                           "accuracy_low", "accuracy_high", "model_confusion", "label_wrong", ""};
    SEXP out = PROTECT(Rf_mkNamed(VECSXP, names));
    SEXP labels = cs_r_list_element(out, 0, INTSXP, (R_xlen_t)n);
    SEXP post = cs_r_list_element(out, 1, REALSXP, len_post);
    SEXP conf = cs_r_list_element(out, 2, REALSXP, len_conf);
    SEXP prior = cs_r_list_element(out, 3, REALSXP, (R_xlen_t)k);
    SEXP trace = cs_r_list_element(out, 4, REALSXP, (R_xlen_t)n_trace);

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
        return cs_r_failure(ptr, s);
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
        SEXP centres = cs_r_list_element(out, 14, REALSXP, len_centres);
        if (len_centres > 0 && (s = cs_centres(model, REAL(centres), (size_t)len_centres))) {
            UNPROTECT(1);
            return cs_r_failure(ptr, s);
        }
        SET_VECTOR_ELT(out, 15, Rf_ScalarReal((double)d));
    } else if (kind == R_GRAPH) {
        SEXP dens = cs_r_list_element(out, 16, REALSXP, 2);
        if ((s = cs_graph_densities(model, REAL(dens), REAL(dens) + 1))) {
            UNPROTECT(1);
            return cs_r_failure(ptr, s);
        }
    } else if (kind == R_COMPARISONS) {
        if ((s = collect_ranking(model, out, n, m))) {
            UNPROTECT(1);
            return cs_r_failure(ptr, s);
        }
    } else {
        /* how the posteriors were calibrated (the Dawid-Skene family; T = 1 otherwise) */
        double temperature = 1, mixing = 0;
        int32_t source = CS_CALIBRATION_NONE;
        if ((s = cs_calibration(model, &temperature, &mixing, &source))) {
            UNPROTECT(1);
            return cs_r_failure(ptr, s);
        }
        SET_VECTOR_ELT(out, 17, Rf_ScalarReal(temperature));
        SET_VECTOR_ELT(out, 18, Rf_ScalarReal(mixing));
        SET_VECTOR_ELT(out, 19, Rf_ScalarInteger(source));
        if (n > 0) {
            /* Ordered grades only (an ordinal method or ordinal = 1): the library refuses
             * (CS_ERR_INVALID_ARGUMENT) otherwise, and both stay NULL. */
            SEXP median = PROTECT(Rf_allocVector(INTSXP, (R_xlen_t)n));
            if (cs_median_grades(model, INTEGER(median), n) == CS_OK) {
                SEXP mean = cs_r_list_element(out, 21, REALSXP, (R_xlen_t)n);
                if ((s = cs_mean_grades(model, REAL(mean), n))) {
                    UNPROTECT(2);
                    return cs_r_failure(ptr, s);
                }
                SET_VECTOR_ELT(out, 20, median);
            }
            UNPROTECT(1);
        }
        /* Issue 34: label-next scores and worker diagnostics (NULL when the fit has none). */
        SEXP next = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t)n));
        if (cs_label_next(model, REAL(next), n) == CS_OK) {
            SET_VECTOR_ELT(out, 28, next);
            SEXP spam = cs_r_list_element(out, 29, REALSXP, (R_xlen_t)m);
            SEXP worst = cs_r_list_element(out, 30, INTSXP, (R_xlen_t)m);
            SEXP acc = cs_r_list_element(out, 31, REALSXP, (R_xlen_t)m);
            SEXP low = cs_r_list_element(out, 32, REALSXP, (R_xlen_t)m);
            SEXP high = cs_r_list_element(out, 33, REALSXP, (R_xlen_t)m);
            if (m > 0 && (s = cs_worker_diagnostics(model, REAL(spam), INTEGER(worst), REAL(acc), REAL(low),
                                                    REAL(high), m))) {
                UNPROTECT(2);
                return cs_r_failure(ptr, s);
            }
            /* each of the fit's labels: the posterior probability that it is wrong */
            if (options != NULL && options->n_labels > 0) {
                SEXP wrong = cs_r_list_element(out, 35, REALSXP, (R_xlen_t)options->n_labels);
                if ((s = cs_label_wrong(model, (const int32_t *)options->label_item,
                                        (const int32_t *)options->label_class, options->n_labels, REAL(wrong)))) {
                    UNPROTECT(2);
                    return cs_r_failure(ptr, s);
                }
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
    cs_r_destroy_handle(ptr);
    UNPROTECT(1);
    return out;
}
