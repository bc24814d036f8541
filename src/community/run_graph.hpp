// SPDX-License-Identifier: MIT
// Run a graph fit (cs_fit_graph): the trimmed spectral initialisation every graph
// method starts from, then the method's entry point (from the registry,
// src/api/registry.cpp): commu-lloyd, spec or spec-mle, then the shared parts of the result.
#pragma once

#include <cstdint>
#include <vector>

#include "core/fit_options.hpp"
#include "core/fit_result.hpp"
#include "data/graph_data.hpp"
#include "util/progress.hpp"

namespace cs {

/// The entry point of a graph method: refine the spectral `labels` (k communities; nodes
/// without edges are in community 0) in place, filling out.trace, out.iterations,
/// out.converged and the method's notes. Returns true when the progress callback
/// cancelled the fit.
using GraphMethod = bool (*)(const GraphData &graph, int32_t k, std::vector<int32_t> &labels,
                             const FitOptions &options, const Progress &progress, int threads, FitResult &out);

/// "commu-lloyd": CommuLloyd iterations on the untrimmed graph.
bool fit_commu_lloyd(const GraphData &graph, int32_t k, std::vector<int32_t> &labels, const FitOptions &options,
                     const Progress &progress, int threads, FitResult &out);
/// "spec": the spectral labels as they are.
bool fit_spec(const GraphData &graph, int32_t k, std::vector<int32_t> &labels, const FitOptions &options,
              const Progress &progress, int threads, FitResult &out);
/// "spec-mle": one likelihood step from the spectral labels (none when max_iter = 0).
bool fit_spec_mle(const GraphData &graph, int32_t k, std::vector<int32_t> &labels, const FitOptions &options,
                  const Progress &progress, int threads, FitResult &out);

/// Fit `method` to the graph into `out`. Throws cs::Error on invalid options (k).
/// Returns true when the progress callback cancelled the fit (out then holds the last
/// completed iteration).
bool run_graph_method(const GraphData &graph, const FitOptions &options, const Progress &progress,
                      GraphMethod method, FitResult &out);

}  // namespace cs
