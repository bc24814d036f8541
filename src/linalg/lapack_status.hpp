// SPDX-License-Identifier: MIT
// LAPACKE reports a failed allocation of its work or transposition arrays as an info
// code, not as an exception: turn it into std::bad_alloc, so that an exhausted memory
// is CS_ERR_OUT_OF_MEMORY (src/api/guard.hpp) and never passes for a numerical failure
// (a singular matrix, a spectral fallback) with a different answer.
#pragma once

#include <new>

#include <lapacke.h>

namespace cs {

/// `info` unchanged, unless it is LAPACKE's out-of-memory code: then throws std::bad_alloc.
inline lapack_int lapack_checked(lapack_int info) {
    if (info == LAPACK_WORK_MEMORY_ERROR || info == LAPACK_TRANSPOSE_MEMORY_ERROR) throw std::bad_alloc();
    return info;
}

}  // namespace cs
