// SPDX-License-Identifier: MIT
#include "data/comparison_data.hpp"

#include <algorithm>
#include <string>

#include "util/error.hpp"

namespace cs {

namespace {

void require(const void *p, const char *what) {
    if (p == nullptr) throw Error(CS_ERR_NULL_POINTER, std::string(what) + " is NULL");
}

// The largest id of `ids` (n entries), checking each against a declared count (0 = none).
int32_t count_ids(const int32_t *ids, std::size_t n, int32_t declared, const char *what) {
    int32_t largest = -1;
    for (std::size_t t = 0; t < n; ++t) {
        const int32_t id = ids[t];
        if (id < 0 || (declared > 0 && id >= declared))
            throw Error(CS_ERR_INVALID_ID, std::string(what) + " id " + std::to_string(id) + " at comparison " +
                                               std::to_string(t) +
                                               (id < 0 ? " is negative"
                                                       : " is >= the declared count (" + std::to_string(declared) + ")"));
        largest = std::max(largest, id);
    }
    return declared > 0 ? declared : largest + 1;
}

// A stable counting sort of `order` by key(index) in [0, buckets): the output keeps the
// input order among equal keys.
template <class Key>
std::vector<uint32_t> stable_by(const std::vector<uint32_t> &order, std::size_t buckets, Key key) {
    std::vector<int64_t> next(buckets + 1, 0);
    for (uint32_t t : order) ++next[static_cast<std::size_t>(key(t)) + 1];
    for (std::size_t b = 0; b < buckets; ++b) next[b + 1] += next[b];
    std::vector<uint32_t> out(order.size());
    for (uint32_t t : order) out[static_cast<std::size_t>(next[static_cast<std::size_t>(key(t))]++)] = t;
    return out;
}

}  // namespace

ComparisonData ComparisonData::build(const int32_t *worker, const int32_t *left, const int32_t *right,
                                     const int32_t *answer, std::size_t n, int32_t items, int32_t workers,
                                     bool by_worker) {
    if (n > 0) {
        require(left, "left item array");
        require(right, "right item array");
        require(answer, "answer array");
    }
    if (n == 0) throw Error(CS_ERR_EMPTY_INPUT, "no comparisons (n = 0)");
    if (n >= (std::size_t{1} << 32))
        throw Error(CS_ERR_TOO_LARGE, std::to_string(n) + " comparisons: at most 2^32 - 1 are supported");
    for (std::size_t t = 0; t < n; ++t)
        if (answer[t] < CS_ANSWER_LEFT || answer[t] > CS_ANSWER_TIE)
            throw Error(CS_ERR_INVALID_ANSWER, "answer " + std::to_string(answer[t]) + " at comparison " +
                                                   std::to_string(t) + " is not CS_ANSWER_LEFT (0), RIGHT (1) or TIE (2)");

    ComparisonData d;
    d.n_items = std::max(count_ids(left, n, items, "left item"), count_ids(right, n, items, "right item"));
    d.n_workers = worker != nullptr ? count_ids(worker, n, workers, "worker") : std::max<int32_t>(workers, 1);

    // The comparisons of two distinct items, sorted by (lo, hi) with two stable counting
    // sorts (by hi, then by lo): O(n + items), input order kept within a pair.
    std::vector<uint32_t> order;
    order.reserve(n);
    for (std::size_t t = 0; t < n; ++t) {
        if (left[t] == right[t])
            ++d.self_comparisons;
        else
            order.push_back(static_cast<uint32_t>(t));
    }
    const auto lo_of = [&](uint32_t t) { return std::min(left[t], right[t]); };
    const auto hi_of = [&](uint32_t t) { return std::max(left[t], right[t]); };
    const std::size_t n_items = static_cast<std::size_t>(d.n_items);
    order = stable_by(order, n_items, hi_of);
    order = stable_by(order, n_items, lo_of);

    d.n_comparisons = static_cast<int64_t>(order.size());
    d.worker.resize(order.size());
    d.outcome.resize(order.size());
    d.pair_start.push_back(0);
    for (std::size_t c = 0; c < order.size(); ++c) {
        const uint32_t t = order[c];
        const int32_t lo = lo_of(t), hi = hi_of(t);
        if (d.pair_lo.empty() || d.pair_lo.back() != lo || d.pair_hi.back() != hi) {
            if (!d.pair_lo.empty()) d.pair_start.push_back(static_cast<int64_t>(c));
            d.pair_lo.push_back(lo);
            d.pair_hi.push_back(hi);
            d.low_wins.push_back(0.0);
            d.high_wins.push_back(0.0);
            d.pair_ties.push_back(0.0);
        }
        const bool low_left = left[t] == lo;
        uint8_t outcome = kTie;
        if (answer[t] == CS_ANSWER_TIE) {
            d.pair_ties.back() += 1.0;
            ++d.ties;
        } else {
            const bool left_won = answer[t] == CS_ANSWER_LEFT;
            outcome = left_won == low_left ? kLowWon : kHighWon;
            (outcome == kLowWon ? d.low_wins : d.high_wins).back() += 1.0;
        }
        d.outcome[c] = static_cast<uint8_t>(outcome | (low_left ? kLowOnLeft : 0));
        d.worker[c] = worker != nullptr ? worker[t] : 0;
    }
    if (!d.pair_lo.empty()) d.pair_start.push_back(d.n_comparisons);

    // Per item, its pairs (in pair order, so a sweep's sums are in a fixed order).
    const int64_t pairs = d.n_pairs();
    d.row_start.assign(n_items + 1, 0);
    for (int64_t p = 0; p < pairs; ++p) {
        ++d.row_start[static_cast<std::size_t>(d.pair_lo[p]) + 1];
        ++d.row_start[static_cast<std::size_t>(d.pair_hi[p]) + 1];
    }
    for (std::size_t i = 0; i < n_items; ++i) {
        if (d.row_start[i + 1] == 0) ++d.isolated_items;
        d.row_start[i + 1] += d.row_start[i];
    }
    d.row_pair.resize(static_cast<std::size_t>(2 * pairs));
    d.row_other.resize(static_cast<std::size_t>(2 * pairs));
    {
        std::vector<int64_t> next(d.row_start.begin(), d.row_start.end() - 1);
        for (int64_t p = 0; p < pairs; ++p) {
            const int32_t lo = d.pair_lo[static_cast<std::size_t>(p)], hi = d.pair_hi[static_cast<std::size_t>(p)];
            const std::size_t a = static_cast<std::size_t>(next[static_cast<std::size_t>(lo)]++);
            const std::size_t b = static_cast<std::size_t>(next[static_cast<std::size_t>(hi)]++);
            d.row_pair[a] = d.row_pair[b] = static_cast<uint32_t>(p);
            d.row_other[a] = hi;
            d.row_other[b] = lo;
        }
    }

    // Components, by a depth-first search over the rows.
    d.component.assign(n_items, -1);
    std::vector<int32_t> stack;
    for (std::size_t root = 0; root < n_items; ++root) {
        if (d.component[root] >= 0) continue;
        const int32_t id = d.n_components++;
        d.component[root] = id;
        stack.push_back(static_cast<int32_t>(root));
        while (!stack.empty()) {
            const std::size_t i = static_cast<std::size_t>(stack.back());
            stack.pop_back();
            for (int64_t e = d.row_start[i]; e < d.row_start[i + 1]; ++e) {
                const std::size_t j = static_cast<std::size_t>(d.row_other[static_cast<std::size_t>(e)]);
                if (d.component[j] < 0) {
                    d.component[j] = id;
                    stack.push_back(static_cast<int32_t>(j));
                }
            }
        }
    }

    if (by_worker) {
        const std::size_t n_workers = static_cast<std::size_t>(d.n_workers);
        d.worker_start.assign(n_workers + 1, 0);
        for (int32_t w : d.worker) ++d.worker_start[static_cast<std::size_t>(w) + 1];
        for (std::size_t w = 0; w < n_workers; ++w) d.worker_start[w + 1] += d.worker_start[w];
        d.worker_comparison.resize(d.worker.size());
        std::vector<int64_t> next(d.worker_start.begin(), d.worker_start.end() - 1);
        for (std::size_t c = 0; c < d.worker.size(); ++c)
            d.worker_comparison[static_cast<std::size_t>(next[static_cast<std::size_t>(d.worker[c])]++)] =
                static_cast<uint32_t>(c);
    }
    return d;
}

}  // namespace cs
