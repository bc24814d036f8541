# SPDX-License-Identifier: MIT
#
# crowdspec(): crowd labels in a long data.frame -> the library's fit -> crowdspec_fit.

.column <- function(data, col, what) {
  if (!(is.character(col) || is.numeric(col)) || length(col) != 1L || is.na(col)) {
    stop("'", what, "' must name (or number) one column of data", call. = FALSE)
  }
  if (is.character(col) && !col %in% names(data)) {
    stop("data has no column '", col, "' (the ", what, " column); its columns are: ",
         paste(names(data), collapse = ", "), call. = FALSE)
  }
  if (is.numeric(col) && (col < 1 || col > ncol(data))) {
    stop("data has no column ", col, " (the ", what, " column)", call. = FALSE)
  }
  x <- data[[col]]
  .check_atomic(x, paste0("data[[\"", col, "\"]]"))
  x
}

# Gold labels as (item, label) vectors: a data.frame with the item and label columns,
# or a named vector (names = items, values = labels).
.gold_pairs <- function(gold, item, label) {
  if (is.null(gold)) return(NULL)
  if (is.data.frame(gold)) {
    return(list(item = .column(gold, item, "gold item"),
                label = .column(gold, label, "gold label")))
  }
  if (is.atomic(gold) && !is.null(names(gold))) {
    values <- gold
    names(values) <- NULL
    return(list(item = names(gold), label = values))
  }
  stop("gold must be a data.frame with the item and label columns, or a named vector ",
       "(names: items, values: their true labels)", call. = FALSE)
}

# Values of the type of `values` (a factor gains levels) with `new` appended; text
# is converted to the ids' type (gold given as a named vector has text names).
.append_values <- function(values, new) {
  if (!length(new)) return(values)
  if (is.factor(values)) {
    new <- as.character(new)
    return(factor(c(as.character(values), new), levels = c(levels(values), new)))
  }
  if (!identical(typeof(new), typeof(values))) {
    convert <- switch(typeof(values), integer = as.integer, double = as.double,
                      logical = as.logical, as.character)
    converted <- suppressWarnings(convert(as.character(new)))
    if (anyNA(converted)) {
      stop("gold item '", new[is.na(converted)][1L], "' is not of the type of the item ids",
           call. = FALSE)
    }
    new <- converted
  }
  c(values, new)
}

# The warm start of a fit for its workers and classes: the matrices as the library's
# row-major worker x true x observed vector (NULL: none), and the prior in class order.
# `initial_confusion` is an array in the layout of confusion() (names matched to the
# fit's workers and classes; without names its extents must be the fit's) or a
# crowdspec_fit, whose prior is then the initial prior unless one is given. Workers it
# does not have get zero matrices, which the library starts from the majority vote.
.initial_start <- function(initial_confusion, initial_prior, workers, classes) {
  if (inherits(initial_confusion, "crowdspec_fit")) {
    if (is.null(initial_prior)) initial_prior <- initial_confusion$prior
    initial_confusion <- initial_confusion$confusion
  }
  m <- length(workers)
  k <- length(classes)
  # positions of the fit's classes among named values, or stop
  class_index <- function(names, what) {
    if (is.null(names)) {
      return(NULL)
    }
    index <- match(classes, names)
    if (anyNA(index) || length(names) != k) {
      stop(what, " has the classes ", paste(names, collapse = ", "), ", the fit has ",
           paste(classes, collapse = ", "), " (give the label column as a factor with ",
           "the levels of the earlier fit)", call. = FALSE)
    }
    index
  }
  conf <- NULL
  if (!is.null(initial_confusion)) {
    a <- initial_confusion
    if (!is.numeric(a) || length(dim(a)) != 3L || dim(a)[2L] != dim(a)[3L]) {
      stop("initial_confusion must be a crowdspec fit or an array worker x true x ",
           "observed, as confusion() returns", call. = FALSE)
    }
    dn <- dimnames(a)
    if (!identical(dn[[2L]], dn[[3L]])) {
      stop("initial_confusion names its true and observed classes differently",
           call. = FALSE)
    }
    ci <- class_index(dn[[2L]], "initial_confusion")
    if (is.null(ci)) {
      if (dim(a)[2L] != k) {
        stop("initial_confusion has ", dim(a)[2L], " classes, the fit has ", k,
             call. = FALSE)
      }
      ci <- seq_len(k)
    }
    if (is.null(dn[[1L]])) {
      if (dim(a)[1L] != m) {
        stop("initial_confusion without worker names must have one matrix per worker ",
             "of the fit (", m, "), not ", dim(a)[1L], call. = FALSE)
      }
      wi <- seq_len(m)
    } else {
      wi <- match(as.character(workers), dn[[1L]])
    }
    full <- array(0, c(m, k, k))
    known <- !is.na(wi)
    full[known, , ] <- a[wi[known], ci, ci, drop = FALSE]
    conf <- as.double(aperm(full, c(3L, 2L, 1L)))  # observed fastest: row-major
  }
  prior <- NULL
  if (!is.null(initial_prior)) {
    p <- initial_prior
    if (!is.numeric(p) || !is.null(dim(p))) {
      stop("initial_prior must be a numeric vector, as class_prior() returns",
           call. = FALSE)
    }
    index <- class_index(names(p), "initial_prior")
    if (is.null(index)) {
      if (length(p) != k) {
        stop("initial_prior has ", length(p), " values, the fit has ", k, " classes",
             call. = FALSE)
      }
      index <- seq_len(k)
    }
    prior <- as.double(p[index])
  }
  list(confusion = conf, prior = prior)
}

crowdspec <- function(data, item = "item", worker = "worker", label = "label",
                      method = "auto", gold = NULL, ..., initial_confusion = NULL,
                      initial_prior = NULL, model_probs = NULL, progress = NULL) {
  call <- match.call()
  if (!is.data.frame(data)) stop("data must be a data.frame of labels in long form", call. = FALSE)
  if (!is.character(method) || length(method) != 1L || is.na(method)) {
    stop("method must be one method name, e.g. \"auto\" (see crowdspec_methods())",
         call. = FALSE)
  }
  items_col <- .column(data, item, "item")
  workers_col <- .column(data, worker, "worker")
  labels_col <- .column(data, label, "label")
  gold_pairs <- .gold_pairs(gold, item, label)

  # Classes: every level of a factor label column (in level order, used or not), else
  # the distinct labels sorted (with the gold labels when they are of the same type).
  if (is.factor(labels_col)) {
    class_values <- levels(labels_col)
  } else {
    pool <- labels_col
    if (!is.null(gold_pairs) && !is.factor(gold_pairs$label) &&
        identical(typeof(gold_pairs$label), typeof(labels_col))) {
      pool <- c(pool, gold_pairs$label)
    }
    class_values <- .distinct(pool)
  }
  classes <- as.character(class_values)
  if (anyDuplicated(classes)) {
    stop("two labels print alike (", classes[anyDuplicated(classes)], "): give the label ",
         "column as a factor or character", call. = FALSE)
  }
  items <- .distinct(items_col)
  workers <- .distinct(workers_col)

  gold_item <- gold_label <- integer()
  if (!is.null(gold_pairs)) {
    # gold for items nobody labelled: extra items after the labelled ones
    key <- gold_pairs$item
    unseen <- !is.na(key) & !as.character(key) %in% as.character(items)
    items <- .append_values(items, unique(key[unseen]))
    gold_item <- .codes(as.character(key), as.character(items))
    gold_label <- .codes(as.character(gold_pairs$label), classes)
  }

  params <- .params(
    fixed = list(method = method, items = length(items), workers = length(workers),
                 classes = length(classes)),
    user = list(...), owned = c("method", "items", "workers", "classes"))
  start <- .initial_start(initial_confusion, initial_prior, workers, classes)
  item_code <- .codes(items_col, items)
  worker_code <- .codes(workers_col, workers)
  label_code <- if (is.factor(labels_col)) .codes(as.character(labels_col), classes) else
    .codes(labels_col, class_values)

  model <- .model_rows(model_probs, item, items, classes)
  r <- tryCatch(.run_fit(function(p) {
    .Call(C_cs_r_fit_crowd, item_code, worker_code, label_code, params,
          gold_item, gold_label, start$confusion, start$prior, model$item, model$probs,
          length(classes), p)
  }, progress, call), crowdspec_error = function(e) stop(.name_model_row(e, model, items)))

  m <- length(workers)
  counts <- tabulate(worker_code[worker_code >= 0L] + 1L, nbins = m)
  fit <- .crowd_fit(r, method, items, workers, classes, class_values,
                    list(item = item, worker = worker, label = label),
                    length(item_code), counts, params, call)
  .warn_notes(method, r$notes, r$message, call, items)
  fit
}

# The crowdspec_fit of a crowd fit's (or update's) results `r` (cs_r_fit_crowd,
# cs_r_update): posteriors and matrices named by items, workers and classes; the saved
# model (a raw vector: cs_save_buffer) when the library could save the fit.
.crowd_fit <- function(r, method, items, workers, classes, class_values, columns,
                       n_labels, worker_labels, params, call) {
  n <- length(items)
  k <- length(classes)
  m <- length(workers)
  item_names <- as.character(items)
  worker_names <- as.character(workers)
  posteriors <- matrix(r$posteriors, nrow = n, ncol = k, byrow = TRUE,
                       dimnames = list(item = item_names, class = classes))
  # row-major worker x true x observed: observed varies fastest
  confusion <- aperm(array(r$confusion, dim = c(k, k, m)), c(3L, 2L, 1L))
  dimnames(confusion) <- list(worker = worker_names, true = classes, observed = classes)
  prior <- stats::setNames(r$prior, classes)
  fit <- structure(list(
    method = method,
    items = items,
    workers = workers,
    classes = classes,
    class_values = class_values,
    columns = columns,
    label_codes = r$labels,
    posteriors = posteriors,
    confusion = confusion,
    prior = prior,
    trace = r$trace,
    iterations = r$iterations,
    converged = r$converged,
    log_likelihood = r$log_likelihood,
    temperature = r$temperature,
    mixing = r$mixing,
    calibration = .calibration_name(r$calibration),
    notes = .note_names(r$notes),
    message = r$message,
    stopped = r$stopped,
    n_labels = n_labels,
    worker_labels = stats::setNames(worker_labels, worker_names),
    params = params,
    model = r$model,
    call = call
  ), class = "crowdspec_fit")
  if (!is.null(r$median_grades)) {
    # Ordered grades (an ordinal method, or ordinal = 1): each item's posterior median
    # grade (a class) and mean grade (in class positions 1..k, R's counting).
    fit$median_grades <- stats::setNames(class_values[r$median_grades + 1L], item_names)
    fit$mean_grades <- stats::setNames(r$mean_grades + 1, item_names)
  }
  if (!is.null(r$model_confusion)) {
    # Issue 34 (a): the classifier's confusion matrix EM estimated (model_probs).
    fit$model_confusion <- matrix(r$model_confusion, nrow = k, ncol = k, byrow = TRUE,
                                  dimnames = list(true = classes, observed = classes))
  }
  if (!is.null(r$label_next)) {
    # Issue 34: each item's "label next" score, and per worker the Raykar-Yu spammer
    # score, worst class and accuracy with its 95% posterior interval.
    fit$label_next <- stats::setNames(r$label_next, item_names)
    worst <- ifelse(r$worst_class < 0L, NA, r$worst_class + 1L)
    fit$worker_diagnostics <- data.frame(
      spammer = r$spammer, worst_class = class_values[worst], accuracy = r$label_accuracy,
      low = r$accuracy_low, high = r$accuracy_high, row.names = worker_names,
      stringsAsFactors = FALSE)
  }
  if (!is.null(r$label_wrong)) {
    # Issue 34: per row of the data, the posterior probability that its label is wrong.
    fit$label_wrong <- r$label_wrong
  }
  fit
}

# The name of a cs_calibration value (the source cs_calibration reports).
.calibration_name <- function(source) {
  names <- c("none", "auto", "labels", "gold")
  if (is.null(source) || is.na(source) || source < 0L || source >= length(names)) {
    return(paste0("source_", source))
  }
  names[[source + 1L]]
}
