// SPDX-License-Identifier: MIT
// Options of a fit of any kind (crowd labels, points, graphs), read from the handle's
// parameters (src/api/params.cpp) and passed by value to the algorithms, which never
// see the C API. Beside FitResult (core/fit_result.hpp): every problem folder uses both.
#pragma once

#include <cstdint>

#include "crowdspec/crowdspec.h"

namespace cs {

struct FitOptions {
    int32_t method = CS_METHOD_OPT_DS;
    int32_t classes = 0;        // 0 = infer from the labels
    int32_t items = 0;          // 0 = infer
    int32_t workers = 0;        // 0 = infer
    uint64_t seed = 0;
    int32_t threads = 0;        // 0 = all cores
    int32_t duplicates = CS_DUPLICATES_REJECT;
    int32_t max_iter = 1000;
    double tol = 1e-10;
    int32_t confusion = CS_CONFUSION_FULL;
    int32_t prior = CS_PRIOR_ESTIMATED;
    double smoothing = 0.0;
    int32_t support = CS_SUPPORT_AUTO;      // posterior support of every EM method
    int32_t accel = CS_ACCEL_SQUAREM;       // EM extrapolation
    int32_t identify = CS_IDENTIFY_VOTE;    // naming of classes found up to a permutation
    int32_t groups = CS_GROUPS_BALANCED;    // opt-ds: the first start's worker partition
    int32_t starts = 0;                     // opt-ds: EM starts (spectral ones + majority vote); 0 = auto
    int32_t start_rounds = 0;               // opt-ds: rounds before only the best start goes on
    double delta = 1e-6;
    int32_t power_starts = 100;
    int32_t power_iters = 100;
    int32_t n_init = 1;         // k-means++ restarts (points; spectral k-means of graphs)
    double trim = 3.0;          // graphs: trim nodes of degree > trim x average degree; 0 = none
};

}  // namespace cs
