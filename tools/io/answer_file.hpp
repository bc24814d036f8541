// SPDX-License-Identifier: MIT
// Files of the answer kinds beside class labels (`crowdspec fit --answers tags|numbers`):
// one answer per row, the item, worker and answer columns found as for crowd files
// (io/column_layout.hpp: a header with the default names or --item-col/--worker-col/
// --label-col, platform exports, or `item worker answer` without a header).
//
// Numbers: the answer column holds a real number (`1.5`, `-3e2`); an empty or
// non-numeric cell is an error naming its line.
//
// Tags: a worker who answered an item and did not give tag t said "not t". Accepted:
// - one row per tag (rows of one (item, worker) are merged into one answer, in any
//   order of the rows);
// - a delimited list in one cell, `a|b|c` (--tag-delimiter, default `|`);
// - a row with an empty tag cell (or, without a header, only `item worker`): an answer
//   with no tag;
// - a JSON list in the cell, `["a", "b"]` (Toloka's checkbox-group OUTPUT value), or
//   Label Studio's `{"choices": ["a", "b"]}` (its CSV export of a multiple choice);
// - Toloka's multiple OUTPUT values: several OUTPUT:<tag> columns of true/false, each a
//   tag (ticked when true). Assignment statuses apply as for crowd files.
// JSON records and Label Studio's JSON export are read as the CSV table of their records
// (io/json_labels.hpp): a record's list value is a JSON list cell; a Label Studio
// answer's choices are its tags.
// Item and worker ids are numbered as for crowd files (ascending integers, else order
// of first appearance); tags numerically when every tag is a number, else in byte
// order (BinaryRelevance's sorted classes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "io/crowd_table.hpp"

namespace cli {

/// Answers read from a tags or numbers file, ids numbered.
struct AnswerTable {
    std::string source;
    std::vector<std::string> item_names, worker_names;  ///< by index
    std::vector<int32_t> item, worker;                  ///< per answer
    std::vector<std::size_t> line;                      ///< per answer: its (first) line
    std::vector<double> value;                          ///< numbers: per answer
    std::vector<std::string> tag_names;                 ///< tags: by index
    std::vector<int64_t> tag_start;                     ///< tags: answers + 1 offsets
    std::vector<int32_t> tag;                           ///< tags: each answer's, sorted
    std::size_t rows = 0;                               ///< data rows read
    std::size_t skipped = 0;                            ///< rows skipped by their status
    std::string columns_note;                           ///< "item 'x', worker 'y', tags 'z'"
};

/// Reads a numbers file ("-" = stdin). Throws CliError(kExitInput) naming the line.
AnswerTable read_number_file(const std::string &path, const InputOptions &input);

/// Reads a tags file; `delimiter` separates tags within a cell (a non-empty string).
/// Throws CliError(kExitInput) naming the line.
AnswerTable read_tag_file(const std::string &path, const InputOptions &input, const std::string &delimiter);

/// The same from text in memory (the fuzz targets): `path` names it in messages.
AnswerTable read_number_text(std::string text, const std::string &path, const InputOptions &input);
AnswerTable read_tag_text(std::string text, const std::string &path, const InputOptions &input,
                          const std::string &delimiter);

/// A truth file of tag sets: rows `item tags` (one per item with a delimited or JSON
/// list, or one per tag: rows of one item are merged; an empty cell, or a row with the
/// item alone, is the empty set). Columns by header names (item: task, item, question,
/// id; tags: the tags names above, truth, gold) or positions. Throws CliError(kExitInput).
std::vector<std::pair<std::string, std::vector<std::string>>> read_tag_truth(const std::string &path,
                                                                             const InputOptions &input,
                                                                             const std::string &delimiter);

/// Splits one tag cell into tags (the forms above); empty pieces are dropped. Throws
/// std::invalid_argument with a message for a malformed JSON list.
std::vector<std::string> split_tag_cell(std::string_view cell, const std::string &delimiter);

}  // namespace cli
