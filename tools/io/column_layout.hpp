// SPDX-License-Identifier: MIT
// Which field of a record is the item, the worker, the label (internal to the text
// readers of io/): the header recognised by names (the defaults, the --*-col options,
// a platform export's columns), or positions without a header; the layout every
// record is then checked against; and the first record, read before the layout is
// known.
#pragma once

#include <cstddef>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "io/crowd_table.hpp"
#include "io/export_presets.hpp"
#include "io/parallel_reader.hpp"
#include "io/table_reader.hpp"

namespace cli {



// The default column names of each role (case-insensitive, see column_word).
extern const std::vector<std::string> kItemWords, kWorkerWords, kLabelWords, kTruthWords, kTruthItemWords;

/// Whether two views are equal ignoring ASCII case. Header matching compares views and
/// never copies a field: a first line may be one field of a gigabyte.
bool iequals(std::string_view a, std::string_view b);
/// A header name reduced to the word it stands for (compare it with iequals): without a
/// "prefix:" or "prefix." (Toloka's ASSIGNMENT:worker_id, MTurk's Answer.label) and
/// without an "_id"/"-id"/" id"/"id" suffix (task_id, WorkerId).
std::string_view column_word(std::string_view s);
/// A whole positive decimal of at most 9 digits (a 1-based column number).
bool positive_integer(const std::string &s, std::size_t &value);
/// The header's columns for messages, e.g. "'task', 'worker', 'label'" (at most 12).
std::string column_list(const std::vector<std::string_view> &header);
/// "a, b or c".
std::string word_list(const std::vector<std::string> &words);

// One column to find: its role, the option that names it, and the default names.
struct Role {
    const char *what;    // "item", "worker", "label"
    const char *option;  // "--item-col"
    std::string given;   // the option's value, "" when not given
    const std::vector<std::string> *words;
    std::size_t default_position;  // 0-based column without a header
    bool given_optional;  // truth/gold: a given name absent from the header falls back to the defaults
};


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
    RadioChoices radio;                // MTurk radio buttons: the label is the option that is true
    std::string columns_note;          // "item 'x', worker 'y', label 'z'" for notes
};





/// The layout of a file from its first record: the header's columns (options, then a
/// platform's rules, then the default names) or positions. `gold_col` is the --gold-col
/// value for crowd files ("" = by the preset, "none" = no in-file gold); truth files
/// pass nullptr. Problems are reported through reader.fail().
Layout plan_layout(const std::vector<std::string_view> &first, const std::vector<Role> &roles, HeaderMode mode,
                   const RecordReader &reader, Preset preset = Preset::Auto, const std::string *gold_col = nullptr);
/// Checks a record's field count against the layout, with a hint at the usual cause.
void check_field_count(const std::vector<std::string_view> &fields, const Layout &layout, const RecordReader &reader);

// The first record of a file, read before its layout is known: the window grows until
// the record is whole (a stream), a problem is reported with its line. `fields` may
// point into `escapes`.
struct FirstRecord {
    std::size_t begin = 0;       // where records start (after a BOM)
    std::size_t after = 0;       // offset after the first record
    std::size_t after_line = 1;  // line there
    bool found = false;
};


/// The window of a stream grows until it holds a whole first non-blank line (or all of
/// the input), so that sniffing the format sees that line entirely.
void complete_first_line(InputBytes &in);

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

/// The roles of a crowd file's columns (item, worker, label) under the input options.
std::vector<Role> crowd_roles(const InputOptions &in);
/// The roles of a truth or gold file's columns (item, label).
std::vector<Role> truth_roles(const InputOptions &in);

}  // namespace cli
