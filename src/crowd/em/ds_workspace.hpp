// SPDX-License-Identifier: MIT
// The workspace of one Dawid-Skene EM fit (crowd/em/dawid_skene.hpp): the tables every
// round reads and writes -- fixed item partitions with a count table each, log pi and
// log w, the k = 2 log ratios, the answer sets -- allocated once per fit and reused
// every round, and the fit's team of threads. A file of its own because the E-step
// (ds_e_step.cpp), the M-step (ds_m_step.cpp) and the EM loop (dawid_skene.cpp) all
// work on it; ds_steps.hpp declares the passes over it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/fit_options.hpp"
#include "crowd/em/model_worker.hpp"
#include "data/crowd_data.hpp"
#include "data/item_partitions.hpp"
#include "data/labels_by_code.hpp"
#include "util/aligned.hpp"
#include "util/parallel.hpp"

namespace cs::ds {

// log 0: the log of a zero confusion entry or prior, which makes a class impossible.
constexpr double kMinusInf = -std::numeric_limits<double>::infinity();

// Tables of 1 MiB or more go on transparent huge pages: with many workers every label
// reads a random row of log pi and adds into a random row of a count table, and with
// 4 KiB pages nearly each of those also missed the TLB (10^7 labels from 10^5 workers,
// k = 2: 14.8 -> 11.7 ns per label-iteration). AlignedAllocator (util/aligned.hpp) asks
// for huge pages from 8 MiB on, so a table between 1 and 8 MiB reserves 8 MiB of
// address space (only the pages it uses are ever touched).
template <class V>
void allocate_table(V &v, std::size_t n) {
    constexpr std::size_t kHuge = V::allocator_type::kHugeThreshold / sizeof(double);
    if (n * sizeof(double) >= (std::size_t(1) << 20)) v.reserve(std::max(n, kHuge));
    v.resize(n);
}

// The row of a code (k values) in the tables of the AVX2 kernel (wide, below): at k = 4
// and 5, 8 doubles, one 64-byte line, where rows of 5 doubles straddle two lines in 5 of
// every 8 codes and a 4-double load or store of one in 3 of 8 (a split access costs
// about a second one); at k = 3, 4 doubles (one register, half a line: never split),
// the fourth always 0.
constexpr int64_t wide_row(int k) { return k == 3 ? 4 : 8; }

// Tables an EM fit reuses every round. An EM round is one pass over the labels by
// item: the E-step (Z-4) of item j needs only j's labels, and the M-step (Z-5)
// counts are sums over labels of the new posteriors, so both happen in the same
// pass: after computing q_j, the pass adds q_j into the count rows of j's labels.
// This streams the labels once per round and never reads the posteriors of other
// items (the cache misses of a separate by-worker M-step pass). Only when the count
// tables are beyond the caches is the by-worker pass the cheaper (gathers_counts).
struct Workspace {
    int32_t k = 0;
    int64_t table = 0;                  // m x k x k: doubles in one count table
    std::vector<ItemRange> parts;       // fixed item partitions (item_partitions.hpp)
    // Cache-line aligned, and on huge pages when large (util/aligned.hpp): with many
    // workers every label's row is a random line of these tables, and with 4 KiB pages
    // nearly every one of them also missed the TLB.
    using Table = std::vector<double, AlignedAllocator<double>>;
    Table counts;                       // per partition: m x k (observed) x k (true)
    std::vector<double> total;          // the partitions' counts summed, then the class mass (finish_m_step)
    std::vector<double> pooled;         // pseudo-counts: k x k (pooled), strata x k x k (strata)
    std::vector<int32_t> strata;        // smoothing_center = strata: each worker's stratum
    int32_t n_strata = 0;
    std::vector<double> prior_sums;     // per partition: k, sum of q_jl over its items
    Table log_pi;                       // m x k (observed) x k (true): log pi_i[l][c]
    std::vector<double> log_prior;      // k
    std::vector<double> part_ll;        // per partition
    std::vector<int64_t> part_impossible;
    // Model probabilities (crowd/em/model_worker.hpp): each item's log-likelihood term
    // m_j(t) of the E-step under way (n_items x k; empty: no model term, and the fast
    // kernels run), and the model's M-step counts of the last E-step (k x k).
    std::vector<double> model_terms;
    std::vector<double> model_counts;
    std::vector<uint8_t> own_allowed;   // the answer sets, when no caller shares theirs
    const uint8_t *allowed = nullptr;   // n x k answer-set support, null = every class
    // k = 3, 4, 5 on a processor with AVX2, count tables within the caches and no model
    // terms: the E-step runs e_step_range_batched_wide (ds_kernel_wide.hpp), which reads
    // wide_log_pi (ws.log_pi with each code's row padded to wide_row(k) doubles, copied
    // by the E-step) and scatters into count tables with rows of wide_row(k) doubles.
    bool wide = false;
    // Some item has no labels and no gold (rows reserved beyond the labelled items), k =
    // 2..5: the kernels then form such an item's posterior once and copy it (EmptyPosterior,
    // ds_kernel.hpp: empty_item, empty_lanes; the ratio kernel of k = 2 one
    // pair pass's values, lanes_of_batch in ds_kernel_ratio.hpp). The generic kernel of
    // k > 5 computes every item.
    bool empty_items = false;
    Table wide_log_pi;
    int64_t count_row = 0;              // doubles per code in a count table: k, or wide_row(k) when wide
    int64_t count_table = 0;            // doubles in one partition's count table
    int threads = 1;
    Team team;                          // the fit's threads (util/parallel.hpp)
    int64_t worker_block = 1;           // workers per task of the M-step

    // k = 2 (e_step_range_ratio): per code c, ratio[c] = log pi[c][0] - log pi[c][1],
    // the one number an item's posterior needs from each of its labels; code_labels[c]
    // = the number of labels with code c, so that the part of the log-likelihood that
    // is a sum over labels of log pi[c][1] is sum_c code_labels[c] log pi[c][1], taken
    // per round over the codes instead of per label (ratio_ll, with the items' log w_1).
    // block_ll / block_special: that sum and the number of labels whose code has no
    // ratio (a zero confusion entry, see fill_ratios) in a block of workers.
    Table ratio;
    std::vector<double> code_labels;
    std::vector<double> block_ll;
    std::vector<double> block_special;
    double ratio_ll = 0.0;
    bool ratio_ready = false;           // ratio and ratio_ll are those of the current logs

    // Count tables beyond the caches (gathers_counts): no count tables. The E-step only
    // writes the posteriors, and finish_m_step gathers every code's counts from them
    // through the labels grouped by code (pull_codes): the caller's (EmStart::by_code)
    // or own_by_code. `pull_q` = the posteriors of the last E-step that scattered (or
    // of scatter_posteriors).
    LabelsByCode own_by_code;
    const LabelsByCode *by_code = nullptr;
    const double *pull_q = nullptr;
    // The posteriors the classifier's counts (model_counts) were taken from, for the
    // M-step to solve the classifier's matrix for them (settle_model_confusion); null
    // without a classifier.
    const double *model_q = nullptr;
    // The classifier's answered items and row lists, kept from one M-step to the next.
    ClassifierRowScratch classifier_rows;

    // `scatter` = false for a lone E-step, which needs no count tables; `support` =
    // false for a lone M-step, which needs no answer sets. `shared` are the answer sets
    // computed once by the caller (null: computed here when the support restricts).
    Workspace(const CrowdData &data, const FitOptions &options, bool scatter = true, bool support = true,
              const std::vector<uint8_t> *shared = nullptr, const LabelsByCode *shared_by_code = nullptr);

    int64_t n_parts() const { return static_cast<int64_t>(parts.size()); }
    bool pull() const { return by_code != nullptr; }
    int64_t n_worker_blocks(int32_t n_workers) const { return chunk_count(n_workers, worker_block); }
};

// f(p) for every partition p, spread over the fit's team (whichever thread is free
// takes the next partition).
template <class F>
void for_each_part(Workspace &ws, F &&f) {
    ws.team.run(ws.n_parts(), f);
}

// f(first, last, b) for every block b of the M-step's worker blocks (workers [first,
// last)), spread over the fit's team.
template <class F>
void for_each_worker_block(const CrowdData &d, Workspace &ws, F &&f) {
    const int64_t block = ws.worker_block;
    ws.team.run(ws.n_worker_blocks(d.n_workers), [&](int64_t b) {
        const int32_t first = static_cast<int32_t>(b * block);
        const int32_t last = static_cast<int32_t>(std::min<int64_t>(d.n_workers, (b + 1) * block));
        f(first, last, b);
    });
}

}  // namespace cs::ds
