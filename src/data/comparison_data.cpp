// SPDX-License-Identifier: MIT
#include "data/comparison_data.hpp"

#include <algorithm>
#include <climits>
#include <string>
#include <type_traits>

#include "util/default_init.hpp"
#include "util/error.hpp"

namespace cs {

namespace {

void require(const void *p, const char *what) {
    if (p == nullptr) throw Error(CS_ERR_NULL_POINTER, std::string(what) + " is NULL");
}

[[noreturn]] void invalid_id(const char *what, int32_t id, std::size_t t, int32_t declared) {
    throw Error(CS_ERR_INVALID_ID, std::string(what) + " id " + std::to_string(id) + " at comparison " +
                                       std::to_string(t) +
                                       (id < 0 ? " is negative"
                                               : " is >= the declared count (" + std::to_string(declared) + ")"));
}

// The count of `ids`: the declared one, or 1 + the largest id (0 = none declared).
int32_t id_count(int32_t largest, int32_t declared) { return declared > 0 ? declared : largest + 1; }

// A kept comparison for the sort: lo, hi, the worker and the outcome seen from lo
// (with kLowOnLeft), for the methods that read each comparison (noisy-bt, crowd-bt).
struct FullRecord {
    int32_t lo_, hi_, worker_;
    uint8_t outcome_;
    static FullRecord make(int32_t lo, int32_t hi, int32_t worker, uint8_t outcome) { return {lo, hi, worker, outcome}; }
    int32_t lo() const { return lo_; }
    int32_t hi() const { return hi_; }
    uint8_t outcome() const { return outcome_; }
    void store(ComparisonData &d, std::size_t c) const {
        d.outcome[c] = outcome_;
        d.worker[c] = worker_;
    }
};

// The same for bt, which reads only each pair's counts: lo (31 bits), hi (31 bits) and
// the outcome without kLowOnLeft (2 bits) in 8 bytes, so the sorts move half as much
// memory, and no per-comparison arrays are kept.
struct PackedRecord {
    uint64_t key;
    static PackedRecord make(int32_t lo, int32_t hi, int32_t, uint8_t outcome) {
        return {(static_cast<uint64_t>(lo) << 33) | (static_cast<uint64_t>(hi) << 2) | (outcome & kOutcomeMask)};
    }
    int32_t lo() const { return static_cast<int32_t>(key >> 33); }
    int32_t hi() const { return static_cast<int32_t>((key >> 2) & 0x7fffffffu); }
    uint8_t outcome() const { return static_cast<uint8_t>(key & kOutcomeMask); }
    void store(ComparisonData &, std::size_t) const {}
};

// The comparisons of two distinct items as records, sorted by (lo, hi) with two stable
// counting sorts (by hi, then by lo): O(n + items), input order kept within a pair. A
// first pass counts both sorts' buckets; the records are then made straight into their
// places by hi (no array of them in input order to write and read again), and placed by
// lo into a second array. Every pass reads its input in order (sorting indices instead
// would read the input arrays at random, a cache miss per field). Then the pairs with
// their counts, and (FullRecord) each comparison's worker and outcome.
template <class Record>
void group_by_pair(const int32_t *worker, const int32_t *left, const int32_t *right, const int32_t *answer,
                   std::size_t n, ComparisonData &d) {
    constexpr bool kPerComparison = std::is_same<Record, FullRecord>::value;
    using Records = std::vector<Record, DefaultInitAllocator<Record>>;  // placed, never zero-filled
    const std::size_t n_items = static_cast<std::size_t>(d.n_items);
    // Bucket starts of both sorts (by_hi[i + 1] and by_lo[i + 1] count item i first).
    std::vector<int64_t> by_hi(n_items + 1, 0), by_lo(n_items + 1, 0);
    for (std::size_t t = 0; t < n; ++t) {
        const int32_t l = left[t], r = right[t];
        if (l == r) {
            ++d.self_comparisons;
            continue;
        }
        ++by_hi[static_cast<std::size_t>(std::max(l, r)) + 1];
        ++by_lo[static_cast<std::size_t>(std::min(l, r)) + 1];
    }
    d.item_comparisons.resize(n_items);
    d.item_won.assign(n_items, 0);
    d.item_tied.assign(n_items, 0);
    for (std::size_t b = 0; b < n_items; ++b) {
        d.item_comparisons[b] = static_cast<uint32_t>(by_hi[b + 1] + by_lo[b + 1]);
        by_hi[b + 1] += by_hi[b];
        by_lo[b + 1] += by_lo[b];
    }
    const std::size_t kept = n - static_cast<std::size_t>(d.self_comparisons);
    Records records;
    {
        Records by_high(kept);
        for (std::size_t t = 0; t < n; ++t) {
            if (left[t] == right[t]) continue;
            const int32_t lo = std::min(left[t], right[t]), hi = std::max(left[t], right[t]);
            const bool low_left = left[t] == lo;
            uint8_t outcome = kTie;
            if (answer[t] != CS_ANSWER_TIE) {
                outcome = (answer[t] == CS_ANSWER_LEFT) == low_left ? kLowWon : kHighWon;
                ++d.item_won[static_cast<std::size_t>(outcome == kLowWon ? lo : hi)];
            } else {
                ++d.item_tied[static_cast<std::size_t>(lo)];
                ++d.item_tied[static_cast<std::size_t>(hi)];
            }
            by_high[static_cast<std::size_t>(by_hi[static_cast<std::size_t>(hi)]++)] =
                Record::make(lo, hi, worker != nullptr ? worker[t] : 0,
                             static_cast<uint8_t>(outcome | (low_left ? kLowOnLeft : 0)));
        }
        records.resize(kept);
        for (const Record &r : by_high) records[static_cast<std::size_t>(by_lo[static_cast<std::size_t>(r.lo())]++)] = r;
    }

    d.n_comparisons = static_cast<int64_t>(records.size());
    if (kPerComparison) {
        d.worker.resize(records.size());
        d.outcome.resize(records.size());
    }
    // The pairs counted first, so that their arrays are allocated once (growing them
    // copied each about twice over: 0.01 CPU s at 10^6 pairs).
    std::size_t distinct_pairs = 0;
    for (std::size_t c = 0; c < records.size(); ++c)
        distinct_pairs += c == 0 || records[c].lo() != records[c - 1].lo() || records[c].hi() != records[c - 1].hi();
    // Written through indices into arrays sized once: push_back's checks and the
    // vectors' ends reloaded after every store cost more than the stores.
    d.pair_lo.resize(distinct_pairs);
    d.pair_hi.resize(distinct_pairs);
    d.pair_count.resize(distinct_pairs);
    d.low_wins.resize(distinct_pairs);
    d.pair_ties.resize(distinct_pairs);
    if (kPerComparison) d.pair_start.resize(distinct_pairs + 1);
    int32_t *pair_lo = d.pair_lo.data(), *pair_hi = d.pair_hi.data();
    uint32_t *pair_count = d.pair_count.data(), *low_wins = d.low_wins.data(), *pair_ties = d.pair_ties.data();
    std::size_t next = 0;  // the pair after the current one
    int64_t ties = 0;
    for (std::size_t c = 0; c < records.size(); ++c) {
        const Record &r = records[c];
        if (next == 0 || pair_lo[next - 1] != r.lo() || pair_hi[next - 1] != r.hi()) {
            if (kPerComparison) d.pair_start[next] = static_cast<int64_t>(c);
            pair_lo[next] = r.lo();
            pair_hi[next] = r.hi();
            ++next;
        }
        // Without branches: the outcomes come at random (a mispredicted branch each
        // second comparison cost 0.002 s at 10^6).
        const uint8_t outcome = r.outcome() & kOutcomeMask;
        ++pair_count[next - 1];
        low_wins[next - 1] += outcome == kLowWon;
        pair_ties[next - 1] += outcome == kTie;
        ties += outcome == kTie;
        r.store(d, c);
    }
    d.ties = ties;
    if (kPerComparison) d.pair_start[distinct_pairs] = d.n_comparisons;
    Records().swap(records);
}

}  // namespace

ComparisonData ComparisonData::build(const int32_t *worker, const int32_t *left, const int32_t *right,
                                     const int32_t *answer, std::size_t n, int32_t items, int32_t workers,
                                     bool per_comparison) {
    if (n > 0) {
        require(left, "left item array");
        require(right, "right item array");
        require(answer, "answer array");
    }
    if (n == 0) throw Error(CS_ERR_EMPTY_INPUT, "no comparisons (n = 0)");
    if (n >= (std::size_t{1} << 32))
        throw Error(CS_ERR_TOO_LARGE, std::to_string(n) + " comparisons: at most 2^32 - 1 are supported");
    // Every answer and id checked, and the largest ids found, in one pass over the four
    // arrays (a pass each cost a tenth of the layout at 10^6 comparisons); the first
    // bad entry is reported, answers before ids at the same index.
    int32_t largest_item = -1, largest_worker = -1;
    const int32_t item_limit = items > 0 ? items : INT32_MAX, worker_limit = workers > 0 ? workers : INT32_MAX;
    for (std::size_t t = 0; t < n; ++t) {
        const int32_t a = answer[t], l = left[t], r = right[t], w = worker != nullptr ? worker[t] : 0;
        const bool bad = a < CS_ANSWER_LEFT || a > CS_ANSWER_TIE || l < 0 || l >= item_limit || r < 0 ||
                         r >= item_limit || w < 0 || w >= worker_limit;
        if (bad) {
            if (a < CS_ANSWER_LEFT || a > CS_ANSWER_TIE)
                throw Error(CS_ERR_INVALID_ANSWER, "answer " + std::to_string(a) + " at comparison " +
                                                       std::to_string(t) + " is not CS_ANSWER_LEFT (0), RIGHT (1) or TIE (2)");
            if (l < 0 || l >= item_limit) invalid_id("left item", l, t, items);
            if (r < 0 || r >= item_limit) invalid_id("right item", r, t, items);
            invalid_id("worker", w, t, workers);
        }
        largest_item = std::max(largest_item, std::max(l, r));
        largest_worker = std::max(largest_worker, w);
    }

    ComparisonData d;
    d.n_items = id_count(largest_item, items);
    d.n_workers = worker != nullptr ? id_count(largest_worker, workers) : std::max<int32_t>(workers, 1);

    const std::size_t n_items = static_cast<std::size_t>(d.n_items);
    if (per_comparison)
        group_by_pair<FullRecord>(worker, left, right, answer, n, d);
    else
        group_by_pair<PackedRecord>(worker, left, right, answer, n, d);

    // Components by union-find over the pairs, each set's root its smallest item, so
    // that they are numbered in order of their smallest item; items in no comparison are
    // isolated. (A search along per-item rows needed the rows built first: 2 x 8 bytes a
    // pair written at random, a third of this function's time at 10^6 pairs.) The pairs
    // come by lower item: its root is found once per item and followed through the
    // unions, each of which involves its set.
    const int64_t pairs = d.n_pairs();
    std::vector<int32_t> root(n_items);
    for (std::size_t i = 0; i < n_items; ++i) root[i] = static_cast<int32_t>(i);
    const auto find = [&](int32_t i) {
        while (root[static_cast<std::size_t>(i)] != i) {
            root[static_cast<std::size_t>(i)] = root[static_cast<std::size_t>(root[static_cast<std::size_t>(i)])];  // halving
            i = root[static_cast<std::size_t>(i)];
        }
        return i;
    };
    int32_t low = -1, low_root = -1;  // the current lower item and its set's root
    for (int64_t p = 0; p < pairs; ++p) {
        const int32_t lo = d.pair_lo[static_cast<std::size_t>(p)], hi = d.pair_hi[static_cast<std::size_t>(p)];
        if (lo != low) {
            low = lo;
            low_root = find(lo);
        }
        const int32_t b = find(hi);
        if (b != low_root) {
            root[static_cast<std::size_t>(std::max(low_root, b))] = std::min(low_root, b);
            low_root = std::min(low_root, b);
        }
    }
    d.component.assign(n_items, -1);
    for (std::size_t i = 0; i < n_items; ++i) {
        if (d.item_comparisons[i] == 0) ++d.isolated_items;
        const std::size_t r = static_cast<std::size_t>(find(static_cast<int32_t>(i)));
        d.component[i] = r == i ? d.n_components++ : d.component[r];  // r <= i: numbered already
    }

    return d;
}

}  // namespace cs
