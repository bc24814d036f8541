/* SPDX-License-Identifier: MIT */
/* The .Call routines of the package (registered by init.c) and what its C files share. */
#ifndef CROWDSPEC_R_H
#define CROWDSPEC_R_H

#include <Rinternals.h>

#include <crowdspec/crowdspec.h>

/* Shared by the package's C files (crowdspec_r.c holds the machinery of a fit). */

/* A fit's calls of the library on a prepared handle (parameters set, progress
 * installed), given the entry point's arguments: returns the status of the fit. */
typedef cs_status (*cs_r_fit_call)(cs_model *model, const void *args);
/* The results kind of a crowd fit that returns its saved model too ("model"). */
enum { CS_R_CROWD_MODEL = 64 };
/* What reading a fit's results needs beyond the handle, owned by the caller for the
 * call: a tags fit's thresholds for cs_tag_sets (NULL, 0: the library's default); a
 * crowd fit's labels (0-based item codes and class codes, n_labels of each; NULL, 0:
 * none) for cs_label_wrong. */
typedef struct {
    const double *tag_thresholds;
    size_t n_tag_thresholds;
    const int *label_item;
    const int *label_class;
    size_t n_labels;
} cs_r_collect_options;
/* Every fit: a prepared handle, `call` on it, its status turned into the results of
 * `kind` (an input kind or CS_R_CROWD_MODEL; options may be NULL), a failure or the
 * interrupted marker. */
SEXP cs_r_run_fit(SEXP params, SEXP progress, int kind, cs_r_fit_call call, const void *args,
                  const cs_r_collect_options *options);
/* The results of the fit on the handle as a named list (results_r.c); then the handle
 * is destroyed. `stopped`: the R progress function ended the fit. */
SEXP cs_r_collect(SEXP ptr, int kind, int stopped, const cs_r_collect_options *options);
/* Parameters: a named character vector, each entry given to cs_set_param_string. */
cs_status cs_r_set_params(cs_model *model, SEXP params);
/* item, worker and label: integer vectors of one length (an R error otherwise). */
void cs_r_check_crowd_labels(SEXP item, SEXP worker, SEXP label);
/* An R error unless x is an integer vector. */
void cs_r_check_int_vector(SEXP x, const char *what);
/* The handle's saved model as a raw vector in out[index]; nothing when it cannot be saved. */
void cs_r_put_saved_model(cs_model *model, SEXP out, R_xlen_t index);

/* Destroys the model of a handle (an external pointer owning a cs_model), once: the
 * pointer is cleared first. */
void cs_r_destroy_handle(SEXP ptr);
/* The failure of a call on the handle (cs_last_error copied), then the handle destroyed. */
SEXP cs_r_failure(SEXP ptr, cs_status status);
SEXP cs_r_out_of_memory_failure(SEXP ptr, const char *what);
/* A new vector of `type` and length n, stored as element i of the list `out`. */
SEXP cs_r_list_element(SEXP out, R_xlen_t i, SEXPTYPE type, R_xlen_t n);
/* a * b as an R vector length, or -1 when it does not fit. */
R_xlen_t cs_r_checked_length(size_t a, size_t b);

SEXP cs_r_fit_crowd(SEXP item, SEXP worker, SEXP label, SEXP params, SEXP gold_item,
                    SEXP gold_label, SEXP initial_confusion, SEXP initial_prior,
                    SEXP model_item, SEXP model_probs, SEXP model_k, SEXP progress);
SEXP cs_r_update(SEXP bytes, SEXP item, SEXP worker, SEXP label, SEXP refit, SEXP params,
                 SEXP model_item, SEXP model_probs, SEXP model_k, SEXP progress);
SEXP cs_r_predict_model(SEXP bytes, SEXP item, SEXP worker, SEXP label, SEXP model_item, SEXP model_probs,
                        SEXP model_k, SEXP params);
SEXP cs_r_predict(SEXP item, SEXP worker, SEXP label, SEXP confusion, SEXP prior,
                  SEXP params, SEXP calibration);
SEXP cs_r_fit_points(SEXP x, SEXP params, SEXP progress);
SEXP cs_r_fit_graph(SEXP u, SEXP v, SEXP n_nodes, SEXP params, SEXP progress);
SEXP cs_r_fit_comparisons(SEXP worker, SEXP left, SEXP right, SEXP answer, SEXP params, SEXP progress);
SEXP cs_r_fit_numbers(SEXP item, SEXP worker, SEXP value, SEXP params, SEXP progress);
SEXP cs_r_fit_tags(SEXP item, SEXP worker, SEXP tag_start, SEXP tag, SEXP n_tags, SEXP threshold, SEXP params,
                   SEXP progress);
SEXP cs_r_status_string(SEXP status);
SEXP cs_r_version(void);
SEXP cs_r_methods(void);
SEXP cs_r_params(void);
SEXP cs_r_live_handles(void);
SEXP cs_r_handle_new(void);
SEXP cs_r_handle_destroy(SEXP ptr);
SEXP cs_r_handle_set(SEXP ptr, SEXP name, SEXP value);
SEXP cs_r_handle_n_items(SEXP ptr);

#endif
