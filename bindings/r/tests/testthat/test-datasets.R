# SPDX-License-Identifier: MIT
# The five real datasets of ../shared/datasets (the Opt-D&S paper's): the error rates
# and the MV-D&S log-likelihood checkpoints its README publishes, within its stated
# tolerances. Skipped when CROWDSPEC_DATASETS_DIR does not point at them.

# From shared/datasets/README.md: majority vote with ties scored fractionally (exact
# to 0.01 pp), the largest error allowed for MV-D&S and Opt-D&S, CrowdLloyd (within
# 0.5 pp), and the MV-D&S log-likelihood after rounds 1 and 10 (uniform prior, plain
# EM, every class possible), matched to about 12 digits.
REFERENCE <- data.frame(
  stem = c("bluebird", "rte", "trec", "dog", "web"),
  mv_ties = c(24.07, 10.31, 34.86, 17.78, 26.93),
  ds_max = c(11.11, 7.75, 30.52, 16.36, 17.46),
  opt_ds_max = c(10.19, 7.88, 30.30, 16.36, 17.88),
  crowd_lloyd = c(12.04, 6.88, 29.27, 15.99, 14.25),
  ll1 = c(-2108.831400066, -4181.815069205, -36213.04293849, -5237.380104417, -18678.44991852),
  ll10 = c(-1888.957473287, -3680.138021652, -34812.75968155, -4764.894207983, -17306.4419339),
  stringsAsFactors = FALSE
)

error_percent <- function(fit, truth) {
  l <- labels(fit)
  predicted <- stats::setNames(as.character(l$label), as.character(l$item))
  scored <- names(truth)
  100 * mean(predicted[scored] != as.character(truth))
}

# The papers' majority-vote score: an item tied between t classes, the truth among
# them, counts 1/t correct.
tie_fractional_percent <- function(fit, truth) {
  p <- class_probabilities(fit)[names(truth), , drop = FALSE]
  top <- apply(p, 1, max)
  is_top <- p == top
  hit <- is_top[cbind(seq_along(truth), match(as.character(truth), colnames(p)))]
  100 * (1 - sum(hit / rowSums(is_top)) / length(truth))
}

test_that("error rates on the five datasets are the published ones", {
  for (r in seq_len(nrow(REFERENCE))) {
    ref <- REFERENCE[r, ]
    d <- dataset(ref$stem)
    fits <- lapply(c(mv = "mv", ds = "ds", opt = "opt-ds", lloyd = "crowd-lloyd"),
                   function(method) suppressWarnings(crowdspec(d$crowd, method = method)))
    info <- ref$stem
    expect_lt(abs(tie_fractional_percent(fits$mv, d$truth) - ref$mv_ties), 0.005 + 1e-9)
    expect_lte(error_percent(fits$ds, d$truth), ref$ds_max + 1e-9, label = info)
    expect_lte(error_percent(fits$opt, d$truth), ref$opt_ds_max + 1e-9, label = info)
    expect_lt(abs(error_percent(fits$lloyd, d$truth) - ref$crowd_lloyd), 0.5 + 1e-9)
  }
})

test_that("MV-D&S log-likelihood after rounds 1 and 10 matches the reference", {
  for (r in seq_len(nrow(REFERENCE))) {
    ref <- REFERENCE[r, ]
    d <- dataset(ref$stem)
    fit <- suppressWarnings(crowdspec(d$crowd, method = "ds", prior = "uniform",
                                      accel = "none", support = "all", max_iter = 10L,
                                      tol = 0))
    expect_length(fit$trace, 10L)
    expect_lt(abs(fit$trace[1] - ref$ll1), 2e-12 * abs(ref$ll1))
    expect_lt(abs(fit$trace[10] - ref$ll10), 2e-12 * abs(ref$ll10))
  }
})

test_that("labels come back under the dataset's own ids and classes", {
  d <- dataset("dog")
  fit <- suppressWarnings(crowdspec(d$crowd, method = "mv"))
  expect_identical(fit$classes, c("1", "2", "3", "4"))
  expect_identical(labels(fit)$item, sort(unique(d$crowd$item)))
  expect_identical(sum(fit$worker_labels), nrow(d$crowd))
})
