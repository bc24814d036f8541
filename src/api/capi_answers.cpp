// SPDX-License-Identifier: MIT
// The exported functions of the answer kinds added in 0.2: numeric answers
// (cs_fit_numbers and its results) and sets of tags (cs_fit_tags and its results).
// Each body runs inside cs::guard (src/api/guard.hpp), so no exception escapes.
#include <algorithm>
#include <string>

#include "api/arguments.hpp"
#include "api/guard.hpp"
#include "api/model.hpp"
#include "api/registry.hpp"
#include "data/numeric_data.hpp"
#include "data/tag_data.hpp"

using cs::Error;
using cs::require;

namespace {

// The last fit, which must be of `kind` (`what` names the getter in messages).
const cs::FitResult &fitted_kind(const cs_model *model, int32_t kind, const char *what) {
    if (!model->fit)
        throw Error(CS_ERR_NOT_FITTED, std::string(what) + ": no fit yet: call " +
                                           (kind == CS_INPUT_TAGS ? "cs_fit_tags" : "cs_fit_numbers") + " first");
    if (model->fit->input_kind != kind)
        throw Error(CS_ERR_WRONG_INPUT_KIND, std::string(what) + ": the last fit was not a " +
                                                 (kind == CS_INPUT_TAGS ? "tags fit (cs_fit_tags)"
                                                                        : "numbers fit (cs_fit_numbers)"));
    return *model->fit;
}

// The method of the handle for `kind`: `auto` stands for the kind's default; tags also
// take every crowd method (binary relevance).
const cs::MethodInfo &method_for_answers(const cs::FitOptions &options, cs::InputKind kind) {
    const int32_t id = options.method != CS_METHOD_AUTO   ? options.method
                       : kind == cs::InputKind::Numbers ? cs::kDefaultNumbersMethod
                                                        : cs::kDefaultTagsMethod;
    const cs::MethodInfo *method = cs::find_method(id);
    const bool takes = method != nullptr &&
                       (method->input == kind || (kind == cs::InputKind::Tags && method->input == cs::InputKind::Crowd));
    if (!takes)
        throw Error(CS_ERR_WRONG_INPUT_KIND,
                    std::string("method '") + (method ? method->name : "?") + "' does not take " +
                        (kind == cs::InputKind::Tags ? "tags (cs_fit_tags takes tag-pooled or any crowd method)"
                                                     : "numeric answers (cs_fit_numbers takes methods 400-409)"));
    return *method;
}

// Copies `values` into `out` when it is not NULL.
void copy_if(const std::vector<double> &values, double *out, size_t capacity, const char *what) {
    if (out != nullptr) cs::copy_out(values, out, capacity, what);
}

}  // namespace

extern "C" {

CS_API cs_status cs_fit_numbers(cs_model *model, const int32_t *item, const int32_t *worker, const double *value,
                                size_t n_answers) {
    if (model == nullptr) return CS_ERR_NULL_HANDLE;
    model->fit.reset();
    model->message.clear();
    return cs::guard(model, [&] {
        const cs::FitOptions options = model->params.fit_options();
        const cs::MethodInfo &method = method_for_answers(options, cs::InputKind::Numbers);
        const cs::NumericData data = cs::NumericData::build(item, worker, value, n_answers, options);
        auto fit = std::make_unique<cs::FitResult>();
        const bool cancelled = cs::run_numbers_method(data, options, model->progress, method.numbers, *fit);
        cs::keep_fit(model, std::move(fit), cancelled);
    });
}

CS_API cs_status cs_number_estimates(const cs_model *model, double *value, double *se, size_t capacity) {
    return cs::guard(model, [&] {
        const cs::FitResult &fit = fitted_kind(model, CS_INPUT_NUMBERS, "cs_number_estimates");
        copy_if(fit.values, value, capacity, "value");
        copy_if(fit.standard_errors, se, capacity, "se");
    });
}

CS_API cs_status cs_number_workers(const cs_model *model, double *bias, double *noise, size_t capacity) {
    return cs::guard(model, [&] {
        const cs::FitResult &fit = fitted_kind(model, CS_INPUT_NUMBERS, "cs_number_workers");
        copy_if(fit.worker_bias, bias, capacity, "bias");
        copy_if(fit.worker_noise, noise, capacity, "noise");
    });
}

CS_API cs_status cs_fit_tags(cs_model *model, const int32_t *item, const int32_t *worker, const int64_t *tag_start,
                             const int32_t *tag, size_t n_answers, int32_t n_tags) {
    if (model == nullptr) return CS_ERR_NULL_HANDLE;
    model->fit.reset();
    model->message.clear();
    return cs::guard(model, [&] {
        const cs::FitOptions options = model->params.fit_options();
        const cs::MethodInfo &method = method_for_answers(options, cs::InputKind::Tags);
        const cs::TagData data = cs::TagData::build(item, worker, tag_start, tag, n_answers, n_tags, options);
        auto fit = std::make_unique<cs::FitResult>();
        const bool cancelled =
            method.input == cs::InputKind::Tags
                ? cs::run_tags_method(data, options, model->progress, method.tags, *fit)
                : cs::run_tags_binary_relevance(
                      data, options, model->progress,
                      [&](const cs::CrowdData &crowd, const cs::FitOptions &tag_options, cs::FitResult &out) {
                          return cs::run_crowd_method(crowd, tag_options, cs::Progress(), method.crowd, out);
                      },
                      *fit);
        cs::keep_fit(model, std::move(fit), cancelled);
    });
}

CS_API cs_status cs_n_tags(const cs_model *model, size_t *n) {
    return cs::guard(model, [&] {
        require(n, "n");
        *n = static_cast<size_t>(fitted_kind(model, CS_INPUT_TAGS, "cs_n_tags").n_tags);
    });
}

CS_API cs_status cs_tag_probabilities(const cs_model *model, double *p, size_t capacity) {
    return cs::guard(model, [&] {
        cs::copy_out(fitted_kind(model, CS_INPUT_TAGS, "cs_tag_probabilities").tag_probabilities, p, capacity, "p");
    });
}

CS_API cs_status cs_tag_sets(const cs_model *model, const double *threshold, size_t n_threshold, int32_t *member,
                             size_t capacity) {
    return cs::guard(model, [&] {
        const cs::FitResult &fit = fitted_kind(model, CS_INPUT_TAGS, "cs_tag_sets");
        const size_t T = static_cast<size_t>(fit.n_tags);
        if (n_threshold != 0 && n_threshold != 1 && n_threshold != T)
            throw Error(CS_ERR_INVALID_ARGUMENT, "n_threshold = " + std::to_string(n_threshold) +
                                                     ": give 0 (0.5), 1 (one for every tag) or n_tags = " +
                                                     std::to_string(T) + " thresholds");
        if (n_threshold > 0) require(threshold, "threshold");
        for (size_t g = 0; g < n_threshold; ++g)
            if (!(threshold[g] >= 0.0 && threshold[g] <= 1.0))
                throw Error(CS_ERR_INVALID_ARGUMENT,
                            "threshold " + std::to_string(threshold[g]) + " at index " + std::to_string(g) +
                                " is outside [0, 1]");
        require(member, "member");
        const size_t size = fit.tag_probabilities.size();
        if (capacity < size)
            throw Error(CS_ERR_BUFFER_TOO_SMALL,
                        "member: capacity " + std::to_string(capacity) + " < " + std::to_string(size) + " values");
        for (size_t e = 0; e < size; ++e) {
            const double t = n_threshold == 0 ? 0.5 : n_threshold == 1 ? threshold[0] : threshold[e % T];
            member[e] = fit.tag_probabilities[e] >= t ? 1 : 0;
        }
    });
}

CS_API cs_status cs_tag_workers(const cs_model *model, double *sensitivity, double *specificity, size_t capacity) {
    return cs::guard(model, [&] {
        const cs::FitResult &fit = fitted_kind(model, CS_INPUT_TAGS, "cs_tag_workers");
        copy_if(fit.sensitivity, sensitivity, capacity, "sensitivity");
        copy_if(fit.specificity, specificity, capacity, "specificity");
    });
}

}  // extern "C"
