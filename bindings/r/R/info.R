# SPDX-License-Identifier: MIT
#
# What the loaded library offers: methods, parameters, version.

.input_kinds <- c("crowd", "points", "graph", "comparisons", "tags", "numbers")

crowdspec_methods <- function(kind = NULL) {
  r <- .Call(C_cs_r_methods)
  input <- .input_kinds[r$input]
  if (is.null(kind)) return(stats::setNames(r$name, input))
  kind <- match.arg(kind, .input_kinds)
  r$name[input == kind]
}

crowdspec_params <- function() {
  r <- .Call(C_cs_r_params)
  data.frame(name = r$name, id = r$id, default = r$default, lower = r$lower,
             upper = r$upper, integer = r$integer, stringsAsFactors = FALSE)
}

crowdspec_version <- function() {
  .Call(C_cs_r_version)$string
}

# Internal, for the tests: the name of a status code (cs_status_string), the number of
# live library handles, and a bare handle to watch the finalizer with.
.status_name <- function(status) .Call(C_cs_r_status_string, as.integer(status))
.live_handles <- function() .Call(C_cs_r_live_handles)
.handle_new <- function() .Call(C_cs_r_handle_new)
.handle_destroy <- function(handle) invisible(.Call(C_cs_r_handle_destroy, handle))
.handle_set <- function(handle, name, value) {
  invisible(.check(.Call(C_cs_r_handle_set, handle, as.character(name), as.character(value))))
}
.handle_n_items <- function(handle) .check(.Call(C_cs_r_handle_n_items, handle))
