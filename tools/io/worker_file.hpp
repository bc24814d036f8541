// SPDX-License-Identifier: MIT
// Reading back the per-worker file that `crowdspec fit --workers` writes, for
// `fit --init-workers` (a warm start) and `predict --workers` (labelling a new batch
// with known workers).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "io/label_file.hpp"

namespace cli {

/// The workers, classes, confusion matrices and (when the file has it) class prior
/// of a workers file.
struct WorkerFile {
    std::string source;                     ///< the file's name, for messages
    std::string layout;                     ///< "csv", "tsv", "json", "jsonl" or "json-nested"
    std::vector<std::string> worker_names;  ///< in file order (index = row)
    std::vector<std::string> class_names;   ///< in the file's class order
    std::vector<double> confusion;          ///< workers x k (true) x k (observed), as written
    std::vector<double> prior;              ///< k values, or empty when the file has no prior
    bool calibrated = false;                ///< the file gives the fit's calibration
    double temperature = 1.0, mixing = 0.0; ///< calibration_temperature, calibration_mixing
};

/// Reads a workers file in any layout `fit --workers` writes:
/// - CSV or TSV with a header: `worker`, then any columns, the k x k columns
///   pi_<true>_<observed> and, when present, the k columns prior_<class> (the same
///   values on every row), and the fit's calibration_temperature and
///   calibration_mixing when present. The classes are named by the prior_ columns, else by the
///   diagonal pi_<c>_<c> columns of a k x k block in row-major order.
/// - JSON records ([{...}, ...]) or JSON lines (one object per line) with the same keys.
/// - The nested JSON document (`--workers-format json-nested`): "classes",
///   "class_prior", "calibration": {"temperature", "mixing"} (optional) and "workers":
///   [{"worker", "confusion": [[...], ...]}].
/// The layout is told by the first non-blank character ('[' or '{': JSON) and for
/// delimited text by the extension (.tsv/.tab) or a tab in the header line.
/// Other columns (labels, accuracy, type) are ignored. Throws CliError(kExitInput)
/// "FILE:LINE: what" on an unreadable file, a missing worker or pi_ column, classes
/// that cannot be told apart, a repeated worker, a value that is not a finite number
/// >= 0, prior columns that differ between rows, or a file with no workers.
WorkerFile read_worker_file(const std::string &path);

/// The workers file's classes as a --classes list (Kind::List, in the file's order),
/// so that a crowd file read with it has exactly those classes and a label outside
/// them is an input error naming the workers file.
ClassSpec worker_file_classes(const WorkerFile &wf);

/// For each of `classes` (a crowd file's), the index of the same class in the workers
/// file. Both must be the same set: a class of one that the other lacks is
/// CliError(kExitInput) naming it, the two files and `hint`.
std::vector<std::size_t> match_worker_classes(const WorkerFile &wf, const std::vector<std::string> &classes,
                                              const std::string &data_source, const std::string &hint);

/// "cat, dog, bird" (at most 20 names, then ", ..."), for messages.
std::string class_list_text(const std::vector<std::string> &names);

}  // namespace cli
