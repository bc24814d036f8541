// SPDX-License-Identifier: MIT
// `crowdspec rank`: rank items from pairwise comparisons (bt, noisy-bt, crowd-bt):
// `item,score,se,rank` lines best first, --workers for the workers' reliabilities,
// --truth for one JSON line of ranking measures per method (Spearman's rho, Kendall's
// tau, the fraction of pairs ordered correctly), --report for the HTML page.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "cli/clustering_run.hpp"
#include "cli/command_args.hpp"
#include "cli/commands.hpp"
#include "common/options.hpp"
#include "fitting/fitting.hpp"
#include "io/comparison_file.hpp"
#include "io/output.hpp"
#include "report/ranking_page.hpp"
#include "sim/rank_scoring.hpp"

namespace cli {

static_assert(kAnswerLeft == CS_ANSWER_LEFT && kAnswerRight == CS_ANSWER_RIGHT && kAnswerTie == CS_ANSWER_TIE,
              "io/comparison_file.hpp numbers the answers as the library does");

namespace {

// Options that map one-to-one onto library parameters.
const std::vector<std::pair<std::string, std::string>> kRankParams = {
    {"prior", "comparison_prior"}, {"ties", "ties"},           {"max-iter", "max_iter"},
    {"tol", "tol"},                {"threads", "threads"},     {"se-items", "se_items"},
    {"crowd-bt-alpha", "crowd_bt_alpha"}, {"crowd-bt-beta", "crowd_bt_beta"},
    {"score-tol", "score_tol"}};

std::vector<int32_t> rank_methods(const std::string &value) {
    if (value == "all") {
        std::vector<int32_t> ids;
        for (int32_t i = 0; i < cs_method_count(); ++i)
            if (cs_method_input(cs_method_at(i)) == CS_INPUT_COMPARISONS) ids.push_back(cs_method_at(i));
        return ids;
    }
    return {method_of_kind("rank", value, CS_INPUT_COMPARISONS)};
}

struct Fitted {
    std::vector<double> score, se, reliability, trace;
    std::vector<int32_t> rank;
    int32_t iterations = 0, converged = 0, notes = 0;
    double seconds = 0.0;
    std::string message;
};

Fitted fit_method(int32_t method, const ParsedArgs &parsed, const ComparisonTable &table) {
    FitSettings settings;
    for (const auto &[option, value] : parsed.options)
        for (const auto &[opt, name] : kRankParams)
            if (option == opt) settings.params.push_back({"--" + option, name, value});
    ModelPtr model = make_model(method, settings);
    cs_model *m = model.get();
    const std::string name = cs_method_name(method);
    const auto start = std::chrono::steady_clock::now();
    const cs_status status = cs_fit_comparisons(m, table.worker.data(), table.left.data(), table.right.data(),
                                                table.answer.data(), table.left.size());
    Fitted f;
    f.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (status != CS_OK) throw CliError(kExitFit, name + ": " + cs_last_error(m) + " [" + cs_status_string(status) + "]");
    f.message = cs_last_error(m);
    const std::size_t n = table.item_names.size(), workers = table.worker_names.size();
    f.score.resize(n);
    f.se.resize(n);
    f.rank.resize(n);
    check_status(m, cs_scores(m, f.score.data(), f.se.data(), f.rank.data(), n), "reading the scores");
    check_status(m, cs_iterations(m, &f.iterations), "reading the iterations");
    check_status(m, cs_converged(m, &f.converged), "reading the converged flag");
    check_status(m, cs_fit_notes(m, &f.notes), "reading the notes");
    std::size_t length = 0;
    check_status(m, cs_trace_length(m, &length), "reading the trace");
    f.trace.resize(length);
    if (length > 0) check_status(m, cs_trace(m, f.trace.data(), length), "reading the trace");
    if (method != CS_METHOD_BT) {
        f.reliability.resize(workers);
        check_status(m, cs_worker_reliability(m, f.reliability.data(), workers), "reading the reliabilities");
    }
    return f;
}

// Per worker: non-tie answers and the share that prefer the item the fit ranks higher.
void worker_agreement(const ComparisonTable &t, const Fitted &f, std::vector<std::size_t> &answers,
                      std::vector<double> &agreement) {
    answers.assign(t.worker_names.size(), 0);
    agreement.assign(t.worker_names.size(), 0.0);
    for (std::size_t c = 0; c < t.left.size(); ++c) {
        if (t.answer[c] == CS_ANSWER_TIE || t.left[c] == t.right[c]) continue;
        const std::size_t w = static_cast<std::size_t>(t.worker[c]);
        const int32_t winner = t.answer[c] == CS_ANSWER_LEFT ? t.left[c] : t.right[c];
        const int32_t loser = t.answer[c] == CS_ANSWER_LEFT ? t.right[c] : t.left[c];
        ++answers[w];
        if (f.rank[static_cast<std::size_t>(winner)] < f.rank[static_cast<std::size_t>(loser)]) agreement[w] += 1.0;
    }
    for (std::size_t w = 0; w < answers.size(); ++w)
        if (answers[w] > 0) agreement[w] /= static_cast<double>(answers[w]);
}

void write_ranking(const std::string &path, const ComparisonTable &t, const Fitted &f) {
    std::vector<std::size_t> order(f.rank.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return f.rank[a] < f.rank[b]; });
    std::string text = "item,score,se,rank\n";
    for (std::size_t i : order) {
        append_csv_field(text, t.item_names[i]);
        text += ',';
        append_number(text, "%.10g", f.score[i]);
        text += ',';
        append_number(text, "%.6g", f.se[i]);
        text += "," + std::to_string(f.rank[i]) + "\n";
    }
    OutputFile out(path);
    out.write(text);
    out.commit();
}

void write_workers(const std::string &path, const ComparisonTable &t, const Fitted &f) {
    std::vector<std::size_t> answers;
    std::vector<double> agreement;
    worker_agreement(t, f, answers, agreement);
    std::string text = f.reliability.empty() ? "worker,agreement,answers\n" : "worker,reliability,agreement,answers\n";
    for (std::size_t w = 0; w < t.worker_names.size(); ++w) {
        append_csv_field(text, t.worker_names[w]);
        if (!f.reliability.empty()) {
            text += ',';
            append_number(text, "%.6g", f.reliability[w]);
        }
        text += ',';
        append_number(text, "%.6g", agreement[w]);
        text += "," + std::to_string(answers[w]) + "\n";
    }
    OutputFile out(path);
    out.write(text);
    out.commit();
}

void write_report(const std::string &path, const std::string &method, const ComparisonTable &t, const Fitted &f) {
    report::RankingReport r;
    r.source = t.source;
    r.method = method;
    r.read_note = t.columns_note;
    r.notes_message = f.message;
    r.item_names = t.item_names;
    r.worker_names = t.worker_names;
    r.score = f.score;
    r.se = f.se;
    r.rank = f.rank;
    r.reliability = f.reliability;
    r.comparisons.assign(t.item_names.size(), 0);
    r.half_wins.assign(t.item_names.size(), 0);
    for (std::size_t c = 0; c < t.left.size(); ++c) {
        if (t.left[c] == t.right[c]) continue;
        const std::size_t l = static_cast<std::size_t>(t.left[c]), rt = static_cast<std::size_t>(t.right[c]);
        ++r.comparisons[l];
        ++r.comparisons[rt];
        if (t.answer[c] == CS_ANSWER_TIE) {
            ++r.half_wins[l];
            ++r.half_wins[rt];
            ++r.ties;
        } else {
            r.half_wins[t.answer[c] == CS_ANSWER_LEFT ? l : rt] += 2;
        }
    }
    r.n_comparisons = t.left.size();
    worker_agreement(t, f, r.answers, r.agreement);
    r.iterations = f.iterations;
    r.converged = f.converged;
    r.notes = f.notes;
    r.trace = f.trace;
    OutputFile out(path);
    out.write(report::ranking_html(r));
    out.commit();
}

}  // namespace

std::string rank_help() {
    return std::string(
               "Usage: crowdspec rank [options] COMPARISONS\n"
               "\n"
               "Rank items from pairwise comparisons (\"which of the two is better?\"). Writes\n"
               "`item,score,se,rank` lines, best first: score is the item's log-strength s (item i\n"
               "beats item j with probability 1 / (1 + exp(s_j - s_i))), se its standard error (an\n"
               "approximate 95% interval is score +- 1.96 se), rank 1 the best. With --truth, prints\n"
               "one JSON line per method instead:\n"
               "  {\"method\":\"crowd-bt\",\"spearman\":0.981,\"kendall\":0.893,\"pair_accuracy\":0.946,\n"
               "   \"scored\":490,\"items\":490,\"comparisons\":12728,\"iterations\":212,\"converged\":true,\n"
               "   \"seconds\":0.012,\"notes\":[]}\n"
               "spearman = Spearman's rho, kendall = Kendall's tau-b between the scores and the truth;\n"
               "pair_accuracy = of the item pairs the truth orders, the share the scores order the\n"
               "same way (an equal score counts one half).\n"
               "\n"
               "Input: a CSV/TSV/whitespace table of comparisons. With a header, the columns are\n"
               "found by name (an _id suffix and a prefix: are ignored):\n"
               "  worker  worker, annotator, user, performer, judge, rater (optional: without it\n"
               "          every answer is one worker's)\n"
               "  left    left, item_a, a, first, item1, passage_a, option_a\n"
               "  right   right, item_b, b, second, item2, passage_b, option_b\n"
               "  winner  winner, label, answer, result, choice, preferred, better, chosen, output\n"
               "or by --worker-col/--left-col/--right-col/--winner-col NAME (or a 1-based number).\n"
               "Toloka's side-by-side export is recognised by its ASSIGNMENT:worker_id column: the\n"
               "two INPUT:* columns are the items (the one named *left*, *_a or *1 is left), the\n"
               "OUTPUT:* column the winner; rejected assignments are skipped (--keep-rejected keeps\n"
               "them). Without a header: `worker left right winner` or `left right winner`. A winner\n"
               "is the left or right item's id (crowd-kit's `label` column), or left/l/a/first/1,\n"
               "right/r/b/second/2, tie/draw/equal/same/none/0; an empty winner skips the row. Items\n"
               "and workers are numbered in ascending numeric order when every id is an integer.\n"
               "\n"
               "Methods:\n"
               "  bt        (default) Bradley-Terry by MM (Hunter 2004), Davidson's ties; workers\n"
               "            are ignored\n"
               "  noisy-bt  each worker compares with probability skill, else picks the left item\n"
               "            with probability bias (crowd-kit's NoisyBradleyTerry), EM\n"
               "  crowd-bt  each worker states the true preference with probability eta, below 0.5\n"
               "            an adversary (Chen et al. 2013), EM\n"
               "  all       with --truth: every method, one line each\n"
               "\n"
               "Options:\n"
               "  -m, --method NAME      bt, noisy-bt, crowd-bt (or all with --truth)\n"
               "  -o, --output FILE      write the ranking to FILE (atomically) instead of stdout\n"
               "  -w, --workers FILE     write `worker,reliability,agreement,answers` (bt: without\n"
               "                         reliability); agreement = share of the worker's answers\n"
               "                         that prefer the item ranked higher\n"
               "  -t, --truth FILE       `item value` lines: true scores (higher = better), or true\n"
               "                         ranks (1 = best) when the header names the column rank,\n"
               "                         order or position, or with --truth-ranks\n"
               "      --truth-ranks      the truth file's values are ranks\n"
               "  -r, --report FILE      write an HTML page: the ranking with its intervals, the\n"
               "                         least reliable workers, the log posterior\n"
               "      --prior LAMBDA     virtual wins and losses of every item against an item of\n"
               "                         score 0 (default 1; 0 = maximum likelihood, which needs a\n"
               "                         strongly connected comparison graph)\n"
               "      --ties MODE        auto (davidson for bt, ignore for the others), davidson,\n"
               "                         half (half a win each), ignore\n"
               "      --max-iter N       maximum iterations (default 1000)\n"
               "      --tol X            stop when the log posterior changes by less (default 1e-10)\n"
               "      --score-tol X      or when no score moves by more than X of its least\n"
               "                         possible standard error (default 1e-3; 0 = off)\n"
               "      --se-items N       exact standard errors up to N items (default 2000)\n"
               "      --crowd-bt-alpha A, --crowd-bt-beta B\n"
               "                         crowd-bt's Beta prior of eta (default 4, 1)\n"
               "      --threads N        threads used inside the fit; 0 = automatic (default)\n"
               "      --worker-col, --left-col, --right-col, --winner-col NAME\n"
               "      --input-format F   auto, csv, tsv, whitespace\n"
               "      --header MODE      auto, yes, no\n"
               "      --keep-rejected    use rejected Toloka assignments too\n"
               "  -h, --help             show this help\n\n") +
           kExitCodesHelp;
}

int run_rank(const std::vector<std::string> &args, std::size_t first) {
    const std::vector<OptionSpec> specs = {
        {"method", true, 'm'},      {"output", true, 'o'},       {"workers", true, 'w'},
        {"truth", true, 't'},       {"truth-ranks", false, '\0'}, {"report", true, 'r'},
        {"prior", true, '\0'},      {"ties", true, '\0'},         {"max-iter", true, '\0'},
        {"tol", true, '\0'},        {"threads", true, '\0'},      {"se-items", true, '\0'},
        {"crowd-bt-alpha", true, '\0'}, {"crowd-bt-beta", true, '\0'}, {"worker-col", true, '\0'},
        {"left-col", true, '\0'},   {"right-col", true, '\0'},    {"winner-col", true, '\0'},
        {"input-format", true, '\0'}, {"header", true, '\0'},     {"keep-rejected", false, '\0'},
        {"score-tol", true, '\0'}};
    std::optional<ParsedArgs> parsed_args = parse_command("rank", args, first, specs, rank_help);
    if (!parsed_args) return kExitOk;
    const ParsedArgs &parsed = *parsed_args;
    const std::string &input = single_input(parsed, "rank", "COMPARISONS file");
    const std::vector<int32_t> methods = rank_methods(parsed.last("method").value_or("bt"));
    const std::optional<std::string> truth_path = parsed.last("truth");
    if (methods.size() > 1 && !truth_path)
        throw CliError(kExitUsage, "rank: --method all needs --truth (it prints one scored line per method)");
    if (methods.size() > 1 && (parsed.has("output") || parsed.has("workers") || parsed.has("report")))
        throw CliError(kExitUsage, "rank: --method all writes only the JSON lines; --output, --workers and --report "
                                   "need one method");
    if (truth_path && *truth_path == "-" && input == "-")
        throw CliError(kExitUsage, "rank: the comparisons and --truth cannot both be standard input");
    // Parameters are checked by the library before the file is read.
    {
        FitSettings settings;
        for (const auto &[option, value] : parsed.options)
            for (const auto &[opt, name] : kRankParams)
                if (option == opt) settings.params.push_back({"--" + option, name, value});
        make_model(methods[0], settings);
    }

    ComparisonColumns columns;
    columns.worker = parsed.last("worker-col").value_or("");
    columns.left = parsed.last("left-col").value_or("");
    columns.right = parsed.last("right-col").value_or("");
    columns.winner = parsed.last("winner-col").value_or("");
    columns.keep_rejected = parsed.has("keep-rejected");
    if (auto f = parsed.last("input-format")) columns.format = parse_text_format(*f);
    if (auto h = parsed.last("header")) columns.header = parse_header_mode(*h);
    const ComparisonTable table = read_comparison_file(input, columns);

    std::optional<RankTruth> truth;
    if (truth_path) truth = read_rank_truth(*truth_path, table.item_names, parsed.has("truth-ranks"));

    for (int32_t method : methods) {
        const std::string name = cs_method_name(method);
        const Fitted f = fit_method(method, parsed, table);
        if (!truth || parsed.has("output")) write_ranking(parsed.last("output").value_or(""), table, f);
        if (auto w = parsed.last("workers")) write_workers(*w, table, f);
        if (auto r = parsed.last("report")) write_report(*r, name, table, f);
        if (!truth) {
            if (!f.message.empty()) std::fprintf(stderr, "crowdspec: note: %s: %s\n", name.c_str(), f.message.c_str());
            continue;
        }
        std::vector<double> estimate, value;
        for (std::size_t i = 0; i < truth->value.size(); ++i)
            if (!std::isnan(truth->value[i])) {
                estimate.push_back(f.score[i]);
                value.push_back(truth->value[i]);
            }
        const cs::sim::RankAgreement a = cs::sim::rank_agreement(estimate, value);
        std::string line = "{\"method\":";
        append_json_string(line, name);
        line += ",\"spearman\":";
        append_number(line, "%.6f", a.spearman);
        line += ",\"kendall\":";
        append_number(line, "%.6f", a.kendall);
        line += ",\"pair_accuracy\":";
        append_number(line, "%.6f", a.pair_accuracy);
        line += ",\"scored\":" + std::to_string(truth->scored) + ",\"items\":" + std::to_string(table.item_names.size());
        line += ",\"comparisons\":" + std::to_string(table.left.size());
        line += ",\"iterations\":" + std::to_string(f.iterations);
        line += f.converged ? ",\"converged\":true" : ",\"converged\":false";
        line += ",\"seconds\":";
        append_number(line, "%.6f", f.seconds);
        append_notes(line, f.notes);
        line += "}\n";
        write_stdout(line);
    }
    return kExitOk;
}

}  // namespace cli
