// SPDX-License-Identifier: MIT
// The order shared by the answer kinds beside crowd labels (numbers, tags): answers
// grouped by item, each item's answers by increasing worker, whatever the order the
// caller gave them in, so that every sum over an item is formed in one order and no
// fit depends on how the answers were listed. Per-worker sums are gathered in this
// order, block by block (scatter_by_blocks below), so no by-worker copy is kept.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/fit_options.hpp"
#include "util/parallel.hpp"

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
    /// The number of answers of each worker.
    std::vector<int64_t> worker_count;

    /// Number of answers kept.
    std::size_t size() const { return source.size(); }
    /// Answers of worker w.
    int64_t count(int32_t w) const { return worker_count[static_cast<std::size_t>(w)]; }

    /// Checks the ids (CS_ERR_INVALID_ID; counts from options.items / options.workers
    /// or the largest id + 1), orders the answers and applies options.duplicates to a
    /// worker who answered an item twice ('reject': CS_ERR_DUPLICATE naming both
    /// indices; 'first' / 'last': the first / last in input order is kept). `what`
    /// names an answer in messages ("answer"). Throws cs::Error. O(n + items + workers)
    /// plus sorting each item's answers by worker; one check and no sort when the input
    /// is in this order already.
    static AnswerOrder build(const int32_t *item, const int32_t *worker, std::size_t n, const FitOptions &options,
                             const char *what);

    /// Items in [0, n_items) without answers.
    int32_t unanswered_items() const;

    /// A partition of the items into consecutive blocks for per-worker sums formed in
    /// parallel: block b is items [blocks[b], blocks[b + 1]). Each block holds about
    /// max(2^16, answers / max_blocks) answers, where max_blocks = clamp(2^24 /
    /// table_size, 1, 64) keeps the blocks' tables of `table_size` doubles within 128 MB.
    /// The boundaries depend on the data and table_size alone, never on the thread
    /// count, so tables summed in block order give the same result on any number of
    /// threads (see scatter_by_blocks).
    std::vector<int32_t> item_blocks(std::size_t table_size) const;
};

/// Per-block tables of `table_size` doubles, filled by f(j, p, table) for every answer
/// position p of every item j of the block (in order), then summed in block order into
/// `out` (resized to table_size). `scratch` keeps the blocks' tables between calls.
/// Blocks run on the threads of `team` (util/parallel.hpp: its helpers sleep between
/// passes instead of spinning, as OpenMP's do); f must only write its table.
template <class F>
void scatter_by_blocks(const AnswerOrder &o, const std::vector<int32_t> &blocks, std::size_t table_size, Team &team,
                       std::vector<double> &scratch, std::vector<double> &out, F f) {
    const int64_t n_blocks = static_cast<int64_t>(blocks.size()) - 1;
    scratch.assign(static_cast<std::size_t>(n_blocks) * table_size, 0.0);
    team.run(n_blocks, [&](int64_t b) {
        double *table = scratch.data() + static_cast<std::size_t>(b) * table_size;
        for (int32_t j = blocks[b]; j < blocks[b + 1]; ++j)
            for (int64_t p = o.item_start[j]; p < o.item_start[j + 1]; ++p) f(j, p, table);
    });
    out.assign(table_size, 0.0);
    for (int64_t b = 0; b < n_blocks; ++b) {
        const double *table = scratch.data() + static_cast<std::size_t>(b) * table_size;
        for (std::size_t e = 0; e < table_size; ++e) out[e] += table[e];
    }
}

/// f(j) for every item j, the blocks spread over `team` (each item once; f must only
/// write what belongs to item j).
template <class F>
void for_items_by_blocks(const std::vector<int32_t> &blocks, Team &team, F f) {
    team.run(static_cast<int64_t>(blocks.size()) - 1, [&](int64_t b) {
        for (int32_t j = blocks[b]; j < blocks[b + 1]; ++j) f(j);
    });
}

}  // namespace cs
