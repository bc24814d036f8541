// SPDX-License-Identifier: MIT
// Dispatch a graph fit (cs_fit_graph) to its method: commu-lloyd, spec or spec-mle.
#pragma once

#include "core/fit_result.hpp"
#include "crowd/options.hpp"
#include "data/graph_data.hpp"
#include "util/progress.hpp"

namespace cs {

/// Fit options.method to the graph into `out`. Throws cs::Error on invalid options
/// (k). Returns true when the progress callback cancelled the fit (out then holds the
/// last completed iteration).
bool run_graph_method(const GraphData &graph, const FitOptions &options, const Progress &progress,
                      FitResult &out);

}  // namespace cs
