// SPDX-License-Identifier: MIT
// Pairwise comparisons drawn from the generative process of each comparison model
// (internal: tests, benchmarks): true scores s_i ~ N(0, score_sd^2); each comparison a
// worker drawn uniformly, two distinct items drawn uniformly in random left/right
// order, and the answer from the worker's model:
// - Bt: left wins with probability sigma(s_left - s_right); with nu > 0, Davidson's
//   model (a tie with probability nu sqrt(pi_l pi_r) / (pi_l + pi_r + nu sqrt(pi_l pi_r)));
// - Noisy: with probability reliability_w by Bt, else "left" with probability bias_w;
// - Crowd: the Bt answer, reversed with probability 1 - reliability_w.
#pragma once

#include <cstdint>
#include <vector>

namespace cs::sim {

enum class ComparisonModel { Bt, Noisy, Crowd };

struct ComparisonSimOptions {
    int32_t items = 100;
    int32_t workers = 10;
    int64_t comparisons = 1000;
    double score_sd = 1.0;
    double nu = 0.0;                   ///< Davidson's tie parameter (Bt only)
    ComparisonModel model = ComparisonModel::Bt;
    std::vector<double> reliability;   ///< per worker (Noisy, Crowd); default 1
    std::vector<double> bias;          ///< per worker (Noisy); default 0.5
    uint64_t seed = 1;
};

struct SimulatedComparisons {
    std::vector<int32_t> worker, left, right, answer;  ///< answer: CS_ANSWER_* values
    std::vector<double> score;                         ///< the true scores
};

SimulatedComparisons simulate_comparisons(const ComparisonSimOptions &options);

}  // namespace cs::sim
