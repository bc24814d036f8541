// SPDX-License-Identifier: MIT
// cs_update and cs_refit: new labels into a saved-model state (crowd/em/incremental.hpp)
// and the full refit of all of them. The model's own parameters are those it was fitted
// with; the settings of an update (threads, duplicates, update_*) are the handle's now.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "api/arguments.hpp"
#include "api/guard.hpp"
#include "api/model.hpp"
#include "api/registry.hpp"
#include "api/saved_state.hpp"
#include "crowd/run_crowd.hpp"

using cs::Error;
using cs::require;

namespace {

// The fit's options with the handle's settings of the call.
cs::FitOptions update_options(const cs_model *model) {
    cs::FitOptions options = model->fit_params->fit_options();
    const cs::FitOptions now = model->params.fit_options();
    options.threads = now.threads;
    options.duplicates = now.duplicates;
    options.update_rounds = now.update_rounds;
    options.update_sweep = now.update_sweep;
    options.update_recalibrate = now.update_recalibrate;
    options.update_refit = now.update_refit;
    options.update_refit_work = now.update_refit_work;
    options.keep_labels = true;
    return options;
}

// The full refit of `labels` (cs_refit: the state's; cs_update: the state's with the
// batch, when update_state calls for it): cs_fit of them with the model's parameters;
// the model is replaced only on success.
void refit(cs_model *model, const cs::FitOptions &options, cs::RefitLabels labels) {
    const cs::MethodInfo *method = cs::find_method(options.method);
    if (method == nullptr || method->input != cs::InputKind::Crowd)
        throw Error(CS_ERR_INTERNAL, "the model's method is not a crowd method");
    cs::CrowdData data = std::move(labels.data);
    std::vector<double> table = std::move(labels.model_table);  // the classifier's rows go with the labels
    data.model_probs = table.empty() ? nullptr : table.data();
    auto fit = std::make_unique<cs::FitResult>();
    const bool cancelled = cs::run_crowd_method(data, options, model->progress, method->crowd, *fit);
    const cs::Params params = *model->fit_params;
    std::vector<uint8_t> user = std::move(model->user_data);
    cs::clear_fit(model);
    model->user_data = std::move(user);
    model->fit_params = std::make_unique<cs::Params>(params);
    if (!cancelled) {
        model->kept_model_table = std::move(table);  // the buffer moves: data.model_probs stays valid
        model->kept_data = std::make_unique<cs::CrowdData>(std::move(data));
    }
    cs::keep_fit(model, std::move(fit), cancelled);
}

}  // namespace

extern "C" {

CS_API cs_status cs_update(cs_model *model, const int32_t *item, const int32_t *worker, const int32_t *label,
                           size_t n_labels) {
    return cs::guard(model, [&] {
        if (n_labels > 0) {
            require(item, "item");
            require(worker, "worker");
            require(label, "label");
        }
        cs::ensure_update_state(model);
        if (n_labels == 0 && model->model_item.empty()) return;
        const cs::FitOptions options = update_options(model);
        // The handle's classifier rows (cs_set_model_probs), in the model's item ids: an
        // item whose row changes is worked on like one with new labels (issue 34).
        cs::ModelRows rows;
        rows.n = model->model_item.size();
        rows.item = model->model_item.data();
        rows.probs = model->model_probs.data();
        rows.k = model->model_k;
        bool changed = false;
        cs::RefitLabels refit_labels;
        cs::UpdatePath path = cs::UpdatePath::Incremental;
        try {
            // The fit's results are updated in place: only the rows of the items the
            // update works on are recomputed when the others cannot have changed.
            path = cs::update_state(*model->state, options, item, worker, label, n_labels, rows, *model->fit, changed,
                                    refit_labels);
        } catch (...) {
            if (changed) cs::clear_fit(model);  // a failure half-way (out of memory): nothing is left to trust
            throw;
        }
        if (path == cs::UpdatePath::Refit) {
            refit(model, options, std::move(refit_labels));  // the automatic refits (update_refit, _work)
            return;
        }
        model->message = model->fit->note_message;
    });
}

CS_API cs_status cs_refit(cs_model *model) {
    return cs::guard(model, [&] {
        cs::ensure_update_state(model);
        const cs::UpdateState &s = *model->state;
        refit(model, update_options(model), cs::RefitLabels{s.data, s.model_table});  // copies: a failure keeps the model
    });
}

}  // extern "C"
