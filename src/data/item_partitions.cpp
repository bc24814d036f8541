// SPDX-License-Identifier: MIT
#include "data/item_partitions.hpp"

#include <algorithm>

namespace cs {

std::vector<ItemRange> partition_items(const CrowdData &data, int64_t table_size, int64_t labels_per_entry) {
    constexpr int64_t kMaxParts = 64, kBalancedParts = 16;
    const int64_t labels = static_cast<int64_t>(data.n_labels());
    const int64_t table = std::max<int64_t>(table_size, 1);
    const int64_t by_cost = labels / (table * std::max<int64_t>(labels_per_entry, 1));
    const int64_t balanced = std::min<int64_t>(kBalancedParts, labels / table);
    return split_items(data, std::min<int64_t>(kMaxParts, std::max(by_cost, balanced)));
}

std::vector<ItemRange> split_items(const CrowdData &data, int64_t parts) {
    const int64_t labels = static_cast<int64_t>(data.n_labels());
    parts = std::max<int64_t>(1, std::min<int64_t>(parts, data.n_items));
    std::vector<ItemRange> ranges;
    ranges.reserve(static_cast<std::size_t>(parts));
    int32_t first = 0;
    for (int64_t p = 1; p <= parts; ++p) {
        // The first item at which the cumulative label count reaches p/parts of all.
        const int64_t target = labels * p / parts;
        const auto it = std::lower_bound(data.item_start.begin() + first,
                                         data.item_start.begin() + data.n_items, target);
        int32_t last = p == parts ? data.n_items
                                  : static_cast<int32_t>(it - data.item_start.begin());
        last = std::max(last, first);
        ranges.push_back({first, last});
        first = last;
    }
    return ranges;
}

}  // namespace cs
