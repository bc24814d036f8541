// SPDX-License-Identifier: MIT
// `crowdspec fit` and `crowdspec evaluate` for tags and numbers (`--answers`): read the
// answers (io/answer_file.hpp), fit with the library (fitting/answer_fitting.hpp),
// write the items and workers (io/answer_results.hpp) or the scores.
#include "cli/command_answers.hpp"

#include <cmath>
#include <cstdio>

#include "cli/command_args.hpp"
#include "common/interrupt.hpp"
#include "fitting/answer_fitting.hpp"
#include "io/answer_results.hpp"
#include "io/output.hpp"
#include "report/answers_page.hpp"

namespace cli {

std::vector<OptionSpec> answer_option_specs() {
    return {{"answers", true, '\0'}, {"tag-delimiter", true, '\0'}, {"threshold", true, '\0'}};
}

std::string answers_help() {
    std::string text =
        "Answers other than one class per item (--answers):\n"
        "      --answers classes|tags|numbers\n"
        "                          what each row answers (default classes). tags: a set of\n"
        "                          tags (multi-label): one row per tag, a delimited list\n"
        "                          `a|b|c`, an empty cell (no tag), a JSON list `[\"a\",\"b\"]`,\n"
        "                          Label Studio's {\"choices\": [...]}, or Toloka's several\n"
        "                          OUTPUT:<tag> true/false columns; a worker who answered an\n"
        "                          item and did not give tag t said \"not t\". Writes item,\n"
        "                          tags (the set at --threshold), p_<tag>... and with -w\n"
        "                          worker, answers, sensitivity_<tag>..., specificity_<tag>...\n"
        "                          numbers: a real value per row; writes item, value, se (its\n"
        "                          standard error) and with -w worker, answers, bias, noise\n"
        "      --tag-delimiter S   separates tags within a cell (default |)\n"
        "      --threshold X|TAG=X,...\n"
        "                          probability from which a tag is in an item's set: one\n"
        "                          value, or per tag (the others 0.5; default 0.5)\n"
        "Methods for numbers: ";
    bool first = true;
    for (int32_t id : answer_methods(AnswerKind::Numbers)) {
        text += std::string(first ? "" : ", ") + cs_method_name(id);
        first = false;
    }
    text += "\n  (auto = student-t). For tags: tag-pooled (auto), or any crowd method above run on\n"
            "  each tag (binary relevance, e.g. --method ds).\n";
    return text;
}

bool answers_requested(const ParsedArgs &parsed) {
    const auto v = parsed.last("answers");
    return v && parse_answer_kind(*v) != AnswerKind::Classes;
}

namespace {

struct AnswerRun {
    AnswerKind kind;
    std::string delimiter = "|";
    InputOptions input;
    FitSettings settings;
    AnswerTable table;
};

AnswerRun read_run(const ParsedArgs &parsed, const char *command) {
    AnswerRun r;
    r.kind = parse_answer_kind(*parsed.last("answers"));
    if (auto d = parsed.last("tag-delimiter")) {
        if (d->empty()) throw CliError(kExitUsage, "--tag-delimiter: give a non-empty separator");
        r.delimiter = *d;
    }
    if (r.kind == AnswerKind::Numbers && (parsed.has("tag-delimiter") || parsed.has("threshold")))
        throw CliError(kExitUsage, std::string(command) + ": --tag-delimiter and --threshold are for --answers tags");
    if (parsed.has("classes"))
        throw CliError(kExitUsage, std::string(command) + ": --classes is for class labels, not --answers " +
                                       (r.kind == AnswerKind::Tags ? "tags" : "numbers"));
    r.settings = fit_settings_from(parsed);
    r.input = input_options_from(parsed);
    single_input(parsed, command);
    return r;
}

void note(const FitSettings &settings, const std::string &text) {
    if (!settings.quiet) std::fprintf(stderr, "crowdspec: note: %s\n", escape_controls(text).c_str());
}

std::string read_note(const AnswerTable &t, AnswerKind kind) {
    std::string s = "read " + std::to_string(t.item.size()) + " answers (" + std::to_string(t.item_names.size()) +
                    " items, " + std::to_string(t.worker_names.size()) + " workers";
    if (kind == AnswerKind::Tags) s += ", " + std::to_string(t.tag_names.size()) + " tags";
    s += ") from " + t.source;
    if (!t.columns_note.empty()) s += "; columns: " + t.columns_note;
    if (t.skipped) s += "; " + std::to_string(t.skipped) + " rows skipped by their assignment status";
    return s;
}

}  // namespace

int run_fit_answers(const ParsedArgs &parsed) {
    const InterruptGuard interrupt_guard;
    AnswerRun r = read_run(parsed, "fit");
    for (const char *option : {"gold", "init-workers"})
        if (parsed.has(option))
            throw CliError(kExitUsage, std::string("fit: --") + option + " is for class labels, not --answers");
    if (r.settings.method == "all" || r.settings.method.find(',') != std::string::npos)
        throw CliError(kExitUsage, "fit: one method at a time (lists and all are for 'crowdspec evaluate')");
    const int32_t method = answer_method_list(r.settings.method, r.kind).front();
    make_model(method, r.settings);  // a bad option fails before any file is read or written
    const std::string output_path = parsed.last("output").value_or("");
    const std::string workers_path = parsed.last("workers").value_or("");
    const ResultFormat item_format = result_format(parsed.last("format"), output_path, "--format");
    const ResultFormat worker_format = result_format(parsed.last("workers-format"), workers_path, "--workers-format");
    if (item_format == ResultFormat::JsonNested || (parsed.has("workers") && worker_format == ResultFormat::JsonNested))
        throw CliError(kExitUsage, "fit: json-nested is the layout of class labels; tags and numbers are written as "
                                   "csv, tsv, json or jsonl");
    if (parsed.has("workers") && (workers_path.empty() || workers_path == "-") && (output_path.empty() || output_path == "-"))
        throw CliError(kExitUsage, "fit: --workers and the items cannot both go to standard output; give --output FILE");
    if (!workers_path.empty() && workers_path == output_path)
        throw CliError(kExitUsage, "fit: --output and --workers name the same file '" + output_path + "'");
    OutputFile out(output_path);
    std::optional<OutputFile> workers_out;
    if (parsed.has("workers")) workers_out.emplace(workers_path);
    const std::string &path = parsed.positionals[0];
    r.table = r.kind == AnswerKind::Tags ? read_tag_file(path, r.input, r.delimiter) : read_number_file(path, r.input);
    note(r.settings, read_note(r.table, r.kind));
    FitMonitor monitor(r.settings.quiet);
    if (r.kind == AnswerKind::Numbers) {
        const NumberOutcome fit = fit_number_table(method, r.settings, r.table, &monitor);
        write_number_items(out, item_format, r.table, fit.value, fit.se);
        if (workers_out) write_number_workers(*workers_out, worker_format, r.table, fit.bias, fit.noise);
    } else {
        const TagOutcome fit = fit_tag_table(method, r.settings, r.table, &monitor);
        const std::vector<double> threshold =
            parse_thresholds(parsed.last("threshold").value_or("0.5"), r.table.tag_names);
        const std::vector<int32_t> member = tag_members(fit, threshold, r.table.tag_names.size());
        write_tag_items(out, item_format, r.table, fit.p, member, r.delimiter);
        if (workers_out) write_tag_workers(*workers_out, worker_format, r.table, fit.sensitivity, fit.specificity);
    }
    out.commit();
    if (workers_out) workers_out->commit();
    return kExitOk;
}

namespace {

std::string json_number(double v, const char *format = "%.6g") {
    if (!std::isfinite(v)) return "null";
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

std::string json_text(const std::string &s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        if (static_cast<unsigned char>(c) < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
            out += buf;
            continue;
        }
        out += c;
    }
    return out + "\"";
}

}  // namespace

int run_evaluate_answers(const ParsedArgs &parsed) {
    const InterruptGuard interrupt_guard;
    AnswerRun r = read_run(parsed, "evaluate");
    const auto truth_path = parsed.last("truth");
    if (!truth_path || truth_path->empty())
        throw CliError(kExitUsage, "evaluate --answers: give the true values or tag sets with --truth FILE");
    const std::vector<int32_t> methods = answer_method_list(r.settings.method, r.kind);
    for (int32_t m : methods) make_model(m, r.settings);
    const std::string &path = parsed.positionals[0];
    r.table = r.kind == AnswerKind::Tags ? read_tag_file(path, r.input, r.delimiter) : read_number_file(path, r.input);
    note(r.settings, read_note(r.table, r.kind));
    for (int32_t method : methods) {
        throw_if_interrupted();
        FitMonitor monitor(r.settings.quiet);
        std::string line;
        if (r.kind == AnswerKind::Numbers) {
            const NumberOutcome fit = fit_number_table(method, r.settings, r.table, &monitor);
            const NumberScores s = score_numbers(r.table, fit, *truth_path, r.input);
            line = "{\"method\":" + json_text(fit.method) + ",\"mae\":" + json_number(s.mae) +
                   ",\"rmse\":" + json_number(s.rmse) + ",\"scored\":" + std::to_string(s.scored) +
                   ",\"iterations\":" + std::to_string(fit.iterations) +
                   ",\"converged\":" + (fit.converged ? "true" : "false") +
                   ",\"seconds\":" + json_number(fit.seconds, "%.6f");
            append_notes(line, fit.notes);
        } else {
            const TagOutcome fit = fit_tag_table(method, r.settings, r.table, &monitor);
            const std::vector<double> threshold =
                parse_thresholds(parsed.last("threshold").value_or("0.5"), r.table.tag_names);
            const std::vector<int32_t> member = tag_members(fit, threshold, r.table.tag_names.size());
            const TagScores s = score_tags(r.table, member, *truth_path, r.input, r.delimiter);
            line = "{\"method\":" + json_text(fit.method) + ",\"hamming_loss\":" + json_number(s.hamming_loss) +
                   ",\"exact_set_accuracy\":" + json_number(s.exact_set_accuracy) +
                   ",\"macro_f1\":" + json_number(s.macro_f1) + ",\"micro_f1\":" + json_number(s.micro_f1) +
                   ",\"f1\":{";
            for (std::size_t g = 0; g < r.table.tag_names.size(); ++g)
                line += (g ? "," : "") + json_text(r.table.tag_names[g]) + ":" + json_number(s.f1[g]);
            line += "},\"scored\":" + std::to_string(s.scored) + ",\"iterations\":" + std::to_string(fit.iterations) +
                    ",\"converged\":" + (fit.converged ? "true" : "false") +
                    ",\"seconds\":" + json_number(fit.seconds, "%.6f");
            append_notes(line, fit.notes);
        }
        line += "}\n";
        std::fputs(line.c_str(), stdout);
        std::fflush(stdout);
    }
    return kExitOk;
}

int run_report_answers(const ParsedArgs &parsed) {
    const InterruptGuard interrupt_guard;
    AnswerRun r = read_run(parsed, "report");
    for (const char *option : {"gold", "relabel", "review-workers"})
        if (parsed.has(option))
            throw CliError(kExitUsage, std::string("report: --") + option + " is for class labels, not --answers");
    if (r.settings.method == "all") throw CliError(kExitUsage, "report: --method all is only for 'crowdspec evaluate'");
    const std::vector<int32_t> methods = answer_method_list(r.settings.method, r.kind);
    for (int32_t m : methods) make_model(m, r.settings);
    const auto truth_path = parsed.last("truth");
    if (truth_path && truth_path->empty()) throw CliError(kExitUsage, "report: --truth needs a file name");
    if (methods.size() > 1 && !truth_path)
        throw CliError(kExitUsage, "report: the methods after the first are only scored on --truth FILE; give one");
    report::AnswersReport in;
    in.kind = r.kind;
    if (auto v = parsed.last("worst")) in.worst = static_cast<std::size_t>(parse_integer_option("worst", *v, 0, 1000));
    OutputFile out(parsed.last("output").value_or(""));
    r.table = r.kind == AnswerKind::Tags ? read_tag_file(parsed.positionals[0], r.input, r.delimiter)
                                         : read_number_file(parsed.positionals[0], r.input);
    in.table = &r.table;
    in.read_note = read_note(r.table, r.kind);
    note(r.settings, in.read_note);
    if (truth_path) in.truth_name = display_name(*truth_path);
    NumberOutcome numbers;
    TagOutcome tags;
    std::vector<double> threshold;
    FitMonitor monitor(r.settings.quiet);
    for (std::size_t a = 0; a < methods.size(); ++a) {
        report::AnswerScore score;
        score.method = answer_method_name(methods[a], r.kind);
        try {
            if (r.kind == AnswerKind::Numbers) {
                NumberOutcome f = fit_number_table(methods[a], r.settings, r.table, &monitor);
                if (truth_path) score.numbers = score_numbers(r.table, f, *truth_path, r.input);
                if (a == 0) numbers = std::move(f);
            } else {
                TagOutcome f = fit_tag_table(methods[a], r.settings, r.table, &monitor);
                if (threshold.empty())
                    threshold = parse_thresholds(parsed.last("threshold").value_or("0.5"), r.table.tag_names);
                const std::vector<int32_t> member = tag_members(f, threshold, r.table.tag_names.size());
                if (truth_path) score.tags = score_tags(r.table, member, *truth_path, r.input, r.delimiter);
                if (a == 0) {
                    tags = std::move(f);
                    in.member = member;
                }
            }
        } catch (const CliError &e) {
            if (a == 0 || e.exit_code() != kExitFit) throw;  // the page's own fit must work
            score.failure = e.what();
        }
        if (truth_path) in.scores.push_back(score);
    }
    in.numbers = &numbers;
    in.tags = &tags;
    out.write(report::answers_report_html(in));
    out.commit();
    return kExitOk;
}

}  // namespace cli
