# SPDX-License-Identifier: MIT
#
# What a crowdspec_fit gives: labels, posteriors, confusion matrices, class prior,
# and the print, summary, as.data.frame and plot methods.

.label_factor <- function(x) {
  factor(x$classes[x$label_codes + 1L], levels = x$classes)
}

.confidence <- function(x) {
  x$posteriors[cbind(seq_len(nrow(x$posteriors)), x$label_codes + 1L)]
}

labels.crowdspec_fit <- function(object, ...) {
  data.frame(item = object$items, label = .label_factor(object),
             confidence = .confidence(object), row.names = NULL,
             stringsAsFactors = FALSE)
}

class_probabilities <- function(fit, ...) UseMethod("class_probabilities")

class_probabilities.crowdspec_fit <- function(fit, ...) fit$posteriors

confusion <- function(fit, ...) UseMethod("confusion")

confusion.crowdspec_fit <- function(fit, ...) fit$confusion

class_prior <- function(fit, ...) UseMethod("class_prior")

class_prior.crowdspec_fit <- function(fit, ...) fit$prior

class_prior.crowdspec_clusters <- function(fit, ...) fit$prior

class_prior.crowdspec_communities <- function(fit, ...) fit$prior

worker_accuracy <- function(fit, ...) UseMethod("worker_accuracy")

# The chance that a worker's label is right: sum over classes of prior x diagonal.
worker_accuracy.crowdspec_fit <- function(fit, ...) {
  m <- length(fit$workers)
  k <- length(fit$classes)
  acc <- numeric(m)
  for (l in seq_len(k)) acc <- acc + fit$prior[l] * fit$confusion[, l, l]
  stats::setNames(acc, as.character(fit$workers))
}

as.data.frame.crowdspec_fit <- function(x, row.names = NULL, optional = FALSE, ...) {
  out <- data.frame(item = x$items, label = .label_factor(x), confidence = .confidence(x),
                    row.names = row.names, stringsAsFactors = FALSE)
  post <- as.data.frame(unname(x$posteriors))
  names(post) <- paste0("p_", x$classes)
  out <- cbind(out, post)
  if (!optional) names(out) <- make.unique(names(out))
  out
}

print.crowdspec_fit <- function(x, ...) {
  cat(sprintf("crowdspec fit: method %s, %d items, %d workers, %d classes, %d labels\n",
              x$method, length(x$items), length(x$workers), length(x$classes), x$n_labels))
  cat(sprintf("  %d iterations, %s", x$iterations,
              if (x$converged) "converged" else "not converged"))
  if (length(x$trace)) cat(sprintf(", log-likelihood %.10g", x$log_likelihood))
  cat("\n")
  if (!is.null(x$calibration) && x$calibration != "none") {
    cat(sprintf("  posteriors calibrated (%s): temperature %.4g, prior weight %.4g\n",
                x$calibration, x$temperature, x$mixing))
  }
  if (length(x$notes)) cat("  notes:", paste(x$notes, collapse = ", "), "\n")
  cat("  class prior:\n")
  print(round(x$prior, 4), ...)
  cat("  labels:\n")
  print(table(label = .label_factor(x)), ...)
  invisible(x)
}

summary.crowdspec_fit <- function(object, ...) {
  acc <- worker_accuracy(object)
  workers <- data.frame(worker = object$workers,
                        labels = as.integer(object$worker_labels),
                        accuracy = unname(acc), row.names = NULL,
                        stringsAsFactors = FALSE)
  conf <- .confidence(object)
  structure(list(
    method = object$method,
    n_items = length(object$items),
    n_workers = length(object$workers),
    n_labels = object$n_labels,
    classes = object$classes,
    prior = object$prior,
    label_counts = table(label = .label_factor(object)),
    confidence = summary(conf),
    workers = workers,
    iterations = object$iterations,
    converged = object$converged,
    log_likelihood = object$log_likelihood,
    notes = object$notes
  ), class = "summary.crowdspec_fit")
}

print.summary.crowdspec_fit <- function(x, ...) {
  cat(sprintf("crowdspec fit: method %s, %d items, %d workers, %d labels\n",
              x$method, x$n_items, x$n_workers, x$n_labels))
  cat(sprintf("  %d iterations, %s, log-likelihood %.10g\n", x$iterations,
              if (x$converged) "converged" else "not converged", x$log_likelihood))
  if (length(x$notes)) cat("  notes:", paste(x$notes, collapse = ", "), "\n")
  cat("\nClasses (prior, items labelled):\n")
  print(data.frame(prior = round(unname(x$prior), 4), items = as.integer(x$label_counts),
                   row.names = x$classes), ...)
  cat("\nConfidence of the labels:\n")
  print(x$confidence, ...)
  cat("\nWorkers (accuracy = sum over classes of prior x P(right | class)):\n")
  w <- x$workers
  w$accuracy <- round(w$accuracy, 4)
  w <- w[order(-w$labels, -w$accuracy), , drop = FALSE]
  shown <- utils::head(w, 10L)
  print(shown, row.names = FALSE, ...)
  if (nrow(w) > nrow(shown)) cat(sprintf("  ... and %d more workers\n", nrow(w) - nrow(shown)))
  invisible(x)
}

plot.crowdspec_fit <- function(x, which = c("accuracy", "confusion"), worker = NULL, ...) {
  which <- match.arg(which, several.ok = TRUE)
  if (length(which) > 1L) {
    old <- graphics::par(mfrow = c(1L, length(which)))
    on.exit(graphics::par(old))
  }
  out <- list()
  if ("accuracy" %in% which) {
    acc <- sort(worker_accuracy(x), decreasing = TRUE)
    graphics::barplot(acc, names.arg = if (length(acc) <= 30L) names(acc) else NA,
                      las = 2, ylim = c(0, 1), border = NA, col = "steelblue",
                      ylab = "accuracy", main = "Worker accuracy", ...)
    graphics::abline(h = 1 / length(x$classes), lty = 2, col = "grey40")
    out$accuracy <- acc
  }
  if ("confusion" %in% which) {
    k <- length(x$classes)
    if (is.null(worker)) {
      # all workers pooled, each weighted by the number of labels they gave
      w <- as.numeric(x$worker_labels)
      mat <- apply(x$confusion, c(2L, 3L), function(p) sum(w * p)) / max(sum(w), 1)
      title <- "Confusion (all workers)"
    } else {
      if (length(worker) != 1L || !as.character(worker) %in% dimnames(x$confusion)$worker) {
        stop("worker must be one of the fit's workers", call. = FALSE)
      }
      mat <- x$confusion[as.character(worker), , ]
      title <- paste("Confusion of worker", worker)
    }
    dimnames(mat) <- list(true = x$classes, observed = x$classes)
    # rows: true class from the top; columns: observed class
    graphics::image(seq_len(k), seq_len(k), t(mat[rev(seq_len(k)), , drop = FALSE]),
                    zlim = c(0, 1), col = grDevices::hcl.colors(64, "Blues 3", rev = TRUE),
                    axes = FALSE, xlab = "observed", ylab = "true", main = title)
    graphics::axis(1, at = seq_len(k), labels = x$classes)
    graphics::axis(2, at = seq_len(k), labels = rev(x$classes), las = 1)
    graphics::text(rep(seq_len(k), each = k), rep(seq_len(k), times = k),
                   sprintf("%.2f", t(mat[rev(seq_len(k)), , drop = FALSE])[cbind(
                     rep(seq_len(k), each = k), rep(seq_len(k), times = k))]),
                   cex = 0.8)
    graphics::box()
    out$confusion <- mat
  }
  invisible(out)
}

# Label a new batch with a fit's workers: one E-step (cs_predict) with the fit's
# confusion matrices and prior, calibrated as the fit was (cs_set_initial_calibration
# with its temperature and mixing). Workers the fit did not see get ids after its own;
# the library weighs them by the mean matrix and notes unknown_workers. model_probs
# (issue 34): a classifier's rows for items of newdata (the form crowdspec(model_probs =)
# takes), weighed by the classifier's matrix the fit estimated: the E-step runs on the
# fit's saved model (fit$model, cs_predict_model_probs), which must have a classifier.
predict.crowdspec_fit <- function(object, newdata, type = c("labels", "probabilities"),
                                  item = object$columns$item,
                                  worker = object$columns$worker,
                                  label = object$columns$label, ..., model_probs = NULL) {
  call <- match.call()
  type <- match.arg(type)
  if (!is.data.frame(newdata)) {
    stop("newdata must be a data.frame of labels in long form", call. = FALSE)
  }
  if (is.null(item)) item <- "item"
  if (is.null(worker)) worker <- "worker"
  if (is.null(label)) label <- "label"
  items_col <- .column(newdata, item, "item")
  workers_col <- .column(newdata, worker, "worker")
  labels_col <- .column(newdata, label, "label")

  items <- .distinct(items_col)
  item_code <- .codes(items_col, items)
  m <- length(object$workers)
  worker_code <- .codes(workers_col, object$workers)
  new <- worker_code < 0L & !is.na(workers_col)
  if (any(new)) {
    unseen <- unique(workers_col[new])
    worker_code[new] <- m + .codes(workers_col[new], unseen)
  }
  values <- if (is.null(object$class_values)) object$classes else object$class_values
  label_code <- if (is.factor(labels_col) || is.factor(values)) {
    .codes(as.character(labels_col), as.character(values))
  } else {
    .codes(labels_col, values)
  }
  bad <- label_code < 0L & !is.na(labels_col)
  if (any(bad)) {
    row <- which(bad)[1L]
    stop("newdata's label ", encodeString(as.character(labels_col[row]), quote = "\""),
         " (row ", row, ") is not a class of the fit (", paste(object$classes, collapse = ", "),
         ")", call. = FALSE)
  }

  # the fit's support and threads, unless given here; any other library parameter too
  user <- list(...)
  carried <- object$params[intersect(names(object$params), c("support", "threads"))]
  carried <- as.list(carried[setdiff(names(carried), names(user))])
  params <- .params(fixed = list(), user = c(carried, user),
                    owned = c("method", "items", "workers", "classes"))
  if (!is.null(model_probs)) {
    if (is.null(object$model) || is.null(object$model_confusion)) {
      stop("predict with model_probs needs a fit with a classifier that carries its saved model ",
           "(crowdspec(..., model_probs =) of the Dawid-Skene family with keep_labels = 1)",
           call. = FALSE)
    }
    model <- .model_rows(model_probs, item, items, object$classes)
    r <- tryCatch(.check(.Call(C_cs_r_predict_model, object$model, item_code, worker_code, label_code,
                               model$item, model$probs, length(object$classes), params), call),
                  crowdspec_error = function(e) stop(.name_model_row(e, model, items)))
  } else {
    confusion <- as.double(aperm(object$confusion, c(3L, 2L, 1L)))  # row-major
    calibration <- if (is.null(object$temperature)) NULL else
      as.double(c(object$temperature, object$mixing))
    r <- .check(.Call(C_cs_r_predict, item_code, worker_code, label_code, confusion,
                      as.double(object$prior), params, calibration), call)
  }
  n <- length(items)
  classes <- object$classes
  posteriors <- matrix(r$posteriors, nrow = n, ncol = length(classes), byrow = TRUE,
                       dimnames = list(item = as.character(items), class = classes))
  .warn_notes("predict", r$notes, r$message, call, items)
  if (type == "probabilities") return(posteriors)
  data.frame(item = items, label = factor(classes[r$labels + 1L], levels = classes),
             confidence = posteriors[cbind(seq_len(n), r$labels + 1L)],
             row.names = NULL, stringsAsFactors = FALSE)
}
