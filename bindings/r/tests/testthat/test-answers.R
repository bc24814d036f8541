# SPDX-License-Identifier: MIT
# Numeric answers and tags: the hand-computed cases of tests/test_numbers.cpp and
# crowd-kit's BinaryRelevance example.

test_that("crowdspec_numbers: the mean by hand", {
  d <- data.frame(item = c(1, 1, 1, 2, 3, 3), worker = c("a", "b", "c", "a", "b", "c"),
                  value = c(1, 2, 6, 4, 3, 5))
  f <- crowdspec_numbers(d, method = "mean")
  expect_equal(f$estimates$value, c(3, 4, 4))
  expect_equal(f$estimates$se, c(sqrt(7 / 3), sqrt(16 / 3), 1))
  expect_equal(f$workers$bias[1], -1)
  expect_equal(f$workers$answers, c(2L, 2L, 2L))
  expect_warning(g <- crowdspec_numbers(d, method = "gaussian", max_iter = 1, worker_bias = "off",
                                        variance_prior = 0), "max_iter_reached")
  expect_equal(g$estimates$value, c(3.7 / 1.7, 4, 4 / 1.2))
  expect_equal(g$workers$noise, sqrt(c(2, 1, 5)))
  expect_error(crowdspec_numbers(d, method = "ds"), class = "crowdspec_error")
})

test_that("crowdspec_tags: crowd-kit's example", {
  d <- data.frame(item = c("t1", "t1", "t1", "t2", "t2", "t2"), worker = c("w1", "w2", "w3", "w1", "w2", "w3"),
                  tags = c("house|tree", "house", "house|tree|grass", "car", "car|human", "train"))
  f <- crowdspec_tags(d, method = "mv")
  expect_equal(unname(f$probabilities["t1", ]), c(0, 1 / 3, 1, 0, 0, 2 / 3))
  expect_equal(f$tags$tags, c("house|tree", "car"))
  expect_equal(crowdspec_tags(d, method = "mv", threshold = 0.3)$tags$tags, c("grass|house|tree", "car|human|train"))
  for (m in c("auto", "tag-pooled", "ds")) expect_equal(crowdspec_tags(d, method = m)$tags$tags, c("house|tree", "car"))
  d$tags <- list(c("house", "tree"), "house", c("house", "tree", "grass"), "car", c("car", "human"), "train")
  expect_equal(crowdspec_tags(d, method = "mv")$tags$tags, c("house|tree", "car"))
})
