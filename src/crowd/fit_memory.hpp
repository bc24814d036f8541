// SPDX-License-Identifier: MIT
// What a crowd fit will allocate, known from the sizes before it allocates anything
// (issue 40): a method keeps one or more tables of k x k entries per worker (ebcc and
// bcc: k x kM), and items x k posteriors. A declared k far above the classes observed,
// or 10^4 distinct labels from many workers, asks for tens of gigabytes: the fit is
// refused at once with the figure, instead of allocating until it fails.
#pragma once

#include <cstdint>
#include <string>

#include "core/fit_options.hpp"
#include "data/crowd_data.hpp"

namespace cs {

/// The bytes a method's fit needs beyond its input, counting only what it certainly
/// allocates (a lower bound, so that a refusal is never wrong), and how they arise
/// ("50 workers x 10000^2 confusion entries x 4 tables, 2 x 300 items x 10000
/// posteriors").
struct FitMemory {
    double bytes = 0.0;
    std::string detail;
};

/// The memory of a crowd fit of `options.method` on `data` (docs/scaling.md lists the
/// tables of each method).
FitMemory crowd_fit_memory(const CrowdData &data, const FitOptions &options);

/// Throws cs::Error(CS_ERR_OUT_OF_MEMORY) with "out of memory: <method> needs about
/// <bytes>: <detail>; ..." when the fit's memory exceeds what the process can allocate
/// (util/memory_budget.hpp). Nothing is allocated.
void check_crowd_fit_memory(const CrowdData &data, const FitOptions &options, const char *method_name);

}  // namespace cs
