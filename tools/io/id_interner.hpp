// SPDX-License-Identifier: MIT
// Numbering the ids of a text file while it is parsed by several threads (internal to
// the readers of io/): each chunk numbers its strings locally (LocalIds, with a
// thread's reusable RoleScratch), and merging maps them to the file's ids in order of
// first appearance (Interner). The per-field lookups are inline: they run once per
// field of every record.
#pragma once

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

#include "common/errors.hpp"
#include "io/parallel_reader.hpp"

namespace cli {

// The value of a canonical decimal integer below 2^24 ("0", "17", not "017" or "+17"),
// or -1 for any other string. Such ids are looked up by value in a plain array: no
// hashing, and most exports number their items and workers. A string has one
// canonical form, so the array and the hash index never hold the same string twice.
inline int64_t small_integer(std::string_view s) {
    const std::size_t n = s.size();
    if (n - 1 >= 8 || (s[0] == '0' && n > 1)) return -1;  // empty (n - 1 wraps), too long, leading zero
    int64_t v = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const unsigned d = static_cast<unsigned>(static_cast<unsigned char>(s[i])) - '0';
        if (d > 9) return -1;
        v = v * 10 + d;
    }
    return v < (int64_t{1} << 24) ? v : -1;
}

// Copies of strings that stay where they are (views of them stay valid).
class Arena {
public:
    std::string_view store(std::string_view s) {
        if (s.empty()) return std::string_view();
        if (s.size() > kBlock / 4) {  // a long id gets a block of its own
            blocks_.emplace_back(new char[s.size()]);
            std::memcpy(blocks_.back().get(), s.data(), s.size());
            return std::string_view(blocks_.back().get(), s.size());
        }
        if (s.size() > left_) {
            blocks_.emplace_back(new char[kBlock]);
            cur_ = blocks_.back().get();
            left_ = kBlock;
        }
        std::memcpy(cur_, s.data(), s.size());
        const std::string_view out(cur_, s.size());
        cur_ += s.size();
        left_ -= s.size();
        return out;
    }

private:
    static constexpr std::size_t kBlock = std::size_t{1} << 20;
    std::vector<std::unique_ptr<char[]>> blocks_;
    char *cur_ = nullptr;
    std::size_t left_ = 0;
};

// The ids of a whole file: every distinct string once, numbered in order of first
// appearance, with its first line (unless constructed with keep_lines false: the
// messages that name a first line are about labels, and items can be millions). Keeps
// its own copy of each string.
class Interner {
public:
    explicit Interner(bool keep_lines = true) : keep_lines_(keep_lines) {}
    int32_t intern(std::string_view s, std::size_t line) { return intern(s, line, 0, false); }
    /// The same with the string's hash_bytes() already known.
    int32_t intern_hashed(std::string_view s, std::size_t line, uint64_t hash) { return intern(s, line, hash, true); }
    int32_t intern(std::string_view s, std::size_t line, uint64_t hash, bool hashed) {
        const int64_t value = small_integer(s);
        if (value >= 0) {
            const std::size_t v = static_cast<std::size_t>(value);
            if (v >= by_value_.size()) by_value_.resize(std::max(v + 1, 2 * by_value_.size()), -1);
            if (by_value_[v] < 0) {
                by_value_[v] = add(s, line);
                ++canonical_;
            }
            return by_value_[v];
        }
        const uint64_t h = hashed ? hash : hash_bytes(s);
        const int32_t id = static_cast<int32_t>(names_.size());
        const int32_t seen = index_.insert(s, h, id, names_);
        if (seen >= 0) return seen;
        return add(s, line);
    }
    const std::vector<std::string_view> &names() const { return names_; }
    /// Where `id` first appeared (keep_lines only).
    std::size_t first_line(int32_t id) const { return first_line_[static_cast<std::size_t>(id)]; }
    /// Whether every id is a canonical integer below 2^24 (then by_value() orders them).
    bool all_small_integers() const { return canonical_ == names_.size(); }
    const std::vector<int32_t> &by_value() const { return by_value_; }

private:
    int32_t add(std::string_view s, std::size_t line) {
        if (names_.size() >= static_cast<std::size_t>(INT32_MAX))
            throw CliError(kExitInput, "more than 2^31-1 distinct ids (the library's ids are int32)");
        names_.push_back(arena_.store(s));
        if (keep_lines_) first_line_.push_back(line);
        return static_cast<int32_t>(names_.size() - 1);
    }

    bool keep_lines_;

    Arena arena_;
    FlatIndex index_;
    std::vector<int32_t> by_value_;  // canonical integer -> id, -1 = not seen
    std::vector<std::string_view> names_;
    std::vector<std::size_t> first_line_;
    std::size_t canonical_ = 0;
};

// The ids of one chunk, numbered in order of first appearance within it: views into
// the input, and the chunk-local line of each.
struct LocalIds {
    std::vector<std::string_view> names;
    std::vector<std::size_t> lines;
    std::vector<uint64_t> hashes;  // hash_bytes() of each name (0 for canonical integers)
    std::string_view last;
    int32_t last_id = -1;
    void clear() {
        names.clear();
        lines.clear();
        hashes.clear();
        last = std::string_view();
        last_id = -1;
    }
};

// A thread's tables for one role (items, workers or labels), reused chunk after chunk:
// canonical integers by value (an entry counts only when stamped with the current
// chunk's generation, so nothing is cleared between chunks), other strings hashed.
// The by-value table covers a window of kWindow values placed at the chunk's first
// canonical integer (from 0 when that is small): a chunk's ids are mostly close
// together, and a table over every value up to the largest id would cost 8 bytes per
// item on every thread (and its page faults). Canonical integers outside the window
// are hashed like any other string; within a chunk a value always takes the same way.
struct RoleScratch {
    static constexpr std::size_t kWindow = std::size_t{1} << 17;
    struct Entry {
        uint32_t stamp;
        int32_t id;
    };
    std::vector<Entry> by_value;  // stamp and id side by side: one cache line per lookup
    std::size_t base = 0;         // by_value[i] is value base + i
    uint32_t base_generation = 0;  // the chunk whose window `base` places
    FlatIndex index;
};

// intern_local for an id the chunk has not seen (or a string that is not a canonical
// integer and not the previous one): out of line, the fast paths stay small.
int32_t intern_local_slow(LocalIds &ids, RoleScratch &scratch, uint32_t generation, std::string_view s, int64_t value,
                          std::size_t line);

// The chunk-local id of `s` (first seen on chunk line `line`). Canonical integers
// are looked up by value; other strings are compared with the previous one (exports
// list labels task by task, so the same id often repeats on consecutive lines), then,
// while the chunk has seen at most kFewIds ids (class labels), with each of them, and
// otherwise hashed.
constexpr std::size_t kFewIds = 8;
inline int32_t intern_local(LocalIds &ids, RoleScratch &scratch, uint32_t generation, std::string_view s,
                            std::size_t line) {
    const int64_t value = small_integer(s);
    if (value >= 0) {
        const std::size_t i = static_cast<std::size_t>(value) - scratch.base;
        if (scratch.base_generation == generation && i < RoleScratch::kWindow && scratch.by_value[i].stamp == generation)
            return scratch.by_value[i].id;
    } else if (ids.last_id >= 0 && same_bytes(s, ids.last)) {
        return ids.last_id;
    } else if (ids.names.size() <= kFewIds) {
        // The chunk's distinct ids so far are all here (each string once): a match is
        // the id the hash index would give.
        for (std::size_t k = 0; k < ids.names.size(); ++k)
            if (same_bytes(ids.names[k], s)) {
                ids.last = s;
                return ids.last_id = static_cast<int32_t>(k);
            }
    }
    return intern_local_slow(ids, scratch, generation, s, value, line);
}

/// Global ids for a chunk's local ones, in the chunk's order of first appearance: the
/// file's order of first appearance is kept exactly.
void translate(Interner &global, const LocalIds &local, std::size_t line_offset, std::vector<int32_t> &map);

}  // namespace cli
