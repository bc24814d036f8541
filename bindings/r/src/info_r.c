/* SPDX-License-Identifier: MIT */
/* The .Call routines of what the library offers: status names, versions, methods and
 * parameters. */
#include <stdint.h>
#include <string.h>

#include <R.h>
#include <Rinternals.h>

#include <crowdspec/crowdspec.h>

#include "crowdspec_r.h"

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
    SEXP name = cs_r_list_element(out, 0, STRSXP, count);
    SEXP input = cs_r_list_element(out, 1, INTSXP, count);
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
    SEXP name = cs_r_list_element(out, 0, STRSXP, count);
    SEXP id = cs_r_list_element(out, 1, INTSXP, count);
    SEXP def = cs_r_list_element(out, 2, REALSXP, count);
    SEXP lower = cs_r_list_element(out, 3, REALSXP, count);
    SEXP upper = cs_r_list_element(out, 4, REALSXP, count);
    SEXP integer = cs_r_list_element(out, 5, LGLSXP, count);
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
