// SPDX-License-Identifier: MIT
// The Bradley-Terry pieces every comparison method is built of (docs/algorithms.md,
// "Pairwise comparisons"): a BT problem given as weighted wins per pair, its MM sweep
// (Hunter 2004, with Davidson's ties and the virtual-item prior of Chen et al. 2013),
// the tie parameter's MM step, its log posterior, and the existence check of the
// maximum-likelihood scores. All passes are O(pairs + items), split into fixed blocks
// so that sums never depend on the thread count.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "data/comparison_data.hpp"
#include "util/parallel.hpp"

namespace cs {

/// A weighted BT problem on the pairs of a ComparisonData: per pair p (lo < hi), the
/// wins of lo, the wins of hi and the ties (Davidson's), each a non-negative weight.
struct PairWeights {
    struct Weight {
        double low = 0.0, high = 0.0, tie = 0.0;
    };
    std::vector<Weight> pair;  // together: one cache line read per pair of a row
    double total_ties = 0.0;   // sum of tie
};

/// f(begin, end, block) over [0, n) in blocks of `block`, spread over the team.
template <class F>
void for_blocks(Team &team, int64_t n, int64_t block, F &&f) {
    const int64_t blocks = (n + block - 1) / block;
    team.run(blocks, [&](int64_t b) { f(b * block, std::min(n, (b + 1) * block), b); });
}

/// Block sizes of the passes (fixed: results never depend on the thread count).
inline constexpr int64_t kPairBlock = 8192, kItemBlock = 4096;

/// Sum of per-block partial sums, in block order.
double sum_in_order(const std::vector<double> &partial);

/// The counts of `data` as a BT problem: wins as given; ties by `ties` (a cs_ties
/// already resolved: CS_TIES_DAVIDSON keeps them, CS_TIES_HALF gives half a win to each
/// side, CS_TIES_IGNORE drops them).
PairWeights count_weights(const ComparisonData &data, int32_t ties);

/// bt's weight of each pair, n_p = low + high + tie under the tie rule `ties` (as
/// count_weights()): a whole number, since a tie counts once under Davidson's rule, as
/// two halves under CS_TIES_HALF and not at all under CS_TIES_IGNORE -- 4 bytes a pair
/// where PairWeights takes 24, so that bt's passes read 12 bytes a pair. The data's own
/// pair_count unless ties are ignored.
class PairTotals {
public:
    PairTotals(const ComparisonData &data, int32_t ties);
    PairTotals(const PairTotals &) = delete;
    PairTotals &operator=(const PairTotals &) = delete;
    const uint32_t *count() const { return count_; }
    double total_ties() const { return total_ties_; }  // Davidson's T; 0 under the other rules

private:
    std::vector<uint32_t> without_ties_;  // low + high per pair (ties ignored)
    const uint32_t *count_;
    double total_ties_ = 0.0;
};

/// Per item, its wins plus half its ties under the tie rule `ties` (the MM update's
/// numerator; ties ignored count nothing).
std::vector<double> item_wins(const ComparisonData &data, int32_t ties);

/// The MM update of every item (Jacobi: all from `pi`), given the sums of one pass over
/// the pairs at `pi` (bt.md B13/B15): out_i = (wins_i + lambda) / (first_i + (nu / 2)
/// second_i / pi_i + 2 lambda / (1 + pi_i)), with first_i = sum_j n_ij / D_ij and second_i
/// = sum_j n_ij sqrt(pi_i pi_j) / D_ij, D_ij = pi_i + pi_j + nu sqrt(pi_i pi_j) (the second
/// sum is Davidson's AM-GM bound of the tie term, bt.md B5; null when nu = 0). Items
/// without comparisons keep pi = 1 when lambda > 0. With lambda = 0 the result is
/// rescaled to geometric mean 1 (the likelihood is scale-free).
void mm_update(const double *wins, const double *first, const double *second, double lambda, double nu,
               const std::vector<double> &pi, std::vector<double> &out);

/// The likelihood of every comparison model depends on score differences only, so each
/// connected component's common shift is pinned by the prior alone, whose curvature there
/// (lambda / 2 per item) is tiny beside the data's: an MM sweep moves along that
/// direction at a rate of about 1 - lambda / (an item's comparisons), thousands of
/// sweeps. This step sets each component's shift at its exact optimum instead: pi_i *=
/// exp(c) over the component with sum_i tanh((s_i + c) / 2) = 0 (Newton's method on the
/// concave 1-D log prior), which only raises the log posterior. With lambda = 0 it does
/// nothing (mm_sweep's rescaling fixes the one component's gauge).
void optimal_shift(const ComparisonData &data, std::vector<double> &pi, double lambda);

/// Per item sqrt(n_i / 4 + lambda / 2), n_i its comparisons: the square root of the
/// largest information about s_i that its comparisons and the prior can hold (one
/// comparison's at most 1/4, at equal scores; the prior's at most lambda / 2), so 1 /
/// scale_i is a lower bound of s_i's standard error (the score_tol rule, fit_loop.hpp).
std::vector<double> score_scales(const ComparisonData &data, double lambda);

/// Davidson's nu after an MM step (bt.md B6): T / sum_p n_p sqrt(pi_lo pi_hi) / D_p,
/// at most kMaxNu; 0 when there are no ties.
double nu_step(const ComparisonData &data, const PairTotals &n, double nu, const std::vector<double> &pi,
               Team &team);
inline constexpr double kMaxNu = 1e6;

/// The log prior alone: lambda sum_i [log sigma(s_i) + log sigma(-s_i)].
double log_prior(const std::vector<double> &s, double lambda);

/// Throws CS_ERR_NOT_CONNECTED (naming an item) unless every item can be reached from
/// every other along "beat or tied" links of w: the condition under which the
/// maximum-likelihood scores exist (Hunter 2004, Assumption 1).
void require_strongly_connected(const ComparisonData &data, const PairWeights &w);

/// Whether every value is finite.
bool all_finite(const std::vector<double> &values);

/// log sigma(x) and sigma(x), stable for any x.
double log_sigmoid(double x);
double sigmoid(double x);

}  // namespace cs
