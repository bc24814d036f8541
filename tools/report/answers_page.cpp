// SPDX-License-Identifier: MIT
#include "report/answers_page.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "crowdspec/crowdspec.h"
#include "report/report_page.hpp"
#include "report/svg.hpp"

namespace cli {
namespace report {

namespace {

// A histogram of `values` in `bins` equal bins over their range.
std::string value_histogram(const std::string &id, const std::string &title, const std::string &x_label,
                            const std::string &unit, const std::vector<double> &values, std::size_t bins = 20) {
    std::vector<double> v;
    for (double x : values)
        if (std::isfinite(x)) v.push_back(x);
    if (v.empty()) return svg::placeholder(id, title, "no values");
    double lo = *std::min_element(v.begin(), v.end()), hi = *std::max_element(v.begin(), v.end());
    if (!(hi > lo)) hi = lo + 1.0;
    svg::Histogram h;
    h.id = id;
    h.title = title;
    h.x_label = x_label;
    h.y_label = unit;
    h.unit = unit;
    const double nb = static_cast<double>(bins);
    for (std::size_t b = 0; b <= bins; ++b) h.edges.push_back(lo + (hi - lo) * static_cast<double>(b) / nb);
    h.counts.assign(bins, 0);
    for (double x : v) ++h.counts[std::min(bins - 1, static_cast<std::size_t>((x - lo) / (hi - lo) * nb))];
    return svg::histogram(h);
}

std::vector<std::size_t> answers_per_worker(const AnswerTable &t) {
    std::vector<std::size_t> n(t.worker_names.size(), 0);
    for (int32_t w : t.worker) ++n[static_cast<std::size_t>(w)];
    return n;
}

// Indices 0..n-1 ordered by `key` descending (stable), the first `count` of them.
template <class Key>
std::vector<std::size_t> top(std::size_t n, std::size_t count, Key key) {
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return key(a) > key(b); });
    if (order.size() > count) order.resize(count);
    return order;
}

std::string head(const AnswersReport &in, const std::string &method, int32_t iterations, bool converged,
                 int32_t notes) {
    const AnswerTable &t = *in.table;
    const bool tags = in.kind == AnswerKind::Tags;
    std::string html = "<h1>crowdspec report</h1>\n<p class=\"muted\">" + svg::escape(t.source) + ": " +
                       std::to_string(t.item.size()) + (tags ? " tag answers" : " numeric answers") + " by " +
                       std::to_string(t.worker_names.size()) + " workers on " + std::to_string(t.item_names.size()) +
                       " items" + (tags ? ", " + std::to_string(t.tag_names.size()) + " tags" : std::string()) +
                       "; method " + svg::escape(method) + ".</p>\n";
    html += "<section id=\"summary\"><h2>Summary</h2>\n<table class=\"summary\">\n";
    row(html, "answers", std::to_string(t.item.size()));
    row(html, "items", std::to_string(t.item_names.size()));
    row(html, "workers", std::to_string(t.worker_names.size()));
    if (tags) row(html, "tags", svg::escape(class_list(t.tag_names)));
    row(html, "method", svg::escape(method));
    row(html, "iterations", std::to_string(iterations) + (converged ? " (converged)" : " (not converged)"));
    std::string names;
    for (const std::string &n : note_names(notes)) names += (names.empty() ? "" : ", ") + n;
    row(html, "notes", names.empty() ? "none" : svg::escape(names));
    row(html, "input", svg::escape(in.read_note));
    return html + "</table>\n</section>\n";
}

std::string scores_section(const AnswersReport &in) {
    if (in.scores.empty()) return std::string();
    const bool tags = in.kind == AnswerKind::Tags;
    std::string html = "<section id=\"truth\"><h2>Against the truth</h2>\n<p>Scored on the items of " +
                       svg::escape(in.truth_name) + " found among the answers" +
                       (tags ? ": Hamming loss (the share of wrong item-tag decisions), exact-set accuracy (the "
                               "share of items whose whole set is right), F1 per tag, macro and micro."
                             : ": mean absolute error and root mean square error.") +
                       "</p>\n";
    html += tags ? table_open("truth-table", {{"method", false}, {"Hamming loss", true}, {"exact sets", true},
                                              {"macro F1", true}, {"micro F1", true}, {"items", true}})
                 : table_open("truth-table", {{"method", false}, {"MAE", true}, {"RMSE", true}, {"items", true}});
    for (const AnswerScore &s : in.scores) {
        html += "<tr>" + id_cell(s.method);
        if (!s.failure.empty()) {
            html += "<td colspan=\"5\">" + svg::escape(s.failure) + "</td></tr>\n";
            continue;
        }
        if (tags)
            html += num_cell(fmt("%.4f", s.tags.hamming_loss)) + num_cell(fmt("%.4f", s.tags.exact_set_accuracy)) +
                    num_cell(fmt("%.4f", s.tags.macro_f1)) + num_cell(fmt("%.4f", s.tags.micro_f1)) +
                    num_cell(std::to_string(s.tags.scored));
        else
            html += num_cell(fmt("%.4g", s.numbers.mae)) + num_cell(fmt("%.4g", s.numbers.rmse)) +
                    num_cell(std::to_string(s.numbers.scored));
        html += "</tr>\n";
    }
    html += kTableClose;
    if (tags && !in.scores.front().failure.empty()) return html + "</section>\n";
    if (tags) {
        const TagScores &s = in.scores.front().tags;
        html += "<p>F1 per tag of " + svg::escape(in.scores.front().method) + ":</p>\n" +
                table_open("truth-tags", {{"tag", false}, {"F1", true}});
        for (std::size_t g = 0; g < in.table->tag_names.size(); ++g)
            html += "<tr>" + id_cell(in.table->tag_names[g]) +
                    num_cell(std::isfinite(s.f1[g]) ? fmt("%.4f", s.f1[g]) : "n/a") + "</tr>\n";
        html += kTableClose;
    }
    return html + "</section>\n";
}

std::string numbers_body(const AnswersReport &in) {
    const AnswerTable &t = *in.table;
    const NumberOutcome &f = *in.numbers;
    const std::vector<std::size_t> answers = answers_per_worker(t);
    std::string html = scores_section(in);
    html += "<section id=\"workers\"><h2>Workers</h2>\n<p>Each worker's noise (the standard deviation of its "
            "errors) and bias (its mean answer minus the estimate).</p>\n";
    html += value_histogram("chart-noise", "Workers' noise", "noise", "workers", f.noise);
    html += value_histogram("chart-bias", "Workers' bias", "bias", "workers", f.bias);
    html += "<p>The noisiest workers:</p>\n" +
            table_open("noisiest", {{"worker", false}, {"answers", true}, {"noise", true}, {"bias", true}});
    for (std::size_t w : top(f.noise.size(), in.worst, [&](std::size_t i) { return f.noise[i]; }))
        html += "<tr>" + id_cell(t.worker_names[w]) + num_cell(std::to_string(answers[w])) +
                num_cell(fmt("%.4g", f.noise[w])) + num_cell(fmt("%.4g", f.bias[w])) + "</tr>\n";
    html += kTableClose;
    html += "<p>The most biased workers:</p>\n" +
            table_open("most-biased", {{"worker", false}, {"answers", true}, {"bias", true}, {"noise", true}});
    for (std::size_t w : top(f.bias.size(), in.worst, [&](std::size_t i) { return std::fabs(f.bias[i]); }))
        html += "<tr>" + id_cell(t.worker_names[w]) + num_cell(std::to_string(answers[w])) +
                num_cell(fmt("%.4g", f.bias[w])) + num_cell(fmt("%.4g", f.noise[w])) + "</tr>\n";
    html += kTableClose + std::string("</section>\n");
    html += "<section id=\"items\"><h2>Least certain items</h2>\n<p>The items of largest standard error: the first "
            "to collect more answers for.</p>\n";
    html += value_histogram("chart-se", "Standard errors of the estimates", "standard error", "items", f.se);
    html += table_open("least-certain", {{"item", false}, {"estimate", true}, {"standard error", true}});
    for (std::size_t j : top(f.se.size(), in.worst, [&](std::size_t i) { return f.se[i]; }))
        html += "<tr>" + id_cell(t.item_names[j]) + num_cell(fmt("%.6g", f.value[j])) + num_cell(fmt("%.4g", f.se[j])) +
                "</tr>\n";
    return html + kTableClose + "</section>\n";
}

std::string tags_body(const AnswersReport &in) {
    const AnswerTable &t = *in.table;
    const TagOutcome &f = *in.tags;
    const std::size_t T = t.tag_names.size(), n = t.item_names.size(), m = t.worker_names.size();
    const std::vector<std::size_t> answers = answers_per_worker(t);
    std::string html = scores_section(in);
    html += "<section id=\"tags\"><h2>Tags</h2>\n<p>Per tag: the mean probability over the items (its estimated "
            "prevalence), the items in its set, and its workers' mean sensitivity (P(tick | applies)) and "
            "specificity (P(no tick | does not apply)).</p>\n" +
            table_open("tag-table", {{"tag", false}, {"prevalence", true}, {"items in set", true},
                                     {"mean sensitivity", true}, {"mean specificity", true}});
    for (std::size_t g = 0; g < T; ++g) {
        double p = 0.0, sens = 0.0, spec = 0.0;
        std::size_t in_set = 0;
        for (std::size_t j = 0; j < n; ++j) {
            p += f.p[j * T + g];
            in_set += in.member[j * T + g] != 0;
        }
        for (std::size_t w = 0; w < m; ++w) {
            sens += f.sensitivity[w * T + g];
            spec += f.specificity[w * T + g];
        }
        const double items = static_cast<double>(n), workers = static_cast<double>(m);
        html += "<tr>" + id_cell(t.tag_names[g]) + num_cell(fmt("%.4f", n ? p / items : 0.0)) +
                num_cell(std::to_string(in_set)) + num_cell(fmt("%.3f", m ? sens / workers : 0.0)) +
                num_cell(fmt("%.3f", m ? spec / workers : 0.0)) + "</tr>\n";
    }
    html += kTableClose + std::string("</section>\n");
    std::vector<double> mean_sens(m, 0.0);
    for (std::size_t w = 0; w < m; ++w)
        for (std::size_t g = 0; g < T; ++g) mean_sens[w] += f.sensitivity[w * T + g] / static_cast<double>(T);
    html += "<section id=\"workers\"><h2>Workers</h2>\n<p>Each worker's sensitivity averaged over the tags: near 0, a "
            "worker who (almost) never ticks; their silence says little about an item.</p>\n";
    html += value_histogram("chart-sensitivity", "Workers' mean sensitivity", "mean sensitivity", "workers", mean_sens);
    html += "<p>The workers who tick least:</p>\n" +
            table_open("least-ticking", {{"worker", false}, {"answers", true}, {"mean sensitivity", true}});
    for (std::size_t w : top(m, in.worst, [&](std::size_t i) { return -mean_sens[i]; }))
        html += "<tr>" + id_cell(t.worker_names[w]) + num_cell(std::to_string(answers[w])) +
                num_cell(fmt("%.3f", mean_sens[w])) + "</tr>\n";
    html += kTableClose + std::string("</section>\n");
    // Items whose tags are least certain: the largest min(p, 1 - p) over their tags.
    std::vector<double> doubt(n, 0.0);
    for (std::size_t j = 0; j < n; ++j)
        for (std::size_t g = 0; g < T; ++g) doubt[j] = std::max(doubt[j], std::min(f.p[j * T + g], 1.0 - f.p[j * T + g]));
    html += "<section id=\"items\"><h2>Least certain items</h2>\n<p>The items with a tag whose probability is "
            "closest to 1/2: the first to collect more answers for.</p>\n" +
            table_open("least-certain", {{"item", false}, {"tag", false}, {"probability", true}});
    for (std::size_t j : top(n, in.worst, [&](std::size_t i) { return doubt[i]; })) {
        std::size_t worst = 0;
        for (std::size_t g = 1; g < T; ++g)
            if (std::min(f.p[j * T + g], 1.0 - f.p[j * T + g]) > std::min(f.p[j * T + worst], 1.0 - f.p[j * T + worst]))
                worst = g;
        html += "<tr>" + id_cell(t.item_names[j]) + id_cell(t.tag_names[worst]) + num_cell(fmt("%.4f", f.p[j * T + worst])) +
                "</tr>\n";
    }
    return html + kTableClose + "</section>\n";
}

}  // namespace

std::string answers_report_html(const AnswersReport &in) {
    const bool tags = in.kind == AnswerKind::Tags;
    std::string html =
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>crowdspec report: " +
        svg::escape(in.table->source) + "</title>\n<style>\n" + kStyle + "</style>\n</head>\n<body>\n";
    html += tags ? head(in, in.tags->method, in.tags->iterations, in.tags->converged, in.tags->notes)
                 : head(in, in.numbers->method, in.numbers->iterations, in.numbers->converged, in.numbers->notes);
    html += tags ? tags_body(in) : numbers_body(in);
    html += std::string("<footer>Written by crowdspec ") + cs_version_string() +
            ". This page is self-contained: no scripts, no network access.</footer>\n</body>\n</html>\n";
    return html;
}

}  // namespace report
}  // namespace cli
