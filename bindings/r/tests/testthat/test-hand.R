# SPDX-License-Identifier: MIT
# Cases small enough to work out by hand: majority vote's vote shares and its
# M-step confusion matrices, the order of classes and ids, gold, points and graphs.

test_that("majority vote: posteriors are the vote shares, ties go to the first class", {
  fit <- crowdspec(votes, method = "mv")
  expected <- rbind(a = c(2, 1) / 3, b = c(0, 1), c = c(1, 1) / 2)
  expect_equal(unname(class_probabilities(fit)), unname(expected), tolerance = 1e-15)
  expect_identical(dimnames(class_probabilities(fit)),
                   list(item = c("a", "b", "c"), class = c("cat", "dog")))
  l <- labels(fit)
  expect_identical(l$item, c("a", "b", "c"))
  expect_identical(l$label, factor(c("cat", "dog", "cat"), levels = c("cat", "dog")))
  expect_equal(l$confidence, c(2 / 3, 1, 1 / 2), tolerance = 1e-15)
  expect_identical(fit$iterations, 0L)
  expect_true(fit$converged)
})

test_that("majority vote: confusion is the M-step from the vote shares, [worker, true, observed]", {
  fit <- crowdspec(votes, method = "mv")
  q <- rbind(a = c(2, 1) / 3, b = c(0, 1), c = c(1, 1) / 2)
  # worker x labelled a cat, b dog, c cat
  # P(x says cat | true cat) = (q_a,cat + q_c,cat) / (q_a,cat + q_b,cat + q_c,cat)
  x_cat <- (q[["a", 1]] + q[["c", 1]]) / sum(q[, 1])
  x_dog <- (q[["a", 2]] + q[["c", 2]]) / sum(q[, 2])
  conf <- confusion(fit)
  expect_identical(dimnames(conf), list(worker = c("x", "y", "z"), true = c("cat", "dog"),
                                        observed = c("cat", "dog")))
  expect_equal(conf["x", "cat", "cat"], x_cat, tolerance = 1e-14)
  expect_equal(conf["x", "cat", "dog"], 1 - x_cat, tolerance = 1e-14)
  expect_equal(conf["x", "dog", "cat"], x_dog, tolerance = 1e-14)
  # worker z always says dog
  expect_equal(unname(conf["z", , "dog"]), c(1, 1), tolerance = 1e-15)
  # worker y labelled a (cat) and b (dog) only
  y_cat <- q[["a", 1]] / (q[["a", 1]] + q[["b", 1]])
  expect_equal(conf["y", "cat", "cat"], y_cat, tolerance = 1e-14)
  expect_equal(unname(apply(conf, c(1, 2), sum)), matrix(1, 3, 2), tolerance = 1e-14)
  # the estimated prior is the mean posterior
  expect_equal(unname(class_prior(fit)), colMeans(q), tolerance = 1e-14)
  expect_equal(worker_accuracy(fit)[["z"]],
               sum(class_prior(fit) * c(conf["z", "cat", "cat"], conf["z", "dog", "dog"])),
               tolerance = 1e-15)
})

test_that("gold pins an item; gold for an unlabelled item adds it", {
  gold <- data.frame(item = c("c", "d"), label = c("dog", "cat"))
  fit <- crowdspec(votes, method = "mv", gold = gold)
  p <- class_probabilities(fit)
  expect_identical(rownames(p), c("a", "b", "c", "d"))
  expect_equal(unname(p["c", ]), c(0, 1))
  expect_equal(unname(p["d", ]), c(1, 0))
  expect_equal(unname(p["a", ]), c(2, 1) / 3, tolerance = 1e-15)
})

test_that("classes: numbers numerically, text by bytes, logicals FALSE first", {
  d <- data.frame(item = c(1L, 1L, 2L, 2L, 10L, 10L), worker = c(1L, 2L, 1L, 2L, 1L, 2L),
                  label = c(10, 10, 2, 2, 2, 10))
  fit <- crowdspec(d, method = "mv")
  expect_identical(fit$classes, c("2", "10"))
  expect_identical(labels(fit)$item, c(1L, 2L, 10L))       # ids numerically, type kept
  expect_identical(as.character(labels(fit)$label), c("10", "2", "2"))  # tie -> "2"

  d$label <- c("b", "b", "B", "B", "a", "B")
  fit <- crowdspec(d, method = "mv")
  expect_identical(fit$classes, c("B", "a", "b"))            # C-locale byte order

  d$label <- c(TRUE, TRUE, FALSE, FALSE, TRUE, FALSE)
  fit <- crowdspec(d, method = "mv")
  expect_identical(fit$classes, c("FALSE", "TRUE"))
  expect_identical(as.character(labels(fit)$label), c("TRUE", "FALSE", "FALSE"))
})

test_that("columns are found by name or number; as.data.frame adds p_<class>", {
  d <- votes
  names(d) <- c("task", "annotator", "answer")
  fit <- crowdspec(d, item = 1, worker = "annotator", label = 3, method = "mv")
  df <- as.data.frame(fit)
  expect_identical(names(df), c("item", "label", "confidence", "p_cat", "p_dog"))
  expect_equal(df$p_dog, c(1 / 3, 1, 1 / 2), tolerance = 1e-15)
})

test_that("points: two far-apart groups, centres are their means", {
  x <- rbind(cbind(c(0, 1, 0, 1), c(0, 0, 1, 1)), cbind(c(100, 101, 100), c(50, 50, 52)))
  colnames(x) <- c("u", "v")
  fit <- crowdspec_cluster(x, 2, method = "lloyd")
  expect_identical(length(unique(fit$cluster[1:4])), 1L)
  expect_identical(length(unique(fit$cluster[5:7])), 1L)
  a <- fit$cluster[1]
  b <- fit$cluster[5]
  expect_false(a == b)
  expect_equal(unname(fit$centers[a, ]), c(0.5, 0.5), tolerance = 1e-12)
  expect_equal(unname(fit$centers[b, ]), c(100 + 1 / 3, 50 + 2 / 3), tolerance = 1e-12)
  expect_identical(colnames(fit$centers), c("u", "v"))
  expect_identical(sort(fit$size), c(3L, 4L))
  expect_equal(sort(class_prior(fit)), c(3, 4) / 7, tolerance = 1e-15)
})

test_that("graphs: two 4-cliques joined by one edge", {
  clique <- function(nodes) t(utils::combn(nodes, 2))
  e <- rbind(clique(c("a", "b", "c", "d")), clique(c("e", "f", "g", "h")), c("d", "e"))
  fit <- crowdspec_communities(data.frame(e, stringsAsFactors = FALSE), 2)
  com <- fit$community
  expect_identical(names(com), letters[1:8])
  expect_identical(length(unique(com[1:4])), 1L)
  expect_identical(length(unique(com[5:8])), 1L)
  expect_false(com[["a"]] == com[["e"]])
  # 12 within-community pairs, all adjacent; 16 pairs across, one adjacent
  expect_equal(fit$within, 1)
  expect_equal(fit$between, 1 / 16, tolerance = 1e-15)
})
