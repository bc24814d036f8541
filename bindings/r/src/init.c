/* SPDX-License-Identifier: MIT */
/* Registration of the .Call routines (the NAMESPACE's useDynLib(.registration = TRUE)
 * makes them R objects named C_<routine>); no symbol is looked up dynamically. */
#include <R.h>
#include <R_ext/Rdynload.h>
#include <Rinternals.h>

#include "crowdspec_r.h"

#define ENTRY(name, n) {#name, (DL_FUNC)&name, n}

static const R_CallMethodDef call_entries[] = {
    ENTRY(cs_r_fit_crowd, 12),
    ENTRY(cs_r_predict, 7),
    ENTRY(cs_r_update, 10),
    ENTRY(cs_r_predict_model, 8),
    ENTRY(cs_r_fit_points, 3),
    ENTRY(cs_r_fit_graph, 5),
    ENTRY(cs_r_fit_comparisons, 6),
    ENTRY(cs_r_fit_numbers, 5),
    ENTRY(cs_r_fit_tags, 8),
    ENTRY(cs_r_status_string, 1),
    ENTRY(cs_r_version, 0),
    ENTRY(cs_r_methods, 0),
    ENTRY(cs_r_params, 0),
    ENTRY(cs_r_live_handles, 0),
    ENTRY(cs_r_handle_new, 0),
    ENTRY(cs_r_handle_destroy, 1),
    ENTRY(cs_r_handle_set, 3),
    ENTRY(cs_r_handle_n_items, 1),
    {NULL, NULL, 0}};

void R_init_crowdspec(DllInfo *info) {
    R_registerRoutines(info, NULL, call_entries, NULL, NULL);
    R_useDynamicSymbols(info, FALSE);
    R_forceSymbols(info, TRUE);
}
