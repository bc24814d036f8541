# SPDX-License-Identifier: MIT
# Every cs_status becomes a condition of class crowdspec_error (and crowdspec_<name>)
# carrying the status, its name and the library's message; fit notes are warnings.

# The status codes of crowdspec.h (enum cs_status_code), typed from the header.
STATUSES <- c(
  CS_ERR_NULL_HANDLE = -1L, CS_ERR_NULL_POINTER = -2L, CS_ERR_INVALID_ARGUMENT = -3L,
  CS_ERR_UNKNOWN_PARAM = -4L, CS_ERR_PARAM_RANGE = -5L, CS_ERR_UNKNOWN_METHOD = -6L,
  CS_ERR_EMPTY_INPUT = -7L, CS_ERR_INVALID_ID = -8L, CS_ERR_INVALID_LABEL = -9L,
  CS_ERR_TOO_FEW_CLASSES = -10L, CS_ERR_DUPLICATE = -11L, CS_ERR_BUFFER_TOO_SMALL = -12L,
  CS_ERR_NOT_FITTED = -13L, CS_ERR_CANCELLED = -14L, CS_ERR_OUT_OF_MEMORY = -15L,
  CS_ERR_INTERNAL = -16L, CS_ERR_WRONG_INPUT_KIND = -17L, CS_ERR_NON_FINITE = -18L,
  CS_ERR_TOO_MANY_CLASSES = -19L, CS_ERR_TOO_LARGE = -20L, CS_ERR_BUSY = -21L,
  CS_ERR_CORRUPT_MODEL = -22L, CS_ERR_MODEL_VERSION = -23L,
  CS_ERR_INVALID_ANSWER = -24L,
  CS_ERR_NOT_CONNECTED = -25L
)

small <- data.frame(item = c(1L, 1L, 2L, 2L, 3L), worker = c(1L, 2L, 1L, 2L, 1L),
                    label = c("u", "v", "v", "v", "u"), stringsAsFactors = FALSE)

# The condition raised by expr, checked to be the library's status `name`.
expect_status <- function(expr, name, pattern = NULL) {
  e <- tryCatch({
    expr
    NULL
  }, error = function(e) e)
  expect_false(is.null(e), info = paste("no error for", name))
  if (is.null(e)) return(invisible(NULL))
  short <- paste0("crowdspec_", tolower(sub("^CS_ERR_", "", name)))
  expect_identical(class(e), c(short, "crowdspec_error", "error", "condition"))
  expect_identical(e$status_name, name)
  expect_identical(e$status, STATUSES[[name]])
  expect_true(nzchar(e$last_error))
  expect_identical(conditionMessage(e), paste0(name, ": ", e$last_error))
  if (!is.null(pattern)) expect_match(e$last_error, pattern)
  invisible(e)
}

test_that("the library names every status as the header does", {
  for (name in names(STATUSES)) expect_identical(crowdspec:::.status_name(STATUSES[[name]]), name)
  expect_identical(crowdspec:::.status_name(0L), "CS_OK")
})

test_that("the status and note tables agree with crowdspec.h", {
  header <- Sys.getenv("CROWDSPEC_HEADER")
  if (!nzchar(header) || !file.exists(header)) {
    skip(paste0("crowdspec.h not available (CROWDSPEC_HEADER=\"", header, "\")"))
  }
  text <- readLines(header)
  pick <- function(pattern) {
    m <- regmatches(text, regexec(pattern, text))
    m <- m[lengths(m) == 3L]
    stats::setNames(as.integer(vapply(m, `[`, "", 3L)), vapply(m, `[`, "", 2L))
  }
  statuses <- pick("^\\s*(CS_ERR_[A-Z_]+) = (-[0-9]+)")
  expect_identical(statuses, STATUSES)
  notes <- pick("^\\s*CS_NOTE_([A-Z_]+) = ([0-9]+)")
  names(notes) <- tolower(names(notes))
  expect_identical(notes, crowdspec:::.note_bits)
})

test_that("bad parameters: unknown name, out of range, unparsable, unknown method", {
  expect_status(crowdspec(small, nonsense = 1), "CS_ERR_UNKNOWN_PARAM", "nonsense")
  expect_status(crowdspec(small, tol = 2), "CS_ERR_PARAM_RANGE", "tol")
  expect_status(crowdspec(small, max_iter = -1L), "CS_ERR_PARAM_RANGE", "max_iter")
  expect_status(crowdspec(small, tol = "abc"), "CS_ERR_INVALID_ARGUMENT")
  expect_status(crowdspec(small, tol = NA), "CS_ERR_INVALID_ARGUMENT")
  expect_status(crowdspec(small, method = "no-such-method"), "CS_ERR_UNKNOWN_METHOD")
  expect_status(crowdspec(small, prior = "sometimes"), "CS_ERR_INVALID_ARGUMENT")
})

test_that("bad data: missing ids and labels, duplicates, one class, no labels", {
  d <- small
  d$worker[3] <- NA
  # the library's message counts labels from 0: row 3 is label index 2
  expect_status(crowdspec(d), "CS_ERR_INVALID_ID", "index 2")
  d <- small
  d$item[5] <- NA
  expect_status(crowdspec(d, method = "mv"), "CS_ERR_INVALID_ID", "index 4")
  d <- small
  d$label[1] <- NA
  expect_status(crowdspec(d, method = "mv"), "CS_ERR_INVALID_LABEL", "index 0")
  d <- rbind(small, data.frame(item = 1L, worker = 1L, label = "v"))
  expect_status(crowdspec(d, method = "mv"), "CS_ERR_DUPLICATE")
  expect_s3_class(crowdspec(d, method = "mv", duplicates = "first"), "crowdspec_fit")
  d <- small
  d$label <- "u"
  expect_status(crowdspec(d, method = "mv"), "CS_ERR_TOO_FEW_CLASSES")
  expect_status(crowdspec(small[0, ], method = "mv"), "CS_ERR_EMPTY_INPUT")
  # a gold label that is not a class of the factor label column
  d <- small
  d$label <- factor(d$label, levels = c("u", "v"))
  expect_status(crowdspec(d, method = "mv", gold = c("1" = "w")), "CS_ERR_INVALID_LABEL")
})

test_that("methods and inputs of the wrong kind; points and graph errors", {
  expect_status(crowdspec(small, method = "lloyd"), "CS_ERR_WRONG_INPUT_KIND")
  x <- matrix(c(0, 1, 2, 10, 11, 12), ncol = 1)
  expect_status(crowdspec_cluster(x, 2, method = "ds"), "CS_ERR_WRONG_INPUT_KIND")
  expect_status(crowdspec_communities(data.frame(1:2, 2:3), 2, method = "lloyd"),
                "CS_ERR_WRONG_INPUT_KIND")
  y <- x
  y[4] <- NA
  expect_status(crowdspec_cluster(y, 2), "CS_ERR_NON_FINITE")
  y[4] <- Inf
  expect_status(crowdspec_cluster(y, 2), "CS_ERR_NON_FINITE")
  expect_status(crowdspec_cluster(x, 7), "CS_ERR_TOO_MANY_CLASSES")
  expect_status(crowdspec_cluster(x, 1), "CS_ERR_TOO_FEW_CLASSES")
  expect_status(crowdspec_cluster(x[0, , drop = FALSE], 2), "CS_ERR_EMPTY_INPUT")
  expect_status(crowdspec_communities(data.frame(c(1, 2), c(1, 2)), 2), "CS_ERR_EMPTY_INPUT")
  expect_status(crowdspec_communities(data.frame(c(1, 2), c(2, 9)), 2, nodes = 1:3),
                "CS_ERR_INVALID_ID")
})

test_that("a destroyed handle is CS_ERR_NULL_HANDLE, an unfitted one CS_ERR_NOT_FITTED", {
  h <- crowdspec:::.handle_new()
  expect_status(crowdspec:::.handle_n_items(h), "CS_ERR_NOT_FITTED")
  expect_status(crowdspec:::.handle_set(h, "tol", "7"), "CS_ERR_PARAM_RANGE")
  crowdspec:::.handle_set(h, "tol", "0.5")
  crowdspec:::.handle_destroy(h)
  expect_status(crowdspec:::.handle_set(h, "tol", "0.5"), "CS_ERR_NULL_HANDLE")
  expect_status(crowdspec:::.handle_n_items(h), "CS_ERR_NULL_HANDLE")
})

test_that("every status maps to its condition class", {
  # the statuses no R call can produce (a NULL pointer, a short buffer, ...) go
  # through the same mapping
  for (name in names(STATUSES)) {
    s <- STATUSES[[name]]
    e <- crowdspec:::.crowdspec_condition(s, crowdspec:::.status_name(s), "why")
    expect_s3_class(e, "crowdspec_error")
    expect_identical(class(e)[1], paste0("crowdspec_", tolower(sub("^CS_ERR_", "", name))))
    expect_identical(e$status, s)
    expect_identical(conditionMessage(e), paste0(name, ": why"))
    caught <- tryCatch(stop(e), crowdspec_error = function(err) err$status_name)
    expect_identical(caught, name)
  }
})

test_that("R-level misuse is an ordinary error before the library is called", {
  expect_error(crowdspec(list(1, 2)), "data.frame")
  expect_error(crowdspec(small, item = "nope"), "no column 'nope'")
  expect_error(crowdspec(small, "item", "worker", "label", "mv", NULL, 50), "must be named")
  expect_error(crowdspec(small, classes = 3), "set by the package")
  expect_error(crowdspec(small, tol = c(1, 2)), "single value")
  expect_error(crowdspec_cluster("x", 2), "numeric matrix")
  e <- tryCatch(crowdspec(small, item = "nope"), error = identity)
  expect_false(inherits(e, "crowdspec_error"))
})

test_that("fit notes are warnings of class crowdspec_warning", {
  v <- test_vector()
  w <- tryCatch(crowdspec(v, method = "ds", max_iter = 2L, accel = "none"),
                warning = identity)
  expect_s3_class(w, "crowdspec_warning")
  expect_true("max_iter_reached" %in% w$notes)
  expect_match(conditionMessage(w), "max_iter_reached")
  expect_match(w$last_error, "max_iter = 2")
  fit <- suppressWarnings(crowdspec(v, method = "ds", max_iter = 2L, accel = "none"))
  expect_identical(fit$iterations, 2L)
  expect_false(fit$converged)
  expect_true("max_iter_reached" %in% fit$notes)
  # tol = 0 asks for exactly max_iter rounds: no note, no warning
  expect_silent(fit0 <- crowdspec(v, method = "ds", max_iter = 2L, tol = 0, accel = "none"))
  expect_identical(fit0$notes, character())
  expect_silent(crowdspec(v, method = "mv"))
})

test_that("a note's items are named as the data names them", {
  # Two workers who disagree on alpha and agree on "be ta": EM ends at a degenerate
  # maximum, and the library's note names the first such item by its number (0).
  d <- data.frame(item = c("alpha", "alpha", "be ta", "be ta"), worker = c(1L, 2L, 1L, 2L),
                  label = c(0L, 1L, 1L, 1L))
  w <- tryCatch(crowdspec(d), warning = identity)
  expect_s3_class(w, "crowdspec_warning")
  expect_true("degenerate_maximum" %in% w$notes)
  expect_match(conditionMessage(w), "(the first is item 'alpha')", fixed = TRUE)
  expect_match(w$last_error, "(the first is item 0)", fixed = TRUE)
  expect_identical(crowdspec:::.name_items("item 1 and item 7, items 1, subitem 1, item 12x", c("a", "b")),
                   "item 'b' and item 7, items 1, subitem 1, item 12x")
})
