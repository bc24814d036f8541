// SPDX-License-Identifier: MIT
#include "api/model_probs.hpp"

#include <cmath>
#include <string>

#include "crowd/em/dawid_skene.hpp"
#include "util/error.hpp"

namespace cs {

void check_model_rows(const int32_t *item, const double *probs, std::size_t n_rows, int32_t k, const char *what,
                      std::vector<int32_t> &items, std::vector<double> &values) {
    const std::string name = what;
    if (probs == nullptr) throw Error(CS_ERR_NULL_POINTER, name + ": the probability array is NULL");
    if (k < 2 || k > CS_MAX_CROWD_CLASSES)
        throw Error(CS_ERR_INVALID_ARGUMENT, name + ": k = " + std::to_string(k) + " is outside [2, " +
                                                 std::to_string(CS_MAX_CROWD_CLASSES) + "]");
    if (n_rows >= static_cast<std::size_t>(INT32_MAX))
        throw Error(CS_ERR_TOO_LARGE, name + ": " + std::to_string(n_rows) + " rows (at most 2^31 - 2)");
    items.assign(n_rows, 0);
    values.assign(probs, probs + n_rows * static_cast<std::size_t>(k));
    std::vector<uint8_t> seen;
    for (std::size_t r = 0; r < n_rows; ++r) {
        const int32_t j = item != nullptr ? item[r] : static_cast<int32_t>(r);
        if (j < 0) throw Error(CS_ERR_INVALID_ID, name + ": row " + std::to_string(r) + " has item id " +
                                                      std::to_string(j) + " < 0");
        if (static_cast<std::size_t>(j) >= seen.size()) seen.resize(static_cast<std::size_t>(j) + 1, 0);
        if (seen[j]++ != 0)
            throw Error(CS_ERR_INVALID_ARGUMENT, name + ": item " + std::to_string(j) + " has two rows");
        items[r] = j;
        double *row = values.data() + r * k;
        double sum = 0.0;
        for (int32_t t = 0; t < k; ++t) {
            if (!(row[t] >= 0.0 && std::isfinite(row[t])))
                throw Error(CS_ERR_INVALID_ARGUMENT, name + ": row " + std::to_string(r) + " (item " +
                                                         std::to_string(j) + ") has a value " +
                                                         "negative or not finite in column " + std::to_string(t));
            sum += row[t];
        }
        if (!(sum > 0.0))
            throw Error(CS_ERR_INVALID_ARGUMENT, name + ": row " + std::to_string(r) + " (item " +
                                                     std::to_string(j) + ") sums to 0");
        for (int32_t t = 0; t < k; ++t) row[t] /= sum;  // normalised: rows of rounded CSVs
    }
}

void set_model_probs(cs_model *model, const int32_t *item, const double *probs, std::size_t n_rows, int32_t k) {
    if (n_rows == 0) {
        model->model_item.clear();
        model->model_probs.clear();
        model->model_k = 0;
        return;
    }
    std::vector<int32_t> items;
    std::vector<double> values;
    check_model_rows(item, probs, n_rows, k, "model probabilities", items, values);
    model->model_item = std::move(items);
    model->model_probs = std::move(values);
    model->model_k = k;
}

bool takes_model_probs(int32_t method) { return is_ds_family(method) || method == CS_METHOD_CROWDLAB; }

void attach_model_probs(const cs_model *model, int32_t method, const char *method_name, CrowdData &data,
                        std::vector<double> &dense) {
    dense.clear();
    data.model_probs = nullptr;
    if (model->model_probs.empty()) return;
    if (!takes_model_probs(method))
        throw Error(CS_ERR_INVALID_ARGUMENT,
                    std::string("method '") + method_name +
                        "' does not take model probabilities (the Dawid-Skene family -- ds, opt-ds, one-coin-ds, "
                        "class-one-coin-ds, auto -- and crowdlab do); clear them with "
                        "cs_set_model_probs(model, NULL, NULL, 0, 0)");
    const int32_t k = data.k;
    if (model->model_k != k)
        throw Error(CS_ERR_INVALID_ARGUMENT, "model probabilities have " + std::to_string(model->model_k) +
                                                 " classes, the fit " + std::to_string(k) +
                                                 " (fix k with the 'classes' parameter)");
    dense.assign(static_cast<std::size_t>(data.n_items) * k, 1.0 / k);
    for (std::size_t r = 0; r < model->model_item.size(); ++r) {
        const int32_t j = model->model_item[r];
        if (j >= data.n_items)
            throw Error(CS_ERR_INVALID_ID, "model probabilities: item " + std::to_string(j) + " >= the fit's " +
                                               std::to_string(data.n_items) + " items (set the 'items' parameter)");
        std::copy(model->model_probs.begin() + static_cast<std::ptrdiff_t>(r) * k,
                  model->model_probs.begin() + static_cast<std::ptrdiff_t>(r + 1) * k,
                  dense.begin() + static_cast<std::ptrdiff_t>(j) * k);
    }
    data.model_probs = dense.data();
}

}  // namespace cs
