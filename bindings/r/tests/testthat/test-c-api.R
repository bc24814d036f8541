# SPDX-License-Identifier: MIT
# The package gives the C API's results: the same data fitted by the C reference
# program (the C API alone) and by crowdspec() agree to 1e-12, whatever form the ids
# and labels take in R.

PARAMS <- list(seed = 3L, threads = 1L, max_iter = 200L)

c_vector <- function(method, params = PARAMS, gold = NULL) {
  v <- test_vector()
  run_c("crowd", crowd_lines(v$item - 1L, v$worker - 1L, v$label - 1L), method, params,
        gold = gold)
}

fit_quietly <- function(...) suppressWarnings(crowdspec(...))

test_that("every crowd method gives the C API's results on the test vector", {
  v <- test_vector()
  expect_identical(nrow(v), 240L)
  methods <- crowdspec_methods("crowd")
  expect_true(all(c("mv", "ds", "opt-ds", "crowd-lloyd", "kos", "kos-mp", "ghosh-svd",
                    "eigen-ratio", "one-coin-ds", "class-one-coin-ds") %in% methods))
  for (method in methods) {
    c <- c_vector(method)
    fit <- do.call(fit_quietly, c(list(v, method = method), PARAMS))
    expect_same_as_c(fit, c)
  }
})

test_that("string ids and labels give the same numbers as integer codes", {
  v <- test_vector()
  # zero-padded names sort (by bytes) in the order of the integer codes
  d <- data.frame(task = sprintf("item%03d", v$item), who = sprintf("w%02d", v$worker),
                  answer = c("apple", "banana", "cherry")[v$label],
                  stringsAsFactors = FALSE)
  for (method in c("mv", "ds", "opt-ds")) {
    c <- c_vector(method)
    fit <- do.call(fit_quietly, c(list(d, item = "task", worker = "who", label = "answer",
                                       method = method), PARAMS))
    expect_same_as_c(fit, c)
    expect_identical(fit$classes, c("apple", "banana", "cherry"))
    expect_identical(labels(fit)$item, sprintf("item%03d", 1:60))
    expect_identical(dimnames(confusion(fit))$worker, sprintf("w%02d", 1:10))
  }
})

test_that("factor ids follow their levels, factor labels keep unused levels", {
  v <- test_vector()
  # items as a factor whose levels run backwards: R's item j is the C API's item j
  item_levels <- sprintf("q%d", 60:1)
  d <- data.frame(item = factor(sprintf("q%d", v$item), levels = item_levels),
                  worker = factor(v$worker),
                  label = factor(c("lo", "mid", "hi")[v$label],
                                 levels = c("lo", "mid", "hi", "never")))
  c <- run_c("crowd", crowd_lines(60L - v$item, v$worker - 1L, v$label - 1L), "ds",
             c(PARAMS, classes = 4L))
  fit <- do.call(fit_quietly, c(list(d, method = "ds"), PARAMS))
  expect_identical(fit$classes, c("lo", "mid", "hi", "never"))
  expect_identical(levels(labels(fit)$item), item_levels)
  expect_same_as_c(fit, c)
  expect_identical(dim(class_probabilities(fit)), c(60L, 4L))
})

test_that("gold labels are passed as the C API's cs_set_gold", {
  v <- test_vector()
  gold_items <- c(3L, 17L, 42L)
  gold_labels <- c(1L, 3L, 2L)
  for (method in c("mv", "ds", "opt-ds")) {
    c <- c_vector(method, gold = list(item = gold_items - 1L, label = gold_labels - 1L))
    gold <- data.frame(item = gold_items, label = gold_labels)
    fit <- do.call(fit_quietly, c(list(v, method = method, gold = gold), PARAMS))
    expect_same_as_c(fit, c)
    # the same gold as a named vector (names are the item ids)
    fit2 <- do.call(fit_quietly, c(list(v, method = method,
                                        gold = stats::setNames(gold_labels, gold_items)),
                                   PARAMS))
    expect_identical(class_probabilities(fit2), class_probabilities(fit))
  }
})

test_that("bluebird gives the C API's results", {
  d <- dataset("bluebird")$crowd
  for (method in c("mv", "ds", "opt-ds", "crowd-lloyd")) {
    c <- run_c("crowd", crowd_lines(d$item - 1L, d$worker - 1L, d$label - 1L), method,
               list(threads = 1L))
    fit <- fit_quietly(d, method = method, threads = 1L)
    expect_same_as_c(fit, c)
  }
})

test_that("points give the C API's labels, centres and trace", {
  set.seed(20)
  x <- rbind(matrix(stats::rnorm(150, 0), ncol = 3), matrix(stats::rnorm(150, 4), ncol = 3),
             matrix(stats::rnorm(150, c(8, 0, 0)), ncol = 3, byrow = TRUE))
  lines <- c(sprintf("%d %d", nrow(x), ncol(x)),
             apply(x, 1, function(r) paste(sprintf("%.17g", r), collapse = " ")))
  for (method in c("lloyd", "kmeans++")) {
    c <- run_c("points", lines, method, list(classes = 3L, seed = 5L, threads = 1L))
    fit <- crowdspec_cluster(x, 3, method = method, seed = 5L, threads = 1L)
    expect_identical(fit$cluster - 1L, as.integer(c$labels))
    expect_lte(max(abs(fit$centers[row_major_index(dim(fit$centers))] - c$rest)), TOL)
    expect_lte(max(abs(class_prior(fit) - c$prior)), TOL)
    expect_lte(max(abs(fit$trace - c$trace) / pmax(1, abs(c$trace))), TOL)
    expect_identical(fit$iterations, as.integer(c$iterations))
  }
})

test_that("graphs give the C API's communities and densities", {
  set.seed(21)
  n <- 90
  block <- rep(1:3, each = 30)
  pairs <- which(upper.tri(matrix(0, n, n)), arr.ind = TRUE)
  p <- ifelse(block[pairs[, 1]] == block[pairs[, 2]], 0.3, 0.03)
  edges <- pairs[stats::runif(nrow(pairs)) < p, , drop = FALSE]
  lines <- c(sprintf("%d", n), sprintf("%d %d", edges[, 1] - 1L, edges[, 2] - 1L))
  for (method in c("commu-lloyd", "spec", "spec-mle")) {
    c <- run_c("graph", lines, method, list(classes = 3L, threads = 1L))
    fit <- crowdspec_communities(data.frame(from = edges[, 1], to = edges[, 2]), 3,
                                 method = method, nodes = 1:n, threads = 1L)
    expect_identical(fit$communities$community - 1L, as.integer(c$labels))
    expect_lte(max(abs(c(fit$within, fit$between) - c$rest)), TOL)
    expect_lte(max(abs(class_prior(fit) - c$prior)), TOL)
    if (length(c$trace)) expect_lte(max(abs(fit$trace - c$trace) / pmax(1, abs(c$trace))), TOL)
  }
})
