// SPDX-License-Identifier: MIT
#include "fitting/fitting.hpp"

#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <new>
#include <string_view>
#include <unordered_map>

#include "common/interrupt.hpp"
#include "io/binary_labels.hpp"
#include "io/id_mapping.hpp"
#include "io/label_file.hpp"
#include "io/output.hpp"

#if defined(_WIN32)
#include <io.h>
#define CS_CLI_ISATTY _isatty
#define CS_CLI_FILENO _fileno
#else
#include <unistd.h>
#define CS_CLI_ISATTY isatty
#define CS_CLI_FILENO fileno
#endif

namespace cli {

namespace {

// The library's current default of a parameter as text, read with cs_param_info so
// the help never disagrees with the library; enumerated values are shown by name.
std::string library_default(const char *name) {
    struct EnumName {
        const char *param;
        int value;
        const char *name;
    };
    static const EnumName kEnumNames[] = {
        {"prior", CS_PRIOR_UNIFORM, "uniform"},         {"prior", CS_PRIOR_ESTIMATED, "estimated"},
        {"confusion", CS_CONFUSION_FULL, "full"},       {"confusion", CS_CONFUSION_ONE_COIN, "one-coin"},
        {"confusion", CS_CONFUSION_CLASS_ONE_COIN, "class-one-coin"},
        {"duplicates", CS_DUPLICATES_REJECT, "reject"}, {"duplicates", CS_DUPLICATES_KEEP_FIRST, "first"},
        {"duplicates", CS_DUPLICATES_KEEP_LAST, "last"}};
    int32_t id = 0;
    double value = 0.0;
    int32_t is_integer = 0;
    if (cs_param_from_name(name, &id) != CS_OK || cs_param_info(id, nullptr, nullptr, &value, &is_integer) != CS_OK)
        return "?";
    for (const EnumName &e : kEnumNames)
        if (std::string_view(e.param) == name && static_cast<double>(e.value) == value) return e.name;
    if (std::string_view(name) == "method") {  // the registry's name, never a number
        const char *method = cs_method_name(static_cast<int32_t>(value));
        return method != nullptr ? method : "?";
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, is_integer ? "%.0f" : "%g", value);
    return buf;
}

}  // namespace

std::string fit_options_help() {
    return "Fitting options (defaults are the library's):\n"
           "  -m, --method NAME       inference method (default " + library_default("method") + "): one of the\n"
           "                          library's methods, listed below\n"
           "      --classes K|A,B,..  number of classes K, or the classes in order (see below)\n"
           "      --seed N            seed of every random choice (default " + library_default("seed") + ")\n"
           "      --max-iter N        maximum EM rounds / Lloyd iterations (default " + library_default("max_iter") + ")\n"
           "      --tol X             stop when the relative log-likelihood change is below X\n"
           "                          (default " + library_default("tol") + "); --tol 0 --max-iter N runs exactly N rounds\n"
           "      --prior uniform|estimated        class prior (default " + library_default("prior") + ")\n"
           "      --confusion full|one-coin|class-one-coin   confusion model (default " + library_default("confusion") + ")\n"
           "      --duplicates reject|first|last   a worker labelling an item twice (default " + library_default("duplicates") + ")\n"
           "      --threads N         threads used inside a fit; 0 = automatic (default " + library_default("threads") + ")\n"
           "      --param NAME=VALUE  set any other library parameter (e.g. smoothing=0.5,\n"
           "                          delta=1e-6, power_starts=100); repeatable\n"
           "      --ordinal           the classes are grades in their order (numeric labels\n"
           "                          sort numerically, or --classes A,B,C): fit writes each\n"
           "                          item's posterior median_grade and mean_grade, evaluate\n"
           "                          adds the mean absolute error in grades. The ordinal\n"
           "                          methods (ordinal-minimax, ordinal-ds) always do\n"
           "  -q, --quiet             no progress line and no notes on stderr (errors still are)\n"
           "Progress: a fit running longer than a second shows `iteration, log-likelihood,\n"
           "elapsed` on one stderr line, only when stderr is a terminal; iterations count\n"
           "across opt-ds's starts, and `(start N)` tells which one runs. Ctrl-C (SIGINT) or\n"
           "SIGTERM stops the fit cleanly: no output file is written or changed, exit 130/143.\n"
           "\n" + methods_help() + "\n"
           "Input options:\n"
           "      --input-format auto|csv|tsv|whitespace\n"
           "                          how fields are separated (default auto, see below)\n"
           "      --header auto|yes|no  whether the first line names the columns (default auto)\n"
           "      --item-col NAME, --worker-col NAME, --label-col NAME\n"
           "                          the columns to use (a name in the header, or a 1-based\n"
           "                          number); default: recognised by name, see below\n"
           "      --preset auto|generic|toloka|mturk|labelstudio\n"
           "                          the platform whose export FILE is (default auto: by its\n"
           "                          header); its rules choose the columns, see below\n"
           "      --keep-rejected     also use assignments the platform marks rejected\n"
           "      --gold-col NAME|none  the column of FILE holding known true labels (default:\n"
           "                          Toloka's GOLDEN:<name>); none ignores in-file gold\n"
           "      --gold-item-col NAME, --gold-label-col NAME\n"
           "                          the item and label columns of gold and truth files\n";
}

const char kMappingHelp[] =
    "Ids and labels may be any strings. Mapping to the library's 0-based indices:\n"
    "  items, workers  if every id is an integer: ascending numeric order (rank among the\n"
    "                  distinct ids, so ids 1..m become 0..m-1); otherwise order of first\n"
    "                  appearance. Ids are matched as exact strings.\n"
    "  classes         sorted numerically if every label is a number, else by byte order.\n"
    "  --classes K     K classes; integer labels in 1..K map to classes 1..K, else labels\n"
    "                  in 0..K-1 to classes 0..K-1 (a class nobody chose still exists);\n"
    "                  anything else is an error.\n"
    "  --classes A,B,C exactly these classes in this order; another label is an error.\n";

const char kExitCodesHelp[] =
    "Exit codes: 0 success; 1 usage error (unknown option, missing or invalid option\n"
    "value); 2 input error (unreadable file, malformed line, unknown column, label outside\n"
    "--classes, bad truth or gold file); 3 fit error (the library refused the data, the\n"
    "fit failed or ran out of memory); 4 output error (cannot create or write an output\n"
    "file, or an existing one is write-protected); 130 interrupted by SIGINT (Ctrl-C),\n"
    "and 143 by SIGTERM (128 + the signal number). Every error is one line on stderr,\n"
    "`crowdspec: FILE:LINE: what was expected` for input problems; on any error no output\n"
    "file is created or changed.\n";

std::vector<OptionSpec> fit_option_specs() {
    return {{"method", true, 'm'},     {"classes", true, '\0'},    {"seed", true, '\0'},
            {"max-iter", true, '\0'},  {"tol", true, '\0'},        {"prior", true, '\0'},
            {"confusion", true, '\0'}, {"duplicates", true, '\0'}, {"threads", true, '\0'},
            {"param", true, '\0'},    {"quiet", false, 'q'},      {"ordinal", false, '\0'}};
}

FitSettings fit_settings_from(const ParsedArgs &args) {
    // Options that map one-to-one onto a library parameter of the same meaning.
    static const std::pair<const char *, const char *> kDirect[] = {
        {"seed", "seed"},       {"max-iter", "max_iter"},     {"tol", "tol"},
        {"prior", "prior"},     {"confusion", "confusion"},   {"duplicates", "duplicates"},
        {"threads", "threads"}};
    FitSettings s;
    s.quiet = args.has("quiet");
    if (args.has("ordinal")) s.params.push_back({"--ordinal", "ordinal", "1"});
    if (auto m = args.last("method")) s.method = *m;
    if (auto c = args.last("classes")) {
        s.classes = parse_class_spec(*c);
        s.params.push_back({"--classes", "classes", std::to_string(s.classes.count)});
    }
    for (const auto &[option, value] : args.options) {
        for (const auto &[opt, name] : kDirect)
            if (option == opt) s.params.push_back({"--" + option, name, value});
        if (option != "param") continue;
        const std::size_t eq = value.find('=');
        if (eq == std::string::npos || eq == 0)
            throw CliError(kExitUsage, "--param '" + value + "': expected NAME=VALUE");
        const std::string name = value.substr(0, eq);
        // These would break the id mapping or duplicate a dedicated option.
        if (name == "method" || name == "classes")
            throw CliError(kExitUsage, "--param " + name + ": use --" + name + " instead");
        if (name == "items" || name == "workers")
            throw CliError(kExitUsage, "--param " + name + ": items and workers are counted from the input file");
        s.params.push_back({"--param " + name, name, value.substr(eq + 1)});
    }
    return s;
}

std::vector<int32_t> all_methods() {
    std::vector<int32_t> ids;
    const int32_t n = cs_method_count();
    for (int32_t i = 0; i < n; ++i) {
        const int32_t id = cs_method_at(i);
        if (id != 0 && cs_method_name(id) != nullptr && cs_method_input(id) == CS_INPUT_CROWD) ids.push_back(id);
    }
    return ids;
}

std::string known_methods_text() {
    std::string text;
    for (int32_t id : all_methods()) {
        if (!text.empty()) text += ", ";
        text += cs_method_name(id);
    }
    return text;
}

std::string methods_help() {
    std::string text = "Methods (--method NAME):\n";
    for (int32_t id : all_methods()) {
        const char *summary = cs_method_summary(id);
        char line[512];
        std::snprintf(line, sizeof line, "  %-19s %s\n", cs_method_name(id), summary ? summary : "");
        text += line;
    }
    return text;
}

std::vector<int32_t> method_list(const std::string &value) {
    if (value == "all") return all_methods();
    std::vector<int32_t> ids;
    std::size_t start = 0;
    for (;;) {
        const std::size_t comma = value.find(',', start);
        const std::string name = value.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (name.empty())
            throw CliError(kExitUsage, "--method " + quote_field(value) + ": empty method name in the list");
        if (name == "all")
            throw CliError(kExitUsage, "--method " + quote_field(value) + ": all is every method; it cannot be part of a list");
        const int32_t id = method_id(name);
        for (int32_t seen : ids)
            if (seen == id) throw CliError(kExitUsage, "--method " + quote_field(value) + ": " + name + " is listed twice");
        if (cs_method_input(id) != CS_INPUT_CROWD)
            throw CliError(kExitUsage, "--method " + name + ": not a crowd-label method; known methods: " + known_methods_text());
        ids.push_back(id);
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return ids;
}

int32_t method_id(const std::string &name) {
    int32_t id = 0;
    if (cs_method_from_name(name.c_str(), &id) != CS_OK)
        throw CliError(kExitUsage, "unknown method '" + name + "'; known methods: " + known_methods_text());
    return id;
}

ModelPtr make_model(int32_t method, const FitSettings &settings) {
    ModelPtr model(cs_create());
    if (!model) throw CliError(kExitFit, "out of memory creating a model");
    if (cs_set_int(model.get(), CS_PARAM_METHOD, method) != CS_OK)
        throw CliError(kExitUsage, std::string("method: ") + cs_last_error(model.get()));
    for (const ParamSetting &p : settings.params) {
        if (cs_set_param_string(model.get(), p.name.c_str(), p.value.c_str()) != CS_OK)
            throw CliError(kExitUsage, p.option + " " + p.value + ": " + cs_last_error(model.get()));
    }
    return model;
}

// The library names duplicates by triple index; we find the first repeated
// (item, worker) pair in file order ourselves to name both lines of the file.
std::string repeated_label_message(const std::string &source, std::size_t line, std::string_view worker,
                                   std::string_view item, std::size_t first_line) {
    return source + ":" + std::to_string(line) + ": worker " + quote_field(worker) + " labels item " +
           quote_field(item) + " again (first on line " + std::to_string(first_line) +
           "); use --duplicates first or --duplicates last to keep one";
}

std::string duplicate_message(const CrowdTable &table) {
    if (table.grouped()) {
        // Position p is the file's triple p, and a repeated pair lies within one item:
        // the first position whose worker was already seen on its item is the first
        // repeat in file order, and that worker's earlier position there its first label.
        if (table.line.size() != table.code_storage.size()) return std::string();
        const uint32_t k = static_cast<uint32_t>(table.class_names.size());
        const uint32_t *code = table.codes();
        std::vector<int64_t> seen_item(table.worker_names.size(), -1), seen_at(table.worker_names.size(), 0);
        for (std::size_t j = 0; j + 1 < table.item_start.size(); ++j)
            for (int64_t p = table.item_start[j]; p < table.item_start[j + 1]; ++p) {
                const std::size_t w = code[p] / k;
                if (seen_item[w] != static_cast<int64_t>(j)) {
                    seen_item[w] = static_cast<int64_t>(j);
                    seen_at[w] = p;
                    continue;
                }
                return table.source + ":" + std::to_string(table.line[static_cast<std::size_t>(p)]) + ": worker " +
                       quote_field(table.worker_names[w]) + " labels item " + quote_field(table.item_names[j]) +
                       " again (first on line " + std::to_string(table.line[static_cast<std::size_t>(seen_at[w])]) +
                       "); use --duplicates first or --duplicates last to keep one";
            }
        return std::string();
    }
    if (table.line.size() != table.item.size()) return std::string();
    std::unordered_map<uint64_t, std::size_t> first;  // (item, worker) -> triple index
    first.reserve(table.item.size());
    for (std::size_t t = 0; t < table.item.size(); ++t) {
        const uint64_t key = (static_cast<uint64_t>(static_cast<uint32_t>(table.item[t])) << 32) |
                             static_cast<uint32_t>(table.worker[t]);
        auto [it, inserted] = first.emplace(key, t);
        if (!inserted)
            return repeated_label_message(table.source, table.line[t],
                                          table.worker_names[static_cast<std::size_t>(table.worker[t])],
                                          table.item_names[static_cast<std::size_t>(table.item[t])],
                                          table.line[it->second]);
    }
    return std::string();
}

namespace {

double now_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

FitMonitor::FitMonitor(bool quiet) : show_(!quiet && CS_CLI_ISATTY(CS_CLI_FILENO(stderr)) != 0) {}

void FitMonitor::begin(cs_model *model, const std::string &method_name) {
    method_ = method_name;
    start_ = now_seconds();
    last_shown_ = 0.0;
    shown_width_ = 0;
    runs_ = 0;
    last_objective_ = 0.0;
    cs_set_progress(model, &FitMonitor::callback, this);
}

void FitMonitor::end() noexcept {
    if (shown_width_ == 0) return;
    // Blank the line and return to its start, so that what follows begins clean.
    std::fprintf(stderr, "\r%*s\r", static_cast<int>(shown_width_), "");
    std::fflush(stderr);
    shown_width_ = 0;
}

int32_t FitMonitor::callback(void *self, int32_t iteration, double objective) noexcept {
    FitMonitor &m = *static_cast<FitMonitor *>(self);
    if (pending_interrupt() != 0) return 1;  // the library stops with CS_ERR_CANCELLED
    if (!m.show_) return 0;
    // The library counts rounds across the starts of opt-ds (and mace, kmeans++), while
    // the objective is that of the start running: EM's objective never falls within
    // one run, so for a method with several starts a fall (beyond 1e-6 relative: not
    // rounding, nor SQUAREM's safeguarded steps) means a new start began, and the line
    // says which run it is. Single-run methods never show a start.
    const bool several = m.method_ == "opt-ds" || m.method_ == "mace";
    if (several && m.runs_ > 0 && objective < m.last_objective_ - 1e-6 * std::fabs(m.last_objective_)) ++m.runs_;
    if (m.runs_ == 0) m.runs_ = 1;
    m.last_objective_ = objective;
    const double now = now_seconds();
    const double elapsed = now - m.start_;
    // Quiet for the first second (short fits never flicker), then ~10 redraws a second.
    if (elapsed < 1.0 || now - m.last_shown_ < 0.1) return 0;
    m.last_shown_ = now;
    const char *what = m.method_ == "crowd-lloyd"                       ? "objective"
                       : m.method_ == "ebcc" || m.method_ == "bcc" ? "bound"  // the variational ELBO
                                                                      : "log-likelihood";
    char line[160];
    char run[32] = "";
    if (m.runs_ > 1) std::snprintf(run, sizeof run, " (start %d)", m.runs_);
    const int n = std::snprintf(line, sizeof line, "crowdspec: %s: iteration %d%s, %s %.6f, %.1f s", m.method_.c_str(),
                                static_cast<int>(iteration), run, what, objective, elapsed);
    if (n <= 0) return 0;
    const std::size_t width = static_cast<std::size_t>(n) < sizeof line ? static_cast<std::size_t>(n) : sizeof line - 1;
    // Pad over a longer previous line; \r keeps it on one terminal line.
    std::fprintf(stderr, "\r%s%*s", line,
                 m.shown_width_ > width ? static_cast<int>(m.shown_width_ - width) : 0, "");
    std::fflush(stderr);
    if (width > m.shown_width_) m.shown_width_ = width;
    return 0;
}

double timed_fit(cs_model *model, const CrowdTable &table, const std::string &method_name, FitMonitor *monitor) {
    if (monitor != nullptr) monitor->begin(model, method_name);
    const auto start = std::chrono::steady_clock::now();
    // A binary label file's codes are passed in place (mapped), without triples. Its
    // worker dictionary is the worker count (a worker without labels still has a row).
    int64_t declared_workers = 0;
    if (table.binary && cs_get_int(model, CS_PARAM_WORKERS, &declared_workers) == CS_OK && declared_workers == 0)
        check_status(model, cs_set_int(model, CS_PARAM_WORKERS, static_cast<int32_t>(table.binary->n_workers())),
                     "workers");
    // A text file read grouped by item (InputOptions::grouped) is fitted from its codes
    // (cs_fit_csr on them is cs_fit on the triples; the library uses them in place when
    // each item's labels come in worker order, else copies them; ungroup_for_fit()
    // decided that it reports the same).
    const cs_status status =
        table.binary    ? cs_fit_csr(model, static_cast<std::size_t>(table.binary->n_items()), table.binary->item_start(),
                                     table.binary->codes(), static_cast<int32_t>(table.binary->k()))
        : table.grouped() ? cs_fit_csr(model, table.item_start.size() - 1, table.item_start.data(), table.codes(),
                                       static_cast<int32_t>(table.class_names.size()))
                          : cs_fit(model, table.item.data(), table.worker.data(), table.label.data(), table.item.size());
    const auto stop = std::chrono::steady_clock::now();
    if (monitor != nullptr) {
        monitor->end();
        cs_set_progress(model, nullptr, nullptr);  // the monitor may not outlive the model
        if (status == CS_ERR_CANCELLED && pending_interrupt() != 0) throw_interrupted(pending_interrupt());
    }
    if (status != CS_OK) {
        std::string message = cs_last_error(model);
        if (status == CS_ERR_DUPLICATE) {
            // A problem of the file, so it is reported like the reader's: FILE:LINE: what.
            const std::string located = table.binary ? binary_duplicate_message(table) : duplicate_message(table);
            if (!located.empty()) throw CliError(kExitFit, located);
        } else if (status == CS_ERR_TOO_FEW_CLASSES && table.class_names.size() == 1) {
            message += "; the input's only label is " + quote_field(table.class_names[0]) +
                       " (declare the classes with --classes)";
        }
        throw CliError(kExitFit, method_name + ": " + message + " [" + cs_status_string(status) + "]");
    }
    return std::chrono::duration<double>(stop - start).count();
}

void ungroup_for_fit(const cs_model *model, CrowdTable &table) {
    if (!table.grouped()) return;
    int64_t items = 0, workers = 0;
    if (cs_get_int(model, CS_PARAM_ITEMS, &items) != CS_OK || cs_get_int(model, CS_PARAM_WORKERS, &workers) != CS_OK ||
        items != 0 || workers != 0 || table.class_names.size() > CS_MAX_CROWD_CLASSES)
        expand_grouped_triples(table);
}

std::string name_items_in_note(std::string_view message, const std::vector<std::string> &item_names) {
    static constexpr std::string_view kItem = "item ";
    const auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
    const auto in_word = [&](char c) { return is_digit(c) || std::isalpha(static_cast<unsigned char>(c)) || c == '_'; };
    std::string out;
    std::size_t at = 0;  // the message up to here is in `out`
    for (std::size_t found; (found = message.find(kItem, at)) != std::string_view::npos;) {
        const std::size_t first = found + kItem.size();
        std::size_t end = first;
        while (end < message.size() && is_digit(message[end])) ++end;
        // A whole word "item" and at most 9 digits (an int32 id), not part of a longer word.
        const bool whole = (found == 0 || !in_word(message[found - 1])) && end > first && end - first <= 9 &&
                           (end == message.size() || !in_word(message[end]));
        const std::size_t j = whole ? std::stoul(std::string(message.substr(first, end - first))) : 0;
        out.append(message.substr(at, first - at));
        if (whole && j < item_names.size()) out += quote_field(item_names[j]);
        else out.append(message.substr(first, end - first));
        at = end;
    }
    out.append(message.substr(at));
    return out;
}

void report_fit_notes(const cs_model *model, const std::string &method_name,
                      const std::vector<std::string> *item_names) {
    const char *message = cs_last_error(model);
    if (message == nullptr || message[0] == '\0') return;
    const std::string text = item_names != nullptr ? name_items_in_note(message, *item_names) : std::string(message);
    std::fprintf(stderr, "crowdspec: note: %s: %s\n", method_name.c_str(), text.c_str());
}

std::vector<std::string> note_names(int32_t notes) {
    // Every note of every input kind: a fit sets only its own kind's bits, so the names
    // of a crowd fit and of a points or graph fit come out in this order.
    static const std::pair<int32_t, const char *> kNames[] = {
        {CS_NOTE_MAX_ITER_REACHED, "max_iter_reached"}, {CS_NOTE_SPECTRAL_FALLBACK, "spectral_fallback"},
        {CS_NOTE_IMPOSSIBLE_ITEMS, "impossible_items"}, {CS_NOTE_UNLABELED_ITEMS, "unlabeled_items"},
        {CS_NOTE_CANCELLED, "cancelled"}, {CS_NOTE_MAJORITY_START, "majority_start"},
        {CS_NOTE_DEGENERATE_MAXIMUM, "degenerate_maximum"}, {CS_NOTE_IGNORED_EDGES, "ignored_edges"},
        {CS_NOTE_ISOLATED_NODES, "isolated_nodes"}, {CS_NOTE_EMPTY_CLUSTER, "empty_cluster"},
        {CS_NOTE_LABEL_CYCLE, "label_cycle"}, {CS_NOTE_EIGEN_NOT_CONVERGED, "eigen_not_converged"},
        {CS_NOTE_APPROXIMATE_SE, "approximate_se"},
        {CS_NOTE_VARIANCE_FLOOR, "variance_floor"}, {CS_NOTE_CROWDLAB_FALLBACK, "crowdlab_fallback"}};
    std::vector<std::string> names;
    int32_t known = 0;
    for (const auto &[bit, name] : kNames) {
        known |= bit;
        if (notes & bit) names.emplace_back(name);
    }
    if (notes & ~known) names.push_back("other_" + std::to_string(notes & ~known));  // a newer library
    return names;
}

void append_notes(std::string &json, int32_t notes) {
    json += ",\"notes\":[";
    const std::vector<std::string> names = note_names(notes);
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i > 0) json.push_back(',');
        append_json_string(json, names[i]);
    }
    json.push_back(']');
}

void check_status(const cs_model *model, cs_status status, const std::string &what) {
    if (status != CS_OK)
        throw CliError(kExitFit, what + ": " + cs_last_error(model) + " [" + cs_status_string(status) + "]");
}

std::vector<int32_t> fitted_labels(const cs_model *model, std::size_t n_items) {
    std::vector<int32_t> labels(n_items);
    check_status(model, cs_labels(model, labels.data(), labels.size()), "reading the labels");
    return labels;
}

std::vector<double> fitted_posteriors(const cs_model *model, std::size_t n_items, std::size_t k) {
    std::vector<double> posteriors(n_items * k);
    check_status(model, cs_posteriors(model, posteriors.data(), posteriors.size()), "reading the posteriors");
    return posteriors;
}

MatchedGold match_gold(const CrowdTable &table, const TruthTable &gold, const std::string &file) {
    const NameIndex items(table.item_names, true);
    const NameIndex classes(table.class_names, true);
    MatchedGold out;
    out.sources = gold.source;
    for (std::size_t e = 0; e < gold.entries.size(); ++e) {
        const auto &[item, label] = gold.entries[e];
        const int32_t j = items.find(item);
        if (j < 0) {
            ++out.absent;
            continue;
        }
        const int32_t c = classes.find(label);
        if (c < 0) {
            std::string known;
            for (std::size_t l = 0; l < table.class_names.size() && l < 20; ++l)
                known += (l ? ", " : "") + table.class_names[l];
            throw CliError(kExitInput, file + ":" + std::to_string(gold.line[e]) + ": gold label " + quote_field(label) +
                                           " is not one of the classes (" + escape_controls(known) +
                                           "); declare every class with --classes A,B,...");
        }
        out.item.push_back(j);
        out.label.push_back(c);
        out.line.push_back(gold.line[e]);
        out.file.push_back(file);
    }
    return out;
}

MatchedGold gold_for_fit(const CrowdTable &table, const std::optional<std::string> &path, const InputOptions &input) {
    MatchedGold gold;
    if (!table.file_gold.entries.empty()) gold = match_gold(table, table.file_gold, table.source);
    if (!path) return gold;
    const MatchedGold more = match_gold(table, read_truth_file(*path, input), display_name(*path));
    if (gold.sources.empty()) return more;
    std::unordered_map<int32_t, std::size_t> where;
    for (std::size_t e = 0; e < gold.item.size(); ++e) where.emplace(gold.item[e], e);
    for (std::size_t e = 0; e < more.item.size(); ++e) {
        auto it = where.find(more.item[e]);
        if (it == where.end()) {
            gold.item.push_back(more.item[e]);
            gold.label.push_back(more.label[e]);
            gold.line.push_back(more.line[e]);
            gold.file.push_back(more.file[e]);
        } else if (gold.label[it->second] != more.label[e]) {
            const std::size_t f = it->second;
            throw CliError(kExitInput,
                           more.file[e] + ":" + std::to_string(more.line[e]) + ": item " +
                               quote_field(table.item_names[static_cast<std::size_t>(more.item[e])]) + " has gold label " +
                               quote_field(table.class_names[static_cast<std::size_t>(more.label[e])]) + " here but " +
                               quote_field(table.class_names[static_cast<std::size_t>(gold.label[f])]) + " in " +
                               gold.sources + " (" + gold.file[f] + " line " + std::to_string(gold.line[f]) + ")");
        }
    }
    gold.absent += more.absent;
    gold.sources += " and " + more.sources;
    return gold;
}

std::string pin_gold(cs_model *model, const CrowdTable &table, const MatchedGold &gold) {
    if (gold.sources.empty()) return std::string();
    check_status(model, cs_set_gold(model, gold.item.data(), gold.label.data(), gold.item.size()),
                 "gold from " + gold.sources);
    std::string note = "pinned " + std::to_string(gold.item.size()) + " gold items from " + gold.sources;
    if (gold.absent > 0)
        note += "; " + std::to_string(gold.absent) + " gold items do not appear in " + table.source + " and are ignored";
    return note;
}

std::string apply_gold(cs_model *model, const CrowdTable &table, const std::optional<std::string> &path,
                       const InputOptions &input) {
    return pin_gold(model, table, gold_for_fit(table, path, input));
}

FitOutcome fetch_outcome(const cs_model *model, const CrowdTable &table) {
    FitOutcome o;
    check_status(model, cs_n_items(model, &o.n_items), "reading the item count");
    check_status(model, cs_n_workers(model, &o.n_workers), "reading the worker count");
    check_status(model, cs_n_classes(model, &o.k), "reading the class count");
    if (o.n_items != table.item_names.size() || o.n_workers != table.worker_names.size() ||
        o.k != table.class_names.size())
        throw CliError(kExitFit, "internal error: the library fitted " + std::to_string(o.n_items) + " items, " +
                                     std::to_string(o.n_workers) + " workers and " + std::to_string(o.k) +
                                     " classes; the input has " + std::to_string(table.item_names.size()) + ", " +
                                     std::to_string(table.worker_names.size()) + " and " +
                                     std::to_string(table.class_names.size()));
    // The copies of the results are as large as the library's own (items x k posteriors,
    // workers x k^2 confusion entries): running out of memory here is the fit's
    // out-of-memory, reported with its status and exit class, not an input error (issue
    // 40, R4).
    try {
        o.labels = fitted_labels(model, o.n_items);
        o.posteriors = fitted_posteriors(model, o.n_items, o.k);
        o.confusion.resize(o.n_workers * o.k * o.k);
    } catch (const std::bad_alloc &) {
        throw CliError(kExitFit, "out of memory copying the results (" + std::to_string(o.n_items) + " items x " +
                                     std::to_string(o.k) + " posteriors, " + std::to_string(o.n_workers) +
                                     " workers x " + std::to_string(o.k) + "^2 confusion entries) [" +
                                     cs_status_string(CS_ERR_OUT_OF_MEMORY) + "]");
    }
    check_status(model, cs_confusion(model, o.confusion.data(), o.confusion.size()), "reading the confusion matrices");
    o.prior.resize(o.k);
    check_status(model, cs_class_prior(model, o.prior.data(), o.prior.size()), "reading the class prior");
    std::size_t trace_length = 0;
    check_status(model, cs_trace_length(model, &trace_length), "reading the trace length");
    o.trace.resize(trace_length);
    if (trace_length > 0) check_status(model, cs_trace(model, o.trace.data(), o.trace.size()), "reading the trace");
    check_status(model, cs_iterations(model, &o.iterations), "reading the iterations");
    check_status(model, cs_converged(model, &o.converged), "reading the converged flag");
    check_status(model, cs_fit_notes(model, &o.notes), "reading the fit notes");
    check_status(model, cs_log_likelihood(model, &o.log_likelihood), "reading the log-likelihood");
    check_status(model, cs_calibration(model, &o.temperature, &o.mixing, &o.calibration), "reading the calibration");
    // Ordered grades (an ordinal method or --ordinal): the posterior median and mean grade.
    o.median_grades.resize(o.n_items);
    if (o.n_items > 0 && cs_median_grades(model, o.median_grades.data(), o.median_grades.size()) == CS_OK) {
        o.mean_grades.resize(o.n_items);
        check_status(model, cs_mean_grades(model, o.mean_grades.data(), o.mean_grades.size()), "reading the mean grades");
    } else {
        o.median_grades.clear();
    }
    return o;
}

std::vector<std::size_t> labels_per_worker(const CrowdTable &table) {
    if (table.binary) return table.binary->labels_per_worker();
    std::vector<std::size_t> count(table.worker_names.size(), 0);
    if (table.grouped()) {
        const uint32_t k = static_cast<uint32_t>(table.class_names.size());
        const uint32_t *code = table.codes();
        for (std::size_t p = 0; p < table.code_storage.size(); ++p) ++count[code[p] / k];
        return count;
    }
    for (int32_t w : table.worker) ++count[static_cast<std::size_t>(w)];
    return count;
}

}  // namespace cli
