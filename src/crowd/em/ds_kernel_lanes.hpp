// SPDX-License-Identifier: MIT
// The E-step kernels for K = 2..5 classes fixed at compile time, with an item's k
// values in SSE2 registers (Lanes, util/simd_pair.hpp): one item at a time with its
// rows prefetched when the tables are beyond the caches (e_step_range_items), in
// batches of items otherwise (e_step_range_batched). Both give the posteriors of the
// generic kernel (ds_kernel.hpp, e_step_range) but for the exponentials' rounding (their
// inlined exp is within 2 ulp, libm's within 1: util/simd_pair.hpp), with a classifier's
// item terms (`item_terms`, n_items x K or null) added after the labels as it adds them.
// Header-only for inlining; ds_e_step.cpp picks the kernel per partition.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "crowd/em/ds_kernel.hpp"
#include "util/simd_pair.hpp"

#if defined(CS_HAVE_PAIR)
namespace cs::ds {
namespace {  // internal linkage: see the top of ds_kernel.hpp

// Kernels of e_step_range (ds_kernel.hpp) for a class count fixed at compile time, K = 2..5,
// with the per-item sums and posteriors in registers (Lanes) instead of arrays in memory
// (the generic kernel stored every partial sum back to the stack and reloaded the
// posterior for every label it scattered; bench/README.md, issue 19).

// K doubles held in registers: K / 2 pairs and, for odd K, one more double.
template <int K>
struct Lanes {
    static constexpr int kPairs = K / 2;
    Pair pair[kPairs > 0 ? kPairs : 1] = {};
    double last = 0.0;

    static Lanes load(const double *p) {
        Lanes x;
        for (int i = 0; i < kPairs; ++i) x.pair[i] = load_pair(p + 2 * i);
        if (K & 1) x.last = p[K - 1];
        return x;
    }
    void add(const double *p) {
        for (int i = 0; i < kPairs; ++i) pair[i] += load_pair(p + 2 * i);
        if (K & 1) last += p[K - 1];
    }
    void add(const Lanes &o) {
        for (int i = 0; i < kPairs; ++i) pair[i] += o.pair[i];
        if (K & 1) last += o.last;
    }
    void divide(double x) {
        for (int i = 0; i < kPairs; ++i) pair[i] /= x;
        if (K & 1) last /= x;
    }
    void store(double *p) const {
        for (int i = 0; i < kPairs; ++i) store_pair(p + 2 * i, pair[i]);
        if (K & 1) p[K - 1] = last;
    }
    // this[l] = -inf where allowed_j[l] = 0, else unchanged (answer sets are bytes 0 or
    // 1): adds -inf or 0 looked up by the byte, no branch (which classes an item lacks is
    // close to random, and branches on them were mispredicted often).
    void restrict_to(const uint8_t *allowed_j) {
        static constexpr double kAdd[2] = {kMinusInf, 0.0};
        for (int i = 0; i < kPairs; ++i) pair[i] += Pair{kAdd[allowed_j[2 * i]], kAdd[allowed_j[2 * i + 1]]};
        if (K & 1) last += kAdd[allowed_j[K - 1]];
    }
    // The largest of the K values: the value argmax selects (ties have one value),
    // without the branches of an argmax loop (the top class is close to random).
    double top() const {
        double t = kPairs > 0 ? pair[0][0] : last;
        for (int i = 0; i < kPairs; ++i) {
            t = pair[i][0] > t ? pair[i][0] : t;
            t = pair[i][1] > t ? pair[i][1] : t;
        }
        if (K & 1) t = last > t ? last : t;
        return t;
    }
    // p[l] += this[l] for every class.
    void add_to(double *p) const {
        for (int i = 0; i < kPairs; ++i) store_pair(p + 2 * i, load_pair(p + 2 * i) + pair[i]);
        if (K & 1) p[K - 1] += last;
    }
};

// exp(x[l] - top) of every class, x[l] <= top.
template <int K>
Lanes<K> exp_minus(const Lanes<K> &x, double top) {
    Lanes<K> e;
    for (int i = 0; i < Lanes<K>::kPairs; ++i) e.pair[i] = exp_nonpositive(x.pair[i] - top);
    if (K & 1) e.last = exp_nonpositive(Pair{x.last - top, 0.0})[0];
    return e;
}

// Items without labels (rows reserved beyond the labelled items) all have the sums
// log w_l, so the same posterior, top and sum when no classifier adds item terms, as
// in the wide kernel (empty_item, ds_kernel_wide.hpp): with kCopies both kernels below
// form them once (empty_lanes, an EmptyPosterior) and copy them into every such item
// that is not gold and allows every class (copies_empty), adding the same values to the
// log-likelihood and the class mass in the same item order -- the same bits as
// computing each.

// The posterior of an item without labels as e_step_range_items forms it (and
// e_step_range_batched, the same operations): sums = base, the log prior (restricted,
// with `restricted`, by an answer set of every class), exp(s_l - top), their sum in
// class order, the division.
template <int K>
EmptyPosterior<Lanes<K>> empty_lanes(const Lanes<K> &base, bool restricted) {
    static constexpr uint8_t kEveryClass[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    Lanes<K> x = base;
    if (restricted) x.restrict_to(kEveryClass);
    EmptyPosterior<Lanes<K>> e;
    const double top = x.top();
    if (top == kMinusInf) return e;  // a special item (prior fallback): computed
    double s[K];
    x.store(s);
    Lanes<K> v = exp_minus(Lanes<K>::load(s), top);
    double qs[K];
    v.store(qs);
    double sum = 0.0;
    for (int32_t l = 0; l < K; ++l) sum += qs[l];
    v.divide(sum);
    e.q = v;
    e.top = top;
    e.sum = sum;
    e.ready = true;
    return e;
}

// e_step_range_items: how far ahead (in items) the rows are prefetched.
constexpr int64_t kPrefetchItems = 4;

// For tables larger than the caches (many workers): one item at a time, and the rows
// that the item kPrefetchItems ahead reads and writes requested in advance: each label's
// row is a random line of log pi and one of the count table, and the scatter into a
// count table that no longer fits in L2 otherwise waits for each of its lines in turn.
// (The batched kernel below was 20 % slower here: 10^7 labels, 10^5 workers, k = 2.)
// kCopies (the crowd has items without labels, Workspace::empty_items): such items copy
// empty_lanes' posterior (one branch an item) instead of being computed.
template <int K, bool kCopies = false>
void e_step_range_items(const CrowdData &d, ItemRange r, const double *log_pi, const double *log_prior,
                        const double *prior, const uint8_t *allowed, double *q, double *counts,
                        double *prior_sum, double &ll_out, int64_t &impossible_out,
                        const double *item_terms = nullptr) {
    const int64_t *start = d.item_start.data();
    const uint32_t *code = d.item_code.data();
    const int32_t *gold = d.gold.empty() ? nullptr : d.gold.data();
    const Lanes<K> base = Lanes<K>::load(log_prior);
    Lanes<K> prior_local;  // stored once at the end (see scatter_range)
    double ll = 0.0, product = 1.0;
    int64_t impossible = 0;
    EmptyPosterior<Lanes<K>> empty;
    if (kCopies && item_terms == nullptr) empty = empty_lanes<K>(base, allowed != nullptr);
    for (int64_t j = r.first; j < r.last; ++j) {
        const int64_t p0 = start[j], p1 = start[j + 1];
        if (j + kPrefetchItems < r.last) {
            const int64_t a0 = start[j + kPrefetchItems], a1 = start[j + kPrefetchItems + 1];
            for (int64_t p = a0; p < a1; ++p) {
                const int64_t row = static_cast<int64_t>(code[p]) * K;
                __builtin_prefetch(log_pi + row);
                if (K * sizeof(double) > 16) __builtin_prefetch(log_pi + row + K - 1);
                if (counts != nullptr) {
                    __builtin_prefetch(counts + row, 1);
                    if (K * sizeof(double) > 16) __builtin_prefetch(counts + row + K - 1, 1);
                }
            }
        }
        if (kCopies && empty.ready && copies_empty<K>(start, gold, allowed, j)) {
            add_item_term<K>(empty.top, empty.sum, ll, product);
            empty.q.store(q + j * K);
            if (counts != nullptr) prior_local.add(empty.q);  // no labels to scatter
            continue;
        }
        Lanes<K> acc = base;
        for (int64_t p = p0; p < p1; ++p) acc.add(log_pi + static_cast<int64_t>(code[p]) * K);
        if (item_terms != nullptr) acc.add(item_terms + j * K);  // after the labels, as e_step_range
        const uint8_t *allowed_j = allowed != nullptr ? allowed + j * K : nullptr;
        if (allowed_j != nullptr) acc.restrict_to(allowed_j);
        double s[K];
        acc.store(s);
        double qj[K];
        const int32_t g = gold != nullptr ? gold[j] : -1;
        const double top = acc.top();
        if (g >= 0 || top == kMinusInf) {
            settle_special_item<K>(s, g, prior, allowed_j, qj, ll, impossible);
        } else {
            // exp(s_l - top): exactly 1 for the top class (and any tied with it).
            Lanes<K> v = exp_minus(Lanes<K>::load(s), top);
            v.store(qj);
            double sum = 0.0;
            for (int32_t l = 0; l < K; ++l) sum += qj[l];
            v.divide(sum);
            v.store(qj);
            add_item_term<K>(top, sum, ll, product);
        }
        const Lanes<K> v = Lanes<K>::load(qj);
        v.store(q + j * K);
        if (counts != nullptr) {
            for (int64_t p = p0; p < p1; ++p) v.add_to(counts + static_cast<int64_t>(code[p]) * K);
            prior_local.add(v);
        }
    }
    store_range_results(prior_local, prior_sum, ll, product, impossible, ll_out, impossible_out);
}

// The values of item b of a batch at x + b K, packed without gaps (K odd: 2.5 pairs per
// item at K = 5) but written and read only as the pairs at even offsets of x that the
// exponentials' pass loads and stores (a pair loaded from two scalar stores, or from
// halves of two pair stores, waits for them to reach the cache). An item starting at an
// odd offset shares its first pair with the previous item's last value, `carry`; items
// go in order. After the last item of an odd total, store_flat_end writes the carry.
template <int K>
inline void store_flat(double *x, int64_t b, const Lanes<K> &v, double &carry) {
    constexpr int kPairs = Lanes<K>::kPairs;
    const int64_t o = b * K;
    if (K % 2 == 0 || o % 2 == 0) {
        for (int i = 0; i < kPairs; ++i) store_pair(x + o + 2 * i, v.pair[i]);
        if (K & 1) carry = v.last;
        return;
    }
    store_pair(x + o - 1, Pair{carry, v.pair[0][0]});
    for (int i = 0; i + 1 < kPairs; ++i) store_pair(x + o + 1 + 2 * i, Pair{v.pair[i][1], v.pair[i + 1][0]});
    store_pair(x + o + K - 2, Pair{v.pair[kPairs - 1][1], v.last});
}
template <int K>
inline void store_flat_end(double *x, int64_t n, double carry) {
    if (n * K % 2 == 1) store_pair(x + n * K - 1, Pair{carry, 0.0});
}
template <int K>
inline Lanes<K> load_flat(const double *x, int64_t b, double &carry) {
    constexpr int kPairs = Lanes<K>::kPairs;
    const int64_t o = b * K;
    Lanes<K> v;
    if (K % 2 == 0 || o % 2 == 0) {
        for (int i = 0; i < kPairs; ++i) v.pair[i] = load_pair(x + o + 2 * i);
        if (K & 1) {
            const Pair tail = load_pair(x + o + K - 1);  // this item's last, the next one's first
            v.last = tail[0];
            carry = tail[1];
        }
        return v;
    }
    Pair prev = {carry, 0.0};
    for (int i = 0; i < kPairs; ++i) {
        const Pair next = load_pair(x + o + 1 + 2 * i);
        v.pair[i] = Pair{prev[0], next[0]};
        prev = Pair{next[1], 0.0};
    }
    v.last = prev[0];
    return v;
}

// For tables that fit in the caches: the same operations on each item in the same
// order as e_step_range_items (the same posteriors bit for bit), but the items taken
// in batches of kBatch, each in five passes: the sums of every item, then s_l - top of
// every item into one array (store_flat), then the exponentials of that whole array two
// at a time (k = 5: 2.5 calls per item instead of 3), then the posteriors, then their
// scatter into the counts. Item by item, each item was one long chain of dependent
// operations, and branches on its top class and answer set were mispredicted often.
//
// kCopies (the crowd has items without labels, Workspace::empty_items): such items copy
// empty_lanes' posterior instead of being computed; each batch lists the items it
// computes, as e_step_range_batched_wide does. Without it, no list: the kernel as before.
template <int K, bool kCopies = false>
void e_step_range_batched(const CrowdData &d, ItemRange r, const double *log_pi, const double *log_prior,
                          const double *prior, const uint8_t *allowed, double *q, double *counts,
                          double *prior_sum, double &ll_out, int64_t &impossible_out,
                          const double *item_terms = nullptr) {
    const int64_t *start = d.item_start.data();
    const uint32_t *code = d.item_code.data();
    const int32_t *gold = d.gold.empty() ? nullptr : d.gold.data();
    const Lanes<K> base = Lanes<K>::load(log_prior);
    Lanes<K> prior_local;  // stored once at the end (see scatter_range)
    double ll = 0.0, product = 1.0;
    int64_t impossible = 0;
    // Indexed by the batch's computed items (i), which are all its items without copies.
    double sums[kBatch * K], x[kBatch * K + 1], tops[kBatch];
    bool special[kBatch];  // a gold item or one impossible under every class
    ComputedItems<kCopies> computed;  // with kCopies, the batch's items that are not copies
    EmptyPosterior<Lanes<K>> empty;
    if (kCopies && item_terms == nullptr) empty = empty_lanes<K>(base, allowed != nullptr);
    for (int64_t j0 = r.first; j0 < r.last; j0 += kBatch) {
        const int64_t n = std::min<int64_t>(kBatch, r.last - j0);
        computed.template list<K>(start, gold, allowed, j0, n, empty.ready);
        const int64_t m = computed.m;
        const bool every = computed.every;
        const auto item = [&](int64_t i) { return computed.item(i); };  // the batch's i-th computed item
        // log q_jl = log w_l + sum over the labels (i, c) of j of log pi_i[l][c].
        for (int64_t i = 0; i < m; ++i) {
            const int64_t j = item(i);
            Lanes<K> acc = base;
            add_label_rows<K>(acc, code + start[j], code + start[j + 1], log_pi);
            if (item_terms != nullptr) acc.add(item_terms + j * K);  // as e_step_range
            acc.store(sums + i * K);
        }
        // The top class of each item and s_l - top.
        double carry = 0.0;
        for (int64_t i = 0; i < m; ++i) {
            const int64_t j = item(i);
            // In registers, stored as pairs where later passes load pairs (a pair loaded
            // from two scalar stores waits for them to reach the cache).
            double *s = sums + i * K;
            Lanes<K> xv = Lanes<K>::load(s);
            if (allowed != nullptr) {
                xv.restrict_to(allowed + j * K);
                xv.store(s);
            }
            const double top = xv.top();
            tops[i] = top;
            special[i] = (gold != nullptr && gold[j] >= 0) || top == kMinusInf;
            for (int l = 0; l < Lanes<K>::kPairs; ++l) xv.pair[l] = special[i] ? Pair{0.0, 0.0} : xv.pair[l] - top;
            xv.last = special[i] ? 0.0 : xv.last - top;
            store_flat<K>(x, i, xv, carry);
        }
        store_flat_end<K>(x, m, carry);
        // exp(s_l - top): exactly 1 for the top class (and any tied with it).
        for (int64_t e = 0; e < m * K; e += 2) store_pair(x + e, exp_nonpositive(load_pair(x + e)));
        // The posteriors, in item order (the log-likelihood's sums): the items before each
        // computed one that copy `empty`, then that item; then the batch's last copies.
        carry = 0.0;
        int64_t next = j0;  // with kCopies, the batch's first item not yet done
        for (int64_t i = 0; i < m; ++i) {
            const int64_t j = item(i);
            if (kCopies) {
                copy_empty_posteriors<K>(empty, next, j, q, ll, product);
                next = j + 1;
            }
            double *qj = q + j * K;
            Lanes<K> v = load_flat<K>(x, i, carry);  // for every computed item: it carries
            if (special[i]) {
                settle_special_item<K>(sums + i * K, gold != nullptr ? gold[j] : -1, prior,
                                       allowed != nullptr ? allowed + j * K : nullptr, qj, ll, impossible);
                continue;
            }
            double sum = 0.0;  // in class order, as the kernel by item
            for (int l = 0; l < Lanes<K>::kPairs; ++l) {
                sum += v.pair[l][0];
                sum += v.pair[l][1];
            }
            if (K & 1) sum += v.last;
            v.divide(sum);
            v.store(qj);
            add_item_term<K>(tops[i], sum, ll, product);
        }
        if (kCopies) copy_empty_posteriors<K>(empty, next, j0 + n, q, ll, product);
        // The next M-step's counts.
        if (counts == nullptr) continue;
        if (every) {
            scatter_batch<K, K>(start, code, q, j0, n, counts, prior_local);
            continue;
        }
        // With copies: the computed items' labels (the copies have none), then every
        // item's posterior into the class mass in item order, as scatter_batch.
        for (int64_t i = 0; i < m; ++i) {
            const int64_t j = item(i);
            add_to_label_rows<K>(Lanes<K>::load(q + j * K), code + start[j], code + start[j + 1], counts);
        }
        for (int64_t b = 0; b < n; ++b) prior_local.add(Lanes<K>::load(q + (j0 + b) * K));
    }
    store_range_results(prior_local, prior_sum, ll, product, impossible, ll_out, impossible_out);
}

}  // namespace
}  // namespace cs::ds
#endif
