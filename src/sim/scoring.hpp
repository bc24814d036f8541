// SPDX-License-Identifier: MIT
// Scoring of clusterings against known classes, for the command-line program, the
// tests and the benchmarks (internal; not part of the library): the mis-clustering
// rate of Lu and Zhou, min over label permutations, through the Hungarian algorithm.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "linalg/assignment.hpp"

namespace cs {
namespace sim {

/// The Hungarian algorithm of the library (linalg/assignment.hpp).
using cs::hungarian_min_cost;

struct Misclustering {
    double rate = 0.0;              // errors / scored (0 when nothing is scored)
    int64_t errors = 0;
    int64_t scored = 0;             // points with predicted >= 0 and truth >= 0
    std::vector<int32_t> mapping;   // predicted cluster -> true class (-1: matched to none)
};

/// Mis-clustering rate: the fraction of scored points whose predicted cluster, mapped
/// to a class by the best one-to-one map (a permutation when k_pred == k_true; the
/// shorter side padded otherwise), differs from the truth. Points whose truth or
/// prediction is negative are not scored. Labels must be < k_pred / k_true.
Misclustering misclustering_rate(const int32_t *predicted, const int32_t *truth, std::size_t n,
                                 int32_t k_pred, int32_t k_true);

}  // namespace sim
}  // namespace cs
