/* SPDX-License-Identifier: MIT */
/* The .Call routines of crowdspec_r.c, registered by init.c. */
#ifndef CROWDSPEC_R_H
#define CROWDSPEC_R_H

#include <Rinternals.h>

void cs_r_init_tag(void);

SEXP cs_r_fit_crowd(SEXP item, SEXP worker, SEXP label, SEXP params, SEXP gold_item,
                    SEXP gold_label, SEXP initial_confusion, SEXP initial_prior,
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
