// SPDX-License-Identifier: MIT
#include "crowd/voting/majority_vote.hpp"

#include <algorithm>

#include "crowd/em/dawid_skene.hpp"
#include "util/fast_mod.hpp"
#include "util/parallel.hpp"

namespace cs {

std::vector<double> soft_majority_vote(const CrowdData &data, int32_t threads) {
    const int32_t k = data.k;
    std::vector<double> q(static_cast<std::size_t>(data.n_items) * k, 0.0);
    // Items in fixed blocks, each written by one task: the same shares for any count.
    constexpr int32_t kBlockItems = 16384;
    const FastMod32 class_of(static_cast<uint32_t>(k));  // label_of without a division
    Team team(threads_for(threads, static_cast<int64_t>(data.n_labels())));
    team.run(chunk_count(data.n_items, kBlockItems), [&](int64_t b) {
        const int32_t first = static_cast<int32_t>(b * kBlockItems);
        const int32_t last = std::min(data.n_items, first + kBlockItems);
        for (int32_t j = first; j < last; ++j) {
            double *qj = q.data() + static_cast<int64_t>(j) * k;
            if (data.gold_of(j) >= 0) {  // a known class is certain
                qj[data.gold_of(j)] = 1.0;
                continue;
            }
            const int64_t votes = data.item_start[j + 1] - data.item_start[j];
            if (votes == 0) {
                std::fill(qj, qj + k, 1.0 / k);
                continue;
            }
            for (int64_t p = data.item_start[j]; p < data.item_start[j + 1]; ++p) qj[class_of(data.item_code[p])] += 1.0;
            for (int32_t l = 0; l < k; ++l) qj[l] /= static_cast<double>(votes);
        }
    });
    return q;
}

void fit_majority_vote(const CrowdData &data, const FitOptions &options, FitResult &out) {
    out.posteriors = soft_majority_vote(data, options.threads);
    // Vote shares are exact multiples of 1/votes computed the same way for every
    // class, so equal counts give equal shares and argmax keeps the lowest index.
    out.labels = argmax_labels(out.posteriors, data.n_items, data.k);
    DsParams params;
    m_step(data, out.posteriors, options, params);
    out.confusion = std::move(params.confusion);
    out.prior = std::move(params.prior);
    out.iterations = 0;
    out.converged = true;
}

bool fit_mv(const CrowdData &data, const FitOptions &options, const Progress &progress, FitResult &out) {
    fit_majority_vote(data, options, out);
    const bool cancelled = progress.cancelled(0, 0.0);  // its one step is the initialisation
    if (cancelled) out.notes |= CS_NOTE_CANCELLED;
    return cancelled;
}

}  // namespace cs
