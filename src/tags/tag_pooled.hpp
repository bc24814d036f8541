// SPDX-License-Identifier: MIT
// "tag-pooled": binary Dawid-Skene per tag, each worker's per-tag sensitivity and
// specificity drawn around the worker's own average over the tags.
#pragma once

#include "tags/run_tags.hpp"

namespace cs {

/// EM from the per-tag vote shares (docs/algorithms.md, "Tags").
bool fit_tag_pooled(const TagData &data, const FitOptions &options, const Progress &progress, FitResult &out);

}  // namespace cs
