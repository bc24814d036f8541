# SPDX-License-Identifier: MIT
#
# Points (crowdspec_cluster) and graphs (crowdspec_communities).

# A points or graph fit of class `class`: its own `fields`, then what every such fit
# has (the run's iterations, convergence and notes, the method, the call); warns of the
# notes.
.points_graph_fit <- function(fields, r, method, call, class) {
  fit <- structure(c(fields, list(
    iterations = r$iterations,
    converged = r$converged,
    method = method,
    notes = .note_names(r$notes),
    message = r$message,
    call = call
  )), class = class)
  .warn_notes(method, r$notes, r$message, call)
  fit
}

crowdspec_cluster <- function(x, k, method = "lloyd", ..., progress = NULL) {
  call <- match.call()
  if (is.data.frame(x)) x <- as.matrix(x)
  if (!is.matrix(x) || !(is.numeric(x) || is.logical(x))) {
    stop("x must be a numeric matrix (or data.frame), one point per row", call. = FALSE)
  }
  if (!is.character(method) || length(method) != 1L || is.na(method)) {
    stop("method must be one method name, e.g. \"lloyd\"", call. = FALSE)
  }
  params <- .params(fixed = list(method = method, classes = k), user = list(...),
                    owned = c("method", "classes"))
  # t(x) is d x n column-major: the library's n x d row-major layout
  points <- t(x)
  storage.mode(points) <- "double"
  r <- .run_fit(function(p) .Call(C_cs_r_fit_points, points, params, p), progress, call)
  kk <- as.integer(r$n_classes)
  d <- as.integer(r$n_dims)
  cluster <- r$labels + 1L
  if (!is.null(rownames(x))) names(cluster) <- rownames(x)
  centers <- matrix(r$centres, nrow = kk, ncol = d, byrow = TRUE,
                    dimnames = list(seq_len(kk), colnames(x)))
  .points_graph_fit(list(
    cluster = cluster,
    centers = centers,
    size = tabulate(cluster, nbins = kk),
    prior = r$prior,
    trace = r$trace,
    cost = if (length(r$trace)) -r$trace[length(r$trace)] else NA_real_
  ), r, method, call, "crowdspec_clusters")
}

print.crowdspec_clusters <- function(x, ...) {
  cat(sprintf("crowdspec clustering: method %s, %d points, %d clusters of sizes %s\n",
              x$method, length(x$cluster), nrow(x$centers), paste(x$size, collapse = ", ")))
  cat(sprintf("  %d iterations, %s, k-means cost of the last iteration %.6g\n",
              x$iterations, if (x$converged) "converged" else "not converged", x$cost))
  if (length(x$notes)) cat("  notes:", paste(x$notes, collapse = ", "), "\n")
  cat("Cluster means:\n")
  print(x$centers, ...)
  invisible(x)
}

crowdspec_communities <- function(edges, k, method = "commu-lloyd", nodes = NULL, ...,
                                  progress = NULL) {
  call <- match.call()
  if (is.matrix(edges)) edges <- as.data.frame(edges, stringsAsFactors = FALSE)
  if (!is.data.frame(edges) || ncol(edges) < 2L) {
    stop("edges must be a data.frame (or matrix) whose first two columns are the ",
         "endpoints of each edge", call. = FALSE)
  }
  if (!is.character(method) || length(method) != 1L || is.na(method)) {
    stop("method must be one method name, e.g. \"commu-lloyd\"", call. = FALSE)
  }
  from <- edges[[1L]]
  to <- edges[[2L]]
  .check_atomic(from, "the first edge column")
  .check_atomic(to, "the second edge column")
  if (is.factor(from) || is.factor(to)) {
    from <- as.character(from)
    to <- as.character(to)
  }
  if (is.null(nodes)) {
    nodes <- .distinct(c(from, to))
  } else {
    .check_atomic(nodes, "nodes")
    if (anyNA(nodes) || anyDuplicated(nodes)) {
      stop("nodes must be distinct and not NA", call. = FALSE)
    }
  }
  params <- .params(fixed = list(method = method, classes = k), user = list(...),
                    owned = c("method", "classes"))
  u <- .codes(from, nodes)
  v <- .codes(to, nodes)
  r <- .run_fit(function(p) {
    .Call(C_cs_r_fit_graph, u, v, length(nodes), params, p)
  }, progress, call)
  community <- r$labels + 1L
  .points_graph_fit(list(
    communities = data.frame(node = nodes, community = community, row.names = NULL,
                             stringsAsFactors = FALSE),
    community = stats::setNames(community, as.character(nodes)),
    size = tabulate(community, nbins = as.integer(r$n_classes)),
    prior = r$prior,
    within = r$densities[1L],
    between = r$densities[2L],
    trace = r$trace
  ), r, method, call, "crowdspec_communities")
}

print.crowdspec_communities <- function(x, ...) {
  cat(sprintf("crowdspec communities: method %s, %d nodes, %d communities of sizes %s\n",
              x$method, nrow(x$communities), length(x$size), paste(x$size, collapse = ", ")))
  cat(sprintf("  %d iterations, %s; edge density within %.4g, between %.4g\n",
              x$iterations, if (x$converged) "converged" else "not converged",
              x$within, x$between))
  if (length(x$notes)) cat("  notes:", paste(x$notes, collapse = ", "), "\n")
  invisible(x)
}
