// SPDX-License-Identifier: MIT
// An update's new labels (cs_update; crowd/em/incremental.cpp): checked and put in item
// and worker order, the items they change found, merged into the state's labels by item
// in place, and the answer sets of the changed items refreshed. Nothing here changes the
// state before checked_labels and changed_items have passed, so a rejected batch leaves
// it as it was.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "crowd/em/incremental.hpp"

namespace cs {

// A new label after validation, with its place in the input (for messages and the
// order of the duplicate policy).
struct NewLabel {
    int32_t item, worker, label;
    std::size_t index;
};

/// The batch checked (ids and labels in range, else an Error with the label's index)
/// and ordered by item, then worker, then input order.
std::vector<NewLabel> checked_labels(const UpdateState &s, const int32_t *item, const int32_t *worker,
                                     const int32_t *label, std::size_t n);

/// What a checked batch does to the state's labels.
struct BatchChange {
    std::vector<int32_t> items;  ///< the items whose labels it changes, increasing
    int64_t inserted = 0;        ///< labels of (item, worker) pairs the state has none of
    int64_t added = 0;           ///< those and the labels that replace one
    int64_t items_labels = 0;    ///< the labels `items` have before the batch
};

/// The change a checked batch makes; throws on a duplicate the policy (CS_DUPLICATES_*)
/// rejects or codes beyond 32 bits.
BatchChange changed_items(const UpdateState &s, const std::vector<NewLabel> &batch, int32_t policy);

/// The checked batch merged into `data`'s labels by item under the duplicate policy (the
/// batch checked against these labels), each inserted label counted in its worker's
/// `worker_labels` (grown to the workers).
void merge_codes(CrowdData &data, std::vector<uint64_t> &worker_labels, const std::vector<NewLabel> &batch,
                 int32_t policy);

/// merge_codes on the state's labels, the per-item and per-worker tables grown. The
/// changed items' old shares must have left the sums before.
void merge_labels(UpdateState &s, const std::vector<NewLabel> &batch, int32_t policy);

/// The answer sets (restricted support) of the listed items, after their labels changed.
void refresh_allowed(UpdateState &s, const std::vector<int32_t> &items);

}  // namespace cs
