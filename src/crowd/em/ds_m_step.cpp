// SPDX-License-Identifier: MIT
// The M-step (Z-5) of Dawid-Skene EM: the counts of the posteriors by worker and
// observed label, summed over the partitions' count tables in partition order or, for
// tables beyond the caches, gathered code by code (pull_codes); then the confusion
// matrices and prior, and the logs the next E-step reads (log pi transposed, log w, and
// for k = 2 the log ratios of the ratio kernel, ds_kernel_ratio.hpp), all in one pass
// over blocks of workers.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "crowd/em/confusion_model.hpp"
#include "crowd/em/ds_kernel.hpp"
#include "crowd/em/ds_steps.hpp"
#include "crowd/em/model_worker.hpp"
#include "priors/pooled_prior.hpp"
#include "data/crowd_shard.hpp"
#include "data/labels_by_code.hpp"
#include "util/per_class.hpp"

namespace cs::ds {

namespace {

// The smallest log pi[c][1] the ratio kernel takes (fill_ratios), and the ratio of a
// code it does not take: any sum with it is NaN, which marks the item.
constexpr double kRatioLowest = -100.0;
constexpr double kNoRatio = std::numeric_limits<double>::quiet_NaN();

// The largest share of the labels without a ratio at which e_step_range_ratio runs
// (finish_ratios). An item with such a label costs the ratio sums and the two sums, and
// its log pi rows are lines of one more table: whole ds fits on one thread against the
// two-sum kernels were 0.86-0.97 the time with 1 % of the labels without a ratio and
// 1.03-1.27 with 2-10 % (simulated crowds of 10^6 labels from 2·10^4 and 6·10^4
// workers, trec, rte; bench/README.md). Rounds above the bound take the two-sum kernels.
constexpr double kMostWithoutRatio = 0.02;

// Sum of q_j over the items of r, in item order: the prior sums of a partition, the
// same additions as the kernels' (pull mode, where they do not scatter).
void sum_posteriors(const double *q, ItemRange r, int32_t k, double *out) {
    for (int32_t l = 0; l < k; ++l) out[l] = 0.0;
    for (int64_t j = r.first; j < r.last; ++j)
        for (int32_t l = 0; l < k; ++l) out[l] += q[j * k + l];
}

// log pi of worker i, transposed to observed x true (so that one label adds k
// contiguous values): out[c * k + l] = log pi[l * k + c]. A zero entry's log, -inf, is
// written without the call: libm takes its slow divide-by-zero path for it, which was
// 6 % of a fit of a sparse crowd (60,000 labels from 60,000 workers, k = 3, where most
// entries are 0).
inline void log_transposed(const double *pi, int32_t k, double *out) {
    for (int32_t l = 0; l < k; ++l)
        for (int32_t c = 0; c < k; ++c) {
            const double x = pi[l * k + c];
            out[c * k + l] = x == 0.0 ? kMinusInf : std::log(x);  // log(+-0) = -inf
        }
}

// One worker's confusion matrix (Z-5) from its counts c (observed x true, summed over
// every item) and its pseudo-counts a (true x observed; null: none): row l is
// smoothing + c[.][l] + a[l][.], under the options' confusion model.
inline void worker_confusion(const double *c, const double *a, int32_t k, const FitOptions &options, double *pi) {
    for (int32_t l = 0; l < k; ++l)
        for (int32_t o = 0; o < k; ++o)
            pi[l * k + o] = options.smoothing + c[o * k + l] + (a != nullptr ? a[l * k + o] : 0.0);
    apply_confusion_model(pi, k, options.confusion);
}

// k = 2: the log ratios of workers [first, last) (block b of the M-step) from log pi,
// their part of ratio_ll and their labels without a ratio. A code whose log pi[c][1] is
// below kRatioLowest (an entry that is 0 or under e^-100, as ML makes them for workers
// who never, or nearly never, gave this label to an item of class 1) gets kNoRatio and
// no part of ratio_ll: e_step_range_ratio takes the items with such a label from the
// two sums (take_two_sum_items). Its log pi[c][1] in ratio_ll and the items' max(d, 0) would
// cancel, costing the log-likelihood about 2e-16 |log pi[c][1]| per label in absolute
// terms (1e-13 relative was seen on a sparse crowd whose entries ML drives towards 0);
// the bound keeps that below a few 1e-14 relative even if every label had one. A log
// pi[c][0] of -inf gives a ratio of -inf, which the kernel takes as it is.
void fill_ratios(Workspace &ws, int32_t first, int32_t last, int64_t b) {
    double sum = 0.0, special = 0.0;
    for (int64_t c = int64_t{2} * first; c < int64_t{2} * last; ++c) {
        const double l0 = ws.log_pi[2 * c], l1 = ws.log_pi[2 * c + 1];
        if (ws.code_labels[c] == 0.0) {  // a label no one gave (log pi = -inf): never read
            ws.ratio[c] = 0.0;
            continue;
        }
        if (!(l1 >= kRatioLowest)) {
            ws.ratio[c] = kNoRatio;
            special += ws.code_labels[c];
            continue;
        }
        ws.ratio[c] = l0 - l1;
        sum += ws.code_labels[c] * l1;
    }
    ws.block_ll[b] = sum;
    ws.block_special[b] = special;
}

// k = 2, after fill_ratios of every block: whether the ratio kernel may run (no
// answer-set restriction, finite log priors, and at most kMostWithoutRatio of the labels
// without a ratio) and the log-likelihood's part that is not in the kernel's sums, in
// block order. In a distributed fit each process decides for its own labels (the two
// kernels' posteriors differ by rounding only).
void finish_ratios(const CrowdData &d, Workspace &ws) {
    bool ok = ws.allowed == nullptr && std::isfinite(ws.log_prior[0]) && std::isfinite(ws.log_prior[1]);
    double sum = static_cast<double>(d.n_items) * ws.log_prior[1], special = 0.0;
    for (std::size_t b = 0; b < ws.block_ll.size(); ++b) {
        special += ws.block_special[b];
        sum += ws.block_ll[b];
    }
    ws.ratio_ready = ok && special <= kMostWithoutRatio * static_cast<double>(d.n_labels());
    ws.ratio_ll = sum;
}

// Pull mode: the counts of codes [first, last) from the posteriors q, row c = the sum
// of q_j over the items j given code c (Z-5). Summed per partition in item order, and
// the partitions' sums added in partition order: the same additions in the same order
// as the kernels' scatter into per-partition tables (zeroed, so the first addition is
// exact) followed by sum_block's sum over them, so the counts are identical bit for bit
// (an empty partition adds 0, which changes no sum of non-negative terms). The rows
// of q are read in increasing item order, and requested kAhead labels ahead.
template <int K>
void pull_codes(const LabelsByCode &by_code, const std::vector<ItemRange> &parts, int32_t k, const double *q,
                int64_t first, int64_t last, double *total) {
    constexpr int64_t kAhead = 16;
    const int32_t kk = K > 0 ? K : k;
    ClassScratch<K> sum_scratch(kk), part_scratch(kk);
    double *sum = sum_scratch.data(), *part = part_scratch.data();
    const int32_t *item = by_code.item.data();
    const int64_t n = static_cast<int64_t>(by_code.item.size());
    for (int64_t c = first; c < last; ++c) {
        for (int32_t l = 0; l < kk; ++l) sum[l] = part[l] = 0.0;
        std::size_t in = 0;  // the partition of the items being summed
        for (int64_t e = by_code.start[c]; e < by_code.start[c + 1]; ++e) {
            if (e + kAhead < n) {  // a row of K > 2 doubles can span two lines
                const double *ahead = q + static_cast<int64_t>(item[e + kAhead]) * kk;
                __builtin_prefetch(ahead);
                __builtin_prefetch(ahead + kk - 1);
            }
            const int32_t j = item[e];
            if (j >= parts[in].last) {  // the next partition: add this one's sum
                for (int32_t l = 0; l < kk; ++l) {
                    sum[l] += part[l];
                    part[l] = 0.0;
                }
                while (j >= parts[in].last) ++in;
            }
            const double *qj = q + static_cast<int64_t>(j) * kk;
            for (int32_t l = 0; l < kk; ++l) part[l] += qj[l];
        }
        double *row = total + c * kk;
        for (int32_t l = 0; l < kk; ++l) row[l] = sum[l] + part[l];
    }
}

// Entries [first, last) of the count tables (entry e = code e / k, class e % k) summed
// over the partitions in partition order, into total[e]: the scatter mode's sum.
void sum_partition_tables(const Workspace &ws, int32_t k, int64_t first, int64_t last, double *total) {
    const double *tables = ws.counts.data();
    const int64_t parts = ws.n_parts();
    for (int64_t e = first; e < last; ++e) {
        // Entry e = (code c, class l) is at c * count_row + l (rows padded when ws.wide).
        const int64_t at = ws.wide ? e / k * ws.count_row + e % k : e;
        double sum = tables[at];
        for (int64_t p = 1; p < parts; ++p) sum += tables[p * ws.count_table + at];
        total[e] = sum;
    }
}

// The class mass sum_j q_j(l): the partitions' prior sums in partition order.
void sum_class_mass(const Workspace &ws, int32_t k, double *class_mass) {
    for (int32_t l = 0; l < k; ++l) {
        double sum = 0.0;
        for (int64_t p = 0; p < ws.n_parts(); ++p) sum += ws.prior_sums[p * k + l];
        class_mass[l] = sum;
    }
}

}  // namespace

bool counted_posteriors(const CrowdData &d, const Workspace &ws, std::vector<double> &counts,
                        std::vector<double> &class_mass) {
    counts.clear();
    class_mass.clear();
    if (ws.pull() || ws.counts.empty() || (d.shard != nullptr && d.shard->remote != nullptr)) return false;
    const int64_t entries = static_cast<int64_t>(d.n_workers) * d.k * d.k;
    counts.resize(static_cast<std::size_t>(entries));
    class_mass.resize(static_cast<std::size_t>(d.k));
    sum_partition_tables(ws, d.k, 0, entries, counts.data());
    sum_class_mass(ws, d.k, class_mass.data());
    return true;
}

// Pull mode: the prior sums of every partition, and q for the M-step's gather.
void pull_from(const CrowdData &d, Workspace &ws, const double *q) {
    ws.pull_q = q;
    for_each_part(ws, [&](int64_t p) { sum_posteriors(q, ws.parts[p], d.k, ws.prior_sums.data() + p * d.k); });
}

// Counts of the posteriors q in every partition (the M-step of a posterior start).
void scatter_posteriors(const CrowdData &d, Workspace &ws, const double *q) {
    // The model's counts of a posterior start: no pi_M yet, so uniform (model_worker.hpp).
    if (has_model(d)) {
        model_counts(d, q, {}, ws.model_counts);
        ws.model_q = q;
    }
    if (ws.pull()) return pull_from(d, ws, q);
    with_classes(d.k, [&](auto kc) {
        constexpr int K = decltype(kc)::value;
        for_each_part(ws, [&](int64_t p) {
            double *counts = ws.counts.data() + p * ws.count_table;
            std::fill(counts, counts + ws.count_table, 0.0);  // by its own thread: parallel, cache-warm
            scatter_range<K>(d, ws.parts[p], q, counts, ws.prior_sums.data() + p * d.k, ws.count_row);
        });
    });
}

// The M-step (Z-5) from the counts of the last pass: sum the partitions' tables,
// add the smoothing pseudo-count, apply the confusion model and normalise each true
// class; the prior, when estimated, is the mean posterior. With `logs`, also log pi
// (log 0 = -inf marks impossible classes) and log w for the next E-step, so that it
// needs no pass of its own (run_e_step with logs_ready).
//
// One pass over blocks of workers does it all: each task sums the partitions' copies
// of its workers' rows (in partition order, so the sums never depend on the thread
// count) and turns them into confusion matrices and their logs.
void finish_m_step(const CrowdData &d, Workspace &ws, const FitOptions &options, DsParams &params,
                   bool logs) {
    const int32_t k = d.k;
    const int64_t kk = static_cast<int64_t>(k) * k;
    std::vector<double> &total = ws.total;  // reused every round: no allocation in the EM loop
    params.confusion.resize(static_cast<std::size_t>(ws.table));
    const bool pooled = options.smoothing_center == CS_SMOOTHING_CENTER_POOLED;
    const bool strata = options.smoothing_center == CS_SMOOTHING_CENTER_STRATA;
    const int64_t blocks = ws.n_worker_blocks(d.n_workers);
    const auto sum_block = [&](int64_t b) {
        const int64_t first = b * ws.worker_block * kk;
        const int64_t last = std::min<int64_t>(d.n_workers, (b + 1) * ws.worker_block) * kk;
        if (ws.pull()) {  // codes [first / k, last / k)
            with_classes(k, [&](auto kc) {
                pull_codes<decltype(kc)::value>(*ws.by_code, ws.parts, k, ws.pull_q, first / k, last / k, total.data());
            });
            return;
        }
        sum_partition_tables(ws, k, first, last, total.data());
    };
    double *class_mass = total.data() + ws.table;  // sum of q_jl over the items, per class l
    sum_class_mass(ws, k, class_mass);
    // The sums are a pass of their own when something needs all of them before the
    // confusion matrices: a distributed fit (the counts and class mass of all processes'
    // items, sum_over_shards) or smoothing_center = pooled (every row also gets s P[l][o],
    // P this round's pooled confusion matrix, priors/pooled_prior.hpp).
    const bool sums_first = pooled || strata || d.shard != nullptr;
    if (sums_first) {
        ws.team.run(blocks, sum_block);
        sum_over_shards(d, total.data(), total.size());
        if (pooled) pooled_pseudo_counts(total.data(), d.n_workers, k, options, ws.pooled);
        if (strata)
            strata_pseudo_counts(total.data(), class_mass, total_items(d), ws.strata, ws.n_strata, k, options,
                                 ws.pooled);
    }
    for_each_worker_block(d, ws, [&](int32_t first, int32_t last, int64_t b) {
        if (!sums_first) sum_block(b);
        for (int32_t i = first; i < last; ++i) {
            double *pi = params.confusion.data() + i * kk;
            const double *a = pooled ? ws.pooled.data() : strata ? ws.pooled.data() + ws.strata[i] * kk : nullptr;
            worker_confusion(total.data() + i * kk, a, k, options, pi);
            if (logs) log_transposed(pi, k, ws.log_pi.data() + i * kk);
        }
        if (logs && k == 2) fill_ratios(ws, first, last, b);
    });
    // The model's own confusion matrix, from the counts of the last pass (model_worker.hpp).
    if (has_model(d) && !ws.model_counts.empty()) {
        model_m_step(ws.model_counts, k, options, params.model_confusion);
        // One process's items only in a distributed fit: its sums would need a
        // collective per inner step, so it keeps EM's single step there.
        if (ws.model_q != nullptr && d.shard == nullptr)
            settle_model_confusion(d, ws.model_q, options, params.model_confusion, &ws.team, &ws.classifier_rows);
    } else {
        params.model_confusion.clear();
    }
    params.prior.assign(static_cast<std::size_t>(k), 1.0 / k);
    const int64_t n_items = total_items(d);
    if (options.prior == CS_PRIOR_ESTIMATED && n_items > 0)
        for (int32_t l = 0; l < k; ++l) params.prior[l] = class_mass[l] / static_cast<double>(n_items);
    if (logs) {
        for (int32_t l = 0; l < k; ++l) ws.log_prior[l] = std::log(params.prior[l]);
        if (k == 2) finish_ratios(d, ws);
    } else {
        ws.ratio_ready = false;
    }
}

// log pi (log_transposed) and log w of given parameters, for an E-step at parameters
// that did not come from finish_m_step (a start, an extrapolated SQUAREM point).
void prepare_logs(const CrowdData &d, const DsParams &params, Workspace &ws) {
    const int32_t k = d.k;
    const int64_t kk = static_cast<int64_t>(k) * k;
    for_each_worker_block(d, ws, [&](int32_t first, int32_t last, int64_t b) {  // fill_ratios' blocks
        for (int32_t i = first; i < last; ++i)
            log_transposed(params.confusion.data() + i * kk, k, ws.log_pi.data() + i * kk);
        if (k == 2) fill_ratios(ws, first, last, b);
    });
    for (int32_t l = 0; l < k; ++l) ws.log_prior[l] = std::log(params.prior[l]);
    if (k == 2) finish_ratios(d, ws);
}

// k = 2: the log ratios of the logs in ws.log_pi (as prepare_logs takes them, for logs
// that were taken elsewhere).
void ratios_from_logs(const CrowdData &d, Workspace &ws) {
    for_each_worker_block(d, ws, [&](int32_t first, int32_t last, int64_t b) { fill_ratios(ws, first, last, b); });
    finish_ratios(d, ws);
}

// The M-step (Z-5) from counts summed elsewhere (an incremental update, the statistics
// of an engine's shards): the same arithmetic as finish_m_step's, worker by worker.
void m_step_from_totals(const double *counts, const double *class_mass, int32_t n_workers, int32_t k,
                        int64_t n_items, const std::vector<int32_t> &strata, int32_t n_strata,
                        const FitOptions &options, DsParams &params) {
    const int64_t kk = static_cast<int64_t>(k) * k;
    const bool pooled = options.smoothing_center == CS_SMOOTHING_CENTER_POOLED;
    const bool by_strata = options.smoothing_center == CS_SMOOTHING_CENTER_STRATA;
    std::vector<double> pseudo;
    if (pooled) pooled_pseudo_counts(counts, n_workers, k, options, pseudo);
    if (by_strata) strata_pseudo_counts(counts, class_mass, n_items, strata, n_strata, k, options, pseudo);
    params.confusion.resize(static_cast<std::size_t>(n_workers * kk));
    for (int32_t i = 0; i < n_workers; ++i) {
        const double *a = pooled ? pseudo.data() : by_strata ? pseudo.data() + strata[i] * kk : nullptr;
        worker_confusion(counts + i * kk, a, k, options, params.confusion.data() + i * kk);
    }
    params.prior.assign(static_cast<std::size_t>(k), 1.0 / k);
    if (options.prior == CS_PRIOR_ESTIMATED && n_items > 0)
        for (int32_t l = 0; l < k; ++l) params.prior[l] = class_mass[l] / static_cast<double>(n_items);
}

}  // namespace cs::ds
