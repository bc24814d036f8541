// SPDX-License-Identifier: MIT
// Soft counts by label code, the layout of the M-step's count tables (worker x observed
// x true): each label of item j adds the item's posterior row q_j to the k entries its
// code (worker * k + label) points at. The worker diagnostics' pass and the
// calibration's count of the rows it tempers both sum them this way. (EM's own kernels
// keep their copy in crowd/em/ds_kernel.hpp, laid out for the E-step's padded rows.)
#pragma once

#include <cstdint>

#include "data/crowd_data.hpp"

namespace cs {

/// Adds q_j (k values; k = K when K > 0, fixed at compile time so the loop unrolls) to
/// the count row of each label of item j: counts + code * k.
template <int K>
inline void add_soft_counts(const CrowdData &data, int32_t j, int32_t k, const double *qj, double *counts) {
    const int32_t kk = K > 0 ? K : k;
    const uint32_t *code = data.item_code.data();
    for (int64_t p = data.item_start[j]; p < data.item_start[j + 1]; ++p) {
        double *n = counts + static_cast<int64_t>(code[p]) * kk;
        for (int32_t t = 0; t < kk; ++t) n[t] += qj[t];
    }
}

}  // namespace cs
