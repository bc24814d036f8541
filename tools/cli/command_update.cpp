// SPDX-License-Identifier: MIT
// `crowdspec update`: add a new batch of crowd labels to a saved model (`fit --save`)
// and refit incrementally (cs_update), writing every item's labels and rewriting the
// model file atomically.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unordered_map>

#include "cli/command_args.hpp"
#include "cli/commands.hpp"
#include "common/interrupt.hpp"
#include "fitting/fitting.hpp"
#include "fitting/model_assist.hpp"
#include "fitting/saved_model.hpp"
#include "io/crowd_input.hpp"
#include "io/label_file.hpp"
#include "io/output.hpp"
#include "io/result_writers.hpp"

namespace cli {

namespace {

// Ids of the batch's names in the model: known names keep theirs, new ones are
// appended to `names` (new items, new workers) in the batch's order.
std::vector<int32_t> model_ids(const std::vector<std::string> &batch, std::vector<std::string> &names) {
    std::unordered_map<std::string, int32_t> id_of;
    id_of.reserve(names.size() + batch.size());
    for (std::size_t i = 0; i < names.size(); ++i) id_of.emplace(names[i], static_cast<int32_t>(i));
    std::vector<int32_t> ids(batch.size());
    for (std::size_t i = 0; i < batch.size(); ++i) {
        auto it = id_of.find(batch[i]);
        if (it == id_of.end()) {
            it = id_of.emplace(batch[i], static_cast<int32_t>(names.size())).first;
            names.push_back(batch[i]);
        }
        ids[i] = it->second;
    }
    return ids;
}

// A label of the batch that repeats one the model has: the library names its index in
// the batch ("label index N"); the message names its file, line, worker and item.
std::string model_duplicate_message(const CrowdTable &table, const char *library_message) {
    const char *at = std::strstr(library_message, "label index ");
    if (at == nullptr) return std::string();
    const unsigned long long t = std::strtoull(at + std::strlen("label index "), nullptr, 10);
    if (t >= table.item.size() || table.line.size() != table.item.size()) return std::string();
    return table.source + ":" + std::to_string(table.line[t]) + ": worker " +
           quote_field(table.worker_names[static_cast<std::size_t>(table.worker[t])]) + " labels item " +
           quote_field(table.item_names[static_cast<std::size_t>(table.item[t])]) +
           " again (the model has its label); use --duplicates first or --duplicates last to keep one";
}

}  // namespace

std::string update_help() {
    return std::string(
               "Usage: crowdspec update --model MODEL [options] FILE\n"
               "\n"
               "Add the crowd labels of FILE (a new batch) to the model saved by `crowdspec fit\n"
               "--save`, refit incrementally (incremental EM on the items the batch touches and a\n"
               "rotation over the others; docs/incremental.md) -- or in full, when the update would\n"
               "work on half the labels or more or the labels doubled since the last full fit\n"
               "(update_refit_work, update_refit; a note says so) -- and write one row per item of the\n"
               "model, old and new: item, label, confidence, p_<class>... as `crowdspec fit`.\n"
               "MODEL is rewritten atomically with the new labels (after the item rows are\n"
               "complete). Items and workers are matched to the model's by name; new ones are\n"
               "added. The classes are the model's: a label of FILE outside them is an input error.\n"
               "\n"
               "Options:\n"
               "  -m, --model MODEL       the saved model to update (required)\n"
               "  -o, --output FILE       write the items to FILE (default: standard output)\n"
               "      --format csv|tsv|json|jsonl|json-nested\n"
               "                          format of the items, as for `crowdspec fit`\n"
               "      --refit             refit in full (cs_refit) after adding the labels\n"
               "      --model-probs FILE  a classifier's class probabilities for items of the model\n"
               "                          or of FILE (as for `crowdspec fit`): an item whose row\n"
               "                          is new or differs from the model's is refitted with it;\n"
               "                          the model keeps the rows and the classifier's matrix.\n"
               "                          Rows of other items are ignored, with a note\n"
               "      --duplicates reject|first|last   a worker labelling an item it (or the\n"
               "                          model) already has: fail, keep the first, or the last\n"
               "      --threads N         threads; 0 = automatic\n"
               "      --param NAME=VALUE  another library parameter of the update, e.g.\n"
               "                          update_rounds=100, update_sweep=8, update_refit=0\n"
               "  -q, --quiet             no notes on stderr (errors still are)\n"
               "  -h, --help              show this help\n\n") +
           kInputHelp + kPresetHelp + "\n" + kExitCodesHelp;
}

int run_update(const std::vector<std::string> &args, std::size_t first) {
    std::vector<OptionSpec> specs = {{"model", true, 'm'},   {"output", true, 'o'},     {"format", true, '\0'},
                                     {"refit", false, '\0'}, {"duplicates", true, '\0'}, {"threads", true, '\0'},
                                     {"param", true, '\0'},  {"quiet", false, 'q'},     {"model-probs", true, '\0'}};
    for (const OptionSpec &s : input_option_specs()) specs.push_back(s);
    const std::optional<ParsedArgs> maybe_parsed = parse_command("update", args, first, specs, update_help);
    if (!maybe_parsed) return kExitOk;
    const ParsedArgs &parsed = *maybe_parsed;
    single_input(parsed, "update");
    const std::optional<std::string> model_path = parsed.last("model");
    if (!model_path || model_path->empty() || *model_path == "-")
        throw CliError(kExitUsage, "update: --model MODEL is required (a file saved by `crowdspec fit --save`)");
    const std::string output_path = parsed.last("output").value_or("");
    if (output_path == *model_path) throw CliError(kExitUsage, "update: --output and --model name the same file");
    const InterruptGuard interrupt_guard;
    const FitSettings settings = fit_settings_from(parsed);
    const InputOptions input = input_options_from(parsed);
    const ResultFormat item_format = result_format(parsed.last("format"), output_path, "--format");

    ModelNames names;
    ModelPtr model = load_saved_model(*model_path, names);
    apply_settings(model.get(), settings);
    OutputFile out(output_path);
    OutputFile model_out(*model_path);
    ClassSpec classes;
    classes.kind = ClassSpec::Kind::List;
    classes.count = static_cast<int32_t>(names.classes.size());
    classes.names = names.classes;
    classes.text = *model_path;
    classes.origin = *model_path;
    CrowdTable table = read_crowd_file(parsed.positionals[0], classes, input);
    if (!settings.quiet) {
        const std::string note = crowd_read_note(table);
        if (!note.empty()) std::fprintf(stderr, "crowdspec: note: %s\n", escape_controls(note).c_str());
    }
    const std::size_t old_items = names.items.size(), old_workers = names.workers.size();
    const std::vector<int32_t> item_id = model_ids(table.item_names, names.items);
    const std::vector<int32_t> worker_id = model_ids(table.worker_names, names.workers);
    std::vector<int32_t> item(table.item.size()), worker(table.worker.size());
    for (std::size_t t = 0; t < item.size(); ++t) {
        item[t] = item_id[static_cast<std::size_t>(table.item[t])];
        worker[t] = worker_id[static_cast<std::size_t>(table.worker[t])];
    }
    if (const std::optional<std::string> probs = parsed.last("model-probs")) {
        // Rows in the model's item ids, the batch's new items included (docs/model-assist.md).
        const ModelRowsRead rows = read_model_rows(*probs, names.items, names.classes, *model_path + " and " + table.source);
        if (cs_set_model_probs(model.get(), rows.item.data(), rows.probs.data(), rows.item.size(),
                               static_cast<int32_t>(names.classes.size())) != CS_OK)
            throw CliError(kExitInput, rows.source + ": " + cs_last_error(model.get()));
        if (!settings.quiet)
            std::fprintf(stderr, "crowdspec: note: %s\n",
                         escape_controls(model_rows_note(rows, names.items.size(), "the model or the batch")).c_str());
    }
    const cs_status status = cs_update(model.get(), item.data(), worker.data(), table.label.data(), item.size());
    if (status != CS_OK) {
        if (status == CS_ERR_DUPLICATE) {
            std::string located = duplicate_message(table);
            if (located.empty()) located = model_duplicate_message(table, cs_last_error(model.get()));
            if (!located.empty()) throw CliError(kExitFit, located);
        }
        throw CliError(kExitFit, std::string("update: ") + cs_last_error(model.get()) + " [" +
                                     cs_status_string(status) + "]");
    }
    int32_t notes = 0;
    cs_fit_notes(model.get(), &notes);
    // A batch with labels whose results are not incremental was one of the library's
    // automatic full refits.
    const bool refitted = !item.empty() && (notes & CS_NOTE_INCREMENTAL) == 0;
    if (parsed.has("refit")) check_status(model.get(), cs_refit(model.get()), "update: the full refit");
    if (!settings.quiet) {
        std::fprintf(stderr, "crowdspec: note: %zu labels added to %s: %zu new items, %zu new workers\n",
                     table.item.size(), escape_controls(*model_path).c_str(), names.items.size() - old_items,
                     names.workers.size() - old_workers);
        if (refitted)
            std::fprintf(stderr, "crowdspec: note: the update was a full refit: it would have worked on half the "
                                 "labels or more, or the labels doubled since the last full fit (update_refit_work, "
                                 "update_refit; docs/incremental.md)\n");
        report_fit_notes(model.get(), "update", &names.items);
    }
    // Every item of the model, old and new, is written under its name.
    CrowdTable all;
    all.source = *model_path;
    all.item_names = names.items;
    all.worker_names = names.workers;
    all.class_names = names.classes;
    const FitOutcome fit = fetch_outcome(model.get(), all);
    write_saved_model(model.get(), names, model_out);
    model.reset();
    write_item_results(out, item_format, all, fit, "update");
    out.commit();
    model_out.commit();
    return kExitOk;
}

}  // namespace cli
