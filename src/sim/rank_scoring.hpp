// SPDX-License-Identifier: MIT
// How well an estimated ranking agrees with a true one (internal; `crowdspec rank
// --truth`, `evaluate`, the tests and the benchmarks): Spearman's rho, Kendall's tau-b
// and the fraction of pairs ordered correctly. Higher values are better on both sides:
// pass negated ranks for a true order given as ranks (1 = best).
#pragma once

#include <cstddef>
#include <vector>

namespace cs::sim {

struct RankAgreement {
    double spearman = 0.0;       ///< Pearson correlation of the average ranks
    double kendall = 0.0;        ///< tau-b (ties in either ranking accounted for)
    double pair_accuracy = 0.0;  ///< of the pairs the truth orders, the fraction the estimate
                                 ///< orders the same way (an estimated tie counts 1/2)
    std::size_t items = 0;
    double ordered_pairs = 0.0;  ///< pairs with different true values
};

/// The agreement of `estimate` with `truth` (same length; 0 everything for fewer than 2
/// items or when a side is constant). O(n log n) (Knight's algorithm for tau).
RankAgreement rank_agreement(const std::vector<double> &estimate, const std::vector<double> &truth);

}  // namespace cs::sim
