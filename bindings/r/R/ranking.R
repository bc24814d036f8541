# SPDX-License-Identifier: MIT
#
# Pairwise comparisons (crowdspec_rank): rank items from "which is better?" answers.

crowdspec_rank <- function(data, method = "bt", ..., progress = NULL) {
  call <- match.call()
  if (!is.data.frame(data) || !all(c("left", "right", "label") %in% names(data))) {
    stop("data must be a data.frame with columns left, right and label (and worker)", call. = FALSE)
  }
  if (!is.character(method) || length(method) != 1L || is.na(method)) {
    stop("method must be one method name: \"bt\", \"noisy-bt\" or \"crowd-bt\"", call. = FALSE)
  }
  left <- data$left
  right <- data$right
  label <- data$label
  for (x in list(left, right, label)) .check_atomic(x, "left, right and label")
  if (is.factor(left) || is.factor(right) || is.factor(label)) {
    left <- as.character(left)
    right <- as.character(right)
    label <- as.character(label)
  }
  if (anyNA(left) || anyNA(right)) stop("a left or right item is missing", call. = FALSE)
  # label is the preferred item (crowd-kit's contract); NA is a tie.
  answer <- ifelse(is.na(label), 2L, ifelse(label == left, 0L, ifelse(label == right, 1L, -1L)))
  bad <- which(answer < 0L)
  if (length(bad)) {
    stop(sprintf("label '%s' in row %d is neither its left item nor its right item",
                 label[bad[1L]], bad[1L]), call. = FALSE)
  }
  items <- .distinct(c(left, right))
  worker_values <- if ("worker" %in% names(data)) data$worker else rep("all", nrow(data))
  workers <- .distinct(worker_values)
  params <- .params(fixed = list(method = method), user = list(...), owned = "method")
  r <- .run_fit(function(p) {
    .Call(C_cs_r_fit_comparisons, .codes(worker_values, workers), .codes(left, items),
          .codes(right, items), as.integer(answer), params, p)
  }, progress, call)
  scores <- data.frame(item = items, score = r$scores, se = r$se, rank = r$ranks,
                       row.names = NULL, stringsAsFactors = FALSE)
  worker_table <- NULL
  if (length(r$reliability)) {
    worker_table <- data.frame(worker = workers, reliability = r$reliability,
                               row.names = NULL, stringsAsFactors = FALSE)
    if (length(r$bias)) worker_table$bias <- r$bias
  }
  .points_graph_fit(list(
    scores = scores[order(scores$rank), , drop = FALSE],
    workers = worker_table,
    trace = r$trace
  ), r, method, call, "crowdspec_ranking")
}

print.crowdspec_ranking <- function(x, ...) {
  cat(sprintf("crowdspec ranking: method %s, %d items, %d iterations, %s\n", x$method,
              nrow(x$scores), x$iterations, if (x$converged) "converged" else "not converged"))
  if (length(x$notes)) cat("  notes:", paste(x$notes, collapse = ", "), "\n")
  print(utils::head(x$scores, 10L), row.names = FALSE, ...)
  invisible(x)
}
