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

// Tables: what a lead acts on.

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
    const std::vector<std::size_t> order = relabel_order(confidence, labels, in.pinned, in.relabel_count, in.label_next);
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
    html += "The " + std::to_string(rows.size()) +
            (in.label_next.empty()
                 ? std::string(" items whose label is least certain: lowest confidence (the largest posterior "
                               "probability) first, ties by fewer labels")
                 : std::string(" items where one more label helps most: highest label-next score first (the "
                               "expected fall in the chance that the item's label is wrong if one more label is "
                               "bought from a typical worker), ties by lower confidence, then fewer labels")) +
            (std::count(in.pinned.begin(), in.pinned.end(), true) > 0 ? "; gold items are left out" : "") + ".";
    if (!in.relabel_path.empty()) html += " The same list is in <code>" + svg::escape(in.relabel_path) + "</code>.";
    html += "</p>\n" + table_open("relabel-table", {{"#", true}, {"item", false}, {"label", false},
                                                     {"confidence", true}, {"label next", true}, {"labels", true},
                                                     {"votes", false}});
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const std::size_t j = rows[r].item;
        const double *p = f.posteriors.data() + j * f.k;
        html += "<tr>" + num_cell(std::to_string(r + 1)) + id_cell(t.item_names[j]) +
                id_cell(t.class_names[static_cast<std::size_t>(f.labels[j])]) +
                num_cell(fmt("%.3f", *std::max_element(p, p + f.k))) +
                num_cell(in.label_next.empty() ? std::string("&ndash;") : fmt("%.3f", in.label_next[j])) +
                num_cell(std::to_string(rows[r].labels)) +
                "<td class=\"text\">" + svg::escape(votes_text(rows[r].votes, t.class_names)) + "</td></tr>\n";
    }
    return html + kTableClose + "</section>\n";
}

// The diagnostics of worker i (interval, spammer score, worst class) as cells.
std::string diagnostic_cells(const ReportInput &in, std::size_t i) {
    if (in.spammer.empty()) return num_cell("&ndash;") + num_cell("&ndash;") + id_cell("");
    const int32_t worst = in.worst_class[i];
    return num_cell(fmt("%.3f", in.accuracy_low[i]) + "&ndash;" + fmt("%.3f", in.accuracy_high[i])) +
           num_cell(fmt("%.3f", in.spammer[i])) +
           id_cell(worst >= 0 ? in.table->class_names[static_cast<std::size_t>(worst)] : std::string());
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
                       "<dt><span class=\"tag tag-adversary\">adversary</span></dt><dd>" +
                       (in.accuracy_high.empty()
                            ? std::string("systematically swapped classes: for two or more true classes its most "
                                          "likely answer is a wrong class (probability at least 0.5), and these "
                                          "wrong answers are not all the same class.")
                            : std::string("right less often than guessing beyond reasonable doubt: the upper end of "
                                          "the 95% interval of its accuracy (the posterior Beta of the share of its "
                                          "labels that are right, soft counts) is below 1/k.")) +
                       "</dd>\n</dl>\n<p>Spammer score: Raykar and Yu (2012), the distance of &pi; from a matrix "
                       "whose rows are all alike (0: its answer ignores the item; 1: perfect). Worst class: the true "
                       "class it gets right least often.</p>\n";
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
                                                         {"95% interval", true}, {"spammer", true},
                                                         {"worst class", false}, {"tags", false},
                                                         {"most frequent answer", false}, {"on gold", true},
                                                         {"why", false}})
                           : table_open("review-table", {{"worker", false}, {"labels", true}, {"accuracy", true},
                                                         {"95% interval", true}, {"spammer", true},
                                                         {"worst class", false}, {"tags", false},
                                                         {"most frequent answer", false}, {"why", false}}));
        for (std::size_t row_index = 0; row_index < shown; ++row_index) {
            const ReviewRow &r = rows[row_index];
            const std::size_t i = r.worker;
            html += "<tr>" + id_cell(t.worker_names[i]) + num_cell(std::to_string(labels[i])) +
                    num_cell(fmt("%.3f", accuracy[i])) + diagnostic_cells(in, i) + "<td>" +
                    tag_html(r.review.tags) + "</td>" +
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
        const double interval[2] = {in.accuracy_low.empty() ? 0.0 : in.accuracy_low[i],
                                    in.accuracy_high.empty() ? 1.0 : in.accuracy_high[i]};
        WorkerReview r = review_worker(answers[i], f.confusion.data() + i * f.k * f.k, accuracy[i],
                                       in.table->class_names, rules, in.accuracy_high.empty() ? nullptr : interval);
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

}  // namespace report
}  // namespace cli
