// SPDX-License-Identifier: MIT
// Reading crowd-label files and truth/gold files, in any of the formats of
// table_reader.hpp, and mapping their arbitrary string ids and labels to the
// library's 0-based indices.
//
// Columns (also printed by `crowdspec fit --help`, kInputHelp):
// - With a header line, the item, worker and label columns are found by name:
//   --item-col/--worker-col/--label-col NAME (case-insensitive; a number is a 1-based
//   column position), or by default the first of these names present: item: task,
//   item, question; worker: worker, annotator, user, performer; label: label, answer,
//   response, output (a name also matches with an _id/id suffix and a "prefix:" or
//   "prefix." in front, e.g. ASSIGNMENT:worker_id, WorkerId). Other columns are ignored;
//   every record must have as many fields as the header.
// - Without one, lines are `item worker label` (exactly 3 fields), or the columns are
//   the positions given by --item-col etc.
// - With --header auto the first record is a header if a field names a column (one of
//   the names above, a platform export's column, or a name given by an option).
// - Platform exports (Toloka, MTurk, Label Studio; export_presets.hpp) are recognised
//   by their header or forced with --preset: their rules choose the columns the
//   options leave open, then the names above apply. They may carry an in-file gold
//   column and an assignment status (rejected assignments are skipped by default).
//
// Mapping rules:
// - Items and workers, separately: if every id is an integer, indices follow ascending
//   numeric order (rank among the distinct ids); otherwise order of first appearance.
//   Ids are compared as exact strings ("7" and "07" are different ids).
// - Classes (no --classes): sorted numerically if every label is a decimal number, else
//   by byte order. --classes K: integer labels in 1..K map to K classes 1..K, else in
//   0..K-1 to classes 0..K-1. --classes A,B,C: exactly these classes in this order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "cli.hpp"
#include "export_presets.hpp"
#include "table_reader.hpp"

namespace cli {

class BinaryLabels;  // binary_labels.hpp

/// How the set of classes is chosen (the --classes option).
struct ClassSpec {
    enum class Kind { Infer, Count, List };
    Kind kind = Kind::Infer;
    int32_t count = 0;               ///< Kind::Count: K
    std::vector<std::string> names;  ///< Kind::List: the classes in order
    std::string text;                ///< the option's text, for messages
    std::string origin;              ///< Kind::List from a file (a workers file): its name, for messages
};

/// Parses the --classes value: an integer K >= 2, or a comma-separated list of
/// distinct non-empty names. Throws CliError(kExitUsage).
ClassSpec parse_class_spec(const std::string &text);

/// How input files are read: format, header and column choice (the input options).
struct InputOptions {
    TextFormat format = TextFormat::Auto;
    HeaderMode header = HeaderMode::Auto;
    std::string item_col, worker_col, label_col;  ///< "" = recognise by the default names
    Preset preset = Preset::Auto;                 ///< --preset: platform rules for the crowd file
    std::string gold_col;                         ///< --gold-col: in-file gold column, "none", "" = by preset
    std::string gold_item_col, gold_label_col;    ///< --gold-item-col/--gold-label-col (gold and truth files)
    bool keep_rejected = false;                   ///< --keep-rejected: use rejected assignments too
    std::size_t threads = 0;                      ///< parsing threads (--threads; 0 = every core)
    /// Labels grouped by item (CrowdTable::item_start and codes(), for cs_fit_csr)
    /// instead of triples, when the file lists its items in index order; else triples.
    bool grouped = false;
};

/// The input options, their help text and parsing from the command line.
std::vector<OptionSpec> input_option_specs();
extern const char kInputHelp[];
InputOptions input_options_from(const ParsedArgs &args);

/// Ground truth (or gold): one label per item, in order of first appearance.
struct TruthTable {
    std::string source;
    std::vector<std::pair<std::string, std::string>> entries;  ///< (item id, label)
    std::vector<std::size_t> line;                             ///< line of each entry
};

/// The source line of every triple, stored as runs of consecutive lines (a file of
/// one record per line is one run), so that it costs almost nothing per label.
class LineMap {
public:
    /// The next triple is on `line`.
    void push_back(std::size_t line) { push_run(line, 1); }
    /// The next `count` triples are on lines first, first + 1, ...
    void push_run(std::size_t first, std::size_t count);
    /// Number of triples.
    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    /// Line of triple t (t < size()).
    std::size_t operator[](std::size_t t) const;
    void reserve(std::size_t) {}  ///< nothing to reserve (kept for vector-like use)

private:
    struct Run {
        std::size_t index, line;  // the run's first triple and its line
    };
    std::vector<Run> runs_;
    std::size_t size_ = 0;
};

/// Crowd labels with every id mapped to a 0-based index.
struct CrowdTable {
    std::string source;                     ///< file name for messages ("<stdin>" for -)
    std::string format;                     ///< the format it was read as ("csv", ...)
    std::vector<std::string> item_names;    ///< index -> original item id
    std::vector<std::string> worker_names;  ///< index -> original worker id
    std::vector<std::string> class_names;   ///< index -> label string
    std::vector<int32_t> item, worker, label;  ///< the triples, in file order
    LineMap line;                              ///< 1-based source line of each triple
    Preset preset = Preset::Generic;           ///< the rules the file was read by
    std::string columns;                       ///< "item 'INPUT:image', worker ..." ("" without a header)
    TruthTable file_gold;                      ///< in-file gold labels (no entries when none)
    std::size_t skipped_rejected = 0;          ///< rejected assignments skipped
    std::size_t skipped_no_answer = 0;         ///< rows without an answer skipped (status, empty choice)
    /// A binary label file (binary_labels.hpp) whose labels are used in place: then
    /// item, worker, label and line are empty and fits go through cs_fit_csr.
    std::shared_ptr<const BinaryLabels> binary;
    /// Labels grouped by item, as cs_fit_csr() takes them (read with
    /// InputOptions::grouped from a file whose items come in index order): item j's
    /// labels are codes()[item_start[j]] .. codes()[item_start[j + 1] - 1], each
    /// worker * k + label with k = class_names.size(), in file order, so that position
    /// p is the file's triple p (line[p] is its line). Then item, worker and label are
    /// empty. Empty otherwise.
    std::vector<int64_t> item_start;
    std::vector<int32_t> code_storage;  ///< the codes' bits (codes() views them as uint32)
    bool grouped() const { return !item_start.empty(); }
    /// The grouped codes (code_storage read as the unsigned type it holds).
    const uint32_t *codes() const { return reinterpret_cast<const uint32_t *>(code_storage.data()); }
    /// Number of labels, whichever way they are held (binary tables excepted).
    std::size_t n_labels() const { return grouped() ? code_storage.size() : item.size(); }
};

/// The triples of a grouped table (CrowdTable::grouped()), in file order: fills item,
/// worker and label and drops the grouping (no-op for another table).
void expand_grouped_triples(CrowdTable &table);

/// One line for stderr saying how a platform export was read (the preset, its columns,
/// the in-file gold and the rows skipped), or "" for a generic file with nothing skipped.
std::string crowd_read_note(const CrowdTable &table);

/// Reads a crowd file ("-" = stdin). A binary label file (`crowdspec convert`) is
/// recognised by its magic bytes and read into triples (commands that fit it in place
/// call read_binary_crowd_file instead). Throws CliError(kExitInput) naming the file and
/// line of the first problem (unreadable file, wrong field count, unknown column,
/// label outside --classes, no labels at all).
CrowdTable read_crowd_file(const std::string &path, const ClassSpec &classes,
                           const InputOptions &input = InputOptions());

/// The same for text already in memory: `text` is the file's content, `path` names it
/// for the format rules and messages. With `part_of_file` (crowdspec-mpi), `text` is a
/// part of a file whose first line is line `first_line`, and a part whose rows were all
/// skipped (rejected, without an answer) gives a table without labels, not an error.
CrowdTable read_crowd_text(std::string text, const std::string &path, const ClassSpec &classes,
                           const InputOptions &input = InputOptions(), std::size_t first_line = 1,
                           bool part_of_file = false);

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

/// Reads a truth file of `item label` lines, or a table with a header whose item and
/// label columns are found as for crowd files: --gold-item-col/--gold-label-col, else
/// --item-col/--label-col when the header has that column, else a platform's rules
/// (Toloka INPUT:* and GOLDEN:*/OUTPUT:*, MTurk HITId and Answer.*, Label Studio id and
/// its choice column), else the names (the label column also answers to truth, gold,
/// golden, true_label, ground_truth, correct). Repeated identical entries are accepted;
/// two different labels for one item are an error. Throws CliError(kExitInput).
TruthTable read_truth_file(const std::string &path, const InputOptions &input = InputOptions());

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
