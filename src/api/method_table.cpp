// SPDX-License-Identifier: MIT
#include "api/method_table.hpp"

#include <cstring>

#include "crowdspec/crowdspec.h"

namespace cs {

const std::vector<MethodInfo> &method_table() {
    static const std::vector<MethodInfo> table = {
        {CS_METHOD_MV, "mv", InputKind::Crowd},
        {CS_METHOD_DS, "ds", InputKind::Crowd},
        {CS_METHOD_OPT_DS, "opt-ds", InputKind::Crowd},
        {CS_METHOD_CROWD_LLOYD, "crowd-lloyd", InputKind::Crowd},
        {CS_METHOD_KOS, "kos", InputKind::Crowd},
        {CS_METHOD_KOS_MP, "kos-mp", InputKind::Crowd},
        {CS_METHOD_GHOSH_SVD, "ghosh-svd", InputKind::Crowd},
        {CS_METHOD_EIGEN_RATIO, "eigen-ratio", InputKind::Crowd},
        {CS_METHOD_ONE_COIN_DS, "one-coin-ds", InputKind::Crowd},
        {CS_METHOD_CLASS_ONE_COIN_DS, "class-one-coin-ds", InputKind::Crowd},
        {CS_METHOD_LLOYD, "lloyd", InputKind::Points},
        {CS_METHOD_KMEANS_PP, "kmeans++", InputKind::Points},
        {CS_METHOD_COMMU_LLOYD, "commu-lloyd", InputKind::Graph},
        {CS_METHOD_SPEC, "spec", InputKind::Graph},
        {CS_METHOD_SPEC_MLE, "spec-mle", InputKind::Graph},
    };
    return table;
}

const MethodInfo *find_method(int32_t id) {
    for (const MethodInfo &m : method_table())
        if (m.id == id) return &m;
    return nullptr;
}

const MethodInfo *find_method(const char *name) {
    for (const MethodInfo &m : method_table())
        if (std::strcmp(m.name, name) == 0) return &m;
    return nullptr;
}

}  // namespace cs
