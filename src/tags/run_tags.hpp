// SPDX-License-Identifier: MIT
// Run a tags fit (cs_fit_tags): a tag model of this folder, or any crowd method on each
// tag (binary relevance), and what every tags result shares.
#pragma once

#include <functional>

#include "core/fit_options.hpp"
#include "core/fit_result.hpp"
#include "data/crowd_data.hpp"
#include "data/tag_data.hpp"
#include "util/progress.hpp"

namespace cs {

/// A crowd fit of one tag's binary crowd into `out` (labels, posteriors, confusion),
/// returning true when cancelled. The caller binds it to a crowd method of the registry
/// (src/api, with run_crowd_method): problems do not include each other, so this folder
/// sees crowd methods only through it.
using CrowdFit = std::function<bool(const CrowdData &data, const FitOptions &options, FitResult &out)>;

/// The entry point of a tag model: fills out.tag_probabilities (n_items x n_tags),
/// out.sensitivity and out.specificity (n_workers x n_tags), iterations, converged,
/// trace, notes. Returns true when the progress callback cancelled the fit.
using TagsMethod = bool (*)(const TagData &data, const FitOptions &options, const Progress &progress,
                            FitResult &out);

/// The method the `auto` id stands for with tags (docs/defaults.md: the measurement).
constexpr int32_t kDefaultTagsMethod = CS_METHOD_TAG_POOLED;

/// Binary relevance: the crowd fit `base` on each tag's binary crowd (label 1 =
/// ticked; every answer of an item is a label of every tag), the tags fitted in
/// parallel (each fit on one thread) when there are fewer threads than tags, else one
/// after another on every thread. A tag nobody ticked is not fitted: probability 0,
/// sensitivity 0.5 (unknown), specificity 1. cs_iterations() is the largest count over
/// the tags; the progress callback sees the number of tags done after each batch.
bool fit_binary_relevance(const TagData &data, const FitOptions &options, const Progress &progress,
                          const CrowdFit &base, FitResult &out);

/// Sets the sizes of a tags result, runs `method`, and adds the shared notes (items
/// without answers). Returns true when cancelled.
bool run_tags_method(const TagData &data, const FitOptions &options, const Progress &progress, TagsMethod method,
                     FitResult &out);

/// The same with a crowd method run on each tag (fit_binary_relevance).
bool run_tags_binary_relevance(const TagData &data, const FitOptions &options, const Progress &progress,
                               const CrowdFit &base, FitResult &out);

}  // namespace cs
