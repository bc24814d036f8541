// SPDX-License-Identifier: MIT
// The exported measures of a crowd's labels (cs_agreement, cs_uncertainty,
// cs_consistency, cs_accuracy_on_aggregates; metrics/crowd_measures.hpp computes them)
// and cs_intern_strings, cs_intern_integers (data/string_ids.hpp, data/integer_ids.hpp).
// Each body runs inside cs::guard.
#include <cstring>
#include <string>
#include <vector>

#include "api/arguments.hpp"
#include "api/guard.hpp"
#include "data/integer_ids.hpp"
#include "data/string_ids.hpp"
#include "metrics/crowd_measures.hpp"

using cs::Error;
using cs::copy_out;
using cs::require;

namespace {

cs::MeasureLabels labels_of(const int32_t *item, const int32_t *worker, const int32_t *label, size_t n,
                            bool need_worker) {
    require(item, "item");
    if (need_worker) require(worker, "worker");
    require(label, "label");
    if (n == 0) throw Error(CS_ERR_EMPTY_INPUT, "no labels (n_labels = 0)");
    return cs::check_measure_labels(item, need_worker ? worker : nullptr, label, n);
}

// The skills as a vector (empty: every skill 1), each in [0, 1].
std::vector<double> skills_of(const cs::MeasureLabels &l, const double *skill, size_t n_skills, bool required) {
    if (skill == nullptr) {
        if (required) throw Error(CS_ERR_NULL_POINTER, "skill is NULL");
        return {};
    }
    if (n_skills < static_cast<size_t>(l.n_workers))
        throw Error(CS_ERR_INVALID_ARGUMENT, "n_skills " + std::to_string(n_skills) + " < " +
                                                 std::to_string(l.n_workers) + " workers");
    std::vector<double> s(skill, skill + l.n_workers);
    for (size_t i = 0; i < s.size(); ++i)
        if (!(s[i] >= 0.0 && s[i] <= 1.0))
            throw Error(CS_ERR_INVALID_ARGUMENT, "skill of worker " + std::to_string(i) + " is " + std::to_string(s[i]) +
                                                     ", not in [0, 1]");
    return s;
}

const int32_t *aggregates_of(const cs::MeasureLabels &l, const int32_t *aggregate, size_t n_aggregate) {
    require(aggregate, "aggregate");
    if (n_aggregate < static_cast<size_t>(l.n_items))
        throw Error(CS_ERR_INVALID_ARGUMENT, "n_aggregate " + std::to_string(n_aggregate) + " < " +
                                                 std::to_string(l.n_items) + " items");
    for (int32_t j = 0; j < l.n_items; ++j)
        if (aggregate[j] >= l.k)
            throw Error(CS_ERR_INVALID_LABEL, "the aggregate of item " + std::to_string(j) + " is " +
                                                  std::to_string(aggregate[j]) + ", >= the " + std::to_string(l.k) +
                                                  " classes of the labels");
    return aggregate;
}


// The checks of both interning functions' outputs and count: n values of `what` in
// 1 .. 2^31 - 2 (their codes are int32).
void require_codes_out(const int32_t *codes, const int64_t *first, const size_t *n_distinct, size_t n,
                       const char *what) {
    require(codes, "codes");
    require(first, "first");
    require(n_distinct, "n_distinct");
    if (n == 0) throw Error(CS_ERR_EMPTY_INPUT, std::string("no ") + what + " (n = 0)");
    if (n >= static_cast<size_t>(INT32_MAX))
        throw Error(CS_ERR_TOO_LARGE,
                    std::to_string(n) + " " + what + ": at most 2^31 - 2 (the codes are int32)");
}

}  // namespace

extern "C" {

CS_API cs_status cs_agreement(cs_model *model, const int32_t *item, const int32_t *label, size_t n_labels,
                              double *alpha, double *coincidence, size_t capacity) {
    return cs::guard(model, [&] {
        const cs::MeasureLabels l = labels_of(item, nullptr, label, n_labels, false);
        const cs::Agreement a = cs::nominal_agreement(l);
        if (coincidence != nullptr) copy_out(a.coincidence, coincidence, capacity, "coincidence");
        if (alpha != nullptr) *alpha = a.alpha;
    });
}

CS_API cs_status cs_uncertainty(cs_model *model, const int32_t *item, const int32_t *worker, const int32_t *label,
                                size_t n_labels, const double *skill, size_t n_skills, int32_t by, double *values,
                                size_t capacity) {
    return cs::guard(model, [&] {
        if (by != CS_BY_ITEM && by != CS_BY_WORKER)
            throw Error(CS_ERR_INVALID_ARGUMENT, "by is " + std::to_string(by) + "; CS_BY_ITEM (0) or CS_BY_WORKER (1)");
        const cs::MeasureLabels l = labels_of(item, worker, label, n_labels, true);
        const std::vector<double> s = skills_of(l, skill, n_skills, false);
        copy_out(cs::label_uncertainty(l, s, by == CS_BY_WORKER), values, capacity, "values");
    });
}

CS_API cs_status cs_consistency(cs_model *model, const int32_t *item, const int32_t *worker, const int32_t *label,
                                size_t n_labels, const double *skill, size_t n_skills, const int32_t *aggregate,
                                size_t n_aggregate, double *values, size_t capacity) {
    return cs::guard(model, [&] {
        const cs::MeasureLabels l = labels_of(item, worker, label, n_labels, true);
        const std::vector<double> s = skills_of(l, skill, n_skills, true);
        copy_out(cs::aggregate_consistency(l, s, aggregates_of(l, aggregate, n_aggregate)), values, capacity, "values");
    });
}

CS_API cs_status cs_accuracy_on_aggregates(cs_model *model, const int32_t *item, const int32_t *worker,
                                           const int32_t *label, size_t n_labels, const int32_t *aggregate,
                                           size_t n_aggregate, double *values, size_t capacity, double *overall) {
    return cs::guard(model, [&] {
        const cs::MeasureLabels l = labels_of(item, worker, label, n_labels, true);
        const std::vector<double> per_worker =
            cs::accuracy_on_aggregates(l, aggregates_of(l, aggregate, n_aggregate), overall);
        if (values != nullptr) copy_out(per_worker, values, capacity, "values");
    });
}

CS_API cs_status cs_intern_strings(cs_model *model, const char *text, size_t text_size, const int64_t *offsets,
                                   size_t n, int32_t sorted, int32_t *codes, int64_t *first, size_t *n_distinct) {
    return cs::guard(model, [&] {
        if (text_size > 0) require(text, "text");
        require_codes_out(codes, first, n_distinct, n, "strings");
        const cs::StringCodes c = cs::intern_strings(cs::split_strings(text, text_size, offsets, n), sorted != 0);
        std::memcpy(codes, c.codes.data(), n * sizeof(int32_t));
        std::memcpy(first, c.first.data(), c.first.size() * sizeof(int64_t));
        *n_distinct = c.first.size();
    });
}

CS_API cs_status cs_intern_integers(cs_model *model, const int64_t *keys, size_t n, int32_t sorted, int32_t *codes,
                                    int64_t *first, size_t *n_distinct) {
    return cs::guard(model, [&] {
        require(keys, "keys");
        require_codes_out(codes, first, n_distinct, n, "keys");
        *n_distinct = cs::intern_integers(keys, n, sorted != 0, codes, first);
    });
}

}  // extern "C"
