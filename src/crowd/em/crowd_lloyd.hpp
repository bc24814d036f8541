// SPDX-License-Identifier: MIT
// CrowdLloyd (ALGORITHMS.md "CrowdLloyd"; Lu and Zhou, Algorithm 2): Lloyd's
// algorithm on the one-hot labels, over observed entries only.
#pragma once

#include "core/fit_result.hpp"
#include "core/fit_options.hpp"
#include "data/crowd_data.hpp"
#include "util/progress.hpp"

namespace cs {

/// Start from majority vote (ties to the lowest index), then alternate the centre
/// update (L-24) and the label update (L-25) until no label changes or max_iter.
/// Gold items keep their known class.
/// Returns true when the progress callback cancelled.
bool fit_crowd_lloyd(const CrowdData &data, const FitOptions &options, const Progress &progress,
                     FitResult &out);

}  // namespace cs
