// SPDX-License-Identifier: MIT
// The opaque handle behind the C API: parameters, callback, last fit, last message.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "api/params.hpp"
#include "core/fit_result.hpp"
#include "crowd/em/warm_start.hpp"
#include "util/progress.hpp"

struct cs_model {
    cs::Params params;
    cs::Progress progress;
    std::vector<int32_t> gold_item;   // known true labels (cs_set_gold), checked at fit
    std::vector<int32_t> gold_label;
    cs::InitialParams initial;        // warm start (cs_set_initial_confusion / _prior)
    std::unique_ptr<cs::FitResult> fit;  // null until a fit succeeds (or is cancelled)
    // cs_last_error() text; mutable because const getters report their failures too.
    mutable std::string message;
};
