// SPDX-License-Identifier: MIT
#include "crowd/spectral/worker_groups.hpp"

#include <algorithm>
#include <array>
#include <numeric>

#include "crowdspec/crowdspec.h"
#include "data/crowd_shard.hpp"

namespace cs {

namespace {

constexpr int kGroups = 3;

// splitmix64's finaliser: a bijective mix of 64 bits.
uint64_t mix64(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

}  // namespace

std::vector<uint64_t> worker_signatures(const CrowdData &data) {
    const int32_t k = data.k;
    const int64_t n_codes = static_cast<int64_t>(data.n_workers) * k;
    // Sums of mixed values are order-free: an item's fingerprint sums its labels'
    // mixes, a label code (worker, label) sums the fingerprints of its items.
    std::vector<uint64_t> per_code(static_cast<std::size_t>(n_codes), 0);
    std::vector<uint64_t> label_mix(static_cast<std::size_t>(k));
    for (int32_t c = 0; c < k; ++c) label_mix[c] = mix64(0x5157A7E5ull + static_cast<uint64_t>(c));
    for (int32_t j = 0; j < data.n_items; ++j) {
        const int64_t begin = data.item_start[j], end = data.item_start[j + 1];
        uint64_t item = 0;
        for (int64_t p = begin; p < end; ++p) item += label_mix[data.label_of(p)];
        item = mix64(item);
        for (int64_t p = begin; p < end; ++p) per_code[data.item_code[p]] += item;
    }
    // A distributed fit: every process's items (sums modulo 2^64, so exact in any order).
    sum_over_shards(data, per_code.data(), per_code.size());
    std::vector<uint64_t> signature(static_cast<std::size_t>(data.n_workers), 0);
    for (int32_t i = 0; i < data.n_workers; ++i) {
        uint64_t s = 0;
        for (int32_t c = 0; c < k; ++c)
            s += mix64(per_code[static_cast<int64_t>(i) * k + c] ^ label_mix[c]);
        signature[i] = mix64(s);
    }
    return signature;
}

std::vector<uint8_t> worker_groups(const CrowdData &data, const std::vector<uint64_t> &signature,
                                   int32_t rule, uint64_t seed, int32_t start) {
    const int32_t m = data.n_workers;
    std::vector<uint8_t> group(static_cast<std::size_t>(m), 0);
    if (start == 0 && rule == CS_GROUPS_REFERENCE) {
        for (int32_t i = 0; i < m; ++i) group[i] = static_cast<uint8_t>(i % kGroups);
        return group;
    }
    std::vector<uint64_t> count(static_cast<std::size_t>(m), 0);  // labels per worker
    for (uint32_t code : data.item_code) ++count[code / static_cast<uint32_t>(data.k)];
    sum_over_shards(data, count.data(), count.size());
    const uint64_t salt = mix64(seed ^ mix64(0xC0FFEEull + static_cast<uint64_t>(start)));
    std::vector<uint64_t> key(static_cast<std::size_t>(m));
    for (int32_t i = 0; i < m; ++i) key[i] = mix64(signature[i] ^ salt);

    std::vector<int32_t> order(static_cast<std::size_t>(m));
    std::iota(order.begin(), order.end(), 0);
    if (start == 0)  // longest first; equal counts in hashed order
        std::sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
            if (count[a] != count[b]) return count[a] > count[b];
            if (key[a] != key[b]) return key[a] < key[b];
            return a < b;
        });
    else  // a random order that renumbering does not change
        std::sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
            if (key[a] != key[b]) return key[a] < key[b];
            return a < b;
        });
    std::array<int64_t, kGroups> load{};
    std::array<int32_t, kGroups> members{};
    for (int32_t i : order) {
        // The group with the fewest labels; among equal loads the one with fewer
        // workers, then the lower index (so the first three workers with labels, and
        // workers without labels, spread over all three groups).
        int g = 0;
        for (int h = 1; h < kGroups; ++h)
            if (load[h] < load[g] || (load[h] == load[g] && members[h] < members[g])) g = h;
        group[i] = static_cast<uint8_t>(g);
        load[g] += static_cast<int64_t>(count[i]);
        ++members[g];
    }
    return group;
}

std::vector<uint8_t> worker_groups(const CrowdData &data, int32_t rule, uint64_t seed, int32_t start) {
    if (start == 0 && rule == CS_GROUPS_REFERENCE) return worker_groups(data, {}, rule, seed, start);
    return worker_groups(data, worker_signatures(data), rule, seed, start);
}

}  // namespace cs
