// SPDX-License-Identifier: MIT
#include "label_file.hpp"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <deque>
#include <iterator>
#include <memory>
#include <mutex>

#include "parallel_reader.hpp"

#include "binary_labels.hpp"
#include "cli.hpp"

namespace cli {

const char kInputHelp[] =
    "Input files (crowd labels, --truth, --gold):\n"
    "  Formats: CSV and TSV (RFC 4180 \"double quotes\", \"\" for a quote, line breaks\n"
    "  inside quotes), or fields separated by blanks/tabs. CRLF line ends and a UTF-8 BOM\n"
    "  are fine; blank lines are skipped; FILE - reads standard input. --input-format\n"
    "  auto picks per file: .csv -> csv, .tsv/.tab -> tsv; otherwise a header line with\n"
    "  a tab -> tsv, a first line with a comma -> csv, else whitespace. Unquoted CSV/TSV\n"
    "  fields are trimmed of surrounding blanks.\n"
    "  Header: with --header auto the first line is a header if a field names a column\n"
    "  (a default name below or one given by --item-col/--worker-col/--label-col). Then\n"
    "  the columns are found by name, case-insensitively (a number is a 1-based\n"
    "  position), other columns are ignored, and every line must have as many fields\n"
    "  as the header. Default names, the first present wins:\n"
    "    item    task, item, question\n"
    "    worker  worker, annotator, user, performer\n"
    "    label   label, answer, response, output  (truth/gold files also: truth, gold,\n"
    "            golden, true_label, ground_truth, correct)\n"
    "  A name also matches with an _id or id suffix and a `prefix:` or `prefix.` in front\n"
    "  (task_id, WorkerId, ASSIGNMENT:worker_id). Without a header, crowd lines are\n"
    "  `item worker label` (exactly 3 fields, or the positions given by --item-col etc.)\n"
    "  and truth/gold lines `item label`. In gold and truth files --gold-item-col and\n"
    "  --gold-label-col must name a column; --item-col/--label-col apply when present.\n";

namespace {

// "file:line: message" — the one-line error format of every input problem.
[[noreturn]] void input_error(const std::string &source, std::size_t line, const std::string &what) {
    throw CliError(kExitInput, source + ":" + std::to_string(line) + ": " + what);
}

// Quotes a value for an error message so that blanks and empty strings stay visible
// (control characters escaped: the message stays one line).
std::string quoted(std::string_view s) { return quote_field(s); }

// ---------------------------------------------------------------------------------
// Number recognition. Written by hand rather than with strtoll/strtod alone because
// those accept leading blanks, hex, "inf" and "nan", none of which we want to treat
// as numeric ids or labels.

bool parse_int64(std::string_view s, int64_t &value) {
    std::size_t i = 0;
    bool negative = false;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
    if (i >= s.size()) return false;
    uint64_t magnitude = 0;
    const uint64_t limit = negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
    for (; i < s.size(); ++i) {
        if (s[i] < '0' || s[i] > '9') return false;
        const uint64_t d = static_cast<uint64_t>(s[i] - '0');
        if (magnitude > (limit - d) / 10) return false;  // out of int64 range
        magnitude = magnitude * 10 + d;
    }
    value = negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
    return true;
}

// A decimal number: [+-] digits [. digits] or [+-] . digits, then [eE [+-] digits].
bool parse_number(std::string_view s, double &value) {
    std::size_t i = 0;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    std::size_t digits = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++digits;
    if (i < s.size() && s[i] == '.') {
        ++i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++digits;
    }
    if (digits == 0) return false;
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
        std::size_t exp_digits = 0;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++exp_digits;
        if (exp_digits == 0) return false;
    }
    if (i != s.size()) return false;
    value = std::strtod(std::string(s).c_str(), nullptr);  // syntax checked: safe
    return true;
}

// ---------------------------------------------------------------------------------
// String -> index in order of first appearance; the final order is applied afterwards
// as a permutation, once every distinct string is known.

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
                          std::size_t line) {
    const int32_t fresh = static_cast<int32_t>(ids.names.size());
    if (value >= 0 && scratch.base_generation != generation) {  // the chunk's first: place the window
        const std::size_t v = static_cast<std::size_t>(value), margin = RoleScratch::kWindow / 4;
        scratch.base = v >= margin ? v - margin : 0;
        scratch.base_generation = generation;
        if (scratch.by_value.empty()) scratch.by_value.assign(RoleScratch::kWindow, {0, -1});
    }
    const std::size_t i = static_cast<std::size_t>(value) - scratch.base;  // wraps below the window
    if (value >= 0 && i < RoleScratch::kWindow) {
        RoleScratch::Entry &e = scratch.by_value[i];
        if (e.stamp == generation) return e.id;
        e.stamp = generation;
        e.id = fresh;
        ids.hashes.push_back(0);
    } else {
        ids.last = s;
        const uint64_t h = hash_bytes(s);
        const int32_t seen = scratch.index.insert(s, h, fresh, ids.names);
        if (seen >= 0) return ids.last_id = seen;
        ids.hashes.push_back(h);
        ids.last_id = fresh;
    }
    ids.names.push_back(s);
    ids.lines.push_back(line);
    return fresh;
}

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

// Global ids for a chunk's local ones, in the chunk's order of first appearance: the
// file's order of first appearance is kept exactly.
void translate(Interner &global, const LocalIds &local, std::size_t line_offset, std::vector<int32_t> &map) {
    map.resize(local.names.size());
    for (std::size_t k = 0; k < map.size(); ++k)
        map[k] = global.intern_hashed(local.names[k], local.lines[k] + line_offset, local.hashes[k]);
}

// Ranks `keys` (one per first-appearance index) by (key, name bytes): rank[old] = new.
// The byte tie-break makes "7" and "07" (both 7) land in a fixed order.
template <class Key>
std::vector<int32_t> rank_by(const std::vector<Key> &keys, const std::vector<std::string_view> &names) {
    std::vector<int32_t> order(names.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int32_t>(i);
    std::sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
        if (keys[a] != keys[b]) return keys[a] < keys[b];
        return names[a] < names[b];
    });
    std::vector<int32_t> rank(names.size());
    for (std::size_t r = 0; r < order.size(); ++r) rank[order[r]] = static_cast<int32_t>(r);
    return rank;
}

// Item and worker order: ascending integers when every id is an integer (so the
// datasets' 1-based ids give index = id - 1, which Opt-D&S's worker grouping by index
// mod 3 relies on), else order of first appearance (the identity).
std::vector<int32_t> id_order(const std::vector<std::string_view> &names) {
    std::vector<int64_t> values(names.size());
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (!parse_int64(names[i], values[i])) {
            std::vector<int32_t> identity(names.size());
            for (std::size_t j = 0; j < identity.size(); ++j) identity[j] = static_cast<int32_t>(j);
            return identity;
        }
    }
    return rank_by(values, names);
}

// The same for a whole file's ids: when all are canonical small integers, ranks come
// from one pass over the by-value table instead of a sort.
std::vector<int32_t> id_order(const Interner &ids) {
    if (!ids.all_small_integers()) return id_order(ids.names());
    std::vector<int32_t> rank(ids.names().size());
    int32_t r = 0;
    for (int32_t id : ids.by_value())
        if (id >= 0) rank[static_cast<std::size_t>(id)] = r++;
    return rank;
}

bool is_identity(const std::vector<int32_t> &map) {
    for (std::size_t i = 0; i < map.size(); ++i)
        if (map[i] != static_cast<int32_t>(i)) return false;
    return true;
}

// Class order without --classes: numeric when every label is a number, else bytes.
std::vector<int32_t> inferred_class_order(const std::vector<std::string_view> &names) {
    std::vector<double> values(names.size());
    bool numeric = true;
    for (std::size_t i = 0; i < names.size() && numeric; ++i) numeric = parse_number(names[i], values[i]);
    if (!numeric) std::fill(values.begin(), values.end(), 0.0);  // all equal: byte order decides
    return rank_by(values, names);
}

// --classes K: maps each distinct label to its class and names the classes "1".."K"
// (or "0".."K-1"), so a class nobody chose still exists.
std::vector<int32_t> counted_class_map(const Interner &labels, const ClassSpec &spec,
                                       const std::string &source, std::vector<std::string> &class_names) {
    const std::vector<std::string_view> &names = labels.names();
    const int64_t k = spec.count;
    std::vector<int64_t> values(names.size());
    bool fits_one_based = true, fits_zero_based = true;
    int32_t zero_witness = -1, k_witness = -1;  // labels that rule out one range
    for (std::size_t i = 0; i < names.size(); ++i) {
        const int32_t id = static_cast<int32_t>(i);
        if (!parse_int64(names[i], values[i]))
            input_error(source, labels.first_line(id),
                        "label " + quoted(names[i]) + " is not an integer (--classes " + spec.text +
                            " expects labels 1.." + std::to_string(k) + " or 0.." + std::to_string(k - 1) + ")");
        const int64_t v = values[i];
        if (v < 0 || v > k)
            input_error(source, labels.first_line(id),
                        "label " + quoted(names[i]) + " is outside 1.." + std::to_string(k) + " and 0.." +
                            std::to_string(k - 1) + " (--classes " + spec.text + ")");
        if (v == 0 && fits_one_based) fits_one_based = false, zero_witness = id;
        if (v == k && fits_zero_based) fits_zero_based = false, k_witness = id;
    }
    if (!fits_one_based && !fits_zero_based)
        input_error(source, labels.first_line(k_witness),
                    "label " + quoted(names[k_witness]) + " and label " + quoted(names[zero_witness]) +
                        " (line " + std::to_string(labels.first_line(zero_witness)) + ") fit neither 1.." +
                        std::to_string(k) + " nor 0.." + std::to_string(k - 1) + " (--classes " + spec.text + ")");
    const int64_t offset = fits_one_based ? 1 : 0;
    class_names.clear();
    for (int64_t c = 0; c < k; ++c) class_names.push_back(std::to_string(c + offset));
    std::vector<int32_t> map(names.size());
    for (std::size_t i = 0; i < names.size(); ++i) map[i] = static_cast<int32_t>(values[i] - offset);
    return map;
}

// --classes A,B,C: the listed classes in the listed order; any other label is an error.
std::vector<int32_t> listed_class_map(const Interner &labels, const ClassSpec &spec, const std::string &source) {
    std::unordered_map<std::string_view, int32_t> position;
    for (std::size_t c = 0; c < spec.names.size(); ++c) position.emplace(spec.names[c], static_cast<int32_t>(c));
    const std::vector<std::string_view> &names = labels.names();
    std::vector<int32_t> map(names.size());
    for (std::size_t i = 0; i < names.size(); ++i) {
        auto it = position.find(names[i]);
        if (it == position.end())
            input_error(source, labels.first_line(static_cast<int32_t>(i)),
                        spec.origin.empty()
                            ? "label " + quoted(names[i]) + " is not one of --classes " + spec.text
                            : "label " + quoted(names[i]) + " is not one of the classes of " + spec.origin + " (" +
                                  spec.text + ")");
        map[i] = it->second;
    }
    return map;
}

// Names in final index order, copied out of the file buffer (which is then freed);
// `threads` share the copying (rank is a permutation: each writes its own entries).
std::vector<std::string> ordered_names(const std::vector<std::string_view> &names, const std::vector<int32_t> &rank,
                                       std::size_t threads = 1) {
    std::vector<std::string> out(names.size());
    parallel_for(names.size(), threads, [&](std::size_t lo, std::size_t hi) {
        for (std::size_t i = lo; i < hi; ++i) out[static_cast<std::size_t>(rank[i])].assign(names[i].data(), names[i].size());
    });
    return out;
}

// What a grouped read (InputOptions::grouped) keeps in place of the item and label
// arrays while it can: the labels' items as runs (each run's first position and item,
// 12 bytes a run instead of 4 bytes a label: a file in item order has one run per
// item), and the labels one byte each while the file has at most 256 distinct ones.
// Either gives way to the int32 array of the table when the file outgrows it (more
// than a run per 3 labels, a 257th label).
struct CompactColumns {
    bool item_runs = false;    // the items are run_start/run_item, else table.item
    bool label_bytes = false;  // the labels are label8, else table.label
    std::vector<int64_t> run_start;
    std::vector<int32_t> run_item;  // first-appearance ids
    std::vector<uint8_t> label8;    // first-appearance ids
    void free_runs() {
        std::vector<int64_t>().swap(run_start);
        std::vector<int32_t>().swap(run_item);
        item_runs = false;
    }
    void free_labels() {
        std::vector<uint8_t>().swap(label8);
        label_bytes = false;
    }
};

// The final numbering of a table read with InputOptions::grouped (its worker array,
// and its items and labels as `cc` holds them, are first-appearance ids): when the
// items, numbered, come in index order (each item's labels together, item 0 first),
// the labels become codes worker * k + label in place of the worker ids, item_start
// comes from the runs (or the item array), and everything else is freed; otherwise
// the triples are numbered as usual (the library sorts them).
void number_grouped(CrowdTable &table, CompactColumns &cc, const std::vector<int32_t> &item_rank,
                    const std::vector<int32_t> &worker_rank, const std::vector<int32_t> &label_map,
                    std::size_t threads) {
    const std::size_t n = table.worker.size(), n_items = item_rank.size();
    const uint32_t k = static_cast<uint32_t>(table.class_names.size());
    const bool items_same = is_identity(item_rank);
    // The codes overwrite the worker ids they are made from (the same element, read
    // as int32 and written as uint32, which may alias it).
    const int32_t *const worker = table.worker.data();
    uint32_t *const code = reinterpret_cast<uint32_t *>(table.worker.data());
    const auto make_codes = [&](const auto *label) {
        parallel_for(n, threads, [&](std::size_t lo, std::size_t hi) {
            for (std::size_t t = lo; t < hi; ++t)
                code[t] = static_cast<uint32_t>(worker_rank[static_cast<std::size_t>(worker[t])]) * k +
                          static_cast<uint32_t>(label_map[static_cast<std::size_t>(label[t])]);
        });
    };
    if (cc.label_bytes) make_codes(cc.label8.data());
    else make_codes(table.label.data());
    cc.free_labels();

    std::vector<int64_t> start;
    bool in_order = true;
    std::mutex mutex;
    if (cc.item_runs) {
        // In index order: run r is item r's labels, for every item.
        in_order = cc.run_item.size() == n_items;
        if (in_order)
            parallel_for(n_items, threads, [&](std::size_t lo, std::size_t hi) {
                bool ok = true;
                for (std::size_t r = lo; r < hi && ok; ++r) {
                    const int32_t id = cc.run_item[r];
                    ok = (items_same ? id : item_rank[static_cast<std::size_t>(id)]) == static_cast<int32_t>(r);
                }
                std::lock_guard<std::mutex> lock(mutex);
                in_order = in_order && ok;
            });
        if (in_order) {
            start = std::move(cc.run_start);
            start.push_back(static_cast<int64_t>(n));
        } else {
            table.item.resize(n);
            for (std::size_t r = 0; r < cc.run_item.size(); ++r) {
                const int64_t end = r + 1 < cc.run_start.size() ? cc.run_start[r + 1] : static_cast<int64_t>(n);
                const int32_t id = cc.run_item[r];
                std::fill(table.item.begin() + cc.run_start[r], table.item.begin() + end,
                          items_same ? id : item_rank[static_cast<std::size_t>(id)]);
            }
        }
        cc.free_runs();
    } else {
        // The items, numbered in place; within each part every step from one label to
        // the next must keep the item or move to the next one, and so across the parts'
        // ends (compared afterwards). Then each item starts where the item changes.
        int32_t *const item = table.item.data();
        std::vector<std::size_t> part_starts;
        parallel_for(n, threads, [&](std::size_t lo, std::size_t hi) {
            bool ok = true;
            int32_t previous = -1;
            for (std::size_t t = lo; t < hi; ++t) {
                const int32_t j = items_same ? item[t] : item_rank[static_cast<std::size_t>(item[t])];
                if (!items_same) item[t] = j;
                ok = ok && (t == lo || j == previous || j == previous + 1);
                previous = j;
            }
            std::lock_guard<std::mutex> lock(mutex);
            part_starts.push_back(lo);
            in_order = in_order && ok;
        });
        in_order = in_order && item[0] == 0 && item[n - 1] == static_cast<int32_t>(n_items) - 1;
        for (std::size_t lo : part_starts)
            if (lo > 0 && item[lo] != item[lo - 1] && item[lo] != item[lo - 1] + 1) in_order = false;
        if (in_order) {
            start.assign(n_items + 1, 0);
            parallel_for(n, threads, [&](std::size_t lo, std::size_t hi) {
                for (std::size_t t = std::max<std::size_t>(lo, 1); t < hi; ++t)
                    if (item[t] != item[t - 1]) start[static_cast<std::size_t>(item[t])] = static_cast<int64_t>(t);
            });
            start[n_items] = static_cast<int64_t>(n);
        }
    }
    if (!in_order) {
        // Not in item order: plain triples after all; the workers and labels from the codes.
        table.label.resize(n);
        int32_t *const w = table.worker.data();
        int32_t *const l = table.label.data();
        parallel_for(n, threads, [&](std::size_t lo, std::size_t hi) {
            for (std::size_t t = lo; t < hi; ++t) {
                const uint32_t c = code[t];
                w[t] = static_cast<int32_t>(c / k);
                l[t] = static_cast<int32_t>(c % k);
            }
        });
        return;
    }
    table.item_start = std::move(start);
    table.code_storage = std::move(table.worker);
    std::vector<int32_t>().swap(table.item);
    std::vector<int32_t>().swap(table.label);
    std::vector<int32_t>().swap(table.worker);
}

// ---------------------------------------------------------------------------------
// Columns: which field of a record is the item, the worker, the label.

// Header matching compares views case-insensitively and never copies a field: a first
// line may be one field of a gigabyte, and the buffer holding it is all the memory it
// should cost.
bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    for (std::size_t i = 0; i < a.size(); ++i)
        if (lower(a[i]) != lower(b[i])) return false;
    return true;
}

// A header name reduced to the word it stands for (compare it with iequals): without a
// "prefix:" or "prefix." (Toloka's ASSIGNMENT:worker_id, MTurk's Answer.label) and
// without an "_id"/"-id"/" id"/"id" suffix (task_id, WorkerId).
std::string_view column_word(std::string_view s) {
    const std::size_t cut = s.find_last_of(":.");
    if (cut != std::string_view::npos && cut + 1 < s.size()) s.remove_prefix(cut + 1);
    for (std::string_view suffix : {"_id", "-id", " id", "id"}) {
        const std::size_t n = suffix.size();
        if (s.size() > n && iequals(s.substr(s.size() - n), suffix)) {
            s.remove_suffix(n);
            break;
        }
    }
    return s;
}

const std::vector<std::string> kItemWords = {"task", "item", "question"};
const std::vector<std::string> kWorkerWords = {"worker", "annotator", "user", "performer"};
const std::vector<std::string> kLabelWords = {"label", "answer", "response", "output"};
const std::vector<std::string> kTruthWords = {"truth",   "gold",  "golden",   "true_label", "ground_truth",
                                              "correct", "label", "answer",   "response",   "output"};
// Truth and gold files also take a bare `id` column for the item (a task table).
const std::vector<std::string> kTruthItemWords = {"task", "item", "question", "id"};

// One column to find: its role, the option that names it, and the default names.
struct Role {
    const char *what;    // "item", "worker", "label"
    const char *option;  // "--item-col"
    std::string given;   // the option's value, "" when not given
    const std::vector<std::string> *words;
    std::size_t default_position;  // 0-based column without a header
    bool given_optional;  // truth/gold: a given name absent from the header falls back to the defaults
};

bool positive_integer(const std::string &s, std::size_t &value) {
    if (s.empty() || s.size() > 9) return false;
    value = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return false;
        value = value * 10 + static_cast<std::size_t>(c - '0');
    }
    return value > 0;
}

// Whether a first record names columns: one of its fields is a default column name
// or a name given by an option.
template <class Text>
bool names_columns(const std::vector<Text> &fields, const std::vector<Role> &roles) {
    if (has_export_column(fields)) return true;
    for (const Text &f : fields) {
        const std::string_view word = column_word(f);
        for (const Role &r : roles) {
            std::size_t unused = 0;
            if (!r.given.empty() && !positive_integer(r.given, unused) && iequals(f, r.given)) return true;
            for (const std::string &w : *r.words)
                if (iequals(word, w)) return true;
        }
    }
    return false;
}

// The header's columns for messages, e.g. "'task', 'worker', 'label'" (at most 12).
std::string column_list(const std::vector<std::string_view> &header) {
    std::string out;
    for (std::size_t i = 0; i < header.size() && i < 12; ++i) out += (i ? ", " : "") + quoted(header[i]);
    if (header.size() > 12) out += ", ... (" + std::to_string(header.size()) + " columns)";
    return out;
}

std::string word_list(const std::vector<std::string> &words) {
    std::string out;
    for (std::size_t i = 0; i < words.size(); ++i) out += (i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + words[i];
    return out;
}

// How the records of a file are laid out once its first record has been seen.
struct Layout {
    bool header = false;
    std::size_t header_line = 0;
    std::vector<std::size_t> columns;  // one per role
    std::size_t n_fields = 0;          // every record must have exactly this many
    std::string count_rule;            // what the count means, for messages
    Preset preset = Preset::Generic;   // the platform rules that applied
    std::size_t gold = kNoColumn;      // in-file gold column (crowd files)
    std::size_t status = kNoColumn;    // assignment status column (crowd files)
    std::string gold_name;             // its header name, for messages
    std::string columns_note;          // "item 'x', worker 'y', label 'z'" for notes
};

// A column given by an option (a header name or a 1-based number), or first.size()
// when the option names no column and `optional` lets that pass.
std::size_t given_column(const std::vector<std::string_view> &first, const std::string &given, const char *option,
                         bool optional, const RecordReader &reader) {
    std::vector<std::size_t> hits;
    for (std::size_t i = 0; i < first.size(); ++i)
        if (iequals(first[i], given)) hits.push_back(i);
    std::size_t position = 0;
    if (hits.size() == 1) return hits[0];
    if (hits.size() > 1)
        reader.fail("the header has " + std::to_string(hits.size()) + " columns named " + quoted(given) + " (columns " +
                    std::to_string(hits[0] + 1) + " and " + std::to_string(hits[1] + 1) + "); give " + option +
                    " a column number to choose one");
    if (positive_integer(given, position)) {
        if (position > first.size())
            reader.fail(std::string(option) + " " + given + ": the header has only " + std::to_string(first.size()) +
                        " columns");
        return position - 1;
    }
    if (!optional)
        reader.fail("no column " + quoted(given) + " in the header (columns: " + column_list(first) + "); " + option +
                    " takes a column name or number");
    return first.size();
}

// The role slot of ExportColumns that a Role fills.
std::size_t &export_slot(ExportColumns &cols, const Role &r) {
    const std::string_view what = r.what;
    return what == "item" ? cols.item : what == "worker" ? cols.worker : cols.label;
}

// `gold_col` is the --gold-col value for crowd files ("" = by the preset, "none" = no
// in-file gold); truth files pass nullptr.
Layout plan_layout(const std::vector<std::string_view> &first, const std::vector<Role> &roles, HeaderMode mode,
                   const RecordReader &reader, Preset preset = Preset::Auto, const std::string *gold_col = nullptr) {
    Layout layout;
    layout.header = mode == HeaderMode::Yes || (mode == HeaderMode::Auto && names_columns(first, roles));
    if (!layout.header && preset != Preset::Auto && preset != Preset::Generic)
        reader.fail(std::string("--preset ") + preset_name(preset) +
                    ": the first line is not a header (a platform export starts with its column names)");
    if (layout.header) {
        layout.header_line = reader.line();
        layout.n_fields = first.size();
        layout.count_rule = "as in the header on line " + std::to_string(layout.header_line);
        const FileKind kind = gold_col != nullptr ? FileKind::Crowd : FileKind::Truth;
        // 1. The columns named by options.
        ExportColumns fixed;
        std::vector<std::size_t> chosen(roles.size(), first.size());
        for (std::size_t k = 0; k < roles.size(); ++k) {
            const Role &r = roles[k];
            if (r.given.empty()) continue;
            chosen[k] = given_column(first, r.given, r.option, r.given_optional, reader);
            if (chosen[k] != first.size()) export_slot(fixed, r) = chosen[k];
        }
        bool want_gold = kind == FileKind::Crowd;
        if (gold_col != nullptr && !gold_col->empty()) {
            if (*gold_col == "none") {
                want_gold = false;
            } else {
                fixed.gold = given_column(first, *gold_col, "--gold-col", false, reader);
            }
        }
        // 2. A platform's rules for the open ones.
        RoleOptions options;
        for (const Role &r : roles) {
            const std::string_view what = r.what;
            (what == "item" ? options.item : what == "worker" ? options.worker : options.label) = r.option;
        }
        ExportColumns cols = export_columns(first, preset, kind, fixed, want_gold, options, reader);
        layout.preset = cols.preset;
        if (want_gold) layout.gold = cols.gold;
        layout.status = cols.status;
        // 3. The generic names for what is still open (never the gold or status column;
        // a column another role took is reported below as the same column).
        const auto taken = [&](std::size_t i) { return i == layout.gold || i == layout.status; };
        for (std::size_t k = 0; k < roles.size(); ++k) {
            if (chosen[k] != first.size()) continue;
            const std::size_t proposed = export_slot(cols, roles[k]);
            if (proposed != kNoColumn) chosen[k] = proposed;
        }
        for (std::size_t k = 0; k < roles.size(); ++k) {
            const Role &r = roles[k];
            if (chosen[k] != first.size()) continue;
            for (const std::string &w : *r.words) {
                std::vector<std::size_t> hits;
                for (std::size_t i = 0; i < first.size(); ++i)
                    if (!taken(i) && iequals(column_word(first[i]), w)) hits.push_back(i);
                if (hits.size() > 1)
                    reader.fail("columns " + quoted(first[hits[0]]) + " and " + quoted(first[hits[1]]) +
                                " both look like the " + r.what + " column; choose one with " + r.option);
                if (hits.size() == 1) {
                    chosen[k] = hits[0];
                    break;
                }
            }
            if (chosen[k] == first.size()) {
                const std::string platform = expected_column(layout.preset, kind, r.what);
                reader.fail(std::string("no ") + r.what + " column in the header (expected " +
                            (platform.empty() ? std::string()
                                              : platform + " for the " + preset_name(layout.preset) + " preset, or ") +
                            "one named " + word_list(*r.words) + "; the columns are " + column_list(first) +
                            "); name it with " + r.option);
            }
        }
        layout.columns = chosen;
        for (std::size_t k = 0; k < roles.size(); ++k)
            layout.columns_note += (k ? ", " : "") + std::string(roles[k].what) + " " + quoted(first[chosen[k]]);
        if (layout.gold != kNoColumn) {
            layout.gold_name = std::string(first[layout.gold]);
            layout.columns_note += ", gold " + quoted(first[layout.gold]);
        }
        for (std::size_t k = 0; k < roles.size(); ++k)
            if (layout.gold == chosen[k] || layout.status == chosen[k])
                reader.fail(std::string("the ") + roles[k].what + " column " + quoted(first[chosen[k]]) +
                            " is also the " + (layout.gold == chosen[k] ? "gold" : "status") + " column");
    } else {
        bool positional = false;
        for (const Role &r : roles) {
            std::size_t position = 0;
            if (r.given.empty()) {
                layout.columns.push_back(r.default_position);
            } else if (positive_integer(r.given, position)) {
                layout.columns.push_back(position - 1);
                positional = true;
            } else if (r.given_optional) {
                layout.columns.push_back(r.default_position);
            } else {
                reader.fail(std::string(r.option) + " " + quoted(r.given) +
                            ": this file has no header line (its first line does not name columns), so columns "
                            "are chosen by number; use --header yes if the first line is a header");
            }
        }
        if (positional) {
            layout.n_fields = first.size();
            layout.count_rule = "as on the first line " + std::to_string(reader.line());
            const std::size_t widest = *std::max_element(layout.columns.begin(), layout.columns.end()) + 1;
            if (widest > first.size())
                reader.fail("expected at least " + std::to_string(widest) + " fields (the columns chosen by " +
                            "--item-col/--worker-col/--label-col), found " + std::to_string(first.size()));
        } else {
            layout.n_fields = roles.size();
            layout.count_rule = roles.size() == 3 ? "(item worker label)" : "(item label)";
        }
    }
    for (std::size_t a = 0; a < roles.size(); ++a)
        for (std::size_t b = a + 1; b < roles.size(); ++b)
            if (layout.columns[a] == layout.columns[b])
                reader.fail(std::string("the ") + roles[a].what + " and " + roles[b].what +
                            " columns are the same column (" + std::to_string(layout.columns[a] + 1) + ")");
    return layout;
}

// Checks a record's field count against the layout, with a hint at the usual cause.
void check_field_count(const std::vector<std::string_view> &fields, const Layout &layout, const RecordReader &reader) {
    if (fields.size() == layout.n_fields) return;
    std::string hint;
    if (fields.size() > layout.n_fields) {
        if (reader.format() == TextFormat::Whitespace)
            hint = "; a field with blanks must be \"quoted\"";
        else if (reader.format() == TextFormat::Csv)
            hint = "; a field with a comma must be \"quoted\"";
    }
    reader.fail("expected " + std::to_string(layout.n_fields) + " fields " + layout.count_rule + ", found " +
                std::to_string(fields.size()) + hint);
}

// The first record of a file, read before its layout is known: the window grows until
// the record is whole (a stream), a problem is reported with its line. `fields` may
// point into `escapes`.
struct FirstRecord {
    std::size_t begin = 0;       // where records start (after a BOM)
    std::size_t after = 0;       // offset after the first record
    std::size_t after_line = 1;  // line there
    bool found = false;
};

// The window of a stream grows until it holds a whole first non-blank line (or all of
// the input), so that sniffing the format sees that line entirely.
void complete_first_line(InputBytes &in) {
    while (!in.at_eof()) {
        const std::string_view text(in.data(), in.size());
        std::size_t i = text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
        while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n' ||
                                   text[i] == '\v' || text[i] == '\f'))
            ++i;
        if (i < text.size() && text.find('\n', i) != std::string_view::npos) return;
        in.advance(0);
    }
}

template <class Plan>
FirstRecord read_first_record(InputBytes &in, TextFormat format, const std::string &source,
                              std::deque<std::string> &escapes, std::vector<std::string_view> &fields,
                              std::size_t first_line, Plan plan) {
    for (;;) {
        FirstRecord first;
        if (in.size() >= 3 && std::memcmp(in.data(), "\xEF\xBB\xBF", 3) == 0) first.begin = 3;
        escapes.clear();
        RecordReader reader(in.data(), in.size(), first.begin, in.size(), in.at_eof(), first_line, format, source,
                            &escapes);
        try {
            first.found = reader.next(fields);
            if (first.found) plan(reader);
            first.after = reader.position();
            first.after_line = reader.next_line();
            if (!first.found && !in.at_eof()) {  // only blank lines so far
                in.advance(0);
                continue;
            }
            return first;
        } catch (const IncompleteRecord &) {
            in.advance(0);
        } catch (const RecordError &e) {
            throw CliError(kExitInput, source + ":" + std::to_string(e.line) + ": " + e.what);
        }
    }
}

// map[src[0]], ..., map[src[n - 1]] as a forward range, for vector::insert: appending
// through it constructs each new element once, where resize() would first fill the
// new elements with zeros (a gigabyte of memory written twice at 10^8 labels).
template <class T>
class MappedIds {
public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = const T *;
    using reference = T;
    MappedIds(const int32_t *at, const int32_t *map) : at_(at), map_(map) {}
    T operator*() const { return static_cast<T>(map_[static_cast<std::size_t>(*at_)]); }
    MappedIds &operator++() {
        ++at_;
        return *this;
    }
    MappedIds operator++(int) {
        MappedIds before = *this;
        ++at_;
        return before;
    }
    bool operator==(const MappedIds &o) const { return at_ == o.at_; }
    bool operator!=(const MappedIds &o) const { return at_ != o.at_; }

private:
    const int32_t *at_;
    const int32_t *map_;
};

template <class T>
void append_mapped(std::vector<T> &out, const int32_t *src, std::size_t n, const int32_t *map) {
    out.insert(out.end(), MappedIds<T>(src, map), MappedIds<T>(src + n, map));
}

// Reading the records of a crowd file (parallel_reader.hpp's Job).
struct CrowdJob {
    const Layout &layout;
    const InputOptions &input;
    CrowdTable &table;
    std::size_t c_item, c_worker, c_label;
    bool skip_empty_label;
    Interner items, workers, labels;
    std::unordered_map<std::string, std::size_t> gold_seen;  // in-file gold: item -> entry
    std::size_t records = 0;                                 // records after the header
    std::size_t estimate;                                    // bytes of input, to reserve

    CrowdJob(const Layout &l, const InputOptions &in, CrowdTable &t, std::size_t bytes)
        : layout(l), input(in), table(t), c_item(l.columns[0]), c_worker(l.columns[1]), c_label(l.columns[2]),
          skip_empty_label(l.preset == Preset::LabelStudio), items(false), workers(false), estimate(bytes) {
        compact.item_runs = compact.label_bytes = in.grouped;
    }

    struct Local {
        RoleScratch items, workers, labels;
        uint32_t generation = 0;
        std::vector<std::string_view> fields, plain;
    };
    struct Run {
        std::size_t index, line;
    };
    struct Chunk {
        LocalIds items, workers, labels;
        // The chunk's triples are item[0, n) etc.: the arrays only grow (chunks are
        // reused), so that adding a triple is a store, not a vector's push_back.
        std::vector<int32_t> item, worker, label;
        std::size_t n = 0;
        std::vector<Run> runs;  // consecutive lines, as in LineMap
        std::size_t records = 0, skipped_rejected = 0, skipped_no_answer = 0;
        std::size_t bytes = 0;
        void clear() {
            items.clear();
            workers.clear();
            labels.clear();
            n = 0;
            runs.clear();
            records = skipped_rejected = skipped_no_answer = bytes = 0;
        }
        void grow() {
            const std::size_t size = std::max<std::size_t>(4096, 2 * item.size());
            item.resize(size);
            worker.resize(size);
            label.resize(size);
        }
    };
    std::vector<int32_t> ti, tw, tl;  // merge(): local -> global ids of a chunk
    CompactColumns compact;            // grouped reads: items as runs, labels as bytes
    std::size_t guess = 0;             // labels expected in the file (from the first chunk)

    // Items as runs no longer pay (more than one run per 3 labels): the item array.
    void spill_runs(std::size_t n) {
        table.item.reserve(std::max(guess, n));
        for (std::size_t r = 0; r < compact.run_item.size(); ++r) {
            const std::size_t end = r + 1 < compact.run_start.size() ? static_cast<std::size_t>(compact.run_start[r + 1]) : n;
            table.item.insert(table.item.end(), end - static_cast<std::size_t>(compact.run_start[r]), compact.run_item[r]);
        }
        compact.free_runs();
    }
    // A label id beyond a byte: the label array.
    void spill_labels() {
        table.label.reserve(std::max(guess, compact.label8.size()));
        table.label.insert(table.label.end(), compact.label8.begin(), compact.label8.end());
        compact.free_labels();
    }

    // The in-file gold column: one gold label per item, across the file, so the job
    // is serial when there is one.
    bool serial() const { return layout.gold != kNoColumn; }

    // The records' triples are added by add(); `last_line` tracks the runs of lines.
    inline void add(Chunk &c, Local &local, RecordReader &reader, std::string_view item, std::string_view worker,
                    std::string_view label, std::size_t &last_line) {
        if (item.empty() || worker.empty() || label.empty())
            reader.fail(std::string("empty ") + (item.empty() ? "item id" : worker.empty() ? "worker id" : "label") +
                        " (expected a value in column " +
                        std::to_string((item.empty() ? c_item : worker.empty() ? c_worker : c_label) + 1) + ")");
        const std::size_t line = reader.line();
        if (c.n == 0 || line != last_line + 1) c.runs.push_back({c.n, line});
        last_line = line;
        if (c.n == c.item.size()) c.grow();
        c.item[c.n] = intern_local(c.items, local.items, local.generation, item, line);
        c.worker[c.n] = intern_local(c.workers, local.workers, local.generation, worker, line);
        c.label[c.n] = intern_local(c.labels, local.labels, local.generation, label, line);
        ++c.n;
    }

    void parse(RecordReader &reader, Chunk &c, Local &local) {
        ++local.generation;
        local.items.index.clear();
        local.workers.index.clear();
        local.labels.index.clear();
        std::vector<std::string_view> &fields = local.fields;
        const std::size_t begin = reader.position();
        std::size_t last_line = 0;
        // Plain lines (no quotes, the right field count) take the reader's fast path
        // when nothing but the three columns matters; any other line, and every line
        // of a file with gold or status columns, the general one.
        const bool plain_ok = layout.gold == kNoColumn && layout.status == kNoColumn && !skip_empty_label &&
                              layout.n_fields >= 2;
        local.plain.resize(layout.n_fields);
        std::string_view *const plain = local.plain.data();
        for (;;) {
            if (plain_ok) {
                const RecordReader::Plain got = reader.next_plain(plain, layout.n_fields);
                if (got == RecordReader::Plain::End) break;
                if (got == RecordReader::Plain::Record) {
                    ++c.records;
                    add(c, local, reader, plain[c_item], plain[c_worker], plain[c_label], last_line);
                    continue;
                }
            }
            if (!reader.next(fields)) break;
            ++c.records;
            check_field_count(fields, layout, reader);
            const std::string_view item = fields[c_item], worker = fields[c_worker], label = fields[c_label];
            if (layout.gold != kNoColumn && !fields[layout.gold].empty() && !item.empty()) {
                // The task's gold label, whatever happens to this row's answer (serial:
                // reader.line() is the file's line).
                const std::string_view gold = fields[layout.gold];
                auto [it, added] = gold_seen.emplace(std::string(item), table.file_gold.entries.size());
                if (added) {
                    table.file_gold.entries.emplace_back(std::string(item), std::string(gold));
                    table.file_gold.line.push_back(reader.line());
                } else if (table.file_gold.entries[it->second].second != gold) {
                    reader.fail("item " + quoted(item) + " has gold label " + quoted(gold) + " in column " +
                                quoted(layout.gold_name) + " here but " +
                                quoted(table.file_gold.entries[it->second].second) + " on line " +
                                std::to_string(table.file_gold.line[it->second]) + " (expected one gold label per item)");
                }
            }
            if (layout.status != kNoColumn) {
                const RowStatus status = classify_status(layout.preset, fields[layout.status]);
                if (status == RowStatus::NoAnswer) {
                    ++c.skipped_no_answer;
                    continue;
                }
                if (status == RowStatus::Rejected && !input.keep_rejected) {
                    ++c.skipped_rejected;
                    continue;
                }
            }
            if (skip_empty_label && label.empty()) {
                ++c.skipped_no_answer;
                continue;
            }
            add(c, local, reader, item, worker, label, last_line);
        }
        c.bytes = reader.position() - begin;
    }

    void merge(Chunk &c, std::size_t offset) {
        records += c.records;
        table.skipped_rejected += c.skipped_rejected;
        table.skipped_no_answer += c.skipped_no_answer;
        const std::size_t n = c.n;
        if (n == 0) return;
        translate(items, c.items, offset, ti);
        translate(workers, c.workers, offset, tw);
        translate(labels, c.labels, offset, tl);
        const std::size_t base = table.worker.size();
        if (base == 0) {
            // Room for the whole file at this chunk's bytes per label, plus a little.
            const double per_byte = c.bytes > 0 ? static_cast<double>(n) / static_cast<double>(c.bytes) : 0.0;
            guess = static_cast<std::size_t>(per_byte * static_cast<double>(estimate) * 1.05) + 16;
            table.worker.reserve(guess);
            if (!compact.item_runs) table.item.reserve(guess);
            if (!compact.label_bytes) table.label.reserve(guess);
            else compact.label8.reserve(guess);
        }
        if (compact.item_runs) {
            const std::size_t before = compact.run_item.size();
            for (std::size_t r = 0; r < n; ++r) {
                const int32_t id = ti[static_cast<std::size_t>(c.item[r])];
                if (compact.run_item.empty() || compact.run_item.back() != id) {
                    compact.run_item.push_back(id);
                    compact.run_start.push_back(static_cast<int64_t>(base + r));
                }
            }
            if (base == 0) {  // as many runs again per label for the rest of the file
                const std::size_t runs = static_cast<std::size_t>(
                    static_cast<double>(guess) * static_cast<double>(compact.run_item.size() - before) /
                    static_cast<double>(n) * 1.05) + 16;
                compact.run_item.reserve(runs);
                compact.run_start.reserve(runs);
            }
            if (3 * compact.run_item.size() > base + n && base + n >= (std::size_t{1} << 16)) spill_runs(base + n);
        } else {
            append_mapped(table.item, c.item.data(), n, ti.data());
        }
        append_mapped(table.worker, c.worker.data(), n, tw.data());
        if (compact.label_bytes && !tl.empty() && *std::max_element(tl.begin(), tl.end()) > 255) spill_labels();
        if (compact.label_bytes) append_mapped(compact.label8, c.label.data(), n, tl.data());
        else append_mapped(table.label, c.label.data(), n, tl.data());
        for (std::size_t k = 0; k < c.runs.size(); ++k) {
            const std::size_t end = k + 1 < c.runs.size() ? c.runs[k + 1].index : n;
            table.line.push_run(c.runs[k].line + offset, end - c.runs[k].index);
        }
    }
};

std::vector<Role> crowd_roles(const InputOptions &in) {
    return {{"item", "--item-col", in.item_col, &kItemWords, 0, false},
            {"worker", "--worker-col", in.worker_col, &kWorkerWords, 1, false},
            {"label", "--label-col", in.label_col, &kLabelWords, 2, false}};
}

// --gold-item-col/--gold-label-col must name a column; without them --item-col and
// --label-col apply when the header has that column.
std::vector<Role> truth_roles(const InputOptions &in) {
    const bool item_own = !in.gold_item_col.empty(), label_own = !in.gold_label_col.empty();
    return {{"item", "--gold-item-col", item_own ? in.gold_item_col : in.item_col, &kTruthItemWords, 0, !item_own},
            {"label", "--gold-label-col", label_own ? in.gold_label_col : in.label_col, &kTruthWords, 1, !label_own}};
}

}  // namespace

std::vector<OptionSpec> input_option_specs() {
    return {{"input-format", true, '\0'}, {"header", true, '\0'},        {"item-col", true, '\0'},
            {"worker-col", true, '\0'},   {"label-col", true, '\0'},     {"preset", true, '\0'},
            {"gold-col", true, '\0'},     {"gold-item-col", true, '\0'}, {"gold-label-col", true, '\0'},
            {"keep-rejected", false, '\0'}};
}

InputOptions input_options_from(const ParsedArgs &args) {
    InputOptions in;
    if (auto v = args.last("input-format")) in.format = parse_text_format(*v);
    if (auto v = args.last("header")) in.header = parse_header_mode(*v);
    const auto column = [&](const char *name, std::string &out) {
        if (auto v = args.last(name)) {
            if (v->empty()) throw CliError(kExitUsage, std::string("--") + name + ": expected a column name or number");
            out = *v;
        }
    };
    column("item-col", in.item_col);
    column("worker-col", in.worker_col);
    column("label-col", in.label_col);
    column("gold-col", in.gold_col);
    column("gold-item-col", in.gold_item_col);
    column("gold-label-col", in.gold_label_col);
    if (auto v = args.last("preset")) in.preset = parse_preset(*v);
    in.keep_rejected = args.has("keep-rejected");
    // --threads (a fitting option where a command has one) also sets how many threads
    // parse; the library validates the value itself, so a bad one is left to it.
    if (auto v = args.last("threads")) {
        int64_t n = 0;
        if (parse_int64(*v, n) && n >= 0 && n <= 1024) in.threads = static_cast<std::size_t>(n);
    }
    return in;
}

ClassSpec parse_class_spec(const std::string &text) {
    ClassSpec spec;
    spec.text = text;
    int64_t k = 0;
    if (parse_int64(text, k)) {
        if (k < 2)
            throw CliError(kExitUsage, "--classes " + text + ": at least 2 classes are needed");
        if (k > INT32_MAX)
            throw CliError(kExitUsage, "--classes " + text + ": too many classes");
        spec.kind = ClassSpec::Kind::Count;
        spec.count = static_cast<int32_t>(k);
        return spec;
    }
    spec.kind = ClassSpec::Kind::List;
    std::size_t start = 0;
    for (;;) {
        const std::size_t comma = text.find(',', start);
        std::string name = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (name.empty())
            throw CliError(kExitUsage, "--classes '" + text + "': empty class name in the list");
        if (std::find(spec.names.begin(), spec.names.end(), name) != spec.names.end())
            throw CliError(kExitUsage, "--classes '" + text + "': class '" + name + "' is listed twice");
        spec.names.push_back(std::move(name));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    if (spec.names.size() < 2)
        throw CliError(kExitUsage, "--classes '" + text + "': give K >= 2 or a list of at least 2 classes (A,B,...)");
    spec.count = static_cast<int32_t>(spec.names.size());
    return spec;
}

namespace {

// read_crowd_file and read_crowd_text: the records of `in`, whose first line is
// `first_line` of the file named `path`.
CrowdTable read_crowd_input(InputBytes &in, const ParseSettings &settings, const std::string &path,
                            const ClassSpec &classes, const InputOptions &input, std::size_t first_line,
                            bool part_of_file) {
    CrowdTable table;
    table.source = display_name(path);
    try {
        complete_first_line(in);
        // A regular file with the magic bytes was read as a binary file; this one comes
        // from a pipe (standard input, a FIFO), which cannot be mapped.
        if (in.size() >= sizeof kBinaryMagic && std::memcmp(in.data(), kBinaryMagic, sizeof kBinaryMagic) == 0)
            throw CliError(kExitInput, table.source +
                                           ": a crowdspec binary label file, which is read mapped from a regular "
                                           "file: give its file name instead of a pipe or standard input");
        const std::vector<Role> roles = crowd_roles(input);
        const TextFormat format = resolve_text_format(
            input.format, path, std::string_view(in.data(), in.size()), input.header,
            [&](const std::vector<std::string_view> &fields) { return names_columns(fields, roles); });
        table.format = text_format_name(format);
        std::deque<std::string> escapes;
        std::vector<std::string_view> fields;
        Layout layout;
        const FirstRecord first = read_first_record(in, format, table.source, escapes, fields, first_line,
                                                    [&](const RecordReader &r) {
            layout = plan_layout(fields, roles, input.header, r, input.preset, &input.gold_col);
        });
        if (!first.found)
            throw CliError(kExitInput, table.source + ": the file is empty (expected `item worker label` lines, "
                                                      "or a header line naming the columns and then records)");
        table.preset = layout.preset;
        table.columns = layout.columns_note;
        if (layout.gold != kNoColumn) table.file_gold.source = table.source + " column " + quoted(layout.gold_name);
        // Without a header the first record is a label: start over at the top.
        const std::size_t start = layout.header ? first.after : first.begin;
        CrowdJob job(layout, input, table, in.size() - start);
        read_chunks(in, start, layout.header ? first.after_line : first_line, format, table.source, settings, job);
        if (layout.header && job.records == 0)
            input_error(table.source, layout.header_line,
                        "the file has a header line but no labels after it (expected one record per label)");

        const std::vector<int32_t> item_rank = id_order(job.items);
        const std::vector<int32_t> worker_rank = id_order(job.workers);
        std::vector<int32_t> label_map;
        switch (classes.kind) {
            case ClassSpec::Kind::Infer:
                label_map = inferred_class_order(job.labels.names());
                table.class_names = ordered_names(job.labels.names(), label_map);
                break;
            case ClassSpec::Kind::Count:
                label_map = counted_class_map(job.labels, classes, table.source, table.class_names);
                break;
            case ClassSpec::Kind::List:
                label_map = listed_class_map(job.labels, classes, table.source);
                table.class_names = classes.names;
                break;
        }
        if (table.worker.empty() && !part_of_file)
            throw CliError(kExitInput, table.source + ": no labels left after skipping " +
                                           std::to_string(table.skipped_rejected + table.skipped_no_answer) +
                                           " rows (" + std::to_string(table.skipped_rejected) + " rejected, " +
                                           std::to_string(table.skipped_no_answer) + " without an answer)" +
                                           (table.skipped_rejected > 0 ? "; --keep-rejected uses rejected ones" : ""));
        const std::size_t k = table.class_names.size();
        // Codes worker * k + label need k >= 2 and fit 32 bits (the library's limits);
        // otherwise the library's messages about the classes come from cs_fit.
        const bool group = input.grouped && !table.worker.empty() && k >= 2 &&
                           static_cast<uint64_t>(worker_rank.size()) * k <= UINT32_MAX;
        if (!group) {  // the compact columns, if any, as the triples' arrays
            if (job.compact.item_runs) job.spill_runs(table.worker.size());
            if (job.compact.label_bytes) job.spill_labels();
        }
        if (group) {
            number_grouped(table, job.compact, item_rank, worker_rank, label_map, settings.threads);
        } else {
            // The final numbering, in one parallel pass (string ids keep theirs).
            const bool items_same = is_identity(item_rank), workers_same = is_identity(worker_rank),
                       labels_same = is_identity(label_map);
            parallel_for(table.item.size(), settings.threads, [&](std::size_t lo, std::size_t hi) {
                for (std::size_t t = lo; t < hi; ++t) {
                    if (!items_same) table.item[t] = item_rank[static_cast<std::size_t>(table.item[t])];
                    if (!workers_same) table.worker[t] = worker_rank[static_cast<std::size_t>(table.worker[t])];
                    if (!labels_same) table.label[t] = label_map[static_cast<std::size_t>(table.label[t])];
                }
            });
        }
        table.item_names = ordered_names(job.items.names(), item_rank, settings.threads);
        table.worker_names = ordered_names(job.workers.names(), worker_rank, settings.threads);
    } catch (const std::bad_alloc &) {
        throw CliError(kExitInput, table.source + ": out of memory while reading the labels");
    }  // the interners end here
    return table;
}

}  // namespace

CrowdTable read_crowd_file(const std::string &path, const ClassSpec &classes, const InputOptions &input) {
    if (is_binary_label_file(path)) {  // `crowdspec convert` output: its triples, in item order
        CrowdTable binary = read_binary_crowd_file(path, classes);
        expand_binary_triples(binary, classes);
        return binary;
    }
    const ParseSettings settings = parse_settings(input.threads);
    InputBytes in(path, settings.chunk_bytes * (2 * settings.threads + 2));
    return read_crowd_input(in, settings, path, classes, input, 1, false);
}

CrowdTable read_crowd_text(std::string text, const std::string &path, const ClassSpec &classes,
                           const InputOptions &input, std::size_t first_line, bool part_of_file) {
    InputBytes in(std::move(text));
    return read_crowd_input(in, parse_settings(input.threads), path, classes, input, first_line, part_of_file);
}

std::string crowd_read_note(const CrowdTable &t) {
    std::string note;
    if (t.preset != Preset::Generic)
        note = t.source + " read by the " + preset_name(t.preset) + " preset (" + preset_title(t.preset) +
               "): " + t.columns;
    if (t.skipped_rejected > 0)
        note += (note.empty() ? "" : "; ") + std::string("skipped ") + std::to_string(t.skipped_rejected) +
                " rejected assignments (--keep-rejected uses them)";
    if (t.skipped_no_answer > 0)
        note += (note.empty() ? "" : "; ") + std::string("skipped ") + std::to_string(t.skipped_no_answer) +
                " rows without an answer";
    return note;
}

namespace {

// Reading the records of a truth or gold file: one label per item, identical repeats
// allowed. Serial, since a repeat names the line of the item's first entry.
struct TruthJob {
    const Layout &layout;
    TruthTable &truth;
    Interner seen;  // item -> its entry (ids are numbered in entry order)
    std::size_t records = 0;

    struct Local {
        std::vector<std::string_view> fields;
    };
    struct Chunk {
        void clear() {}
    };
    bool serial() const { return true; }

    void parse(RecordReader &reader, Chunk &, Local &local) {
        std::vector<std::string_view> &fields = local.fields;
        while (reader.next(fields)) {
            ++records;
            check_field_count(fields, layout, reader);
            const std::string_view item = fields[layout.columns[0]], label = fields[layout.columns[1]];
            if (item.empty() || label.empty())
                reader.fail(std::string("empty ") + (item.empty() ? "item id" : "label") + " (expected a value in column " +
                            std::to_string(layout.columns[item.empty() ? 0 : 1] + 1) + ")");
            const std::size_t e = static_cast<std::size_t>(seen.intern(item, reader.line()));
            if (e < truth.entries.size()) {
                const std::string &before = truth.entries[e].second;
                if (before != label)
                    reader.fail("item " + quoted(item) + " has label " + quoted(label) + " here but " + quoted(before) +
                                " on line " + std::to_string(truth.line[e]) + " (expected one label per item)");
                continue;  // an identical repeat (dog_truth.txt repeats every line)
            }
            truth.entries.emplace_back(std::string(item), std::string(label));
            truth.line.push_back(reader.line());
        }
    }
    void merge(Chunk &, std::size_t) {}
};

}  // namespace

TruthTable read_truth_file(const std::string &path, const InputOptions &input) {
    TruthTable truth;
    truth.source = display_name(path);
    ParseSettings settings = parse_settings(input.threads);
    settings.threads = 1;
    InputBytes in(path, settings.chunk_bytes * 4);
    complete_first_line(in);
    const std::vector<Role> roles = truth_roles(input);
    const TextFormat format =
        resolve_text_format(input.format, path, std::string_view(in.data(), in.size()), input.header,
                            [&](const std::vector<std::string_view> &fields) { return names_columns(fields, roles); });
    std::deque<std::string> escapes;
    std::vector<std::string_view> fields;
    Layout layout;
    const FirstRecord first = read_first_record(in, format, truth.source, escapes, fields, 1, [&](const RecordReader &r) {
        layout = plan_layout(fields, roles, input.header, r);
    });
    if (!first.found)
        throw CliError(kExitInput, truth.source + ": the file is empty (expected `item label` lines, or a header "
                                                  "line naming the columns and then records)");
    TruthJob job{layout, truth, Interner(), 0};
    read_chunks(in, layout.header ? first.after : first.begin, layout.header ? first.after_line : 1, format,
                truth.source, settings, job);
    if (layout.header && job.records == 0)
        input_error(truth.source, layout.header_line, "the file has a header line but no labels after it");
    return truth;
}

struct NameIndex::Exact {
    FlatIndex index;
    std::vector<std::string_view> views;
};

NameIndex::NameIndex(const std::vector<std::string> &names, bool numeric_fallback)
    : exact_(new Exact()), names_(names), numeric_fallback_(numeric_fallback) {
    exact_->views.reserve(names.size());
    for (std::size_t i = 0; i < names.size(); ++i) {
        const std::string_view v(names[i]);
        // A repeated name keeps its first index, as the map it replaces did.
        if (exact_->index.insert(v, hash_bytes(v), static_cast<int32_t>(exact_->views.size()), exact_->views) < 0)
            exact_->views.push_back(v);
        else
            exact_->views.push_back(std::string_view());
    }
}

NameIndex::~NameIndex() = default;

namespace {
// Digits only, no leading zero (but "0"), at most 15 of them (exact as a double): the
// one spelling of its value among such strings.
bool canonical_integer(std::string_view s) {
    if (s.empty() || s.size() > 15 || (s[0] == '0' && s.size() > 1)) return false;
    for (char c : s)
        if (c < '0' || c > '9') return false;
    return true;
}
}  // namespace

int32_t NameIndex::find(std::string_view name) const {
    const int32_t hit = exact_->index.find(name, hash_bytes(name), exact_->views);
    if (hit >= 0) return hit;
    if (!numeric_fallback_) return -1;
    if (!by_value_built_) {
        by_value_built_ = true;
        std::vector<std::pair<double, int32_t>> values;
        values.reserve(names_.size());
        canonical_names_ = true;
        for (std::size_t i = 0; i < names_.size(); ++i) {
            double v = 0.0;
            if (!parse_number(names_[i], v)) return -1;  // not all numeric: exact matches only
            values.emplace_back(v, static_cast<int32_t>(i));
            canonical_names_ = canonical_names_ && canonical_integer(names_[i]);
        }
        std::sort(values.begin(), values.end());
        // A value shared by two names ("7" and "07") is ambiguous; keep only unique ones.
        for (std::size_t i = 0; i < values.size(); ++i) {
            const bool dup_prev = i > 0 && values[i - 1].first == values[i].first;
            const bool dup_next = i + 1 < values.size() && values[i + 1].first == values[i].first;
            if (!dup_prev && !dup_next) by_value_.push_back(values[i]);
        }
    }
    // Among canonical integers, equal values are equal strings: the exact miss was
    // final (a truth file of millions of items absent from the crowd costs no search).
    if (canonical_names_ && canonical_integer(name)) return -1;
    double v = 0.0;
    if (by_value_.empty() || !parse_number(name, v)) return -1;
    auto pos = std::lower_bound(by_value_.begin(), by_value_.end(), std::make_pair(v, INT32_MIN));
    if (pos != by_value_.end() && pos->first == v) return pos->second;
    return -1;
}

std::vector<int32_t> map_label_strings(const std::vector<std::string> &labels,
                                       const std::vector<std::size_t> &first_line, const ClassSpec &classes,
                                       const std::string &source, std::vector<std::string> &class_names) {
    Interner interned;  // distinct strings: index i is labels[i]
    for (std::size_t i = 0; i < labels.size(); ++i) interned.intern(labels[i], first_line[i]);
    switch (classes.kind) {
        case ClassSpec::Kind::Count:
            return counted_class_map(interned, classes, source, class_names);
        case ClassSpec::Kind::List:
            class_names = classes.names;
            return listed_class_map(interned, classes, source);
        case ClassSpec::Kind::Infer:
        default: {
            std::vector<int32_t> map = inferred_class_order(interned.names());
            class_names = ordered_names(interned.names(), map);
            return map;
        }
    }
}

std::vector<int32_t> order_ids(const std::vector<std::string> &ids) {
    std::vector<std::string_view> names(ids.begin(), ids.end());
    return id_order(names);
}

void expand_grouped_triples(CrowdTable &table) {
    if (!table.grouped()) return;
    const std::size_t n = table.code_storage.size(), n_items = table.item_start.size() - 1;
    const uint32_t k = static_cast<uint32_t>(table.class_names.size());
    const uint32_t *const code = table.codes();
    table.item.resize(n);
    table.label.resize(n);
    for (std::size_t j = 0; j < n_items; ++j)
        std::fill(table.item.begin() + table.item_start[j], table.item.begin() + table.item_start[j + 1],
                  static_cast<int32_t>(j));
    for (std::size_t p = 0; p < n; ++p) table.label[p] = static_cast<int32_t>(code[p] % k);
    // The worker ids take the codes' place.
    int32_t *const worker = table.code_storage.data();
    for (std::size_t p = 0; p < n; ++p) worker[p] = static_cast<int32_t>(code[p] / k);
    table.worker = std::move(table.code_storage);
    std::vector<int64_t>().swap(table.item_start);
    std::vector<int32_t>().swap(table.code_storage);
}

void LineMap::push_run(std::size_t first, std::size_t count) {
    if (count == 0) return;
    const bool continues = !runs_.empty() && runs_.back().line + (size_ - runs_.back().index) == first;
    if (!continues) runs_.push_back({size_, first});
    size_ += count;
}

std::size_t LineMap::operator[](std::size_t t) const {
    auto it = std::upper_bound(runs_.begin(), runs_.end(), t, [](std::size_t v, const Run &r) { return v < r.index; });
    --it;  // runs_[0].index == 0 <= t
    return it->line + (t - it->index);
}

}  // namespace cli
