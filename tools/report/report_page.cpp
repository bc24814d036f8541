// SPDX-License-Identifier: MIT
#include "report/report_page.hpp"

#include <limits>

#include "crowdspec/crowdspec.h"
#include "fitting/fitting.hpp"
#include "report/svg.hpp"

namespace cli {
namespace report {

void write_relabel_file(OutputFile &out, ResultFormat format, const ReportInput &in, const std::vector<RelabelRow> &rows) {
    const CrowdTable &t = *in.table;
    const FitOutcome &f = *in.fit;
    std::vector<std::string> columns = {"rank", "item", "label", "confidence", "label_next", "labels"};
    for (const std::string &c : t.class_names) columns.push_back("votes_" + c);
    RecordWriter w(out, format, std::move(columns));
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const std::size_t j = rows[r].item;
        const double *p = f.posteriors.data() + j * f.k;
        w.integer(static_cast<long long>(r + 1));
        w.text(t.item_names[j]);
        w.text(t.class_names[static_cast<std::size_t>(f.labels[j])]);
        w.number(*std::max_element(p, p + f.k));
        w.number(in.label_next.empty() ? std::numeric_limits<double>::quiet_NaN() : in.label_next[j]);
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
                    "reason", "accuracy_low", "accuracy_high", "spammer", "worst_class"});
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
        const bool diag = !in.spammer.empty();
        const double nan = std::numeric_limits<double>::quiet_NaN();
        w.number(diag ? in.accuracy_low[i] : nan);
        w.number(diag ? in.accuracy_high[i] : nan);
        w.number(diag ? in.spammer[i] : nan);
        w.text(diag && in.worst_class[i] >= 0 ? t.class_names[static_cast<std::size_t>(in.worst_class[i])]
                                              : std::string());
        w.end_row();
    }
    w.finish();
}

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
    html += calibration_section(in);
    html += std::string("<footer>Written by crowdspec ") + cs_version_string() +
            ". This page is self-contained: no scripts, no network access.</footer>\n</body>\n</html>\n";
    return html;
}

}  // namespace report
}  // namespace cli
