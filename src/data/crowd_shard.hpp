// SPDX-License-Identifier: MIT
// One process's share of a distributed crowd fit (cs_fit_mpi): the labels of its own
// items, numbered locally, and what the algorithms need of the whole problem.
//
// Items. Every item belongs to one process, which holds all of its labels (and its
// gold class, if any): the E-step of an item needs nothing else. Item ids are global
// (0 .. n_items - 1 of the whole problem); a process numbers its items 0 .. n - 1 in
// increasing global id, so its posteriors are rows in that order (Shard::item_ids
// maps them back). Ids in 0 .. n_items - 1 that no process holds (items without
// labels) are held by process 0, so that they count in the class prior exactly as in
// a single-process fit. With one process the local numbering is the global one and the
// fit is the single-process fit, bit for bit.
//
// Workers and classes are global: every process has all n_workers x k x k parameters,
// and the sums over items of the algorithms are completed with sum_over_shards() (see
// core/collective.hpp). For a single-process fit (data.shard == null) every helper
// here returns the process's own value and sums nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/collective.hpp"
#include "core/fit_options.hpp"
#include "data/crowd_data.hpp"

namespace cs {

struct Shard {
    Collective *collective = nullptr;  // not owned
    int64_t items = 0;       // items of the whole problem (the global n_items)
    int64_t labels = 0;      // labels kept, over all processes
    int64_t unlabeled = 0;   // items without labels or gold, over all processes
    bool gold = false;       // some process has a gold item
    std::vector<int32_t> item_ids;  // global id of each local item, increasing
    RemoteItems *remote = nullptr;  // cs_fit_stats: the engine's items (core/collective.hpp)
};

/// Items of the whole problem.
inline int64_t total_items(const CrowdData &d) { return d.shard ? d.shard->items : d.n_items; }
/// Labels of the whole problem (after the duplicate policy).
inline int64_t total_labels(const CrowdData &d) {
    return d.shard ? d.shard->labels : static_cast<int64_t>(d.n_labels());
}
/// Items of the whole problem without labels or gold.
inline int64_t total_unlabeled(const CrowdData &d) { return d.shard ? d.shard->unlabeled : d.unlabeled_items(); }
/// Whether the whole problem has gold items.
inline bool has_gold(const CrowdData &d) { return d.shard ? d.shard->gold : !d.gold.empty(); }

/// Complete a sum over this process's items into the sum over all items (nothing for
/// a single-process fit).
inline void sum_over_shards(const CrowdData &d, double *values, std::size_t n) {
    if (d.shard != nullptr) d.shard->collective->sum(values, n);
}
inline void sum_over_shards(const CrowdData &d, uint64_t *values, std::size_t n) {
    if (d.shard != nullptr) d.shard->collective->sum(values, n);
}

/// A process's data with the shard they point to.
struct ShardData {
    std::unique_ptr<Shard> shard;
    CrowdData data;  // data.shard == shard.get()
};

/// Validate this process's triples (global item ids) and gold, agree with the other
/// processes on n_items, n_workers and k (declared in the options or the largest ids
/// + 1 over all processes), check that no item is held by two processes, and build the
/// local layout. Collective: every process calls it with its own labels (n_labels may
/// be 0, and the arrays then NULL). Throws cs::Error with the usual messages for
/// invalid input on this process; the caller makes the other processes fail with it.
ShardData build_shard(Collective &collective, const int32_t *item, const int32_t *worker,
                      const int32_t *label, std::size_t n_labels, const FitOptions &options,
                      const std::vector<int32_t> &gold_item, const std::vector<int32_t> &gold_label);

}  // namespace cs
