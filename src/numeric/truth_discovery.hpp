// SPDX-License-Identifier: MIT
// Truth-discovery methods for numeric answers: weighted means whose worker weights come
// from the current estimates, alternated to a fixed point. CATD (Li et al., PVLDB 2014)
// and CRH (Li et al., SIGMOD 2014; "PM" in Zheng et al. 2017).
#pragma once

#include "numeric/run_numbers.hpp"

namespace cs {

/// "catd": omega_w = chi2_{alpha/2}(N_w) / (sum_{j in I_w} (x_jw - mu_j)^2 + eps),
/// mu_j = sum omega_w x_jw / sum omega_w; from the medians; alpha = options.catd_alpha.
bool fit_catd(const NumericData &data, const FitOptions &options, const Progress &progress, FitResult &out);
/// "crh": w_w = -log(L_w / sum L), L_w = sum (mu_j - x_jw)^2 / std_j over the worker's
/// items with std_j > 0; weighted means from the medians.
bool fit_crh(const NumericData &data, const FitOptions &options, const Progress &progress, FitResult &out);

}  // namespace cs
