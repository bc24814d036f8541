/* SPDX-License-Identifier: MIT */
/* The .Call routines of the other inputs: points, graphs, comparisons, numbers and
 * tags (each converts its vectors, then runs its cs_fit_* through cs_r_run_fit). */
#include <stdint.h>
#include <string.h>

#include <R.h>
#include <Rinternals.h>

#include <crowdspec/crowdspec.h>

#include "crowdspec_r.h"

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
    return cs_r_run_fit(params, progress, CS_INPUT_POINTS, call_fit_points, &args, NULL);
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
    cs_r_check_int_vector(u, "edge endpoints");
    cs_r_check_int_vector(v, "edge endpoints");
    if (XLENGTH(u) != XLENGTH(v)) Rf_error("crowdspec: both edge columns must have the same length");
    const double n = Rf_asReal(n_nodes);
    if (!(n >= 0) || n != (double)(R_xlen_t)n) Rf_error("crowdspec: bad number of nodes");
    const graph_args args = {u, v, (size_t)n};
    return cs_r_run_fit(params, progress, CS_INPUT_GRAPH, call_fit_graph, &args, NULL);
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
    cs_r_check_int_vector(worker, "worker");
    cs_r_check_int_vector(left, "left");
    cs_r_check_int_vector(right, "right");
    cs_r_check_int_vector(answer, "answer");
    if (XLENGTH(worker) != XLENGTH(left) || XLENGTH(right) != XLENGTH(left) || XLENGTH(answer) != XLENGTH(left))
        Rf_error("crowdspec: worker, left, right and answer must have the same length");
    const comparison_args args = {worker, left, right, answer};
    return cs_r_run_fit(params, progress, CS_INPUT_COMPARISONS, call_fit_comparisons, &args, NULL);
}

typedef struct {
    SEXP item, worker, value;
} numbers_args;

static cs_status call_fit_numbers(cs_model *model, const void *args) {
    const numbers_args *a = (const numbers_args *)args;
    return cs_fit_numbers(model, INTEGER(a->item), INTEGER(a->worker), REAL(a->value), (size_t)XLENGTH(a->item));
}

SEXP cs_r_fit_numbers(SEXP item, SEXP worker, SEXP value, SEXP params, SEXP progress) {
    cs_r_check_int_vector(item, "item");
    cs_r_check_int_vector(worker, "worker");
    if (TYPEOF(value) != REALSXP) Rf_error("crowdspec: value must be a double vector");
    if (XLENGTH(worker) != XLENGTH(item) || XLENGTH(value) != XLENGTH(item))
        Rf_error("crowdspec: item, worker and value must have the same length");
    const numbers_args args = {item, worker, value};
    return cs_r_run_fit(params, progress, CS_INPUT_NUMBERS, call_fit_numbers, &args, NULL);
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
    cs_r_check_int_vector(item, "item");
    cs_r_check_int_vector(worker, "worker");
    cs_r_check_int_vector(tag, "tag");
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
    const cs_r_collect_options thresholds = {XLENGTH(threshold) ? REAL(threshold) : NULL,
                                             (size_t)XLENGTH(threshold)};
    return cs_r_run_fit(params, progress, CS_INPUT_TAGS, call_fit_tags, &args, &thresholds);
}
