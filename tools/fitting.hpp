// What `fit` and `evaluate` share: the fitting options, turning them into a configured
// library handle, running a timed fit and explaining failures.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cli.hpp"
#include "crowdspec/crowdspec.h"
#include "label_file.hpp"

namespace cli {

/// Frees a handle with cs_destroy, so a ModelPtr never leaks on an error path.
struct ModelDeleter {
    void operator()(cs_model *model) const noexcept { cs_destroy(model); }
};
using ModelPtr = std::unique_ptr<cs_model, ModelDeleter>;

/// One library parameter to set by name, with the option it came from (for messages).
struct ParamSetting {
    std::string option;  ///< e.g. "--tol"
    std::string name;    ///< library name, e.g. "tol"
    std::string value;   ///< text, validated by the library
};

/// The fitting options common to fit and evaluate.
struct FitSettings {
    std::string method = "opt-ds";
    ClassSpec classes;
    std::vector<ParamSetting> params;  ///< in command-line order
};

/// The options that FitSettings understands (to combine with a command's own).
std::vector<OptionSpec> fit_option_specs();

/// Help text describing those options (it lists the library's methods), the mapping
/// rules and the exit codes.
std::string fit_options_help();
extern const char kMappingHelp[];
extern const char kExitCodesHelp[];

/// Collects FitSettings from parsed options. Throws CliError(kExitUsage).
FitSettings fit_settings_from(const ParsedArgs &args);

/// Method id for a name; an unknown name is a usage error that lists the known ones.
int32_t method_id(const std::string &name);
/// Every method the library provides, in its order.
std::vector<int32_t> all_methods();
/// "mv, ds, opt-ds, crowd-lloyd".
std::string known_methods_text();

/// A new handle for `method` with every setting applied through
/// cs_set_param_string, so the library validates them; a rejected value is a usage
/// error quoting the library's message. Throws CliError.
ModelPtr make_model(int32_t method, const FitSettings &settings);

/// Runs cs_fit on the table and returns its wall time in seconds (cs_fit alone).
/// On failure throws CliError(kExitFit) with the library's message, translated back
/// to file lines where possible (duplicates) and with a hint where one helps.
double timed_fit(cs_model *model, const CrowdTable &table, const std::string &method_name);

/// Prints the library's explanation of a successful fit's notes to stderr, if any.
void report_fit_notes(const cs_model *model, const std::string &method_name);

/// Names of the bits of cs_fit_notes(), e.g. {"max_iter_reached"}.
std::vector<std::string> note_names(int32_t notes);

/// Fetches a fitted model's results; throws CliError(kExitFit) if the library refuses.
std::vector<int32_t> fitted_labels(const cs_model *model, std::size_t n_items);
std::vector<double> fitted_posteriors(const cs_model *model, std::size_t n_items, std::size_t k);

/// Throws CliError(kExitFit) quoting cs_last_error when status is not CS_OK.
void check_status(const cs_model *model, cs_status status, const std::string &what);

}  // namespace cli
