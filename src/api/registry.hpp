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
// point (a CrowdMethod, PointsMethod, GraphMethod, ComparisonMethod, NumbersMethod or TagsMethod), and add one
// row to registry.cpp.
#pragma once

#include <cstdint>
#include <vector>

#include "cluster/run_points.hpp"
#include "community/run_graph.hpp"
#include "crowd/run_crowd.hpp"
#include "ranking/run_comparisons.hpp"
#include "crowdspec/crowdspec.h"
#include "numeric/run_numbers.hpp"
#include "tags/run_tags.hpp"

namespace cs {

enum class InputKind {
    Crowd = CS_INPUT_CROWD,
    Points = CS_INPUT_POINTS,
    Graph = CS_INPUT_GRAPH,
    Comparisons = CS_INPUT_COMPARISONS,
    Tags = CS_INPUT_TAGS,
    Numbers = CS_INPUT_NUMBERS
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
    NumbersMethod numbers = nullptr;  // set when input == Numbers
    TagsMethod tags = nullptr;        // set when input == Tags
};

/// All methods, in cs_method_at() order.
const std::vector<MethodInfo> &method_table();
/// The row of a method id, or nullptr.
const MethodInfo *find_method(int32_t id);
/// The row of a method name, or nullptr.
const MethodInfo *find_method(const char *name);

}  // namespace cs
