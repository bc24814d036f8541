// SPDX-License-Identifier: MIT
#include "data/tag_data.hpp"

#include <algorithm>
#include <string>

#include "util/error.hpp"

namespace cs {

TagData TagData::build(const int32_t *item, const int32_t *worker, const int64_t *tag_start, const int32_t *tag,
                       std::size_t n, int32_t n_tags, const FitOptions &options) {
    if (item == nullptr || worker == nullptr || tag_start == nullptr)
        throw Error(CS_ERR_NULL_POINTER,
                    std::string(item == nullptr ? "item" : worker == nullptr ? "worker" : "tag_start") +
                        " array is NULL");
    if (n == 0) throw Error(CS_ERR_EMPTY_INPUT, "no answers (n_answers = 0)");
    if (n_tags < 0 || n_tags > kMaxTags)
        throw Error(CS_ERR_INVALID_ARGUMENT,
                    "n_tags = " + std::to_string(n_tags) + " is outside [0, " + std::to_string(kMaxTags) + "]");
    if (tag_start[0] != 0)
        throw Error(CS_ERR_INVALID_ARGUMENT, "tag_start[0] = " + std::to_string(tag_start[0]) + ", not 0");
    for (std::size_t t = 0; t < n; ++t)
        if (tag_start[t + 1] < tag_start[t])
            throw Error(CS_ERR_INVALID_ARGUMENT, "tag_start decreases at answer index " + std::to_string(t) + " (" +
                                                     std::to_string(tag_start[t]) + " then " +
                                                     std::to_string(tag_start[t + 1]) + ")");
    const int64_t total = tag_start[n];
    if (total > 0 && tag == nullptr) throw Error(CS_ERR_NULL_POINTER, "tag array is NULL");
    int32_t largest = -1;
    for (std::size_t t = 0; t < n; ++t)
        for (int64_t e = tag_start[t]; e < tag_start[t + 1]; ++e) {
            if (tag[e] < 0 || (n_tags > 0 && tag[e] >= n_tags))
                throw Error(CS_ERR_INVALID_LABEL, "tag " + std::to_string(tag[e]) + " at answer index " +
                                                      std::to_string(t) + " is outside [0, " +
                                                      (n_tags > 0 ? std::to_string(n_tags) : std::string("inf")) + ")");
            largest = std::max(largest, tag[e]);
        }
    if (n_tags == 0) {
        if (largest < 0)
            throw Error(CS_ERR_EMPTY_INPUT, "no answer has a tag and n_tags = 0: give n_tags to fit empty sets");
        if (largest >= kMaxTags)
            throw Error(CS_ERR_INVALID_LABEL, "tag " + std::to_string(largest) + " is >= " + std::to_string(kMaxTags));
        n_tags = largest + 1;
    }
    TagData d;
    d.n_tags = n_tags;
    d.order = AnswerOrder::build(item, worker, n, options, "answer");
    d.tag_start.resize(d.order.size() + 1);
    d.tag_start[0] = 0;
    d.tags.reserve(static_cast<std::size_t>(total));
    for (std::size_t p = 0; p < d.order.size(); ++p) {
        const int64_t t = d.order.source[p];
        const auto first = d.tags.end() - d.tags.begin();
        d.tags.insert(d.tags.end(), tag + tag_start[t], tag + tag_start[t + 1]);
        std::sort(d.tags.begin() + first, d.tags.end());
        d.tags.erase(std::unique(d.tags.begin() + first, d.tags.end()), d.tags.end());
        d.tag_start[p + 1] = static_cast<int64_t>(d.tags.size());
    }
    return d;
}

std::vector<uint32_t> TagData::tag_codes(int32_t g) const {
    std::vector<uint32_t> codes(order.size());
    for (std::size_t p = 0; p < codes.size(); ++p) {
        const auto b = tags.begin() + tag_start[p], e = tags.begin() + tag_start[p + 1];
        const bool ticked = b != e && std::binary_search(b, e, g);
        codes[p] = static_cast<uint32_t>(order.worker[p]) * 2u + (ticked ? 1u : 0u);
    }
    return codes;
}

}  // namespace cs
