// SPDX-License-Identifier: MIT
// Saved models for the CLI (`fit --save`, `predict --model`, `update --model`): the
// library's saved model (cs_save_buffer / cs_load) with the CLI's names as its user
// data (io/model_names.hpp).
#pragma once

#include <string>

#include "fitting/fitting.hpp"
#include "io/model_names.hpp"
#include "io/output.hpp"

namespace cli {

/// Writes the handle's saved model, with `names` as its user data, to `out` (the
/// caller commits it, so that a model file is replaced only with the other outputs).
/// Throws CliError(kExitFit) when the library cannot save the fit.
void write_saved_model(cs_model *model, const ModelNames &names, OutputFile &out);

/// A handle loaded from the model file at `path`, and its names. A file that is not a
/// model, is truncated or corrupt, or comes from a newer format is CliError(kExitInput)
/// with the library's explanation.
ModelPtr load_saved_model(const std::string &path, ModelNames &names);

/// Refuses (CliError(kExitUsage)) a method whose fit cannot be saved, before any file
/// is read: the library saves the Dawid-Skene family only (docs/saved-models.md).
void require_saveable_method(const std::string &method);

/// Applies the command line's library parameters (--param, --threads, --duplicates, ...;
/// not the method) to a loaded model, as make_model does to a new one. Throws
/// CliError(kExitUsage) quoting the library's message.
void apply_settings(cs_model *model, const FitSettings &settings);

}  // namespace cli
