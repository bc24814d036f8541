// SPDX-License-Identifier: MIT
// The annotation platforms' own export files, recognised by their header line: which
// columns hold the item, the worker, the label, an in-file gold label and an
// assignment status, for Toloka (assignments TSV), Amazon Mechanical Turk (batch
// results CSV) and Label Studio (CSV export). Pure functions of the header fields;
// label_file.cpp applies them (and falls back to the generic column names).
//
// Rules (also in kPresetHelp, `crowdspec fit --help` and crowdspec(1)):
// - toloka: item = the one `INPUT:*` column; worker = `ASSIGNMENT:worker_id`; label =
//   the one `OUTPUT:*` column; gold = `GOLDEN:<name>` for label `OUTPUT:<name>`;
//   status = `ASSIGNMENT:status` (REJECTED skipped unless --keep-rejected; SKIPPED,
//   EXPIRED and ACTIVE assignments have no answer and are skipped).
// - mturk: item = `HITId`; worker = `WorkerId`; label = the one `Answer.*` column, or
//   with a radio-button template (one boolean `Answer.<option>.on` column per option)
//   the option whose column is true (none true: no answer, skipped; two: an error);
//   status = `AssignmentStatus` (Rejected skipped unless --keep-rejected).
// - labelstudio: item = `id` (the task id; else the one data-like column); worker =
//   `annotator`; label = the choice column: of the columns that are not Label Studio's
//   own (id, annotator, annotation_id, created_at, updated_at, lead_time, agreement),
//   the one with a choice-like name (choice, choices, label, labels, class, category,
//   sentiment, answer, rating, result), else the one without a data-like name (image,
//   text, audio, video, html, url, pdf, ...). Rows with an empty choice are skipped.
// - Detection (--preset auto): a column starting with INPUT:, OUTPUT:, GOLDEN: or
//   ASSIGNMENT: is Toloka; a HITId column, or WorkerId with an Answer.* column, is
//   MTurk; annotator with annotation_id is Label Studio; anything else is generic.
// When a rule finds several candidate columns, the error names them and the option
// that chooses one.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "io/table_reader.hpp"

namespace cli {

/// A platform's export layout (the --preset option).
enum class Preset { Auto, Generic, Toloka, MTurk, LabelStudio };

/// Parses a --preset value (auto, generic, toloka, mturk, labelstudio); anything else is
/// a usage error listing them.
Preset parse_preset(const std::string &value);

/// The option value naming a preset ("toloka", ...).
const char *preset_name(Preset preset);

/// The platform's name for messages ("Toloka", "Amazon Mechanical Turk", ...).
const char *preset_title(Preset preset);

/// The platform whose export `header` looks like (the detection rule above); Generic
/// when none.
Preset detect_preset(const std::vector<std::string_view> &header);

/// Whether some field of a first record is a column only a platform export has (an
/// INPUT:/OUTPUT:/GOLDEN:/ASSIGNMENT: or Answer. prefix, HITId, annotation_id): such a
/// record is a header line.
bool has_export_column(const std::vector<std::string_view> &fields);

/// "No column" in ExportColumns.
inline constexpr std::size_t kNoColumn = static_cast<std::size_t>(-1);

/// MTurk's radio-button answers: one Answer.<option>.on column per option.
struct RadioChoices {
    std::vector<std::size_t> columns;  ///< positions of the Answer.<option>.on columns
    std::vector<std::string> options;  ///< <option> of each: the label when its column is true
    std::vector<std::string> headers;  ///< the column names, for messages
};

/// Column positions (0-based) of one file's roles; kNoColumn when absent or open.
struct ExportColumns {
    Preset preset = Preset::Generic;
    std::size_t item = kNoColumn, worker = kNoColumn, label = kNoColumn;
    std::size_t gold = kNoColumn;    ///< in-file gold label (crowd files)
    std::size_t status = kNoColumn;  ///< assignment status (crowd files)
    RadioChoices radio;              ///< MTurk radio buttons (label is then the first of them)
};

/// What a file holds: crowd labels, or one true label per item (gold and truth files).
enum class FileKind { Crowd, Truth };

/// The option names that choose a role's column, for messages.
struct RoleOptions {
    const char *item = "--item-col";
    const char *worker = "--worker-col";
    const char *label = "--label-col";
    const char *gold = "--gold-col";
};

/// The columns `preset` (Auto: detected from the header; Generic chooses nothing)
/// proposes for the roles that `fixed` leaves open (kNoColumn); columns already in
/// `fixed` are kept and never proposed for another role. The gold column is proposed
/// only when `want_gold`. A rule that finds several candidates stops with
/// reader.fail() naming them and the option from `options`; a rule that finds none
/// leaves the role open (the generic names then apply).
ExportColumns export_columns(const std::vector<std::string_view> &header, Preset preset, FileKind kind,
                             const ExportColumns &fixed, bool want_gold, const RoleOptions &options,
                             const RecordReader &reader);

/// What `preset`'s rule looks for in the `role` ("item", "worker", "label") column, for
/// messages ("an INPUT:* column", "HITId", ...); "" for Generic.
std::string expected_column(Preset preset, FileKind kind, std::string_view role);

/// The label of a record of a radio-button export: the option whose column is true
/// (true/1/yes/on/x; false/0/no/off or empty is false, case-insensitive); empty when
/// none is (a row without an answer). Two true options, or another value, stop with
/// reader.fail() naming the columns.
std::string_view radio_label(const std::vector<std::string_view> &fields, const RadioChoices &radio,
                             const RecordReader &reader);

/// What an assignment status means for its row.
enum class RowStatus {
    Keep,      ///< an answer to use
    Rejected,  ///< rejected by the requester: skipped unless --keep-rejected
    NoAnswer   ///< skipped, expired or still active: no answer to use
};

/// The meaning of a status value in `preset`'s export (case-insensitive). Unknown
/// values are kept.
RowStatus classify_status(Preset preset, std::string_view value);

/// The --preset part of the input help (the rules above, with a 3-line example each).
extern const char kPresetHelp[];

}  // namespace cli
