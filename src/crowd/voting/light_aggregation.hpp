// SPDX-License-Identifier: MIT
// LA, the light-weight label aggregation of Yang, Zhao, Bai, Liu and Li (ACM TKDD 2024,
// arXiv 2212.00007): a one-coin ability per worker, the mode of its Beta posterior from
// hard agreement counts, updated online while the items are decided one after another
// (la-onepass), and a second vote with the final abilities (la, the two-pass algorithm).
// Each label is read at most twice; no iterations (docs/algorithms.md, "LA").
#pragma once

#include "core/fit_result.hpp"
#include "core/fit_options.hpp"
#include "data/crowd_data.hpp"
#include "util/progress.hpp"

namespace cs {

/// Entry point of "la-onepass" (crowd/run_crowd.hpp): the items in the order of
/// options.la_order (a permutation drawn from options.seed, or the item ids), each
/// decided by the vote weighted with the current abilities, whose counts it then updates.
bool fit_la_onepass(const CrowdData &data, const FitOptions &options, const Progress &progress, FitResult &out);

/// Entry point of "la" (LA two-pass): la-onepass, then every item voted again with the
/// weights k a_w - 1 of the final abilities a_w.
bool fit_la(const CrowdData &data, const FitOptions &options, const Progress &progress, FitResult &out);

}  // namespace cs
