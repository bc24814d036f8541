// SPDX-License-Identifier: MIT
#include "data/integer_ids.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace cs {

namespace {

// Open addressing, linear probing, Fibonacci hashing (the key times 2^64 / phi, its top
// bits the home slot): object addresses are multiples of 16 or 64 and nearly
// consecutive, which the multiply spreads over the table. A slot is one 64-bit word: 32
// bits of the product (a tag, compared first) and the code plus one (0: empty); the keys
// themselves lie in code order beside the table, read on a tag match. A new key -- most
// run heads of a column grouped by task -- then costs one 8-byte slot: a 16-byte slot
// holding the key made the table for 100,000 keys 4 MB instead of 2, and the grouped
// column's pass 2.2-2.6 ms instead of 1.6 (500 workers, always found, pay the extra read:
// 1.6 against 1.4 ms). The table starts small, so that a column of 500 workers over
// 10^6 rows probes a table that stays in L1 (one sized for the rows would miss the
// cache on every row), and grows 4x when the load passes 1/2: rehashing is random
// writes into a table beyond the cache, and doubling from 256 slots to 100,000 keys
// cost more than the lookups themselves (3 of 5 ms at 10^6 rows).
class KeyTable {
public:
    KeyTable() { resize(256); }

    // Room for at least `keys` keys at a load below 1/2 (the existing keys rehashed).
    void reserve(std::size_t keys) {
        std::size_t capacity = slots_.size();
        while (capacity < 2 * keys) capacity *= 2;
        if (capacity != slots_.size()) rehash(capacity);
        keys_.reserve(keys);
    }

    // Whether the table is beyond the first-level caches (prefetching then pays).
    bool large() const { return slots_.size() > kCachedSlots; }
    void prefetch(int64_t key) const {
#if defined(__GNUC__) || defined(__clang__)
        __builtin_prefetch(&slots_[static_cast<std::size_t>(product(key) >> shift_)]);
#else
        (void)key;
#endif
    }

    // The code of key, found, or added as code *d (row its first row) when new.
    int32_t find_or_add(int64_t key, int64_t row, int64_t *first, std::size_t *d) {
        const uint64_t h = product(key);
        const uint64_t tag = tag_of(h);
        std::size_t i = static_cast<std::size_t>(h >> shift_);
        for (;; i = (i + 1) & mask_) {
            const uint64_t s = slots_[i];
            if (s == 0) break;
            if ((s >> 32) == tag) {
                const uint32_t code = static_cast<uint32_t>(s) - 1;
                if (keys_[code] == key) return static_cast<int32_t>(code);
            }
        }
        const std::size_t code = keys_.size();
        slots_[i] = tag << 32 | (code + 1);
        keys_.push_back(key);
        first[*d] = row;
        ++*d;
        if (2 * keys_.size() > slots_.size()) rehash(4 * slots_.size());
        return static_cast<int32_t>(code);
    }

private:
    static constexpr uint64_t kFibonacci = 0x9E3779B97F4A7C15ull;
    static constexpr std::size_t kCachedSlots = 8192;  // 64 KB

    static uint64_t product(int64_t key) { return static_cast<uint64_t>(key) * kFibonacci; }
    // (bits 8-39 of the product; the home slot is its top bits, so for tables up to
    // 2^24 slots the tag tells apart keys that share a home slot)
    static uint64_t tag_of(uint64_t h) { return (h >> 8) & 0xFFFFFFFFull; }
    void resize(std::size_t capacity) {
        slots_.assign(capacity, 0);
        mask_ = capacity - 1;
        unsigned bits = 0;
        while ((std::size_t{1} << bits) < capacity) ++bits;
        shift_ = 64 - bits;
    }
    // A table of `capacity` slots holding every key so far.
    void rehash(std::size_t capacity) {
        resize(capacity);
        for (std::size_t c = 0; c < keys_.size(); ++c) {
            const uint64_t h = product(keys_[c]);
            std::size_t i = static_cast<std::size_t>(h >> shift_);
            while (slots_[i] != 0) i = (i + 1) & mask_;
            slots_[i] = tag_of(h) << 32 | (c + 1);
        }
    }

    std::vector<uint64_t> slots_;
    std::vector<int64_t> keys_;  // by code
    std::size_t mask_ = 0;
    unsigned shift_ = 64;
};

constexpr std::size_t kAhead = 16;  // rows between a home slot's prefetch and its lookup
constexpr std::size_t kRunPrefix = 4096;  // rows looked at to tell whether keys come in runs
constexpr std::size_t kRunLength = 8;     // the mean run length coded run by run in any case

// Keys of a span this many per distinct key (plus a constant) are ranked through a
// table indexed by value, O(span); wider ones by sorting the distinct keys.
constexpr uint64_t kDenseSpanPerKey = 4;
constexpr uint64_t kDenseSpanExtra = uint64_t{1} << 16;

// rank[c]: the position of code c's key among the d distinct keys in ascending order.
std::vector<int32_t> ranks_of(const int64_t *keys, const int64_t *first, std::size_t d) {
    std::vector<int32_t> rank(d);
    int64_t lo = keys[first[0]], hi = lo;
    for (std::size_t c = 1; c < d; ++c) {
        lo = std::min(lo, keys[first[c]]);
        hi = std::max(hi, keys[first[c]]);
    }
    const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);  // (no overflow in unsigned)
    if (span < kDenseSpanPerKey * d + kDenseSpanExtra) {
        std::vector<int32_t> at(static_cast<std::size_t>(span) + 1, -1);
        for (std::size_t c = 0; c < d; ++c)
            at[static_cast<std::size_t>(static_cast<uint64_t>(keys[first[c]]) - static_cast<uint64_t>(lo))] =
                static_cast<int32_t>(c);
        int32_t r = 0;
        for (const int32_t c : at)
            if (c >= 0) rank[static_cast<std::size_t>(c)] = r++;
        return rank;
    }
    std::vector<std::pair<int64_t, int32_t>> sorted(d);
    for (std::size_t c = 0; c < d; ++c) sorted[c] = {keys[first[c]], static_cast<int32_t>(c)};
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t r = 0; r < d; ++r) rank[static_cast<std::size_t>(sorted[r].second)] = static_cast<int32_t>(r);
    return rank;
}

}  // namespace

std::size_t intern_integers(const int64_t *keys, std::size_t n, bool sorted, int32_t *codes, int64_t *first) {
    KeyTable table;
    std::size_t d = 0;
    // The rows one by one: each a lookup, with the home slots of the rows kAhead ahead
    // fetched meanwhile once the table outgrows the first-level cache.
    const auto each_row = [&](std::size_t from, std::size_t to) {
        for (std::size_t t = from; t < to; ++t) {
            if (table.large() && t + kAhead < n) table.prefetch(keys[t + kAhead]);
            codes[t] = table.find_or_add(keys[t], static_cast<int64_t>(t), first, &d);
        }
    };
    // Columns made of long runs of one key (ids grouped by task; a column's objects
    // repeated row after row) are coded one run at a time: a row equal to the previous
    // one takes its code. Elsewhere that test is a branch mispredicted at every run's
    // end (labels in runs of 2.6 rows coded 3x slower with it than row by row, where the
    // two keys' slots stay in L1), so the prefix decides: runs of kRunLength rows on
    // average, or of 2 among keys too many for the cache.
    const std::size_t prefix = std::min<std::size_t>(n, kRunPrefix);
    each_row(0, prefix);
    std::size_t runs = 1;
    for (std::size_t t = 1; t < prefix; ++t) runs += keys[t] != keys[t - 1];
    if (prefix == n || !(kRunLength * runs <= prefix || (2 * runs <= prefix && table.large()))) {
        each_row(prefix, n);
    } else {
        if (2 * d >= runs) {
            // Each run of the prefix brought about a new key (each task's rows together):
            // about as many keys as runs in all, room made for them at once
            table.reserve(static_cast<std::size_t>(static_cast<double>(runs) * static_cast<double>(n) /
                                                   static_cast<double>(prefix)));
        }
        int64_t previous = keys[prefix - 1];
        int32_t code = codes[prefix - 1];
        for (std::size_t t = prefix; t < n; ++t) {
            if (keys[t] != previous) {
                if (table.large() && t + kAhead < n) table.prefetch(keys[t + kAhead]);
                previous = keys[t];
                code = table.find_or_add(previous, static_cast<int64_t>(t), first, &d);
            }
            codes[t] = code;
        }
    }
    if (!sorted || d < 2) return d;
    bool in_order = true;  // first seen in ascending order (ids listed in order): the codes are the ranks
    for (std::size_t c = 1; c < d && in_order; ++c) in_order = keys[first[c - 1]] < keys[first[c]];
    if (in_order) return d;
    const std::vector<int32_t> rank = ranks_of(keys, first, d);
    std::vector<int64_t> by_rank(d);
    for (std::size_t c = 0; c < d; ++c) by_rank[static_cast<std::size_t>(rank[c])] = first[c];
    std::copy(by_rank.begin(), by_rank.end(), first);
    for (std::size_t t = 0; t < n; ++t) codes[t] = rank[static_cast<std::size_t>(codes[t])];
    return d;
}

}  // namespace cs
