// SPDX-License-Identifier: MIT
#include "data/crowd_data.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "util/error.hpp"

namespace cs {

namespace {

std::string at(std::size_t t) { return " at label index " + std::to_string(t); }

// Smallest and largest value of an array: a branch-free reduction (vectorised by the
// compiler), so that validating the input costs a fraction of a pass.
std::pair<int32_t, int32_t> min_max(const int32_t *v, std::size_t n) {
    int32_t lo = INT32_MAX, hi = INT32_MIN;
    for (std::size_t t = 0; t < n; ++t) {
        lo = std::min(lo, v[t]);
        hi = std::max(hi, v[t]);
    }
    return {lo, hi};
}

// The first index whose value is outside [0, limit) (limit <= 0: no upper bound);
// only called once min_max has shown that there is one.
std::size_t first_outside(const int32_t *v, std::size_t n, int32_t limit) {
    for (std::size_t t = 0; t < n; ++t)
        if (v[t] < 0 || (limit > 0 && v[t] >= limit)) return t;
    return n;
}

}  // namespace

int32_t check_id_range(const int32_t *ids, std::size_t n, int32_t declared, const char *what,
                       const char *count_name) {
    const auto [lo, hi] = min_max(ids, n);
    if (lo < 0 || (declared > 0 && hi >= declared)) {
        const std::size_t t = first_outside(ids, n, declared);
        const int32_t v = ids[t];
        if (v < 0)
            throw Error(CS_ERR_INVALID_ID, std::string(what) + " id " + std::to_string(v) + at(t) +
                                               " is negative");
        throw Error(CS_ERR_INVALID_ID, std::string(what) + " id " + std::to_string(v) + at(t) +
                                           " is >= " + count_name + " (" +
                                           std::to_string(declared) + ")");
    }
    if (declared > 0) return declared;
    if (hi == INT32_MAX)
        throw Error(CS_ERR_INVALID_ID, std::string(what) + " id " + std::to_string(hi) +
                                           " is too large");
    return hi + 1;
}

namespace {

// The first worker who labels an item twice, as (item, worker), or item -1 when there
// is none: one read-only pass, so that codes used in place (build_csr) are copied only
// when a duplicate must be dropped.
struct Duplicate {
    int32_t item = -1, worker = -1;
};

Duplicate first_duplicate(const CrowdData &d) {
    const uint32_t k32 = static_cast<uint32_t>(d.k);
    std::vector<int32_t> seen_item(static_cast<std::size_t>(d.n_workers), -1);
    for (int32_t j = 0; j < d.n_items; ++j)
        for (int64_t p = d.item_start[j]; p < d.item_start[j + 1]; ++p) {
            const int32_t w = static_cast<int32_t>(d.item_code[p] / k32);
            if (seen_item[w] == j) return {j, w};
            seen_item[w] = j;
        }
    return {};
}

// The duplicate policy: nothing to do without duplicates; 'reject' throws, naming the
// labels by `where(item, worker)`; 'first'/'last' drop the others (the codes become
// owned when they were a view).
template <class Where>
void resolve_duplicates(CrowdData &d, const FitOptions &options, Where where) {
    const Duplicate dup = first_duplicate(d);
    if (dup.item < 0) return;
    if (options.duplicates != CS_DUPLICATES_KEEP_FIRST && options.duplicates != CS_DUPLICATES_KEEP_LAST)
        throw Error(CS_ERR_DUPLICATE, "worker " + std::to_string(dup.worker) + " labelled item " +
                                          std::to_string(dup.item) + " twice (" + where(dup.item, dup.worker) +
                                          "); set 'duplicates' to 'first' or 'last' to keep one");
    d.item_code.resize(d.item_code.size());  // owned from here on
    const uint32_t k32 = static_cast<uint32_t>(d.k);

    // Duplicates: a worker seen twice on the same item. seen_pos[w] is the position of
    // worker w's label on the current item, valid when seen_item[w] == j. Dropped
    // labels are marked with the code UINT32_MAX (never a valid code, since
    // n_workers x k <= UINT32_MAX) and compacted away below.
    constexpr uint32_t kDropped = UINT32_MAX;
    std::vector<int32_t> seen_item(static_cast<std::size_t>(d.n_workers), -1);
    std::vector<int64_t> seen_pos(static_cast<std::size_t>(d.n_workers), 0);
    std::size_t dropped = 0;
    for (int32_t j = 0; j < d.n_items; ++j) {
        for (int64_t p = d.item_start[j]; p < d.item_start[j + 1]; ++p) {
            const int32_t w = static_cast<int32_t>(d.item_code[p] / k32);
            if (seen_item[w] != j) {
                seen_item[w] = j;
                seen_pos[w] = p;
                continue;
            }
            if (options.duplicates == CS_DUPLICATES_KEEP_FIRST) {
                d.item_code[p] = kDropped;
            } else {
                d.item_code[seen_pos[w]] = kDropped;
                seen_pos[w] = p;
            }
            ++dropped;
        }
    }
    if (dropped > 0) {
        std::size_t out = 0;
        for (int32_t j = 0; j < d.n_items; ++j) {
            const int64_t begin = d.item_start[j], end = d.item_start[j + 1];
            d.item_start[j] = static_cast<int64_t>(out);
            for (int64_t p = begin; p < end; ++p)
                if (d.item_code[p] != kDropped) d.item_code[out++] = d.item_code[p];
        }
        d.item_start[d.n_items] = static_cast<int64_t>(out);
        d.item_code.resize(out);
        d.item_code.shrink_to_fit();
    }
}

// Items the gold ids need (largest id + 1, 0 without gold), after checking each id
// against the declared item count (`declared` > 0) and the int32 range; cs_fit and
// cs_fit_csr check gold items alike.
int32_t gold_item_count(const std::vector<int32_t> &gold_item, int32_t declared) {
    int32_t count = 0;
    for (std::size_t g = 0; g < gold_item.size(); ++g) {
        if (declared > 0 && gold_item[g] >= declared)
            throw Error(CS_ERR_INVALID_ID, "gold item id " + std::to_string(gold_item[g]) + " at gold index " +
                                               std::to_string(g) + " is >= n_items (" + std::to_string(declared) +
                                               ")");
        if (gold_item[g] == INT32_MAX)
            throw Error(CS_ERR_INVALID_ID, "gold item id " + std::to_string(gold_item[g]) + " is too large");
        count = std::max(count, gold_item[g] + 1);
    }
    return count;
}

void set_gold(CrowdData &d, const std::vector<int32_t> &gold_item, const std::vector<int32_t> &gold_label) {
    if (!gold_item.empty()) {
        d.gold.assign(static_cast<std::size_t>(d.n_items), -1);
        for (std::size_t g = 0; g < gold_item.size(); ++g) d.gold[gold_item[g]] = gold_label[g];
    }
}

}  // namespace

int32_t CrowdData::unlabeled_items() const {
    int32_t count = 0;
    for (int32_t j = 0; j < n_items; ++j)
        count += item_start[j] == item_start[j + 1] && gold_of(j) < 0;
    return count;
}

void check_gold(const std::vector<int32_t> &item, const std::vector<int32_t> &label) {
    for (std::size_t g = 0; g < item.size(); ++g) {
        if (item[g] < 0)
            throw Error(CS_ERR_INVALID_ID, "gold item id " + std::to_string(item[g]) +
                                               " at gold index " + std::to_string(g) + " is negative");
        if (label[g] < 0)
            throw Error(CS_ERR_INVALID_LABEL, "gold label " + std::to_string(label[g]) +
                                                  " at gold index " + std::to_string(g) + " is negative");
    }
    std::vector<std::size_t> order(item.size());
    for (std::size_t g = 0; g < order.size(); ++g) order[g] = g;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return item[a] < item[b]; });
    for (std::size_t t = 1; t < order.size(); ++t) {
        const std::size_t a = order[t - 1], b = order[t];
        if (item[a] == item[b] && label[a] != label[b])
            throw Error(CS_ERR_DUPLICATE, "gold item " + std::to_string(item[a]) +
                                              " has two classes: " + std::to_string(label[a]) +
                                              " (gold index " + std::to_string(a) + ") and " +
                                              std::to_string(label[b]) + " (gold index " +
                                              std::to_string(b) + ")");
    }
}

CrowdData CrowdData::build(const int32_t *item, const int32_t *worker, const int32_t *label,
                           std::size_t n_labels, const FitOptions &options,
                           const std::vector<int32_t> &gold_item,
                           const std::vector<int32_t> &gold_label) {
    if (item == nullptr || worker == nullptr || label == nullptr)
        throw Error(CS_ERR_NULL_POINTER, std::string("cs_fit: the ") +
                                             (item == nullptr     ? "item"
                                              : worker == nullptr ? "worker"
                                                                  : "label") +
                                             " array is NULL");
    if (n_labels == 0) throw Error(CS_ERR_EMPTY_INPUT, "cs_fit: no labels (n_labels = 0)");
    if (n_labels > static_cast<std::size_t>(INT64_MAX / 4))
        throw Error(CS_ERR_TOO_LARGE, "cs_fit: n_labels = " + std::to_string(n_labels) +
                                          " is >= 2^61, the limit of the label index");

    CrowdData d;
    d.n_items = check_id_range(item, n_labels, options.items, "item", "n_items");
    d.n_items = std::max(d.n_items, gold_item_count(gold_item, options.items));
    d.n_workers = check_id_range(worker, n_labels, options.workers, "worker", "n_workers");

    // Labels: in [0, k) with k declared, or k inferred as the largest label + 1.
    const auto [lowest, highest] = min_max(label, n_labels);
    if (lowest < 0 || (options.classes > 0 && highest >= options.classes)) {
        const std::size_t t = first_outside(label, n_labels, options.classes);
        const int32_t c = label[t];
        if (c < 0)
            throw Error(CS_ERR_INVALID_LABEL, "label " + std::to_string(c) + at(t) + " is negative");
        throw Error(CS_ERR_INVALID_LABEL, "label " + std::to_string(c) + at(t) + " is >= k (" +
                                              std::to_string(options.classes) + ")");
    }
    int32_t largest = highest;
    for (std::size_t g = 0; g < gold_label.size(); ++g) {
        if (options.classes > 0 && gold_label[g] >= options.classes)
            throw Error(CS_ERR_INVALID_LABEL, "gold label " + std::to_string(gold_label[g]) +
                                                  " at gold index " + std::to_string(g) +
                                                  " is >= k (" + std::to_string(options.classes) + ")");
        if (gold_label[g] == INT32_MAX)
            throw Error(CS_ERR_INVALID_LABEL, "gold label " + std::to_string(gold_label[g]) + " is too large");
        largest = std::max(largest, gold_label[g]);
    }
    // In 64 bits: the largest label may be INT32_MAX (found by tests/fuzz/fuzz_fit).
    const int64_t k = options.classes > 0 ? options.classes : static_cast<int64_t>(largest) + 1;
    if (k < 2)
        throw Error(CS_ERR_TOO_FEW_CLASSES,
                    "every label is 0, so k is inferred as 1; at least 2 classes are needed "
                    "(set the 'classes' parameter)");
    // The documented limits (crowdspec.h, CS_MAX_CROWD_CLASSES and CS_ERR_TOO_LARGE):
    // a k x k confusion matrix per worker, and label codes worker * k + label below
    // 2^32 - 1 (UINT32_MAX itself marks dropped duplicates below).
    if (k > CS_MAX_CROWD_CLASSES)
        throw Error(CS_ERR_TOO_MANY_CLASSES,
                    "k = " + std::to_string(k) + " classes (" +
                        (options.classes > 0 ? std::string("the 'classes' parameter")
                                             : "inferred from the largest label, " + std::to_string(largest)) +
                        "); cs_fit supports at most " + std::to_string(CS_MAX_CROWD_CLASSES) +
                        " (a k x k confusion matrix per worker)");
    d.k = static_cast<int32_t>(k);
    const uint64_t codes = static_cast<uint64_t>(d.n_workers) * static_cast<uint64_t>(d.k);
    if (codes > UINT32_MAX)
        throw Error(CS_ERR_TOO_LARGE,
                    "n_workers x k = " + std::to_string(d.n_workers) + " x " + std::to_string(d.k) +
                        " = " + std::to_string(codes) +
                        " is >= 2^32, the limit of cs_fit's 32-bit label codes (n_workers " +
                        (options.workers > 0 ? "from the 'workers' parameter" : "inferred from the largest worker id") +
                        ")");
    const uint32_t k32 = static_cast<uint32_t>(d.k);

    // Counting sort by item, stable: labels of an item keep their input order. Input
    // already grouped by increasing item (the usual export order) is copied as is.
    d.item_start.assign(static_cast<std::size_t>(d.n_items) + 1, 0);
    for (std::size_t t = 0; t < n_labels; ++t) ++d.item_start[static_cast<std::size_t>(item[t]) + 1];
    for (int32_t j = 0; j < d.n_items; ++j) d.item_start[j + 1] += d.item_start[j];
    d.item_code.resize(n_labels);
    const auto code = [&](std::size_t t) {
        return static_cast<uint32_t>(worker[t]) * k32 + static_cast<uint32_t>(label[t]);
    };
    if (std::is_sorted(item, item + n_labels)) {
        for (std::size_t t = 0; t < n_labels; ++t) d.item_code[t] = code(t);
    } else {
        std::vector<int64_t> next(d.item_start.begin(), d.item_start.end() - 1);
        for (std::size_t t = 0; t < n_labels; ++t) d.item_code[next[item[t]]++] = code(t);
    }

    resolve_duplicates(d, options, [&](int32_t j, int32_t w) {
        // Rare: find the two input indices for the message.
        std::vector<std::size_t> where;
        for (std::size_t t = 0; t < n_labels && where.size() < 2; ++t)
            if (item[t] == j && worker[t] == w) where.push_back(t);
        return "label indices " + std::to_string(where[0]) + " and " + std::to_string(where[1]);
    });
    set_gold(d, gold_item, gold_label);
    return d;
}

CrowdData CrowdData::build_csr(std::size_t n_items, const int64_t *item_start, const uint32_t *code, int32_t k,
                               const FitOptions &options, const std::vector<int32_t> &gold_item,
                               const std::vector<int32_t> &gold_label) {
    if (item_start == nullptr) throw Error(CS_ERR_NULL_POINTER, "cs_fit_csr: the item_start array is NULL");
    if (n_items == 0) throw Error(CS_ERR_EMPTY_INPUT, "cs_fit_csr: no items (n_items = 0)");
    if (n_items > static_cast<std::size_t>(INT32_MAX))
        throw Error(CS_ERR_TOO_LARGE,
                    "cs_fit_csr: n_items = " + std::to_string(n_items) + " exceeds 2^31 - 1 (item ids are int32)");
    if (item_start[0] != 0)
        throw Error(CS_ERR_INVALID_ARGUMENT,
                    "cs_fit_csr: item_start[0] = " + std::to_string(item_start[0]) + ", expected 0");
    for (std::size_t j = 0; j < n_items; ++j)
        if (item_start[j + 1] < item_start[j])
            throw Error(CS_ERR_INVALID_ARGUMENT,
                        "cs_fit_csr: item_start[" + std::to_string(j + 1) + "] = " + std::to_string(item_start[j + 1]) +
                            " is less than item_start[" + std::to_string(j) + "] = " + std::to_string(item_start[j]) +
                            " (the offsets must not decrease)");
    const int64_t n_labels = item_start[n_items];
    if (n_labels == 0) throw Error(CS_ERR_EMPTY_INPUT, "cs_fit_csr: no labels (item_start[n_items] = 0)");
    if (n_labels > INT64_MAX / 4)
        throw Error(CS_ERR_TOO_LARGE, "cs_fit_csr: n_labels = " + std::to_string(n_labels) +
                                          " is >= 2^61, the limit of the label index");
    if (code == nullptr) throw Error(CS_ERR_NULL_POINTER, "cs_fit_csr: the code array is NULL");

    if (k < 2)
        throw Error(CS_ERR_TOO_FEW_CLASSES,
                    "cs_fit_csr: k = " + std::to_string(k) + "; at least 2 classes are needed");
    if (options.classes > 0 && options.classes != k)
        throw Error(CS_ERR_INVALID_ARGUMENT, "cs_fit_csr: k = " + std::to_string(k) +
                                                 " but the 'classes' parameter is " +
                                                 std::to_string(options.classes));
    if (k > CS_MAX_CROWD_CLASSES)
        throw Error(CS_ERR_TOO_MANY_CLASSES, "cs_fit_csr: k = " + std::to_string(k) +
                                                 " classes; cs_fit_csr supports at most " +
                                                 std::to_string(CS_MAX_CROWD_CLASSES) +
                                                 " (a k x k confusion matrix per worker)");

    CrowdData d;
    d.k = k;
    const uint32_t k32 = static_cast<uint32_t>(k);
    // Workers: the largest code's worker + 1, or the declared count.
    uint32_t highest = 0;
    for (int64_t p = 0; p < n_labels; ++p) highest = std::max(highest, code[p]);
    const int64_t largest_worker = highest / k32;
    if (options.workers > 0 && largest_worker >= options.workers) {
        int64_t p = 0;
        while (code[p] / k32 < static_cast<uint32_t>(options.workers)) ++p;
        throw Error(CS_ERR_INVALID_ID, "worker id " + std::to_string(code[p] / k32) + " (code " +
                                           std::to_string(code[p]) + " at position " + std::to_string(p) +
                                           ") is >= n_workers (" + std::to_string(options.workers) + ")");
    }
    // n_workers x k < 2^32 also keeps n_workers below 2^31 (k >= 2).
    const int64_t workers = options.workers > 0 ? options.workers : largest_worker + 1;
    const uint64_t codes = static_cast<uint64_t>(workers) * k32;
    if (codes > UINT32_MAX)
        throw Error(CS_ERR_TOO_LARGE,
                    "n_workers x k = " + std::to_string(workers) + " x " + std::to_string(k) + " = " +
                        std::to_string(codes) + " is >= 2^32, the limit of the 32-bit label codes (n_workers from " +
                        (options.workers > 0 ? "the 'workers' parameter" : "the largest code") + ")");
    d.n_workers = static_cast<int32_t>(workers);

    // Items: the rows, or the declared count (items beyond the rows have no labels).
    int64_t items = static_cast<int64_t>(n_items);
    if (options.items > 0) {
        if (items > options.items)
            throw Error(CS_ERR_INVALID_ID, "cs_fit_csr: n_items = " + std::to_string(n_items) +
                                               " rows, more than the 'items' parameter (" +
                                               std::to_string(options.items) + ")");
        items = options.items;
    }
    items = std::max<int64_t>(items, gold_item_count(gold_item, options.items));
    for (std::size_t g = 0; g < gold_label.size(); ++g) {
        if (gold_label[g] >= k)
            throw Error(CS_ERR_INVALID_LABEL, "gold label " + std::to_string(gold_label[g]) + " at gold index " +
                                                  std::to_string(g) + " is >= k (" + std::to_string(k) + ")");
    }
    d.n_items = static_cast<int32_t>(items);
    d.item_start.resize(static_cast<std::size_t>(d.n_items) + 1);
    std::copy(item_start, item_start + n_items + 1, d.item_start.begin());
    std::fill(d.item_start.begin() + static_cast<std::ptrdiff_t>(n_items) + 1, d.item_start.end(), n_labels);
    d.item_code.view(code, static_cast<std::size_t>(n_labels));

    resolve_duplicates(d, options, [&](int32_t j, int32_t w) {
        std::vector<int64_t> where;
        for (int64_t p = item_start[j]; p < item_start[j + 1] && where.size() < 2; ++p)
            if (code[p] / k32 == static_cast<uint32_t>(w)) where.push_back(p);
        return "positions " + std::to_string(where[0]) + " and " + std::to_string(where[1]) + " of the code array";
    });
    set_gold(d, gold_item, gold_label);
    return d;
}

}  // namespace cs
