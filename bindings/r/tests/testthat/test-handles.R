# SPDX-License-Identifier: MIT
# Library handles: freed by the finalizer when R collects them, never twice, and
# never left behind by a fit, whether it succeeds, fails or is interrupted.

live <- function() crowdspec:::.live_handles()

test_that("the finalizer frees a handle R no longer references", {
  base <- live()
  h <- crowdspec:::.handle_new()
  expect_identical(live(), base + 1L)
  rm(h)
  invisible(gc())
  expect_identical(live(), base)
  hs <- lapply(1:50, function(i) crowdspec:::.handle_new())
  expect_identical(live(), base + 50L)
  rm(hs)
  invisible(gc())
  expect_identical(live(), base)
})

test_that("an explicitly destroyed handle is not freed again", {
  base <- live()
  h <- crowdspec:::.handle_new()
  crowdspec:::.handle_destroy(h)
  expect_identical(live(), base)
  crowdspec:::.handle_destroy(h)          # a second destroy is a no-op
  expect_identical(live(), base)
  h2 <- h                                 # a copy of the R reference: same pointer
  rm(h)
  invisible(gc())
  expect_identical(live(), base)          # the finalizer found nothing to free
  expect_error(crowdspec:::.handle_set(h2, "tol", "0.1"), class = "crowdspec_null_handle")
  rm(h2)
  invisible(gc())
  expect_identical(live(), base)
})

test_that("fits free their handle on success, failure and user cancellation", {
  base <- live()
  v <- test_vector()
  fit <- crowdspec(v, method = "ds")
  expect_identical(live(), base)
  expect_error(crowdspec(v, tol = 5), class = "crowdspec_param_range")
  expect_identical(live(), base)
  v2 <- v
  v2$label[7] <- NA
  expect_error(crowdspec(v2), class = "crowdspec_invalid_label")
  expect_identical(live(), base)
  expect_error(crowdspec(v, progress = function(i, o) stop("from progress")), "from progress")
  expect_identical(live(), base)
  suppressWarnings(crowdspec(v, method = "ds", progress = function(i, o) i >= 1))
  expect_identical(live(), base)
  expect_error(crowdspec_cluster(matrix(NA_real_, 3, 2), 2), class = "crowdspec_non_finite")
  expect_identical(live(), base)
  invisible(gc())
  expect_identical(live(), base)
})
