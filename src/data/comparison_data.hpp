// SPDX-License-Identifier: MIT
// Pairwise comparisons after validation, laid out for the ranking methods
// (src/ranking/): the distinct unordered pairs of items that were compared, each with
// its comparisons contiguous (the fits' passes run along them, ranking/pair_chunks.hpp),
// and the connected components of the items. Every pass of a fit is O(comparisons) or
// O(pairs + items) over these arrays.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cs {

/// The outcome of one kept comparison, as seen from its pair's lower item id `lo`.
enum : uint8_t {
    kLowWon = 0,      ///< lo won
    kHighWon = 1,     ///< hi won
    kTie = 2,         ///< tie
    kOutcomeMask = 3,
    kLowOnLeft = 4    ///< bit: lo was the left item (for noisy-bt's position bias)
};

struct ComparisonData {
    int32_t n_items = 0;
    int32_t n_workers = 0;
    int64_t n_comparisons = 0;     // kept: every comparison of two distinct items
    int64_t self_comparisons = 0;  // left == right, ignored
    int64_t ties = 0;              // kept comparisons answered "tie"
    int32_t isolated_items = 0;    // items in no kept comparison

    // Distinct pairs lo < hi, in increasing (lo, hi) order, and their counts: whole
    // numbers below 2^32 (n is), 4 bytes each, so that bt's passes, which need a pair's
    // total alone, read 12 bytes a pair (lo, hi, count) instead of 32.
    std::vector<int32_t> pair_lo, pair_hi;
    std::vector<uint32_t> pair_count;           // the pair's kept comparisons, every outcome
    std::vector<uint32_t> low_wins, pair_ties;  // of them: won by lo, and ties
    uint32_t high_wins(std::size_t p) const { return pair_count[p] - low_wins[p] - pair_ties[p]; }
    // pairs + 1 offsets into the comparison arrays; empty without per_comparison.
    std::vector<int64_t> pair_start;
    // Per item, of its kept comparisons: how many, how many it won, how many were ties
    // (counted while the layout is made, so that the MM update's numerators and the
    // score scales need no pass over the pairs).
    std::vector<uint32_t> item_comparisons, item_won, item_tied;

    // The kept comparisons grouped by pair (input order within a pair); empty when built
    // without per_comparison (bt reads only the pairs' counts).
    std::vector<int32_t> worker;    // worker of each comparison
    std::vector<uint8_t> outcome;   // kLowWon / kHighWon / kTie, | kLowOnLeft

    // Connected components of the comparison graph (ignoring who won): the component of
    // each item, numbered from 0 in order of their smallest item.
    std::vector<int32_t> component;
    int32_t n_components = 0;

    int64_t n_pairs() const { return static_cast<int64_t>(pair_lo.size()); }

    /// Validates (worker, left, right, answer) arrays of n comparisons and builds the
    /// layout. `items` / `workers` are the declared counts (0 = 1 + the largest id);
    /// worker may be null (one worker, id 0). Throws cs::Error: CS_ERR_NULL_POINTER,
    /// CS_ERR_EMPTY_INPUT (n = 0), CS_ERR_INVALID_ID, CS_ERR_INVALID_ANSWER,
    /// CS_ERR_TOO_LARGE (n >= 2^32), naming the index. per_comparison false: worker,
    /// outcome and pair_start stay empty (the ids are still checked), and the sort moves
    /// 8 bytes a comparison instead of 16.
    static ComparisonData build(const int32_t *worker, const int32_t *left, const int32_t *right,
                                const int32_t *answer, std::size_t n, int32_t items, int32_t workers,
                                bool per_comparison = true);
};

}  // namespace cs
