# SPDX-License-Identifier: MIT
#
# R values to the library's 0-based int32 codes and parameter strings, and back.
# A missing value becomes the code -1, which the library rejects with its own status
# (CS_ERR_INVALID_ID for ids, CS_ERR_INVALID_LABEL for labels) and message.

# Distinct values in the order used for codes: factor levels in level order (only the
# levels that occur, unless keep_unused), else the sorted distinct values (numbers
# numerically, text by bytes as in the C locale, FALSE before TRUE).
.distinct <- function(x, keep_unused = FALSE) {
  if (is.factor(x)) {
    lv <- levels(x)
    if (keep_unused) return(factor(lv, levels = lv))
    used <- sort(unique(as.integer(x)[!is.na(x)]))
    return(factor(lv[used], levels = lv[used]))
  }
  u <- unique(x[!is.na(x)])
  if (length(u) > 1L) u <- sort(u, method = "radix")
  u
}

# 0-based codes of x among `values`; NA (and any value not among them) -> -1.
.codes <- function(x, values) {
  if (is.factor(x) || is.factor(values)) {
    code <- match(as.character(x), as.character(values))
  } else {
    code <- match(x, values)
  }
  code <- code - 1L
  code[is.na(code)] <- -1L
  as.integer(code)
}

.check_atomic <- function(x, what) {
  if (!is.atomic(x) || !is.null(dim(x))) {
    stop(what, " must be an atomic vector (integer, character, factor, ...)", call. = FALSE)
  }
}

# One parameter value as the text cs_set_param_string parses: numbers in full
# precision, logicals as 1/0, text (and factor levels) as they are. Whether the value
# is acceptable is the library's decision.
.param_text <- function(name, value) {
  if (!is.atomic(value) || length(value) != 1L) {
    stop("parameter '", name, "' must be a single value", call. = FALSE)
  }
  if (is.factor(value)) value <- as.character(value)
  if (is.na(value)) return("NA")
  if (is.logical(value)) return(if (value) "1" else "0")
  if (is.integer(value)) return(as.character(value))
  if (is.double(value)) return(sprintf("%.17g", value))
  if (is.character(value)) return(enc2utf8(value))
  stop("parameter '", name, "' must be a number, a logical or a string", call. = FALSE)
}

# Named character vector of parameters for the .Call routines: `fixed` (set by the
# package: method and sizes) first, then the user's, which may not override them.
.params <- function(fixed, user, owned) {
  user_names <- names(user)
  if (length(user) && (is.null(user_names) || any(!nzchar(user_names)))) {
    stop("library parameters must be named (e.g. max_iter = 50, prior = \"uniform\")",
         call. = FALSE)
  }
  clash <- intersect(user_names, owned)
  if (length(clash)) {
    stop("parameter '", clash[1L], "' is set by the package from the data; ",
         "it cannot be given", call. = FALSE)
  }
  values <- c(fixed, user)
  out <- vapply(seq_along(values), function(i) .param_text(names(values)[i], values[[i]]),
                character(1))
  names(out) <- names(values)
  out
}
