# SPDX-License-Identifier: MIT
# R CMD check runs the testthat suite from here. Comparisons with the C API need the
# program named by CROWDSPEC_C_REFERENCE, the real-data tests the directory named by
# CROWDSPEC_DATASETS_DIR; without them those tests are reported as skipped.
library(testthat)
library(crowdspec)

test_check("crowdspec")
