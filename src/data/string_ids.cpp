// SPDX-License-Identifier: MIT
#include "data/string_ids.hpp"

#include <algorithm>
#include <cstring>
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
        // The last 8 bytes of a string of at least 8 (overlapping the words above: a
        // fixed-size load instead of a copy of `left` bytes); a shorter one zero-padded.
        uint64_t w = 0;
        if (s.size() >= 8) std::memcpy(&w, s.data() + s.size() - 8, 8);
        else std::memcpy(&w, p, left);
        h = (h ^ (w * kMul)) * kMul;
    }
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDull;
    h ^= h >> 33;
    h *= 0xC4CEB9FE1A85EC53ull;
    h ^= h >> 33;
    return h;
}

// Open addressing, linear probing. A slot is one 64-bit word: where the string's entry
// begins in the arena (plus one; 0 = empty) and 24 bits of its hash, compared before
// the entry is read. An entry is the string's code and length, then its bytes: the
// distinct strings are copied into the arena in code order, so a hit reads one compact
// block (the caller's buffer, where a string first appeared, is scattered over the
// whole input). Grown to keep the load below 1/2. Lookups go in batches, in two steps:
// the hashes of a batch are computed and their home slots prefetched, then the entries
// those slots point at are prefetched, so that the two cache misses of a random id
// (its slot, its entry) overlap with those of the others instead of following one
// another (with the code and offset kept apart from the bytes, a lookup took three
// misses in a row: 30 ms for 376,679 random ids of 100,000 distinct).
class StringTable {
public:
    explicit StringTable(std::size_t expected) {
        std::size_t cap = 16;
        while (cap < 2 * expected && cap < (std::size_t{1} << 40)) cap <<= 1;
        slots_.assign(cap, 0);
    }
    static constexpr std::size_t kBatch = 16;
    void prefetch_slot(uint64_t h) const { prefetch(&slots_[static_cast<std::size_t>(h) & (slots_.size() - 1)]); }
    // The home slot of h is in cache: prefetch the entry it points at, if any.
    void prefetch_entry(uint64_t h) const {
        const uint64_t slot = slots_[static_cast<std::size_t>(h) & (slots_.size() - 1)];
        if (slot != 0) prefetch(arena_.data() + (slot >> kTagBits) - 1);
    }
    // The code of s (hash h), adding it as the next code when new; *added tells which.
    int32_t find_or_add(std::string_view s, uint64_t h, bool *added) {
        const uint64_t tag = h >> (64 - kTagBits);
        const std::size_t mask = slots_.size() - 1;
        std::size_t i = static_cast<std::size_t>(h) & mask;
        for (uint64_t slot; (slot = slots_[i]) != 0; i = (i + 1) & mask) {
            if ((slot & kTagMask) != tag) continue;
            const char *entry = arena_.data() + (slot >> kTagBits) - 1;
            uint32_t code, length;
            std::memcpy(&code, entry, 4);
            std::memcpy(&length, entry + 4, 4);
            if (length == s.size() && std::memcmp(entry + kHeader, s.data(), s.size()) == 0) {
                *added = false;
                return static_cast<int32_t>(code);
            }
        }
        const uint32_t code = static_cast<uint32_t>(starts_.size()), length = static_cast<uint32_t>(s.size());
        const std::size_t at = arena_.size();
        arena_.append(reinterpret_cast<const char *>(&code), 4);
        arena_.append(reinterpret_cast<const char *>(&length), 4);
        arena_.append(s.data(), s.size());
        starts_.push_back(at);
        hashes_.push_back(h);
        slots_[i] = slot_of(at, h);
        *added = true;
        if (2 * starts_.size() > slots_.size()) grow();
        return static_cast<int32_t>(code);
    }
    std::string_view name(int32_t code) const {
        const char *entry = arena_.data() + starts_[static_cast<std::size_t>(code)];
        uint32_t length;
        std::memcpy(&length, entry + 4, 4);
        return std::string_view(entry + kHeader, length);
    }
    std::size_t size() const { return starts_.size(); }

private:
    static constexpr unsigned kTagBits = 24;
    static constexpr uint64_t kTagMask = (uint64_t{1} << kTagBits) - 1;
    static constexpr std::size_t kHeader = 8;  // code and length, 4 bytes each
    static void prefetch(const void *p) {
#if defined(__GNUC__) || defined(__clang__)
        __builtin_prefetch(p);
#else
        (void)p;
#endif
    }
    static uint64_t slot_of(std::size_t at, uint64_t h) {
        return (static_cast<uint64_t>(at + 1) << kTagBits) | (h >> (64 - kTagBits));
    }
    void grow() {
        std::vector<uint64_t> bigger(slots_.size() * 2, 0);
        const std::size_t mask = bigger.size() - 1;
        for (std::size_t c = 0; c < hashes_.size(); ++c) {
            std::size_t i = static_cast<std::size_t>(hashes_[c]) & mask;
            while (bigger[i] != 0) i = (i + 1) & mask;
            bigger[i] = slot_of(starts_[c], hashes_[c]);
        }
        slots_.swap(bigger);
    }
    std::vector<uint64_t> slots_;
    std::string arena_;                // entries (code, length, bytes), in code order
    std::vector<std::size_t> starts_;  // where each code's entry begins in arena_
    std::vector<uint64_t> hashes_;     // for growing without hashing again
};

// Bytes [from, from + 8) of s as a big-endian integer, zero-padded past its end: of two
// strings whose integers differ, the smaller integer is the smaller string in byte
// order (padding is the least byte, and a string that ends first is the smaller);
// equal integers tell nothing (a shorter string or a NUL byte), so the strings are then
// compared.
uint64_t big_endian_at(std::string_view s, std::size_t from) {
    unsigned char b[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    if (from < s.size()) std::memcpy(b, s.data() + from, std::min<std::size_t>(8, s.size() - from));
    uint64_t k = 0;
    for (unsigned char byte : b) k = k << 8 | byte;
    return k;
}

struct SortKey {
    uint64_t head, next;  // bytes 0-7 and 8-15, big-endian
    int32_t code;
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
            table.prefetch_slot(hashes[t - base]);
        }
        for (std::size_t t = base; t < end; ++t)
            if (!repeat[t - base]) table.prefetch_entry(hashes[t - base]);
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
    // byte order is its code point order). The sort compares the first 16 bytes as two
    // integers held beside the code, and the strings themselves only when those are
    // equal: ids such as "task000123" share long prefixes, and comparing them through
    // memcmp and an indirection made this sort cost as much as the hashing (measured:
    // 60 of 110 ms for 100,000 distinct ids among 376,679 strings).
    std::vector<SortKey> keys(names.size());
    for (std::size_t c = 0; c < names.size(); ++c)
        keys[c] = SortKey{big_endian_at(names[c], 0), big_endian_at(names[c], 8), static_cast<int32_t>(c)};
    std::sort(keys.begin(), keys.end(), [&](const SortKey &a, const SortKey &b) {
        if (a.head != b.head) return a.head < b.head;
        if (a.next != b.next) return a.next < b.next;
        return names[static_cast<std::size_t>(a.code)] < names[static_cast<std::size_t>(b.code)];
    });
    std::vector<int32_t> rank(names.size());
    std::vector<int64_t> first(names.size());
    for (std::size_t r = 0; r < keys.size(); ++r) {
        rank[static_cast<std::size_t>(keys[r].code)] = static_cast<int32_t>(r);
        first[r] = out.first[static_cast<std::size_t>(keys[r].code)];
    }
    for (int32_t &c : out.codes) c = rank[static_cast<std::size_t>(c)];
    out.first = std::move(first);
    return out;
}

}  // namespace cs
