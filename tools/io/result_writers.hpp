// SPDX-License-Identifier: MIT
// The result files of `fit` (and `simulate`): per-item labels and posteriors, and
// per-worker accuracy and confusion matrices, as CSV, TSV or JSON.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "io/crowd_table.hpp"
#include "io/fit_outcome.hpp"
#include "io/output.hpp"

namespace cli {

/// Layouts of a result file. Json is an array of flat records (one object per row,
/// the CSV columns as keys: pandas.read_json loads it), Jsonl one such object per line
/// (pandas.read_json(..., lines=True)); JsonNested is the earlier nested document.
enum class ResultFormat { Csv, Tsv, Json, Jsonl, JsonNested };

/// The format of a result file: the explicit value (csv, tsv, json, jsonl,
/// json-nested) if given, else by the extension of `path` (.json; .jsonl or .ndjson;
/// .tsv or .tab; anything else, and stdout, is CSV). An unknown value is a usage error
/// naming `option`.
ResultFormat result_format(const std::optional<std::string> &value, const std::string &path, const char *option);

/// Rows of named fields, written as CSV/TSV (a header line, then one line per row) or
/// as JSON records / JSON lines (one object per row, keys = the column names). Fields
/// are given in column order; numbers that are not finite are written as empty CSV
/// fields and JSON null. Output is flushed in large chunks. Not for JsonNested.
class RecordWriter {
public:
    RecordWriter(OutputFile &out, ResultFormat format, std::vector<std::string> columns);
    /// A writer of rows first_row, first_row + 1, ... into memory only (no header, no
    /// JSON brackets): take() hands the text over. Several of these format the parts
    /// of one file in parallel, to be written in order.
    RecordWriter(ResultFormat format, std::vector<std::string> columns, std::size_t first_row);
    RecordWriter(const RecordWriter &) = delete;
    RecordWriter &operator=(const RecordWriter &) = delete;

    /// The next field of the current row: a string.
    void text(std::string_view value);
    /// The next field: a number printed with `format` (one double conversion).
    void number(double value, const char *format = "%.10g");
    /// The next field: a number printed as number()'s default "%.10g", its text kept for
    /// repeat_kept_number().
    void kept_number(double value);
    /// The next field: the text of this row's kept_number() again (a value equal to it
    /// bit for bit prints the same, so it is copied, not converted again). Only after a
    /// kept_number() in the current row.
    void repeat_kept_number();
    /// The next field: an integer.
    void integer(long long value);
    /// Ends the current row (it must have one field per column).
    void end_row();
    /// Writes what is left (for JSON, the closing bracket). Call once, after the last row.
    void finish();
    /// The memory-only writer's text so far (it is emptied).
    std::string take();
    /// Writes text formatted elsewhere (`rows` rows of a memory-only writer whose
    /// first_row was the number of rows so far) at this point.
    void write_raw(std::string_view text, std::size_t rows);

private:
    void begin_field();
    // A number's text after begin_field(): an empty field for a non-finite value in
    // CSV/TSV, "null" in JSON.
    void append_value(double value, const char *format);

    OutputFile *out_;
    ResultFormat format_;
    std::vector<std::string> columns_;
    std::string buf_;
    std::size_t field_ = 0, rows_ = 0;
    std::size_t kept_begin_ = 0, kept_end_ = 0;  // kept_number()'s text in buf_
};

/// One row per item: item, label, confidence (the largest posterior), then p_<class>
/// for every class (CSV/TSV, and the keys of the JSON records); JsonNested: {"method",
/// "classes", "items": [{"item", "label", "confidence", "posterior": {class: p}}]}.
/// Original ids and label strings. Rows are formatted by `threads` threads (0 = every
/// core) in blocks and written in order: the file is the same for any thread count.
void write_item_results(OutputFile &out, ResultFormat format, const CrowdTable &table, const FitOutcome &fit,
                        const std::string &method, std::size_t threads = 0);

/// The json-nested items document up to its first item: {"method": ..., "classes":
/// [...], "items": [ (the items follow, then "\n]}\n").
std::string nested_items_opening(const std::string &method, const std::vector<std::string> &classes);

/// Appends one item of the json-nested layout, {"item", "label", "confidence",
/// "posterior": {class: p}}, for `label` and the k = classes.size() posteriors at
/// `posterior` (the caller writes the separators).
void append_nested_item(std::string &out, std::string_view item, const std::vector<std::string> &classes,
                        int32_t label, const double *posterior);

/// What the per-worker file shows.
struct WorkerReport {
    const std::vector<std::string> *worker_names = nullptr;
    const std::vector<std::string> *class_names = nullptr;
    std::vector<std::size_t> labels;                   ///< labels each worker gave
    const std::vector<double> *confusion = nullptr;    ///< workers x k (true) x k (observed)
    const std::vector<double> *prior = nullptr;        ///< k class probabilities
    const std::vector<std::string> *types = nullptr;   ///< optional per-worker type (simulate)
    std::string method;                                ///< "" when not a fit (simulate)
    /// The fit's calibration (cs_calibration): with `calibrated`, written as the columns
    /// calibration_temperature and calibration_mixing (json-nested: "calibration"), so
    /// that predict applies it to a new batch as the fit did.
    bool calibrated = false;
    double temperature = 1.0, mixing = 0.0;
    /// Optional diagnostics (cs_worker_diagnostics), appended as the columns spammer,
    /// worst_class (a class name, "" for none), label_accuracy, label_accuracy_low and
    /// label_accuracy_high (json-nested: keys of each worker).
    const std::vector<double> *spammer = nullptr;
    const std::vector<int32_t> *worst_class = nullptr;
    const std::vector<double> *label_accuracy = nullptr;
    const std::vector<double> *label_accuracy_low = nullptr;
    const std::vector<double> *label_accuracy_high = nullptr;
};

/// One row per worker: worker, labels, accuracy (= sum_l prior_l * pi[l][l]), [type,]
/// then pi_<true>_<observed> for every pair of classes, then prior_<class> for every
/// class (the class prior, repeated on every row), then, for a calibrated fit,
/// calibration_temperature and calibration_mixing (the same on every row) (CSV/TSV, and the keys of the JSON
/// records; read back by read_worker_file()); JsonNested: {"method", "classes", "class_prior",
/// "accuracy_definition", "workers": [{"worker", "labels", "accuracy", ["type",]
/// "confusion": [[row of true class 0], ...]}]}.
/// Formatted in parallel like write_item_results.
void write_worker_results(OutputFile &out, ResultFormat format, const WorkerReport &report,
                          std::size_t threads = 0);

/// --scores: one row per item, item, label, confidence, label_next, the highest
/// label_next first (an empty `label_next` writes the header only). CSV/TSV/JSON by the
/// extension of the file, as write_item_results.
void write_item_scores(OutputFile &out, const CrowdTable &table, const FitOutcome &fit,
                       const std::vector<double> &label_next);

/// --label-scores: one row per label, item, worker, label, p_wrong, the highest first.
void write_label_scores(OutputFile &out, const CrowdTable &table, const std::vector<int32_t> &item,
                        const std::vector<int32_t> &worker, const std::vector<int32_t> &label,
                        const std::vector<double> &p_wrong);

}  // namespace cli
