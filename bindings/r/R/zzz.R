# SPDX-License-Identifier: MIT

# The package is compiled against one crowdspec.h; the library it loads at run time
# must have the same ABI major version (the SONAME's number).
.onLoad <- function(libname, pkgname) {
  v <- .Call(C_cs_r_version)
  if (v$library %/% 10000L != v$header %/% 10000L) {
    stop(sprintf(paste("crowdspec: the package was built for libcrowdspec %d.x but loaded",
                       "libcrowdspec %s; reinstall the package"),
                 v$header %/% 10000L, v$string), call. = FALSE)
  }
}
