# SPDX-License-Identifier: MIT
# update() of a fit (cs_update / cs_refit through the fit's saved model, a raw vector
# of cs_save_buffer) and saveRDS() / readRDS() of fits.

# A crowd of 120 items (ids 1..120), 12 workers, 3 classes: every worker labels an
# item of the first 90, so a first fit of items 1..90 sees all workers, and the
# library's ids of a fit of all items are the same as the updated model's.
update_crowd <- function() {
  set.seed(38)
  accuracy <- seq(0.55, 0.95, length.out = 12)
  rows <- lapply(1:120, function(j) {
    truth <- (j %% 3) + 1L
    w <- ((j * 5 + 0:3 * 7) %% 12) + 1L
    right <- stats::runif(4) < accuracy[w]
    label <- ifelse(right, truth, ((truth + sample.int(2, 4, replace = TRUE) - 1L) %% 3) + 1L)
    data.frame(item = j, worker = paste0("w", w), label = letters[label])
  })
  do.call(rbind, rows)
}

test_that("a fit of the Dawid-Skene family carries its saved model; mv does not", {
  d <- update_crowd()
  fit <- crowdspec(d, method = "auto")
  expect_type(fit$model, "raw")
  expect_identical(fit$model[1:4], as.raw(c(0x89, 0x43, 0x53, 0x4d)))  # the magic "\x89CSM"
  expect_null(crowdspec(d, method = "mv")$model)
  expect_null(crowdspec(d, method = "ds", keep_labels = 0)$model)
  expect_error(update(crowdspec(d, method = "mv"), d), "no saved model")
})

test_that("update then a full refit is the fit of every label (cs_refit = cs_fit)", {
  d <- update_crowd()
  first <- d[d$item <= 90, ]
  later <- d[d$item > 90, ]
  full <- crowdspec(d, method = "auto", calibration = "none")
  refitted <- update(crowdspec(first, method = "auto", calibration = "none"), later,
                     refit = TRUE)
  expect_identical(as.character(refitted$items), as.character(full$items))
  expect_equal(refitted$posteriors, full$posteriors, tolerance = 1e-12)
  expect_equal(refitted$confusion, full$confusion, tolerance = 1e-12)
  expect_false("incremental" %in% refitted$notes)
  expect_identical(refitted$n_labels, nrow(d))
  expect_identical(sum(refitted$worker_labels), nrow(d))
})

test_that("an incremental update: new items at the old workers' E-step, names kept", {
  d <- update_crowd()
  fit <- crowdspec(d, method = "ds", calibration = "none")
  # one new item, labelled by three known workers; one round, no sweep: its posterior
  # is the E-step at the fitted workers (predict), the old items move by rounding only
  batch <- data.frame(item = 500L, worker = c("w2", "w5", "w9"), label = c("b", "b", "a"))
  up <- update(fit, batch, update_rounds = 1, update_sweep = 0)
  expect_identical(as.character(up$items), c(as.character(fit$items), "500"))
  expected <- predict(fit, batch, type = "probabilities")
  expect_equal(up$posteriors["500", ], expected["500", ], tolerance = 1e-12)
  expect_equal(up$posteriors[as.character(fit$items), ], fit$posteriors, tolerance = 1e-12)
  expect_true("incremental" %in% up$notes)
  # a new worker and a known item: the model grows by one worker
  up2 <- update(up, data.frame(item = 3L, worker = "newcomer", label = "c"))
  expect_identical(dimnames(up2$confusion)$worker, c(dimnames(fit$confusion)$worker, "newcomer"))
  expect_identical(up2$worker_labels[["newcomer"]], 1L)
  # the batch's row order does not matter
  batch2 <- data.frame(item = c(700L, 600L, 700L, 600L), worker = c("w1", "w3", "w4", "w1"),
                       label = c("a", "c", "a", "c"))
  a <- update(fit, batch2)
  b <- update(fit, batch2[4:1, ])
  expect_equal(a$posteriors, b$posteriors, tolerance = 1e-12)
})

test_that("saveRDS / readRDS keep everything an update needs", {
  d <- update_crowd()
  fit <- crowdspec(d[d$item <= 90, ], method = "auto")
  path <- tempfile(fileext = ".rds")
  on.exit(unlink(path))
  saveRDS(fit, path)
  back <- readRDS(path)
  expect_identical(back$model, fit$model)
  later <- d[d$item > 90, ]
  expect_identical(update(back, later)$posteriors, update(fit, later)$posteriors)
})

test_that("damaged models, duplicates and unknown classes are refused", {
  d <- update_crowd()
  fit <- crowdspec(d, method = "ds")
  bad <- fit
  bad$model[200] <- as.raw(bitwXor(as.integer(bad$model[200]), 1L))
  expect_error(update(bad, NULL, refit = TRUE), class = "crowdspec_corrupt_model")
  cut <- fit
  cut$model <- cut$model[1:100]
  expect_error(update(cut, NULL, refit = TRUE), "truncated")
  newer <- fit
  newer$model[9] <- as.raw(9)
  expect_error(update(newer, NULL, refit = TRUE), class = "crowdspec_model_version")
  expect_error(update(fit, d[1, ]), class = "crowdspec_duplicate")
  expect_error(update(fit, data.frame(item = 1L, worker = "w1", label = "z")), "not a class")
  expect_error(update(fit, d[1, ], refit = NA), "TRUE or FALSE")
})
