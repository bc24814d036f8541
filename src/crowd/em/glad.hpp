// SPDX-License-Identifier: MIT
// GLAD (Whitehill, Ruvolo, Wu, Bergsma and Movellan, NIPS 2009): worker abilities and
// item difficulties, MAP-EM with a Newton M-step.
#pragma once

#include "core/fit_options.hpp"
#include "core/fit_result.hpp"
#include "data/crowd_data.hpp"
#include "util/progress.hpp"

namespace cs {

/// Entry point of "glad" (crowd/run_crowd.hpp); the specification is in crowdspec.h
/// (CS_METHOD_GLAD) and docs/defaults.md. O(labels x k) per round.
bool fit_glad(const CrowdData &data, const FitOptions &options, const Progress &progress, FitResult &out);

}  // namespace cs
