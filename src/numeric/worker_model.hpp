// SPDX-License-Identifier: MIT
// The worker-noise models of numeric answers: x_jw = mu_j + b_w + e, e with scale
// sigma_w, Gaussian ("gaussian": Raykar et al. 2010, the continuous case, with an
// additive bias per worker) or Student-t ("student-t": the robust variant, EM on the
// normal scale mixture). One engine; Gaussian is the t model with infinite degrees of
// freedom (every answer's weight u = 1).
#pragma once

#include "numeric/run_numbers.hpp"

namespace cs {

/// "gaussian": from the item means.
bool fit_gaussian(const NumericData &data, const FitOptions &options, const Progress &progress, FitResult &out);
/// "student-t": from the item medians, nu = options.t_dof.
bool fit_student_t(const NumericData &data, const FitOptions &options, const Progress &progress, FitResult &out);

}  // namespace cs
