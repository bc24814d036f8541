// SPDX-License-Identifier: MIT
#include "crowd/em/model_worker.hpp"

#include <algorithm>
#include <cmath>

#include "crowd/em/confusion_model.hpp"

namespace cs {

namespace {

// L_j(t) = sum_o p_j(o) pi_M[t][o] of one item for every class t; pi_M null = uniform.
void item_likelihoods(const double *p, const double *pi, int32_t k, double *out) {
    for (int32_t t = 0; t < k; ++t) {
        double sum = 0.0;
        if (pi == nullptr) {
            for (int32_t o = 0; o < k; ++o) sum += p[o];
            sum /= k;
        } else {
            const double *row = pi + static_cast<int64_t>(t) * k;
            for (int32_t o = 0; o < k; ++o) sum += p[o] * row[o];
        }
        out[t] = sum;
    }
}

bool flat(const double *p, int32_t k) { return flat_model_row(p, k); }

}  // namespace

bool flat_model_row(const double *p, int32_t k) {
    for (int32_t o = 1; o < k; ++o)
        if (p[o] != p[0]) return false;
    return true;
}

void add_model_vote(const CrowdData &data, std::vector<double> &q) {
    const int32_t k = data.k;
    for (int32_t j = 0; j < data.n_items; ++j) {
        const double *p = data.model_probs + static_cast<int64_t>(j) * k;
        if (flat(p, k)) continue;
        const double n = static_cast<double>(data.item_start[j + 1] - data.item_start[j]);
        double *qj = q.data() + static_cast<int64_t>(j) * k;
        for (int32_t t = 0; t < k; ++t) qj[t] = n > 0.0 ? (n * qj[t] + p[t]) / (n + 1.0) : p[t];
    }
}

void model_log_terms(const CrowdData &data, const std::vector<double> &model_confusion, std::vector<double> &terms) {
    const int32_t k = data.k;
    terms.resize(static_cast<std::size_t>(data.n_items) * k);
    const double *pi = model_confusion.empty() ? nullptr : model_confusion.data();
    for (int32_t j = 0; j < data.n_items; ++j) {
        double *m = terms.data() + static_cast<int64_t>(j) * k;
        item_likelihoods(data.model_probs + static_cast<int64_t>(j) * k, pi, k, m);
        for (int32_t t = 0; t < k; ++t) m[t] = std::log(m[t]);  // > 0: pi_M > 0 and sum_o p_j(o) = 1
    }
}

void model_counts(const CrowdData &data, const double *q, const std::vector<double> &model_confusion,
                  std::vector<double> &counts) {
    counts.assign(static_cast<std::size_t>(data.k) * data.k, 0.0);
    add_model_counts(data, q, model_confusion, nullptr, counts);
}

void add_model_counts(const CrowdData &data, const double *q, const std::vector<double> &model_confusion,
                      const uint8_t *skip, std::vector<double> &counts) {
    const int32_t k = data.k;
    const double *pi = model_confusion.empty() ? nullptr : model_confusion.data();
    std::vector<double> like(static_cast<std::size_t>(k));
    for (int32_t j = 0; j < data.n_items; ++j) {
        if (skip != nullptr && skip[j]) continue;
        const double *p = data.model_probs + static_cast<int64_t>(j) * k;
        if (flat(p, k)) continue;  // no model answer: missing, not counted (see the header)
        const double *qj = q + static_cast<int64_t>(j) * k;
        item_likelihoods(p, pi, k, like.data());
        for (int32_t t = 0; t < k; ++t) {
            if (!(qj[t] > 0.0) || !(like[t] > 0.0)) continue;
            // Pr(o_j = o | t_j = t, p_j) = pi_M[t][o] p_j(o) / L_j(t), weighted by q_j(t).
            const double w = qj[t] / like[t];
            double *row = counts.data() + static_cast<int64_t>(t) * k;
            for (int32_t o = 0; o < k; ++o) row[o] += w * p[o] * (pi ? pi[static_cast<int64_t>(t) * k + o] : 1.0 / k);
        }
    }
}

void model_m_step(const std::vector<double> &counts, int32_t k, const FitOptions &options,
                  std::vector<double> &model_confusion) {
    model_confusion.resize(static_cast<std::size_t>(k) * k);
    for (std::size_t e = 0; e < model_confusion.size(); ++e)
        model_confusion[e] = counts[e] + options.smoothing + 1.0 / k;
    apply_confusion_model(model_confusion.data(), k, options.confusion);
}

bool model_answers(const CrowdData &data, int32_t j, int32_t t) {
    const double *p = data.model_probs + static_cast<int64_t>(j) * data.k;
    return !flat(p, data.k) && p[t] == *std::max_element(p, p + data.k);
}

}  // namespace cs
