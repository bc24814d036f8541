# SPDX-License-Identifier: MIT
# Issue 34: the label-next scores and worker diagnostics of a fit, by hand with mv.
# Votes: a {x cat, y cat, z dog}, b {x dog, y dog, z dog}, c {x cat, z dog}; mv's
# posteriors are the vote shares (2/3, 1/3), (0, 1), (1/2, 1/2).

test_that("label next and worker diagnostics are the library's, by hand", {
  fit <- crowdspec(votes, method = "mv")
  # The typical worker from the soft counts: true cat: cat 4/3 + 1/2 = 11/6, dog
  # 2/3 + 1/2 = 7/6 (of 3); true dog: cat 2/3 + 1/2 = 7/6, dog 1/3 + 3 + 1/2 = 23/6 (of 5).
  # Item c (1/2, 1/2): max(11/36, 7/60) + max(7/36, 23/60) - 1/2 = 11/36 + 23/60 - 1/2
  # = 17/90.
  expect_equal(unname(fit$label_next[["c"]]), 17 / 90, tolerance = 1e-15)
  expect_equal(unname(fit$label_next[["b"]]), 0, tolerance = 1e-15)
  d <- fit$worker_diagnostics
  expect_identical(rownames(d), c("x", "y", "z"))
  # y: a cat (share 2/3), b dog (1): 5/3 of 2.
  expect_equal(d["y", "accuracy"], 5 / 6, tolerance = 1e-15)
  expect_true(all(d$low <= d$accuracy & d$accuracy <= d$high))
  expect_true(all(d$spammer >= 0 & d$spammer <= 1))
  # Per row of the data: 1 - the item's posterior share of that row's label (mv: the
  # vote shares above), whatever the row order.
  shares <- list(a = c(cat = 2 / 3, dog = 1 / 3), b = c(cat = 0, dog = 1), c = c(cat = 1 / 2, dog = 1 / 2))
  want <- function(v) {
    vapply(seq_len(nrow(v)), function(r) 1 - shares[[as.character(v$item[r])]][[as.character(v$label[r])]], 0)
  }
  expect_equal(fit$label_wrong, want(votes), tolerance = 1e-15)
  shuffled <- votes[c(5, 2, 8, 1, 7, 3, 6, 4), ]
  expect_equal(crowdspec(shuffled, method = "mv")$label_wrong, want(shuffled), tolerance = 1e-15)
})

# --- A classifier's probabilities (model_probs), issue 34 (a) and crowdlab.

# simulated_with_model(): helper-crowdspec.R.

test_that("a classifier wrong on one class is outvoted there, and its matrix shows it", {
  s <- simulated_with_model()
  error <- function(said, only = NULL) {
    keep <- if (is.null(only)) TRUE else s$truth == only
    mean(said[keep] != s$truth[keep])
  }
  for (method in c("ds", "auto")) {
    crowd <- suppressWarnings(crowdspec(s$data, method = method))
    both <- suppressWarnings(crowdspec(s$data, method = method, model_probs = s$model))
    pi <- both$model_confusion
    expect_identical(dimnames(pi), list(true = c("a", "b", "c"), observed = c("a", "b", "c")))
    expect_gt(pi["c", "b"], 0.8)  # class c -> "b": the classifier's error, estimated
    expect_gt(pi["a", "a"], 0.8)
    expect_gt(pi["b", "b"], 0.8)
    expect_null(crowd$model_confusion)
    said_crowd <- labels(crowd)$label[match(names(s$truth), labels(crowd)$item)]
    said_both <- labels(both)$label[match(names(s$truth), labels(both)$item)]
    e_model <- error(s$model_said)
    expect_gt(e_model, 0.3)  # the classifier alone misses every item of class c
    expect_lt(error(said_both), error(said_crowd) - 0.03)
    expect_lt(error(said_both), e_model - 0.1)
    expect_lte(error(said_both, "c"), error(said_crowd, "c") + 0.05)  # outvoted on c
  }
})

# The test vector with string ids and labels, and a classifier's rows for items 1..50
# (10 items without a row), in shuffled order, its columns in another order than the
# classes, plus a row for an item the data does not have (left out).
model_table <- function() {
  j <- 1:50
  raw <- cbind(1 + 3 * (j %% 3 == 0), 1 + 2 * (j %% 3 == 1), 1 + (j * 7) %% 5)
  probs <- raw / rowSums(raw)
  order <- c(seq(50L, 1L, by = -2L), seq(1L, 49L, by = 2L))
  table <- data.frame(task = c(sprintf("item%03d", j[order]), "item999"),
                      cherry = c(probs[order, 3], 0.2), apple = c(probs[order, 1], 0.4),
                      banana = c(probs[order, 2], 0.4), stringsAsFactors = FALSE)
  list(table = table, c = list(item = j[order] - 1L, probs = probs[order, ]))
}

test_that("model_probs gives the C API's results (string ids, any row and column order)", {
  v <- test_vector()
  d <- data.frame(task = sprintf("item%03d", v$item), who = sprintf("w%02d", v$worker),
                  answer = c("apple", "banana", "cherry")[v$label], stringsAsFactors = FALSE)
  m <- model_table()
  params <- list(seed = 3L, threads = 1L, max_iter = 200L)
  for (method in c("auto", "ds", "crowdlab")) {
    c <- run_c("crowd", crowd_lines(v$item - 1L, v$worker - 1L, v$label - 1L), method, params,
               model_probs = m$c)
    fit <- do.call(function(...) suppressWarnings(crowdspec(...)),
                   c(list(d, item = "task", worker = "who", label = "answer", method = method,
                          model_probs = m$table), params))
    expect_same_as_c(fit, c)
    if (method == "crowdlab") {
      expect_null(fit$model_confusion)
      expect_length(c$rest, 0L)
    } else {
      expect_length(c$rest, 9L)
      expect_lte(max(abs(as.vector(t(fit$model_confusion)) - c$rest)), TOL)
    }
    # The same rows as a matrix (rownames: items; colnames: classes) give the same fit.
    mat <- as.matrix(m$table[, c("banana", "apple", "cherry")])
    rownames(mat) <- m$table$task
    again <- do.call(function(...) suppressWarnings(crowdspec(...)),
                     c(list(d, item = "task", worker = "who", label = "answer", method = method,
                            model_probs = mat), params))
    expect_identical(class_probabilities(again), class_probabilities(fit))
  }
  # The model's rows count: without them the fit differs.
  plain <- do.call(function(...) suppressWarnings(crowdspec(...)),
                   c(list(d, item = "task", worker = "who", label = "answer", method = "ds"), params))
  with_model <- do.call(function(...) suppressWarnings(crowdspec(...)),
                        c(list(d, item = "task", worker = "who", label = "answer", method = "ds",
                               model_probs = m$table), params))
  expect_gt(max(abs(class_probabilities(plain) - class_probabilities(with_model))), 1e-3)
})

# crowdlab by hand (k = 2; item 0: w0 0, w1 0, w2 1; item 1: w0 1, w1 1; item 2: w0 0,
# w2 0; item 3: w1 1; classifier (0.7, 0.3), (0.4, 0.6), (0.2, 0.8), (0.9, 0.1)): the
# posteriors of the C library's test (tests/test_model_assist.cpp, from an independent
# numpy script of the paper's formulas). Rows that do not sum to 1 are normalised by
# the library: ten times the rows give the same fit.
test_that("crowdlab with model_probs gives the hand case's posteriors", {
  d <- data.frame(item = c("i0", "i0", "i0", "i1", "i1", "i2", "i2", "i3"),
                  worker = c("w0", "w1", "w2", "w0", "w1", "w0", "w2", "w1"),
                  label = c("no", "no", "yes", "yes", "yes", "no", "no", "yes"),
                  stringsAsFactors = FALSE)
  probs <- matrix(c(0.7, 0.3, 0.4, 0.6, 0.2, 0.8, 0.9, 0.1), ncol = 2L, byrow = TRUE,
                  dimnames = list(c("i0", "i1", "i2", "i3"), c("no", "yes")))
  expected <- matrix(c(0.8888847093179439, 0.11111529068205629, 0.11111274529766882,
                       0.8888872547023313, 0.8888849919824823, 0.11111500801751785,
                       0.5732315230167806, 0.42676847698321935), ncol = 2L, byrow = TRUE)
  fit <- crowdspec(d, method = "crowdlab", model_probs = probs)
  expect_lte(max(abs(unname(class_probabilities(fit)) - expected)), TOL)
  expect_identical(as.character(labels(fit)$label), c("no", "yes", "no", "no"))
  scaled <- crowdspec(d, method = "crowdlab", model_probs = 10 * probs)
  expect_lte(max(abs(class_probabilities(scaled) - class_probabilities(fit))), TOL)
})

test_that("wrong model_probs are clear errors", {
  good <- data.frame(item = c("a", "b", "c"), cat = c(0.9, 0.2, 0.5), dog = c(0.1, 0.8, 0.5),
                     stringsAsFactors = FALSE)
  fit_with <- function(probs, method = "ds") crowdspec(votes, method = method, model_probs = probs)
  # Shapes and types: the binding's.
  expect_error(fit_with(good[, c("item", "cat")]), "one probability column per class.*'dog'")
  expect_error(fit_with(cbind(good, bird = 0)), "'bird', which is not a class")
  expect_error(fit_with(transform(good, dog = as.character(dog))), "column 'dog' is not numeric")
  expect_error(fit_with(as.matrix(good[, c("cat", "dog")])), "rownames")
  expect_error(fit_with(list(a = 1)), "must be a data.frame")
  expect_error(fit_with(data.frame(item = "zebra", cat = 1, dog = 0)), "no row for an item")
  # Values and methods: the library's, naming the model_probs row and item.
  na <- good; na$cat[2] <- NA
  expect_error(fit_with(na), class = "crowdspec_invalid_argument",
               regexp = "not finite.*model_probs row 2, item 'b'")
  negative <- good; negative$dog[3] <- -0.5
  expect_error(fit_with(negative), class = "crowdspec_invalid_argument",
               regexp = "negative.*model_probs row 3, item 'c'")
  zero <- good; zero[1, c("cat", "dog")] <- 0
  expect_error(fit_with(zero), class = "crowdspec_invalid_argument",
               regexp = "sums to 0.*model_probs row 1, item 'a'")
  expect_error(fit_with(rbind(good, good[2, ])), class = "crowdspec_invalid_argument",
               regexp = "two rows for item 'b'")
  missing_id <- good; missing_id$item[3] <- NA
  expect_error(fit_with(missing_id), class = "crowdspec_invalid_id",
               regexp = "model_probs row 3, item 'NA'")
  expect_error(fit_with(good, method = "mv"), class = "crowdspec_invalid_argument",
               regexp = "does not take model probabilities")
  expect_false(is.null(fit_with(good)$model_confusion))
})
