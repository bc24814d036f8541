// SPDX-License-Identifier: MIT
#include "crowd/spectral/class_identification.hpp"

#include <cmath>

#include "data/crowd_shard.hpp"
#include "linalg/assignment.hpp"

namespace cs {

std::vector<double> vote_agreement(const CrowdData &data, const std::vector<double> &q) {
    const int32_t k = data.k;
    std::vector<double> agreement(static_cast<std::size_t>(k) * k, 0.0);
    std::vector<double> votes(static_cast<std::size_t>(k), 0.0);
    std::vector<int32_t> voted;  // the item's distinct label classes
    for (int32_t j = 0; j < data.n_items; ++j) {
        const int64_t begin = data.item_start[j], end = data.item_start[j + 1];
        if (begin == end) continue;
        voted.clear();
        for (int64_t p = begin; p < end; ++p) {
            const int32_t c = data.label_of(p);
            if (votes[c] == 0.0) voted.push_back(c);
            votes[c] += 1.0;
        }
        const double inv = 1.0 / static_cast<double>(end - begin);
        const double *qj = q.data() + static_cast<int64_t>(j) * k;
        // Only the classes the item's labels name: the other columns would add 0, and
        // the work is O(labels x k) rather than O(items x k^2) (issue 40).
        for (int32_t l = 0; l < k; ++l)
            for (int32_t c : voted) agreement[l * k + c] += qj[l] * votes[c] * inv;
        for (int32_t c : voted) votes[c] = 0.0;
    }
    sum_over_shards(data, agreement.data(), agreement.size());  // all processes' items
    return agreement;
}

std::vector<int32_t> vote_identification(const CrowdData &data, const std::vector<double> &q,
                                         const Progress &progress) {
    const int32_t k = data.k;
    const std::vector<double> agreement = vote_agreement(data, q);
    std::vector<int32_t> sigma = max_score_assignment(agreement, k, [&](int64_t work) { progress.poll(work); });
    double best = 0.0, identity = 0.0, scale = 0.0;
    for (int32_t l = 0; l < k; ++l) {
        best += agreement[l * k + sigma[l]];
        identity += agreement[l * k + l];
    }
    for (double a : agreement) scale += std::fabs(a);
    if (identity >= best - 1e-12 * scale)
        for (int32_t l = 0; l < k; ++l) sigma[l] = l;
    return sigma;
}

bool is_identity(const std::vector<int32_t> &sigma) {
    for (std::size_t l = 0; l < sigma.size(); ++l)
        if (sigma[l] != static_cast<int32_t>(l)) return false;
    return true;
}

void rename_classes(DsParams &params, const std::vector<int32_t> &sigma, int32_t k) {
    const int64_t kk = static_cast<int64_t>(k) * k;
    const std::vector<double> old = params.confusion;
    const int64_t workers = static_cast<int64_t>(old.size()) / kk;
    for (int64_t i = 0; i < workers; ++i)
        for (int32_t l = 0; l < k; ++l)
            for (int32_t c = 0; c < k; ++c)
                params.confusion[i * kk + sigma[l] * k + c] = old[i * kk + l * k + c];
    if (static_cast<int32_t>(params.prior.size()) == k) {
        const std::vector<double> prior = params.prior;
        for (int32_t l = 0; l < k; ++l) params.prior[sigma[l]] = prior[l];
    }
}

void rename_posteriors(std::vector<double> &q, const std::vector<int32_t> &sigma, int32_t k) {
    std::vector<double> row(static_cast<std::size_t>(k));
    const std::size_t n = q.size() / static_cast<std::size_t>(k);
    for (std::size_t j = 0; j < n; ++j) {
        double *qj = q.data() + j * k;
        for (int32_t l = 0; l < k; ++l) row[sigma[l]] = qj[l];
        for (int32_t l = 0; l < k; ++l) qj[l] = row[l];
    }
}

}  // namespace cs
