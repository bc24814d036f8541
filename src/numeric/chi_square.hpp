// SPDX-License-Identifier: MIT
// The lower quantile of the chi-square distribution, for CATD's confidence interval of
// a worker's variance (numeric/truth_discovery.cpp): chi2_q(N) with P(X <= chi2_q(N)) =
// q for X ~ chi-square with N degrees of freedom, i.e. 2 P^{-1}(N / 2, q) with P the
// regularised lower incomplete gamma function.
#pragma once

#include <cstdint>

namespace cs {

/// P(a, x), the regularised lower incomplete gamma function, a > 0, x >= 0: the series
/// for x < a + 1, else 1 minus the continued fraction of Q (Numerical Recipes' split),
/// both to a relative 1e-15.
double regularized_gamma_p(double a, double x);

/// chi2_q(N), 0 < q < 1, N >= 1: bisection on P(N / 2, x / 2) = q to a relative 1e-12
/// for N <= 10^5, the Wilson-Hilferty approximation N (1 - 2/(9N) + z_q sqrt(2/(9N)))^3
/// above (its relative error is below 1e-5 there).
double chi_square_quantile(double q, int64_t dof);

}  // namespace cs
