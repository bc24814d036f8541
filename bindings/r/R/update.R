# SPDX-License-Identifier: MIT
#
# update(fit, newdata): new labels folded into a fit without refitting from scratch,
# through the saved model that a fit of the Dawid-Skene family carries (fit$model, the
# bytes of cs_save_buffer). The model is a raw vector, so saveRDS() / readRDS() of a
# fit keep everything an update needs. model_probs (issue 34): a classifier's rows for
# items of the fit or of newdata, in the form crowdspec(model_probs =) takes; an item
# whose row is new or differs from the model's is refitted with it (cs_set_model_probs
# before cs_update), and the model keeps the rows and the classifier's matrix.

update.crowdspec_fit <- function(object, newdata = NULL, refit = FALSE, ...,
                                 model_probs = NULL, progress = NULL) {
  call <- match.call()
  if (is.null(object$model)) {
    stop("this fit carries no saved model: only fits of the Dawid-Skene family (ds, ",
         "opt-ds, one-coin-ds, class-one-coin-ds, auto) with keep_labels = 1 (the ",
         "default) can be updated", call. = FALSE)
  }
  if (!is.logical(refit) || length(refit) != 1L || is.na(refit)) {
    stop("refit must be TRUE or FALSE", call. = FALSE)
  }
  columns <- object$columns
  items <- object$items
  workers <- object$workers
  item_code <- worker_code <- label_code <- integer()
  if (!is.null(newdata)) {
    if (!is.data.frame(newdata)) {
      stop("newdata must be a data.frame of labels in long form", call. = FALSE)
    }
    items_col <- .column(newdata, columns$item, "item")
    workers_col <- .column(newdata, columns$worker, "worker")
    labels_col <- .column(newdata, columns$label, "label")
    # Known items and workers keep their codes; new ones follow, sorted as a fit sorts.
    grow <- function(known, col) {
      fresh <- .codes(col, known) < 0L & !is.na(col)
      if (!any(fresh)) return(known)
      .append_values(known, as.vector(.distinct(col[fresh]), mode = typeof(known)))
    }
    items <- grow(items, items_col)
    workers <- grow(workers, workers_col)
    item_code <- .codes(items_col, items)
    worker_code <- .codes(workers_col, workers)
    label_code <- .codes(as.character(labels_col), object$classes)
    bad <- label_code < 0L & !is.na(labels_col)
    if (any(bad)) {
      row <- which(bad)[1L]
      stop("newdata's label ", encodeString(as.character(labels_col[row]), quote = "\""),
           " (row ", row, ") is not a class of the fit (",
           paste(object$classes, collapse = ", "), ")", call. = FALSE)
    }
  }
  params <- .params(fixed = list(), user = list(...),
                    owned = c("method", "items", "workers", "classes"))
  id_column <- if (is.null(columns$item)) "item" else columns$item
  model <- .model_rows(model_probs, id_column, items, object$classes)
  r <- tryCatch(.run_fit(function(p) {
    .Call(C_cs_r_update, object$model, item_code, worker_code, label_code, refit, params,
          model$item, model$probs, length(object$classes), p)
  }, progress, call), crowdspec_error = function(e) stop(.name_model_row(e, model, items)))
  m <- length(workers)
  counts <- c(as.integer(object$worker_labels), integer(m - length(object$workers))) +
    tabulate(worker_code[worker_code >= 0L] + 1L, nbins = m)
  fit <- .crowd_fit(r, object$method, items, workers, object$classes, object$class_values,
                    columns, object$n_labels + length(item_code), counts, object$params,
                    call)
  # "incremental" is what an update is, not a warning: it stays in fit$notes only.
  .warn_notes(if (refit) "refit" else "update",
              bitwAnd(r$notes, bitwNot(.note_bits[["incremental"]])), r$message, call, items)
  fit
}
