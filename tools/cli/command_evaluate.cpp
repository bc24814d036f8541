// SPDX-License-Identifier: MIT
// `crowdspec evaluate`: fit one or every method and score it against a truth file,
// one JSON object per method per line on stdout.
#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "io/binary_labels.hpp"
#include "cli/command_answers.hpp"
#include "cli/command_args.hpp"
#include "cli/commands.hpp"
#include "fitting/fitting.hpp"
#include "common/interrupt.hpp"
#include "io/crowd_input.hpp"
#include "io/label_file.hpp"
#include "io/output.hpp"
#include "report/quality.hpp"

namespace cli {

std::string evaluate_help() {
    return std::string(
               "Usage: crowdspec evaluate [--truth TRUTHFILE] [options] FILE\n"
               "\n"
               "Fit the crowd labels in FILE with one method, a list (--method mv,ds,opt-ds) or\n"
               "--method all (every method the library provides) and score the inferred labels\n"
               "against TRUTHFILE (lines `item label`, or a table with a header, read like a gold\n"
               "file: see Input files below; identical repeated entries are fine, conflicting\n"
               "ones are an error). Without --truth, the gold column of FILE itself (Toloka's\n"
               "GOLDEN:<name>, or --gold-col) is the truth; it is not pinned during the fits.\n"
               "Prints one JSON object per method per line, e.g.\n"
               "  {\"method\":\"opt-ds\",\"error_rate\":0.101852,\"scored\":108,\"iterations\":12,\n"
               "   \"converged\":true,\"seconds\":0.001200,\"log_likelihood\":-1888.74,\"notes\":[]}\n"
               "error_rate = fraction of scored items whose inferred label differs from the\n"
               "truth; scored = truth items present in FILE (other truth items are ignored; a\n"
               "truth label that is not one of the classes counts as an error); seconds = wall\n"
               "time of the fit alone. For mv, error_rate_tie_fractional also scores an item\n"
               "tied between t classes, the truth among them, as 1/t correct. calibration\n"
               "scores the posteriors: ece (expected calibration error: 10 equal-width bins of\n"
               "the confidence, sum of bin share x |accuracy - mean confidence|), brier (mean\n"
               "of sum_t (p_t - [t = truth])^2), mean_confidence, and how the library calibrated\n"
               "them (source none, labels or gold; temperature; mixing; see --param\n"
               "calibration in crowdspec(1)). With --gold, the gold items are pinned in every\n"
               "fit and left out of the scores. With --ordinal,\n"
               "and always for the ordinal methods (ordinal-minimax, ordinal-ds), the classes are\n"
               "grades in their order and two more fields follow the error rate:\n"
               "mean_absolute_error = mean |label - truth| in grades (class positions) and\n"
               "mean_absolute_error_median the same for each item's posterior median grade (the\n"
               "label that minimises the expected absolute error); a truth label that is not a\n"
               "class is left out of both.\n"
               "\n"
               "Options:\n"
               "  -t, --truth TRUTHFILE   the ground truth (default: FILE's gold column)\n"
               "      --gold GOLDFILE     known labels pinned in every fit (semi-supervised, as\n"
               "                          for fit --gold); the scores leave these items out\n"
               "  -m, --method NAME[,NAME...]|all\n"
               "                          a method (see below), a comma-separated list run in\n"
               "                          that order, or all: every method in turn\n"
               "  -h, --help              show this help\n\n") +
           fit_options_help() + "\n" + answers_help() +
           "With --answers numbers, each line is {\"method\", \"mae\", \"rmse\", \"scored\", ...}\n"
           "against a truth file of `item value` lines; with --answers tags, {\"method\",\n"
           "\"hamming_loss\", \"exact_set_accuracy\", \"macro_f1\", \"micro_f1\", \"f1\": {tag: F1},\n"
           "...} against `item tags` lines (a delimited list, or one line per tag).\n\n" +
           kInputHelp + kPresetHelp + "\n" + kMappingHelp + "\n" + kExitCodesHelp;
}

namespace {

/// A truth item found in the crowd: its item index and true class (-1 when the truth
/// label is not among the classes, which always scores as an error).
struct ScoredItem {
    int32_t item;
    int32_t truth;
};

// Matches truth lines to crowd items and classes, reporting once on stderr what
// could not be matched.
std::vector<ScoredItem> match_truth(const CrowdTable &table, const TruthTable &truth, bool quiet) {
    const NameIndex items(table.item_names, true);
    const NameIndex classes(table.class_names, true);
    std::vector<ScoredItem> scored;
    scored.reserve(truth.entries.size());
    std::size_t absent = 0, foreign = 0;
    std::string foreign_example;
    for (const auto &[item, label] : truth.entries) {
        const int32_t j = items.find(item);
        if (j < 0) {
            ++absent;
            continue;
        }
        const int32_t c = classes.find(label);
        if (c < 0 && foreign++ == 0) foreign_example = label;
        scored.push_back({j, c});
    }
    if (scored.empty())
        throw CliError(kExitInput, truth.source + ": none of its " + std::to_string(truth.entries.size()) +
                                       " items appears in " + table.source);
    if (absent > 0 && !quiet)
        std::fprintf(stderr, "crowdspec: note: %zu of %zu truth items do not appear in %s and are not scored\n",
                     absent, truth.entries.size(), table.source.c_str());
    if (foreign > 0 && !quiet)
        std::fprintf(stderr,
                     "crowdspec: note: %zu truth labels (e.g. '%s') are not among the %zu classes; "
                     "they count as errors\n",
                     foreign, foreign_example.c_str(), table.class_names.size());
    return scored;
}

// Fraction of scored items whose hard label differs from the truth.
double error_rate(const std::vector<ScoredItem> &scored, const std::vector<int32_t> &labels) {
    std::size_t wrong = 0;
    for (const ScoredItem &s : scored)
        if (s.truth < 0 || labels[static_cast<std::size_t>(s.item)] != s.truth) ++wrong;
    return static_cast<double>(wrong) / static_cast<double>(scored.size());
}

// Mean absolute error in grades (class positions) of `grades` over the scored items
// whose truth is one of the classes: the L1 error of ordinal crowds (Zhou et al. 2014).
double mean_absolute_error(const std::vector<ScoredItem> &scored, const std::vector<int32_t> &grades) {
    double sum = 0.0;
    std::size_t n = 0;
    for (const ScoredItem &s : scored) {
        if (s.truth < 0) continue;
        sum += std::abs(grades[static_cast<std::size_t>(s.item)] - s.truth);
        ++n;
    }
    return n > 0 ? sum / static_cast<double>(n) : 0.0;
}

// The papers' majority-vote score: an item whose top vote share is shared by t classes,
// the truth among them, counts 1/t correct. mv's posteriors are the vote shares, and
// equal counts give bit-identical shares, so exact comparison finds the ties.
double tie_fractional_error_rate(const std::vector<ScoredItem> &scored, const std::vector<double> &posteriors,
                                 std::size_t k) {
    double correct = 0.0;
    for (const ScoredItem &s : scored) {
        if (s.truth < 0) continue;
        const double *p = posteriors.data() + static_cast<std::size_t>(s.item) * k;
        double top = p[0];
        for (std::size_t l = 1; l < k; ++l)
            if (p[l] > top) top = p[l];
        if (p[s.truth] != top) continue;
        std::size_t tied = 0;
        for (std::size_t l = 0; l < k; ++l)
            if (p[l] == top) ++tied;
        correct += 1.0 / static_cast<double>(tied);
    }
    return 1.0 - correct / static_cast<double>(scored.size());
}

// `,"calibration":{...}`: how well the posteriors' confidence matches the truth
// (report/quality.hpp) and what calibration the library applied.
void append_calibration(std::string &line, const cs_model *model, const std::vector<ScoredItem> &scored,
                        const std::vector<int32_t> &labels, const std::vector<double> &posteriors, std::size_t k) {
    std::vector<double> confidence, truth_prob, sum_sq;
    std::vector<bool> correct;
    for (const ScoredItem &s : scored) {
        const double *p = posteriors.data() + static_cast<std::size_t>(s.item) * k;
        double top = 0.0, squares = 0.0;
        for (std::size_t t = 0; t < k; ++t) {
            top = std::max(top, p[t]);
            squares += p[t] * p[t];
        }
        confidence.push_back(top);
        correct.push_back(s.truth >= 0 && labels[static_cast<std::size_t>(s.item)] == s.truth);
        truth_prob.push_back(s.truth >= 0 ? p[s.truth] : 0.0);
        sum_sq.push_back(squares);
    }
    const Calibration c = calibration_against_truth(confidence, correct, truth_prob, sum_sq);
    double temperature = 1.0, mixing = 0.0;
    int32_t source = CS_CALIBRATION_NONE;
    check_status(model, cs_calibration(model, &temperature, &mixing, &source), "reading the calibration");
    line += ",\"calibration\":{\"ece\":";
    append_number(line, "%.6f", c.ece);
    line += ",\"brier\":";
    append_number(line, "%.6f", c.brier);
    line += ",\"mean_confidence\":";
    append_number(line, "%.6f", c.mean_confidence);
    line += source == CS_CALIBRATION_GOLD ? ",\"source\":\"gold\"" : source == CS_CALIBRATION_LABELS ? ",\"source\":\"labels\"" : ",\"source\":\"none\"";
    line += ",\"temperature\":";
    append_number(line, "%.6g", temperature);
    line += ",\"mixing\":";
    append_number(line, "%.6g", mixing);
    line += "}";
}

// Fits one method and returns its JSON line.
std::string evaluate_method(cs_model *model, int32_t method, const CrowdTable &table,
                            const std::vector<ScoredItem> &scored, FitMonitor &monitor, bool quiet) {
    const std::string name = cs_method_name(method);
    const double seconds = timed_fit(model, table, name, &monitor);
    if (!quiet) report_fit_notes(model, name, &table.item_names);

    const std::size_t n_items = table.item_names.size(), k = table.class_names.size();
    const std::vector<int32_t> labels = fitted_labels(model, n_items);
    int32_t iterations = 0, converged = 0, notes = 0;
    double log_likelihood = 0.0;
    check_status(model, cs_iterations(model, &iterations), "reading the iterations");
    check_status(model, cs_converged(model, &converged), "reading the converged flag");
    check_status(model, cs_fit_notes(model, &notes), "reading the fit notes");
    check_status(model, cs_log_likelihood(model, &log_likelihood), "reading the log-likelihood");

    std::string line = "{\"method\":";
    append_json_string(line, name);
    line += ",\"error_rate\":";
    append_number(line, "%.6f", error_rate(scored, labels));
    if (method == CS_METHOD_MV) {
        line += ",\"error_rate_tie_fractional\":";
        append_number(line, "%.6f", tie_fractional_error_rate(scored, fitted_posteriors(model, n_items, k), k));
    }
    // Ordered grades (an ordinal method or --ordinal): the mean absolute error of the
    // labels and of the posterior medians, in grades.
    std::vector<int32_t> medians(n_items);
    if (n_items > 0 && cs_median_grades(model, medians.data(), medians.size()) == CS_OK) {
        line += ",\"mean_absolute_error\":";
        append_number(line, "%.6f", mean_absolute_error(scored, labels));
        line += ",\"mean_absolute_error_median\":";
        append_number(line, "%.6f", mean_absolute_error(scored, medians));
    }
    line += ",\"scored\":" + std::to_string(scored.size());
    line += ",\"iterations\":" + std::to_string(iterations);
    line += converged ? ",\"converged\":true" : ",\"converged\":false";
    line += ",\"seconds\":";
    append_number(line, "%.6f", seconds);
    line += ",\"log_likelihood\":";
    append_number(line, "%.15g", log_likelihood);
    append_calibration(line, model, scored, labels, fitted_posteriors(model, n_items, k), k);
    append_notes(line, notes);
    line += "}\n";
    return line;
}

}  // namespace

int run_evaluate(const std::vector<std::string> &args, std::size_t first) {
    std::vector<OptionSpec> specs = fit_option_specs();
    for (const OptionSpec &s : input_option_specs()) specs.push_back(s);
    specs.push_back({"truth", true, 't'});
    specs.push_back({"gold", true, '\0'});
    for (const OptionSpec &s : answer_option_specs()) specs.push_back(s);
    const std::optional<ParsedArgs> maybe_parsed = parse_command("evaluate", args, first, specs, evaluate_help);
    if (!maybe_parsed) return kExitOk;
    const ParsedArgs &parsed = *maybe_parsed;
    if (answers_requested(parsed)) return run_evaluate_answers(parsed);
    single_input(parsed, "evaluate");
    const std::optional<std::string> truth_path = parsed.last("truth");
    if (truth_path && truth_path->empty()) throw CliError(kExitUsage, "evaluate: --truth needs a file name");
    if (truth_path && *truth_path == "-" && parsed.positionals[0] == "-")
        throw CliError(kExitUsage, "evaluate: FILE and --truth cannot both be standard input");

    const InterruptGuard interrupt_guard;  // Ctrl-C stops the current fit cleanly
    const FitSettings settings = fit_settings_from(parsed);
    const InputOptions input = input_options_from(parsed);
    const std::vector<int32_t> methods = method_list(settings.method);
    // One configured handle per method, made before reading: bad options fail fast.
    std::vector<ModelPtr> models;
    for (int32_t m : methods) models.push_back(make_model(m, settings));

    // A binary label file (`crowdspec convert`) stays mapped and is fitted in place.
    const CrowdTable table = is_binary_label_file(parsed.positionals[0])
                                 ? read_binary_crowd_file(parsed.positionals[0], settings.classes)
                                 : read_crowd_file(parsed.positionals[0], settings.classes, input);
    if (!settings.quiet) {
        const std::string note = crowd_read_note(table);
        if (!note.empty()) std::fprintf(stderr, "crowdspec: note: %s\n", escape_controls(note).c_str());
    }
    if (!truth_path && table.file_gold.entries.empty())
        throw CliError(kExitUsage, "evaluate: --truth TRUTHFILE is required (" + table.source +
                                       " has no gold column; --gold-col names one)");
    const TruthTable truth = truth_path ? read_truth_file(*truth_path, input) : table.file_gold;
    if (truth_path && !table.file_gold.entries.empty() && !settings.quiet)
        std::fprintf(stderr, "crowdspec: note: scoring against %s, not the gold column of %s\n",
                     escape_controls(truth.source).c_str(), escape_controls(table.source).c_str());
    std::vector<ScoredItem> scored = match_truth(table, truth, settings.quiet);
    // --gold: pinned in every fit, and not scored (a pinned item's label is given).
    const std::optional<std::string> gold_path = parsed.last("gold");
    if (gold_path) {
        const MatchedGold gold = match_gold(table, read_truth_file(*gold_path, input), *gold_path);
        for (ModelPtr &m : models) {
            const std::string note = pin_gold(m.get(), table, gold);
            if (!note.empty() && !settings.quiet && &m == &models.front())
                std::fprintf(stderr, "crowdspec: note: %s\n", escape_controls(note).c_str());
        }
        std::vector<bool> pinned(table.item_names.size(), false);
        for (int32_t j : gold.item) pinned[static_cast<std::size_t>(j)] = true;
        scored.erase(std::remove_if(scored.begin(), scored.end(),
                                    [&](const ScoredItem &s) { return pinned[static_cast<std::size_t>(s.item)]; }),
                     scored.end());
        if (scored.empty()) throw CliError(kExitInput, "evaluate: every truth item is a gold item; nothing to score");
    }
    FitMonitor monitor(settings.quiet);

    // A method that fails is reported and the others still run; the exit code then
    // says that a fit failed.
    int status = kExitOk;
    for (std::size_t i = 0; i < methods.size(); ++i) {
        try {
            write_stdout(evaluate_method(models[i].get(), methods[i], table, scored, monitor, settings.quiet));
        } catch (const CliError &e) {
            if (e.exit_code() != kExitFit) throw;
            std::fprintf(stderr, "crowdspec: %s\n", e.what());
            status = kExitFit;
        }
        models[i].reset();  // free each fit's results as soon as it is scored
    }
    return status;
}

}  // namespace cli
