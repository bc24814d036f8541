#include "fitting.hpp"

#include <chrono>
#include <cstdio>
#include <string_view>
#include <unordered_map>

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
    char buf[64];
    std::snprintf(buf, sizeof buf, is_integer ? "%.0f" : "%g", value);
    return buf;
}

}  // namespace

std::string fit_options_help() {
    return "Fitting options (defaults are the library's):\n"
           "  -m, --method NAME       inference method (default opt-ds); one of the library's\n"
           "                          methods: " + known_methods_text() + "\n"
           "      --classes K|A,B,..  number of classes K, or the classes in order (see below)\n"
           "      --seed N            seed of every random choice (default " + library_default("seed") + ")\n"
           "      --max-iter N        maximum EM rounds / Lloyd iterations (default " + library_default("max_iter") + ")\n"
           "      --tol X             stop when the relative log-likelihood change is below X\n"
           "                          (default " + library_default("tol") + "); --tol 0 --max-iter N runs exactly N rounds\n"
           "      --prior uniform|estimated        class prior (default " + library_default("prior") + ")\n"
           "      --confusion full|one-coin|class-one-coin   confusion model (default " + library_default("confusion") + ")\n"
           "      --duplicates reject|first|last   a worker labelling an item twice (default " + library_default("duplicates") + ")\n"
           "      --threads N         threads used inside a fit; 0 = all cores (default " + library_default("threads") + ")\n"
           "      --param NAME=VALUE  set any other library parameter (e.g. smoothing=0.5,\n"
           "                          delta=1e-6, power_starts=100); repeatable\n";
}

const char kMappingHelp[] =
    "Input: one label per line, `item worker label` (truth files: `item label`), fields\n"
    "separated by blanks and/or commas; a field may be \"double quoted\" (\"\" = a quote).\n"
    "Ids and labels may be any strings. Blank lines are skipped. The first non-blank line\n"
    "is a header if one of its fields is item, task, question, worker, annotator, user,\n"
    "label, answer or response (any case). FILE - reads standard input.\n"
    "\n"
    "Mapping to the library's 0-based indices:\n"
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
    "value); 2 input error (unreadable file, malformed line, bad truth file); 3 fit error\n"
    "(the library refused the data or the fit failed); 4 output error (cannot write).\n";

std::vector<OptionSpec> fit_option_specs() {
    return {{"method", true, 'm'},     {"classes", true, '\0'},    {"seed", true, '\0'},
            {"max-iter", true, '\0'},  {"tol", true, '\0'},        {"prior", true, '\0'},
            {"confusion", true, '\0'}, {"duplicates", true, '\0'}, {"threads", true, '\0'},
            {"param", true, '\0'}};
}

FitSettings fit_settings_from(const ParsedArgs &args) {
    // Options that map one-to-one onto a library parameter of the same meaning.
    static const std::pair<const char *, const char *> kDirect[] = {
        {"seed", "seed"},       {"max-iter", "max_iter"},     {"tol", "tol"},
        {"prior", "prior"},     {"confusion", "confusion"},   {"duplicates", "duplicates"},
        {"threads", "threads"}};
    FitSettings s;
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

namespace {

// The library names duplicates by triple index; we find the first repeated
// (item, worker) pair in file order ourselves to name both lines of the file.
// Returns "" when the table carries no line numbers (the demo's simulated crowd).
std::string duplicate_message(const CrowdTable &table) {
    if (table.line.size() != table.item.size()) return std::string();
    std::unordered_map<uint64_t, std::size_t> first;  // (item, worker) -> triple index
    first.reserve(table.item.size());
    for (std::size_t t = 0; t < table.item.size(); ++t) {
        const uint64_t key = (static_cast<uint64_t>(static_cast<uint32_t>(table.item[t])) << 32) |
                             static_cast<uint32_t>(table.worker[t]);
        auto [it, inserted] = first.emplace(key, t);
        if (!inserted)
            return table.source + ":" + std::to_string(table.line[t]) + ": worker '" +
                   table.worker_names[static_cast<std::size_t>(table.worker[t])] + "' labels item '" +
                   table.item_names[static_cast<std::size_t>(table.item[t])] + "' again (first on line " +
                   std::to_string(table.line[it->second]) +
                   "); use --duplicates first or --duplicates last to keep one";
    }
    return std::string();
}

}  // namespace

double timed_fit(cs_model *model, const CrowdTable &table, const std::string &method_name) {
    const auto start = std::chrono::steady_clock::now();
    const cs_status status = cs_fit(model, table.item.data(), table.worker.data(), table.label.data(), table.item.size());
    const auto stop = std::chrono::steady_clock::now();
    if (status != CS_OK) {
        std::string message = cs_last_error(model);
        if (status == CS_ERR_DUPLICATE) {
            const std::string located = duplicate_message(table);
            if (!located.empty()) message = located;
        } else if (status == CS_ERR_TOO_FEW_CLASSES && table.class_names.size() == 1) {
            message += "; the input's only label is '" + table.class_names[0] +
                       "' (declare the classes with --classes)";
        }
        throw CliError(kExitFit, method_name + ": " + message + " [" + cs_status_string(status) + "]");
    }
    return std::chrono::duration<double>(stop - start).count();
}

void report_fit_notes(const cs_model *model, const std::string &method_name) {
    const char *message = cs_last_error(model);
    if (message != nullptr && message[0] != '\0')
        std::fprintf(stderr, "crowdspec: note: %s: %s\n", method_name.c_str(), message);
}

std::vector<std::string> note_names(int32_t notes) {
    static const std::pair<int32_t, const char *> kNames[] = {
        {CS_NOTE_MAX_ITER_REACHED, "max_iter_reached"}, {CS_NOTE_SPECTRAL_FALLBACK, "spectral_fallback"},
        {CS_NOTE_IMPOSSIBLE_ITEMS, "impossible_items"}, {CS_NOTE_UNLABELED_ITEMS, "unlabeled_items"},
        {CS_NOTE_CANCELLED, "cancelled"}};
    std::vector<std::string> names;
    int32_t known = 0;
    for (const auto &[bit, name] : kNames) {
        known |= bit;
        if (notes & bit) names.emplace_back(name);
    }
    if (notes & ~known) names.push_back("other_" + std::to_string(notes & ~known));  // a newer library
    return names;
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

}  // namespace cli
