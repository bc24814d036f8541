// SPDX-License-Identifier: MIT
// The baselines of numeric answers, with no worker model: each item's mean, median or
// trimmed mean of its answers (one pass, no iterations).
#pragma once

#include "numeric/run_numbers.hpp"

namespace cs {

/// "mean": mu_j = mean of the answers; se_j = s_j / sqrt(n_j).
bool fit_mean(const NumericData &data, const FitOptions &options, const Progress &progress, FitResult &out);
/// "median": mu_j = median; se_j = sqrt(pi / 2) s_j / sqrt(n_j) (the median's asymptotic
/// variance under normal noise).
bool fit_median(const NumericData &data, const FitOptions &options, const Progress &progress, FitResult &out);
/// "trimmed-mean": the mean without the g = floor(f n_j) lowest and g highest answers
/// (f = options.trim_fraction); se_j = s_w / ((1 - 2g / n_j) sqrt(n_j)), s_w the sample
/// deviation of the winsorized answers (the dropped ones set to the nearest kept one).
bool fit_trimmed_mean(const NumericData &data, const FitOptions &options, const Progress &progress, FitResult &out);

}  // namespace cs
