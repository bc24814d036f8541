// SPDX-License-Identifier: MIT
#include "data/crowd_shard.hpp"

#include <algorithm>
#include <bitset>
#include <string>

#include "util/error.hpp"

namespace cs {

namespace {

// The largest value of an array, or -1 for an empty one.
int64_t largest(const int32_t *v, std::size_t n) {
    int32_t hi = -1;
    for (std::size_t t = 0; t < n; ++t) hi = std::max(hi, v[t]);
    return hi;
}

int popcount(uint64_t w) { return static_cast<int>(std::bitset<64>(w).count()); }

// The checks CrowdData::build makes of k and n_workers, made here by every process on
// the same global values (also by processes without labels), so that all stop together
// with the same message.
void check_sizes(int64_t k, int64_t m) {
    if (m > INT32_MAX)
        throw Error(CS_ERR_INVALID_ID, "worker id " + std::to_string(m - 1) + " is too large" + id_limit_text());
    if (k > INT32_MAX || k * k > 100000000)
        throw Error(CS_ERR_INVALID_ARGUMENT, "k = " + std::to_string(k) + " is too large; at most " +
                                                 std::to_string(CS_MAX_CROWD_CLASSES) + " classes (CS_MAX_CROWD_CLASSES)");
    if (k < 2)
        throw Error(CS_ERR_TOO_FEW_CLASSES,
                    "every label is 0, so k is inferred as 1; at least 2 classes are needed "
                    "(set the 'classes' parameter)");
    if (static_cast<uint64_t>(m) * static_cast<uint64_t>(k) > UINT32_MAX)
        throw Error(CS_ERR_INVALID_ARGUMENT,
                    "n_workers x k = " + std::to_string(static_cast<uint64_t>(m) * static_cast<uint64_t>(k)) +
                        " exceeds 2^32 - 1, the limit of the label codes");
}

}  // namespace

ShardData build_shard(Collective &collective, const int32_t *item, const int32_t *worker,
                      const int32_t *label, std::size_t n_labels, const FitOptions &options,
                      const std::vector<int32_t> &gold_item, const std::vector<int32_t> &gold_label) {
    if (n_labels > 0 && (item == nullptr || worker == nullptr || label == nullptr))
        throw Error(CS_ERR_NULL_POINTER, std::string("cs_fit_mpi: the ") +
                                             (item == nullptr     ? "item"
                                              : worker == nullptr ? "worker"
                                                                  : "label") +
                                             " array is NULL (n_local = " + std::to_string(n_labels) + ")");
    if (n_labels > static_cast<std::size_t>(INT64_MAX / 4))
        throw Error(CS_ERR_INVALID_ARGUMENT, "cs_fit_mpi: n_local is too large");

    // Item ids are checked here (they index the bitmaps below); worker ids and labels
    // by CrowdData::build on this process's labels, once the global sizes are known.
    int64_t item_bound = n_labels > 0 ? check_id_range(item, n_labels, options.items, "item", "n_items") : 0;
    for (std::size_t g = 0; g < gold_item.size(); ++g) {
        if (options.items > 0 && gold_item[g] >= options.items)
            throw Error(CS_ERR_INVALID_ID, "gold item id " + std::to_string(gold_item[g]) + " at gold index " +
                                               std::to_string(g) + " is >= n_items (" +
                                               std::to_string(options.items) + ")");
        if (gold_item[g] == INT32_MAX)
            throw Error(CS_ERR_INVALID_ID, "gold item id " + std::to_string(gold_item[g]) + " at gold index " +
                                               std::to_string(g) + " is too large" + id_limit_text());
        item_bound = std::max<int64_t>(item_bound, gold_item[g] + int64_t{1});
    }
    int64_t label_bound = largest(label, n_labels) + 1;
    for (int32_t c : gold_label) label_bound = std::max<int64_t>(label_bound, c + int64_t{1});
    int64_t bounds[3] = {item_bound, largest(worker, n_labels) + 1, label_bound};
    collective.max(bounds, 3);
    uint64_t input_labels = n_labels;
    collective.sum(&input_labels, 1);
    if (input_labels == 0)
        throw Error(CS_ERR_EMPTY_INPUT, "cs_fit_mpi: no labels on any process (n_local = 0 everywhere)");
    const int64_t n_items = options.items > 0 ? options.items : bounds[0];
    const int64_t m = options.workers > 0 ? options.workers : bounds[1];
    const int64_t k = options.classes > 0 ? options.classes : bounds[2];
    check_sizes(k, m);

    // Which global items each process holds, one bit per item id; their sum over the
    // processes. Without overlaps the sum is the union and has as many bits as the
    // processes' bitmaps together; an item held twice makes a carry, which always
    // loses at least one bit, so the counts differ exactly when some item is held
    // twice.
    const std::size_t words = static_cast<std::size_t>((n_items + 63) / 64);
    std::vector<uint64_t> mine(words, 0);
    const auto hold = [&](int32_t j) { mine[static_cast<std::size_t>(j) >> 6] |= uint64_t{1} << (j & 63); };
    for (std::size_t t = 0; t < n_labels; ++t) hold(item[t]);
    for (int32_t j : gold_item) hold(j);
    std::vector<uint64_t> all(mine);
    collective.sum(all.data(), all.size());
    uint64_t held = 0, distinct = 0;
    for (uint64_t w : mine) held += static_cast<uint64_t>(popcount(w));
    for (uint64_t w : all) distinct += static_cast<uint64_t>(popcount(w));
    collective.sum(&held, 1);
    if (held != distinct)
        throw Error(CS_ERR_INVALID_ARGUMENT,
                    "cs_fit_mpi: some item has labels (or a gold class) on more than one process; all "
                    "labels of an item must be on the process that holds it");
    // Process 0 also holds the ids nobody has (items without labels, as in a
    // single-process fit where they get the prior).
    if (collective.rank() == 0)
        for (std::size_t w = 0; w < words; ++w) {
            const int64_t first = static_cast<int64_t>(w) * 64;
            const uint64_t in_range =
                n_items - first >= 64 ? ~uint64_t{0} : (uint64_t{1} << (n_items - first)) - 1;
            mine[w] |= ~all[w] & in_range;
        }
    std::vector<uint64_t>().swap(all);

    // Local numbering: rank among the held ids.
    auto shard = std::make_unique<Shard>();
    std::vector<int64_t> before(words + 1, 0);  // held ids in the words before w
    for (std::size_t w = 0; w < words; ++w) before[w + 1] = before[w] + popcount(mine[w]);
    if (before[words] > INT32_MAX)
        throw Error(CS_ERR_INVALID_ARGUMENT, "cs_fit_mpi: more than 2^31 - 1 items on one process");
    const int32_t n_local = static_cast<int32_t>(before[words]);
    shard->item_ids.reserve(static_cast<std::size_t>(n_local));
    for (std::size_t w = 0; w < words; ++w)
        for (uint64_t bits = mine[w]; bits != 0; bits &= bits - 1)
            shard->item_ids.push_back(static_cast<int32_t>(w * 64 + static_cast<std::size_t>(__builtin_ctzll(bits))));
    const auto local = [&](int32_t j) {
        const std::size_t w = static_cast<std::size_t>(j) >> 6;
        const uint64_t below = mine[w] & ((uint64_t{1} << (j & 63)) - 1);
        return static_cast<int32_t>(before[w] + popcount(below));
    };
    std::vector<int32_t> local_gold(gold_item.size());
    for (std::size_t g = 0; g < gold_item.size(); ++g) local_gold[g] = local(gold_item[g]);

    FitOptions local_options = options;
    local_options.items = n_local;
    local_options.workers = static_cast<int32_t>(m);
    local_options.classes = static_cast<int32_t>(k);
    ShardData out;
    if (n_labels > 0) {
        std::vector<int32_t> local_item(n_labels);
        for (std::size_t t = 0; t < n_labels; ++t) local_item[t] = local(item[t]);
        out.data = CrowdData::build(local_item.data(), worker, label, n_labels, local_options, local_gold,
                                    gold_label);
    } else {  // no labels here: only gold items or the ids nobody has, if anything
        CrowdData &d = out.data;
        d.n_items = n_local;
        d.n_workers = static_cast<int32_t>(m);
        d.k = static_cast<int32_t>(k);
        d.item_start.assign(static_cast<std::size_t>(n_local) + 1, 0);
        if (!gold_item.empty()) {
            d.gold.assign(static_cast<std::size_t>(n_local), -1);
            for (std::size_t g = 0; g < gold_item.size(); ++g) {
                if (gold_label[g] >= k)
                    throw Error(CS_ERR_INVALID_LABEL, "gold label " + std::to_string(gold_label[g]) +
                                                          " at gold index " + std::to_string(g) + " is >= k (" +
                                                          std::to_string(k) + ")");
                d.gold[static_cast<std::size_t>(local_gold[g])] = gold_label[g];
            }
        }
    }
    uint64_t totals[3] = {out.data.n_labels(), static_cast<uint64_t>(out.data.unlabeled_items()),
                          out.data.gold.empty() ? 0u : 1u};
    collective.sum(totals, 3);
    shard->collective = &collective;
    shard->items = n_items;
    shard->labels = static_cast<int64_t>(totals[0]);
    shard->unlabeled = static_cast<int64_t>(totals[1]);
    shard->gold = totals[2] > 0;
    out.shard = std::move(shard);
    out.data.shard = out.shard.get();
    return out;
}

}  // namespace cs
