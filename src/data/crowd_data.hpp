// SPDX-License-Identifier: MIT
// Crowd labels after validation, as compressed sparse rows by item: every method
// passes over the labels item by item (E-steps, majority vote, Lloyd updates) and
// scatters what concerns workers into small per-worker tables, so no by-worker copy
// of the labels is kept (see data/item_partitions.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/fit_options.hpp"

namespace cs {

struct Shard;  // data/crowd_shard.hpp

struct CrowdData {
    int32_t n_items = 0;
    int32_t n_workers = 0;
    int32_t k = 0;

    // By item: the labels of item j are positions item_start[j] .. item_start[j+1]-1
    // of item_code, in input order. A label is stored as one code, worker * k + label:
    // half the memory of two ids, and the code indexes every per-worker table laid
    // out worker x observed label (log pi, M-step counts) directly.
    std::vector<int64_t> item_start;
    std::vector<uint32_t> item_code;

    int32_t worker_of(int64_t p) const { return static_cast<int32_t>(item_code[p] / static_cast<uint32_t>(k)); }
    int32_t label_of(int64_t p) const { return static_cast<int32_t>(item_code[p] % static_cast<uint32_t>(k)); }

    // Known true labels (cs_set_gold): gold[j] is item j's class, or -1. Empty when
    // no gold was given.
    std::vector<int32_t> gold;

    /// Item j's gold class, or -1.
    int32_t gold_of(int32_t j) const { return gold.empty() ? -1 : gold[j]; }

    /// Number of labels kept (after the duplicate policy).
    std::size_t n_labels() const { return item_code.size(); }

    /// A distributed fit (cs_fit_mpi): these data are one process's items, and the
    /// shard completes the sums over items across the processes (crowd_shard.hpp).
    /// Null for a single-process fit, where n_items and n_labels are the whole problem.
    const Shard *shard = nullptr;

    /// Number of items in [0, n_items) without any label (gold items excepted).
    int32_t unlabeled_items() const;

    /// Validate triples against the options (ids, labels, k, duplicates) and build
    /// the by-item layout. Throws cs::Error with the status and a message naming the
    /// offending label index on invalid input. The caller's arrays are only read.
    static CrowdData build(const int32_t *item, const int32_t *worker, const int32_t *label,
                           std::size_t n_labels, const FitOptions &options,
                           const std::vector<int32_t> &gold_item = {},
                           const std::vector<int32_t> &gold_label = {});
};

/// Check the ids of one array against a declared count (0 = infer) and return the
/// count: the declared one, or the largest id + 1. Throws cs::Error (CS_ERR_INVALID_ID)
/// naming the first id that is negative or >= the declared count ("item id 7 at label
/// index 3 is >= n_items (5)"); n must be > 0. `what` is "item" or "worker",
/// `count_name` "n_items" or "n_workers".
int32_t check_id_range(const int32_t *ids, std::size_t n, int32_t declared, const char *what,
                       const char *count_name);

/// Check a gold set on its own (cs_set_gold): values >= 0, no item with two
/// different classes. Throws cs::Error.
void check_gold(const std::vector<int32_t> &item, const std::vector<int32_t> &label);

}  // namespace cs
