// SPDX-License-Identifier: MIT
#include "data/string_ids.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <string>

#include "util/error.hpp"

namespace cs {

namespace {

// 64-bit hash of a byte string: eight bytes at a time, each word mixed in by a
// multiply and rotate (the tail zero-padded), the length folded in, and a final
// avalanche (the murmur3 finaliser) so that the low bits index the table well.
uint64_t hash_bytes(std::string_view s) {
    constexpr uint64_t kMul = 0x9E3779B97F4A7C15ull;
    uint64_t h = 0x243F6A8885A308D3ull ^ (s.size() * kMul);
    const char *p = s.data();
    std::size_t left = s.size();
    while (left >= 8) {
        uint64_t w;
        std::memcpy(&w, p, 8);
        h = (h ^ (w * kMul)) * kMul;
        h = (h << 29) | (h >> 35);
        p += 8;
        left -= 8;
    }
    if (left > 0) {
        uint64_t w = 0;
        std::memcpy(&w, p, left);
        h = (h ^ (w * kMul)) * kMul;
    }
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDull;
    h ^= h >> 33;
    h *= 0xC4CEB9FE1A85EC53ull;
    h ^= h >> 33;
    return h;
}

// Open addressing, linear probing. A slot holds a code + 1 (0 = empty) and the top 32
// bits of the hash, compared before the bytes; the distinct strings are copied into one
// arena in code order, so that the byte comparison of a hit reads a compact block
// (the caller's buffer, where a string first appeared, is scattered over the whole
// input). Grown to keep the load below 1/2. Lookups go in batches: the hashes of a
// batch are computed and their slots prefetched first, so that the cache misses of
// random ids overlap instead of following one another.
class StringTable {
public:
    explicit StringTable(std::size_t expected) {
        std::size_t cap = 16;
        while (cap < 2 * expected && cap < (std::size_t{1} << 40)) cap <<= 1;
        slots_.assign(cap, Slot{});
    }
    static constexpr std::size_t kBatch = 16;
    void prefetch(uint64_t h) const {
#if defined(__GNUC__) || defined(__clang__)
        __builtin_prefetch(&slots_[static_cast<std::size_t>(h) & (slots_.size() - 1)]);
#else
        (void)h;
#endif
    }
    // The code of s (hash h), adding it as the next code when new; *added tells which.
    int32_t find_or_add(std::string_view s, uint64_t h, bool *added) {
        const uint32_t tag = static_cast<uint32_t>(h >> 32);
        const std::size_t mask = slots_.size() - 1;
        std::size_t i = static_cast<std::size_t>(h) & mask;
        while (slots_[i].code_plus_one != 0) {
            const Slot &slot = slots_[i];
            if (slot.tag == tag && name(slot.code_plus_one - 1) == s) {
                *added = false;
                return slot.code_plus_one - 1;
            }
            i = (i + 1) & mask;
        }
        const int32_t code = static_cast<int32_t>(starts_.size());
        slots_[i] = Slot{code + 1, tag};
        starts_.push_back(arena_.size());
        arena_.append(s.data(), s.size());
        hashes_.push_back(h);
        *added = true;
        if (2 * starts_.size() > slots_.size()) grow();
        return code;
    }
    std::string_view name(int32_t code) const {
        const std::size_t b = starts_[static_cast<std::size_t>(code)];
        const std::size_t e = static_cast<std::size_t>(code) + 1 < starts_.size() ? starts_[static_cast<std::size_t>(code) + 1]
                                                                                   : arena_.size();
        return std::string_view(arena_.data() + b, e - b);
    }
    std::size_t size() const { return starts_.size(); }

private:
    struct Slot {
        int32_t code_plus_one = 0;
        uint32_t tag = 0;
    };
    void grow() {
        std::vector<Slot> bigger(slots_.size() * 2, Slot{});
        const std::size_t mask = bigger.size() - 1;
        for (std::size_t c = 0; c < hashes_.size(); ++c) {
            std::size_t i = static_cast<std::size_t>(hashes_[c]) & mask;
            while (bigger[i].code_plus_one != 0) i = (i + 1) & mask;
            bigger[i] = Slot{static_cast<int32_t>(c) + 1, static_cast<uint32_t>(hashes_[c] >> 32)};
        }
        slots_.swap(bigger);
    }
    std::vector<Slot> slots_;
    std::string arena_;                // the distinct strings, in code order
    std::vector<std::size_t> starts_;  // where each begins in arena_
    std::vector<uint64_t> hashes_;     // for growing without hashing again
};

}  // namespace

std::vector<std::string_view> split_strings(const char *text, std::size_t size, const int64_t *offsets,
                                            std::size_t n) {
    std::vector<std::string_view> out;
    out.reserve(n);
    if (offsets != nullptr) {
        for (std::size_t t = 0; t < n; ++t) {
            const int64_t b = offsets[t], e = offsets[t + 1];
            if (b < 0 || e < b || static_cast<uint64_t>(e) > size)
                throw Error(CS_ERR_INVALID_ARGUMENT, "string " + std::to_string(t) + ": offsets " + std::to_string(b) +
                                                         " .. " + std::to_string(e) +
                                                         " are out of order or past the text (" +
                                                         std::to_string(size) + " bytes)");
            out.emplace_back(text + b, static_cast<std::size_t>(e - b));
        }
        return out;
    }
    const char *p = text, *end = text + size;
    while (out.size() + 1 < n) {
        const void *nul = size == 0 ? nullptr : std::memchr(p, '\0', static_cast<std::size_t>(end - p));
        if (nul == nullptr) break;
        const char *q = static_cast<const char *>(nul);
        out.emplace_back(p, static_cast<std::size_t>(q - p));
        p = q + 1;
    }
    const bool extra_nul = size > 0 && std::memchr(p, '\0', static_cast<std::size_t>(end - p)) != nullptr;
    if (out.size() + 1 != n || extra_nul)
        throw Error(CS_ERR_INVALID_ARGUMENT,
                    "the text joins " + std::string(extra_nul ? "more" : "fewer") + " than n = " + std::to_string(n) +
                        " strings by NUL bytes (it must hold exactly n - 1 NUL bytes; pass offsets for strings "
                        "that contain NUL)");
    out.emplace_back(p, static_cast<std::size_t>(end - p));
    return out;
}

StringCodes intern_strings(const std::vector<std::string_view> &strings, bool sorted) {
    StringCodes out;
    const std::size_t n = strings.size();
    out.codes.resize(n);
    StringTable table(std::min<std::size_t>(n, 1 << 16));
    uint64_t hashes[StringTable::kBatch];
    for (std::size_t base = 0; base < n; base += StringTable::kBatch) {
        const std::size_t end = std::min(n, base + StringTable::kBatch);
        // Exports list labels task by task: a string equal to the previous one is
        // common, and takes the previous code without a lookup.
        bool repeat[StringTable::kBatch];
        for (std::size_t t = base; t < end; ++t) {
            repeat[t - base] = t > 0 && strings[t] == strings[t - 1];
            if (repeat[t - base]) continue;
            hashes[t - base] = hash_bytes(strings[t]);
            table.prefetch(hashes[t - base]);
        }
        for (std::size_t t = base; t < end; ++t) {
            if (repeat[t - base]) {
                out.codes[t] = out.codes[t - 1];
                continue;
            }
            bool added = false;
            out.codes[t] = table.find_or_add(strings[t], hashes[t - base], &added);
            if (added) out.first.push_back(static_cast<int64_t>(t));
        }
    }
    if (!sorted) return out;
    std::vector<std::string_view> names(table.size());
    for (std::size_t c = 0; c < names.size(); ++c) names[c] = table.name(static_cast<int32_t>(c));
    if (std::is_sorted(names.begin(), names.end())) return out;  // first seen in order (ids listed in order): the codes are the ranks
    // Renumber in byte order (std::string_view compares bytes as unsigned char: UTF-8's
    // byte order is its code point order).
    std::vector<int32_t> order(names.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
        return names[static_cast<std::size_t>(a)] < names[static_cast<std::size_t>(b)];
    });
    std::vector<int32_t> rank(names.size());
    std::vector<int64_t> first(names.size());
    for (std::size_t r = 0; r < order.size(); ++r) {
        rank[static_cast<std::size_t>(order[r])] = static_cast<int32_t>(r);
        first[r] = out.first[static_cast<std::size_t>(order[r])];
    }
    for (int32_t &c : out.codes) c = rank[static_cast<std::size_t>(c)];
    out.first = std::move(first);
    return out;
}

}  // namespace cs
