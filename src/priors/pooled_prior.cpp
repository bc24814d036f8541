// SPDX-License-Identifier: MIT
#include "priors/pooled_prior.hpp"

#include <algorithm>

#include "data/crowd_shard.hpp"

namespace cs {

double pooled_strength(const FitOptions &options, int32_t k) {
    return options.smoothing_strength > 0.0 ? options.smoothing_strength : static_cast<double>(k);
}

namespace {

// P[l][c]: every worker's counts summed (total is worker x observed x true), rows
// normalised; a row without mass is uniform.
std::vector<double> pooled_rows(const double *total, int32_t n_workers, int32_t k) {
    const int64_t kk = static_cast<int64_t>(k) * k;
    std::vector<double> rows(static_cast<std::size_t>(kk), 0.0);
    for (int32_t i = 0; i < n_workers; ++i) {
        const double *c = total + i * kk;  // observed x true
        for (int32_t o = 0; o < k; ++o)
            for (int32_t l = 0; l < k; ++l) rows[l * k + o] += c[o * k + l];
    }
    for (int32_t l = 0; l < k; ++l) {
        double *row = rows.data() + static_cast<int64_t>(l) * k;
        double mass = 0.0;
        for (int32_t o = 0; o < k; ++o) mass += row[o];
        for (int32_t o = 0; o < k; ++o) row[o] = mass > 0.0 ? row[o] / mass : 1.0 / k;
    }
    return rows;
}

}  // namespace

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

std::vector<int32_t> worker_strata(const CrowdData &data, int32_t &n_strata) {
    std::vector<uint64_t> labels(static_cast<std::size_t>(data.n_workers), 0);
    for (std::size_t p = 0; p < data.n_labels(); ++p)
        ++labels[static_cast<std::size_t>(data.worker_of(static_cast<int64_t>(p)))];
    sum_over_shards(data, labels.data(), labels.size());
    return strata_of_counts(labels, n_strata);
}

std::vector<int32_t> worker_strata_of_codes(const CrowdData &data, const std::vector<double> &code_labels,
                                            int32_t &n_strata) {
    const std::size_t k = static_cast<std::size_t>(data.k);
    std::vector<uint64_t> labels(static_cast<std::size_t>(data.n_workers), 0);
    for (std::size_t w = 0; w < labels.size(); ++w)
        for (std::size_t c = 0; c < k; ++c) labels[w] += static_cast<uint64_t>(code_labels[w * k + c]);
    sum_over_shards(data, labels.data(), labels.size());
    return strata_of_counts(labels, n_strata);
}

std::vector<int32_t> strata_of_counts(const std::vector<uint64_t> &labels, int32_t &n_strata) {
    std::vector<int32_t> strata(labels.size(), 0);
    n_strata = 1;
    for (std::size_t i = 0; i < labels.size(); ++i) {
        int32_t g = 0;
        for (uint64_t n = labels[i]; n > 1; n >>= 1) ++g;  // floor(log2 n), exactly
        strata[i] = g;
        n_strata = std::max(n_strata, g + 1);
    }
    return strata;
}

void strata_pseudo_counts(const double *total, const double *class_mass, int64_t n_items,
                          const std::vector<int32_t> &strata, int32_t n_strata, int32_t k, const FitOptions &options,
                          std::vector<double> &out) {
    const int32_t n_workers = static_cast<int32_t>(strata.size());
    const int64_t kk = static_cast<int64_t>(k) * k;
    const std::vector<double> pooled = pooled_rows(total, n_workers, k);
    out.assign(static_cast<std::size_t>(n_strata * kk), 0.0);
    for (int32_t i = 0; i < n_workers; ++i) {  // each stratum's counts, true x observed
        double *g = out.data() + strata[static_cast<std::size_t>(i)] * kk;
        const double *c = total + i * kk;
        for (int32_t o = 0; o < k; ++o)
            for (int32_t l = 0; l < k; ++l) g[l * k + o] += c[o * k + l];
    }
    const double s = pooled_strength(options, k);
    for (int32_t g = 0; g < n_strata; ++g)
        for (int32_t l = 0; l < k; ++l) {
            double *row = out.data() + g * kk + static_cast<int64_t>(l) * k;
            double mass = 0.0;
            for (int32_t o = 0; o < k; ++o) mass += row[o] += k * pooled[l * k + o];
            const double rho = n_items > 0 ? class_mass[l] / static_cast<double>(n_items) : 1.0 / k;
            for (int32_t o = 0; o < k; ++o) row[o] = s * k * rho * (row[o] / mass);
        }
}

}  // namespace cs
