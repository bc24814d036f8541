// SPDX-License-Identifier: MIT
#include "linalg/spd_inverse.hpp"

#include <cmath>

#include "linalg/cblas_lapacke.hpp"
#include "linalg/lapack_status.hpp"

namespace cs {

bool spd_inverse_diagonal(std::vector<double> &a, int32_t n, std::vector<double> &diagonal) {
    diagonal.assign(static_cast<std::size_t>(n), 0.0);
    if (n == 0) return true;
    if (lapack_checked(LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'L', n, a.data(), n)) != 0) return false;
    if (lapack_checked(LAPACKE_dpotri(LAPACK_ROW_MAJOR, 'L', n, a.data(), n)) != 0) return false;
    for (int32_t i = 0; i < n; ++i) {
        const double v = a[static_cast<std::size_t>(i) * static_cast<std::size_t>(n) + static_cast<std::size_t>(i)];
        if (!std::isfinite(v) || v <= 0.0) return false;
        diagonal[static_cast<std::size_t>(i)] = v;
    }
    return true;
}

}  // namespace cs
