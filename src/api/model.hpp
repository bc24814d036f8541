// SPDX-License-Identifier: MIT
// The opaque handle behind the C API: parameters, callback, last fit, last message,
// and keep_fit, which stores a fit on it.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "api/params.hpp"
#include "core/fit_result.hpp"
#include "crowd/em/incremental.hpp"
#include "crowd/em/warm_start.hpp"
#include "data/crowd_data.hpp"
#include "util/error.hpp"
#include "util/progress.hpp"

struct cs_model {
    cs::Params params;
    cs::Progress progress;
    std::vector<int32_t> gold_item;   // known true labels (cs_set_gold), checked at fit
    std::vector<int32_t> gold_label;
    cs::InitialParams initial;        // warm start (cs_set_initial_confusion / _prior)
    std::vector<int32_t> model_item;  // a classifier's probabilities (cs_set_model_probs):
    std::vector<double> model_probs;  // row r is item model_item[r]'s, model_k values summing to 1
    int32_t model_k = 0;
    double initial_temperature = 1.0; // cs_predict's calibration without a fit
    double initial_mixing = 0.0;      // (cs_set_initial_calibration)
    std::unique_ptr<cs::FitResult> fit;  // null until a fit succeeds (or is cancelled)
    // Saved models and updates (api/saved_model.cpp, api/capi_update.cpp): the parameters
    // the fit ran with, its labels (CS_PARAM_KEEP_LABELS) until the first save or update
    // turns them into the update state, and the caller's bytes (cs_set_user_data).
    std::unique_ptr<cs::Params> fit_params;
    std::unique_ptr<cs::CrowdData> kept_data;
    std::vector<double> kept_model_table;  // the classifier's table kept_data points at (issue 34)
    std::unique_ptr<cs::UpdateState> state;
    std::vector<uint8_t> user_data;
    // cs_last_error() text; mutable because const getters report their failures too.
    mutable std::string message;
    // Set while a call runs on the handle (cs::guard): a second thread's call finds it
    // set and returns CS_ERR_BUSY instead of racing on the fit and the message.
    mutable std::atomic<bool> in_use{false};
};

namespace cs {

/// Forget the handle's fit and everything saved with it (a new fit, a prediction, a
/// failure); the parameters and the user data stay.
inline void clear_fit(cs_model *model) noexcept {
    model->fit.reset();
    model->fit_params.reset();
    model->kept_data.reset();
    model->kept_model_table.clear();
    model->state.reset();
}

/// Stores a finished (or cancelled) fit on the handle, with its notes as the handle's
/// message (cs_fit, cs_fit_csr, cs_fit_points, cs_fit_graph, the distributed fit). A
/// cancelled fit is kept and queryable, and still throws CS_ERR_CANCELLED.
inline void keep_fit(cs_model *model, std::unique_ptr<FitResult> fit, bool cancelled) {
    model->message = fit->note_message;
    model->fit = std::move(fit);
    if (cancelled)
        throw Error(CS_ERR_CANCELLED, "cancelled by the progress callback after iteration " +
                                          std::to_string(model->fit->iterations) +
                                          "; the results of that iteration are kept");
}

}  // namespace cs
