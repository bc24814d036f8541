// SPDX-License-Identifier: MIT
#include "io/id_mapping.hpp"

#include <algorithm>
#include <climits>
#include <mutex>
#include <unordered_map>

#include "common/errors.hpp"
#include "io/text_values.hpp"

namespace cli {

namespace {
std::string quoted(std::string_view s) { return quote_field(s); }
}  // namespace

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
                                       std::size_t threads) {
    std::vector<std::string> out(names.size());
    parallel_for(names.size(), threads, [&](std::size_t lo, std::size_t hi) {
        for (std::size_t i = lo; i < hi; ++i) out[static_cast<std::size_t>(rank[i])].assign(names[i].data(), names[i].size());
    });
    return out;
}

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

}  // namespace cli
