// SPDX-License-Identifier: MIT
// `--model-probs FILE`: a classifier's class probabilities, one row per item (issue 34).
// CSV or TSV (by extension, else a tab in the header makes TSV) with a header line:
// the first column the item id, then one column per class named by the class (as in
// the labels file) or p_<class> (as `fit` writes them). Values are probabilities
// (finite, >= 0, not all 0; each row is normalised by the library).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace cli {

struct ModelProbsFile {
    std::string source;                   ///< the path as named in messages
    std::vector<std::string> classes;     ///< the class of each value column (p_ dropped)
    std::vector<std::string> items;       ///< the item id of each row
    std::vector<std::size_t> lines;       ///< the line of each row
    std::vector<double> values;           ///< rows x classes.size()
};

/// Reads FILE; throws CliError(kExitInput) "FILE:LINE: ..." on a malformed file.
ModelProbsFile read_model_probs_file(const std::string &path);

}  // namespace cli
