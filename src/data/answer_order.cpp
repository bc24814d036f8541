// SPDX-License-Identifier: MIT
#include "data/answer_order.hpp"

#include <algorithm>
#include <string>

#include "data/crowd_data.hpp"
#include "util/error.hpp"

namespace cs {

AnswerOrder AnswerOrder::build(const int32_t *item, const int32_t *worker, std::size_t n, const FitOptions &options,
                               const char *what) {
    AnswerOrder o;
    o.n_items = check_id_range(item, n, options.items, "item", "n_items");
    o.n_workers = check_id_range(worker, n, options.workers, "worker", "n_workers");
    // Already by item, each item's workers increasing (and so no duplicate)? Then the
    // order is the input's.
    bool ordered = true;
    for (std::size_t t = 1; t < n && ordered; ++t)
        ordered = item[t] > item[t - 1] || (item[t] == item[t - 1] && worker[t] > worker[t - 1]);
    std::vector<int64_t> by_item(n);
    std::vector<int64_t> start(static_cast<std::size_t>(o.n_items) + 1, 0);
    for (std::size_t t = 0; t < n; ++t) ++start[static_cast<std::size_t>(item[t]) + 1];
    for (std::size_t j = 1; j < start.size(); ++j) start[j] += start[j - 1];
    if (ordered) {
        for (std::size_t t = 0; t < n; ++t) by_item[t] = static_cast<int64_t>(t);
    } else {
        // A stable counting sort by item, then each item's answers by (worker, input
        // index): a worker's repeated answers stay in input order.
        std::vector<int64_t> next(start.begin(), start.end() - 1);
        for (std::size_t t = 0; t < n; ++t) by_item[static_cast<std::size_t>(next[static_cast<std::size_t>(item[t])]++)] = static_cast<int64_t>(t);
        for (int32_t j = 0; j < o.n_items; ++j) {
            auto b = by_item.begin() + start[j], e = by_item.begin() + start[j + 1];
            if (e - b > 1)
                std::sort(b, e, [&](int64_t x, int64_t y) { return worker[x] != worker[y] ? worker[x] < worker[y] : x < y; });
        }
    }
    o.item_start = std::move(start);
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
    o.worker_count.assign(static_cast<std::size_t>(o.n_workers), 0);
    for (int32_t w : o.worker) ++o.worker_count[static_cast<std::size_t>(w)];
    return o;
}

std::vector<int32_t> AnswerOrder::item_blocks(std::size_t table_size) const {
    const int64_t max_blocks =
        std::max<int64_t>(1, std::min<int64_t>(64, static_cast<int64_t>((std::size_t{1} << 24) / std::max<std::size_t>(1, table_size))));
    const int64_t answers = static_cast<int64_t>(size());
    const int64_t per_block = std::max<int64_t>(int64_t{1} << 16, (answers + max_blocks - 1) / max_blocks);
    std::vector<int32_t> blocks = {0};
    for (int32_t j = 0; j < n_items; ++j)
        if (item_start[j + 1] - item_start[blocks.back()] >= per_block) blocks.push_back(j + 1);
    if (blocks.back() != n_items) blocks.push_back(n_items);
    return blocks;
}

int32_t AnswerOrder::unanswered_items() const {
    int32_t count = 0;
    for (int32_t j = 0; j < n_items; ++j) count += item_start[j + 1] == item_start[j];
    return count;
}

}  // namespace cs
