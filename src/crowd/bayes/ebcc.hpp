// SPDX-License-Identifier: MIT
// Enhanced Bayesian Classifier Combination (ebcc; Li, Rubinstein and Cohn, ICML 2019)
// by mean-field variational Bayes, and the engine it shares with bcc (crowd/bayes/bcc.hpp),
// which is the same model with one subtype per class.
//
// The model (crowdspec.h, CS_METHOD_EBCC): class proportions tau ~ Dir(alpha 1_k);
// for each class l, subtype weights pi_l ~ Dir(a_pi / M 1_M); for each worker i, class
// l and subtype m a confusion row V_ilm ~ Dir(beta_l), beta_l[c] = a_v if c = l else
// b_v; item j draws z_j ~ tau, g_j ~ pi_(z_j), and worker i's label c ~ V_(i z_j g_j).
//
// Variational family q(z, g) q(tau) q(pi) q(V), each item's (z_j, g_j) a joint
// categorical over the H = k M pairs h = l M + m (its responsibilities r_jh), the rest
// Dirichlets. Coordinate ascent, derived here from the model (every update is the
// exact maximiser of the evidence lower bound given the others, so the bound never
// decreases):
//   parameters:  nu_l = alpha + sum_j sum_m r_jlm,   eta_lm = a_pi / M + sum_j r_jlm,
//                mu_ilm[c] = beta_l[c] + sum of r_jlm over the items j that i labelled c;
//   items:       log r_jh = E log tau_l + E log pi_lm + sum over j's labels (i, c) of
//                E log V_ilm[c] + const,  with E log x_a = psi(a_a) - psi(sum_b a_b)
//                under Dir(a).
// The bound after an item update is sum_j log sum_h exp(s_jh) (s the unnormalised log
// r) minus KL(q(tau) || p(tau)) + sum_l KL(q(pi_l) || p(pi_l)) + sum_ilm KL(q(V_ilm) ||
// p(V_ilm)): the expected complete-data log-likelihood plus the entropy of q(z, g) add
// up to the log-normaliser exactly when r is the softmax of s. So the bound costs
// nothing beyond the item pass and the per-row KL terms.
//
// One iteration is one pass over the labels by item (as the Dawid-Skene E-step): the
// item update of j needs only j's labels, and the counts of the next parameter update
// are sums of r over labels, scattered in the same pass. O(labels x k x M) time,
// O(n_items x k + workers x A x k x M) memory for the A answer classes some label gives
// (A = k unless the declared k exceeds them; the result's confusion matrices are k x k),
// and O(workers x k x A x M) time per parameter update (the responsibilities
// are never stored: only their class marginals, the posteriors).
#pragma once

#include <cstdint>
#include <vector>

#include "core/fit_result.hpp"
#include "core/fit_options.hpp"
#include "data/crowd_data.hpp"
#include "util/progress.hpp"

namespace cs {

/// Fit the subtype mixture with `subtypes` subtypes per class (options carry the prior
/// parameters, seed, max_iter, tol and threads) into `out`: posteriors, labels, the
/// posterior-mean confusion matrices and class prior, the ELBO trace. `start`, when
/// given, holds n_items x k x subtypes responsibilities to start from (each item's
/// row summing to 1; used by the tests); otherwise the soft majority vote, each class's
/// share split over the subtypes by a Dirichlet(1, ..., 1) draw per item and class
/// (from options.seed and the item's index, so independent of threads). Returns true
/// when the progress callback cancelled (out then holds the last completed iteration).
bool fit_subtype_vb(const CrowdData &data, const FitOptions &options, const Progress &progress,
                    int32_t subtypes, FitResult &out, const std::vector<double> *start = nullptr);

/// The ebcc method: fit_subtype_vb with options.subtypes subtypes.
bool fit_ebcc(const CrowdData &data, const FitOptions &options, const Progress &progress, FitResult &out);

}  // namespace cs
