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

/// The items whose labels the checked batch changes, in increasing order; throws on a
/// duplicate the policy (CS_DUPLICATES_*) rejects or codes beyond 32 bits.
std::vector<int32_t> changed_items(const UpdateState &s, const std::vector<NewLabel> &batch, int32_t policy);

/// The checked batch merged into the state's labels by item under the duplicate policy,
/// the per-item and per-worker tables grown; `added` = labels added or replaced. The
/// changed items' old shares must have left the sums before.
void merge_labels(UpdateState &s, const std::vector<NewLabel> &batch, int32_t policy, int64_t &added);

/// The answer sets (restricted support) of the listed items, after their labels changed.
void refresh_allowed(UpdateState &s, const std::vector<int32_t> &items);

}  // namespace cs
