// SPDX-License-Identifier: MIT
#include "data/crowd_data.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <string>
#include <utility>

#include "data/item_partitions.hpp"
#include "util/counting_sort.hpp"
#include "util/error.hpp"
#include "util/parallel.hpp"

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

namespace {

// The count of ids whose smallest and largest values are lo and hi: the declared count
// (after checking every id against it), or the largest id + 1. Throws as check_id_range.
int32_t id_count(const int32_t *ids, std::size_t n, int32_t lo, int32_t hi, int32_t declared, const char *what,
                 const char *count_name) {
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
                                           at(first_outside(ids, n, INT32_MAX)) + " is too large" + id_limit_text());
    return hi + 1;
}

}  // namespace

std::vector<char> answer_classes_in_use(const CrowdData &data) {
    std::vector<char> used(static_cast<std::size_t>(data.k), 0);
    for (std::size_t t = 0; t < data.n_labels(); ++t) used[data.label_of(static_cast<int64_t>(t))] = 1;
    return used;
}

// The limit an id of 2^31 - 1 breaks, stated (issue 40, R9): the count of ids, the
// largest id + 1, is an int32.
std::string id_limit_text() {
    return "; ids must be at most 2147483646 (2^31 - 2: the count of ids, largest id + 1, is a 32-bit int)";
}

int32_t check_id_range(const int32_t *ids, std::size_t n, int32_t declared, const char *what,
                       const char *count_name) {
    const auto [lo, hi] = min_max(ids, n);
    return id_count(ids, n, lo, hi, declared, what, count_name);
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
            throw Error(CS_ERR_INVALID_ID, "gold item id " + std::to_string(gold_item[g]) + " at gold index " +
                                               std::to_string(g) + " is too large" + id_limit_text());
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

// ---- Building the by-item layout on several threads ----
//
// Every pass below is exact (counts, copies, comparisons), so how the labels are cut
// into tasks never changes the result: the layout is the same for any thread count.

// Labels per task of a parallel pass over the labels.
constexpr std::size_t kBuildChunk = std::size_t{1} << 18;

// [begin, end) of task c over n labels.
std::pair<std::size_t, std::size_t> chunk_range(int64_t c, std::size_t n) {
    const std::size_t begin = static_cast<std::size_t>(c) * kBuildChunk;
    return {begin, std::min(n, begin + kBuildChunk)};
}

// The smallest and largest item, worker and label, and whether the items never
// decrease: one pass over the three arrays instead of four.
struct TripleRanges {
    int32_t item_lo = INT32_MAX, item_hi = INT32_MIN;
    int32_t worker_lo = INT32_MAX, worker_hi = INT32_MIN;
    int32_t label_lo = INT32_MAX, label_hi = INT32_MIN;
    bool items_sorted = true;
};

TripleRanges scan_triples(const int32_t *item, const int32_t *worker, const int32_t *label, std::size_t n,
                          Team &team) {
    std::vector<TripleRanges> part(static_cast<std::size_t>(chunk_count(static_cast<int64_t>(n), kBuildChunk)));
    team.run(static_cast<int64_t>(part.size()), [&](int64_t c) {
        const auto [begin, end] = chunk_range(c, n);
        TripleRanges r;
        int32_t decreases = begin > 0 && item[begin] < item[begin - 1];
        for (std::size_t t = begin; t < end; ++t) {
            r.item_lo = std::min(r.item_lo, item[t]);
            r.item_hi = std::max(r.item_hi, item[t]);
            r.worker_lo = std::min(r.worker_lo, worker[t]);
            r.worker_hi = std::max(r.worker_hi, worker[t]);
            r.label_lo = std::min(r.label_lo, label[t]);
            r.label_hi = std::max(r.label_hi, label[t]);
        }
        for (std::size_t t = begin + 1; t < end; ++t) decreases |= item[t] < item[t - 1];
        r.items_sorted = decreases == 0;
        part[static_cast<std::size_t>(c)] = r;
    });
    TripleRanges all;
    for (const TripleRanges &r : part) {
        all.item_lo = std::min(all.item_lo, r.item_lo);
        all.item_hi = std::max(all.item_hi, r.item_hi);
        all.worker_lo = std::min(all.worker_lo, r.worker_lo);
        all.worker_hi = std::max(all.worker_hi, r.worker_hi);
        all.label_lo = std::min(all.label_lo, r.label_lo);
        all.label_hi = std::max(all.label_hi, r.label_hi);
        all.items_sorted = all.items_sorted && r.items_sorted;
    }
    return all;
}

// Triples whose items never decrease: the codes are the triples' codes in input order,
// and item_start[j] is the first label whose item is >= j (found at the label where
// the item changes, so no count is kept).
void group_sorted_items(CrowdData &d, const int32_t *item, const int32_t *worker, const int32_t *label,
                        std::size_t n, Team &team) {
    const uint32_t k32 = static_cast<uint32_t>(d.k);
    uint32_t *code = d.item_code.owned_data();
    int64_t *start = d.item_start.data();
    team.run(chunk_count(static_cast<int64_t>(n), kBuildChunk), [&](int64_t c) {
        const auto [begin, end] = chunk_range(c, n);
        for (std::size_t t = begin; t < end; ++t)
            code[t] = static_cast<uint32_t>(worker[t]) * k32 + static_cast<uint32_t>(label[t]);
        int32_t previous = begin == 0 ? -1 : item[begin - 1];
        for (std::size_t t = begin; t < end; ++t) {
            if (item[t] == previous) continue;
            for (int32_t j = previous + 1; j <= item[t]; ++j) start[j] = static_cast<int64_t>(t);
            previous = item[t];
        }
    });
    for (int32_t j = item[n - 1] + 1; j <= d.n_items; ++j) start[j] = static_cast<int64_t>(n);
}

// Any other triples: a counting sort by item, stable (an item's labels keep their input
// order, which the duplicate policy needs). With several threads and few enough items,
// each thread counts and places the labels of one range of the input; the offsets put
// range r's labels of an item after those of ranges before r, so the result is the
// serial sort's. The per-range counts cost 8 bytes per item and range, at most 4
// bytes per label.
void group_unsorted_items(CrowdData &d, const int32_t *item, const int32_t *worker, const int32_t *label,
                          std::size_t n, Team &team) {
    const uint32_t k32 = static_cast<uint32_t>(d.k);
    uint32_t *code = d.item_code.owned_data();
    const std::size_t items = static_cast<std::size_t>(d.n_items);
    std::size_t ranges = static_cast<std::size_t>(team.size());
    while (ranges > 1 && (ranges * items > n / 2 || n / ranges < kBuildChunk)) --ranges;
    std::vector<int64_t> next(ranges * items, 0);  // counts, then next positions
    const auto range_of = [&](std::size_t r) { return std::make_pair(r * n / ranges, (r + 1) * n / ranges); };
    team.run(static_cast<int64_t>(ranges), [&](int64_t r) {
        const auto [begin, end] = range_of(static_cast<std::size_t>(r));
        int64_t *count = next.data() + static_cast<std::size_t>(r) * items;
        for (std::size_t t = begin; t < end; ++t) ++count[item[t]];
    });
    counting_sort_positions(next, ranges, items, d.item_start.data());
    team.run(static_cast<int64_t>(ranges), [&](int64_t r) {
        const auto [begin, end] = range_of(static_cast<std::size_t>(r));
        int64_t *place = next.data() + static_cast<std::size_t>(r) * items;
        for (std::size_t t = begin; t < end; ++t)
            code[place[item[t]]++] = static_cast<uint32_t>(worker[t]) * k32 + static_cast<uint32_t>(label[t]);
    });
}

// w / k for any 32-bit code w by one multiplication: with m = ceil(2^64 / k), the high
// 64 bits of m * w are floor(w / k) for every w < 2^32 (Lemire, Kaser and Kurz, "Faster
// remainder by direct computation", 2019). A division per label would cost more than
// the rest of the ordering pass.
struct WorkerOf {
    explicit WorkerOf(uint32_t k) : m(UINT64_MAX / k + 1) {}
    uint32_t operator()(uint32_t code) const {
        __extension__ typedef unsigned __int128 u128;  // GCC and Clang
        return static_cast<uint32_t>((static_cast<u128>(m) * code) >> 64);
    }
    uint64_t m;
};

// Whether an item's labels are already in worker order, each worker once: increasing
// codes, no two of one worker (which could only be neighbours less than k apart).
bool in_worker_order(const uint32_t *code, int64_t n, uint32_t k32, const WorkerOf &worker_of) {
    for (int64_t p = 1; p < n; ++p) {
        const uint32_t c = code[p], before = code[p - 1];
        if (c <= before || (c - before < k32 && worker_of(c) == worker_of(before))) return false;
    }
    return true;
}

// Items of up to this many labels are ordered by ranks on the stack (below), when
// worker ids fit in 27 bits (the keys below are then non-negative int32, whose
// comparisons SSE2 has).
constexpr int64_t kShortItem = 16;
constexpr uint32_t kShortItemWorkers = uint32_t{1} << 27;

// The number of the 16 keys below `own`.
int32_t keys_below(const int32_t (&key)[kShortItem], int32_t own) {
#if defined(__GNUC__)
    // Four lanes at a time (GCC/Clang vector extension: SSE2 on x86-64); a comparison
    // gives -1 in each lane where it holds.
    typedef int32_t Int4 __attribute__((vector_size(16)));
    Int4 lanes[4];
    std::memcpy(lanes, key, sizeof lanes);
    const Int4 o = {own, own, own, own};
    const Int4 below = (lanes[0] < o) + (lanes[1] < o) + (lanes[2] < o) + (lanes[3] < o);
    return -(below[0] + below[1] + below[2] + below[3]);
#else
    int32_t rank = 0;
    for (int64_t q = 0; q < kShortItem; ++q) rank += key[q] < own;
    return rank;
#endif
}

// Put one item's labels in worker order, stable (a worker's labels keep their order).
// Returns false, leaving the item as it was, when a worker labelled it twice: the
// duplicate policy decides then. Short items (nearly all) by ranks: with the keys
// worker * 16 + position (all distinct), label p goes to the number of keys below
// its own. The 16 comparisons per label vectorise and no branch depends on the data
// (an insertion sort of ten labels in random order mispredicts about once per label).
bool sort_item_by_worker(uint32_t *code, int64_t n, uint32_t k32, const WorkerOf &worker_of, bool short_keys) {
    if (in_worker_order(code, n, k32, worker_of)) return true;
    if (n <= kShortItem && short_keys) {
        int32_t key[kShortItem], sorted_key[kShortItem];
        uint32_t sorted[kShortItem];
        for (int64_t p = 0; p < kShortItem; ++p)
            key[p] = p < n ? static_cast<int32_t>(worker_of(code[p]) << 4 | static_cast<uint32_t>(p)) : INT32_MAX;
        for (int64_t p = 0; p < n; ++p) {
            const int32_t rank = keys_below(key, key[p]);
            sorted[rank] = code[p];
            sorted_key[rank] = key[p];
        }
        for (int64_t p = 1; p < n; ++p)
            if ((sorted_key[p] >> 4) == (sorted_key[p - 1] >> 4)) return false;
        std::copy(sorted, sorted + n, code);
        return true;
    }
    std::vector<uint32_t> copy(code, code + n);
    std::stable_sort(copy.begin(), copy.end(),
                     [&](uint32_t a, uint32_t b) { return worker_of(a) < worker_of(b); });
    for (int64_t p = 1; p < n; ++p)
        if (worker_of(copy[p]) == worker_of(copy[p - 1])) return false;
    std::copy(copy.begin(), copy.end(), code);
    return true;
}

// Every item's labels in worker order (owned codes); false if some item has a
// duplicate (those items are left as they were).
bool sort_items_by_worker(CrowdData &d, const std::vector<ItemRange> &blocks, Team &team) {
    const uint32_t k32 = static_cast<uint32_t>(d.k);
    const WorkerOf worker_of(k32);
    uint32_t *code = d.item_code.owned_data();
    const bool short_keys = static_cast<uint32_t>(d.n_workers) <= kShortItemWorkers;
    std::vector<char> clean(blocks.size(), 1);
    team.run(static_cast<int64_t>(blocks.size()), [&](int64_t b) {
        bool ok = true;
        const ItemRange r = blocks[static_cast<std::size_t>(b)];
        for (int32_t j = r.first; j < r.last; ++j)
            ok &= sort_item_by_worker(code + d.item_start[j], d.item_start[j + 1] - d.item_start[j], k32, worker_of,
                                      short_keys);
        clean[static_cast<std::size_t>(b)] = ok;
    });
    return std::all_of(clean.begin(), clean.end(), [](char c) { return c != 0; });
}

// True when every item's labels are in worker order already (read-only; stops at the
// first item that is not).
bool all_in_worker_order(const CrowdData &d, const std::vector<ItemRange> &blocks, Team &team) {
    const uint32_t k32 = static_cast<uint32_t>(d.k);
    const WorkerOf worker_of(k32);
    std::atomic<bool> any_not{false};
    team.run(static_cast<int64_t>(blocks.size()), [&](int64_t b) {
        const ItemRange r = blocks[static_cast<std::size_t>(b)];
        for (int32_t j = r.first; j < r.last && !any_not.load(std::memory_order_relaxed); ++j)
            if (!in_worker_order(d.item_code.data() + d.item_start[j], d.item_start[j + 1] - d.item_start[j], k32,
                                 worker_of))
                any_not.store(true, std::memory_order_relaxed);
    });
    return !any_not.load();
}

// Every item's labels in worker order, so that no fit depends on the order in which the
// labels came (sums over an item's labels are formed in this order). The duplicate
// policy applies in the order the labels came ('first' and 'last' mean that order):
// items where a worker appears twice are left in input order by the sort, resolved,
// then sorted. Labels already in worker order (the common case) are only read, and
// the caller's codes (build_csr) are copied only when they are not.
template <class Where>
void put_in_worker_order(CrowdData &d, const FitOptions &options, Where where, Team &team) {
    // Blocks of about kBuildChunk labels (item ranges: they stay valid when duplicates
    // are dropped below).
    const std::vector<ItemRange> blocks =
        split_items(d, chunk_count(static_cast<int64_t>(d.n_labels()), kBuildChunk));
    if (d.item_code.is_view()) {
        if (all_in_worker_order(d, blocks, team)) return;
        d.item_code.resize(d.item_code.size());  // owned: a copy of the caller's codes
    }
    if (sort_items_by_worker(d, blocks, team)) return;
    resolve_duplicates(d, options, where);
    sort_items_by_worker(d, blocks, team);
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

    Team team(threads_for(options.threads, static_cast<int64_t>(n_labels)));
    const TripleRanges range = scan_triples(item, worker, label, n_labels, team);
    CrowdData d;
    d.n_items = id_count(item, n_labels, range.item_lo, range.item_hi, options.items, "item", "n_items");
    d.n_items = std::max(d.n_items, gold_item_count(gold_item, options.items));
    d.n_workers =
        id_count(worker, n_labels, range.worker_lo, range.worker_hi, options.workers, "worker", "n_workers");

    // Labels: in [0, k) with k declared, or k inferred as the largest label + 1.
    const int32_t lowest = range.label_lo, highest = range.label_hi;
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
            throw Error(CS_ERR_INVALID_LABEL, "gold label " + std::to_string(gold_label[g]) + " at gold index " +
                                                  std::to_string(g) + " is too large; labels must be below " +
                                                  std::to_string(CS_MAX_CROWD_CLASSES) + " (CS_MAX_CROWD_CLASSES)");
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
    // By item: input already grouped by increasing item (the usual export order) is
    // copied as it is, anything else sorted by item, keeping the input order within an
    // item for the duplicate policy; then each item's labels in worker order.
    d.item_start.resize(static_cast<std::size_t>(d.n_items) + 1);
    d.item_code.resize(n_labels);
    if (range.items_sorted)
        group_sorted_items(d, item, worker, label, n_labels, team);
    else
        group_unsorted_items(d, item, worker, label, n_labels, team);

    put_in_worker_order(d, options, [&](int32_t j, int32_t w) {
        // Rare: find the two input indices for the message.
        std::vector<std::size_t> where;
        for (std::size_t t = 0; t < n_labels && where.size() < 2; ++t)
            if (item[t] == j && worker[t] == w) where.push_back(t);
        return "label indices " + std::to_string(where[0]) + " and " + std::to_string(where[1]);
    }, team);
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

    Team team(threads_for(options.threads, n_labels));
    put_in_worker_order(d, options, [&](int32_t j, int32_t w) {
        std::vector<int64_t> where;
        for (int64_t p = item_start[j]; p < item_start[j + 1] && where.size() < 2; ++p)
            if (code[p] / k32 == static_cast<uint32_t>(w)) where.push_back(p);
        return "positions " + std::to_string(where[0]) + " and " + std::to_string(where[1]) + " of the code array";
    }, team);
    set_gold(d, gold_item, gold_label);
    return d;
}

}  // namespace cs
