// SPDX-License-Identifier: MIT
// M-MSR (Ma and Olshevsky, NeurIPS 2020): one-coin skills from a robust rank-one
// completion of the worker-agreement matrix, then the weighted vote they imply.
#pragma once

#include "core/fit_options.hpp"
#include "core/fit_result.hpp"
#include "data/crowd_data.hpp"
#include "util/progress.hpp"

namespace cs {

/// Entry point of "m-msr" (crowd/run_crowd.hpp); the specification is in crowdspec.h
/// (CS_METHOD_M_MSR) and docs/defaults.md. Memory O(labels + worker pairs that share an
/// item), time O(sum over items of labels^2) once plus O(pairs log degree) per round.
bool fit_m_msr(const CrowdData &data, const FitOptions &options, const Progress &progress, FitResult &out);

}  // namespace cs
