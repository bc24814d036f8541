# SPDX-License-Identifier: MIT
#
# Errors, warnings and interrupts: the library's statuses and notes as R conditions,
# and the wrapper that runs a fit with an optional R progress function.

# The bits of cs_fit_notes() (enum cs_fit_note in crowdspec.h), by name.
.note_bits <- c(
  max_iter_reached = 1L,
  spectral_fallback = 2L,
  impossible_items = 4L,
  unlabeled_items = 8L,
  cancelled = 16L,
  ignored_edges = 32L,
  isolated_nodes = 64L,
  empty_cluster = 128L,
  label_cycle = 256L,
  eigen_not_converged = 512L,
  majority_start = 1024L,
  unknown_workers = 65536L,
  degenerate_maximum = 131072L,
  approximate_se = 4194304L,
  variance_floor = 8388608L,
  incremental = 16777216L,
  crowdlab_fallback = 33554432L
)

# Names of the bits set in a cs_fit_notes() value; a bit this table does not know
# (one the library gained later) is "note_<bit>".
.note_names <- function(notes) {
  notes <- as.integer(notes)
  out <- character()
  bit <- 1
  while (bit <= notes) {
    if (bitwAnd(notes, as.integer(bit)) != 0L) {
      known <- names(.note_bits)[.note_bits == bit]
      out <- c(out, if (length(known)) known else paste0("note_", bit))
    }
    bit <- bit * 2
  }
  out
}

# The condition for a failed status: classes crowdspec_<name> (from cs_status_string,
# e.g. "CS_ERR_INVALID_ID" -> crowdspec_invalid_id), crowdspec_error, error.
.crowdspec_condition <- function(status, status_name, message, call = NULL) {
  short <- tolower(sub("^CS_(ERR_)?", "", status_name))
  text <- if (nzchar(message)) paste0(status_name, ": ", message) else status_name
  structure(
    class = c(paste0("crowdspec_", short), "crowdspec_error", "error", "condition"),
    list(message = text, call = call, status = as.integer(status),
         status_name = status_name, last_error = message)
  )
}

# Raise the condition of a failure returned by a .Call routine; pass anything else.
.check <- function(result, call = NULL) {
  if (inherits(result, "crowdspec_failure")) {
    stop(.crowdspec_condition(result$status, result$status_name, result$message, call))
  }
  result
}

# The library's message with its 0-based item numbers ("item 17": a whole word "item",
# a blank and at most nine digits) given as the data's item values ("item 'T-17'"), as
# the CLI and the Python binding's DataFrame estimators name them; numbers beyond
# `items` are left as they are.
.name_items <- function(text, items) {
  if (!nzchar(text)) return(text)
  hits <- gregexpr("(?<![[:alnum:]_])item [0-9]{1,9}(?![[:alnum:]_])", text, perl = TRUE)
  found <- regmatches(text, hits)[[1L]]
  if (length(found) == 0L) return(text)
  j <- as.numeric(substring(found, 6L)) + 1
  known <- j <= length(items)
  found[known] <- paste0("item '", as.character(items)[j[known]], "'")
  regmatches(text, hits) <- list(found)
  text
}

# A warning of class crowdspec_warning naming the notes of a successful fit; with
# `items` (the fit's item values in code order), its text names them (.name_items).
.warn_notes <- function(method, notes, message, call = NULL, items = NULL) {
  if (notes == 0L) return(invisible())
  names <- .note_names(notes)
  text <- paste0("crowdspec ", method, ": ", paste(names, collapse = ", "))
  # The warning names items as the data does; last_error keeps the library's text.
  if (nzchar(message)) text <- paste0(text, ": ", if (is.null(items)) message else .name_items(message, items))
  warning(structure(
    class = c("crowdspec_warning", "warning", "condition"),
    list(message = text, call = call, notes = names, last_error = message)
  ))
  invisible()
}

# Run a fit. `fit(progress)` performs the .Call with the given progress function
# (or NULL). A user progress function runs inside tryCatch, so that nothing it does
# unwinds the library: its errors are kept and raised again after the fit, an
# interrupt while it runs counts as Ctrl-C. Ctrl-C during the fit (seen by the C
# callback through R_CheckUserInterrupt) ends it at the next iteration; once the
# library has returned and the handle is freed, the interrupt is signalled again as
# a condition of class "interrupt" and R returns to the top level, as it does after
# an uninterrupted Ctrl-C.
.run_fit <- function(fit, progress, call) {
  if (!is.null(progress) && !is.function(progress)) {
    stop("progress must be a function(iteration, objective) or NULL", call. = FALSE)
  }
  state <- new.env(parent = emptyenv())
  state$error <- NULL
  state$interrupted <- FALSE
  wrapped <- NULL
  if (!is.null(progress)) {
    wrapped <- function(iteration, objective) {
      tryCatch(isTRUE(progress(iteration, objective)),
               error = function(e) {
                 state$error <- e
                 TRUE
               },
               interrupt = function(e) {
                 state$interrupted <- TRUE
                 TRUE
               })
    }
  }
  result <- .check(fit(wrapped), call)
  if (isTRUE(result$interrupted) || state$interrupted) {
    cond <- structure(class = c("interrupt", "condition"),
                      list(message = "crowdspec: fit interrupted", call = call))
    signalCondition(cond)
    invokeRestart("abort")
  }
  if (!is.null(state$error)) stop(state$error)
  result
}
