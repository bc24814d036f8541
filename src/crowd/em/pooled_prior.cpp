// SPDX-License-Identifier: MIT
#include "crowd/em/pooled_prior.hpp"

namespace cs {

double pooled_strength(const FitOptions &options, int32_t k) {
    return options.smoothing_strength > 0.0 ? options.smoothing_strength : static_cast<double>(k);
}

void pooled_pseudo_counts(const double *total, int32_t n_workers, int32_t k, const FitOptions &options,
                          std::vector<double> &out) {
    const int64_t kk = static_cast<int64_t>(k) * k;
    out.assign(static_cast<std::size_t>(kk), 0.0);
    for (int32_t i = 0; i < n_workers; ++i) {
        const double *c = total + i * kk;  // observed x true
        for (int32_t o = 0; o < k; ++o)
            for (int32_t l = 0; l < k; ++l) out[l * k + o] += c[o * k + l];
    }
    const double s = pooled_strength(options, k);
    for (int32_t l = 0; l < k; ++l) {
        double *row = out.data() + static_cast<int64_t>(l) * k;
        double mass = 0.0;
        for (int32_t o = 0; o < k; ++o) mass += row[o];
        for (int32_t o = 0; o < k; ++o) row[o] = mass > 0.0 ? s * (row[o] / mass) : s / k;
    }
}

}  // namespace cs
