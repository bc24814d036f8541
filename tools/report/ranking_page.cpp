// SPDX-License-Identifier: MIT
#include "report/ranking_page.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "crowdspec/crowdspec.h"
#include "report/report_page.hpp"
#include "report/svg.hpp"

namespace cli {
namespace report {

namespace {

// The top items' scores with their intervals s +- 1.96 se: one row per item, a line for
// the interval and a dot for the score, on a common score axis.
std::string interval_chart(const RankingReport &in, const std::vector<std::size_t> &order) {
    const std::size_t rows = std::min(in.top, order.size());
    if (rows == 0) return svg::placeholder("ranking-intervals", "Scores and 95% intervals", "no items");
    double lo = 0.0, hi = 0.0;
    for (std::size_t r = 0; r < rows; ++r) {
        const std::size_t i = order[r];
        lo = std::min(lo, in.score[i] - 1.96 * in.se[i]);
        hi = std::max(hi, in.score[i] + 1.96 * in.se[i]);
    }
    if (hi - lo < 1e-9) hi = lo + 1.0;
    double step = 1.0;
    const std::vector<double> ticks = svg::nice_ticks(lo, hi, 8, step);
    lo = std::min(lo, ticks.front());
    hi = std::max(hi, ticks.back());
    const double left = 170, right = 20, top = 30, row_height = 16, width = kWideWidth;
    const double plot = width - left - right, height = top + row_height * static_cast<double>(rows) + 40;
    const auto x = [&](double v) { return left + plot * (v - lo) / (hi - lo); };
    std::string s = "<svg class=\"chart wide\" id=\"ranking-intervals\" role=\"img\" viewBox=\"0 0 " + fmt("%.0f", width) +
                    " " + fmt("%.0f", height) + "\" width=\"" + fmt("%.0f", width) + "\" height=\"" +
                    fmt("%.0f", height) + "\"><title>Scores of the top " + std::to_string(rows) +
                    " items with 95% intervals</title>\n";
    for (double t : ticks) {
        s += "<line class=\"grid\" x1=\"" + fmt("%.1f", x(t)) + "\" x2=\"" + fmt("%.1f", x(t)) + "\" y1=\"" +
             fmt("%.1f", top - 6) + "\" y2=\"" + fmt("%.1f", height - 34) + "\"/>";
        s += "<text class=\"tick\" text-anchor=\"middle\" x=\"" + fmt("%.1f", x(t)) + "\" y=\"" +
             fmt("%.1f", height - 20) + "\">" + svg::tick_label(t, step) + "</text>\n";
    }
    s += "<text class=\"axis-label\" text-anchor=\"middle\" x=\"" + fmt("%.1f", left + plot / 2) + "\" y=\"" +
         fmt("%.1f", height - 4) + "\">score (log-strength)</text>\n";
    for (std::size_t r = 0; r < rows; ++r) {
        const std::size_t i = order[r];
        const double y = top + row_height * (static_cast<double>(r) + 0.5);
        const double a = in.score[i] - 1.96 * in.se[i], b = in.score[i] + 1.96 * in.se[i];
        std::string name = in.item_names[i];
        if (name.size() > 24) name = name.substr(0, 23) + "...";
        s += "<g><title>" + svg::escape(in.item_names[i]) + ": rank " + std::to_string(in.rank[i]) + ", score " +
             fmt("%.3f", in.score[i]) + " [" + fmt("%.3f", a) + ", " + fmt("%.3f", b) + "]</title>";
        s += "<text class=\"tick\" text-anchor=\"end\" x=\"" + fmt("%.1f", left - 8) + "\" y=\"" + fmt("%.1f", y + 4) +
             "\">" + std::to_string(in.rank[i]) + ". " + svg::escape(name) + "</text>";
        s += "<line class=\"series\" x1=\"" + fmt("%.1f", x(a)) + "\" x2=\"" + fmt("%.1f", x(b)) + "\" y1=\"" +
             fmt("%.1f", y) + "\" y2=\"" + fmt("%.1f", y) + "\"/>";
        s += "<circle class=\"point\" r=\"3.5\" cx=\"" + fmt("%.1f", x(in.score[i])) + "\" cy=\"" + fmt("%.1f", y) +
             "\"/></g>\n";
    }
    return s + "</svg>\n";
}

std::string summary(const RankingReport &in) {
    std::string html = "<table class=\"summary\">\n";
    row(html, "Input", svg::escape(in.source) + (in.read_note.empty() ? "" : " <span class=\"muted\">(" +
                                                                              svg::escape(in.read_note) + ")</span>"));
    row(html, "Method", svg::escape(in.method));
    row(html, "Comparisons", std::to_string(in.n_comparisons) + " (" + std::to_string(in.ties) + " ties)");
    row(html, "Items", std::to_string(in.item_names.size()));
    row(html, "Workers", std::to_string(in.worker_names.size()));
    row(html, "Iterations", std::to_string(in.iterations) + (in.converged ? " (converged)" : " (not converged)"));
    if (!in.notes_message.empty()) row(html, "Notes", svg::escape(in.notes_message));
    return html + "</table>\n";
}

std::string ranking_table(const RankingReport &in, const std::vector<std::size_t> &order) {
    std::string html = table_open("ranking-table", {{"rank", true}, {"item", false}, {"score", true}, {"se", true},
                                                    {"95% interval", true}, {"comparisons", true}, {"wins", true}});
    for (std::size_t i : order) {
        html += "<tr>" + num_cell(std::to_string(in.rank[i])) + id_cell(in.item_names[i]) +
                num_cell(fmt("%.4f", in.score[i])) + num_cell(fmt("%.4f", in.se[i])) +
                num_cell("[" + fmt("%.3f", in.score[i] - 1.96 * in.se[i]) + ", " +
                         fmt("%.3f", in.score[i] + 1.96 * in.se[i]) + "]") +
                num_cell(std::to_string(in.comparisons[i])) + num_cell(fmt("%g", static_cast<double>(in.half_wins[i]) / 2.0)) +
                "</tr>\n";
    }
    return html + kTableClose;
}

std::string workers(const RankingReport &in) {
    const bool model = !in.reliability.empty();
    const std::vector<double> &key = model ? in.reliability : in.agreement;
    std::vector<std::size_t> order;
    for (std::size_t w = 0; w < in.worker_names.size(); ++w)
        if (in.answers[w] > 0) order.push_back(w);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return key[a] < key[b]; });
    std::string html = "<h2 id=\"workers\">Least reliable workers</h2>\n<p>";
    html += model ? (in.method == "crowd-bt"
                         ? "Reliability is crowd-bt's eta: the chance that the worker states the true preference; "
                           "below 0.5 the worker is adversarial and its answers count reversed."
                         : "Reliability is noisy-bt's skill: the chance that the worker compares the items rather than "
                           "picking a side by its bias.")
                  : std::string("bt has no worker parameters: workers are ranked by their agreement with the fitted "
                                "order (the share of their answers that prefer the item ranked higher).");
    html += " Workers with answers only; ties are not counted.</p>\n";
    if (model) {
        svg::Histogram h;
        h.id = "reliability-histogram";
        h.title = "Worker reliability";
        h.x_label = "reliability";
        h.y_label = "workers";
        for (int b = 0; b <= 20; ++b) h.edges.push_back(b / 20.0);
        h.counts.assign(20, 0);
        for (std::size_t w : order) ++h.counts[std::min<std::size_t>(19, static_cast<std::size_t>(key[w] * 20.0))];
        h.markers.push_back({0.5, "chance"});
        html += svg::histogram(h);
    }
    html += model ? table_open("worker-table", {{"worker", false}, {"reliability", true}, {"agreement", true}, {"answers", true}})
                  : table_open("worker-table", {{"worker", false}, {"agreement", true}, {"answers", true}});
    for (std::size_t r = 0; r < order.size() && r < in.worst; ++r) {
        const std::size_t w = order[r];
        html += "<tr>" + id_cell(in.worker_names[w]) + (model ? num_cell(fmt("%.3f", in.reliability[w])) : "") +
                num_cell(fmt("%.3f", in.agreement[w])) + num_cell(std::to_string(in.answers[w])) + "</tr>\n";
    }
    return html + kTableClose;
}

}  // namespace

std::string ranking_html(const RankingReport &in) {
    std::vector<std::size_t> order(in.score.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return in.rank[a] < in.rank[b]; });
    std::string html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                       "<title>crowdspec ranking: " + svg::escape(in.source) + "</title><style>" + kStyle +
                       "</style></head><body>\n<h1>Ranking from pairwise comparisons</h1>\n";
    html += summary(in);
    html += "<h2 id=\"intervals\">Top of the ranking</h2>\n<p>Each item's score s (log-strength: item i beats item j "
            "with probability 1 / (1 + exp(s_j - s_i))) with its approximate 95% interval s +- 1.96 se, from the "
            "observed information. Overlapping intervals mean the order of those items is not settled.</p>\n";
    html += interval_chart(in, order);
    html += workers(in);
    html += "<h2 id=\"trace\">Log posterior by iteration</h2>\n";
    svg::LineChart c;
    c.id = "trace-chart";
    c.title = "Log posterior";
    c.x_label = "iteration";
    c.y_label = "log posterior";
    c.y = in.trace;
    c.wide = true;
    c.width = kWideWidth;
    html += in.trace.size() >= 2 ? svg::line_chart(c)
                                 : svg::placeholder("trace-chart", "Log posterior", "fewer than two iterations");
    html += "<h2 id=\"ranking\">The whole ranking</h2>\n";
    html += ranking_table(in, order);
    html += std::string("<footer>crowdspec ") + cs_version_string() + "</footer>\n</body></html>\n";
    return html;
}

}  // namespace report
}  // namespace cli
