# SPDX-License-Identifier: MIT
#
# A classifier's class probabilities for the items of a crowd fit (issue 34), as the
# rows cs_set_model_probs takes. The binding converts: item ids to the fit's codes
# (as the labels' ids are), columns to the fit's class order. Whether the values are
# probabilities (finite, not negative, a row not all 0; each row is normalised) and
# whether the method takes them are the library's decisions; its errors come back
# naming the model_probs row and item they are about.

# model_probs -> list(item = 0-based item codes, probs = values row-major in class
# order, rows = each row's position in model_probs, ids = each row's item id), or a
# list of empty vectors when model_probs is NULL. model_probs is a data.frame with the
# item column (named as the data's, `item`; else its first column) and one numeric
# column per class named by the class, or a numeric matrix with the item ids as its
# rownames and the classes as its colnames (without colnames: the fit's classes in
# order). Rows of items the data does not have are left out (as Python's
# fit(df, model_probs=) does); an NA item id is passed on as -1, which the library
# rejects.
.model_rows <- function(model_probs, item, items, classes) {
  none <- list(item = integer(), probs = double(), rows = integer(), ids = character())
  if (is.null(model_probs)) return(none)
  k <- length(classes)
  if (is.data.frame(model_probs)) {
    id_col <- if (is.character(item) && item %in% names(model_probs)) match(item, names(model_probs)) else 1L
    ids <- model_probs[[id_col]]
    .check_atomic(ids, "the item column of model_probs")
    values <- model_probs[-id_col]
    numeric <- vapply(values, is.numeric, logical(1))
    if (!all(numeric)) {
      stop("model_probs column '", names(values)[!numeric][1L], "' is not numeric: ",
           "model_probs needs the item column and one probability column per class",
           call. = FALSE)
    }
    values <- as.matrix(values)
  } else if (is.matrix(model_probs) && is.numeric(model_probs)) {
    ids <- rownames(model_probs)
    if (is.null(ids)) {
      stop("model_probs as a matrix needs the item ids as its rownames", call. = FALSE)
    }
    values <- model_probs
  } else {
    stop("model_probs must be a data.frame (the item column and one probability column ",
         "per class) or a numeric matrix (rownames: item ids, one column per class)",
         call. = FALSE)
  }
  cols <- colnames(values)
  if (is.null(cols)) {
    if (ncol(values) != k) {
      stop("model_probs has ", ncol(values), " probability columns, the fit has ", k,
           " classes (", paste(classes, collapse = ", "), ")", call. = FALSE)
    }
    index <- seq_len(k)
  } else {
    unknown <- setdiff(cols, classes)
    if (length(unknown)) {
      stop("model_probs has the column '", unknown[1L], "', which is not a class of the ",
           "data (the classes: ", paste(classes, collapse = ", "), ")", call. = FALSE)
    }
    index <- match(classes, cols)
    if (anyNA(index) || ncol(values) != k) {
      missing <- classes[is.na(index)]
      stop("model_probs needs one probability column per class (", paste(classes, collapse = ", "),
           if (length(missing)) paste0("); it has none for '", missing[1L], "'") else
             "); it names a class twice", call. = FALSE)
    }
  }
  code <- .codes(as.character(ids), as.character(items))
  keep <- code >= 0L | is.na(ids)
  if (!any(keep)) {
    stop("model_probs has no row for an item of the data (its item ids must be those of ",
         "the data's item column)", call. = FALSE)
  }
  values <- values[keep, index, drop = FALSE]
  storage.mode(values) <- "double"
  list(item = code[keep], probs = as.vector(t(values)), rows = which(keep),
       ids = as.character(ids[keep]))
}

# The library's error about a model probability row (its row or item is a 0-based
# position among the rows passed, or an item code) with the model_probs row and the
# item id it is about appended; any other error as it is.
.name_model_row <- function(e, model, items) {
  text <- e$last_error
  if (is.null(text) || !length(model$item)) return(e)
  row <- regmatches(text, regexec("^(?:batch )?model probabilities: row ([0-9]+)", text, perl = TRUE))[[1L]]
  twice <- regmatches(text, regexec("^model probabilities: item ([0-9]+) has two rows", text))[[1L]]
  where <- NULL
  if (length(row) == 2L) {
    r <- as.integer(row[2L]) + 1L
    if (r <= length(model$rows)) {
      where <- paste0("model_probs row ", model$rows[r], ", item '", model$ids[r], "'")
    }
  } else if (length(twice) == 2L) {
    j <- as.integer(twice[2L]) + 1L
    if (j <= length(items)) where <- paste0("model_probs has two rows for item '", items[[j]], "'")
  }
  if (!is.null(where)) e$message <- paste0(e$message, " [", where, "]")
  e
}
