// SPDX-License-Identifier: MIT
// Run a numbers fit (cs_fit_numbers): the method's entry point (from the registry,
// src/api/registry.cpp) and what every numeric method's result shares.
#pragma once

#include "core/fit_options.hpp"
#include "core/fit_result.hpp"
#include "data/numeric_data.hpp"
#include "util/progress.hpp"

namespace cs {

/// The entry point of a numeric method: fills out.values and out.standard_errors (one
/// per item; items without answers are set afterwards), and, when the model has them,
/// out.worker_bias and out.worker_noise; iterations, converged, trace and notes.
/// Returns true when the progress callback cancelled the fit.
using NumbersMethod = bool (*)(const NumericData &data, const FitOptions &options, const Progress &progress,
                               FitResult &out);

/// The method the `auto` id stands for with numeric answers.
constexpr int32_t kDefaultNumbersMethod = CS_METHOD_STUDENT_T;

/// Runs `method` and completes the result: sizes, the residual bias and noise of
/// methods without a worker model, items without answers (the answers' mean, their
/// standard deviation as standard error, CS_NOTE_UNLABELED_ITEMS). Returns true when
/// cancelled.
bool run_numbers_method(const NumericData &data, const FitOptions &options, const Progress &progress,
                        NumbersMethod method, FitResult &out);

}  // namespace cs
