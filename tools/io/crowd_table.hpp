// SPDX-License-Identifier: MIT
// The crowd labels as the command-line programs hold them once read (CrowdTable:
// triples, labels grouped by item, or a mapped binary file), the truth/gold tables,
// and the options that say how input files are read (--classes, the input options).
// The readers are io/label_file.hpp (text), io/binary_labels.hpp (binary) and
// io/crowd_input.hpp (either).
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
#include <utility>
#include <vector>

#include "common/options.hpp"
#include "io/export_presets.hpp"
#include "io/table_reader.hpp"

namespace cli {

class BinaryLabels;  // io/binary_labels.hpp

/// The first bytes of a binary label file (docs/binary-format.md): its readers check
/// them, and the text reader refuses such a file on a pipe.
extern const unsigned char kBinaryMagic[8];

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

}  // namespace cli
