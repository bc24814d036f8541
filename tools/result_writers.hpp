// SPDX-License-Identifier: MIT
// The result files of `fit` (and `simulate`): per-item labels and posteriors, and
// per-worker accuracy and confusion matrices, as CSV, TSV or JSON.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "fitting.hpp"
#include "label_file.hpp"
#include "output.hpp"

namespace cli {

enum class ResultFormat { Csv, Tsv, Json };

/// The format of a result file: the explicit value (csv, tsv, json) if given, else by
/// the extension of `path` (.json, .tsv/.tab; anything else, and stdout, is CSV).
/// An unknown value is a usage error naming `option`.
ResultFormat result_format(const std::optional<std::string> &value, const std::string &path, const char *option);

/// One row per item: item, label, confidence (the largest posterior), then p_<class>
/// for every class (CSV/TSV); JSON: {"method", "classes", "items": [{"item", "label",
/// "confidence", "posterior": {class: p}}]}. Original ids and label strings.
void write_item_results(OutputFile &out, ResultFormat format, const CrowdTable &table, const FitOutcome &fit,
                        const std::string &method);

/// What the per-worker file shows.
struct WorkerReport {
    const std::vector<std::string> *worker_names = nullptr;
    const std::vector<std::string> *class_names = nullptr;
    std::vector<std::size_t> labels;                   ///< labels each worker gave
    const std::vector<double> *confusion = nullptr;    ///< workers x k (true) x k (observed)
    const std::vector<double> *prior = nullptr;        ///< k class probabilities
    const std::vector<std::string> *types = nullptr;   ///< optional per-worker type (simulate)
    std::string method;                                ///< "" when not a fit (simulate)
};

/// One row per worker: worker, labels, accuracy (= sum_l prior_l * pi[l][l]), [type,]
/// then pi_<true>_<observed> for every pair of classes (CSV/TSV); JSON: {"method",
/// "classes", "class_prior", "accuracy_definition", "workers": [{"worker", "labels",
/// "accuracy", ["type",] "confusion": [[row of true class 0], ...]}]}.
void write_worker_results(OutputFile &out, ResultFormat format, const WorkerReport &report);

}  // namespace cli
