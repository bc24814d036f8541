// SPDX-License-Identifier: MIT
// Soft counts by label code, the layout of the M-step's count tables (worker x observed
// x true): each label of item j adds the item's posterior row q_j to the k entries its
// code (worker * k + label) points at. The worker diagnostics' pass and the
// calibration's count of the rows it tempers both sum them this way. (EM's own kernels
// keep their copy in crowd/em/ds_kernel.hpp, laid out for the E-step's padded rows.)
#pragma once

#include <cstdint>

#include "data/crowd_data.hpp"
#include "util/simd_quad.hpp"

namespace cs {

/// Adds q_j (k values; k = K when K > 0, fixed at compile time so the loop unrolls) to
/// the count row of each label of item j: counts + code * k. For K > 0 the row is read
/// once into a local copy: read through qj, which might alias the counts as far as the
/// compiler knows, it was loaded again after every store (the same additions either way).
template <int K>
inline void add_soft_counts(const CrowdData &data, int32_t j, int32_t k, const double *qj, double *counts) {
    const uint32_t *code = data.item_code.data();
    if constexpr (K > 0) {
        double row[K];
        for (int32_t t = 0; t < K; ++t) row[t] = qj[t];
        for (int64_t p = data.item_start[j]; p < data.item_start[j + 1]; ++p) {
            double *n = counts + static_cast<int64_t>(code[p]) * K;
            for (int32_t t = 0; t < K; ++t) n[t] += row[t];
        }
    } else {
        for (int64_t p = data.item_start[j]; p < data.item_start[j + 1]; ++p) {
            double *n = counts + static_cast<int64_t>(code[p]) * k;
            for (int32_t t = 0; t < k; ++t) n[t] += qj[t];
        }
    }
}

#if defined(CS_HAVE_QUAD)
/// add_soft_counts_of_items for k = 4 or 5 with a row in one AVX2 register (and k = 5's
/// last class in a scalar): per label one load, addition and store where SSE2 takes two
/// or three. The same additions in the same order, so the same bits. Only where
/// cpu_has_avx2().
template <int K>
CS_TARGET_AVX2 void add_soft_counts_of_items_quad(const CrowdData &data, int32_t first, int32_t last,
                                                  const double *q, double *counts, double *class_mass) {
    static_assert(K == 4 || K == 5, "rows of four or five classes");
    const uint32_t *code = data.item_code.data();
    const int64_t *start = data.item_start.data();
    Quad mass = load_quad(class_mass);
    double mass4 = K == 5 ? class_mass[4] : 0.0;
    for (int32_t j = first; j < last; ++j) {
        const double *qj = q + static_cast<int64_t>(j) * K;
        const Quad row = load_quad(qj);
        const double row4 = K == 5 ? qj[4] : 0.0;
        mass += row;
        if constexpr (K == 5) mass4 += row4;
        for (int64_t p = start[j]; p < start[j + 1]; ++p) {
            double *n = counts + static_cast<int64_t>(code[p]) * K;
            store_quad(n, load_quad(n) + row);
            if constexpr (K == 5) n[4] += row4;
        }
    }
    store_quad(class_mass, mass);
    if constexpr (K == 5) class_mass[4] = mass4;
}
#endif

/// For items first .. last - 1 in order: adds q_j to class_mass (k values) and to the
/// count rows of its labels (add_soft_counts). `wide`: in AVX2 registers at k = 4, 5
/// where the processor has them (the same bits).
template <int K>
inline void add_soft_counts_of_items(const CrowdData &data, int32_t first, int32_t last, int32_t k, const double *q,
                                     double *counts, double *class_mass, bool wide = true) {
#if defined(CS_HAVE_QUAD)
    if constexpr (K == 4 || K == 5) {
        if (wide && cpu_has_avx2()) {
            add_soft_counts_of_items_quad<K>(data, first, last, q, counts, class_mass);
            return;
        }
    }
#endif
    (void)wide;
    for (int32_t j = first; j < last; ++j) {
        const double *qj = q + static_cast<int64_t>(j) * k;
        for (int32_t t = 0; t < k; ++t) class_mass[t] += qj[t];
        add_soft_counts<K>(data, j, k, qj, counts);
    }
}

}  // namespace cs
