// SPDX-License-Identifier: MIT
// The middle step of a stable counting sort run by ranges of its input on several
// threads: each range counts its elements per bucket, this turns the counts into
// positions, then each range places its elements (CrowdData::build's grouping by item,
// data/labels_by_code's grouping by code).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cs {

/// `next` holds `ranges` rows of `buckets` counts: next[r * buckets + b] = how many of
/// range r's elements fall in bucket b. Replaces each count by the position of range
/// r's first element of bucket b: buckets in order, and within a bucket the ranges in
/// order, so placing each range's elements in input order gives the serial stable
/// sort. Writes bucket b's first position to start[b] and the total to start[buckets]
/// (start holds buckets + 1 values).
inline void counting_sort_positions(std::vector<int64_t> &next, std::size_t ranges, std::size_t buckets,
                                    int64_t *start) {
    int64_t offset = 0;
    for (std::size_t b = 0; b < buckets; ++b) {
        start[b] = offset;
        for (std::size_t r = 0; r < ranges; ++r) {
            const int64_t count = next[r * buckets + b];
            next[r * buckets + b] = offset;
            offset += count;
        }
    }
    start[buckets] = offset;
}

}  // namespace cs
