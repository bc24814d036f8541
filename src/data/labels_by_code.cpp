// SPDX-License-Identifier: MIT
#include "data/labels_by_code.hpp"

#include "data/item_partitions.hpp"
#include "util/counting_sort.hpp"

namespace cs {

LabelsByCode labels_by_code(const CrowdData &data, Team &team) {
    const int64_t codes = static_cast<int64_t>(data.n_workers) * data.k;
    const int64_t n = static_cast<int64_t>(data.n_labels());
    // A counting sort by code: each range of items counts its codes, the counts give
    // every (code, range) its first slot (ranges in item order, so each code's items
    // come out increasing), then each range places its items. The per-range counts
    // cost 8 bytes per code and range, at most 4 bytes per label (as CrowdData::build's).
    std::size_t wanted = n >= 2 * kMinParallelLabels ? static_cast<std::size_t>(team.size()) : 1;
    while (wanted > 1 && static_cast<int64_t>(wanted) * codes > n / 2) --wanted;
    const std::vector<ItemRange> ranges = split_items(data, static_cast<int64_t>(wanted));
    const int64_t n_ranges = static_cast<int64_t>(ranges.size());
    std::vector<int64_t> slot(static_cast<std::size_t>(n_ranges * codes), 0);
    const uint32_t *code = data.item_code.data();
    team.run(n_ranges, [&](int64_t r) {
        int64_t *own = slot.data() + r * codes;
        for (int64_t p = data.item_start[ranges[r].first]; p < data.item_start[ranges[r].last]; ++p)
            ++own[code[p]];
    });
    LabelsByCode out;
    out.start.resize(static_cast<std::size_t>(codes + 1));
    counting_sort_positions(slot, static_cast<std::size_t>(n_ranges), static_cast<std::size_t>(codes),
                            out.start.data());
    out.item.resize(static_cast<std::size_t>(n));
    team.run(n_ranges, [&](int64_t r) {
        int64_t *own = slot.data() + r * codes;
        for (int32_t j = ranges[r].first; j < ranges[r].last; ++j)
            for (int64_t p = data.item_start[j]; p < data.item_start[j + 1]; ++p) out.item[own[code[p]]++] = j;
    });
    return out;
}

}  // namespace cs
