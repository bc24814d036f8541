// SPDX-License-Identifier: MIT
// The exported cs_* functions of the handle: lifecycle, parameters, fit, results.
// Each body runs inside cs::guard (src/api/guard.hpp), so no exception escapes.
#include <algorithm>
#include <cstring>
#include <string>

#include "api/arguments.hpp"
#include "api/guard.hpp"
#include "api/registry.hpp"
#include "api/model.hpp"
#include "api/model_probs.hpp"
#include "crowd/calibration/calibration.hpp"
#include "api/params.hpp"
#include "cluster/run_points.hpp"
#include "community/run_graph.hpp"
#include "crowd/fit_memory.hpp"
#include "crowd/run_crowd.hpp"
#include "data/crowd_data.hpp"
#include "data/comparison_data.hpp"
#include "data/graph_data.hpp"
#include "ranking/run_comparisons.hpp"
#include "util/parallel.hpp"

using cs::Error;
using cs::copy_out;
using cs::require;

namespace {

const cs::FitResult &fitted(const cs_model *model) {
    if (!model->fit)
        throw Error(CS_ERR_NOT_FITTED, "no fit yet: call cs_fit, cs_fit_points, cs_fit_graph or cs_fit_comparisons first");
    return *model->fit;
}

const char *input_name(int32_t kind) {
    switch (kind) {
        case CS_INPUT_CROWD: return "crowd labels (cs_fit)";
        case CS_INPUT_POINTS: return "points (cs_fit_points)";
        case CS_INPUT_GRAPH: return "graphs (cs_fit_graph)";
        case CS_INPUT_COMPARISONS: return "pairwise comparisons (cs_fit_comparisons)";
        default: return "?";
    }
}

// The method of the handle's options, which must take `kind` of input.
const cs::MethodInfo &method_for(const cs::FitOptions &options, cs::InputKind kind) {
    const cs::MethodInfo *method = cs::find_method(options.method);
    if (method == nullptr || method->input != kind)
        throw Error(CS_ERR_WRONG_INPUT_KIND,
                    std::string("method '") + (method ? method->name : "?") + "' does not take " +
                        input_name(static_cast<int32_t>(kind)) + "; it takes " +
                        (method ? input_name(static_cast<int32_t>(method->input)) : "nothing"));
    return *method;
}



// Initial matrices are only for the EM methods.
void check_initial_method(const cs_model *model, const cs::FitOptions &options, const cs::MethodInfo &method) {
    if (!model->initial.empty() && !cs::takes_initial_params(options.method))
        throw Error(CS_ERR_INVALID_ARGUMENT,
                    std::string("method '") + method.name +
                        "' cannot start from initial confusion matrices (only ds, opt-ds, one-coin-ds and "
                        "class-one-coin-ds can); clear them with cs_set_initial_confusion(model, NULL, 0)");
}

// Runs a crowd method on validated data (cs_fit, cs_fit_csr) and keeps the result, with
// the parameters it ran with and, for a saved model (CS_PARAM_KEEP_LABELS), its labels
// (codes the caller lent, cs_fit_csr's, are copied: the handle outlives the call).
// `model_table` is the classifier's dense table data.model_probs points at (empty:
// none); a saved model keeps it with the labels (issue 34).
void run_crowd_fit(cs_model *model, cs::CrowdData data, std::vector<double> model_table,
                   const cs::FitOptions &options, const cs::MethodInfo &method) {
    // A need beyond the machine is refused at once, with its figure (issue 40).
    cs::check_crowd_fit_memory(data, options, method.name);
    auto fit = std::make_unique<cs::FitResult>();
    const cs::Progress progress = model->progress;  // a copy: each fit's polls start afresh
    const bool cancelled =
        model->initial.empty() ? cs::run_crowd_method(data, options, progress, method.crowd, *fit)
                               : cs::run_crowd_from_initial(data, options, progress, model->initial, *fit);
    model->fit_params = std::make_unique<cs::Params>(model->params);
    if (!cancelled && options.keep_labels && cs::is_ds_family(options.method)) {
        if (data.item_code.is_view()) data.item_code.resize(data.item_code.size());
        // The table moves with its buffer, so data.model_probs stays valid beside it.
        model->kept_model_table = std::move(model_table);
        data.model_probs = model->kept_model_table.empty() ? nullptr : model->kept_model_table.data();
        model->kept_data = std::make_unique<cs::CrowdData>(std::move(data));
    }
    cs::keep_fit(model, std::move(fit), cancelled);
}

// cs_fit and cs_fit_csr: the same fit of a crowd, from the CrowdData that `build`
// makes (triples or item-grouped codes) with the model's options and gold.
template <class Build>
cs_status fit_crowd(cs_model *model, Build build) {
    return cs::guard(model, [&] {
        cs::clear_fit(model);  // the fit and any saved-model state
        model->message.clear();
        const cs::FitOptions options = model->params.fit_options();
        const cs::MethodInfo &method = method_for(options, cs::InputKind::Crowd);
        check_initial_method(model, options, method);
        cs::CrowdData data = build(options);
        std::vector<double> model_probs;  // the classifier's table; outlives the fit
        cs::attach_model_probs(model, options.method, method.name, data, model_probs);
        run_crowd_fit(model, std::move(data), std::move(model_probs), options, method);
    });
}

// The posterior grades of an ordered crowd fit (cs_median_grades, cs_mean_grades).
const cs::FitResult &ordered_fit(const cs_model *model, const char *what) {
    const cs::FitResult &fit = fitted(model);
    if (fit.input_kind != CS_INPUT_CROWD)
        throw Error(CS_ERR_WRONG_INPUT_KIND, std::string(what) + ": the last fit was of " + input_name(fit.input_kind));
    if (!fit.ordered)
        throw Error(CS_ERR_INVALID_ARGUMENT, std::string(what) +
                                                 ": the classes of the last fit are not ordered grades; set the "
                                                 "'ordinal' parameter to 1 before the fit, or fit an ordinal method "
                                                 "(ordinal-minimax, ordinal-ds)");
    return fit;
}

}  // namespace

extern "C" {

CS_API int32_t cs_method_count(void) { return static_cast<int32_t>(cs::method_table().size()); }

CS_API int32_t cs_method_at(int32_t index) {
    const auto &table = cs::method_table();
    if (index < 0 || index >= static_cast<int32_t>(table.size())) return 0;
    return table[index].id;
}

CS_API int32_t cs_method_input(int32_t method) {
    const cs::MethodInfo *m = cs::find_method(method);
    return m ? static_cast<int32_t>(m->input) : 0;
}

CS_API const char *cs_method_name(int32_t method) {
    const cs::MethodInfo *m = cs::find_method(method);
    return m ? m->name : nullptr;
}

CS_API const char *cs_method_summary(int32_t method) {
    const cs::MethodInfo *m = cs::find_method(method);
    return m ? m->summary : nullptr;
}

CS_API cs_status cs_method_from_name(const char *name, int32_t *method) {
    if (name == nullptr || method == nullptr) return CS_ERR_NULL_POINTER;
    const cs::MethodInfo *m = cs::find_method(name);
    if (m == nullptr) return CS_ERR_UNKNOWN_METHOD;
    *method = m->id;
    return CS_OK;
}

CS_API const char *cs_param_name(int32_t param) {
    const cs::ParamSpec *p = cs::find_param(param);
    return p ? p->name : nullptr;
}

CS_API cs_status cs_param_from_name(const char *name, int32_t *param) {
    if (name == nullptr || param == nullptr) return CS_ERR_NULL_POINTER;
    try {
        const cs::ParamSpec *p = cs::find_param(std::string(name));
        if (p == nullptr) return CS_ERR_UNKNOWN_PARAM;
        *param = p->id;
        return CS_OK;
    } catch (...) {
        return CS_ERR_OUT_OF_MEMORY;
    }
}

CS_API int32_t cs_param_count(void) { return static_cast<int32_t>(cs::param_table().size()); }

CS_API int32_t cs_param_at(int32_t index) {
    const auto &table = cs::param_table();
    if (index < 0 || index >= static_cast<int32_t>(table.size())) return 0;
    return table[index].id;
}

CS_API cs_status cs_param_info(int32_t param, double *lower, double *upper,
                               double *default_value, int32_t *is_integer) {
    const cs::ParamSpec *p = cs::find_param(param);
    if (p == nullptr) return CS_ERR_UNKNOWN_PARAM;
    if (lower) *lower = p->lower;
    if (upper) *upper = p->upper;
    if (default_value) *default_value = p->default_value;
    if (is_integer) *is_integer = p->integer ? 1 : 0;
    return CS_OK;
}

CS_API cs_model *cs_create(void) {
    try {
        return new cs_model();  // owned by the caller until cs_destroy (the C ABI's RAII)
    } catch (...) {
        return nullptr;
    }
}

CS_API void cs_destroy(cs_model *model) { delete model; }

CS_API const char *cs_last_error(const cs_model *model) {
    if (model == nullptr) return "NULL handle";
    return model->message.c_str();
}

CS_API cs_status cs_set_int(cs_model *model, int32_t param, int64_t value) {
    return cs::guard(model, [&] { model->params.set_int(param, value); });
}

CS_API cs_status cs_set_double(cs_model *model, int32_t param, double value) {
    return cs::guard(model, [&] { model->params.set_double(param, value); });
}

CS_API cs_status cs_get_int(const cs_model *model, int32_t param, int64_t *value) {
    return cs::guard(model, [&] {
        require(value, "value");
        const cs::ParamSpec *p = cs::find_param(param);
        if (p == nullptr)
            throw Error(CS_ERR_UNKNOWN_PARAM, "unknown parameter id " + std::to_string(param));
        if (!p->integer)
            throw Error(CS_ERR_INVALID_ARGUMENT, std::string("parameter '") + p->name +
                                                     "' is a double: use cs_get_double");
        *value = model->params.get_int(param);
    });
}

CS_API cs_status cs_get_double(const cs_model *model, int32_t param, double *value) {
    return cs::guard(model, [&] {
        require(value, "value");
        *value = model->params.get_double(param);
    });
}

CS_API cs_status cs_set_param_string(cs_model *model, const char *name, const char *value) {
    return cs::guard(model, [&] {
        require(name, "name");
        require(value, "value");
        model->params.set_string(name, value);
    });
}

CS_API cs_status cs_set_progress(cs_model *model, cs_progress_fn fn, void *user) {
    return cs::guard(model, [&] { model->progress = cs::Progress(fn, user); });
}

CS_API cs_status cs_set_gold(cs_model *model, const int32_t *item, const int32_t *label,
                             size_t n) {
    return cs::guard(model, [&] {
        if (n > 0) {
            require(item, "gold item array");
            require(label, "gold label array");
        }
        std::vector<int32_t> items(item, item + n), labels(label, label + n);
        cs::check_gold(items, labels);
        model->gold_item = std::move(items);
        model->gold_label = std::move(labels);
    });
}

CS_API cs_status cs_set_initial_confusion(cs_model *model, const double *confusion, size_t n) {
    return cs::guard(model, [&] {
        if (n > 0) require(confusion, "initial confusion array");
        std::vector<double> values(confusion, confusion + n);
        cs::check_initial_values(values, "initial confusion");
        model->initial.confusion = std::move(values);
    });
}

CS_API cs_status cs_set_initial_prior(cs_model *model, const double *prior, size_t n) {
    return cs::guard(model, [&] {
        if (n > 0) require(prior, "initial prior array");
        std::vector<double> values(prior, prior + n);
        cs::check_initial_values(values, "initial prior");
        model->initial.prior = std::move(values);
    });
}

CS_API cs_status cs_set_initial_calibration(cs_model *model, double temperature, double mixing) {
    return cs::guard(model, [&] {
        if (!(temperature >= 1e-6 && temperature <= 1e6))
            throw Error(CS_ERR_INVALID_ARGUMENT,
                        "calibration temperature " + std::to_string(temperature) + " is outside [1e-6, 1e6]");
        if (!(mixing >= 0.0 && mixing < 1.0))
            throw Error(CS_ERR_INVALID_ARGUMENT, "calibration mixing " + std::to_string(mixing) + " is outside [0, 1)");
        model->initial_temperature = temperature;
        model->initial_mixing = mixing;
    });
}

CS_API cs_status cs_fit(cs_model *model, const int32_t *item, const int32_t *worker,
                        const int32_t *label, size_t n_labels) {
    return fit_crowd(model, [&](const cs::FitOptions &options) {
        return cs::CrowdData::build(item, worker, label, n_labels, options, model->gold_item, model->gold_label);
    });
}

CS_API cs_status cs_fit_csr(cs_model *model, size_t n_items, const int64_t *item_start,
                            const uint32_t *code, int32_t k) {
    return fit_crowd(model, [&](const cs::FitOptions &options) {
        return cs::CrowdData::build_csr(n_items, item_start, code, k, options, model->gold_item,
                                        model->gold_label);
    });
}

}  // extern "C"

namespace {

// A classifier's rows for a batch of cs_predict_model_probs, in the batch's item ids.
struct BatchRows {
    const int32_t *item = nullptr;
    const double *probs = nullptr;
    size_t n = 0;
};

// The classifier's rows as data's dense table (into `table`), checked against the fit's
// pi_M and the batch's items; nothing without rows.
void attach_batch_rows(const BatchRows &rows, const std::vector<double> &model_confusion, int32_t k,
                       cs::CrowdData &data, std::vector<double> &table) {
    if (rows.n == 0) return;
    if (model_confusion.empty())
        throw Error(CS_ERR_INVALID_ARGUMENT,
                    "model probabilities need the classifier's confusion matrix of a fit that had them (a "
                    "Dawid-Skene family fit after cs_set_model_probs, or a saved model of one); this handle's "
                    "fit has none, or its method takes no model probabilities");
    std::vector<int32_t> items;
    std::vector<double> values;
    cs::check_model_rows(rows.item, rows.probs, rows.n, k, "batch model probabilities", items, values);
    table.assign(static_cast<std::size_t>(data.n_items) * k, 1.0 / k);
    for (size_t r = 0; r < items.size(); ++r) {
        if (items[r] >= data.n_items)
            throw Error(CS_ERR_INVALID_ID, "batch model probabilities: row " + std::to_string(r) + " is for item " +
                                               std::to_string(items[r]) + ", not an item of the batch (items 0 .. " +
                                               std::to_string(data.n_items - 1) + ")");
        std::copy_n(values.data() + r * k, k, table.data() + static_cast<int64_t>(items[r]) * k);
    }
    data.model_probs = table.data();
}

cs_status predict(cs_model *model, const int32_t *item, const int32_t *worker, const int32_t *label,
                  size_t n_labels, const BatchRows &rows) {
    return cs::guard(model, [&] {
        // The known workers: the last crowd fit's, else the initial matrices.
        cs::DsParams known;
        int32_t k = 0;
        double temperature = 1.0, mixing = 0.0;  // the fit's calibration, kept for its workers
        int32_t calibration = CS_CALIBRATION_NONE;
        if (model->fit) {
            const cs::FitResult &fit = *model->fit;
            if (fit.input_kind != CS_INPUT_CROWD)
                throw Error(CS_ERR_WRONG_INPUT_KIND,
                            "cs_predict labels crowd items: the last fit was of " +
                                std::string(input_name(fit.input_kind)));
            if (fit.confusion.empty() || fit.prior.empty())
                throw Error(CS_ERR_NOT_FITTED, "the last fit has no confusion matrices to predict with");
            known.confusion = fit.confusion;
            known.prior = fit.prior;
            known.model_confusion = fit.model_confusion;
            k = fit.k;
            temperature = fit.temperature;
            mixing = fit.mixing;
            calibration = fit.calibration;
        } else if (!model->initial.confusion.empty()) {
            known = cs::initial_for_prediction(model->initial, model->params.fit_options().classes);
            k = static_cast<int32_t>(known.prior.size());
            temperature = model->initial_temperature;
            mixing = model->initial_mixing;
            if (temperature != 1.0 || mixing != 0.0) calibration = CS_CALIBRATION_LABELS;
        } else {
            throw Error(CS_ERR_NOT_FITTED,
                        "no fit yet and no initial confusion matrices: call cs_fit or cs_set_initial_confusion first");
        }
        const int64_t kk = static_cast<int64_t>(k) * k;
        const int32_t known_workers = static_cast<int32_t>(static_cast<int64_t>(known.confusion.size()) / kk);
        cs::FitOptions options = model->params.fit_options();
        options.items = 0;
        options.classes = k;
        // Worker ids may go beyond the known ones (unknown workers): the count is the
        // larger of the two.
        int32_t max_worker = -1;
        for (size_t t = 0; worker != nullptr && t < n_labels; ++t) max_worker = std::max(max_worker, worker[t]);
        options.workers = std::max(known_workers, max_worker + 1);
        cs::CrowdData data = cs::CrowdData::build(item, worker, label, n_labels, options);
        std::vector<double> table;
        attach_batch_rows(rows, known.model_confusion, k, data, table);
        auto result = std::make_unique<cs::FitResult>();
        cs::predict_items(data, options, known, known_workers, *result);
        cs::apply_calibration(data, temperature, mixing, calibration, *result);
        result->ordered = options.ordinal == 1 || (model->fit && model->fit->ordered);
        model->message = result->note_message;
        cs::clear_fit(model);
        model->fit = std::move(result);
    });
}

}  // namespace

extern "C" {

CS_API cs_status cs_predict(cs_model *model, const int32_t *item, const int32_t *worker,
                            const int32_t *label, size_t n_labels) {
    return predict(model, item, worker, label, n_labels, BatchRows{});
}

CS_API cs_status cs_predict_model_probs(cs_model *model, const int32_t *item, const int32_t *worker,
                                        const int32_t *label, size_t n_labels, const int32_t *model_item,
                                        const double *probs, size_t n_rows) {
    return predict(model, item, worker, label, n_labels, BatchRows{model_item, probs, n_rows});
}

CS_API cs_status cs_fit_points(cs_model *model, const double *x, size_t n, size_t d, size_t ld) {
    return cs::guard(model, [&] {
        cs::clear_fit(model);  // the fit and any saved-model state
        model->message.clear();
        const cs::FitOptions options = model->params.fit_options();
        const cs::MethodInfo &method = method_for(options, cs::InputKind::Points);
        auto fit = std::make_unique<cs::FitResult>();
        const cs::Progress progress = model->progress;  // a copy: each fit's polls start afresh
        const bool cancelled = cs::run_points_method(x, n, d, ld, options, progress, method.points, *fit);
        cs::keep_fit(model, std::move(fit), cancelled);
    });
}

CS_API cs_status cs_fit_graph(cs_model *model, size_t n_nodes, const int32_t *u, const int32_t *v,
                              size_t n_edges) {
    return cs::guard(model, [&] {
        cs::clear_fit(model);  // the fit and any saved-model state
        model->message.clear();
        const cs::FitOptions options = model->params.fit_options();
        const cs::MethodInfo &method = method_for(options, cs::InputKind::Graph);
        const cs::GraphData graph =
            cs::GraphData::build(n_nodes, u, v, n_edges, cs::resolve_threads(options.threads));
        auto fit = std::make_unique<cs::FitResult>();
        const cs::Progress progress = model->progress;  // a copy: each fit's polls start afresh
        const bool cancelled = cs::run_graph_method(graph, options, progress, method.graph, *fit);
        cs::keep_fit(model, std::move(fit), cancelled);
    });
}

CS_API cs_status cs_fit_comparisons(cs_model *model, const int32_t *worker, const int32_t *left,
                                    const int32_t *right, const int32_t *answer, size_t n) {
    return cs::guard(model, [&] {
        cs::clear_fit(model);  // the fit and any saved-model state
        model->message.clear();
        const cs::FitOptions options = model->params.fit_options();
        const cs::MethodInfo &method = method_for(options, cs::InputKind::Comparisons);
        // bt reads only the pairs' counts: no per-comparison arrays.
        const cs::ComparisonData data = cs::ComparisonData::build(
            worker, left, right, answer, n, options.items, options.workers, cs::uses_workers(options.method));
        auto fit = std::make_unique<cs::FitResult>();
        const bool cancelled = cs::run_comparisons_method(data, options, model->progress, method.comparisons, *fit);
        cs::keep_fit(model, std::move(fit), cancelled);
    });
}

CS_API cs_status cs_n_items(const cs_model *model, size_t *n) {
    return cs::guard(model, [&] {
        require(n, "n");
        *n = static_cast<size_t>(fitted(model).n_items);
    });
}

CS_API cs_status cs_n_workers(const cs_model *model, size_t *n) {
    return cs::guard(model, [&] {
        require(n, "n");
        *n = static_cast<size_t>(fitted(model).n_workers);
    });
}

CS_API cs_status cs_n_classes(const cs_model *model, size_t *n) {
    return cs::guard(model, [&] {
        require(n, "n");
        *n = static_cast<size_t>(fitted(model).k);
    });
}

CS_API cs_status cs_labels(const cs_model *model, int32_t *labels, size_t capacity) {
    return cs::guard(model, [&] { copy_out(fitted(model).labels, labels, capacity, "labels"); });
}

CS_API cs_status cs_posteriors(const cs_model *model, double *posteriors, size_t capacity) {
    return cs::guard(model, [&] {
        const cs::FitResult &fit = fitted(model);
        if (fit.input_kind == CS_INPUT_CROWD) {
            copy_out(fit.posteriors, posteriors, capacity, "posteriors");
            return;
        }
        // Points and graphs: hard labels, one-hot rows written on demand (not stored).
        // Comparisons have no classes (k = 0): no posterior values.
        if (fit.k == 0) return;
        require(posteriors, "posteriors");
        const std::size_t k = static_cast<std::size_t>(fit.k), size = fit.labels.size() * k;
        if (capacity < size)
            throw Error(CS_ERR_BUFFER_TOO_SMALL, "posteriors: capacity " + std::to_string(capacity) +
                                                     " < " + std::to_string(size) + " values");
        std::fill(posteriors, posteriors + size, 0.0);
        for (std::size_t i = 0; i < fit.labels.size(); ++i)
            posteriors[i * k + static_cast<std::size_t>(fit.labels[i])] = 1.0;
    });
}

CS_API cs_status cs_confusion(const cs_model *model, double *confusion, size_t capacity) {
    return cs::guard(model, [&] {
        copy_out(fitted(model).confusion, confusion, capacity, "confusion");
    });
}

CS_API cs_status cs_class_prior(const cs_model *model, double *prior, size_t capacity) {
    return cs::guard(model, [&] { copy_out(fitted(model).prior, prior, capacity, "prior"); });
}

CS_API cs_status cs_trace_length(const cs_model *model, size_t *n) {
    return cs::guard(model, [&] {
        require(n, "n");
        *n = fitted(model).trace.size();
    });
}

CS_API cs_status cs_trace(const cs_model *model, double *trace, size_t capacity) {
    return cs::guard(model, [&] { copy_out(fitted(model).trace, trace, capacity, "trace"); });
}

CS_API cs_status cs_iterations(const cs_model *model, int32_t *iterations) {
    return cs::guard(model, [&] {
        require(iterations, "iterations");
        *iterations = fitted(model).iterations;
    });
}

CS_API cs_status cs_converged(const cs_model *model, int32_t *converged) {
    return cs::guard(model, [&] {
        require(converged, "converged");
        *converged = fitted(model).converged ? 1 : 0;
    });
}

CS_API cs_status cs_log_likelihood(const cs_model *model, double *log_likelihood) {
    return cs::guard(model, [&] {
        require(log_likelihood, "log_likelihood");
        const cs::FitResult &fit = fitted(model);
        const bool em = fit.has_log_likelihood && !fit.trace.empty();
        *log_likelihood = em ? fit.trace.back() : 0.0;
    });
}

CS_API cs_status cs_calibration(const cs_model *model, double *temperature, double *mixing, int32_t *source) {
    return cs::guard(model, [&] {
        const cs::FitResult &fit = fitted(model);
        if (temperature != nullptr) *temperature = fit.temperature;
        if (mixing != nullptr) *mixing = fit.mixing;
        if (source != nullptr) *source = fit.calibration;
    });
}

CS_API cs_status cs_fit_notes(const cs_model *model, int32_t *notes) {
    return cs::guard(model, [&] {
        require(notes, "notes");
        *notes = fitted(model).notes;
    });
}

CS_API cs_status cs_n_dims(const cs_model *model, size_t *d) {
    return cs::guard(model, [&] {
        require(d, "d");
        *d = static_cast<size_t>(fitted(model).n_dims);
    });
}

CS_API cs_status cs_centres(const cs_model *model, double *centres, size_t capacity) {
    return cs::guard(model, [&] {
        const cs::FitResult &fit = fitted(model);
        if (fit.input_kind != CS_INPUT_POINTS)
            throw Error(CS_ERR_WRONG_INPUT_KIND, "cs_centres: the last fit was not a points fit (cs_fit_points)");
        copy_out(fit.centres, centres, capacity, "centres");
    });
}

CS_API cs_status cs_graph_densities(const cs_model *model, double *within, double *between) {
    return cs::guard(model, [&] {
        const cs::FitResult &fit = fitted(model);
        if (fit.input_kind != CS_INPUT_GRAPH)
            throw Error(CS_ERR_WRONG_INPUT_KIND,
                        "cs_graph_densities: the last fit was not a graph fit (cs_fit_graph)");
        if (within) *within = fit.within_density;
        if (between) *between = fit.between_density;
    });
}

CS_API cs_status cs_scores(const cs_model *model, double *score, double *se, int32_t *rank, size_t capacity) {
    return cs::guard(model, [&] {
        const cs::FitResult &fit = fitted(model);
        if (fit.input_kind != CS_INPUT_COMPARISONS)
            throw Error(CS_ERR_WRONG_INPUT_KIND, "cs_scores: the last fit was not of comparisons (cs_fit_comparisons)");
        if (capacity < fit.scores.size())
            throw Error(CS_ERR_BUFFER_TOO_SMALL, "scores: capacity " + std::to_string(capacity) + " < " +
                                                     std::to_string(fit.scores.size()) + " items");
        if (score != nullptr) copy_out(fit.scores, score, capacity, "score");
        if (se != nullptr) copy_out(fit.score_se, se, capacity, "se");
        if (rank != nullptr) copy_out(fit.ranks, rank, capacity, "rank");
    });
}

CS_API cs_status cs_worker_reliability(const cs_model *model, double *reliability, size_t capacity) {
    return cs::guard(model, [&] {
        const cs::FitResult &fit = fitted(model);
        if (fit.input_kind != CS_INPUT_COMPARISONS)
            throw Error(CS_ERR_WRONG_INPUT_KIND,
                        "cs_worker_reliability: the last fit was not of comparisons (cs_fit_comparisons)");
        if (fit.reliability.empty() && fit.n_workers > 0)
            throw Error(CS_ERR_INVALID_ARGUMENT,
                        "cs_worker_reliability: bt has no worker parameters (noisy-bt and crowd-bt have)");
        copy_out(fit.reliability, reliability, capacity, "reliability");
    });
}

CS_API cs_status cs_estimate(const cs_model *model, const char *name, double *values, size_t capacity,
                             size_t *rows, size_t *cols) {
    return cs::guard(model, [&] {
        require(name, "name");
        const cs::FitResult &fit = fitted(model);
        const cs::FitResult::Estimate *found = nullptr;
        std::string names;
        for (const cs::FitResult::Estimate &e : fit.estimates) {
            if (e.name == name) found = &e;
            names += (names.empty() ? "" : ", ") + ("\"" + e.name + "\"");
        }
        if (found == nullptr)
            throw Error(CS_ERR_INVALID_ARGUMENT, std::string("the last fit has no estimate \"") + name + "\"" +
                                                     (names.empty() ? std::string(" (its method has none)")
                                                                    : "; it has " + names));
        if (rows) *rows = static_cast<size_t>(found->rows);
        if (cols) *cols = static_cast<size_t>(found->cols);
        if (values != nullptr || capacity > 0) copy_out(found->values, values, capacity, "values");
    });
}

CS_API cs_status cs_median_grades(const cs_model *model, int32_t *grades, size_t capacity) {
    return cs::guard(model, [&] {
        const cs::FitResult &fit = ordered_fit(model, "cs_median_grades");
        require(grades, "grades");
        copy_out(cs::median_grades(fit.posteriors, fit.n_items, fit.k), grades, capacity, "grades");
    });
}

CS_API cs_status cs_mean_grades(const cs_model *model, double *grades, size_t capacity) {
    return cs::guard(model, [&] {
        const cs::FitResult &fit = ordered_fit(model, "cs_mean_grades");
        require(grades, "grades");
        copy_out(cs::mean_grades(fit.posteriors, fit.n_items, fit.k), grades, capacity, "grades");
    });
}

}  // extern "C"
