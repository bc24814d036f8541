// SPDX-License-Identifier: MIT
// An update's new labels (update_labels.hpp): the batch checked and ordered, the items it
// changes, the merge into the labels by item, the answer sets of the changed items.
#include "crowd/em/update_labels.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include "crowd/em/dawid_skene.hpp"
#include "crowd/em/items_ahead.hpp"
#include "crowd/em/model_worker.hpp"
#include "util/error.hpp"
#include "util/fast_mod.hpp"

namespace cs {

namespace {

[[noreturn]] void duplicate(int32_t item, int32_t worker, const std::string &where) {
    throw Error(CS_ERR_DUPLICATE, "worker " + std::to_string(worker) + " labelled item " + std::to_string(item) +
                                      " twice (" + where + "); set CS_PARAM_DUPLICATES to first or last to keep one");
}

// The labels in (item, worker, input) order: an LSD radix sort of the keys item << 32 |
// worker, one stable counting pass per byte in which the keys differ (ids are checked
// non-negative), so O(labels) a pass. 4 passes at 10^6 items and 2,000 workers, where
// std::stable_sort of the 24-byte labels took 8.5 ms of a 10^5-label batch in random
// order (about 6 % of its update).
void sort_by_item_and_worker(std::vector<NewLabel> &labels) {
    const std::size_t n = labels.size();
    std::vector<uint64_t> key(n), key_next(n);
    std::vector<NewLabel> next(n);
    uint64_t any = 0, every = ~uint64_t{0};
    for (std::size_t t = 0; t < n; ++t) {
        key[t] = uint64_t{static_cast<uint32_t>(labels[t].item)} << 32 | static_cast<uint32_t>(labels[t].worker);
        any |= key[t];
        every &= key[t];
    }
    const uint64_t varies = any ^ every;  // the bits not the same in every key
    for (int shift = 0; shift < 64; shift += 8) {
        if (((varies >> shift) & 0xff) == 0) continue;  // one bucket: the pass keeps the order
        std::size_t place[257] = {};
        for (std::size_t t = 0; t < n; ++t) ++place[((key[t] >> shift) & 0xff) + 1];
        for (int b = 0; b < 256; ++b) place[b + 1] += place[b];
        for (std::size_t t = 0; t < n; ++t) {
            const std::size_t at = place[(key[t] >> shift) & 0xff]++;
            key_next[at] = key[t];
            next[at] = labels[t];
        }
        key.swap(key_next);
        labels.swap(next);
    }
}

}  // namespace

std::vector<NewLabel> checked_labels(const UpdateState &s, const int32_t *item, const int32_t *worker,
                                     const int32_t *label, std::size_t n) {
    const int32_t k = s.data.k;
    std::vector<NewLabel> out(n);
    for (std::size_t t = 0; t < n; ++t) {
        if (item[t] < 0 || item[t] == std::numeric_limits<int32_t>::max())
            throw Error(CS_ERR_INVALID_ID, "item id " + std::to_string(item[t]) + " at label index " +
                                               std::to_string(t) + " is negative or too large");
        if (worker[t] < 0)
            throw Error(CS_ERR_INVALID_ID,
                        "worker id " + std::to_string(worker[t]) + " at label index " + std::to_string(t) + " is negative");
        if (label[t] < 0 || label[t] >= k)
            throw Error(CS_ERR_INVALID_LABEL, "label " + std::to_string(label[t]) + " at label index " +
                                                  std::to_string(t) + " is not a class of the model (0 .. " +
                                                  std::to_string(k - 1) + ")");
        out[t] = NewLabel{item[t], worker[t], label[t], t};
    }
    // By item, then worker, then input order: each item's new labels in the order of its
    // codes (a batch that comes item after item, worker after worker, is in it already).
    const auto before = [](const NewLabel &a, const NewLabel &b) {
        return a.item != b.item ? a.item < b.item : a.worker < b.worker;
    };
    if (std::is_sorted(out.begin(), out.end(), before)) return out;
    const auto by_item = [](const NewLabel &a, const NewLabel &b) { return a.item < b.item; };
    if (std::is_sorted(out.begin(), out.end(), by_item)) {
        // Grouped by item already (an export, new items' labels as they came): only each
        // item's few labels need their worker order, not a sort of the whole batch (which
        // was a tenth of an update of new items).
        for (auto run = out.begin(); run != out.end();) {
            const auto end = std::find_if(run, out.end(), [&](const NewLabel &x) { return x.item != run->item; });
            std::stable_sort(run, end, before);
            run = end;
        }
        return out;
    }
    sort_by_item_and_worker(out);
    return out;
}

// The items whose labels the batch changes, in increasing order, after checking the
// batch against the duplicate policy and the size limits: nothing is changed before
// this has passed, so a rejected batch leaves the state as it was.
BatchChange changed_items(const UpdateState &s, const std::vector<NewLabel> &batch, int32_t policy) {
    BatchChange change;
    std::vector<int32_t> &out = change.items;
    const CrowdData &d = s.data;
    int64_t n_workers = d.n_workers;
    const ItemsAhead ahead(d);
    for (std::size_t b = 0; b < batch.size();) {
        ahead.fetch(b, batch.size(), [&](std::size_t i) { return batch[i].item; });
        const int32_t j = batch[b].item;
        std::size_t e = b;
        while (e < batch.size() && batch[e].item == j) ++e;
        bool changes = j >= d.n_items;
        for (std::size_t t = b; t < e; ++t) {
            n_workers = std::max<int64_t>(n_workers, int64_t{batch[t].worker} + 1);
            if (t + 1 < e && batch[t + 1].worker == batch[t].worker && policy == CS_DUPLICATES_REJECT)
                duplicate(j, batch[t].worker,
                          "label indices " + std::to_string(batch[t].index) + " and " + std::to_string(batch[t + 1].index));
            const int64_t first = j < d.n_items ? d.item_start[j] : 0, last = j < d.n_items ? d.item_start[j + 1] : 0;
            // The item's codes are in worker order: worker w's, if any, is the first >= w k.
            const uint32_t *codes = d.item_code.data();
            const uint32_t lowest = static_cast<uint32_t>(batch[t].worker) * static_cast<uint32_t>(d.k);
            const int64_t p = std::lower_bound(codes + first, codes + last, lowest) - codes;
            // The last of the batch's labels of this (item, worker) is the one merge_labels
            // counts: inserted when the model has none, added when it replaces one.
            const bool run_ends = t + 1 == e || batch[t + 1].worker != batch[t].worker;
            // Worker w's codes are w k .. w k + k - 1: compared as codes, not divided by k.
            if (p < last && codes[p] - lowest < static_cast<uint32_t>(d.k)) {
                if (policy == CS_DUPLICATES_REJECT)
                    duplicate(j, batch[t].worker,
                              "label index " + std::to_string(batch[t].index) + " and a label the model has");
                const bool replaces =
                    policy == CS_DUPLICATES_KEEP_LAST && codes[p] != lowest + static_cast<uint32_t>(batch[t].label);
                changes = changes || replaces;
                if (run_ends && replaces) ++change.added;
            } else {
                changes = true;
                if (run_ends) {
                    ++change.added;
                    ++change.inserted;
                }
            }
        }
        if (changes) {
            out.push_back(j);
            if (j < d.n_items) change.items_labels += d.item_start[j + 1] - d.item_start[j];
        }
        b = e;
    }
    if (static_cast<uint64_t>(n_workers) * static_cast<uint64_t>(d.k) >= (uint64_t{1} << 32))
        throw Error(CS_ERR_TOO_LARGE, "n_workers x k = " + std::to_string(n_workers) + " x " + std::to_string(d.k) +
                                          " reaches 2^32, beyond the 32-bit label codes");
    return change;
}

// Merge the checked batch into the labels by item under the duplicate policy, counting
// each inserted label in its worker's `worker_labels` (grown to the workers); what it
// inserts and replaces is what changed_items counted. The codes are patched in place: the merged labels of the
// batch's items are formed apart (O(their labels)), then, from the last item back, the
// codes between two of them move up by the labels inserted before (one memmove per
// stretch) and the item starts with them; labels that are new items only append.
void merge_codes(CrowdData &d, std::vector<uint64_t> &worker_labels, const std::vector<NewLabel> &batch,
                 int32_t policy) {
    const int32_t k = d.k;
    int32_t n_items = d.n_items, n_workers = d.n_workers;
    for (const NewLabel &l : batch) {
        n_items = std::max(n_items, l.item + 1);
        n_workers = std::max(n_workers, l.worker + 1);
    }
    worker_labels.resize(static_cast<std::size_t>(n_workers), 0);
    // The merged codes of each item of the batch, in item order: group g is item
    // items[g] with codes merged[group_start[g] .. group_start[g + 1]).
    std::vector<int32_t> items;
    std::vector<std::size_t> group_start{0};
    std::vector<uint32_t> merged;
    int64_t inserted = 0;
    const ItemsAhead ahead(d);  // before the codes grow below
    for (std::size_t b = 0; b < batch.size();) {
        ahead.fetch(b, batch.size(), [&](std::size_t i) { return batch[i].item; });
        const int32_t j = batch[b].item;
        const int64_t first = j < d.n_items ? d.item_start[j] : 0, last = j < d.n_items ? d.item_start[j + 1] : 0;
        int64_t p = first;
        while (b < batch.size() && batch[b].item == j) {
            // The item's labels of this worker in the batch: [b, e).
            std::size_t e = b;
            while (e < batch.size() && batch[e].item == j && batch[e].worker == batch[b].worker) ++e;
            const NewLabel &chosen = policy == CS_DUPLICATES_KEEP_LAST ? batch[e - 1] : batch[b];
            const int32_t w = chosen.worker;
            // Worker w's codes are w k .. w k + k - 1: the item's codes are compared with
            // them rather than divided by k (a division a label of every touched item).
            const uint32_t lowest = static_cast<uint32_t>(w) * static_cast<uint32_t>(k);
            while (p < last && d.item_code[static_cast<std::size_t>(p)] < lowest)
                merged.push_back(d.item_code[static_cast<std::size_t>(p++)]);
            const uint32_t code = lowest + static_cast<uint32_t>(chosen.label);
            if (p < last && d.item_code[static_cast<std::size_t>(p)] - lowest < static_cast<uint32_t>(k)) {
                // the model has this (item, worker): checked
                merged.push_back(policy == CS_DUPLICATES_KEEP_LAST ? code : d.item_code[static_cast<std::size_t>(p)]);
                ++p;
            } else {
                merged.push_back(code);
                ++inserted;
                ++worker_labels[static_cast<std::size_t>(w)];
            }
            b = e;
        }
        while (p < last) merged.push_back(d.item_code[static_cast<std::size_t>(p++)]);
        items.push_back(j);
        group_start.push_back(merged.size());
    }
    const int64_t old_labels = static_cast<int64_t>(d.n_labels());
    d.item_start.resize(static_cast<std::size_t>(n_items) + 1, old_labels);  // new items: empty so far
    d.item_code.resize(static_cast<std::size_t>(old_labels + inserted));
    uint32_t *codes = d.item_code.owned_data();
    // From the last group back: `shift` = labels inserted by the groups before the
    // current point; items (j, hi) between two groups move up by it.
    int64_t shift = inserted;
    int32_t hi = n_items;
    int64_t old_start_hi = old_labels;  // the old start of item hi (its entry is already new)
    d.item_start[static_cast<std::size_t>(n_items)] = old_labels + inserted;
    for (std::size_t g = items.size(); g-- > 0;) {
        const int32_t j = items[g];
        const int64_t old_begin = d.item_start[static_cast<std::size_t>(j)];
        const int64_t old_end = j + 1 == hi ? old_start_hi : d.item_start[static_cast<std::size_t>(j) + 1];
        if (shift != 0 && old_start_hi > old_end)
            std::memmove(codes + old_end + shift, codes + old_end,
                         static_cast<std::size_t>(old_start_hi - old_end) * sizeof(uint32_t));
        for (int32_t m = j + 1; m < hi; ++m) d.item_start[static_cast<std::size_t>(m)] += shift;
        const int64_t length = static_cast<int64_t>(group_start[g + 1] - group_start[g]);
        shift -= length - (old_end - old_begin);
        const int64_t new_begin = old_begin + shift;
        std::copy_n(merged.data() + group_start[g], static_cast<std::size_t>(length), codes + new_begin);
        d.item_start[static_cast<std::size_t>(j)] = new_begin;
        old_start_hi = old_begin;
        hi = j;
    }
    if (!d.gold.empty()) d.gold.resize(static_cast<std::size_t>(n_items), -1);
    d.n_items = n_items;
    d.n_workers = n_workers;
}

// merge_codes on the state's labels, and its per-item and per-worker tables grown. The
// changed items' old share must have left the sums before (remove_items on the old data).
void merge_labels(UpdateState &s, const std::vector<NewLabel> &batch, int32_t policy) {
    merge_codes(s.data, s.worker_labels, batch, policy);
    const CrowdData &d = s.data;
    const std::size_t k = static_cast<std::size_t>(d.k);
    s.counts.resize(static_cast<std::size_t>(d.n_workers) * k * k, 0.0);
    s.q.resize(static_cast<std::size_t>(d.n_items) * k, 0.0);
    s.item_ll.resize(static_cast<std::size_t>(d.n_items), 0.0);
    s.impossible.resize(static_cast<std::size_t>(d.n_items), 0);
}

// The answer sets of the listed items (restricted support), after their labels changed.
void refresh_allowed(UpdateState &s, const std::vector<int32_t> &items) {
    const CrowdData &d = s.data;
    const int32_t k = d.k;
    if (s.allowed.empty()) {
        s.allowed = answer_sets(d);
        return;
    }
    s.allowed.resize(static_cast<std::size_t>(d.n_items) * k, 1);
    const FastMod32 label_of(static_cast<uint32_t>(k));  // d.label_of without a division
    // Taken once: the answer sets are bytes, which may alias anything, so every write
    // would otherwise have the compiler load the starts' and codes' addresses again.
    const int64_t *start = d.item_start.data();
    const uint32_t *codes = d.item_code.data();
    const ItemsAhead ahead(d);
    for (std::size_t t = 0; t < items.size(); ++t) {
        ahead.fetch(t, items.size(), [&](std::size_t i) { return items[i]; });
        const int32_t j = items[t];
        uint8_t *a = s.allowed.data() + static_cast<int64_t>(j) * k;
        const int64_t first = start[j], last = start[j + 1];
        const bool none = first == last;
        std::fill(a, a + k, static_cast<uint8_t>(none ? 1 : 0));
        for (int64_t p = first; p < last; ++p) a[label_of(codes[p])] = 1;
        if (!none && has_model(d))  // the model answers too (answer_sets)
            for (int32_t c = 0; c < k; ++c) a[c] = a[c] || model_answers(d, j, c);
    }
}

}  // namespace cs
