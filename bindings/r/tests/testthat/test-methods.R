# SPDX-License-Identifier: MIT
# print, summary, plot and the library listings.

test_that("print and summary show the fit", {
  v <- test_vector()
  fit <- crowdspec(v, method = "ds")
  expect_output(print(fit), "method ds, 60 items, 10 workers, 3 classes, 240 labels")
  s <- summary(fit)
  expect_s3_class(s, "summary.crowdspec_fit")
  expect_identical(s$workers$labels, as.integer(table(v$worker)))
  expect_equal(s$workers$accuracy, unname(worker_accuracy(fit)))
  expect_output(print(s), "Workers")
  expect_identical(sum(s$label_counts), 60L)
})

test_that("plot draws worker accuracy and the pooled confusion matrix", {
  v <- test_vector()
  fit <- crowdspec(v, method = "ds")
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  out <- plot(fit)
  acc <- worker_accuracy(fit)
  expect_identical(out$accuracy, sort(acc, decreasing = TRUE))
  # by hand: sum over workers of (labels given) x confusion, over all labels
  n <- as.numeric(table(v$worker))
  pooled <- matrix(0, 3, 3)
  for (i in 1:10) pooled <- pooled + n[i] * confusion(fit)[i, , ]
  expect_equal(unname(out$confusion), unname(pooled / 240), tolerance = 1e-14)
  expect_equal(unname(rowSums(out$confusion)), rep(1, 3), tolerance = 1e-14)
  one <- plot(fit, which = "confusion", worker = "4")
  expect_identical(one$confusion, confusion(fit)["4", , ])
  expect_error(plot(fit, worker = "nobody"), "one of the fit's workers")
})

test_that("the library's methods, parameters and version are listed", {
  m <- crowdspec_methods()
  expect_identical(unname(m[names(m) == "points"]), c("lloyd", "kmeans++"))
  expect_identical(crowdspec_methods("graph"), c("commu-lloyd", "spec", "spec-mle"))
  expect_true(all(c("bwa", "la", "la-onepass") %in% crowdspec_methods("crowd")))
  p <- crowdspec_params()
  expect_identical(p$default[p$name == "max_iter"], 1000)
  expect_identical(p$default[p$name == "tol"], 1e-10)
  expect_true(p$integer[p$name == "seed"])
  expect_match(crowdspec_version(), "^[0-9]+\\.[0-9]+\\.[0-9]+$")
})
