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

/// The same problem laid out along the items' rows for the MM sweep: per row entry (item
/// i, pair p) the pair's comparisons n_p = low + high + tie, and per item its wins plus
/// half its ties. Read in order by the sweep; rebuilt when the weights change (the
/// worker models' E-steps).
struct RowWeights {
    std::vector<double> n;     // per row entry
    std::vector<double> wins;  // per item
};

/// f(begin, end, block) over [0, n) in blocks of `block`, spread over the team.
template <class F>
void for_blocks(Team &team, int64_t n, int64_t block, F &&f) {
    const int64_t blocks = (n + block - 1) / block;
    team.run(blocks, [&](int64_t b) { f(b * block, std::min(n, (b + 1) * block), b); });
}

/// Block sizes of the passes (fixed: results never depend on the thread count).
inline constexpr int64_t kPairBlock = 8192, kItemBlock = 4096, kWorkerBlock = 1024;

/// Sum of per-block partial sums, in block order.
double sum_in_order(const std::vector<double> &partial);

/// The counts of `data` as a BT problem: wins as given; ties by `ties` (a cs_ties
/// already resolved: CS_TIES_DAVIDSON keeps them, CS_TIES_HALF gives half a win to each
/// side, CS_TIES_IGNORE drops them).
PairWeights count_weights(const ComparisonData &data, int32_t ties);

/// The row layout of `w`.
void row_weights(const ComparisonData &data, const PairWeights &w, RowWeights &rows, Team &team);

/// One MM sweep (Jacobi: every item from `pi`): out_i = (W_i + T_i / 2 + lambda) /
/// (sum_j n_ij (1 + nu/2 sqrt(pi_j / pi_i)) / D_ij + 2 lambda / (1 + pi_i)), D_ij = pi_i +
/// pi_j + nu sqrt(pi_i pi_j) (bt.md B13/B15). Items without comparisons keep pi = 1 when
/// lambda > 0. With lambda = 0 the result is rescaled to geometric mean 1.
void mm_sweep(const ComparisonData &data, const RowWeights &w, double lambda, double nu,
              const std::vector<double> &pi, std::vector<double> &out, Team &team);

/// The likelihood of every comparison model depends on score differences only, so each
/// connected component's common shift is pinned by the prior alone, whose curvature there
/// (lambda / 2 per item) is tiny beside the data's: an MM sweep moves along that
/// direction at a rate of about 1 - lambda / (an item's comparisons), thousands of
/// sweeps. This step sets each component's shift at its exact optimum instead: pi_i *=
/// exp(c) over the component with sum_i tanh((s_i + c) / 2) = 0 (Newton's method on the
/// concave 1-D log prior), which only raises the log posterior. With lambda = 0 it does
/// nothing (mm_sweep's rescaling fixes the one component's gauge).
void optimal_shift(const ComparisonData &data, std::vector<double> &pi, double lambda);

/// Davidson's nu after an MM step (bt.md B6): T / sum_p n_p sqrt(pi_lo pi_hi) / D_p,
/// at most kMaxNu; 0 when there are no ties.
double nu_step(const ComparisonData &data, const PairWeights &w, double nu, const std::vector<double> &pi,
               Team &team);
inline constexpr double kMaxNu = 1e6;

/// The log posterior of the BT problem: sum_p [low log(pi_lo / D) + high log(pi_hi / D)
/// + tie log(nu sqrt(pi_lo pi_hi) / D)] + lambda sum_i [log sigma(s_i) + log sigma(-s_i)].
double bt_log_posterior(const ComparisonData &data, const PairWeights &w, double lambda, double nu,
                        const std::vector<double> &pi, Team &team);

/// The log prior alone: lambda sum_i [log sigma(s_i) + log sigma(-s_i)].
double log_prior(const std::vector<double> &s, double lambda);

/// Throws CS_ERR_NOT_CONNECTED (naming an item) unless every item can be reached from
/// every other along "beat or tied" links of w: the condition under which the
/// maximum-likelihood scores exist (Hunter 2004, Assumption 1).
void require_strongly_connected(const ComparisonData &data, const PairWeights &w);

/// log sigma(x) and sigma(x), stable for any x.
double log_sigmoid(double x);
double sigmoid(double x);

}  // namespace cs
