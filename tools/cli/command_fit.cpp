// SPDX-License-Identifier: MIT
// `crowdspec fit`: crowd labels in; per-item labels and posteriors out, and optionally
// per-worker accuracy and confusion matrices.
#include <cstdio>
#include <unordered_map>

#include "io/binary_labels.hpp"
#include "cli/command_answers.hpp"
#include "cli/command_args.hpp"
#include "cli/commands.hpp"
#include "fitting/fitting.hpp"
#include "fitting/model_assist.hpp"
#include "common/interrupt.hpp"
#include "io/crowd_input.hpp"
#include "io/label_file.hpp"
#include "io/output.hpp"
#include "common/phase_timer.hpp"
#include "io/result_writers.hpp"
#include "io/worker_file.hpp"
#include "fitting/saved_model.hpp"

namespace cli {

namespace {

// --init-workers: the workers file's matrices (and prior, when it has one) as the
// start of EM, matched to the crowd file's workers and classes by name. A worker of
// the crowd file that the workers file lacks gets a row of zeros: the library starts
// it from the majority vote. Returns the note for stderr.
std::string apply_init_workers(cs_model *model, const CrowdTable &table, const WorkerFile &wf) {
    const std::size_t k = table.class_names.size();
    const std::vector<std::size_t> cls = match_worker_classes(
        wf, table.class_names, table.source, "; a warm start needs the same classes (fit without --init-workers)");
    std::unordered_map<std::string, std::size_t> row_of;
    for (std::size_t i = 0; i < wf.worker_names.size(); ++i) row_of.emplace(wf.worker_names[i], i);
    const std::size_t m = table.worker_names.size();
    std::vector<double> confusion(m * k * k, 0.0);
    std::size_t known = 0, zero = 0;  // zero: in the file, but with a row of zeros
    for (std::size_t i = 0; i < m; ++i) {
        auto it = row_of.find(table.worker_names[i]);
        if (it == row_of.end()) continue;
        ++known;
        const double *src = wf.confusion.data() + it->second * k * k;
        bool zero_row = false;
        for (std::size_t l = 0; l < k; ++l) {
            double sum = 0.0;
            for (std::size_t c = 0; c < k; ++c) sum += confusion[(i * k + l) * k + c] = src[cls[l] * k + cls[c]];
            zero_row = zero_row || !(sum > 0.0);
        }
        zero += zero_row;
    }
    check_status(model, cs_set_initial_confusion(model, confusion.data(), confusion.size()),
                 "--init-workers " + wf.source);
    if (!wf.prior.empty()) {
        std::vector<double> prior(k);
        for (std::size_t l = 0; l < k; ++l) prior[l] = wf.prior[cls[l]];
        check_status(model, cs_set_initial_prior(model, prior.data(), prior.size()), "--init-workers " + wf.source);
    }
    // A worker with a row of zeros is unknown to the library (cs_set_initial_confusion):
    // it starts from the majority vote, like a new one.
    std::string note = "warm start from " + wf.source + ": " + std::to_string(known - zero) + " of the " +
                       std::to_string(m) + " workers start from its confusion matrices";
    if (known < m) note += ", " + std::to_string(m - known) + " new ones from the majority vote";
    if (zero > 0)
        note += ", " + std::to_string(zero) + " from the majority vote because its matrix for them has a row of zeros";
    if (wf.worker_names.size() > known)
        note += "; " + std::to_string(wf.worker_names.size() - known) + " of its workers are not in " + table.source + " (ignored)";
    // cs_set_initial_prior: with CS_PRIOR_UNIFORM the prior stays uniform.
    int64_t prior_kind = CS_PRIOR_ESTIMATED;
    cs_get_int(model, CS_PARAM_PRIOR, &prior_kind);
    if (wf.prior.empty())
        note += "; it has no class prior: EM starts from the uniform prior";
    else if (prior_kind == CS_PRIOR_UNIFORM)
        note += "; with --prior uniform its class prior is not used: EM keeps the uniform prior";
    else
        note += "; EM starts from its class prior";
    return note;
}

}  // namespace

std::string fit_help() {
    return std::string(
               "Usage: crowdspec fit [options] FILE\n"
               "\n"
               "Infer each item's true label from the crowd labels in FILE and write one row per\n"
               "item: item, label, confidence, p_<class>... (the original item ids and label\n"
               "strings; confidence = the largest posterior probability; then the posterior of\n"
               "every class) to standard output or to --output. When the classes are ordered\n"
               "grades (--ordinal, or an ordinal method: ordinal-minimax, ordinal-ds) two columns\n"
               "follow: median_grade (the class at which the cumulative posterior reaches 1/2)\n"
               "and mean_grade (the posterior mean of the class read as a number when every\n"
               "class is a number, else of its 0-based position).\n"
               "\n"
               "Options:\n"
               "  -o, --output FILE       write the items to FILE (default: standard output)\n"
               "      --format csv|tsv|json|jsonl|json-nested\n"
               "                          format of the items (default: by the extension of\n"
               "                          --output: .json, .jsonl/.ndjson, .tsv, else csv).\n"
               "                          json: records [{\"item\", \"label\", \"confidence\",\n"
               "                          \"p_<class>\"...}, ...] (pandas.read_json); jsonl: one\n"
               "                          such object per line (read_json(lines=True));\n"
               "                          json-nested: {\"method\", \"classes\", \"items\": [{\"item\",\n"
               "                          \"label\", \"confidence\", \"posterior\": {class: p}}]}\n"
               "  -w, --workers FILE      also write one row per worker: worker, labels (how many\n"
               "                          it gave), accuracy, pi_<true>_<observed>... (its confusion\n"
               "                          matrix, P(answers observed | true class)). accuracy =\n"
               "                          sum over classes l of prior_l * pi_l_l: the chance that\n"
               "                          its label is right on an item drawn from the estimated\n"
               "                          class prior. Then prior_<class>...: that prior, the same\n"
               "                          on every row (read back by predict and --init-workers).\n"
               "                          Format by the extension of FILE as for --output (json:\n"
               "                          records with the same keys). Then the diagnostics:\n"
               "                          spammer (Raykar-Yu: distance of its matrix from rank\n"
               "                          one, 0 spammer .. 1 perfect), worst_class, and\n"
               "                          label_accuracy with its 95 %% interval\n"
               "                          label_accuracy_low/high (posterior Beta of the share\n"
               "                          of its labels right, soft counts)\n"
               "      --workers-format csv|tsv|json|jsonl|json-nested\n"
               "                          format of the workers file (json-nested: {\"method\",\n"
               "                          \"classes\", \"class_prior\", \"workers\": [{\"worker\",\n"
               "                          \"labels\", \"accuracy\", \"confusion\": [[...], ...]}]})\n"
               "      --gold FILE         known true labels (`item label`, or a table with a\n"
               "                          header, e.g. Toloka's INPUT:image, GOLDEN:result)\n"
               "                          pinned during the fit (semi-supervised EM); they also\n"
               "                          inform the workers' confusion matrices. A gold column\n"
               "                          in FILE itself (Toloka's GOLDEN:<name>, --gold-col) is\n"
               "                          pinned too\n"
               "      --init-workers FILE start EM from the workers of FILE (a warm start): the\n"
               "                          workers file of an earlier fit (-w; CSV, TSV, JSON or\n"
               "                          JSONL, or json-nested). Workers are matched by id: a\n"
               "                          worker FILE lacks starts from the majority vote, its\n"
               "                          workers absent here are ignored. Without --classes the\n"
               "                          classes are FILE's (a label outside them is an error);\n"
               "                          with --classes they must be the same set. EM starts from\n"
               "                          FILE's prior_<class> columns (uniform when it has none).\n"
               "                          Only the EM methods (ds, opt-ds, one-coin-ds,\n"
               "                          class-one-coin-ds) start from it; opt-ds then skips its\n"
               "                          spectral stage. A ds fit from the workers of a k-round ds\n"
               "                          fit (--tol 0 --param accel=none) continues it: N rounds\n"
               "                          from it equal k + N - 1 rounds from scratch\n"
               "      --model-probs FILE  a classifier's class probabilities, one row per item\n"
               "                          (CSV/TSV with a header: item, then p_<class> or <class>\n"
               "                          per class; items matched by id as --gold's). The\n"
               "                          Dawid-Skene methods (ds, opt-ds, one-coin-ds,\n"
               "                          class-one-coin-ds, auto) take the model as one more\n"
               "                          worker with its own estimated confusion matrix;\n"
               "                          --method crowdlab weighs it as CROWDLAB does\n"
               "      --scores FILE       one row per item: item, label, confidence, label_next\n"
               "                          (the expected fall in the chance its label is wrong if\n"
               "                          one more label is bought from a typical worker), the\n"
               "                          highest first: the items to send for another label\n"
               "      --label-scores FILE one row per label: item, worker, label, p_wrong (the\n"
               "                          posterior probability that the label is wrong), the\n"
               "                          highest first: the labels to check\n"
               "      --save MODEL        also save the fitted model to MODEL (e.g. model.csm):\n"
               "                          its workers, prior, calibration, labels and the EM\n"
               "                          statistics, with the item, worker and class names, for\n"
               "                          `crowdspec predict --model` and `crowdspec update`\n"
               "                          (methods ds, opt-ds, one-coin-ds, class-one-coin-ds,\n"
               "                          auto; docs/saved-models.md)\n"
               "  -h, --help              show this help\n"
               "Output files are written atomically (FILE.tmp.<pid> in the same directory, then\n"
               "renamed): on any error or interruption the old FILE is left as it was.\n\n") +
           fit_options_help() + "\n" + answers_help() + "\n" + kInputHelp + kPresetHelp + "\n" + kMappingHelp +
           "\n" + kExitCodesHelp;
}

int run_fit(const std::vector<std::string> &args, std::size_t first) {
    std::vector<OptionSpec> specs = fit_option_specs();
    for (const OptionSpec &s : input_option_specs()) specs.push_back(s);
    specs.push_back({"output", true, 'o'});
    specs.push_back({"format", true, '\0'});
    specs.push_back({"workers", true, 'w'});
    specs.push_back({"workers-format", true, '\0'});
    specs.push_back({"gold", true, '\0'});
    specs.push_back({"init-workers", true, '\0'});
    specs.push_back({"save", true, '\0'});
    for (const OptionSpec &s : answer_option_specs()) specs.push_back(s);
    specs.push_back({"model-probs", true, '\0'});
    specs.push_back({"scores", true, '\0'});
    specs.push_back({"label-scores", true, '\0'});
    const std::optional<ParsedArgs> maybe_parsed = parse_command("fit", args, first, specs, fit_help);
    if (!maybe_parsed) return kExitOk;
    const ParsedArgs &parsed = *maybe_parsed;
    if (answers_requested(parsed)) return run_fit_answers(parsed);
    single_input(parsed, "fit");
    const InterruptGuard interrupt_guard;  // Ctrl-C: stop cleanly, remove temporary files
    PhaseTimer phases("fit");  // CROWDSPEC_PHASES=1: where the time goes, on stderr
    const FitSettings settings = fit_settings_from(parsed);
    InputOptions input = input_options_from(parsed);
    input.grouped = true;  // labels grouped by item when the file allows (cs_fit_csr; no item or label arrays)
    if (settings.method == "all")
        throw CliError(kExitUsage, "fit: --method all is only for 'crowdspec evaluate'");
    if (settings.method.find(',') != std::string::npos)
        throw CliError(kExitUsage, "fit: one method at a time (a list --method " + settings.method +
                                       " is for 'crowdspec evaluate' and 'crowdspec report')");
    const int32_t method = method_id(settings.method);
    const std::string output_path = parsed.last("output").value_or("");
    const std::string workers_path = parsed.last("workers").value_or("");
    const std::optional<std::string> gold_path = parsed.last("gold");
    const ResultFormat item_format = result_format(parsed.last("format"), output_path, "--format");
    const ResultFormat worker_format = result_format(parsed.last("workers-format"), workers_path, "--workers-format");
    if (parsed.has("workers") && (workers_path.empty() || workers_path == "-") && (output_path.empty() || output_path == "-"))
        throw CliError(kExitUsage, "fit: --workers and the items cannot both go to standard output; give --output FILE");
    if (!workers_path.empty() && workers_path == output_path)
        throw CliError(kExitUsage, "fit: --output and --workers name the same file '" + output_path + "'");
    if (gold_path && gold_path->empty()) throw CliError(kExitUsage, "fit: --gold needs a file name");
    if (gold_path && *gold_path == "-" && parsed.positionals[0] == "-")
        throw CliError(kExitUsage, "fit: FILE and --gold cannot both be standard input");
    const std::optional<std::string> save_path = parsed.last("save");
    if (save_path && (save_path->empty() || *save_path == "-"))
        throw CliError(kExitUsage, "fit: --save needs a file name (the model is binary)");
    if (save_path && (*save_path == output_path || *save_path == workers_path))
        throw CliError(kExitUsage, "fit: --save names the same file as another output");
    if (save_path) require_saveable_method(settings.method);
    // Configure first: a bad option fails before any file is read or written.
    ModelPtr model = make_model(method, settings);
    // The library keeps the labels for a saved model only when one is asked for: they
    // would otherwise be a copy of the input held through the fit.
    check_status(model.get(), cs_set_int(model.get(), CS_PARAM_KEEP_LABELS, save_path ? 1 : 0), "--save");
    const std::optional<std::string> init_path = parsed.last("init-workers");
    if (init_path && init_path->empty()) throw CliError(kExitUsage, "fit: --init-workers needs a file name");
    if (init_path && *init_path == "-" && (parsed.positionals[0] == "-" || (gold_path && *gold_path == "-")))
        throw CliError(kExitUsage, "fit: --init-workers and another input cannot both be standard input");
    std::optional<WorkerFile> init;
    if (init_path) init = read_worker_file(*init_path);
    // Open the outputs before the (possibly long) read and fit, so a missing directory
    // is reported at once; their temporary files are removed on every error path.
    OutputFile out(output_path);
    std::optional<OutputFile> workers_out;
    if (parsed.has("workers")) workers_out.emplace(workers_path);
    const std::string scores_path = parsed.last("scores").value_or("");
    const std::string label_scores_path = parsed.last("label-scores").value_or("");
    for (const std::string *p : {&scores_path, &label_scores_path})
        if (!p->empty() && (*p == output_path || *p == workers_path || *p == "-"))
            throw CliError(kExitUsage, "fit: --scores and --label-scores need a file of their own, not '" + *p + "'");
    std::optional<OutputFile> scores_out, label_scores_out;
    if (!scores_path.empty()) scores_out.emplace(scores_path);
    if (!label_scores_path.empty()) label_scores_out.emplace(label_scores_path);
    std::optional<OutputFile> model_out;
    if (save_path) model_out.emplace(*save_path);
    // With --init-workers and no --classes, the classes are the workers file's.
    const bool classes_from_init = init && settings.classes.kind == ClassSpec::Kind::Infer;
    const ClassSpec classes = classes_from_init ? worker_file_classes(*init) : settings.classes;
    // A binary label file (`crowdspec convert`) stays mapped and is fitted in place; its
    // item names are read only when needed (for --gold now, else after the fit).
    CrowdTable table = is_binary_label_file(parsed.positionals[0])
                           ? read_binary_crowd_file(parsed.positionals[0], classes, gold_path.has_value())
                           : read_crowd_file(parsed.positionals[0], classes, input);
    phases.mark("read", table.grouped() ? "labels grouped by item" : table.binary ? "binary" : "triples");
    if (classes_from_init)
        check_status(model.get(), cs_set_int(model.get(), CS_PARAM_CLASSES, static_cast<int32_t>(table.class_names.size())),
                     "classes");
    if (!settings.quiet) {
        const std::string note = crowd_read_note(table);
        if (!note.empty()) std::fprintf(stderr, "crowdspec: note: %s\n", escape_controls(note).c_str());
    }
    if (init) {
        const std::string note = apply_init_workers(model.get(), table, *init);
        if (!settings.quiet) std::fprintf(stderr, "crowdspec: note: %s\n", escape_controls(note).c_str());
    }
    const std::string gold_note = apply_gold(model.get(), table, gold_path, input);
    if (!settings.quiet && !gold_note.empty())
        std::fprintf(stderr, "crowdspec: note: %s\n", escape_controls(gold_note).c_str());

    if (const std::optional<std::string> probs = parsed.last("model-probs")) {
        const std::string note = apply_model_probs(model.get(), table, *probs);
        if (!settings.quiet) std::fprintf(stderr, "crowdspec: note: %s\n", escape_controls(note).c_str());
    }

    ungroup_for_fit(model.get(), table);
    phases.mark("setup", table.grouped() ? "cs_fit_csr" : table.binary ? "cs_fit_csr (binary)" : "cs_fit");
    FitMonitor monitor(settings.quiet);
    timed_fit(model.get(), table, settings.method, &monitor);
    phases.mark("fit");
    if (!settings.quiet) report_fit_notes(model.get(), settings.method, &table.item_names);
    std::vector<std::size_t> worker_labels;
    if (workers_out) worker_labels = labels_per_worker(table);
    LabelList scored_labels;
    if (label_scores_out) scored_labels = table_labels(table);
    // The labels are done with: free them before the results are copied and written.
    std::vector<int32_t>().swap(table.code_storage);
    std::vector<int64_t>().swap(table.item_start);
    std::vector<int32_t>().swap(table.item);
    std::vector<int32_t>().swap(table.worker);
    std::vector<int32_t>().swap(table.label);
    if (table.binary) {  // the codes are done with: let their pages go before the results are copied
        table.binary->release_codes();
        fill_item_names(table);
    }
    const FitOutcome fit = fetch_outcome(model.get(), table);
    const std::vector<double> label_next = scores_out ? fetch_label_next(model.get(), fit.n_items) : std::vector<double>();
    const std::vector<double> label_wrong =
        label_scores_out ? fetch_label_wrong(model.get(), scored_labels) : std::vector<double>();
    const WorkerDiagnostics diagnostics =
        workers_out ? fetch_worker_diagnostics(model.get(), fit.n_workers) : WorkerDiagnostics();
    if (model_out) write_saved_model(model.get(), ModelNames{table.item_names, table.worker_names, table.class_names}, *model_out);
    model.reset();  // the results are copied; free the library's before writing
    phases.mark("fetch");

    // JSON replaces ill-formed UTF-8 by U+FFFD, which can merge distinct ids (issue 40, R5).
    if (!settings.quiet) {
        const bool items_json = item_format != ResultFormat::Csv && item_format != ResultFormat::Tsv;
        const bool workers_json = workers_out && worker_format != ResultFormat::Csv && worker_format != ResultFormat::Tsv;
        std::vector<std::string> notes;
        if (items_json) notes.push_back(json_lossy_note(table.item_names, "item ids"));
        if (workers_json) notes.push_back(json_lossy_note(table.worker_names, "worker ids"));
        if (items_json || workers_json) notes.push_back(json_lossy_note(table.class_names, "labels"));
        for (const std::string &note : notes)
            if (!note.empty()) std::fprintf(stderr, "crowdspec: note: %s\n", escape_controls(note).c_str());
    }
    write_item_results(out, item_format, table, fit, settings.method);
    if (workers_out) {
        WorkerReport report;
        report.worker_names = &table.worker_names;
        report.class_names = &table.class_names;
        report.labels = std::move(worker_labels);
        report.confusion = &fit.confusion;
        report.prior = &fit.prior;
        report.method = settings.method;
        report.calibrated = fit.calibration != CS_CALIBRATION_NONE;
        report.temperature = fit.temperature;
        report.mixing = fit.mixing;
        if (!diagnostics.spammer.empty()) {
            report.spammer = &diagnostics.spammer;
            report.worst_class = &diagnostics.worst_class;
            report.label_accuracy = &diagnostics.accuracy;
            report.label_accuracy_low = &diagnostics.low;
            report.label_accuracy_high = &diagnostics.high;
        }
        write_worker_results(*workers_out, worker_format, report);
    }
    if (scores_out) write_item_scores(*scores_out, table, fit, label_next);
    if (label_scores_out) write_label_scores(*label_scores_out, table, scored_labels.item, scored_labels.worker,
                                             scored_labels.label, label_wrong);
    phases.mark("write");
    // Every file is complete before any replaces its destination.
    out.commit();
    if (workers_out) workers_out->commit();
    if (scores_out) scores_out->commit();
    if (label_scores_out) label_scores_out->commit();
    if (model_out) model_out->commit();
    phases.mark("commit");
    return kExitOk;
}

}  // namespace cli
