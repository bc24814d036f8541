// SPDX-License-Identifier: MIT
// The labels grouped by code (worker x k + observed class): for every code, the items
// that were given it, in increasing item order. CrowdData keeps the labels by item;
// this transposed copy is for a pass that gathers, per worker, what its items hold
// (the Dawid-Skene M-step when the count tables are beyond the caches, see
// crowd/em/ds_m_step.cpp): 4 bytes per label and 8 per code.
#pragma once

#include <cstdint>
#include <vector>

#include "data/crowd_data.hpp"
#include "util/parallel.hpp"

namespace cs {

struct LabelsByCode {
    std::vector<int64_t> start;  // codes + 1: code c's items are item[start[c] .. start[c + 1])
    std::vector<int32_t> item;   // n_labels: item ids, increasing within each code

    bool empty() const { return start.empty(); }
};

/// Group the labels of `data` by code (worker x k + class), each code's items in
/// increasing order. Built on `team` (each thread counts and places one range of the
/// items; the layout does not depend on the thread count). Throws std::bad_alloc.
LabelsByCode labels_by_code(const CrowdData &data, Team &team);

}  // namespace cs
