// SPDX-License-Identifier: MIT
// The names behind a saved model's integer ids, as the CLI keeps them in the model's
// user data (cs_set_user_data): its items, workers and classes, so that `predict
// --model` and `update --model` match a new batch's ids to the model's by name.
//
// Format (docs/saved-models.md, "The CLI's names"): the 8 bytes "CSNAMES1", then three
// lists -- items, workers, classes -- each a little-endian uint64 count followed by
// that many names, each a uint64 length and its bytes.
#pragma once

#include <string>
#include <vector>

namespace cli {

struct ModelNames {
    std::vector<std::string> items, workers, classes;
};

/// The user-data bytes of the names.
std::string encode_model_names(const ModelNames &names);

/// Reads them back; throws CliError(kExitInput) naming `source` when the bytes are not
/// names written by encode_model_names (a model saved by another program).
ModelNames decode_model_names(const std::string &bytes, const std::string &source);

}  // namespace cli
