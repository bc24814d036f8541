// SPDX-License-Identifier: MIT
#include "report/report_page.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "fitting/fitting.hpp"
#include "report/svg.hpp"

namespace cli {
namespace report {

namespace {

// The k x k charts draw at most this many classes: a 40 x 40 heatmap is still
// readable, and the page stays O(workers shown x 40^2) cells whatever k is declared
// (5 labels with --classes 1000 drew 6 million cells, a 441 MB page: issue 40, R11).
constexpr std::size_t kMaxDrawnClasses = 40;

// The classes the k x k charts draw, in class order: those with a label, a final label
// or a majority vote (a class nobody gave and nothing was assigned to has an empty row
// and column), and of these the kMaxDrawnClasses most frequent (ties to the lower
// class) when there are more.
std::vector<std::size_t> drawn_classes(const ReportInput &in) {
    const CrowdTable &t = *in.table;
    const FitOutcome &f = *in.fit;
    std::vector<std::size_t> count(f.k, 0);
    for (std::size_t e : in.kept) ++count[static_cast<std::size_t>(t.label[e])];
    for (std::size_t j = 0; j < f.n_items; ++j) {
        ++count[static_cast<std::size_t>(f.labels[j])];
        ++count[static_cast<std::size_t>(in.mv_labels[j])];
    }
    std::vector<std::size_t> drawn;
    for (std::size_t c = 0; c < f.k; ++c)
        if (count[c] > 0) drawn.push_back(c);
    if (drawn.size() > kMaxDrawnClasses) {
        std::stable_sort(drawn.begin(), drawn.end(), [&](std::size_t a, std::size_t b) { return count[a] > count[b]; });
        drawn.resize(kMaxDrawnClasses);
        std::sort(drawn.begin(), drawn.end());
    }
    return drawn;
}

// The sentence saying which classes a chart leaves out, or "" when it draws all k.
std::string omitted_classes_text(const ReportInput &in, std::size_t drawn) {
    const std::size_t k = in.fit->k;
    if (drawn == k) return "";
    return " The chart draws " + std::to_string(drawn) + " of the " + std::to_string(k) +
           " classes: those with labels or items" +
           (drawn == kMaxDrawnClasses ? ", the " + std::to_string(kMaxDrawnClasses) + " most frequent" : std::string()) +
           "; the rows and columns of the others are left out.";
}

}  // namespace

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
    const std::vector<std::size_t> drawn = drawn_classes(in);
    for (std::size_t a : drawn) {
        h.rows.push_back(t.class_names[a]);
        h.cols.push_back(t.class_names[a]);
    }
    for (std::size_t a : drawn)
        for (std::size_t b : drawn) {
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
            "Rows: the majority vote; columns: the final label; colour: share of the row." +
            omitted_classes_text(in, drawn.size()) + "</p>\n";
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
    const std::vector<std::size_t> drawn = drawn_classes(in);
    html += "Rows: the true class; columns: the worker's answer; each row is P(answer | true class). "
            "A reliable worker is dark on the diagonal." +
            omitted_classes_text(in, drawn.size()) + "</p>\n<div class=\"workers\">\n";
    for (std::size_t rank = 0; rank < candidates.size(); ++rank) {
        const std::size_t i = candidates[rank];
        svg::Heatmap h;
        h.id = "chart-worker-" + std::to_string(rank + 1);
        h.title = "Confusion matrix of worker " + t.worker_names[i] + " (accuracy " + fmt("%.3f", accuracy[i]) + ", " +
                  std::to_string(labels[i]) + " labels)";
        h.row_axis = "true class";
        h.col_axis = "answer";
        for (std::size_t l : drawn) {
            h.rows.push_back(t.class_names[l]);
            h.cols.push_back(t.class_names[l]);
        }
        h.max_size = 240;
        for (std::size_t l : drawn)
            for (std::size_t c : drawn) {
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

// With --truth: how far the page's confidences are from its accuracy on the truth items
// that are not pinned (report/quality.hpp), and the reliability diagram.
std::string calibration_section(const ReportInput &in) {
    if (!in.have_truth) return std::string();
    const FitOutcome &f = *in.fit;
    std::vector<double> confidence, truth_prob, sum_sq;
    std::vector<bool> correct;
    for (std::size_t j = 0; j < f.n_items; ++j) {
        if (in.reference[j] == -1 || in.pinned[j]) continue;
        const double *p = f.posteriors.data() + j * f.k;
        double top = 0.0, squares = 0.0;
        for (std::size_t t = 0; t < f.k; ++t) {
            top = std::max(top, p[t]);
            squares += p[t] * p[t];
        }
        const int32_t truth = in.reference[j];
        confidence.push_back(top);
        correct.push_back(truth >= 0 && f.labels[j] == truth);
        truth_prob.push_back(truth >= 0 ? p[truth] : 0.0);
        sum_sq.push_back(squares);
    }
    std::string html = "<section id=\"calibration\"><h2>Calibration against the truth</h2>\n";
    if (confidence.empty()) return html + "<p>No truth item is left once the gold items are set aside.</p></section>\n";
    const Calibration c = calibration_against_truth(confidence, correct, truth_prob, sum_sq);
    const char *source = f.calibration == CS_CALIBRATION_GOLD     ? "fitted on the gold items"
                         : f.calibration == CS_CALIBRATION_LABELS ? "fitted on held-out labels"
                                                                  : "none applied";
    html += "<p>On the " + std::to_string(c.items) + " truth items" + (in.truth_pinned > 0 ? " that are not gold" : "") +
            ": mean confidence <span class=\"stat\">" + fmt("%.3f", c.mean_confidence) +
            "</span>, accuracy <span class=\"stat\">" + fmt("%.3f", c.accuracy) +
            "</span>; expected calibration error (ECE, 10 bins) <strong id=\"ece\">" + fmt("%.3f", c.ece) +
            "</strong>, Brier score " + fmt("%.3f", c.brier) + ". Calibration of the posteriors: " + source +
            " (temperature " + fmt("%.3g", f.temperature) + ", prior weight " + fmt("%.2g", f.mixing) +
            "). A point below the diagonal is a bin of items more confident than right.</p>\n";
    svg::Reliability r;
    r.id = "chart-reliability";
    r.title = "Reliability: accuracy by confidence";
    for (std::size_t b = 0; b < Calibration::kBins; ++b) {
        if (c.bin_items[b] == 0) continue;
        r.confidence.push_back(c.bin_confidence[b]);
        r.accuracy.push_back(c.bin_accuracy[b]);
        r.items.push_back(c.bin_items[b]);
    }
    html += svg::reliability_diagram(r);
    return html + "</section>\n";
}

}  // namespace report
}  // namespace cli
