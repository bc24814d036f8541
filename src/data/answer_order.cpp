// SPDX-License-Identifier: MIT
#include "data/answer_order.hpp"

#include <string>

#include "data/crowd_data.hpp"
#include "util/error.hpp"

namespace cs {

namespace {

// Stable counting sort of `in` (input indices) by key[in[t]] in [0, buckets): the
// positions, and each bucket's start in `start` (buckets + 1 values).
std::vector<int64_t> sort_by(const std::vector<int64_t> &in, const int32_t *key, int32_t buckets,
                             std::vector<int64_t> &start) {
    start.assign(static_cast<std::size_t>(buckets) + 1, 0);
    for (int64_t t : in) ++start[static_cast<std::size_t>(key[t]) + 1];
    for (std::size_t b = 1; b < start.size(); ++b) start[b] += start[b - 1];
    std::vector<int64_t> next(start.begin(), start.end() - 1), out(in.size());
    for (int64_t t : in) out[static_cast<std::size_t>(next[static_cast<std::size_t>(key[t])]++)] = t;
    return out;
}

}  // namespace

AnswerOrder AnswerOrder::build(const int32_t *item, const int32_t *worker, std::size_t n, const FitOptions &options,
                               const char *what) {
    AnswerOrder o;
    o.n_items = check_id_range(item, n, options.items, "item", "n_items");
    o.n_workers = check_id_range(worker, n, options.workers, "worker", "n_workers");
    std::vector<int64_t> identity(n);
    for (std::size_t t = 0; t < n; ++t) identity[t] = static_cast<int64_t>(t);
    std::vector<int64_t> unused;
    // By worker, then (stably) by item: by item, each item's answers by worker, and a
    // worker's repeated answers on one item in input order.
    std::vector<int64_t> by_item = sort_by(sort_by(identity, worker, o.n_workers, unused), item, o.n_items, o.item_start);
    std::vector<int64_t>().swap(identity);
    // Duplicates: equal neighbours within an item.
    o.source.reserve(n);
    o.worker.reserve(n);
    std::vector<int64_t> kept_start(static_cast<std::size_t>(o.n_items) + 1, 0);
    for (int32_t j = 0; j < o.n_items; ++j) {
        kept_start[static_cast<std::size_t>(j)] = static_cast<int64_t>(o.source.size());
        for (int64_t p = o.item_start[j]; p < o.item_start[j + 1]; ++p) {
            const int64_t t = by_item[static_cast<std::size_t>(p)];
            const bool repeat = p > o.item_start[j] && worker[by_item[static_cast<std::size_t>(p - 1)]] == worker[t];
            if (!repeat) {
                o.source.push_back(t);
                o.worker.push_back(worker[t]);
                continue;
            }
            if (options.duplicates != CS_DUPLICATES_KEEP_FIRST && options.duplicates != CS_DUPLICATES_KEEP_LAST)
                throw Error(CS_ERR_DUPLICATE, "worker " + std::to_string(worker[t]) + " answered item " +
                                                  std::to_string(item[t]) + " twice (" + what + " indices " +
                                                  std::to_string(by_item[static_cast<std::size_t>(p - 1)]) + " and " +
                                                  std::to_string(t) +
                                                  "); set 'duplicates' to 'first' or 'last' to keep one");
            if (options.duplicates == CS_DUPLICATES_KEEP_LAST) o.source.back() = t;
        }
    }
    kept_start[static_cast<std::size_t>(o.n_items)] = static_cast<int64_t>(o.source.size());
    o.item_start = std::move(kept_start);
    // The by-worker index of the kept positions (stable: by increasing item).
    std::vector<int64_t> positions(o.source.size());
    for (std::size_t p = 0; p < positions.size(); ++p) positions[p] = static_cast<int64_t>(p);
    o.by_worker = sort_by(positions, o.worker.data(), o.n_workers, o.worker_start);
    return o;
}

int32_t AnswerOrder::unanswered_items() const {
    int32_t count = 0;
    for (int32_t j = 0; j < n_items; ++j) count += item_start[j + 1] == item_start[j];
    return count;
}

}  // namespace cs
