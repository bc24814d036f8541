// SPDX-License-Identifier: MIT
#include "crowd/em/incremental_model.hpp"

#include <algorithm>
#include <string>

#include "crowd/em/model_worker.hpp"
#include "util/error.hpp"

namespace cs {

std::vector<int32_t> changed_model_rows(const UpdateState &s, const ModelRows &rows, int32_t n_items_after) {
    std::vector<int32_t> out;
    if (rows.n == 0) return out;
    const int32_t k = s.data.k;
    if (rows.k != k)
        throw Error(CS_ERR_INVALID_ARGUMENT, "model probabilities have " + std::to_string(rows.k) +
                                                 " classes, the saved model " + std::to_string(k));
    const bool has_table = !s.model_table.empty();
    for (std::size_t r = 0; r < rows.n; ++r) {
        const int32_t j = rows.item[r];
        if (j >= n_items_after)
            throw Error(CS_ERR_INVALID_ID,
                        "model probabilities: row " + std::to_string(r) + " is for item " + std::to_string(j) +
                            ", not an item of the model (it has " + std::to_string(n_items_after) +
                            " items with this update's labels)");
        const double *p = rows.probs + r * static_cast<std::size_t>(k);
        bool changes;
        if (has_table && j < s.data.n_items)
            changes = !std::equal(p, p + k, s.model_table.data() + static_cast<int64_t>(j) * k);
        else
            changes = !flat_model_row(p, k);  // a new item, or a state without a model
        if (changes) out.push_back(j);
    }
    std::sort(out.begin(), out.end());
    return out;
}

bool rows_into_table(std::vector<double> &table, int32_t n_items, int32_t k, const ModelRows &rows) {
    const std::size_t size = static_cast<std::size_t>(n_items) * k;
    bool informs = false;
    for (std::size_t r = 0; r < rows.n && !informs; ++r) informs = !flat_model_row(rows.probs + r * k, k);
    if (table.empty() && !informs) return false;  // no model, and these rows say nothing
    table.resize(size, 1.0 / k);
    for (std::size_t r = 0; r < rows.n; ++r)
        std::copy_n(rows.probs + r * k, k, table.data() + static_cast<int64_t>(rows.item[r]) * k);
    return true;
}

void apply_model_rows(UpdateState &s, const ModelRows &rows) {
    const int32_t k = s.data.k;
    if (!rows_into_table(s.model_table, s.data.n_items, k, rows)) return;
    if (s.params.model_confusion.empty())  // a model joins: pi_M starts uniform (run_em's parameter start)
        s.params.model_confusion.assign(static_cast<std::size_t>(k) * k, 1.0 / k);
    s.attach_model();
}

const double *model_terms_for(const CrowdData &data, const std::vector<double> &model_confusion,
                              std::vector<double> &terms) {
    if (!has_model(data) || model_confusion.empty()) {
        terms.clear();
        return nullptr;
    }
    model_log_terms(data, model_confusion, terms);
    return terms.data();
}

void model_counts_of_rest(const UpdateState &s, const std::vector<uint8_t> &working, std::vector<double> &rest) {
    rest.clear();
    if (!has_model(s.data)) return;
    rest.assign(static_cast<std::size_t>(s.data.k) * s.data.k, 0.0);
    add_model_counts(s.data, s.q.data(), s.params.model_confusion, working.data(), rest);
}

void model_counts_with(const UpdateState &s, const std::vector<double> &rest, const CrowdData &gathered,
                       const double *gathered_q, std::vector<double> &counts) {
    counts = rest;
    if (!rest.empty()) add_model_counts(gathered, gathered_q, s.params.model_confusion, nullptr, counts);
}

}  // namespace cs
