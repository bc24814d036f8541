// SPDX-License-Identifier: MIT
// A by-worker view of the labels, for methods whose per-worker updates read every
// label of one worker at a time (GLAD's ability steps, MACE's and the vote methods'
// per-worker sums, M-MSR's worker pairs). CrowdData keeps only the by-item layout; this
// index adds 12 bytes per label and is built once per fit, in O(labels).
#pragma once

#include <cstdint>
#include <vector>

#include "data/crowd_data.hpp"

namespace cs {

struct WorkerIndex {
    /// Worker i's labels are entries start[i] .. start[i + 1] - 1, by increasing item.
    std::vector<int64_t> start;     // n_workers + 1
    std::vector<int64_t> position;  // the label's position p in CrowdData::item_code
    std::vector<int32_t> item;      // the label's item

    static WorkerIndex build(const CrowdData &data);

    /// Number of labels of worker i.
    int64_t count(int32_t i) const { return start[i + 1] - start[i]; }
};

}  // namespace cs
