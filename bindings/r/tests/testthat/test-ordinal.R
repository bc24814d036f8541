# SPDX-License-Identifier: MIT
# Ordered grades (issue 36): median_grades and mean_grades by hand from majority-vote
# shares, absent for unordered classes; the ordinal methods give them always.

test_that("posterior median and mean grades follow the vote shares", {
  # item a: votes 1, 2, 2 of grades 1..3; item b: votes 3, 1
  votes <- data.frame(item = c("a", "a", "a", "b", "b"), worker = c(1, 2, 3, 1, 2),
                      label = c(1L, 2L, 2L, 3L, 1L))
  plain <- crowdspec(votes, method = "mv")
  expect_null(plain$median_grades)
  fit <- crowdspec(votes, method = "mv", ordinal = 1)
  # shares (1/3, 2/3, 0) and (1/2, 0, 1/2): medians 2 and 1, means (positions 1..3) 5/3 and 2
  expect_identical(unname(fit$median_grades), c(2L, 1L))
  expect_equal(unname(fit$mean_grades), c(5 / 3, 2), tolerance = 1e-14)
  expect_identical(names(fit$median_grades), c("a", "b"))
  ord <- crowdspec(votes, method = "ordinal-ds")
  expect_length(ord$median_grades, 2L)
  expect_true(all(ord$mean_grades >= 1 & ord$mean_grades <= 3))
})
