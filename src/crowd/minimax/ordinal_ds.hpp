// SPDX-License-Identifier: MIT
// "ordinal-ds": Dawid-Skene with each worker's confusion matrix constrained by the order
// of the grades, an ordered-logit worker. On an item of grade c, worker i perceives
//   y = c + b_i + s_i e,   e ~ standard logistic,
// and reports grade x when t_x < y <= t_{x+1} (t_0 = -inf, t_K = +inf), so
//   pi_i(c, x) = F((t_{x+1} - c - b_i) / s_i) - F((t_x - c - b_i) / s_i),   F(z) = 1 / (1 + e^-z):
// b_i is the worker's bias in grades (> 0: grades too high), s_i its noise, the
// thresholds t_1 < ... < t_{K-1} are shared by the crowd. Priors (weakly informative,
// docs/defaults.md): b_i ~ N(0, 1), log s_i ~ N(log 1/2, 1), t_x ~ N(x - 1/2, 1). MAP-EM:
// the E-step is Dawid-Skene's with these matrices and the class prior; the M-step
// maximises sum_i sum_{c,x} N_i(c, x) log pi_i(c, x) + the log priors, N_i the
// posterior-weighted counts of Dawid-Skene's M-step, by L-BFGS warm-started from the
// previous parameters (it never decreases the objective, so the log posterior never
// decreases: generalised EM). One round costs O(labels x K) plus O(workers x K^2) per
// M-step evaluation.
#pragma once

#include <vector>

#include "core/fit_options.hpp"
#include "core/fit_result.hpp"
#include "data/crowd_data.hpp"
#include "util/progress.hpp"

namespace cs {

/// The fitted latent scale of ordinal-ds.
struct OrdinalScale {
    std::vector<double> bias;        // b_i, per worker (grades)
    std::vector<double> noise;       // s_i > 0, per worker (grades)
    std::vector<double> thresholds;  // t_1 .. t_{K-1}, increasing
};

/// The confusion matrix row pi_i(c, .) of a worker with bias b and noise s on the
/// thresholds t (K - 1 values): K entries summing to 1, each at least 1e-300.
void ordered_logit_row(int32_t c, double b, double s, const std::vector<double> &t, double *row);

/// Fit ordinal-ds into `out`; with `scale`, also the fitted worker biases, noises and
/// thresholds. Returns true when the progress callback cancelled the fit.
bool fit_ordinal_ds_scale(const CrowdData &data, const FitOptions &options, const Progress &progress,
                          FitResult &out, OrdinalScale *scale);

/// Entry point of "ordinal-ds" (crowd/run_crowd.hpp).
bool fit_ordinal_ds(const CrowdData &data, const FitOptions &options, const Progress &progress, FitResult &out);

}  // namespace cs
