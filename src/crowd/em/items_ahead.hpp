// SPDX-License-Identifier: MIT
// Prefetching for the passes over an incremental update's items (crowd/em/incremental.cpp,
// update_labels.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include "data/crowd_data.hpp"

namespace cs {

// How far ahead the passes over an update's items ask for their memory. Those items
// are sorted but sparse -- 1 % more labels in random order touch about one item in ten
// -- so each item's start, codes and rows lie on lines the hardware prefetcher does not
// see coming, and a pass waits on memory once per item and array: answer sets of 95,577
// items at 10^7 labels 12.5 -> 3.5 ms with the lines asked for 8 items ahead
// (bench_update --arrival random).
constexpr std::size_t kFetchAhead = 8;

// Asks for an update's items' memory ahead of a pass over them: at position t of a
// pass over n items (item_at(i): the i-th one's id), the start of the item 2 kFetchAhead on
// and, of the item kFetchAhead on, its codes and whatever `rows` asks for (its rows in
// per-item tables). An item beyond the labels (a new one) has no start or codes yet.
// Taken where the codes do not move during the pass. Always inlined: as a call of its
// own GCC found it free of side effects and dropped it (a prefetch is none).
class ItemsAhead {
public:
    explicit ItemsAhead(const CrowdData &d) : start_(d.item_start.data()), codes_(d.item_code.data()), n_items_(d.n_items) {}

    template <class ItemAt, class Rows>
    __attribute__((always_inline)) void fetch(std::size_t t, std::size_t n, ItemAt item_at, Rows rows) const {
        if (t + 2 * kFetchAhead < n) {
            const int32_t j = item_at(t + 2 * kFetchAhead);
            if (j < n_items_) __builtin_prefetch(start_ + j);
        }
        if (t + kFetchAhead < n) {
            const int32_t j = item_at(t + kFetchAhead);
            if (j < n_items_) __builtin_prefetch(codes_ + start_[j]);
            rows(j);
        }
    }
    template <class ItemAt>
    __attribute__((always_inline)) void fetch(std::size_t t, std::size_t n, ItemAt item_at) const {
        fetch(t, n, item_at, [](int32_t) {});
    }

private:
    const int64_t *start_;
    const uint32_t *codes_;
    int32_t n_items_;
};

}  // namespace cs
