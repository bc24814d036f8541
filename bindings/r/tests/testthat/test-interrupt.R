# SPDX-License-Identifier: MIT
# Ctrl-C (SIGINT) ends a long fit at the next iteration and reaches R as an interrupt;
# a progress function can stop a fit (results kept, with a warning); errors in it come
# back out of the fit.

big_crowd <- function(n = 20000L, m = 50L, k = 3L, per_item = 5L) {
  set.seed(7)
  truth <- sample.int(k, n, replace = TRUE)
  skill <- stats::runif(m, 0.4, 0.9)
  item <- rep(seq_len(n), each = per_item)
  worker <- as.vector(vapply(seq_len(n), function(i) sample.int(m, per_item), integer(per_item)))
  right <- stats::runif(length(item)) < skill[worker]
  label <- ifelse(right, truth[item], (truth[item] + sample.int(k - 1L, length(item), TRUE) - 1L) %% k + 1L)
  data.frame(item = item, worker = worker, label = as.integer(label))
}

# Many hours of EM if nothing stops it: tol = 0 runs every one of max_iter rounds.
LONG <- list(method = "ds", tol = 0, max_iter = 10000000L, accel = "none", threads = 1L,
             prior = "uniform")

test_that("SIGINT cancels a long fit and is signalled as an interrupt", {
  skip_on_os("windows")
  d <- big_crowd()
  base <- crowdspec:::.live_handles()
  iterations <- 0L
  count <- function(i, o) {
    iterations <<- i
    FALSE
  }
  # kill(1) from a child shell 1.5 s into the fit (the data conversion takes far less)
  system(sprintf("(sleep 1.5; kill -INT %d)", Sys.getpid()), wait = FALSE)
  start <- proc.time()[["elapsed"]]
  got <- tryCatch({
    do.call(crowdspec, c(list(d), LONG, list(progress = count)))
    "finished"
  }, interrupt = function(e) "interrupted")
  elapsed <- proc.time()[["elapsed"]] - start
  expect_identical(got, "interrupted")
  expect_lt(elapsed, 60)
  expect_gt(iterations, 0L)              # the fit was running when the signal came
  expect_lt(iterations, 10000000L)
  expect_identical(crowdspec:::.live_handles(), base)
})

test_that("SIGINT without a progress function is seen through R_CheckUserInterrupt", {
  skip_on_os("windows")
  d <- big_crowd()
  base <- crowdspec:::.live_handles()
  system(sprintf("(sleep 1.5; kill -INT %d)", Sys.getpid()), wait = FALSE)
  start <- proc.time()[["elapsed"]]
  got <- tryCatch({
    do.call(crowdspec, c(list(d), LONG))
    "finished"
  }, interrupt = function(e) "interrupted")
  elapsed <- proc.time()[["elapsed"]] - start
  expect_identical(got, "interrupted")
  expect_gt(elapsed, 1)                  # it came while the fit ran ...
  expect_lt(elapsed, 60)                 # ... and ended it
  expect_identical(crowdspec:::.live_handles(), base)
})

test_that("an interrupt raised while the progress function runs cancels the fit", {
  skip_on_os("windows")
  v <- test_vector()
  got <- tryCatch({
    crowdspec(v, method = "ds", tol = 0, max_iter = 1000L, progress = function(i, o) {
      if (i == 2L) tools::pskill(Sys.getpid(), tools::SIGINT)
      FALSE
    })
    "finished"
  }, interrupt = function(e) "interrupted")
  expect_identical(got, "interrupted")
})

test_that("a progress function returning TRUE stops the fit and keeps its results", {
  v <- test_vector()
  seen <- integer()
  w <- NULL
  fit <- withCallingHandlers(
    crowdspec(v, method = "ds", tol = 0, max_iter = 100L, accel = "none",
              progress = function(i, o) {
                seen <<- c(seen, i)
                i >= 3L
              }),
    warning = function(cond) {
      w <<- cond
      invokeRestart("muffleWarning")
    })
  expect_identical(seen, 0:3)            # iteration 0 is the initialisation
  expect_identical(fit$iterations, 3L)
  expect_length(fit$trace, 3L)
  expect_true(fit$stopped)
  expect_false(fit$converged)
  expect_s3_class(w, "crowdspec_warning")
  expect_true("cancelled" %in% w$notes)
  # the kept results are those of round 3: the same as a fit of exactly 3 rounds. A
  # cancelled fit is not calibrated (cs_calibration reports none), a complete one is
  # by default: the posteriors are those of the 3-round fit without calibration
  expect_identical(fit$calibration, "none")
  expect_identical(c(fit$temperature, fit$mixing), c(1, 0))
  fit3 <- crowdspec(v, method = "ds", tol = 0, max_iter = 3L, accel = "none",
                    calibration = "none")
  expect_identical(fit$trace, fit3$trace)
  expect_identical(class_probabilities(fit), class_probabilities(fit3))
  calibrated3 <- crowdspec(v, method = "ds", tol = 0, max_iter = 3L, accel = "none")
  expect_identical(calibrated3$calibration, "labels")
  expect_identical(calibrated3$trace, fit3$trace)
})

test_that("the progress function sees the log-likelihood of each round", {
  v <- test_vector()
  objective <- numeric()
  fit <- crowdspec(v, method = "ds", accel = "none", prior = "uniform",
                   progress = function(i, o) {
                     if (i > 0) objective[i] <<- o
                     FALSE
                   })
  expect_identical(length(objective), length(fit$trace))
  expect_identical(objective, fit$trace)
})

test_that("an error in the progress function comes back out of the fit", {
  v <- test_vector()
  e <- tryCatch(crowdspec(v, method = "ds", progress = function(i, o) {
    if (i == 1L) stop("progress failed here")
    FALSE
  }), error = identity)
  expect_identical(conditionMessage(e), "progress failed here")
  expect_false(inherits(e, "crowdspec_error"))
  expect_error(crowdspec(v, progress = "not a function"), "progress must be a function")
})
