// SPDX-License-Identifier: MIT
// The E-step (Z-4) of a Dawid-Skene EM round over every partition of the items: which
// kernel takes a partition (ds_kernel*.hpp: the k = 2 ratio kernel, the K = 2..5 kernels
// in registers by item or in batches -- at K = 3, 4, 5 in AVX2 registers where the
// processor has them --, or the generic one), run on the fit's team, and
// the partitions' log-likelihoods added in partition order (the same for any number of
// threads).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "crowd/em/ds_kernel.hpp"
#include "crowd/em/ds_kernel_lanes.hpp"
#include "crowd/em/ds_kernel_ratio.hpp"
#include "crowd/em/ds_kernel_wide.hpp"
#include "crowd/em/ds_steps.hpp"
#include "crowd/em/model_worker.hpp"
#include "data/crowd_shard.hpp"
#include "util/per_class.hpp"

namespace cs::ds {

namespace {

// ws.wide (k = 3, 4, 5): ws.log_pi into wide_log_pi, each code's row padded to
// wide_row(k) doubles (the padding stays 0 and is never read into a class's sum).
void widen_logs(const CrowdData &d, Workspace &ws) {
    const int64_t codes = static_cast<int64_t>(d.n_workers) * d.k, row = ws.count_row;
    const double *from = ws.log_pi.data();
    double *to = ws.wide_log_pi.data();
    for (int64_t c = 0; c < codes; ++c)
        for (int32_t l = 0; l < d.k; ++l) to[c * row + l] = from[c * d.k + l];
}

// The E-step of every partition, and with `scatter` the next M-step's counts.
void e_step_parts(const CrowdData &d, Workspace &ws, const double *prior, double *q, bool scatter) {
    const bool pull = scatter && ws.pull();
    if (pull) scatter = false;  // the kernels only write q; the counts are gathered later
    // Model probabilities: their per-item terms, which every kernel but the ratio kernel
    // of k = 2 adds after the labels' rows.
    const double *item_terms = ws.model_terms.empty() ? nullptr : ws.model_terms.data();
    if (ws.wide) widen_logs(d, ws);
    with_classes(d.k, [&](auto kc) {
        constexpr int K = decltype(kc)::value;
        for_each_part(ws, [&](int64_t p) {
            double *counts = scatter ? ws.counts.data() + p * ws.count_table : nullptr;
            if (counts != nullptr) std::fill(counts, counts + ws.count_table, 0.0);
            double *prior_sum = scatter ? ws.prior_sums.data() + p * d.k : nullptr;
#if defined(CS_HAVE_PAIR)
            if constexpr (K == 2) {
                if (ws.ratio_ready && item_terms == nullptr) {
                    const bool far = ws.table * 12 > (int64_t{1} << 20);
                    const auto kernel = ws.empty_items ? (far ? e_step_range_ratio<true, true>
                                                              : e_step_range_ratio<false, true>)
                                                       : (far ? e_step_range_ratio<true, false>
                                                              : e_step_range_ratio<false, false>);
                    kernel(d, ws.parts[p], ws.ratio.data(), ws.log_pi.data(), ws.log_prior.data(), prior, q,
                           counts, prior_sum, ws.part_ll[p], ws.part_impossible[p]);
                    return;
                }
            }
            if constexpr (K > 0) {
#if defined(CS_HAVE_QUAD)
                if constexpr (K >= 3 && K <= 5) {
                    if (ws.wide) {  // k = 3, 4, 5 in AVX2 registers (ds_workspace.hpp)
                        const auto kernel = ws.empty_items ? e_step_range_batched_wide<K, true>
                                                           : e_step_range_batched_wide<K, false>;
                        kernel(d, ws.parts[p], ws.wide_log_pi.data(), ws.log_prior.data(), prior, ws.allowed, q, counts,
                               prior_sum, ws.part_ll[p], ws.part_impossible[p], item_terms);
                        return;
                    }
                }
#endif
                // Prefetch when log pi and a count table together exceed about 1 MiB.
                const bool far = ws.table * 16 > (int64_t{1} << 20);
                const auto kernel = ws.empty_items ? (far ? e_step_range_items<K, true> : e_step_range_batched<K, true>)
                                                   : (far ? e_step_range_items<K, false>
                                                          : e_step_range_batched<K, false>);
                kernel(d, ws.parts[p], ws.log_pi.data(), ws.log_prior.data(), prior, ws.allowed, q, counts,
                       prior_sum, ws.part_ll[p], ws.part_impossible[p], item_terms);
                return;
            }
#endif
            e_step_range<K>(d, ws.parts[p], ws.log_pi.data(), ws.log_prior.data(), prior, ws.allowed, q, counts,
                            prior_sum, ws.part_ll[p], ws.part_impossible[p], item_terms);
        });
    });
    if (pull) pull_from(d, ws, q);
}

// The first item that the E-step just run found impossible: its sums (Z-4) from the same
// logs, as e_step_range takes them. Run only when some item was (a rare note), so the
// kernels stay as they are.
int64_t first_impossible_item(const CrowdData &d, const Workspace &ws, const double *prior) {
    const int32_t k = d.k;
    std::vector<double> s(static_cast<std::size_t>(k)), qj(static_cast<std::size_t>(k));
    for (int64_t j = 0; j < d.n_items; ++j) {
        if (d.item_start[j] == d.item_start[j + 1]) continue;  // no labels: never impossible
        for (int32_t l = 0; l < k; ++l) s[l] = ws.log_prior[l];
        for (int64_t p = d.item_start[j]; p < d.item_start[j + 1]; ++p) {
            const double *row = ws.log_pi.data() + static_cast<int64_t>(d.item_code[p]) * k;
            for (int32_t l = 0; l < k; ++l) s[l] += row[l];
        }
        if (!ws.model_terms.empty())
            for (int32_t l = 0; l < k; ++l) s[l] += ws.model_terms[j * k + l];
        const uint8_t *allowed_j = ws.allowed != nullptr ? ws.allowed + j * k : nullptr;
        if (allowed_j != nullptr)
            for (int32_t l = 0; l < k; ++l)
                if (!allowed_j[l]) s[l] = kMinusInf;
        if (posterior_from_sums<0>(s.data(), k, d.gold_of(static_cast<int32_t>(j)), prior, allowed_j, qj.data())
                .impossible)
            return j;
    }
    return -1;
}

}  // namespace

// The E-step at `params`; `logs_ready` when the finish_m_step that produced them has
// already filled the logs.
EStep run_e_step(const CrowdData &d, const DsParams &params, Workspace &ws, std::vector<double> &q,
                 bool scatter, bool logs_ready) {
    q.resize(static_cast<std::size_t>(d.n_items) * d.k);
    // Items held by an engine (cs_fit_stats): their E-step at these parameters; the sums
    // below (and the next M-step's) then receive its statistics.
    if (d.shard != nullptr && d.shard->remote != nullptr) d.shard->remote->e_step(params.confusion.data(), params.prior.data());
    if (!logs_ready) prepare_logs(d, params, ws);
    // The model's terms at this E-step's pi_M (none when it has none: a method that
    // does not estimate it), and after it the model's M-step counts.
    const bool model = has_model(d) && !params.model_confusion.empty();
    if (model) model_log_terms(d, params.model_confusion, ws.model_terms);
    else ws.model_terms.clear();
    e_step_parts(d, ws, params.prior.data(), q.data(), scatter);
    if (model && scatter) {
        model_counts(d, q.data(), params.model_confusion, ws.model_counts);
        ws.model_q = q.data();
    }
    EStep result;
    if (d.k == 2 && ws.ratio_ready && !model) result.log_likelihood = ws.ratio_ll;  // e_step_range_ratio
    for (int64_t p = 0; p < ws.n_parts(); ++p) {  // in partition order: deterministic
        result.log_likelihood += ws.part_ll[p];
        result.impossible_items += ws.part_impossible[p];
    }
    if (result.impossible_items > 0 && d.shard == nullptr)
        result.first_impossible = first_impossible_item(d, ws, params.prior.data());
    if (d.shard != nullptr) {  // the whole problem's (counts below 2^53 stay exact)
        double both[2] = {result.log_likelihood, static_cast<double>(result.impossible_items)};
        sum_over_shards(d, both, 2);
        result.log_likelihood = both[0];
        result.impossible_items = static_cast<int64_t>(both[1]);
    }
    return result;
}

// The E-step of the listed items (ds_steps.hpp): the reference kernel, one item at a time.
void e_step_items(const CrowdData &d, const int32_t *items, std::size_t n, const double *log_pi,
                  const double *log_prior, const double *prior, const uint8_t *allowed, double *q,
                  double *item_ll, uint8_t *impossible, double *counts, double *class_mass,
                  const double *item_terms) {
    with_classes(d.k, [&](auto kc) {
        constexpr int K = decltype(kc)::value;
        std::vector<double> mass(static_cast<std::size_t>(d.k));
        for (std::size_t t = 0; t < n; ++t) {
            const int32_t j = items[t];
            double ll = 0.0;
            int64_t none = 0;
            e_step_range<K>(d, ItemRange{j, j + 1}, log_pi, log_prior, prior, allowed, q, counts,
                            counts != nullptr ? mass.data() : nullptr, ll, none, item_terms);
            item_ll[j] = none != 0 ? 0.0 : ll;
            impossible[j] = none != 0 ? 1 : 0;
            if (class_mass != nullptr)
                for (int32_t l = 0; l < d.k; ++l) class_mass[l] += mass[static_cast<std::size_t>(l)];
        }
    });
}

}  // namespace cs::ds
