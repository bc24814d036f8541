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

// Open addressing, linear probing; a slot holds a code + 1 (0 = empty) and the top
// 32 bits of the hash, compared before the bytes. Grown to keep the load below 1/2.
class StringTable {
public:
    explicit StringTable(std::size_t expected) {
        std::size_t cap = 16;
        while (cap < 2 * expected && cap < (std::size_t{1} << 40)) cap <<= 1;
        slots_.assign(cap, Slot{});
    }
    // The code of s, adding it (as code `next`) when new; *added tells which.
    int32_t find_or_add(std::string_view s, int32_t next, const std::vector<std::string_view> &names, bool *added) {
        const uint64_t h = hash_bytes(s);
        const uint32_t tag = static_cast<uint32_t>(h >> 32);
        std::size_t mask = slots_.size() - 1, i = static_cast<std::size_t>(h) & mask;
        while (slots_[i].code_plus_one != 0) {
            const Slot &slot = slots_[i];
            if (slot.tag == tag && names[static_cast<std::size_t>(slot.code_plus_one - 1)] == s) {
                *added = false;
                return slot.code_plus_one - 1;
            }
            i = (i + 1) & mask;
        }
        slots_[i] = Slot{next + 1, tag};
        *added = true;
        return next;
    }
    // Called once the new string is in `names`: keeps the load below 1/2.
    void added(const std::vector<std::string_view> &names) {
        if (2 * names.size() > slots_.size()) grow(names, static_cast<int32_t>(names.size()));
    }

private:
    struct Slot {
        int32_t code_plus_one = 0;
        uint32_t tag = 0;
    };
    void grow(const std::vector<std::string_view> &names, int32_t count) {
        std::vector<Slot> old(slots_.size() * 2, Slot{});
        old.swap(slots_);
        const std::size_t mask = slots_.size() - 1;
        for (int32_t c = 0; c < count; ++c) {
            const uint64_t h = hash_bytes(names[static_cast<std::size_t>(c)]);
            std::size_t i = static_cast<std::size_t>(h) & mask;
            while (slots_[i].code_plus_one != 0) i = (i + 1) & mask;
            slots_[i] = Slot{c + 1, static_cast<uint32_t>(h >> 32)};
        }
    }
    std::vector<Slot> slots_;
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
    std::vector<std::string_view> names;  // by code, in order of first appearance
    StringTable table(std::min<std::size_t>(n, 1 << 16));
    for (std::size_t t = 0; t < n; ++t) {
        // Exports list labels task by task: a string equal to the previous one is common.
        if (t > 0 && strings[t] == strings[t - 1]) {
            out.codes[t] = out.codes[t - 1];
            continue;
        }
        bool added = false;
        const int32_t code = table.find_or_add(strings[t], static_cast<int32_t>(names.size()), names, &added);
        if (added) {
            names.push_back(strings[t]);
            table.added(names);
            out.first.push_back(static_cast<int64_t>(t));
        }
        out.codes[t] = code;
    }
    if (!sorted) return out;
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
