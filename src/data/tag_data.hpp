// SPDX-License-Identifier: MIT
// Tag answers after validation (cs_fit_tags): each answer's set of tags, in the
// by-item order of data/answer_order.hpp. A worker who answered an item and did not
// give tag g said "not g": every answer is a 0/1 for every tag, stored as the list of
// its 1s (sorted, each once).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/fit_options.hpp"
#include "data/answer_order.hpp"

namespace cs {

/// The largest number of tags cs_fit_tags accepts.
constexpr int32_t kMaxTags = 1000000;

struct TagData {
    AnswerOrder order;
    int32_t n_tags = 0;
    /// The tags of the answer at position p: tags[tag_start[p] .. tag_start[p + 1]).
    std::vector<int64_t> tag_start;
    std::vector<int32_t> tags;

    int32_t n_items() const { return order.n_items; }
    int32_t n_workers() const { return order.n_workers; }
    std::size_t n_answers() const { return order.size(); }

    /// Checks the answers (ids as cs_fit; tag_start from 0, non-decreasing; tags in
    /// [0, n_tags), n_tags = 0 meaning the largest + 1) and orders them. Throws cs::Error.
    static TagData build(const int32_t *item, const int32_t *worker, const int64_t *tag_start, const int32_t *tag,
                         std::size_t n, int32_t n_tags, const FitOptions &options);

    /// The binary crowd of tag g (binary relevance): item_start of the order, and per
    /// position the code worker * 2 + (1 if the answer ticked g), as CrowdData's codes.
    std::vector<uint32_t> tag_codes(int32_t g) const;
};

}  // namespace cs
