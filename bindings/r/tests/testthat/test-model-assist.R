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
})
