# SPDX-License-Identifier: MIT
# Shared helpers of the tests: the test vector, the shared datasets, and the C API's
# own results through the reference program (ctest/cs_reference.c).

TOL <- 1e-12

# The hand case of test-hand.R and test-model-assist.R: majority vote gives the vote
# shares a (2/3, 1/3), b (0, 1), c (1/2, 1/2).
votes <- data.frame(
  item = c("a", "a", "a", "b", "b", "b", "c", "c"),
  worker = c("x", "y", "z", "x", "y", "z", "x", "z"),
  label = c("cat", "cat", "dog", "dog", "dog", "dog", "cat", "dog"),
  stringsAsFactors = FALSE
)

# A data frame of integer triples from a whitespace file (comment lines skipped).
read_triples <- function(path) {
  t <- utils::read.table(path, comment.char = "#", col.names = c("item", "worker", "label"),
                         colClasses = "integer")
  t
}

vector_path <- function(name = "vector.txt") {
  path <- system.file("extdata", name, package = "crowdspec")
  if (!nzchar(path)) stop("the package's extdata/", name, " is missing")
  path
}

test_vector <- function() read_triples(vector_path())

datasets_dir <- function() {
  # CROWDSPEC_DATASETS_DIR, as in every binding's tests; the older CROWDSPEC_DATASETS
  # still works.
  dir <- Sys.getenv("CROWDSPEC_DATASETS_DIR", Sys.getenv("CROWDSPEC_DATASETS"))
  if (!nzchar(dir) || !file.exists(file.path(dir, "bluebird_crowd.txt"))) {
    skip(paste0("the shared datasets are not available (CROWDSPEC_DATASETS_DIR=\"", dir,
                "\" has no bluebird_crowd.txt)"))
  }
  dir
}

# NAME_crowd.txt as integer triples and NAME_truth.txt as a named vector (item ->
# label; repeated lines, as in dog, collapse).
dataset <- function(stem) {
  dir <- datasets_dir()
  crowd <- read_triples(file.path(dir, paste0(stem, "_crowd.txt")))
  truth <- utils::read.table(file.path(dir, paste0(stem, "_truth.txt")),
                             col.names = c("item", "label"), colClasses = "integer")
  truth <- truth[!duplicated(truth$item), ]
  list(crowd = crowd, truth = stats::setNames(truth$label, truth$item))
}

c_reference <- function() {
  exe <- Sys.getenv("CROWDSPEC_C_REFERENCE")
  if (!nzchar(exe) || !file.exists(exe)) {
    skip(paste0("no C-API reference program (CROWDSPEC_C_REFERENCE=\"", exe,
                "\"; ctest sets it to the build's cs_r_reference)"))
  }
  exe
}

# Fit `lines` (the input file's lines) with the C API alone and read every result.
# model_probs: NULL, or list(item = 0-based ids, probs = a rows x k matrix) for
# cs_set_model_probs (the classifier's confusion matrix is then in $rest).
run_c <- function(mode, lines, method, params = list(), gold = NULL, model_probs = NULL) {
  exe <- c_reference()
  input <- tempfile("cs_in_")
  output <- tempfile("cs_out_")
  on.exit(unlink(c(input, output)), add = TRUE)
  writeLines(lines, input)
  args <- c(mode, input, output, method)
  for (name in names(params)) args <- c(args, name, crowdspec:::.param_text(name, params[[name]]))
  if (!is.null(gold)) {
    gold_file <- tempfile("cs_gold_")
    on.exit(unlink(gold_file), add = TRUE)
    writeLines(sprintf("%d %d", gold$item, gold$label), gold_file)
    args <- c(args, "gold", gold_file)
  }
  if (!is.null(model_probs)) {
    model_file <- tempfile("cs_model_")
    on.exit(unlink(model_file), add = TRUE)
    rows <- apply(model_probs$probs, 1L, function(p) paste(sprintf("%.17g", p), collapse = " "))
    writeLines(c(ncol(model_probs$probs), paste(model_probs$item, rows)), model_file)
    args <- c(args, "model_probs", model_file)
  }
  err <- system2(exe, shQuote(args), stdout = TRUE, stderr = TRUE)
  status <- attr(err, "status")
  if (!is.null(status) && status != 0) stop("cs_reference failed: ", paste(err, collapse = "\n"))
  out <- readLines(output)
  head <- scan(text = out[1], quiet = TRUE)
  values <- as.numeric(out[-1])
  ni <- head[1]; nw <- head[2]; k <- head[3]; nt <- head[4]
  take <- function(n) {
    v <- values[seq_len(n)]
    values <<- values[seq_len(length(values) - n) + n]
    v
  }
  r <- list(n_items = ni, n_workers = nw, k = k, iterations = head[5],
            converged = head[6] == 1, notes = head[7], log_likelihood = head[8])
  r$labels <- take(ni)
  r$posteriors_raw <- take(ni * k)      # items x k, row-major
  r$confusion_raw <- take(nw * k * k)   # worker x true x observed, row-major
  r$prior <- take(k)
  r$trace <- take(nt)
  r$rest <- values
  r
}

crowd_lines <- function(item, worker, label) sprintf("%d %d %d", item, worker, label)

# Row-major positions: the (1-based) R indices of raw entry 1, 2, ... of an array of
# extents `dims` whose last index varies fastest (as in C).
row_major_index <- function(dims) {
  g <- do.call(expand.grid, rev(lapply(dims, seq_len)))
  as.matrix(g[, rev(seq_along(dims)), drop = FALSE])
}

# The R fit's results against the C program's, all to 1e-12 (labels exactly). Entry
# [j, l] of class_probabilities() must be the C API's posterior j * k + l, entry
# [i, l, c] of confusion() its ((i * k) + l) * k + c.
expect_same_as_c <- function(fit, c) {
  codes <- as.integer(labels(fit)$label) - 1L
  expect_identical(codes, as.integer(c$labels))
  post <- class_probabilities(fit)
  expect_identical(dim(post), as.integer(c(c$n_items, c$k)))
  expect_lte(max(abs(post[row_major_index(dim(post))] - c$posteriors_raw)), TOL)
  conf <- confusion(fit)
  expect_identical(dim(conf), as.integer(c(c$n_workers, c$k, c$k)))
  if (length(conf)) {
    expect_lte(max(abs(conf[row_major_index(dim(conf))] - c$confusion_raw)), TOL)
  }
  expect_lte(max(abs(unname(class_prior(fit)) - c$prior)), TOL)
  expect_identical(length(fit$trace), length(c$trace))
  if (length(c$trace)) {
    expect_lte(max(abs(fit$trace - c$trace) / pmax(1, abs(c$trace))), TOL)
  }
  expect_identical(fit$iterations, as.integer(c$iterations))
  expect_identical(fit$converged, c$converged)
  expect_lte(abs(fit$log_likelihood - c$log_likelihood) / max(1, abs(c$log_likelihood)), TOL)
  expect_identical(fit$notes, crowdspec:::.note_names(c$notes))
}

# A crowd of 900 items (classes a, b, c in turn), `per_item` labels each (3) from 30
# workers right `accuracy` of the time (0.65; errors uniform), and a classifier right
# 90 % of the time on a and b that calls every item of class c "b", always with
# confidence 0.9 (R's RNG; test-model-assist.R, test-model-update.R).
simulated_with_model <- function(seed = 7L, per_item = 3L, accuracy = 0.65) {
  set.seed(seed)
  classes <- c("a", "b", "c")
  n <- 900L
  truth <- rep_len(1:3, n)
  item <- worker <- label <- integer()
  for (j in seq_len(n)) {
    who <- sample.int(30L, per_item)
    said <- ifelse(runif(per_item) > accuracy,
                   (truth[j] + sample.int(2L, per_item, replace = TRUE) - 1L) %% 3L + 1L, truth[j])
    item <- c(item, rep(j, per_item)); worker <- c(worker, who); label <- c(label, said)
  }
  model_said <- ifelse(truth == 3L, 2L,
                       ifelse(runif(n) > 0.9, (truth + sample.int(2L, n, replace = TRUE) - 1L) %% 3L + 1L,
                              truth))
  probs <- matrix(0.05, n, 3L, dimnames = list(NULL, classes))
  probs[cbind(seq_len(n), model_said)] <- 0.9
  ids <- sprintf("img%04d", seq_len(n))
  list(data = data.frame(item = ids[item], worker = sprintf("w%02d", worker),
                         label = classes[label], stringsAsFactors = FALSE),
       model = data.frame(item = ids, probs, stringsAsFactors = FALSE),
       truth = stats::setNames(classes[truth], ids), model_said = classes[model_said])
}
