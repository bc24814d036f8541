// SPDX-License-Identifier: MIT
// Run a comparisons fit (cs_fit_comparisons): the method's entry point (from the
// registry, src/api/registry.cpp) -- bt, noisy-bt or crowd-bt -- then what every method
// shares: standard errors from the observed information, ranks and notes.
#pragma once

#include <cstdint>
#include <vector>

#include "core/fit_options.hpp"
#include "core/fit_result.hpp"
#include "data/comparison_data.hpp"
#include "util/parallel.hpp"
#include "util/progress.hpp"

namespace cs {

/// What a comparison method leaves for the shared part of the fit.
struct RankingState {
    std::vector<double> score;      // s_i, one per item
    std::vector<double> curvature;  // per pair: c_p, the pair's weight in the information
                                    // F = sum_p c_p (e_lo - e_hi)(e_lo - e_hi)^T + prior
    bool cancelled = false;
};

/// The entry point of a comparison method: fills state (scores and curvature) and
/// out's trace, iterations, converged, reliability and estimates.
using ComparisonMethod = void (*)(const ComparisonData &data, const FitOptions &options, const Progress &progress,
                                  Team &team, RankingState &state, FitResult &out);

/// "bt": Bradley-Terry by MM, Davidson ties (bradley_terry.cpp).
void fit_bt(const ComparisonData &data, const FitOptions &options, const Progress &progress, Team &team,
            RankingState &state, FitResult &out);
/// "noisy-bt": crowd-kit's NoisyBradleyTerry model by EM (worker_models.cpp).
void fit_noisy_bt(const ComparisonData &data, const FitOptions &options, const Progress &progress, Team &team,
                  RankingState &state, FitResult &out);
/// "crowd-bt": Crowd-BT (Chen et al. 2013) by EM (worker_models.cpp).
void fit_crowd_bt(const ComparisonData &data, const FitOptions &options, const Progress &progress, Team &team,
                  RankingState &state, FitResult &out);

/// Whether a method has parameters per worker (noisy-bt, crowd-bt), which model no tie.
bool uses_workers(int32_t method);

/// Fit `method` to the comparisons into `out`. Returns true when the progress callback
/// cancelled the fit (out then holds the last completed iteration).
bool run_comparisons_method(const ComparisonData &data, const FitOptions &options, const Progress &progress,
                            ComparisonMethod method, FitResult &out);

}  // namespace cs
