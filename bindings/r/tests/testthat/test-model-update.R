# SPDX-License-Identifier: MIT
# Issue 34 with 38: update() and predict() of a fit with a classifier's probabilities
# (model_probs), through the fit's saved model.

test_that("updates with the classifier's rows follow the full fit", {
  s <- simulated_with_model(seed = 11L, per_item = 5L, accuracy = 0.7)
  full <- crowdspec(s$data, model_probs = s$model)
  e_full <- mean(labels(full)$label != s$truth[as.character(labels(full)$item)])
  expect_gt(full$model_confusion["c", "b"], 0.8)
  set.seed(34L)
  batches <- split(sample.int(nrow(s$data)), rep_len(1:5, nrow(s$data)))
  first <- s$data[batches[[1L]], ]
  fit <- crowdspec(first, model_probs = s$model[s$model$item %in% first$item, ])
  fit <- unserialize(serialize(fit, NULL))  # saveRDS keeps the classifier in fit$model
  for (b in batches[-1L]) {
    new <- s$data[b, ]
    fit <- suppressWarnings(update(fit, new, model_probs = s$model[s$model$item %in% new$item, ]))
  }
  l <- labels(fit)
  e <- mean(as.character(l$label) != s$truth[as.character(l$item)])
  expect_equal(nrow(l), 900L)
  expect_gt(fit$model_confusion["c", "b"], 0.8)
  expect_lte(abs(e - e_full), 0.003)
})

test_that("predict with the fit's own rows gives its posteriors, and errors are named", {
  s <- simulated_with_model(seed = 3L)
  fit <- crowdspec(s$data, method = "ds", calibration = "none", model_probs = s$model)
  p <- predict(fit, s$data, type = "probabilities", model_probs = s$model[nrow(s$model):1, ])
  expect_equal(unname(p), unname(fit$posteriors[rownames(p), ]), tolerance = 1e-12)
  plain <- predict(fit, s$data, type = "probabilities")
  expect_gt(max(abs(plain - fit$posteriors[rownames(plain), ])), 0.1)
  bad <- s$model[1:2, ]
  bad$a[2] <- -1
  expect_error(predict(fit, s$data, model_probs = bad), class = "crowdspec_invalid_argument",
               regexp = "model_probs row 2")
  no_classifier <- crowdspec(s$data, method = "ds")
  expect_error(predict(no_classifier, s$data, model_probs = s$model), regexp = "needs a fit with a classifier")
  # update(): a row of an item the model lacks is left out; a bad one is named.
  expect_error(update(fit, NULL, model_probs = bad), class = "crowdspec_invalid_argument",
               regexp = "model_probs row 2")
})
