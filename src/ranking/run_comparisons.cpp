// SPDX-License-Identifier: MIT
#include "ranking/run_comparisons.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "linalg/spd_inverse.hpp"
#include "ranking/bt_steps.hpp"
#include "util/error.hpp"
#include "util/simd_pair.hpp"

namespace cs {

namespace {

void note(FitResult &out, int32_t bit, const std::string &message) {
    out.notes |= bit;
    out.note_message += message + " ";
}

// The prior's curvature in s_i: -d2/ds2 of lambda [log sigma(s) + log sigma(-s)].
double prior_curvature(double s, double lambda) { return 2.0 * lambda * sigmoid(s) * sigmoid(-s); }

// F = sum_p c_p (e_lo - e_hi)(e_lo - e_hi)^T + diag(prior curvature): the observed
// information of the scores. Exact: the diagonal of F^-1 by Cholesky; with lambda = 0,
// F has the null vector 1 (the scores' common shift) and the covariance of the mean-0
// scores is (F + 11^T / n)^-1 - 11^T / n. Returns false when F is not positive
// definite (left to the approximation).
bool exact_variances(const ComparisonData &data, const RankingState &state, double lambda, std::vector<double> &var) {
    const int32_t n = data.n_items;
    const std::size_t size = static_cast<std::size_t>(n);
    const double shift = lambda == 0.0 ? 1.0 / static_cast<double>(n) : 0.0;
    std::vector<double> f(size * size, shift);
    for (std::size_t i = 0; i < size; ++i) f[i * size + i] += prior_curvature(state.score[i], lambda);
    for (std::size_t p = 0; p < state.curvature.size(); ++p) {
        const std::size_t a = static_cast<std::size_t>(data.pair_lo[p]), b = static_cast<std::size_t>(data.pair_hi[p]);
        const double c = state.curvature[p];
        f[a * size + a] += c;
        f[b * size + b] += c;
        f[b * size + a] -= c;  // the lower triangle (a < b)
    }
    if (!spd_inverse_diagonal(f, n, var)) return false;
    for (double &v : var) v = std::max(0.0, v - shift);
    return true;
}

// The first two terms of the Neumann series of F^-1's diagonal, 1 / F_ii + sum_j F_ij^2 /
// (F_ii^2 F_jj), which capture an item's own comparisons and its neighbours', plus
// 1 / sum_j prior_j: the variance of the scores' common shift, which only the prior pins
// (the series would need about (comparisons per item) / lambda terms to reach it)
// (CS_NOTE_APPROXIMATE_SE). O(pairs).
std::vector<double> approximate_variances(const ComparisonData &data, const RankingState &state, double lambda) {
    const std::size_t n = static_cast<std::size_t>(data.n_items);
    std::vector<double> diagonal(n, 0.0), var(n, 0.0), second(n, 0.0);
    double total_prior = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        diagonal[i] = prior_curvature(state.score[i], lambda);
        total_prior += diagonal[i];
    }
    const double shift = total_prior > 0.0 ? 1.0 / total_prior : 0.0;
    for (std::size_t p = 0; p < state.curvature.size(); ++p) {
        diagonal[static_cast<std::size_t>(data.pair_lo[p])] += state.curvature[p];
        diagonal[static_cast<std::size_t>(data.pair_hi[p])] += state.curvature[p];
    }
    for (std::size_t p = 0; p < state.curvature.size(); ++p) {
        const std::size_t a = static_cast<std::size_t>(data.pair_lo[p]), b = static_cast<std::size_t>(data.pair_hi[p]);
        const double c2 = state.curvature[p] * state.curvature[p];
#if defined(CS_HAVE_PAIR)
        // Both divisions in one instruction (lane by lane as the scalar ones).
        const Pair ratio = Pair{c2, c2} / Pair{diagonal[b], diagonal[a]};
        if (diagonal[b] > 0.0) second[a] += ratio[0];
        if (diagonal[a] > 0.0) second[b] += ratio[1];
#else
        if (diagonal[b] > 0.0) second[a] += c2 / diagonal[b];
        if (diagonal[a] > 0.0) second[b] += c2 / diagonal[a];
#endif
    }
    for (std::size_t i = 0; i < n; ++i)
        var[i] = diagonal[i] > 0.0 ? 1.0 / diagonal[i] + second[i] / (diagonal[i] * diagonal[i]) + shift : 0.0;
    return var;
}

}  // namespace

bool uses_workers(int32_t method) { return method == CS_METHOD_NOISY_BT || method == CS_METHOD_CROWD_BT; }

bool run_comparisons_method(const ComparisonData &data, const FitOptions &options, const Progress &progress,
                            ComparisonMethod method, FitResult &out) {
    Team team(threads_for(options.threads, data.n_comparisons));
    RankingState state;
    method(data, options, progress, team, state, out);
    const bool cancelled = state.cancelled;
    if (cancelled) out.converged = false;

    out.input_kind = CS_INPUT_COMPARISONS;
    out.n_items = data.n_items;
    out.n_workers = data.n_workers;
    out.k = 0;
    out.has_log_likelihood = true;
    const std::size_t n = static_cast<std::size_t>(data.n_items);
    out.scores = state.score;
    for (double &s : out.scores)
        if (!std::isfinite(s)) s = 0.0;  // cannot happen with a prior or a connected graph; kept finite

    // Standard errors: exact up to se_items items, else the O(pairs) approximation.
    std::vector<double> var;
    bool exact = data.n_items <= options.se_items && exact_variances(data, state, options.comparison_prior, var);
    if (!exact) {
        var = approximate_variances(data, state, options.comparison_prior);
        if (data.n_items > 1)
            note(out, CS_NOTE_APPROXIMATE_SE,
                 std::to_string(data.n_items) + " items: the standard errors are the approximation 1/F_ii + sum_j "
                 "F_ij^2/(F_ii^2 F_jj) of the inverse information (exact up to se_items = " +
                     std::to_string(options.se_items) + " items).");
    }
    out.score_se.resize(n);
    for (std::size_t i = 0; i < n; ++i) out.score_se[i] = std::isfinite(var[i]) ? std::sqrt(var[i]) : 0.0;

    // Ranks: 1 = the highest score; equal scores by item id.
    std::vector<int32_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) { return out.scores[a] > out.scores[b]; });
    out.ranks.assign(n, 0);
    out.labels.assign(n, 0);
    for (std::size_t r = 0; r < n; ++r) {
        out.ranks[static_cast<std::size_t>(order[r])] = static_cast<int32_t>(r + 1);
        out.labels[static_cast<std::size_t>(order[r])] = static_cast<int32_t>(r);
    }

    if (data.self_comparisons > 0)
        note(out, CS_NOTE_IGNORED_EDGES,
             "ignored " + std::to_string(data.self_comparisons) + " comparisons of an item with itself.");
    if (data.isolated_items > 0)
        note(out, CS_NOTE_ISOLATED_NODES,
             std::to_string(data.isolated_items) + " items are in no comparison; they score 0 (the prior's centre).");
    if (data.ties > 0 && uses_workers(options.method) && options.ties != CS_TIES_HALF)
        out.note_message += std::to_string(data.ties) + " tie answers were ignored (the model has no tie; ties = half "
                                                        "counts each as half a win for both items). ";
    if (!out.converged && !cancelled && options.max_iter > 0 && options.tol > 0.0)
        note(out, CS_NOTE_MAX_ITER_REACHED,
             "stopped at max_iter = " + std::to_string(options.max_iter) +
                 " iterations before the log posterior's relative change fell below tol.");
    if (cancelled) out.notes |= CS_NOTE_CANCELLED;
    if (!out.note_message.empty() && out.note_message.back() == ' ') out.note_message.pop_back();
    return cancelled;
}

}  // namespace cs
