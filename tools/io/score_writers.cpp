// SPDX-License-Identifier: MIT
// --scores and --label-scores of `fit` (issue 34): which items to send for another
// label and which labels to check, the highest score first.
#include <algorithm>
#include <numeric>

#include "io/result_writers.hpp"

namespace cli {

namespace {

std::vector<std::size_t> highest_first(const std::vector<double> &score) {
    std::vector<std::size_t> order(score.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return score[a] > score[b]; });
    return order;
}

ResultFormat format_of(const OutputFile &out) {
    const ResultFormat f = result_format(std::nullopt, out.path(), "--scores");
    return f == ResultFormat::JsonNested ? ResultFormat::Json : f;
}

}  // namespace

void write_item_scores(OutputFile &out, const CrowdTable &table, const FitOutcome &fit,
                       const std::vector<double> &label_next) {
    RecordWriter w(out, format_of(out), {"item", "label", "confidence", "label_next"});
    const std::size_t k = fit.k;
    for (std::size_t j : highest_first(label_next)) {
        const double *q = fit.posteriors.data() + j * k;
        w.text(table.item_names[j]);
        w.text(table.class_names[static_cast<std::size_t>(fit.labels[j])]);
        w.number(*std::max_element(q, q + k));
        w.number(label_next[j]);
        w.end_row();
    }
    w.finish();
}

void write_label_scores(OutputFile &out, const CrowdTable &table, const std::vector<int32_t> &item,
                        const std::vector<int32_t> &worker, const std::vector<int32_t> &label,
                        const std::vector<double> &p_wrong) {
    RecordWriter w(out, format_of(out), {"item", "worker", "label", "p_wrong"});
    for (std::size_t t : highest_first(p_wrong)) {
        w.text(table.item_names[static_cast<std::size_t>(item[t])]);
        w.text(table.worker_names[static_cast<std::size_t>(worker[t])]);
        w.text(table.class_names[static_cast<std::size_t>(label[t])]);
        w.number(p_wrong[t]);
        w.end_row();
    }
    w.finish();
}

}  // namespace cli
