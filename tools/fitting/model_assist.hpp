// SPDX-License-Identifier: MIT
// The command-line side of issue 34: a classifier's probabilities into the handle
// (--model-probs), and the scores and worker diagnostics out of it (--scores,
// --label-scores, the new --workers columns, the report).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "crowdspec/crowdspec.h"
#include "io/crowd_table.hpp"

namespace cli {

/// Reads FILE (io/model_probs_file.hpp), matches its items to the table's by id (as
/// --gold does) and its columns to the table's classes, and hands the rows to the
/// library (cs_set_model_probs). Items absent from the labels file are skipped;
/// returns the note for stderr. Throws CliError(kExitInput) on a class the table lacks,
/// or one of the table's classes without a column.
std::string apply_model_probs(cs_model *model, CrowdTable &table, const std::string &path);

/// The rows of a --model-probs FILE for items named `item_names` (ids their positions)
/// and classes `class_names`, in the library's class order; rows of other items are
/// counted in `absent` and left out (update, predict: the items of a saved model and a
/// batch).
struct ModelRowsRead {
    std::vector<int32_t> item;
    std::vector<double> probs;  ///< item.size() x k
    std::size_t absent = 0;
    std::string source;         ///< FILE as named in messages
};
ModelRowsRead read_model_rows(const std::string &path, const std::vector<std::string> &item_names,
                              const std::vector<std::string> &class_names, const std::string &labels_source);

/// The stderr note of rows read for `n_items` items of `where`.
std::string model_rows_note(const ModelRowsRead &rows, std::size_t n_items, const std::string &where);

/// The labels of a table (triples, grouped or binary), item by item where grouped.
struct LabelList {
    std::vector<int32_t> item, worker, label;
};
LabelList table_labels(const CrowdTable &table);

/// Per worker (cs_worker_diagnostics); empty vectors when the fit has none.
struct WorkerDiagnostics {
    std::vector<double> spammer, accuracy, low, high;
    std::vector<int32_t> worst_class;
};
WorkerDiagnostics fetch_worker_diagnostics(const cs_model *model, std::size_t n_workers);

/// Each item's label-next score (cs_label_next); empty when the fit has none.
std::vector<double> fetch_label_next(const cs_model *model, std::size_t n_items);

/// Each label's probability of being wrong (cs_label_wrong); empty when the fit has none.
std::vector<double> fetch_label_wrong(const cs_model *model, const LabelList &labels);

}  // namespace cli
