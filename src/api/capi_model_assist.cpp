// SPDX-License-Identifier: MIT
// The exported functions of issue 34: a classifier's probabilities as input
// (cs_set_model_probs, cs_model_confusion), the "label next" and "check this label"
// scores and the worker diagnostics (crowd/diagnostics/worker_diagnostics.hpp). Each
// body runs inside cs::guard.
#include <string>
#include <vector>

#include "api/arguments.hpp"
#include "api/guard.hpp"
#include "api/model.hpp"
#include "api/model_probs.hpp"
#include "crowd/diagnostics/worker_diagnostics.hpp"

using cs::Error;
using cs::copy_out;
using cs::require;

namespace {

// The last fit, which must be a crowd fit with the diagnostics computed.
const cs::FitResult &crowd_fit(const cs_model *model, const char *what) {
    if (!model->fit) throw Error(CS_ERR_NOT_FITTED, std::string(what) + ": no fit yet: call cs_fit first");
    const cs::FitResult &fit = *model->fit;
    if (fit.input_kind != CS_INPUT_CROWD)
        throw Error(CS_ERR_WRONG_INPUT_KIND, std::string(what) + " needs a crowd fit (cs_fit)");
    if (fit.typical_confusion.empty())
        throw Error(CS_ERR_NOT_FITTED, std::string(what) +
                                           ": the last fit has none (cs_predict, cs_fit_mpi, or a method without "
                                           "confusion matrices over more than 2^26 worker x class x class entries)");
    return fit;
}

template <class T>
void copy_optional(const std::vector<T> &values, T *out, size_t capacity, const char *what) {
    if (out != nullptr) copy_out(values, out, capacity, what);
}

}  // namespace

extern "C" {

CS_API cs_status cs_set_model_probs(cs_model *model, const int32_t *item, const double *probs, size_t n_rows,
                                    int32_t k) {
    return cs::guard(model, [&] { cs::set_model_probs(model, item, probs, n_rows, k); });
}

CS_API cs_status cs_model_confusion(const cs_model *model, double *confusion, size_t capacity) {
    return cs::guard(model, [&] {
        if (!model->fit || model->fit->model_confusion.empty())
            throw Error(CS_ERR_NOT_FITTED,
                        "the last fit estimated no model confusion matrix (set cs_set_model_probs and fit a "
                        "Dawid-Skene family method)");
        copy_out(model->fit->model_confusion, confusion, capacity, "confusion");
    });
}

CS_API cs_status cs_label_next(const cs_model *model, double *scores, size_t capacity) {
    return cs::guard(model, [&] {
        const cs::FitResult &fit = crowd_fit(model, "cs_label_next");
        require(scores, "scores");
        if (capacity < static_cast<size_t>(fit.n_items))
            throw Error(CS_ERR_BUFFER_TOO_SMALL, "scores: capacity " + std::to_string(capacity) + " < " +
                                                     std::to_string(fit.n_items) + " values");
        // Straight into the caller's buffer: at 10^6 items a copy costs as much as the scores.
        cs::label_next_scores(fit, scores);
    });
}

CS_API cs_status cs_label_wrong(const cs_model *model, const int32_t *item, const int32_t *label, size_t n,
                                double *wrong) {
    return cs::guard(model, [&] {
        const cs::FitResult &fit = crowd_fit(model, "cs_label_wrong");
        if (n == 0) return;
        require(item, "item");
        require(label, "label");
        require(wrong, "wrong");
        // One pass that checks and computes together (an out-of-range pair reads entry 0
        // instead and is reported after the pass): at 10^7 labels a separate check
        // pass costs as much as the scores.
        const uint32_t n_items = static_cast<uint32_t>(fit.n_items), k = static_cast<uint32_t>(fit.k);
        const double *q = fit.posteriors.data();
        bool bad = fit.n_items == 0;  // (then nothing is in range, and entry 0 does not exist)
        for (size_t t = 0; t < n && !bad; ++t) {
            const bool in_range = static_cast<uint32_t>(item[t]) < n_items && static_cast<uint32_t>(label[t]) < k;
            bad |= !in_range;
            wrong[t] = 1.0 - q[in_range ? static_cast<size_t>(item[t]) * k + static_cast<uint32_t>(label[t]) : 0];
        }
        if (!bad) return;
        for (size_t t = 0; t < n; ++t) {
            if (item[t] < 0 || item[t] >= fit.n_items)
                throw Error(CS_ERR_INVALID_ID, "label " + std::to_string(t) + ": item " + std::to_string(item[t]) +
                                                   " is outside the fit's " + std::to_string(fit.n_items) + " items");
            if (label[t] < 0 || label[t] >= fit.k)
                throw Error(CS_ERR_INVALID_LABEL, "label " + std::to_string(t) + ": class " +
                                                      std::to_string(label[t]) + " is outside 0 .. " +
                                                      std::to_string(fit.k - 1));
        }
    });
}

CS_API cs_status cs_worker_diagnostics(const cs_model *model, double *spammer, int32_t *worst_class,
                                       double *accuracy, double *low, double *high, size_t capacity) {
    return cs::guard(model, [&] {
        const cs::FitResult &fit = crowd_fit(model, "cs_worker_diagnostics");
        if (fit.worker_spammer.empty() && fit.n_workers > 0)
            throw Error(CS_ERR_NOT_FITTED, "cs_worker_diagnostics: the last fit has none");
        copy_optional(fit.worker_spammer, spammer, capacity, "spammer");
        copy_optional(fit.worker_worst_class, worst_class, capacity, "worst_class");
        copy_optional(fit.worker_accuracy, accuracy, capacity, "accuracy");
        copy_optional(fit.worker_accuracy_low, low, capacity, "low");
        copy_optional(fit.worker_accuracy_high, high, capacity, "high");
    });
}

}  // extern "C"
