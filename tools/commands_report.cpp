// SPDX-License-Identifier: MIT
// `crowdspec report`: fit the crowd labels and write one self-contained HTML page — no
// scripts, no network, no external stylesheets or fonts — with inline SVG charts of
// what a team lead checks before trusting the labels: how accurate the workers are,
// how far the estimated labels moved from majority vote, the confusion matrices of
// the least reliable workers, and whether the fit converged.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "commands.hpp"
#include "fitting.hpp"
#include "interrupt.hpp"
#include "label_file.hpp"
#include "output.hpp"
#include "svg.hpp"

namespace cli {

std::string report_help() {
    return std::string(
               "Usage: crowdspec report [options] [--output REPORT.html] FILE\n"
               "\n"
               "Fit the crowd labels in FILE (like crowdspec fit) and write one self-contained\n"
               "HTML file (inline SVG charts and CSS; no scripts, no network access) with:\n"
               "  - a summary: items, workers, labels, classes, method, iterations, converged,\n"
               "    log-likelihood, notes, the class prior;\n"
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
               "      --gold FILE         known true labels pinned during the fit (as in fit)\n"
               "      --worst N           how many least reliable workers to show (default 6)\n"
               "      --min-labels N      only workers with at least N labels are ranked as least\n"
               "                          reliable (default 10; all workers if none has N)\n"
               "  -h, --help              show this help\n\n") +
           fit_options_help() + "\n" + kInputHelp + kPresetHelp + "\n" + kMappingHelp + "\n" + kExitCodesHelp;
}

namespace {

std::string fmt(const char *format, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

std::string percent(double part, double whole) { return whole > 0 ? fmt("%.1f%%", 100.0 * part / whole) : "0%"; }

const char kStyle[] =
    "body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif;"
    "margin:2em auto;max-width:72em;padding:0 1em;color:#1a1a1a;line-height:1.45;background:#fff}\n"
    "h1{font-size:1.6em;margin-bottom:.2em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ddd}\n"
    "table.summary{border-collapse:collapse}table.summary th{text-align:left;font-weight:600;padding:.2em 1.5em .2em 0;"
    "vertical-align:top}table.summary td{padding:.2em 0}\n"
    "svg.chart{display:block;margin:.5em 0;max-width:100%;height:auto;font-family:inherit}\n"
    ".bar{fill:#4a7fb5}.bar:hover,.cell:hover{opacity:.8}.grid{stroke:#ececec}.axis{stroke:#333}\n"
    ".tick{font-size:11px;fill:#333}.axis-label{font-size:12px;fill:#111}\n"
    ".series{fill:none;stroke:#c0392b;stroke-width:2}.point{fill:#c0392b}\n"
    ".reference{stroke:#777;stroke-dasharray:4 3}.note{font-size:11px;fill:#555}\n"
    ".cell{stroke:#fff;stroke-width:1}.cell-text{font-size:11px;fill:#111}.cell-text.dark{fill:#fff}\n"
    ".empty{fill:#fafafa;stroke:#ccc}.workers{display:flex;flex-wrap:wrap;gap:1.5em}\n"
    "figure{margin:0}figcaption{font-size:.9em;color:#444;max-width:26em}.muted{color:#555}\n"
    "footer{margin-top:3em;font-size:.85em;color:#666}\n";

// The class list for the summary: every name when few, else the first ones.
std::string class_list(const std::vector<std::string> &names) {
    std::string s;
    for (std::size_t i = 0; i < names.size() && i < 30; ++i) s += (i ? ", " : "") + names[i];
    if (names.size() > 30) s += ", ... (" + std::to_string(names.size()) + " in all)";
    return s;
}

void row(std::string &html, const std::string &name, const std::string &value_html) {
    html += "<tr><th scope=\"row\">" + svg::escape(name) + "</th><td>" + value_html + "</td></tr>\n";
}

struct ReportInput {
    const CrowdTable *table;
    const FitOutcome *fit;
    std::vector<int32_t> mv_labels;
    std::string method, notes_message, gold_note;
    std::size_t worst = 6, min_labels = 10;
};

std::string summary_section(const ReportInput &in) {
    const CrowdTable &t = *in.table;
    const FitOutcome &f = *in.fit;
    std::string html = "<section id=\"summary\"><h2>Summary</h2>\n<table class=\"summary\">\n";
    row(html, "Input", svg::escape(t.source) + " <span class=\"muted\">(" + svg::escape(t.format) + ")</span>");
    row(html, "Items", std::to_string(f.n_items));
    row(html, "Workers", std::to_string(f.n_workers));
    row(html, "Labels", std::to_string(t.item.size()) + " <span class=\"muted\">(" +
                            fmt("%.2f", static_cast<double>(t.item.size()) / static_cast<double>(f.n_items)) +
                            " per item, " +
                            fmt("%.1f", static_cast<double>(t.item.size()) / static_cast<double>(f.n_workers)) +
                            " per worker)</span>");
    row(html, "Classes", std::to_string(f.k) + ": " + svg::escape(class_list(t.class_names)));
    row(html, "Method", svg::escape(in.method));
    row(html, "Iterations", std::to_string(f.iterations));
    row(html, "Converged", f.converged ? "yes" : "<strong>no</strong>");
    if (!f.trace.empty()) row(html, in.method == "crowd-lloyd" ? "Objective" : "Log-likelihood", fmt("%.6f", f.trace.back()));
    std::string prior;
    for (std::size_t l = 0; l < f.k && l < 30; ++l)
        prior += (l ? ", " : "") + svg::escape(t.class_names[l]) + " " + fmt("%.3f", f.prior[l]);
    row(html, "Class prior", prior);
    const std::vector<std::string> notes = note_names(f.notes);
    std::string notes_html;
    for (std::size_t i = 0; i < notes.size(); ++i) notes_html += (i ? ", " : "") + notes[i];
    if (notes_html.empty()) notes_html = "none";
    if (!in.notes_message.empty()) notes_html += " <span class=\"muted\">(" + svg::escape(in.notes_message) + ")</span>";
    row(html, "Notes", notes_html);
    if (!in.gold_note.empty()) row(html, "Gold", svg::escape(in.gold_note));
    row(html, "Fit time", fmt("%.3f s", f.seconds));
    return html + "</table>\n</section>\n";
}

std::string accuracy_section(const ReportInput &in, const std::vector<double> &accuracy) {
    const FitOutcome &f = *in.fit;
    svg::Histogram h;
    h.id = "chart-accuracy";
    h.title = "Worker accuracy distribution (" + std::to_string(f.n_workers) + " workers)";
    h.x_label = "estimated accuracy";
    h.y_label = "workers";
    const int bins = 20;
    for (int b = 0; b <= bins; ++b) h.edges.push_back(static_cast<double>(b) / bins);
    h.counts.assign(bins, 0);
    for (double a : accuracy) ++h.counts[static_cast<std::size_t>(std::clamp(static_cast<int>(a * bins), 0, bins - 1))];
    h.markers.push_back({1.0 / static_cast<double>(f.k), "random guessing (1/" + std::to_string(f.k) + ")"});
    std::vector<double> sorted = accuracy;
    std::sort(sorted.begin(), sorted.end());
    const double median = sorted.empty() ? 0.0
                          : sorted.size() % 2 ? sorted[sorted.size() / 2]
                                              : 0.5 * (sorted[sorted.size() / 2 - 1] + sorted[sorted.size() / 2]);
    const std::size_t below = static_cast<std::size_t>(
        std::count_if(accuracy.begin(), accuracy.end(), [&](double a) { return a < 1.0 / static_cast<double>(f.k); }));
    std::string html = "<section id=\"accuracy\"><h2>Worker accuracy</h2>\n";
    html += "<p>Estimated accuracy of a worker = sum over classes <i>l</i> of prior<sub><i>l</i></sub> &times; "
            "&pi;<sub><i>ll</i></sub>: the chance that its label is right on an item drawn from the class prior.</p>\n";
    html += svg::histogram(h);
    html += "<p>Median " + fmt("%.3f", median) + "; " + std::to_string(below) + " of " + std::to_string(f.n_workers) +
            " workers (" + percent(static_cast<double>(below), static_cast<double>(f.n_workers)) +
            ") are below random guessing (1/" + std::to_string(f.k) + ").</p>\n</section>\n";
    return html;
}

std::string agreement_section(const ReportInput &in) {
    const CrowdTable &t = *in.table;
    const FitOutcome &f = *in.fit;
    const std::size_t k = f.k;
    std::vector<std::size_t> count(k * k, 0), row_total(k, 0);  // [majority vote][final]
    std::size_t changed = 0;
    for (std::size_t j = 0; j < f.n_items; ++j) {
        const std::size_t mv = static_cast<std::size_t>(in.mv_labels[j]), est = static_cast<std::size_t>(f.labels[j]);
        ++count[mv * k + est];
        ++row_total[mv];
        if (mv != est) ++changed;
    }
    svg::Heatmap h;
    h.id = "chart-agreement";
    h.title = "Final labels against majority vote (" + std::to_string(changed) + " of " + std::to_string(f.n_items) +
              " items changed)";
    h.row_axis = "majority vote";
    h.col_axis = "final label (" + in.method + ")";
    h.rows = t.class_names;
    h.cols = t.class_names;
    for (std::size_t a = 0; a < k; ++a)
        for (std::size_t b = 0; b < k; ++b) {
            const std::size_t c = count[a * k + b];
            // Colour by the share of the row, so a rare class's pattern shows as well.
            h.colour.push_back(row_total[a] ? static_cast<double>(c) / static_cast<double>(row_total[a]) : 0.0);
            h.text.push_back(std::to_string(c));
            h.tooltip.push_back("majority vote " + t.class_names[a] + ", final " + t.class_names[b] + ": " +
                                std::to_string(c) + " items (" +
                                percent(static_cast<double>(c), static_cast<double>(row_total[a])) + " of the row)");
        }
    std::string html = "<section id=\"agreement\"><h2>Estimated labels vs majority vote</h2>\n";
    html += "<p>The final label of <strong>" + std::to_string(changed) + "</strong> of " + std::to_string(f.n_items) +
            " items (<strong id=\"share-changed\">" +
            percent(static_cast<double>(changed), static_cast<double>(f.n_items)) +
            "</strong>) differs from plain majority vote (ties to the first class; gold labels not applied). "
            "Rows: the majority vote; columns: the final label; colour: share of the row.</p>\n";
    html += svg::heatmap(h);
    return html + "</section>\n";
}

std::string workers_section(const ReportInput &in, const std::vector<double> &accuracy) {
    const CrowdTable &t = *in.table;
    const FitOutcome &f = *in.fit;
    const std::size_t k = f.k;
    const std::vector<std::size_t> labels = labels_per_worker(t);
    std::vector<std::size_t> candidates;
    for (std::size_t i = 0; i < f.n_workers; ++i)
        if (labels[i] >= in.min_labels) candidates.push_back(i);
    const bool everyone = candidates.empty();
    if (everyone) {
        candidates.resize(f.n_workers);
        std::iota(candidates.begin(), candidates.end(), std::size_t{0});
    }
    // Lowest accuracy first; ties by more labels (more evidence), then by worker order.
    std::stable_sort(candidates.begin(), candidates.end(), [&](std::size_t a, std::size_t b) {
        if (accuracy[a] != accuracy[b]) return accuracy[a] < accuracy[b];
        return labels[a] > labels[b];
    });
    if (candidates.size() > in.worst) candidates.resize(in.worst);
    std::string html = "<section id=\"least-reliable\"><h2>Least reliable workers</h2>\n<p>";
    html += everyone ? "No worker has " + std::to_string(in.min_labels) + " labels; all workers are ranked. "
                     : "Among the workers with at least " + std::to_string(in.min_labels) + " labels. ";
    html += "Rows: the true class; columns: the worker's answer; each row is P(answer | true class). "
            "A reliable worker is dark on the diagonal.</p>\n<div class=\"workers\">\n";
    for (std::size_t rank = 0; rank < candidates.size(); ++rank) {
        const std::size_t i = candidates[rank];
        svg::Heatmap h;
        h.id = "chart-worker-" + std::to_string(rank + 1);
        h.title = "Confusion matrix of worker " + t.worker_names[i] + " (accuracy " + fmt("%.3f", accuracy[i]) + ", " +
                  std::to_string(labels[i]) + " labels)";
        h.row_axis = "true class";
        h.col_axis = "answer";
        h.rows = t.class_names;
        h.cols = t.class_names;
        h.max_size = 240;
        for (std::size_t l = 0; l < k; ++l)
            for (std::size_t c = 0; c < k; ++c) {
                const double p = f.confusion[(i * k + l) * k + c];
                h.colour.push_back(p);
                h.text.push_back(fmt("%.2f", p));
                h.tooltip.push_back("true " + t.class_names[l] + ", answers " + t.class_names[c] + ": " + fmt("%.4f", p));
            }
        html += "<figure>" + svg::heatmap(h) + "<figcaption>Worker <strong>" + svg::escape(t.worker_names[i]) +
                "</strong>: accuracy " + fmt("%.3f", accuracy[i]) + ", " + std::to_string(labels[i]) +
                " labels</figcaption></figure>\n";
    }
    return html + "</div>\n</section>\n";
}

std::string likelihood_section(const ReportInput &in) {
    const FitOutcome &f = *in.fit;
    const bool lloyd = in.method == "crowd-lloyd";
    const std::string what = lloyd ? "Objective (minus the Lloyd cost)" : "Log-likelihood";
    std::string html = "<section id=\"loglik\"><h2>" + what + " per iteration</h2>\n";
    if (f.trace.empty()) {
        html += svg::placeholder("chart-loglik", what + " per iteration",
                                 "no iterations: " + in.method + " has no likelihood trace");
    } else {
        svg::LineChart c;
        c.id = "chart-loglik";
        c.title = what + " per iteration (" + std::to_string(f.trace.size()) + " iterations" +
                  (f.converged ? ", converged)" : ", not converged)");
        c.x_label = "iteration";
        c.y_label = lloyd ? "objective" : "log-likelihood";
        c.y = f.trace;
        html += svg::line_chart(c);
        html += "<p>EM never decreases the log-likelihood; a curve still rising at the end means the fit stopped "
                "at --max-iter before converging.</p>\n";
    }
    return html + "</section>\n";
}

std::string report_html(const ReportInput &in) {
    const FitOutcome &f = *in.fit;
    const std::vector<double> accuracy = worker_accuracy(f.confusion, f.prior, f.n_workers, f.k);
    std::string html =
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>crowdspec report: " +
        svg::escape(in.table->source) + "</title>\n<style>\n" + kStyle + "</style>\n</head>\n<body>\n";
    html += "<h1>crowdspec report</h1>\n<p class=\"muted\">" + svg::escape(in.table->source) + ": " +
            std::to_string(in.table->item.size()) + " labels by " + std::to_string(f.n_workers) + " workers on " +
            std::to_string(f.n_items) + " items, " + std::to_string(f.k) + " classes; method " +
            svg::escape(in.method) + ".</p>\n";
    html += summary_section(in);
    html += accuracy_section(in, accuracy);
    html += agreement_section(in);
    html += workers_section(in, accuracy);
    html += likelihood_section(in);
    html += std::string("<footer>Written by crowdspec ") + cs_version_string() +
            ". This page is self-contained: no scripts, no network access.</footer>\n</body>\n</html>\n";
    return html;
}

}  // namespace

int run_report(const std::vector<std::string> &args, std::size_t first) {
    std::vector<OptionSpec> specs = fit_option_specs();
    for (const OptionSpec &s : input_option_specs()) specs.push_back(s);
    specs.push_back({"output", true, 'o'});
    specs.push_back({"gold", true, '\0'});
    specs.push_back({"worst", true, '\0'});
    specs.push_back({"min-labels", true, '\0'});
    const ParsedArgs parsed = parse_args("report", args, first, specs);
    if (parsed.help) {
        write_stdout(report_help());
        return kExitOk;
    }
    if (parsed.positionals.size() != 1)
        throw CliError(kExitUsage, parsed.positionals.empty()
                                       ? "report: missing the input FILE (see 'crowdspec report --help')"
                                       : "report: expected one input FILE, got " +
                                             std::to_string(parsed.positionals.size()));
    const InterruptGuard interrupt_guard;
    const FitSettings settings = fit_settings_from(parsed);
    const InputOptions input = input_options_from(parsed);
    if (settings.method == "all") throw CliError(kExitUsage, "report: --method all is only for 'crowdspec evaluate'");
    ReportInput in;
    in.method = settings.method;
    if (auto v = parsed.last("worst")) in.worst = static_cast<std::size_t>(parse_integer_option("worst", *v, 0, 1000));
    if (auto v = parsed.last("min-labels"))
        in.min_labels = static_cast<std::size_t>(parse_integer_option("min-labels", *v, 0, 1000000000));
    const std::optional<std::string> gold_path = parsed.last("gold");
    if (gold_path && gold_path->empty()) throw CliError(kExitUsage, "report: --gold needs a file name");
    if (gold_path && *gold_path == "-" && parsed.positionals[0] == "-")
        throw CliError(kExitUsage, "report: FILE and --gold cannot both be standard input");

    ModelPtr model = make_model(method_id(settings.method), settings);
    ModelPtr majority = make_model(CS_METHOD_MV, settings);
    OutputFile out(parsed.last("output").value_or(""));
    const CrowdTable table = read_crowd_file(parsed.positionals[0], settings.classes, input);
    if (gold_path) in.gold_note = apply_gold(model.get(), table, *gold_path, input);

    FitMonitor monitor(settings.quiet);
    const double seconds = timed_fit(model.get(), table, settings.method, &monitor);
    in.notes_message = cs_last_error(model.get());  // the explanation of the fit's notes
    if (!settings.quiet) report_fit_notes(model.get(), settings.method);
    FitOutcome fit = fetch_outcome(model.get(), table);
    fit.seconds = seconds;
    model.reset();
    timed_fit(majority.get(), table, "mv", &monitor);
    in.mv_labels = fitted_labels(majority.get(), table.item_names.size());
    majority.reset();

    in.table = &table;
    in.fit = &fit;
    out.write(report_html(in));
    out.commit();
    return kExitOk;
}

}  // namespace cli
