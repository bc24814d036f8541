// SPDX-License-Identifier: MIT
// Reading crowd-label files and truth/gold files as text, in any of the formats of
// table_reader.hpp, with their arbitrary string ids and labels mapped to the library's
// 0-based indices (io/id_mapping.hpp). A crowd file that may also be a binary label
// file is read by io/crowd_input.hpp.
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
// - JSON (records, JSON lines, fit's own JSON output, Label Studio's JSON export) is
//   recognised by its first character and read as the table io/json_labels.hpp makes
//   of it, by the rules above.
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
#include <string>

#include "io/crowd_table.hpp"
#include "io/id_mapping.hpp"

namespace cli {

/// Reads crowd labels from text already in memory: `text` is the file's content, `path`
/// names it for the format rules and messages. With `part_of_file` (crowdspec-mpi),
/// `text` is a part of a file whose first line is line `first_line`, and a part whose
/// rows were all skipped (rejected, without an answer) gives a table without labels,
/// not an error. Throws CliError(kExitInput) as read_crowd_file (io/crowd_input.hpp).
CrowdTable read_crowd_text(std::string text, const std::string &path, const ClassSpec &classes,
                           const InputOptions &input = InputOptions(), std::size_t first_line = 1,
                           bool part_of_file = false);

/// Reads a crowd file ("-" = stdin) as text (read_crowd_file, io/crowd_input.hpp, also
/// recognises binary label files).
CrowdTable read_crowd_text_file(const std::string &path, const ClassSpec &classes,
                                const InputOptions &input = InputOptions());

/// Reads a truth file of `item label` lines, or a table with a header whose item and
/// label columns are found as for crowd files: --gold-item-col/--gold-label-col, else
/// --item-col/--label-col when the header has that column, else a platform's rules
/// (Toloka INPUT:* and GOLDEN:*/OUTPUT:*, MTurk HITId and Answer.*, Label Studio id and
/// its choice column), else the names (the label column also answers to truth, gold,
/// golden, true_label, ground_truth, correct). Repeated identical entries are accepted;
/// two different labels for one item are an error. Throws CliError(kExitInput).
TruthTable read_truth_file(const std::string &path, const InputOptions &input = InputOptions());

}  // namespace cli
