// SPDX-License-Identifier: MIT
// `crowdspec report`: fit the crowd labels and write one self-contained HTML page — no
// scripts, no network, no external stylesheets or fonts — with inline SVG charts of
// what a team lead checks before trusting the labels: how accurate the workers are,
// how far the estimated labels moved from majority vote, the confusion matrices of
// the least reliable workers, and whether the fit converged.
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <unordered_map>

#include "cli/command_answers.hpp"
#include "cli/command_args.hpp"
#include "cli/commands.hpp"
#include "common/interrupt.hpp"
#include "fitting/fitting.hpp"
#include "fitting/model_assist.hpp"
#include "io/crowd_input.hpp"
#include "io/label_file.hpp"
#include "io/output.hpp"
#include "io/result_writers.hpp"
#include "report/report_page.hpp"

namespace cli {

using report::GoldTally;
using report::MethodScore;
using report::ReportInput;
using report::has_reference;
using report::ReportTables;

std::string report_help() {
    return std::string(
               "Usage: crowdspec report [options] [--output REPORT.html] FILE\n"
               "\n"
               "Fit the crowd labels in FILE (like crowdspec fit) and write one self-contained\n"
               "HTML file (inline SVG charts and CSS; no scripts, no network access) with:\n"
               "  - a summary: items, workers, labels, classes, method, iterations, converged,\n"
               "    log-likelihood, notes, the class prior, how FILE was read;\n"
               "  - the items to relabel first: the --relabel-count items of highest label-next\n"
               "    score (the expected fall in the chance that the item's label is wrong if one\n"
               "    more label is bought from a typical worker; ties: lower confidence, then\n"
               "    fewer labels first), with their votes; gold items are left out;\n"
               "  - the workers to review, each tag by its rule (workers with at least\n"
               "    --min-labels labels; k = number of classes):\n"
               "      below-chance  estimated accuracy below 1/k (guessing at random)\n"
               "      spammer       near-constant answers: one answer is at least 90% of its\n"
               "                    labels and its confusion matrix gives that answer with\n"
               "                    probability >= 0.5 for every true class\n"
               "      adversary     right less often than guessing beyond reasonable doubt: the\n"
               "                    upper end of the 95% interval of its accuracy (posterior\n"
               "                    Beta of the share of its labels right, soft counts) < 1/k\n"
               "    with each worker's interval, spammer score (Raykar-Yu: 0 its answers\n"
               "    ignore the item, 1 perfect) and worst class;\n"
               "  - with --truth: accuracy on the truth items per method (the --method list and\n"
               "    mv; items pinned as gold are not scored) and per worker (share of its\n"
               "    labels on truth items that are right); without --truth, per worker on the\n"
               "    gold items (--gold, or FILE's gold column);\n"
               "  - agreement between workers: Krippendorff's alpha (nominal; 1 = perfect,\n"
               "    0 = chance, from the coincidence matrix of the labels on items with two or\n"
               "    more labels) and per class the chance that another label on an item with\n"
               "    a label of that class agrees with it;\n"
               "  - the distribution of the workers' estimated accuracy (sum over classes l of\n"
               "    prior_l * pi_l_l), a histogram;\n"
               "  - the estimated labels against plain majority vote: a table of how many items\n"
               "    of each majority-vote class got each final label, and the share changed;\n"
               "  - the confusion matrices of the least reliable workers (lowest accuracy among\n"
               "    those with at least --min-labels labels), as heatmaps;\n"
               "  - the log-likelihood after every EM round, a line chart.\n"
               "\n"
               "Options:\n"
               "  -o, --output FILE       the HTML file, written atomically (default: stdout)\n"
               "  -m, --method NAME[,NAME...]\n"
               "                          the method of the page (default auto); further\n"
               "                          methods are fitted too and scored on --truth\n"
               "      --gold FILE         known true labels pinned during the fit (as in fit)\n"
               "  -t, --truth FILE        true labels to score the methods and workers on (read\n"
               "                          like a gold file; not pinned)\n"
               "      --model-probs FILE  a classifier's probabilities, one row per item (as in fit)\n"
               "      --relabel FILE      also write the items to relabel first: rank, item,\n"
               "                          label, confidence, label_next, labels, votes_<class>... (CSV; TSV,\n"
               "                          JSON or JSON lines by the extension)\n"
               "      --relabel-count N   how many items to relabel to list (default 20)\n"
               "      --review-workers FILE  also write the workers to review: worker, labels,\n"
               "                          accuracy, tags, top_answer, top_share, gold_labels,\n"
               "                          gold_accuracy, reason, accuracy_low, accuracy_high,\n"
               "                          spammer, worst_class (format as --relabel; all of\n"
               "                          them, where the page shows the first 100)\n"
               "      --worst N           how many least reliable workers to show (default 6)\n"
               "      --min-labels N      only workers with at least N labels are ranked as least\n"
               "                          reliable and tagged for review (default 10; the\n"
               "                          ranking takes all workers if none has N)\n"
               "  -h, --help              show this help\n\n") +
           fit_options_help() + "\n" + kInputHelp + kPresetHelp + "\n" + kMappingHelp + "\n" + kExitCodesHelp;
}

namespace {

// The triples that count once per (item, worker): all of them unless --duplicates
// first|last let repeats through, then the one the library keeps.
std::vector<std::size_t> counted_triples(const CrowdTable &t, const FitSettings &settings) {
    std::string rule;
    for (const ParamSetting &p : settings.params)
        if (p.name == "duplicates") rule = p.value;
    std::vector<std::size_t> kept(t.item.size());
    std::iota(kept.begin(), kept.end(), std::size_t{0});
    if (rule != "first" && rule != "last") return kept;  // reject: a repeat fails the fit
    std::unordered_map<uint64_t, std::size_t> chosen;
    chosen.reserve(t.item.size());
    for (std::size_t e = 0; e < t.item.size(); ++e) {
        const uint64_t key = (static_cast<uint64_t>(static_cast<uint32_t>(t.item[e])) << 32) |
                             static_cast<uint32_t>(t.worker[e]);
        auto [it, added] = chosen.emplace(key, e);
        if (!added && rule == "last") it->second = e;
    }
    kept.clear();
    for (const auto &entry : chosen) kept.push_back(entry.second);
    std::sort(kept.begin(), kept.end());
    return kept;
}

// Fits `method` with the page's settings and gold and scores it on the truth items
// that are not pinned.
MethodScore score_method(int32_t method, const FitSettings &settings, const CrowdTable &table,
                         const MatchedGold &gold, const ReportInput &in, FitMonitor &monitor) {
    MethodScore s;
    s.method = cs_method_name(method);
    try {
        ModelPtr model = make_model(method, settings);
        pin_gold(model.get(), table, gold);
        timed_fit(model.get(), table, s.method, &monitor);
        const std::vector<int32_t> labels = fitted_labels(model.get(), table.item_names.size());
        for (std::size_t j = 0; j < labels.size(); ++j) {
            if (!has_reference(in, j) || in.pinned[j]) continue;
            ++s.scored;
            if (labels[j] == in.reference[j]) ++s.correct;
        }
    } catch (const CliError &e) {
        if (e.exit_code() != kExitFit) throw;
        s.failure = e.what();
    }
    return s;
}

}  // namespace

int run_report(const std::vector<std::string> &args, std::size_t first) {
    std::vector<OptionSpec> specs = fit_option_specs();
    for (const OptionSpec &s : input_option_specs()) specs.push_back(s);
    specs.push_back({"output", true, 'o'});
    specs.push_back({"gold", true, '\0'});
    specs.push_back({"truth", true, 't'});
    specs.push_back({"relabel", true, '\0'});
    specs.push_back({"relabel-count", true, '\0'});
    specs.push_back({"review-workers", true, '\0'});
    specs.push_back({"worst", true, '\0'});
    specs.push_back({"min-labels", true, '\0'});
    for (const OptionSpec &s : answer_option_specs()) specs.push_back(s);
    specs.push_back({"model-probs", true, '\0'});
    const std::optional<ParsedArgs> maybe_parsed = parse_command("report", args, first, specs, report_help);
    if (!maybe_parsed) return kExitOk;
    const ParsedArgs &parsed = *maybe_parsed;
    if (answers_requested(parsed)) return run_report_answers(parsed);
    single_input(parsed, "report");
    const InterruptGuard interrupt_guard;
    FitSettings settings = fit_settings_from(parsed);
    const InputOptions input = input_options_from(parsed);
    if (settings.method == "all") throw CliError(kExitUsage, "report: --method all is only for 'crowdspec evaluate'");
    const std::vector<int32_t> methods = method_list(settings.method);
    ReportInput in;
    in.method = cs_method_name(methods[0]);
    settings.method = in.method;
    if (auto v = parsed.last("worst")) in.worst = static_cast<std::size_t>(parse_integer_option("worst", *v, 0, 1000));
    if (auto v = parsed.last("min-labels"))
        in.min_labels = static_cast<std::size_t>(parse_integer_option("min-labels", *v, 0, 1000000000));
    if (auto v = parsed.last("relabel-count"))
        in.relabel_count = static_cast<std::size_t>(parse_integer_option("relabel-count", *v, 0, 1000000000));
    const std::optional<std::string> gold_path = parsed.last("gold");
    const std::optional<std::string> truth_path = parsed.last("truth");
    for (const auto &[option, path] : {std::pair<const char *, const std::optional<std::string> &>{"--gold", gold_path},
                                       {"--truth", truth_path}}) {
        if (path && path->empty()) throw CliError(kExitUsage, std::string("report: ") + option + " needs a file name");
        if (path && *path == "-" && parsed.positionals[0] == "-")
            throw CliError(kExitUsage, std::string("report: FILE and ") + option + " cannot both be standard input");
    }
    if (gold_path && truth_path && *gold_path == "-" && *truth_path == "-")
        throw CliError(kExitUsage, "report: --gold and --truth cannot both be standard input");
    if (methods.size() > 1 && !truth_path)
        throw CliError(kExitUsage, "report: --method " + parsed.last("method").value_or("") +
                                       ": the methods after the first are only scored on --truth FILE; give one");
    const std::string output_path = parsed.last("output").value_or("");
    in.relabel_path = parsed.last("relabel").value_or("");
    in.review_path = parsed.last("review-workers").value_or("");
    {
        std::vector<std::pair<std::string, std::string>> outputs = {{"--output", output_path}};
        if (parsed.has("relabel")) outputs.emplace_back("--relabel", in.relabel_path);
        if (parsed.has("review-workers")) outputs.emplace_back("--review-workers", in.review_path);
        int to_stdout = 0;
        for (std::size_t a = 0; a < outputs.size(); ++a) {
            const std::string &p = outputs[a].second;
            if (p.empty() || p == "-") {
                if (a > 0 && (p.empty()))
                    throw CliError(kExitUsage, "report: " + outputs[a].first + " needs a file name");
                ++to_stdout;
            }
            for (std::size_t b = a + 1; b < outputs.size(); ++b)
                if (!p.empty() && p != "-" && p == outputs[b].second)
                    throw CliError(kExitUsage, "report: " + outputs[a].first + " and " + outputs[b].first +
                                                   " name the same file '" + p + "'");
        }
        if (to_stdout > 1)
            throw CliError(kExitUsage, "report: only one of the page, --relabel and --review-workers can go to "
                                       "standard output");
    }
    const ResultFormat relabel_format = result_format(std::nullopt, in.relabel_path, "--relabel");
    const ResultFormat review_format = result_format(std::nullopt, in.review_path, "--review-workers");
    for (ResultFormat f : {relabel_format, review_format})
        if (f == ResultFormat::JsonNested) throw CliError(kExitUsage, "report: json-nested is not a table layout");

    ModelPtr model = make_model(methods[0], settings);
    ModelPtr majority = make_model(CS_METHOD_MV, settings);
    OutputFile out(output_path);
    std::optional<OutputFile> relabel_out, review_out;
    if (parsed.has("relabel")) relabel_out.emplace(in.relabel_path);
    if (parsed.has("review-workers")) review_out.emplace(in.review_path);
    CrowdTable table = read_crowd_file(parsed.positionals[0], settings.classes, input);
    in.read_note = crowd_read_note(table);
    if (!settings.quiet && !in.read_note.empty())
        std::fprintf(stderr, "crowdspec: note: %s\n", escape_controls(in.read_note).c_str());
    const MatchedGold gold = gold_for_fit(table, gold_path, input);
    in.gold_note = pin_gold(model.get(), table, gold);
    in.pinned.assign(table.item_names.size(), false);
    for (int32_t j : gold.item) in.pinned[static_cast<std::size_t>(j)] = true;
    // The reference labels: --truth, else the pinned gold.
    in.reference.assign(table.item_names.size(), -1);
    if (truth_path) {
        const TruthTable truth = read_truth_file(*truth_path, input);
        const NameIndex items(table.item_names, true);
        const NameIndex classes(table.class_names, true);
        for (const auto &[item, label] : truth.entries) {
            const int32_t j = items.find(item);
            if (j < 0) continue;
            const int32_t c = classes.find(label);
            in.reference[static_cast<std::size_t>(j)] = c >= 0 ? c : -2;
        }
        in.have_truth = true;
        in.reference_name = truth.source;
        if (std::none_of(in.reference.begin(), in.reference.end(), [](int32_t c) { return c != -1; }))
            throw CliError(kExitInput, truth.source + ": none of its " + std::to_string(truth.entries.size()) +
                                           " items appears in " + table.source);
        for (std::size_t j = 0; j < in.reference.size(); ++j)
            if (in.reference[j] != -1 && in.pinned[j]) ++in.truth_pinned;
    } else if (!gold.sources.empty()) {
        for (std::size_t e = 0; e < gold.item.size(); ++e) in.reference[static_cast<std::size_t>(gold.item[e])] = gold.label[e];
        in.reference_name = "the gold items (" + gold.sources + ")";
    }
    if (!in.gold_note.empty() && !settings.quiet)
        std::fprintf(stderr, "crowdspec: note: %s\n", escape_controls(in.gold_note).c_str());

    if (const std::optional<std::string> probs = parsed.last("model-probs")) {
        const std::string note = apply_model_probs(model.get(), table, *probs);
        if (!settings.quiet) std::fprintf(stderr, "crowdspec: note: %s\n", escape_controls(note).c_str());
    }
    FitMonitor monitor(settings.quiet);
    const double seconds = timed_fit(model.get(), table, in.method, &monitor);
    in.notes_message = name_items_in_note(cs_last_error(model.get()), table.item_names);  // the fit's notes
    if (!settings.quiet) report_fit_notes(model.get(), in.method, &table.item_names);
    FitOutcome fit = fetch_outcome(model.get(), table);
    fit.seconds = seconds;
    in.label_next = fetch_label_next(model.get(), fit.n_items);
    const WorkerDiagnostics diagnostics = fetch_worker_diagnostics(model.get(), fit.n_workers);
    in.spammer = diagnostics.spammer;
    in.accuracy_low = diagnostics.low;
    in.accuracy_high = diagnostics.high;
    in.worst_class = diagnostics.worst_class;
    model.reset();
    timed_fit(majority.get(), table, "mv", &monitor);
    in.mv_labels = fitted_labels(majority.get(), table.item_names.size());
    majority.reset();

    in.table = &table;
    in.fit = &fit;
    in.kept = counted_triples(table, settings);
    if (in.have_truth) {
        std::vector<int32_t> scored = methods;
        if (std::find(scored.begin(), scored.end(), CS_METHOD_MV) == scored.end()) scored.push_back(CS_METHOD_MV);
        for (int32_t m : scored) {
            if (m == methods[0]) {
                MethodScore s;
                s.method = in.method;
                for (std::size_t j = 0; j < fit.labels.size(); ++j) {
                    if (!has_reference(in, j) || in.pinned[j]) continue;
                    ++s.scored;
                    if (fit.labels[j] == in.reference[j]) ++s.correct;
                }
                in.scores.push_back(s);
            } else {
                in.scores.push_back(score_method(m, settings, table, gold, in, monitor));
            }
        }
    }
    const ReportTables tables = report_tables(in);
    out.write(report_html(in, tables));
    if (relabel_out) write_relabel_file(*relabel_out, relabel_format, in, tables.relabel);
    if (review_out) write_review_file(*review_out, review_format, in, tables.review, tables.accuracy, tables.gold);
    // Every file is complete before any replaces its destination.
    out.commit();
    if (relabel_out) relabel_out->commit();
    if (review_out) review_out->commit();
    return kExitOk;
}

}  // namespace cli
