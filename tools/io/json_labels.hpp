// SPDX-License-Identifier: MIT
// Crowd, truth and gold files given as JSON, brought to the one table the text readers
// take (io/label_file.hpp): a header of column names, then one record per line. So
// JSON files get every column rule, platform preset, option and message of CSV files.
//
// Accepted (the layout is told by the first record):
// - JSON records (an array of objects) or JSON lines (one object per line), as
//   `crowdspec fit --output x.json/x.jsonl` writes and pandas' to_json(orient=
//   "records"[, lines=True]) writes: each key is a column; keys a record lacks are
//   empty there; strings are used as they are, numbers as written, true/false as
//   those words, null as empty, and a nested array or object as its JSON text.
// - fit's --format json-nested document ({"method", "classes", "items": [records]}):
//   its items as records.
// - Label Studio's JSON export (an array of tasks with "annotations"; also one task
//   object, or tasks as JSON lines): one record per annotation with the columns id (the
//   task's), annotator (completed_by: a user id, or the user object's email, else its
//   id), annotation_id, and one column per Choices or Rating control (named by the
//   result's from_name) holding the chosen value. A cancelled annotation
//   (was_cancelled) or one without that control's result has an empty choice, so the
//   labelstudio preset skips it as a row without an answer; two choices in one answer
//   (a multi-choice control) are an input error, except in a tags file, where the
//   cell holds the choices' JSON list. Predictions, drafts and other result
//   types (regions, text areas) are ignored. Label Studio's JSON-MIN export is flat
//   records and is read as such.
//
// Records are converted one at a time (a file is never held as a tree): 10^6 labels
// as JSON lines read in 1.6 s and 117 MB against 0.37 s and 42 MB as CSV.
//
// Line numbers: when the records start on distinct, increasing lines (JSON lines, a
// pretty-printed array, fit's output) and no value holds a line break, each record of
// the table sits on its JSON line, so messages and notes name the JSON file's lines.
// Otherwise (a minified array) records are numbered 1, 2, ... and messages say
// "record N" (annotation N for Label Studio).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "common/errors.hpp"
#include "io/crowd_table.hpp"

namespace cli {

/// Whether an input starts like JSON: '[' or '{' after an optional UTF-8 byte order
/// mark and blanks.
bool looks_like_json(std::string_view head);

/// A JSON file as a CSV table (RFC 4180, every value quoted).
struct JsonTable {
    std::string csv;             ///< header line, then records (blank lines pad them to their JSON lines)
    std::size_t first_line = 1;  ///< line number to give csv's first line (the header)
    bool by_record = false;      ///< lines are record numbers, not the JSON file's lines
    const char *unit = "record"; ///< what a by_record number counts ("record", "annotation")
    std::string layout;          ///< "json", "jsonl" or "labelstudio-json", for notes
};

/// Converts JSON `text` (read from `source`, for messages). Throws CliError(kExitInput)
/// "SOURCE:LINE: what" for malformed JSON, a record that is not an object, a Label
/// Studio answer with several choices, and a file without records.
/// With `choice_lists` (tags files), a Label Studio answer's choices are one cell
/// holding their JSON list (`["a", "b"]`) instead of the one choice.
JsonTable json_as_table(std::string_view text, const std::string &source, bool choice_lists = false);

/// An error met while reading `table` as CSV, with its place told in the JSON file's
/// terms: "SOURCE:H: what" for the header line becomes "SOURCE: the JSON keys as
/// columns: what", and with by_record "SOURCE:N: what" becomes "SOURCE: record N: what".
CliError json_error(const CliError &e, const std::string &source, const JsonTable &table);

/// `input` for reading a JsonTable's CSV: the CSV format, a header line.
InputOptions json_csv_options(const InputOptions &input);

/// Converts JSON `text` (from `source`) and returns read(table); a CliError that read
/// throws is rethrown in the JSON file's terms (json_error).
template <class Read>
auto read_json_as_table(std::string_view text, const std::string &source, Read read, bool choice_lists = false) {
    const JsonTable json = json_as_table(text, source, choice_lists);
    try {
        return read(json);
    } catch (const CliError &e) {
        throw json_error(e, source, json);
    }
}

}  // namespace cli
