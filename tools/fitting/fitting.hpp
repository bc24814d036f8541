// SPDX-License-Identifier: MIT
// What `fit` and `evaluate` share: the fitting options, turning them into a configured
// library handle, running a timed fit and explaining failures.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/options.hpp"
#include "crowdspec/crowdspec.h"
#include "io/crowd_table.hpp"
#include "io/fit_outcome.hpp"

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

/// The fitting options common to fit, evaluate and report.
struct FitSettings {
    std::string method = "auto";
    ClassSpec classes;
    std::vector<ParamSetting> params;  ///< in command-line order
    bool quiet = false;                ///< --quiet: no progress line, no notes on stderr
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
/// The methods of a --method value: one name, a comma-separated list (mv,ds,opt-ds),
/// or `all` (every crowd method the library reports through cs_method_count and
/// cs_method_at, in its order). An unknown name, an empty entry, a repeated method or
/// `all` inside a list is a usage error.
std::vector<int32_t> method_list(const std::string &value);
/// Every method the library provides, in its order.
std::vector<int32_t> all_methods();
/// "mv, ds, opt-ds, crowd-lloyd".
std::string known_methods_text();

/// "Methods (--method NAME):" and one line per crowd method: its name and
/// cs_method_summary(), in the library's order.
std::string methods_help();

/// A new handle for `method` with every setting applied through
/// cs_set_param_string, so the library validates them; a rejected value is a usage
/// error quoting the library's message. Throws CliError.
ModelPtr make_model(int32_t method, const FitSettings &settings);

/// Watches a fit through the library's progress callback (cs_set_progress): stops it
/// when SIGINT/SIGTERM arrived (see interrupt.hpp), and, when stderr is a terminal and
/// not --quiet, shows a progress line (iteration, objective, elapsed seconds) once the
/// fit has run for a second, erased when the fit ends. Never writes into pipes/files.
class FitMonitor {
public:
    explicit FitMonitor(bool quiet);
    FitMonitor(const FitMonitor &) = delete;
    FitMonitor &operator=(const FitMonitor &) = delete;

    /// Installs the callback on `model` and starts the clock for `method_name`.
    void begin(cs_model *model, const std::string &method_name);
    /// Erases the progress line, if one was shown.
    void end() noexcept;

private:
    static int32_t callback(void *self, int32_t iteration, double objective) noexcept;

    bool show_;
    std::string method_;
    double start_ = 0.0;       // steady-clock seconds at begin()
    double last_shown_ = 0.0;  // when the line was last redrawn
    std::size_t shown_width_ = 0;
    int runs_ = 0;               // runs seen: a fall of the objective starts the next
    double last_objective_ = 0.0;
};

/// Runs cs_fit on the table and returns its wall time in seconds (cs_fit alone).
/// With a monitor, shows progress and turns a Ctrl-C into the interrupted error.
/// On failure throws CliError(kExitFit) with the library's message, translated back
/// to file lines where possible (duplicates) and with a hint where one helps.
double timed_fit(cs_model *model, const CrowdTable &table, const std::string &method_name,
                 FitMonitor *monitor = nullptr);

/// A table read grouped by item (CrowdTable::grouped()) is fitted through cs_fit_csr,
/// which reports everything cs_fit on its triples would, in the same words, unless
/// the model declares the items or workers (--param items=, workers=; its ids are then
/// checked against them with messages naming label indices) or there are more than
/// CS_MAX_CROWD_CLASSES classes: then the table is turned back into triples
/// (expand_grouped_triples). Call before timed_fit.
void ungroup_for_fit(const cs_model *model, CrowdTable &table);

/// The message for a worker's second label on an item: "SOURCE:LINE: worker 'w' labels
/// item 'i' again (first on line FIRST); use --duplicates first or ... last ...".
std::string repeated_label_message(const std::string &source, std::size_t line, std::string_view worker,
                                   std::string_view item, std::size_t first_line);
/// "FILE:LINE: worker 'w' labels item 'i' again (first on line N); use --duplicates
/// ..." for the first repeated (item, worker) pair of the table, or "" when there is
/// none or the table carries no line numbers (the demo's simulated crowd).
std::string duplicate_message(const CrowdTable &table);

/// The library's message with its 0-based item numbers ("item 17": the word item, a
/// blank and digits, a whole word) given as the table's item names ("item 'T-17'"), as
/// the Python binding's DataFrame estimators name them by task; numbers beyond the names
/// are left as they are.
std::string name_items_in_note(std::string_view message, const std::vector<std::string> &item_names);

/// Prints the library's explanation of a successful fit's notes to stderr, if any; with
/// `item_names`, the items it names by number are named by name_items_in_note.
void report_fit_notes(const cs_model *model, const std::string &method_name,
                      const std::vector<std::string> *item_names = nullptr);

/// Gold labels matched to the crowd's items and classes (crowd indices).
struct MatchedGold {
    std::vector<int32_t> item, label;
    std::vector<std::size_t> line;  ///< line of each, in `file`
    std::vector<std::string> file;  ///< the file each came from (for messages)
    std::size_t absent = 0;         ///< gold entries whose item is not in the crowd (ignored)
    std::string sources;            ///< where they came from, for notes ("gold.txt", ...)
};

/// Matches gold entries to the crowd; `file` is the file their line numbers refer to
/// (the crowd file for its in-file gold). Items absent from the crowd are counted and
/// skipped; a gold label that is not one of the classes is an input error naming its
/// line and the classes.
MatchedGold match_gold(const CrowdTable &table, const TruthTable &gold, const std::string &file);

/// The gold of a fit: the crowd file's in-file gold column (table.file_gold) and the
/// --gold file at `path` (when given, read like a truth file). An item with two
/// different gold labels is an input error naming both places.
MatchedGold gold_for_fit(const CrowdTable &table, const std::optional<std::string> &path, const InputOptions &input);

/// Pins matched gold items with cs_set_gold (nothing when there is none) and returns
/// the note for stderr ("pinned 3 gold items from gold.txt; ..."), or "".
std::string pin_gold(cs_model *model, const CrowdTable &table, const MatchedGold &gold);

/// gold_for_fit() then pin_gold().
std::string apply_gold(cs_model *model, const CrowdTable &table, const std::optional<std::string> &path,
                       const InputOptions &input);

/// Copies every result of a fitted model; checks that its sizes match the table.
/// Throws CliError(kExitFit).
FitOutcome fetch_outcome(const cs_model *model, const CrowdTable &table);

/// Number of labels each worker gave in the table.
std::vector<std::size_t> labels_per_worker(const CrowdTable &table);

/// Names of the bits of cs_fit_notes(), e.g. {"max_iter_reached"} (unknown bits as
/// "other_<n>").
std::vector<std::string> note_names(int32_t notes);
/// Appends `,"notes":[...]` (note_names) to a JSON object under construction.
void append_notes(std::string &json, int32_t notes);

/// Fetches a fitted model's results; throws CliError(kExitFit) if the library refuses.
std::vector<int32_t> fitted_labels(const cs_model *model, std::size_t n_items);
std::vector<double> fitted_posteriors(const cs_model *model, std::size_t n_items, std::size_t k);

/// Throws CliError(kExitFit) quoting cs_last_error when status is not CS_OK.
void check_status(const cs_model *model, cs_status status, const std::string &what);

}  // namespace cli
