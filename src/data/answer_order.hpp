// SPDX-License-Identifier: MIT
// The order shared by the answer kinds beside crowd labels (numbers, tags): answers
// grouped by item, each item's answers by increasing worker, whatever the order the
// caller gave them in, so that every sum over an item is formed in one order and no
// fit depends on how the answers were listed. Also a by-worker index of that order,
// for per-worker sums that threads split by worker and still add in a fixed order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/fit_options.hpp"

namespace cs {

struct AnswerOrder {
    int32_t n_items = 0;
    int32_t n_workers = 0;
    /// Item j's answers are positions item_start[j] .. item_start[j + 1] - 1.
    std::vector<int64_t> item_start;
    /// The input index of the answer at each position (duplicates resolved).
    std::vector<int64_t> source;
    /// The worker of the answer at each position.
    std::vector<int32_t> worker;
    /// Worker w's answers are positions by_worker[worker_start[w] .. worker_start[w + 1]),
    /// by increasing item.
    std::vector<int64_t> worker_start;
    std::vector<int64_t> by_worker;

    /// Number of answers kept.
    std::size_t size() const { return source.size(); }
    /// Answers of worker w.
    int64_t count(int32_t w) const { return worker_start[w + 1] - worker_start[w]; }

    /// Checks the ids (CS_ERR_INVALID_ID; counts from options.items / options.workers
    /// or the largest id + 1), orders the answers and applies options.duplicates to a
    /// worker who answered an item twice ('reject': CS_ERR_DUPLICATE naming both
    /// indices; 'first' / 'last': the first / last in input order is kept). `what`
    /// names an answer in messages ("answer"). Throws cs::Error. O(n + items + workers).
    static AnswerOrder build(const int32_t *item, const int32_t *worker, std::size_t n, const FitOptions &options,
                             const char *what);

    /// Items in [0, n_items) without answers.
    int32_t unanswered_items() const;
};

}  // namespace cs
