// SPDX-License-Identifier: MIT
// The method registry: every method of the library, registered once in registry.cpp
// with its id (a cs_method of crowdspec.h), name, input kind, entry point and one line
// of documentation. The C API's method functions (cs_method_count, cs_method_at,
// cs_method_name, cs_method_from_name, cs_method_input, cs_method_summary), the
// "method" parameter's value names, the dispatch of cs_fit / cs_fit_points /
// cs_fit_graph, cs_fit_comparisons, and through them the command-line program's --help and
// `evaluate --method all` and the bindings' method lists all read this one table.
//
// Adding a method: append its id to enum cs_method in crowdspec.h, write its entry
// point (a CrowdMethod, PointsMethod, GraphMethod or ComparisonMethod), and add one row to registry.cpp.
#pragma once

#include <cstdint>
#include <vector>

#include "cluster/run_points.hpp"
#include "community/run_graph.hpp"
#include "crowd/run_crowd.hpp"
#include "ranking/run_comparisons.hpp"
#include "crowdspec/crowdspec.h"

namespace cs {

enum class InputKind {
    Crowd = CS_INPUT_CROWD,
    Points = CS_INPUT_POINTS,
    Graph = CS_INPUT_GRAPH,
    Comparisons = CS_INPUT_COMPARISONS
};

/// One registered method. Exactly one entry point is set: the one of its input kind.
struct MethodInfo {
    int32_t id;            // its cs_method value (pinned)
    const char *name;      // the short name (cs_method_name, --method)
    InputKind input;
    const char *summary;   // one line: what it does (cs_method_summary, --help)
    CrowdMethod crowd;     // set when input == Crowd
    PointsMethod points;   // set when input == Points
    GraphMethod graph;     // set when input == Graph
    ComparisonMethod comparisons = nullptr;  // set when input == Comparisons
};

/// All methods, in cs_method_at() order.
const std::vector<MethodInfo> &method_table();
/// The row of a method id, or nullptr.
const MethodInfo *find_method(int32_t id);
/// The row of a method name, or nullptr.
const MethodInfo *find_method(const char *name);

}  // namespace cs
