// SPDX-License-Identifier: MIT
// The Beta distribution's regularised incomplete beta function and its quantiles, for
// the 95 % accuracy interval of each worker (worker_diagnostics.hpp, issue 34).
#pragma once

namespace cs {

/// The regularised incomplete beta function I_x(a, b) (a, b > 0; 0 outside x > 0, 1 for
/// x >= 1), by its continued fraction.
double incomplete_beta(double a, double b, double x);

/// x with I_x(a, b) = p: the p-quantile of Beta(a, b) (a, b > 0, p in (0, 1)), to about
/// 1e-14. Halley steps on I_x(a, b) - p from the normal approximation of Abramowitz and
/// Stegun 26.5.22, kept inside a bracket by bisection: a few evaluations of I_x(a, b)
/// where bisection to 1e-12 took about 40.
double beta_quantile(double a, double b, double p);

}  // namespace cs
