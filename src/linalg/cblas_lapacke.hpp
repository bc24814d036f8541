// SPDX-License-Identifier: MIT
// The C interfaces of BLAS and LAPACK, whichever implementation provides them: the
// standard headers cblas.h and lapacke.h (OpenBLAS, the reference implementation,
// Debian's alternatives, BLIS, ATLAS), or MKL's own names when the build found only
// those (cmake/crowdspecLinalg.cmake defines CS_HAVE_MKL_HEADERS then). Only the
// standard CBLAS/LAPACKE functions are used, never a vendor's extensions.
#pragma once

#ifdef CS_HAVE_MKL_HEADERS
#include <mkl_cblas.h>
#include <mkl_lapacke.h>
#else
#include <cblas.h>
#include <lapacke.h>
#endif
