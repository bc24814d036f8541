/* SPDX-License-Identifier: MIT */
/* The .Call routines of crowdspec_r.c, registered by init.c. */
#ifndef CROWDSPEC_R_H
#define CROWDSPEC_R_H

#include <Rinternals.h>

#include <crowdspec/crowdspec.h>

/* Shared by crowdspec_r.c and update_r.c. */

/* A fit's calls of the library on a prepared handle (parameters set, progress
 * installed), given the entry point's arguments: returns the status of the fit. */
typedef cs_status (*cs_r_fit_call)(cs_model *model, const void *args);
/* The results kind of a crowd fit that returns its saved model too ("model"). */
enum { CS_R_CROWD_MODEL = 64 };
/* Every fit: a prepared handle, `call` on it, its status turned into the results of
 * `kind` (an input kind or CS_R_CROWD_MODEL), a failure or the interrupted marker. */
SEXP cs_r_run_fit(SEXP params, SEXP progress, int kind, cs_r_fit_call call, const void *args);
/* Parameters: a named character vector, each entry given to cs_set_param_string. */
cs_status cs_r_set_params(cs_model *model, SEXP params);
/* item, worker and label: integer vectors of one length (an R error otherwise). */
void cs_r_check_crowd_labels(SEXP item, SEXP worker, SEXP label);
/* The handle's saved model as a raw vector in out[index]; nothing when it cannot be saved. */
void cs_r_put_saved_model(cs_model *model, SEXP out, R_xlen_t index);

void cs_r_init_tag(void);

SEXP cs_r_fit_crowd(SEXP item, SEXP worker, SEXP label, SEXP params, SEXP gold_item,
                    SEXP gold_label, SEXP initial_confusion, SEXP initial_prior,
                    SEXP model_item, SEXP model_probs, SEXP model_k, SEXP progress);
SEXP cs_r_update(SEXP bytes, SEXP item, SEXP worker, SEXP label, SEXP refit, SEXP params,
                 SEXP progress);
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
