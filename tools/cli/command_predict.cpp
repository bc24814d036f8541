// SPDX-License-Identifier: MIT
// `crowdspec predict`: label a new batch of crowd labels with the workers of an earlier
// fit (its --workers file), without refitting: one E-step (cs_predict).
#include <cstdio>
#include <unordered_map>

#include "cli/command_args.hpp"
#include "cli/commands.hpp"
#include "fitting/fitting.hpp"
#include "fitting/model_assist.hpp"
#include "common/interrupt.hpp"
#include "io/binary_labels.hpp"
#include "io/crowd_input.hpp"
#include "io/label_file.hpp"
#include "io/output.hpp"
#include "io/result_writers.hpp"
#include "io/worker_file.hpp"
#include "fitting/saved_model.hpp"

namespace cli {

std::string predict_help() {
    return std::string(
               "Usage: crowdspec predict --workers WORKERS [options] FILE\n"
               "       crowdspec predict --model MODEL [options] FILE\n"
               "\n"
               "Label the items of FILE (a new batch of crowd labels) with the workers of an\n"
               "earlier fit, without refitting: each item's posterior is P(class | its labels)\n"
               "under the confusion matrices and class prior in WORKERS (one E-step of the\n"
               "Dawid-Skene model). Writes the same rows as `crowdspec fit`: item, label,\n"
               "confidence, p_<class>...\n"
               "\n"
               "Options:\n"
               "  -w, --workers WORKERS   the workers file of a fit (`crowdspec fit -w`; CSV, TSV,\n"
               "                          JSON records, JSONL or json-nested): its workers,\n"
               "                          classes, pi_<true>_<observed> matrices and prior_<class>\n"
               "                          columns (required). Without prior columns the prior is\n"
               "                          uniform. Workers are matched by id; a worker of FILE\n"
               "                          that WORKERS lacks is weighed as the average known worker\n"
               "                          (the mean of their matrices), with a note. A label of\n"
               "                          FILE that is not one of WORKERS' classes is an input error\n"
               "  -m, --model MODEL       instead of --workers: a model saved by `crowdspec fit\n"
               "                          --save` (its workers, prior, calibration and names, at\n"
               "                          full precision); MODEL is only read. A damaged, truncated\n"
               "                          or newer-format MODEL is an input error\n"
               "  -o, --output FILE       write the items to FILE (default: standard output)\n"
               "      --format csv|tsv|json|jsonl|json-nested\n"
               "                          format of the items, as for `crowdspec fit` (default: by\n"
               "                          the extension of --output, else csv)\n"
               "      --model-probs PROBS with --model: a classifier's class probabilities for items\n"
               "                          of FILE (as for `crowdspec fit`), weighed by the\n"
               "                          classifier's confusion matrix the saved fit estimated\n"
               "                          (its --model-probs); rows of other items are ignored,\n"
               "                          with a note. A model fitted without them is an error\n"
               "      --duplicates reject|first|last   a worker labelling an item twice\n"
               "      --threads N         threads; 0 = automatic\n"
               "      --param NAME=VALUE  another library parameter of the E-step, e.g.\n"
               "                          support=all (every class possible for every item; the\n"
               "                          default auto allows only the classes the item was given)\n"
               "  -q, --quiet             no notes on stderr (errors still are)\n"
               "  -h, --help              show this help\n"
               "The posteriors equal those of the fit that wrote WORKERS for the same labels (up to\n"
               "the 10 significant digits the workers file keeps; exactly, with --model).\n"
               "Output files are written atomically, as for `crowdspec fit`.\n\n") +
           kInputHelp + kPresetHelp + "\n" + kExitCodesHelp;
}

int run_predict(const std::vector<std::string> &args, std::size_t first) {
    std::vector<OptionSpec> specs = {{"workers", true, 'w'},    {"model", true, 'm'},   {"output", true, 'o'},  {"format", true, '\0'},
                                     {"duplicates", true, '\0'}, {"threads", true, '\0'}, {"param", true, '\0'},
                                     {"quiet", false, 'q'},      {"model-probs", true, '\0'}};
    for (const OptionSpec &s : input_option_specs()) specs.push_back(s);
    const std::optional<ParsedArgs> maybe_parsed = parse_command("predict", args, first, specs, predict_help);
    if (!maybe_parsed) return kExitOk;
    const ParsedArgs &parsed = *maybe_parsed;
    single_input(parsed, "predict");
    const std::optional<std::string> workers_path = parsed.last("workers");
    const std::optional<std::string> model_path = parsed.last("model");
    if (workers_path && model_path) throw CliError(kExitUsage, "predict: give --workers or --model, not both");
    const std::optional<std::string> probs_path = parsed.last("model-probs");
    if (probs_path && !model_path)
        throw CliError(kExitUsage, "predict: --model-probs needs --model (a workers file has no classifier matrix)");
    if (!workers_path && !model_path)
        throw CliError(kExitUsage, "predict: --workers FILE is required (the workers file of a fit), or --model MODEL");
    const std::string known_path = workers_path ? *workers_path : *model_path;
    if (known_path.empty()) throw CliError(kExitUsage, "predict: --workers and --model need a file name");
    if (model_path && *model_path == "-")
        throw CliError(kExitUsage, "predict: --model needs a file name (a saved model is binary)");
    if (known_path == "-" && parsed.positionals[0] == "-")
        throw CliError(kExitUsage, "predict: FILE and --workers or --model cannot both be standard input");
    const InterruptGuard interrupt_guard;
    // Only --duplicates, --threads, --param and --quiet of the fitting options are accepted.
    const FitSettings settings = fit_settings_from(parsed);
    const InputOptions input = input_options_from(parsed);
    const std::string output_path = parsed.last("output").value_or("");
    const ResultFormat item_format = result_format(parsed.last("format"), output_path, "--format");
    // The known workers: a workers file's (set as initial matrices) or a saved model's.
    ModelPtr model;
    WorkerFile wf;
    ModelNames names;
    if (model_path) {
        model = load_saved_model(*model_path, names);
        apply_settings(model.get(), settings);
        wf.source = *model_path;
        wf.worker_names = names.workers;
        wf.class_names = names.classes;
        wf.prior.assign(names.classes.size(), 1.0);  // a model always has its prior
    } else {
        model = make_model(method_id("ds"), settings);
        wf = read_worker_file(*workers_path);
    }
    OutputFile out(output_path);
    const std::size_t k = wf.class_names.size(), known = wf.worker_names.size();
    CrowdTable table = read_crowd_file(parsed.positionals[0], worker_file_classes(wf), input);
    if (!settings.quiet) {
        const std::string note = crowd_read_note(table);
        if (!note.empty()) std::fprintf(stderr, "crowdspec: note: %s\n", escape_controls(note).c_str());
    }

    // Known workers keep their row of the workers file as id; the others get ids from
    // `known` on, in the batch's order (the library weighs them as the average worker).
    std::unordered_map<std::string, int32_t> id_of;
    for (std::size_t i = 0; i < known; ++i) id_of.emplace(wf.worker_names[i], static_cast<int32_t>(i));
    std::vector<int32_t> batch_id(table.worker_names.size());
    std::vector<std::string> unknown;
    for (std::size_t i = 0; i < table.worker_names.size(); ++i) {
        auto it = id_of.find(table.worker_names[i]);
        if (it != id_of.end()) {
            batch_id[i] = it->second;
        } else {
            batch_id[i] = static_cast<int32_t>(known + unknown.size());
            unknown.push_back(table.worker_names[i]);
        }
    }
    std::vector<int32_t> worker(table.worker.size());
    for (std::size_t t = 0; t < worker.size(); ++t) worker[t] = batch_id[static_cast<std::size_t>(table.worker[t])];

    if (!model_path) {
        check_status(model.get(), cs_set_int(model.get(), CS_PARAM_CLASSES, static_cast<int32_t>(k)), "classes");
        check_status(model.get(), cs_set_initial_confusion(model.get(), wf.confusion.data(), wf.confusion.size()),
                     "the workers of " + wf.source);
        if (!wf.prior.empty())
            check_status(model.get(), cs_set_initial_prior(model.get(), wf.prior.data(), wf.prior.size()),
                         "the class prior of " + wf.source);
        if (wf.calibrated)  // the fit's calibration, so that the same items get the same posteriors
            check_status(model.get(), cs_set_initial_calibration(model.get(), wf.temperature, wf.mixing),
                         "the calibration of " + wf.source);
    }
    ModelRowsRead rows;
    if (probs_path) {
        fill_item_names(table);  // a binary batch read without them
        rows = read_model_rows(*probs_path, table.item_names, wf.class_names, table.source);
        if (!settings.quiet)
            std::fprintf(stderr, "crowdspec: note: %s\n",
                         escape_controls(model_rows_note(rows, table.item_names.size(), table.source)).c_str());
    }
    const cs_status status =
        probs_path ? cs_predict_model_probs(model.get(), table.item.data(), worker.data(), table.label.data(),
                                            table.item.size(), rows.item.data(), rows.probs.data(), rows.item.size())
                   : cs_predict(model.get(), table.item.data(), worker.data(), table.label.data(), table.item.size());
    if (status != CS_OK) {
        if (status == CS_ERR_DUPLICATE) {
            const std::string located = duplicate_message(table);
            if (!located.empty()) throw CliError(kExitFit, located);
        }
        throw CliError(kExitFit, std::string("predict: ") + cs_last_error(model.get()) + " [" +
                                     cs_status_string(status) + "]");
    }
    FitOutcome result;
    result.k = k;
    check_status(model.get(), cs_n_items(model.get(), &result.n_items), "reading the item count");
    if (result.n_items != table.item_names.size())
        throw CliError(kExitFit, "internal error: the library labelled " + std::to_string(result.n_items) +
                                     " items; the input has " + std::to_string(table.item_names.size()));
    result.labels = fitted_labels(model.get(), result.n_items);
    result.posteriors = fitted_posteriors(model.get(), result.n_items, k);
    check_status(model.get(), cs_fit_notes(model.get(), &result.notes), "reading the notes");
    if (!settings.quiet) {
        if (wf.prior.empty())
            std::fprintf(stderr, "crowdspec: note: %s has no prior_<class> columns: the class prior is uniform\n",
                         escape_controls(wf.source).c_str());
        if (!unknown.empty()) {
            std::string listed;
            for (std::size_t i = 0; i < unknown.size() && i < 5; ++i) listed += (i ? ", " : "") + quote_field(unknown[i]);
            if (unknown.size() > 5) listed += ", ...";
            std::fprintf(stderr,
                         "crowdspec: note: %zu workers of %s are not in %s (%s): their labels are weighed by the "
                         "average of its %zu workers' confusion matrices\n",
                         unknown.size(), escape_controls(table.source).c_str(), escape_controls(wf.source).c_str(),
                         escape_controls(listed).c_str(), known);
        }
        // The library's other notes (impossible items); the unknown workers are told above.
        if ((result.notes & ~CS_NOTE_UNKNOWN_WORKERS) != 0) report_fit_notes(model.get(), "predict", &table.item_names);
    }
    model.reset();
    write_item_results(out, item_format, table, result, "predict");
    out.commit();
    return kExitOk;
}

}  // namespace cli
