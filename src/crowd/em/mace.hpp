// SPDX-License-Identifier: MIT
// MACE (Hovy, Berg-Kirkpatrick, Vaswani and Hovy, NAACL 2013): each worker knows the
// answer or spams; mean-field variational Bayes with the MACE software's priors, from
// several random starts.
#pragma once

#include "core/fit_options.hpp"
#include "core/fit_result.hpp"
#include "data/crowd_data.hpp"
#include "util/progress.hpp"

namespace cs {

/// Entry point of "mace" (crowd/run_crowd.hpp); the specification is in crowdspec.h
/// (CS_METHOD_MACE) and docs/defaults.md. O(labels + items x k) per round and start.
bool fit_mace(const CrowdData &data, const FitOptions &options, const Progress &progress, FitResult &out);

/// Digamma function psi(x) for x > 0 (recurrence to x >= 10, then the asymptotic series;
/// absolute error below 1e-13). Exposed for the tests.
double digamma(double x);

}  // namespace cs
