// SPDX-License-Identifier: MIT
// `crowdspec report`: fit the crowd labels and write one self-contained HTML page — no
// scripts, no network, no external stylesheets or fonts — with inline SVG charts of
// what a team lead checks before trusting the labels: how accurate the workers are,
// how far the estimated labels moved from majority vote, the confusion matrices of
// the least reliable workers, and whether the fit converged.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <unordered_map>

#include "commands.hpp"
#include "fitting.hpp"
#include "interrupt.hpp"
#include "label_file.hpp"
#include "output.hpp"
#include "quality.hpp"
#include "result_writers.hpp"
#include "svg.hpp"

namespace cli {

std::string report_help() {
    return std::string(
               "Usage: crowdspec report [options] [--output REPORT.html] FILE\n"
               "\n"
               "Fit the crowd labels in FILE (like crowdspec fit) and write one self-contained\n"
               "HTML file (inline SVG charts and CSS; no scripts, no network access) with:\n"
               "  - a summary: items, workers, labels, classes, method, iterations, converged,\n"
               "    log-likelihood, notes, the class prior, how FILE was read;\n"
               "  - the items to relabel first: the --relabel-count items of lowest confidence\n"
               "    (the largest posterior; ties: fewer labels first), with their votes; gold\n"
               "    items are left out;\n"
               "  - the workers to review, each tag by its rule (workers with at least\n"
               "    --min-labels labels; k = number of classes):\n"
               "      below-chance  estimated accuracy below 1/k (guessing at random)\n"
               "      spammer       near-constant answers: one answer is at least 90% of its\n"
               "                    labels and its confusion matrix gives that answer with\n"
               "                    probability >= 0.5 for every true class\n"
               "      adversary     systematically swapped classes: for two or more true\n"
               "                    classes its most likely answer is a wrong class (p >= 0.5),\n"
               "                    and these wrong answers are not all the same class\n"
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
               "                          the method of the page (default opt-ds); further\n"
               "                          methods are fitted too and scored on --truth\n"
               "      --gold FILE         known true labels pinned during the fit (as in fit)\n"
               "  -t, --truth FILE        true labels to score the methods and workers on (read\n"
               "                          like a gold file; not pinned)\n"
               "      --relabel FILE      also write the items to relabel first: rank, item,\n"
               "                          label, confidence, labels, votes_<class>... (CSV; TSV,\n"
               "                          JSON or JSON lines by the extension)\n"
               "      --relabel-count N   how many items to relabel to list (default 20)\n"
               "      --review-workers FILE  also write the workers to review: worker, labels,\n"
               "                          accuracy, tags, top_answer, top_share, gold_labels,\n"
               "                          gold_accuracy, reason (format as --relabel; all of\n"
               "                          them, where the page shows the first 100)\n"
               "      --worst N           how many least reliable workers to show (default 6)\n"
               "      --min-labels N      only workers with at least N labels are ranked as least\n"
               "                          reliable and tagged for review (default 10; the\n"
               "                          ranking takes all workers if none has N)\n"
               "  -h, --help              show this help\n\n") +
           fit_options_help() + "\n" + kInputHelp + kPresetHelp + "\n" + kMappingHelp + "\n" + kExitCodesHelp;
}

namespace {

// bcc and ebcc trace the evidence lower bound of variational Bayes, not a likelihood.
bool traces_bound(const std::string &method) { return method == "ebcc" || method == "bcc"; }

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
    "footer{margin-top:3em;font-size:.85em;color:#666}\n"
    "table.summary td{overflow-wrap:anywhere}svg.chart.wide{width:100%;max-width:100%;height:auto}\n"
    ".table-wrap{max-width:100%;overflow-x:auto;margin:.5em 0 1em}\n"
    "table.data{border-collapse:collapse;font-size:.92em}\n"
    "table.data th,table.data td{padding:.25em .75em .25em 0;border-bottom:1px solid #e6e6e6;text-align:left;"
    "vertical-align:top}\n"
    "table.data th{font-weight:600;border-bottom:1px solid #999}table.data .num{text-align:right;"
    "font-variant-numeric:tabular-nums;white-space:nowrap}\n"
    "table.data td.id{overflow-wrap:anywhere;word-break:break-word;min-width:6em;max-width:28em}\n"
    "table.data td.text{overflow-wrap:anywhere;min-width:12em}\n"
    ".tag{display:inline-block;padding:0 .45em;margin:0 .3em .1em 0;border-radius:.6em;font-size:.85em;"
    "white-space:nowrap;background:#eee}\n"
    ".tag-spammer{background:#fde2b8}.tag-adversary{background:#f6c4bd}.tag-below-chance{background:#d9e4f5}\n"
    "dl.rules dt{font-weight:600;float:left;clear:left;width:8.5em}dl.rules dd{margin:0 0 .3em 9em}\n"
    ".stat{font-size:1.15em}\n";

// The class list for the summary: every name when few, else the first ones.
std::string class_list(const std::vector<std::string> &names) {
    std::string s;
    for (std::size_t i = 0; i < names.size() && i < 30; ++i) s += (i ? ", " : "") + names[i];
    if (names.size() > 30) s += ", ... (" + std::to_string(names.size()) + " in all)";
    return s;
}

// Drawing width of the charts that span the page (scaled down by CSS on narrower
// screens): about the width of the page's text column at 1280 px.
constexpr double kWideWidth = 1100;

void row(std::string &html, const std::string &name, const std::string &value_html) {
    html += "<tr><th scope=\"row\">" + svg::escape(name) + "</th><td>" + value_html + "</td></tr>\n";
}

// One method scored on the truth items.
struct MethodScore {
    std::string method;
    std::size_t scored = 0, correct = 0;
    std::string failure;  // the fit's error message when it failed
};

// A worker's labels on the reference items (truth, else gold).
struct GoldTally {
    std::size_t labels = 0, correct = 0;
};

struct ReportInput {
    const CrowdTable *table;
    const FitOutcome *fit;
    std::vector<int32_t> mv_labels;
    std::string method, notes_message, gold_note, read_note;
    std::size_t worst = 6, min_labels = 10, relabel_count = 20;
    std::vector<std::size_t> kept;            // the triples counted (one per item and worker)
    std::vector<bool> pinned;                 // per item: a gold item
    std::vector<int32_t> reference;           // per item: truth (or gold) class, -1 none, -2 not a class
    std::string reference_name;               // "truth.csv" / "the gold items"
    bool have_truth = false;                  // reference is --truth (else pinned gold)
    std::size_t truth_pinned = 0;             // truth items left unscored because pinned
    std::vector<MethodScore> scores;          // with --truth
    std::string relabel_path, review_path;    // the CSV files, for the text
};

// The reference label of item j: >= 0 a class, -1 none, -2 a label that is not a class.
bool has_reference(const ReportInput &in, std::size_t j) { return in.reference[j] != -1; }

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
    if (!f.trace.empty())
        row(html, in.method == "crowd-lloyd" ? "Objective" : traces_bound(in.method) ? "Evidence lower bound" : "Log-likelihood",
            fmt("%.6f", f.trace.back()));
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
    if (!in.read_note.empty()) row(html, "Read as", svg::escape(in.read_note));
    if (!in.gold_note.empty()) row(html, "Gold", svg::escape(in.gold_note));
    if (in.have_truth) row(html, "Truth", svg::escape(in.reference_name));
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
    h.width = kWideWidth;
    h.wide = true;
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
    const bool lloyd = in.method == "crowd-lloyd", bound = traces_bound(in.method);
    const std::string what = lloyd ? "Objective (minus the Lloyd cost)" : bound ? "Evidence lower bound" : "Log-likelihood";
    std::string html = "<section id=\"loglik\"><h2>" + what + " per iteration</h2>\n";
    if (f.trace.empty()) {
        html += svg::placeholder("chart-loglik", what + " per iteration",
                                 "no iterations: " + in.method + " has no likelihood trace", kWideWidth, true);
    } else {
        svg::LineChart c;
        c.id = "chart-loglik";
        c.title = what + " per iteration (" + std::to_string(f.trace.size()) + " iterations" +
                  (f.converged ? ", converged)" : ", not converged)");
        c.x_label = "iteration";
        c.y_label = lloyd ? "objective" : bound ? "bound" : "log-likelihood";
        c.y = f.trace;
        c.width = kWideWidth;
        c.wide = true;
        html += svg::line_chart(c);
        html += bound ? "<p>Variational Bayes never decreases the bound; a curve still rising at the end means the fit "
                        "stopped at --max-iter before converging.</p>\n"
                      : "<p>EM never decreases the log-likelihood; a curve still rising at the end means the fit stopped "
                        "at --max-iter before converging.</p>\n";
    }
    return html + "</section>\n";
}

// ---------------------------------------------------------------------------------
// Tables: what a lead acts on.

std::string num_cell(const std::string &text) { return "<td class=\"num\">" + text + "</td>"; }
std::string id_cell(const std::string &text) { return "<td class=\"id\">" + svg::escape(text) + "</td>"; }

std::string table_open(const char *id, std::initializer_list<std::pair<const char *, bool>> columns) {
    std::string html = "<div class=\"table-wrap\"><table class=\"data\" id=\"" + std::string(id) + "\">\n<thead><tr>";
    for (const auto &[name, numeric] : columns)
        html += std::string(numeric ? "<th scope=\"col\" class=\"num\">" : "<th scope=\"col\">") + name + "</th>";
    return html + "</tr></thead>\n<tbody>\n";
}

const char kTableClose[] = "</tbody></table></div>\n";

// Votes of an item, most frequent first: "cat 2, dog 1".
std::string votes_text(const std::vector<std::size_t> &votes, const std::vector<std::string> &classes) {
    std::vector<std::size_t> order;
    for (std::size_t c = 0; c < votes.size(); ++c)
        if (votes[c] > 0) order.push_back(c);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return votes[a] > votes[b]; });
    std::string text;
    for (std::size_t i = 0; i < order.size(); ++i)
        text += (i ? ", " : "") + classes[order[i]] + " " + std::to_string(votes[order[i]]);
    return text;
}

struct RelabelRow {
    std::size_t item;
    std::vector<std::size_t> votes;  // per class
    std::size_t labels;
};

std::vector<RelabelRow> relabel_rows(const ReportInput &in) {
    const CrowdTable &t = *in.table;
    const FitOutcome &f = *in.fit;
    const std::size_t k = f.k;
    std::vector<double> confidence(f.n_items);
    for (std::size_t j = 0; j < f.n_items; ++j) {
        const double *p = f.posteriors.data() + j * k;
        confidence[j] = *std::max_element(p, p + k);
    }
    std::vector<std::size_t> labels(f.n_items, 0);
    for (std::size_t e : in.kept) ++labels[static_cast<std::size_t>(t.item[e])];
    const std::vector<std::size_t> order = relabel_order(confidence, labels, in.pinned, in.relabel_count);
    std::vector<RelabelRow> rows;
    std::vector<std::size_t> slot(f.n_items, static_cast<std::size_t>(-1));
    for (std::size_t r = 0; r < order.size(); ++r) {
        slot[order[r]] = r;
        rows.push_back({order[r], std::vector<std::size_t>(k, 0), labels[order[r]]});
    }
    for (std::size_t e : in.kept) {
        const std::size_t r = slot[static_cast<std::size_t>(t.item[e])];
        if (r != static_cast<std::size_t>(-1)) ++rows[r].votes[static_cast<std::size_t>(t.label[e])];
    }
    return rows;
}

std::string relabel_section(const ReportInput &in, const std::vector<RelabelRow> &rows) {
    const CrowdTable &t = *in.table;
    const FitOutcome &f = *in.fit;
    std::string html = "<section id=\"relabel\"><h2>Items to relabel first</h2>\n<p>";
    if (rows.empty()) return html + "No item to list (every item is a gold item, or --relabel-count is 0).</p>\n</section>\n";
    html += "The " + std::to_string(rows.size()) + " items whose label is least certain: lowest confidence (the "
            "largest posterior probability) first, ties by fewer labels" +
            (std::count(in.pinned.begin(), in.pinned.end(), true) > 0 ? "; gold items are left out" : "") + ".";
    if (!in.relabel_path.empty()) html += " The same list is in <code>" + svg::escape(in.relabel_path) + "</code>.";
    html += "</p>\n" + table_open("relabel-table", {{"#", true}, {"item", false}, {"label", false},
                                                     {"confidence", true}, {"labels", true}, {"votes", false}});
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const std::size_t j = rows[r].item;
        const double *p = f.posteriors.data() + j * f.k;
        html += "<tr>" + num_cell(std::to_string(r + 1)) + id_cell(t.item_names[j]) +
                id_cell(t.class_names[static_cast<std::size_t>(f.labels[j])]) +
                num_cell(fmt("%.3f", *std::max_element(p, p + f.k))) + num_cell(std::to_string(rows[r].labels)) +
                "<td class=\"text\">" + svg::escape(votes_text(rows[r].votes, t.class_names)) + "</td></tr>\n";
    }
    return html + kTableClose + "</section>\n";
}

struct ReviewRow {
    std::size_t worker;
    WorkerReview review;
};

std::string tag_html(const std::vector<std::string> &tags) {
    std::string html;
    for (const std::string &tag : tags) html += "<span class=\"tag tag-" + tag + "\">" + tag + "</span>";
    return html;
}

std::string gold_text(const GoldTally &g) {
    return g.labels == 0 ? std::string("&ndash;")
                         : std::to_string(g.correct) + "/" + std::to_string(g.labels) + " (" +
                               fmt("%.2f", static_cast<double>(g.correct) / static_cast<double>(g.labels)) + ")";
}

std::string review_section(const ReportInput &in, const std::vector<ReviewRow> &rows,
                           const std::vector<double> &accuracy, const std::vector<GoldTally> &gold) {
    const CrowdTable &t = *in.table;
    const std::size_t k = in.fit->k;
    const std::vector<std::size_t> labels = labels_per_worker(t);
    std::string html = "<section id=\"review\"><h2>Workers to review</h2>\n<p>Workers with at least " +
                       std::to_string(in.min_labels) + " labels are tagged by these rules (k = " +
                       std::to_string(k) + " classes; &pi; = the worker's estimated confusion matrix, rows = "
                       "true class):</p>\n<dl class=\"rules\">\n"
                       "<dt><span class=\"tag tag-below-chance\">below-chance</span></dt><dd>estimated accuracy "
                       "below 1/k: worse than guessing at random.</dd>\n"
                       "<dt><span class=\"tag tag-spammer\">spammer</span></dt><dd>near-constant answers: one "
                       "answer is at least 90% of its labels, and &pi; gives that answer with probability at least "
                       "0.5 for every true class, so it does not follow the item.</dd>\n"
                       "<dt><span class=\"tag tag-adversary\">adversary</span></dt><dd>systematically swapped "
                       "classes: for two or more true classes its most likely answer is a wrong class (probability "
                       "at least 0.5), and these wrong answers are not all the same class.</dd>\n</dl>\n";
    const bool with_gold = !in.reference_name.empty();
    if (rows.empty()) {
        html += "<p id=\"review-none\">No worker matches a rule.</p>\n";
    } else {
        // A page stays readable: at most kReviewShown rows; the file has them all.
        constexpr std::size_t kReviewShown = 100;
        const std::size_t shown = std::min(rows.size(), kReviewShown);
        html += "<p><strong id=\"review-count\">" + std::to_string(rows.size()) + "</strong> of " +
                std::to_string(t.worker_names.size()) + " workers, lowest estimated accuracy first" +
                (shown < rows.size() ? " (the first " + std::to_string(shown) + " here)" : std::string()) + ".";
        if (!in.review_path.empty()) html += " The same list is in <code>" + svg::escape(in.review_path) + "</code>.";
        html += "</p>\n" +
                (with_gold ? table_open("review-table", {{"worker", false}, {"labels", true}, {"accuracy", true},
                                                         {"tags", false}, {"most frequent answer", false},
                                                         {"on gold", true}, {"why", false}})
                           : table_open("review-table", {{"worker", false}, {"labels", true}, {"accuracy", true},
                                                         {"tags", false}, {"most frequent answer", false},
                                                         {"why", false}}));
        for (std::size_t row_index = 0; row_index < shown; ++row_index) {
            const ReviewRow &r = rows[row_index];
            const std::size_t i = r.worker;
            html += "<tr>" + id_cell(t.worker_names[i]) + num_cell(std::to_string(labels[i])) +
                    num_cell(fmt("%.3f", accuracy[i])) + "<td>" + tag_html(r.review.tags) + "</td>" +
                    id_cell(t.class_names[static_cast<std::size_t>(r.review.top_answer)] + " (" +
                            fmt("%.0f%%", 100.0 * r.review.top_share) + ")") +
                    (with_gold ? num_cell(gold_text(gold[i])) : std::string()) + "<td class=\"text\">" +
                    svg::escape(r.review.reason) + "</td></tr>\n";
        }
        html += kTableClose;
    }
    return html + "</section>\n";
}

std::string gold_section(const ReportInput &in, const std::vector<GoldTally> &gold) {
    const CrowdTable &t = *in.table;
    std::string html = "<section id=\"gold-accuracy\"><h2>Accuracy on the gold items</h2>\n";
    if (in.reference_name.empty())
        return html + "<p>No known labels: give <code>--truth FILE</code> to score the methods and the workers on "
                      "them (or <code>--gold FILE</code> to pin them and score the workers).</p>\n</section>\n";
    if (in.have_truth) {
        html += "<p>Labels of each method against " + svg::escape(in.reference_name) + ": the share of the truth " +
                "items present in the crowd that the method labels right";
        if (in.truth_pinned > 0)
            html += " (" + std::to_string(in.truth_pinned) + " truth items are pinned as gold and not scored)";
        html += ". Every method is fitted with the same options and gold.</p>\n" +
                table_open("method-accuracy-table",
                           {{"method", false}, {"scored", true}, {"correct", true}, {"accuracy", true}});
        for (const MethodScore &m : in.scores) {
            html += "<tr><td>" + svg::escape(m.method) + "</td>";
            if (!m.failure.empty())
                html += "<td colspan=\"3\" class=\"text\">fit failed: " + svg::escape(m.failure) + "</td></tr>\n";
            else
                html += num_cell(std::to_string(m.scored)) + num_cell(std::to_string(m.correct)) +
                        num_cell(m.scored ? fmt("%.4f", static_cast<double>(m.correct) / static_cast<double>(m.scored))
                                          : std::string("&ndash;")) +
                        "</tr>\n";
        }
        html += kTableClose;
    } else {
        html += "<p>The gold items are pinned during the fit, so the methods are not scored on them (give "
                "<code>--truth FILE</code> for that); the workers are.</p>\n";
    }
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < gold.size(); ++i)
        if (gold[i].labels > 0) order.push_back(i);
    const auto share = [&](std::size_t i) {
        return static_cast<double>(gold[i].correct) / static_cast<double>(gold[i].labels);
    };
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        if (share(a) != share(b)) return share(a) < share(b);
        return gold[a].labels > gold[b].labels;
    });
    const std::size_t shown = std::min<std::size_t>(order.size(), 50);
    html += "<p>Workers on " + svg::escape(in.reference_name) + ": " + std::to_string(order.size()) + " of " +
            std::to_string(t.worker_names.size()) + " workers labelled some of these items; the share of their "
            "labels there that are right, lowest first" +
            (shown < order.size() ? " (the first " + std::to_string(shown) + ")" : std::string()) + ".</p>\n";
    if (shown > 0) {
        html += table_open("worker-gold-table",
                           {{"worker", false}, {"gold labels", true}, {"correct", true}, {"accuracy", true}});
        for (std::size_t r = 0; r < shown; ++r) {
            const std::size_t i = order[r];
            html += "<tr>" + id_cell(t.worker_names[i]) + num_cell(std::to_string(gold[i].labels)) +
                    num_cell(std::to_string(gold[i].correct)) + num_cell(fmt("%.3f", share(i))) + "</tr>\n";
        }
        html += kTableClose;
    }
    return html + "</section>\n";
}

std::string agreement_stats_section(const ReportInput &in, const Agreement &a) {
    const CrowdTable &t = *in.table;
    const FitOutcome &f = *in.fit;
    std::string html = "<section id=\"worker-agreement\"><h2>Agreement between workers</h2>\n";
    html += "<p class=\"stat\">Krippendorff's &alpha; (nominal) = <strong id=\"alpha\">" +
            (std::isnan(a.alpha) ? std::string("undefined") : fmt("%.4f", a.alpha)) + "</strong></p>\n<p>";
    if (std::isnan(a.alpha))
        html += a.units == 0 ? "No item has two labels, so there is nothing to agree on. "
                             : "Every paired label is the same class, so chance agreement is already perfect. ";
    html += "From the " + fmt("%.0f", a.pairable) + " labels on the " + std::to_string(a.units) +
            " items with at least two labels: &alpha; = 1 &minus; D<sub>o</sub>/D<sub>e</sub>, with observed "
            "disagreement D<sub>o</sub> = " +
            (std::isnan(a.observed) ? std::string("&ndash;") : fmt("%.4f", a.observed)) +
            " (the share of pairs of labels on the same item that differ, each item weighted by 1/(labels &minus; 1)) "
            "and expected disagreement D<sub>e</sub> = " +
            (std::isnan(a.expected) ? std::string("&ndash;") : fmt("%.4f", a.expected)) +
            " (the same for two labels drawn at random from all of them). 1 is perfect agreement, 0 agreement by "
            "chance; Krippendorff suggests relying on data with &alpha; &ge; 0.8 and drawing tentative conclusions "
            "from 0.667 on. Low agreement is expected from a noisy crowd: it is what the fit corrects.</p>\n";
    // Per class: the share of final labels, of all labels, and the agreement.
    std::vector<std::size_t> final_count(f.k, 0), raw_count(f.k, 0);
    for (int32_t l : f.labels) ++final_count[static_cast<std::size_t>(l)];
    for (std::size_t e : in.kept) ++raw_count[static_cast<std::size_t>(t.label[e])];
    html += "<p>Per class: agreement = o<sub>cc</sub>/n<sub>c</sub> from the coincidence matrix, the chance that "
            "another label on an item that has a label <i>c</i> is <i>c</i> too.</p>\n" +
            table_open("class-agreement-table", {{"class", false}, {"labels", true}, {"pairable labels", true},
                                                 {"agreement", true}, {"final labels", true}});
    for (std::size_t c = 0; c < f.k; ++c)
        html += "<tr>" + id_cell(t.class_names[c]) + num_cell(std::to_string(raw_count[c])) +
                num_cell(fmt("%.0f", a.values[c])) +
                num_cell(std::isnan(a.class_agreement[c]) ? std::string("&ndash;") : fmt("%.3f", a.class_agreement[c])) +
                num_cell(std::to_string(final_count[c]) + " (" +
                         percent(static_cast<double>(final_count[c]), static_cast<double>(f.n_items)) + ")") +
                "</tr>\n";
    return html + kTableClose + "</section>\n";
}

void write_relabel_file(OutputFile &out, ResultFormat format, const ReportInput &in, const std::vector<RelabelRow> &rows) {
    const CrowdTable &t = *in.table;
    const FitOutcome &f = *in.fit;
    std::vector<std::string> columns = {"rank", "item", "label", "confidence", "labels"};
    for (const std::string &c : t.class_names) columns.push_back("votes_" + c);
    RecordWriter w(out, format, std::move(columns));
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const std::size_t j = rows[r].item;
        const double *p = f.posteriors.data() + j * f.k;
        w.integer(static_cast<long long>(r + 1));
        w.text(t.item_names[j]);
        w.text(t.class_names[static_cast<std::size_t>(f.labels[j])]);
        w.number(*std::max_element(p, p + f.k));
        w.integer(static_cast<long long>(rows[r].labels));
        for (std::size_t v : rows[r].votes) w.integer(static_cast<long long>(v));
        w.end_row();
    }
    w.finish();
}

void write_review_file(OutputFile &out, ResultFormat format, const ReportInput &in, const std::vector<ReviewRow> &rows,
                       const std::vector<double> &accuracy, const std::vector<GoldTally> &gold) {
    const CrowdTable &t = *in.table;
    const std::vector<std::size_t> labels = labels_per_worker(t);
    RecordWriter w(out, format,
                   {"worker", "labels", "accuracy", "tags", "top_answer", "top_share", "gold_labels", "gold_accuracy",
                    "reason"});
    for (const ReviewRow &r : rows) {
        const std::size_t i = r.worker;
        std::string tags;
        for (const std::string &tag : r.review.tags) tags += (tags.empty() ? "" : " ") + tag;
        w.text(t.worker_names[i]);
        w.integer(static_cast<long long>(labels[i]));
        w.number(accuracy[i]);
        w.text(tags);
        w.text(t.class_names[static_cast<std::size_t>(r.review.top_answer)]);
        w.number(r.review.top_share);
        w.integer(static_cast<long long>(gold[i].labels));
        w.number(gold[i].labels ? static_cast<double>(gold[i].correct) / static_cast<double>(gold[i].labels)
                                : std::numeric_limits<double>::quiet_NaN());
        w.text(r.review.reason);
        w.end_row();
    }
    w.finish();
}

// Per worker, its answers per class (k counts) over the kept triples.
std::vector<std::vector<std::size_t>> answers_per_worker(const ReportInput &in) {
    const CrowdTable &t = *in.table;
    std::vector<std::vector<std::size_t>> answers(t.worker_names.size(), std::vector<std::size_t>(in.fit->k, 0));
    for (std::size_t e : in.kept) ++answers[static_cast<std::size_t>(t.worker[e])][static_cast<std::size_t>(t.label[e])];
    return answers;
}

std::vector<ReviewRow> review_rows(const ReportInput &in, const std::vector<double> &accuracy) {
    const FitOutcome &f = *in.fit;
    const std::vector<std::vector<std::size_t>> answers = answers_per_worker(in);
    ReviewRules rules;
    rules.min_labels = in.min_labels;
    std::vector<ReviewRow> rows;
    for (std::size_t i = 0; i < f.n_workers; ++i) {
        WorkerReview r = review_worker(answers[i], f.confusion.data() + i * f.k * f.k, accuracy[i],
                                       in.table->class_names, rules);
        if (!r.tags.empty()) rows.push_back({i, std::move(r)});
    }
    std::stable_sort(rows.begin(), rows.end(),
                     [&](const ReviewRow &a, const ReviewRow &b) { return accuracy[a.worker] < accuracy[b.worker]; });
    return rows;
}

std::vector<GoldTally> gold_tallies(const ReportInput &in) {
    const CrowdTable &t = *in.table;
    std::vector<GoldTally> gold(t.worker_names.size());
    if (in.reference.empty()) return gold;
    for (std::size_t e : in.kept) {
        const std::size_t j = static_cast<std::size_t>(t.item[e]);
        if (!has_reference(in, j)) continue;
        GoldTally &g = gold[static_cast<std::size_t>(t.worker[e])];
        ++g.labels;
        if (in.reference[j] == t.label[e]) ++g.correct;
    }
    return gold;
}

// Everything the tables need, computed once (the page and the CSV files agree).
struct ReportTables {
    std::vector<double> accuracy;
    std::vector<RelabelRow> relabel;
    std::vector<ReviewRow> review;
    std::vector<GoldTally> gold;
    Agreement agreement;
};

ReportTables report_tables(const ReportInput &in) {
    const FitOutcome &f = *in.fit;
    ReportTables r;
    r.accuracy = worker_accuracy(f.confusion, f.prior, f.n_workers, f.k);
    r.relabel = relabel_rows(in);
    r.review = review_rows(in, r.accuracy);
    r.gold = gold_tallies(in);
    std::vector<int32_t> item, label;
    item.reserve(in.kept.size());
    label.reserve(in.kept.size());
    for (std::size_t e : in.kept) {
        item.push_back(in.table->item[e]);
        label.push_back(in.table->label[e]);
    }
    r.agreement = nominal_agreement(item, label, f.n_items, f.k);
    return r;
}

std::string report_html(const ReportInput &in, const ReportTables &tables) {
    const FitOutcome &f = *in.fit;
    const std::vector<double> &accuracy = tables.accuracy;
    std::string html =
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>crowdspec report: " +
        svg::escape(in.table->source) + "</title>\n<style>\n" + kStyle + "</style>\n</head>\n<body>\n";
    html += "<h1>crowdspec report</h1>\n<p class=\"muted\">" + svg::escape(in.table->source) + ": " +
            std::to_string(in.table->item.size()) + " labels by " + std::to_string(f.n_workers) + " workers on " +
            std::to_string(f.n_items) + " items, " + std::to_string(f.k) + " classes; method " +
            svg::escape(in.method) + ".</p>\n";
    html += summary_section(in);
    html += relabel_section(in, tables.relabel);
    html += review_section(in, tables.review, accuracy, tables.gold);
    html += gold_section(in, tables.gold);
    html += agreement_stats_section(in, tables.agreement);
    html += accuracy_section(in, accuracy);
    html += agreement_section(in);
    html += workers_section(in, accuracy);
    html += likelihood_section(in);
    html += std::string("<footer>Written by crowdspec ") + cs_version_string() +
            ". This page is self-contained: no scripts, no network access.</footer>\n</body>\n</html>\n";
    return html;
}

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
    const CrowdTable table = read_crowd_file(parsed.positionals[0], settings.classes, input);
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

    FitMonitor monitor(settings.quiet);
    const double seconds = timed_fit(model.get(), table, in.method, &monitor);
    in.notes_message = cs_last_error(model.get());  // the explanation of the fit's notes
    if (!settings.quiet) report_fit_notes(model.get(), in.method);
    FitOutcome fit = fetch_outcome(model.get(), table);
    fit.seconds = seconds;
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
