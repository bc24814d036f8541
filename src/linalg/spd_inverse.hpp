// SPDX-License-Identifier: MIT
// The diagonal of the inverse of a symmetric positive definite matrix (Cholesky,
// LAPACK dpotrf + dpotri: n^3 flops, half of the general inverse's), for the standard
// errors of the comparison methods (src/ranking/standard_errors.cpp).
#pragma once

#include <cstdint>
#include <vector>

namespace cs {

/// `a` holds an n x n symmetric matrix (row-major; only the lower triangle is read)
/// and is overwritten. On success `diagonal` receives (a^-1)_ii and true is returned;
/// false when `a` is not numerically positive definite. Throws std::bad_alloc when
/// LAPACKE cannot allocate.
bool spd_inverse_diagonal(std::vector<double> &a, int32_t n, std::vector<double> &diagonal);

}  // namespace cs
