# SPDX-License-Identifier: MIT
#
# Numeric answers and sets of tags (libcrowdspec 0.2): crowdspec_numbers() and
# crowdspec_tags() take long data frames like crowdspec() and return the library's
# estimates with the data's own ids.

# Every value of `x` split into tags: a list column as it is, text split at `sep`.
.tag_lists <- function(x, sep) {
  if (is.list(x)) return(lapply(x, function(t) as.character(unlist(t))))
  x <- as.character(x)
  lapply(x, function(s) {
    if (is.na(s) || !nzchar(s)) return(character())
    parts <- trimws(strsplit(s, sep, fixed = TRUE)[[1L]])
    parts[nzchar(parts)]
  })
}

# The item and worker ids of an answers data frame (distinct values in .distinct's
# order), their 0-based codes, and the parameters for the library.
.answer_ids <- function(data, item, worker, method, user) {
  items_col <- .column(data, item, "item")
  workers_col <- .column(data, worker, "worker")
  items <- .distinct(items_col)
  workers <- .distinct(workers_col)
  list(items = items, workers = workers, i = .codes(items_col, items), w = .codes(workers_col, workers),
       params = .params(fixed = list(method = method, items = length(items), workers = length(workers)),
                        user = user, owned = c("method", "items", "workers")))
}

crowdspec_numbers <- function(data, item = "item", worker = "worker", value = "value", method = "auto", ...,
                              progress = NULL) {
  call <- match.call()
  if (!is.data.frame(data)) stop("data must be a data.frame of answers in long form", call. = FALSE)
  values_col <- .column(data, value, "value")
  if (!is.numeric(values_col)) stop("the value column must be numeric", call. = FALSE)
  ids <- .answer_ids(data, item, worker, method, list(...))
  items <- ids$items
  workers <- ids$workers
  w <- ids$w
  x <- as.double(values_col)
  r <- .run_fit(function(p) .Call(C_cs_r_fit_numbers, ids$i, w, x, ids$params, p), progress, call)
  fit <- structure(list(
    estimates = data.frame(item = items, value = r$value, se = r$se, row.names = NULL, stringsAsFactors = FALSE),
    workers = data.frame(worker = workers, answers = tabulate(w + 1L, nbins = length(workers)), bias = r$bias,
                         noise = r$noise, row.names = NULL, stringsAsFactors = FALSE),
    trace = r$trace, iterations = r$iterations, converged = r$converged, method = method,
    notes = .note_names(r$notes), message = r$message, call = call
  ), class = "crowdspec_numbers")
  .warn_notes(method, r$notes, r$message, call)
  fit
}

crowdspec_tags <- function(data, item = "item", worker = "worker", tags = "tags", method = "auto",
                           threshold = 0.5, sep = "|", ..., progress = NULL) {
  call <- match.call()
  if (!is.data.frame(data)) stop("data must be a data.frame of answers in long form", call. = FALSE)
  if (is.null(data[[tags]])) stop("no column '", tags, "' in data", call. = FALSE)
  lists <- .tag_lists(data[[tags]], sep)
  tag_names <- sort(unique(unlist(lists)), method = "radix")
  if (!length(tag_names)) stop("no answer has a tag", call. = FALSE)
  if (!is.numeric(threshold) || !(length(threshold) %in% c(1L, length(tag_names)))) {
    stop("threshold must be one number or one per tag (", length(tag_names), ")", call. = FALSE)
  }
  ids <- .answer_ids(data, item, worker, method, list(...))
  items <- ids$items
  workers <- ids$workers
  tag <- as.integer(match(unlist(lists), tag_names) - 1L)
  start <- as.double(c(0, cumsum(lengths(lists))))
  r <- .run_fit(function(p) {
    .Call(C_cs_r_fit_tags, ids$i, ids$w, start, tag, length(tag_names), as.double(threshold), ids$params, p)
  }, progress, call)
  n <- length(items)
  prob <- matrix(r$probabilities, nrow = n, byrow = TRUE, dimnames = list(as.character(items), tag_names))
  sets <- matrix(r$sets != 0L, nrow = n, byrow = TRUE, dimnames = dimnames(prob))
  m <- length(workers)
  sens <- matrix(r$sensitivity, nrow = m, byrow = TRUE, dimnames = list(as.character(workers), tag_names))
  spec <- matrix(r$specificity, nrow = m, byrow = TRUE, dimnames = dimnames(sens))
  fit <- structure(list(
    tags = data.frame(item = items, tags = apply(sets, 1L, function(s) paste(tag_names[s], collapse = sep)),
                      row.names = NULL, stringsAsFactors = FALSE),
    probabilities = prob, sets = sets, sensitivity = sens, specificity = spec,
    trace = r$trace, iterations = r$iterations, converged = r$converged, method = method,
    notes = .note_names(r$notes), message = r$message, call = call
  ), class = "crowdspec_tags")
  .warn_notes(method, r$notes, r$message, call)
  fit
}

print.crowdspec_numbers <- function(x, ...) {
  cat(sprintf("crowdspec numbers: method %s, %d items, %d workers; %d iterations, %s\n", x$method,
              nrow(x$estimates), nrow(x$workers), x$iterations, if (x$converged) "converged" else "not converged"))
  if (length(x$notes)) cat("  notes:", paste(x$notes, collapse = ", "), "\n")
  invisible(x)
}

print.crowdspec_tags <- function(x, ...) {
  cat(sprintf("crowdspec tags: method %s, %d items, %d tags, %d workers; %d iterations, %s\n", x$method,
              nrow(x$probabilities), ncol(x$probabilities), nrow(x$sensitivity), x$iterations,
              if (x$converged) "converged" else "not converged"))
  if (length(x$notes)) cat("  notes:", paste(x$notes, collapse = ", "), "\n")
  invisible(x)
}
