// `crowdspec fit`: crowd labels in, one CSV row per item out (its label and posteriors).
#include <cstdio>

#include "commands.hpp"
#include "fitting.hpp"
#include "label_file.hpp"
#include "output.hpp"

namespace cli {

std::string fit_help() {
    return std::string(
               "Usage: crowdspec fit [options] FILE\n"
               "\n"
               "Infer each item's true label from the crowd labels in FILE and write CSV rows\n"
               "`item,label,p_<class>,...` (the original item ids and label strings, then one\n"
               "posterior probability per class) to standard output or to --output.\n"
               "\n"
               "Options:\n"
               "  -o, --output FILE       write the CSV to FILE atomically (via FILE.tmp.<pid> in\n"
               "                          the same directory, then renamed); - = stdout\n"
               "  -h, --help              show this help\n\n") +
           fit_options_help() + "\n" + kMappingHelp + "\n" + kExitCodesHelp;
}

namespace {

// Builds and writes the CSV in chunks, so memory stays bounded for millions of items.
void write_labels_csv(OutputFile &out, const CrowdTable &table, const std::vector<int32_t> &labels,
                      const std::vector<double> &posteriors) {
    const std::size_t k = table.class_names.size();
    std::string buf = "item,label";
    for (const std::string &c : table.class_names) {
        buf.push_back(',');
        append_csv_field(buf, "p_" + c);
    }
    buf.push_back('\n');
    for (std::size_t j = 0; j < table.item_names.size(); ++j) {
        append_csv_field(buf, table.item_names[j]);
        buf.push_back(',');
        append_csv_field(buf, table.class_names[static_cast<std::size_t>(labels[j])]);
        for (std::size_t l = 0; l < k; ++l) {
            buf.push_back(',');
            append_number(buf, "%.10g", posteriors[j * k + l]);
        }
        buf.push_back('\n');
        if (buf.size() >= (1u << 20)) {
            out.write(buf);
            buf.clear();
        }
    }
    out.write(buf);
}

}  // namespace

int run_fit(const std::vector<std::string> &args, std::size_t first) {
    std::vector<OptionSpec> specs = fit_option_specs();
    specs.push_back({"output", true, 'o'});
    const ParsedArgs parsed = parse_args("fit", args, first, specs);
    if (parsed.help) {
        write_stdout(fit_help());
        return kExitOk;
    }
    if (parsed.positionals.size() != 1)
        throw CliError(kExitUsage, parsed.positionals.empty()
                                       ? "fit: missing the input FILE (see 'crowdspec fit --help')"
                                       : "fit: expected one input FILE, got " +
                                             std::to_string(parsed.positionals.size()));
    const FitSettings settings = fit_settings_from(parsed);
    if (settings.method == "all")
        throw CliError(kExitUsage, "fit: --method all is only for 'crowdspec evaluate'");
    const int32_t method = method_id(settings.method);
    // Configure first: a bad option fails before any file is read or written.
    ModelPtr model = make_model(method, settings);
    // Open the output before the (possibly long) read and fit, so a missing directory
    // is reported at once; the temporary file is removed on every error path.
    OutputFile out(parsed.last("output").value_or(""));
    const CrowdTable table = read_crowd_file(parsed.positionals[0], settings.classes);

    timed_fit(model.get(), table, settings.method);
    report_fit_notes(model.get(), settings.method);

    std::size_t n_items = 0, k = 0;
    check_status(model.get(), cs_n_items(model.get(), &n_items), "reading the item count");
    check_status(model.get(), cs_n_classes(model.get(), &k), "reading the class count");
    if (n_items != table.item_names.size() || k != table.class_names.size())
        throw CliError(kExitFit, "internal error: the library fitted " + std::to_string(n_items) + " items and " +
                                     std::to_string(k) + " classes, the input has " +
                                     std::to_string(table.item_names.size()) + " and " +
                                     std::to_string(table.class_names.size()));
    const std::vector<int32_t> labels = fitted_labels(model.get(), n_items);
    const std::vector<double> posteriors = fitted_posteriors(model.get(), n_items, k);
    write_labels_csv(out, table, labels, posteriors);
    out.commit();
    return kExitOk;
}

}  // namespace cli
