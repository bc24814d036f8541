// SPDX-License-Identifier: MIT
// The methods the library offers: id, name and the kind of input each accepts.
#pragma once

#include <cstdint>
#include <vector>

#include "crowdspec/crowdspec.h"

namespace cs {

enum class InputKind { Crowd = CS_INPUT_CROWD, Points = CS_INPUT_POINTS, Graph = CS_INPUT_GRAPH };

struct MethodInfo {
    int32_t id;
    const char *name;
    InputKind input;
};

/// All methods, in cs_method_at() order.
const std::vector<MethodInfo> &method_table();
/// The row of a method id, or nullptr.
const MethodInfo *find_method(int32_t id);
/// The row of a method name, or nullptr.
const MethodInfo *find_method(const char *name);

}  // namespace cs
