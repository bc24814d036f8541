# SPDX-License-Identifier: MIT
# The default method ("auto") and the calibration of the Dawid-Skene family's
# posteriors (cs_calibration; predict applies it through cs_set_initial_calibration).

test_that("the default method is auto, and a fit reports its calibration", {
  v <- test_vector()
  fit <- crowdspec(v, threads = 1)
  expect_identical(fit$method, "auto")
  expect_identical(fit$calibration, "labels")
  expect_true(is.finite(fit$temperature) && fit$temperature >= 1 && fit$temperature <= 10)
  expect_identical(fit$mixing, 0)
  expect_output(print(fit), "posteriors calibrated \\(labels\\): temperature")
})

# A crowd with shared mistakes: on every third item 60 % of the labels name one wrong
# class, drawn per item (so that no worker's confusion matrix can absorb it). The model
# treats them as independent, so the held-out temperature rises above 1 (on a crowd
# drawn from the model itself it is 1: it never sharpens).
shared_mistakes <- function(n_items = 300, n_workers = 10, k = 3, seed = 5) {
  set.seed(seed)
  truth <- sample.int(k, n_items, replace = TRUE) - 1L
  accuracy <- stats::runif(n_workers, 0.6, 0.9)
  rows <- expand.grid(worker = seq_len(n_workers) - 1L, item = seq_len(n_items) - 1L)
  rows <- rows[stats::runif(nrow(rows)) < 0.6, ]
  t <- truth[rows$item + 1L]
  right <- stats::runif(nrow(rows)) < accuracy[rows$worker + 1L]
  label <- ifelse(right, t, (t + sample.int(k - 1L, nrow(rows), replace = TRUE)) %% k)
  trap <- (truth + sample.int(k - 1L, n_items, replace = TRUE)) %% k
  trapped <- rows$item %% 3L == 0L & stats::runif(nrow(rows)) < 0.6
  label[trapped] <- trap[rows$item[trapped] + 1L]
  data.frame(item = rows$item, worker = rows$worker, label = as.integer(label))
}

test_that("the reported temperature is the one the posteriors show", {
  v <- shared_mistakes()
  calibrated <- crowdspec(v, method = "ds", threads = 1)
  raw <- crowdspec(v, method = "ds", threads = 1, calibration = "none")
  expect_identical(raw$calibration, "none")
  expect_identical(c(raw$temperature, raw$mixing), c(1, 0))
  t <- calibrated$temperature
  expect_gt(t, 1)
  # the same EM; only the last step differs: q^(1 / T), renormalised
  tempered <- class_probabilities(raw)^(1 / t)
  tempered <- tempered / rowSums(tempered)
  expect_lte(max(abs(class_probabilities(calibrated) - tempered)), 1e-12)
  expect_identical(labels(calibrated)$label, labels(raw)$label)
  expect_identical(confusion(calibrated), confusion(raw))
})

test_that("predict reproduces the default fit on its own data", {
  v <- test_vector()
  v$worker <- paste0("w", v$worker)
  fit <- crowdspec(v, threads = 1, support = "all")
  p <- predict(fit, v, type = "probabilities")
  expect_lte(max(abs(p - class_probabilities(fit))), 1e-12)
  expect_identical(predict(fit, v)$label, labels(fit)$label)
  # a fit saved before calibration existed (no such fields) predicts uncalibrated
  old <- fit
  old$temperature <- old$mixing <- old$calibration <- NULL
  raw <- predict(old, v, type = "probabilities")
  tempered <- raw^(1 / fit$temperature)
  expect_lte(max(abs(tempered / rowSums(tempered) - p)), 1e-12)
})

test_that("gold calibration (temperature and prior weight) is carried to predict", {
  v <- test_vector()
  truth <- utils::read.table(vector_path("vector_truth.txt"), comment.char = "#",
                             col.names = c("item", "label"), colClasses = "integer")
  gold <- stats::setNames(truth$label[1:20], truth$item[1:20])  # 20 of the 60 items
  fit <- crowdspec(v, method = "ds", gold = gold, threads = 1, support = "all")
  expect_identical(fit$calibration, "gold")
  expect_true(fit$mixing >= 0 && fit$mixing <= 0.4)
  expect_true(fit$temperature >= 0.2 && fit$temperature <= 200)
  rest <- v[!v$item %in% names(gold), ]
  p <- predict(fit, rest, type = "probabilities")
  expect_lte(max(abs(p - class_probabilities(fit)[rownames(p), ])), 1e-12)
})
