# SPDX-License-Identifier: MIT
# Warm starts (initial_confusion, initial_prior: cs_set_initial_confusion and
# cs_set_initial_prior) and predict() on new batches (cs_predict): hand-computed
# posteriors, the C API's own output, and the trajectory of a longer cold fit.

# plain EM (no acceleration), a fixed number of rounds
fit_plain <- function(data, ...) {
  crowdspec(data, method = "ds", accel = "none", tol = 0, threads = 1, ...)
}

# The matrices of tests/test_warm_start.c: worker a [[0.9, 0.1], [0.2, 0.8]], worker b
# [[0.6, 0.4], [0.3, 0.7]] (rows true class x, y; columns observed), prior (0.7, 0.3),
# pinned into a fit of two workers and classes x, y.
pinned_fit <- function() {
  d <- data.frame(item = c(1, 1, 2, 2), worker = c("a", "b", "a", "b"),
                  label = c("x", "y", "y", "y"))
  fit <- crowdspec(d, method = "mv")
  fit$confusion["a", , ] <- rbind(c(0.9, 0.1), c(0.2, 0.8))
  fit$confusion["b", , ] <- rbind(c(0.6, 0.4), c(0.3, 0.7))
  fit$prior[] <- c(0.7, 0.3)
  fit
}

# item i0: a says x, b says y; i1: a says y; i2: only the unknown worker c, who
# counts as the mean of a and b ([[0.75, 0.25], [0.25, 0.75]]), says y.
batch <- data.frame(item = c("i0", "i0", "i1", "i2"), worker = c("a", "b", "a", "c"),
                    label = c("x", "y", "y", "y"))

test_that("predict: one E-step, computed by hand, unknown workers as the mean worker", {
  fit <- pinned_fit()
  w <- NULL
  p <- withCallingHandlers(predict(fit, batch, type = "probabilities"),
                           crowdspec_warning = function(cond) {
                             w <<- cond
                             invokeRestart("muffleWarning")
                           })
  expect_s3_class(w, "crowdspec_warning")
  expect_identical(w$notes, "unknown_workers")
  # P(x | i0) = 0.7 * 0.9 * 0.4 / (0.7 * 0.9 * 0.4 + 0.3 * 0.2 * 0.7) = 6/7
  # P(x | i1) = 0.7 * 0.1 / (0.7 * 0.1 + 0.3 * 0.8) = 7/31
  # P(x | i2) = 0.7 * 0.25 / (0.7 * 0.25 + 0.3 * 0.75) = 0.4375
  expect_equal(unname(p[, "x"]), c(6 / 7, 7 / 31, 0.4375), tolerance = 1e-15)
  expect_equal(unname(rowSums(p)), c(1, 1, 1), tolerance = 1e-15)
  expect_identical(dimnames(p), list(item = c("i0", "i1", "i2"), class = c("x", "y")))
  l <- suppressWarnings(predict(fit, batch))
  expect_identical(l$item, c("i0", "i1", "i2"))
  expect_identical(l$label, factor(c("x", "y", "y"), levels = c("x", "y")))
  expect_equal(l$confidence, c(6 / 7, 24 / 31, 0.5625), tolerance = 1e-15)
})

test_that("predict equals the C API's cs_predict with the same matrices", {
  fit <- pinned_fit()
  conf_file <- tempfile("cs_conf_")
  prior_file <- tempfile("cs_prior_")
  on.exit(unlink(c(conf_file, prior_file)))
  writeLines(sprintf("%.17g", aperm(fit$confusion, c(3, 2, 1))), conf_file)
  writeLines(sprintf("%.17g", fit$prior), prior_file)
  # the package's coding of the batch: items i0, i1, i2; workers a, b, then c (2)
  c <- run_c("predict", crowd_lines(c(0, 0, 1, 2), c(0, 1, 0, 2), c(0, 1, 1, 1)), "ds",
             list(initial_confusion = conf_file, initial_prior = prior_file))
  p <- suppressWarnings(predict(fit, batch, type = "probabilities"))
  expect_lte(max(abs(t(p) - matrix(c$posteriors_raw, nrow = 2))), TOL)
  expect_identical(crowdspec:::.note_names(c$notes), "unknown_workers")
})

test_that("predict on the training data gives the fit's posteriors", {
  v <- test_vector()
  v$worker <- paste0("w", v$worker)
  v$label <- c("low", "mid", "high")[v$label]
  fit <- crowdspec(v, method = "ds", support = "all", threads = 1)
  p <- predict(fit, v, type = "probabilities")
  expect_identical(dimnames(p), dimnames(class_probabilities(fit)))
  expect_lte(max(abs(p - class_probabilities(fit))), 1e-12)
  l <- predict(fit, v)
  expect_identical(l$label, labels(fit)$label)
  # another column naming: the fit remembers its columns, predict can be told others
  fit2 <- crowdspec(setNames(v, c("task", "annotator", "answer")), item = "task",
                    worker = "annotator", label = "answer", method = "ds", support = "all",
                    threads = 1)
  expect_lte(max(abs(predict(fit2, setNames(v, c("task", "annotator", "answer")),
                             type = "probabilities") - class_probabilities(fit2))), 1e-12)
  expect_lte(max(abs(predict(fit2, v, item = "item", worker = "worker", label = "label",
                             type = "probabilities") - class_probabilities(fit2))), 1e-12)
})

test_that("predict: a new worker weighs as the mean of the fitted matrices", {
  v <- test_vector()
  fit <- crowdspec(v, method = "ds", threads = 1)
  new <- data.frame(item = c("x", "x", "y"), worker = c(v$worker[1], 9999L, 9999L),
                    label = c(v$label[1], v$label[1], 1L))
  expect_warning(p <- predict(fit, new, type = "probabilities", support = "all"),
                 class = "crowdspec_warning")
  mean_conf <- apply(confusion(fit), c(2L, 3L), mean)  # true x observed
  # calibrated as the fit was: q^(1 / temperature), renormalised
  want_y <- (class_prior(fit) * mean_conf[, 1L])^(1 / fit$temperature)
  expect_equal(unname(p["y", ]), unname(want_y / sum(want_y)), tolerance = 1e-12)
  # with the fit's support (auto: for k = 3 the classes some worker gave), item y can
  # only be class 1, the one answer it has
  expect_warning(p <- predict(fit, new, type = "probabilities"), class = "crowdspec_warning")
  expect_identical(unname(p["y", ]), c(1, 0, 0))
})

test_that("predict: errors are clear", {
  fit <- pinned_fit()
  expect_error(predict(fit, transform(batch[c(1, 2), ], label = c("x", "z"))),
               "label \"z\" \\(row 2\\) is not a class of the fit \\(x, y\\)")
  na_worker <- batch
  na_worker$worker[2] <- NA
  expect_error(suppressWarnings(predict(fit, na_worker)), class = "crowdspec_invalid_id")
  expect_error(predict(fit, list(item = 1)), "newdata must be a data.frame")
  expect_error(predict(fit, batch, item = "task"), "no column 'task'")
})

test_that("a warm start continues a fit: its rounds are the cold fit's later rounds", {
  v <- test_vector()
  cold <- suppressWarnings(fit_plain(v, max_iter = 9))
  short <- suppressWarnings(fit_plain(v, max_iter = 4))
  warm <- suppressWarnings(fit_plain(v, max_iter = 6, initial_confusion = short))
  # the warm fit's first round is round 4's E-step of the cold fit
  expect_identical(length(warm$trace), 6L)
  expect_lte(max(abs(warm$trace - cold$trace[4:9]) / abs(cold$trace[4:9])), 1e-12)
  expect_lte(max(abs(class_probabilities(warm) - class_probabilities(cold))), 1e-12)
  expect_lte(max(abs(confusion(warm) - confusion(cold))), 1e-12)
  # the array and the prior given apart are the same start
  warm2 <- suppressWarnings(fit_plain(v, max_iter = 6, initial_confusion = confusion(short),
                                      initial_prior = class_prior(short)))
  expect_identical(warm2$trace, warm$trace)
})

test_that("a warm start equals the C API's fit from the same matrices", {
  v <- test_vector()
  short <- suppressWarnings(fit_plain(v, max_iter = 4))
  conf_file <- tempfile("cs_conf_")
  prior_file <- tempfile("cs_prior_")
  on.exit(unlink(c(conf_file, prior_file)))
  writeLines(sprintf("%.17g", aperm(confusion(short), c(3, 2, 1))), conf_file)
  writeLines(sprintf("%.17g", class_prior(short)), prior_file)
  for (method in c("ds", "opt-ds")) {
    params <- list(accel = "none", tol = 0, threads = 1, max_iter = 6)
    # the test vector's ids and labels are 1-based: the package codes them from 0
    c <- run_c("crowd", crowd_lines(v$item - 1L, v$worker - 1L, v$label - 1L), method,
               c(params, list(initial_confusion = conf_file, initial_prior = prior_file)))
    warm <- suppressWarnings(crowdspec(v, method = method, initial_confusion = short,
                                       accel = "none", tol = 0, threads = 1, max_iter = 6))
    expect_same_as_c(warm, c)
  }
})

test_that("initial_confusion is matched by worker and class names", {
  v <- test_vector()
  v$worker <- sprintf("w%02d", v$worker)
  v$label <- factor(c("a", "b", "c")[v$label], levels = c("a", "b", "c"))
  short <- suppressWarnings(fit_plain(v, max_iter = 4))
  warm <- suppressWarnings(fit_plain(v, max_iter = 3, initial_confusion = short))
  # the same start with workers reversed, classes permuted, an extra worker
  a <- confusion(short)
  perm <- c(3L, 1L, 2L)
  shuffled <- a[rev(seq_len(dim(a)[1L])), perm, perm]
  extra <- array(1 / 3, c(1L, 3L, 3L),
                 dimnames = list(worker = "nobody", true = dimnames(shuffled)[[2L]],
                                 observed = dimnames(shuffled)[[3L]]))
  bigger <- array(c(aperm(shuffled, c(2L, 3L, 1L)), aperm(extra, c(2L, 3L, 1L))),
                  c(3L, 3L, dim(a)[1L] + 1L))
  bigger <- aperm(bigger, c(3L, 1L, 2L))
  dimnames(bigger) <- list(worker = c(dimnames(shuffled)[[1L]], "nobody"),
                           true = dimnames(shuffled)[[2L]],
                           observed = dimnames(shuffled)[[3L]])
  same <- suppressWarnings(fit_plain(v, max_iter = 3, initial_confusion = bigger,
                                     initial_prior = class_prior(short)[perm]))
  expect_identical(same$trace, warm$trace)
  expect_identical(class_probabilities(same), class_probabilities(warm))
  # a worker the start lacks starts from the majority vote: a valid fit, and not the
  # warm fit
  partial <- a[-1L, , , drop = FALSE]
  p <- suppressWarnings(fit_plain(v, max_iter = 3, initial_confusion = partial,
                                  initial_prior = class_prior(short)))
  expect_equal(unname(rowSums(class_probabilities(p))), rep(1, nrow(class_probabilities(p))),
               tolerance = 1e-12)
  expect_false(identical(p$trace, warm$trace))
})

test_that("warm start errors are clear", {
  v <- test_vector()
  short <- suppressWarnings(fit_plain(v, max_iter = 2))
  expect_error(crowdspec(v, method = "ds", initial_confusion = 1:3),
               "initial_confusion must be a crowdspec fit or an array")
  renamed <- confusion(short)
  dimnames(renamed)$true <- dimnames(renamed)$observed <- c("p", "q", "r")
  expect_error(crowdspec(v, method = "ds", initial_confusion = renamed),
               "initial_confusion has the classes p, q, r, the fit has 1, 2, 3")
  unnamed <- unname(confusion(short))[-1L, , ]
  expect_error(crowdspec(v, method = "ds", initial_confusion = unnamed),
               "one matrix per worker of the fit")
  expect_error(crowdspec(v, method = "ds", initial_confusion = short, initial_prior = c(1, 2)),
               "initial_prior has 2 values, the fit has 3 classes")
  bad <- confusion(short)
  bad[1, 1, 1] <- -1
  expect_error(crowdspec(v, method = "ds", initial_confusion = bad),
               class = "crowdspec_invalid_argument")
  # a method that does not start from matrices: the library refuses
  expect_error(crowdspec(v, method = "mv", initial_confusion = short),
               class = "crowdspec_invalid_argument")
  # a prior alone: the library refuses
  expect_error(crowdspec(v, method = "ds", initial_prior = class_prior(short)),
               class = "crowdspec_invalid_argument")
})
