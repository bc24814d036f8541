// SPDX-License-Identifier: MIT
// From the strings of a file to the library's 0-based indices: the order of item and
// worker ids (ascending integers when every id is one, else first appearance), the
// class order (--classes, numeric or byte order), the final numbering of a table read
// grouped by item, and looking names up among a table's (truth and gold files).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "io/crowd_table.hpp"
#include "io/id_interner.hpp"

namespace cli {

/// Item and worker order: rank[i] is the index of names[i] (distinct, in order of first
/// appearance): ascending integers when every id is an integer, else the identity.
std::vector<int32_t> id_order(const std::vector<std::string_view> &names);
/// The same for a whole file's ids (one pass over the by-value table when every id is
/// a canonical small integer).
std::vector<int32_t> id_order(const Interner &ids);
/// Whether map[i] == i for every i.
bool is_identity(const std::vector<int32_t> &map);
/// Class order without --classes: numeric when every label is a number, else bytes.
std::vector<int32_t> inferred_class_order(const std::vector<std::string_view> &names);
/// --classes K: each distinct label's class; class_names gets "1".."K" (or "0".."K-1").
std::vector<int32_t> counted_class_map(const Interner &labels, const ClassSpec &spec, const std::string &source,
                                       std::vector<std::string> &class_names);
/// --classes A,B,C: each distinct label's position in the list; another label is an error.
std::vector<int32_t> listed_class_map(const Interner &labels, const ClassSpec &spec, const std::string &source);
/// Names in final index order, copied out of the file buffer; `threads` share the copying.
std::vector<std::string> ordered_names(const std::vector<std::string_view> &names, const std::vector<int32_t> &rank,
                                       std::size_t threads = 1);

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

/// The final numbering of a table read with InputOptions::grouped (see id_mapping.cpp).
void number_grouped(CrowdTable &table, CompactColumns &cc, const std::vector<int32_t> &item_rank,
                    const std::vector<int32_t> &worker_rank, const std::vector<int32_t> &label_map,
                    std::size_t threads);

/// The classes of a crowd file from its distinct label strings, by read_crowd_file's
/// rules for `classes` (see Mapping rules): map[i] is the class of labels[i], and
/// class_names receives the classes in order. first_line[i] is where labels[i] first
/// appears in `source` (for messages). For readers that see a file in parts
/// (crowdspec-mpi). Throws CliError(kExitInput).
std::vector<int32_t> map_label_strings(const std::vector<std::string> &labels,
                                       const std::vector<std::size_t> &first_line, const ClassSpec &classes,
                                       const std::string &source, std::vector<std::string> &class_names);

/// The order of item or worker ids of read_crowd_file: rank[i] is the index of ids[i]
/// (distinct, listed in order of first appearance): ascending numeric order when every
/// id is an integer, else the order given.
std::vector<int32_t> order_ids(const std::vector<std::string> &ids);

/// The order of item or worker ids of read_crowd_file: rank[i] is the index of ids[i]
/// (distinct, listed in order of first appearance): ascending numeric order when every
/// id is an integer, else the order given.
std::vector<int32_t> order_ids(const std::vector<std::string> &ids);

/// Looks strings up among a list of names: exact match first; when every name and the
/// query are numbers, a numerically equal name also matches (truth "1.0" finds class
/// "1"). Used to find truth items and truth labels among the crowd's.
class NameIndex {
public:
    /// The names must outlive the index (it keeps views of them).
    explicit NameIndex(const std::vector<std::string> &names, bool numeric_fallback);
    ~NameIndex();
    NameIndex(const NameIndex &) = delete;
    NameIndex &operator=(const NameIndex &) = delete;
    /// Index of the name, or -1 when it is not there.
    int32_t find(std::string_view name) const;

private:
    struct Exact;
    std::unique_ptr<Exact> exact_;  // a FlatIndex over views of the names
    const std::vector<std::string> &names_;
    bool numeric_fallback_;
    // The numeric values, sorted, built at the first exact miss (a truth file whose
    // ids match exactly never pays for parsing millions of numbers).
    mutable bool by_value_built_ = false;
    mutable bool canonical_names_ = false;  // every name is a canonical integer
    mutable std::vector<std::pair<double, int32_t>> by_value_;  // empty when not numeric
};

}  // namespace cli
