// SPDX-License-Identifier: MIT
// The pieces of SQUAREM (Varadhan and Roland 2008, scheme SqS3, with the SQUAREM
// package's adaptive step bound) that every accelerated fit shares: the Dawid-Skene EM
// (crowd/em/dawid_skene.cpp), mace's VB rounds (crowd/em/mace.cpp) and bcc/ebcc's
// (crowd/bayes/ebcc.cpp). Each extrapolates on the logarithms of its parameters: for
// three successive iterates a, b = F(a), c = F(b), r = log b - log a and
// v = log c - 2 log b + log a per parameter.
#pragma once

#include <algorithm>
#include <cmath>

namespace cs {

/// SqS3's step length alpha = -||r|| / ||v|| from r2 = ||r||^2 and v2 = ||v||^2, kept
/// in [-alpha_max, -1]; -1 (the plain step c itself) when v2 = 0.
inline double squarem_step_length(double r2, double v2, double alpha_max) {
    const double alpha = v2 > 0.0 ? -std::sqrt(r2 / v2) : -1.0;
    return std::max(-alpha_max, std::min(-1.0, alpha));
}

/// The extrapolated logarithm of one parameter, log a - 2 alpha r + alpha^2 v
/// (Varadhan and Roland 2008, eq. 8).
inline double squarem_log_point(double log_a, double r, double v, double alpha) {
    return log_a - 2.0 * alpha * r + alpha * alpha * v;
}

/// The bound after a cycle whose step length was `alpha` (the SQUAREM package's step.max
/// rule): a step at the bound multiplies it by 4 when it was kept and divides it by 4
/// (not below 1) when it was rejected; any other step leaves it.
inline double squarem_next_bound(double alpha_max, double alpha, bool rejected) {
    if (alpha > -alpha_max) return alpha_max;
    return rejected ? std::max(1.0, alpha_max / 4.0) : alpha_max * 4.0;
}

}  // namespace cs
