# SPDX-License-Identifier: MIT
# crowdspec_rank: the two-item maximum-likelihood case by hand, Crowd-BT finding the
# adversaries of simulated comparisons, ties and input errors.

test_that("two items, 3 wins to 1, no prior: scores +- log(3) / 2", {
  d <- data.frame(worker = "w", left = c("a", "a", "a", "b"), right = c("b", "b", "b", "a"),
                  label = c("a", "a", "b", "a"))
  r <- crowdspec_rank(d, comparison_prior = 0)
  expect_equal(r$scores$item, c("a", "b"))
  expect_equal(r$scores$score, c(log(3) / 2, -log(3) / 2), tolerance = 1e-6)
  expect_equal(r$scores$se[1], sqrt(1 / 3), tolerance = 1e-5)
  expect_null(r$workers)
})

test_that("crowd-bt flags adversarial workers", {
  set.seed(7)
  n <- 8000
  s <- rnorm(40)
  eta <- c(rep(0.9, 8), rep(0.15, 2))
  w <- sample.int(10, n, replace = TRUE)
  a <- sample.int(40, n, replace = TRUE)
  b <- (a + sample.int(39, n, replace = TRUE) - 1L) %% 40L + 1L
  left_wins <- runif(n) < 1 / (1 + exp(s[b] - s[a]))
  left_wins <- xor(left_wins, runif(n) >= eta[w])
  d <- data.frame(worker = w, left = a, right = b, label = ifelse(left_wins, a, b))
  r <- crowdspec_rank(d, "crowd-bt")
  expect_equal(r$workers$reliability < 0.5, eta < 0.5)
  est <- r$scores$score[order(r$scores$item)]
  expect_gt(cor(est, s, method = "spearman"), 0.9)
  expect_true(all(diff(r$trace) >= -1e-8))
})

test_that("ties and bad labels", {
  d <- data.frame(left = c("a", "b"), right = c("b", "c"), label = c(NA, "b"))
  r <- crowdspec_rank(d, "noisy-bt", ties = "half")
  expect_equal(nrow(r$workers), 1L)
  expect_true(all(c("reliability", "bias") %in% names(r$workers)))
  d$label[2] <- "z"
  expect_error(crowdspec_rank(d), "neither its left item")
  expect_error(crowdspec_rank(data.frame(left = "a", right = "b", label = "a"), "crowd-bt", ties = "davidson"),
               class = "crowdspec_invalid_argument")
})
