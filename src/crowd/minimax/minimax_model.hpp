// SPDX-License-Identifier: MIT
// The minimax conditional entropy labelling model of Zhou, Liu, Platt and Meek (ICML
// 2014; equations numbered as the paper's):
//   P(X_ij = x | Y_j = c) = exp(sigma_i(c, x) + tau_j(c, x)) / Z_ij(c)           (eq. 5)
// with a worker matrix sigma_i and an item matrix tau_j (K x K). The categorical model
// leaves both free (K^2 parameters per worker and per item); the ordinal model builds
// them from 4 (K - 1) parameters, one per reference grade s = 1..K-1 and each of the
// four regions {c < s or c >= s} x {x < s or x >= s} (eq. 11a, 11b).
//
// What is fitted: the regularised dual (eq. 14) with the labels' distribution Q at its
// optimum (the posterior under a uniform class prior, eq. 16b), which is the penalised
// marginal log-likelihood
//   F(sigma, tau) = sum_j log sum_c (1/K) prod_{i in j} P(x_ij | c)
//                   - (alpha / 2) sum_i |theta_i|^2 - (beta / 2) sum_j |phi_j|^2,
// theta_i, phi_j the free parameters of sigma_i, tau_j. Its gradient is the
// posterior-weighted gradient of the complete log-likelihood (Fisher's identity):
//   dF / d sigma_i(c, k) = sum_{j in J(i)} Q_jc (I(x_ij = k) - P_ij(k | c)),
// the same for tau_j over i in I(j), mapped to theta by the transpose of eq. 11 and
// minus the penalty's gradient. Every evaluation of F and its gradient is one pass over
// the labels by item with one K x K softmax table per label: O(labels x K^2).
#pragma once

#include <cstdint>
#include <vector>

#include "core/fit_options.hpp"
#include "data/crowd_data.hpp"
#include "util/progress.hpp"

namespace cs {

/// The model's shape and penalties.
struct MinimaxSpec {
    int32_t k = 2;
    bool ordinal = false;
    double alpha = 0.0;  // penalty of each worker's parameters, (alpha / 2) |theta_i|^2
    double beta = 0.0;   // of each item's, (beta / 2) |phi_j|^2
    /// Free parameters per worker (and per item): K^2, or 4 (K - 1) when ordinal.
    int32_t block() const { return ordinal ? 4 * (k - 1) : k * k; }
};

/// The penalties of eq. 17 for a regularisation constant gamma: alpha = gamma K^2 and
/// beta = alpha n / m (the labels per worker over the labels per item), with n the items
/// and m the workers that have labels (at least 1 each).
MinimaxSpec minimax_spec(const CrowdData &data, bool ordinal, double gamma);

/// A fitted model: the parameters, workers' blocks first then items', and the
/// posteriors at them.
struct MinimaxFit {
    std::vector<double> params;      // (n_workers + n_items) x block
    std::vector<double> posteriors;  // n_items x K
    std::vector<double> trace;       // F after each iteration of the main phase
    int32_t iterations = 0;
    bool converged = false;
    bool cancelled = false;
};

/// Algorithm 1 of the paper in our form. First the M-step from the start posteriors
/// `start` (n_items x K, e.g. the soft majority vote, eq. 15): the parameters that
/// maximise sum_j sum_c Q_jc sum_i log P(x_ij | c) minus the penalties, a strongly
/// concave problem, by L-BFGS from 0. Then F itself by L-BFGS (the E-step folded in, so
/// that every evaluation is an exact coordinate maximisation over Q), reporting F to the
/// progress callback after each iteration, until its relative change is at most
/// options.tol or options.max_iter iterations (0: the M-step alone). Gold items keep
/// their class. Returns the fit; cancelled when the callback asked to stop (the
/// parameters are then the last completed iteration's).
MinimaxFit fit_minimax_model(const CrowdData &data, const MinimaxSpec &spec, const FitOptions &options,
                             const Progress &progress, const std::vector<double> &start);

/// Log-likelihood of the labels of `held` (the same items, workers and K as the fit's
/// data) under the fit, each item's class drawn from its fitted posterior:
///   sum_j log sum_c Q_jc prod_{i in held(j)} P(x_ij | c).
/// A worker or item the fit saw no label of has the parameters the penalty leaves it, 0.
double heldout_log_likelihood(const CrowdData &held, const MinimaxSpec &spec, const MinimaxFit &fit,
                              int32_t threads);

/// Each worker's confusion matrix as the mean over its labels of P_ij(. | c) (worker x
/// true x observed; uniform rows for a worker without labels).
std::vector<double> minimax_confusion(const CrowdData &data, const MinimaxSpec &spec,
                                      const std::vector<double> &params, int32_t threads);

}  // namespace cs
