// SPDX-License-Identifier: MIT
// The batched E-step kernel for K = 3, 4 and 5 classes on processors with AVX2: an
// item's first four values in one 256-bit register (util/simd_quad.hpp; at K = 3 the
// fourth lane is padding, 0 in every table row) and, at K = 5, the fifth in a scalar,
// where the pair kernel (ds_kernel_lanes.hpp, e_step_range_batched) holds them in two
// or three SSE2 pairs (K = 3: a pair and a scalar). Per label that is one or two loads
// and additions instead of two or three for the sums, and as many fewer loads,
// additions and stores for the scatter of the counts; the exponentials of a batch take
// four values a call.
// The same operations on each value in the same order as e_step_range_batched, so the
// same posteriors, counts and log-likelihood bit for bit (bench/check_em_change.sh),
// with a classifier's item terms as well (`item_terms`, n_items x K unpadded, or null).
// Header-only for inlining; ds_e_step.cpp runs it where cpu_has_avx2().
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "crowd/em/ds_kernel.hpp"
#include "util/simd_quad.hpp"

#if defined(CS_HAVE_QUAD)
namespace cs::ds {
namespace {  // internal linkage: see the top of ds_kernel.hpp

// K = 3, 4 or 5 doubles: classes 0-3 in `head` (K = 3: lane 3 is padding, never read
// into a class's value), class 4 (K = 5) in `last`. load and store read and write K
// doubles (a row of q or of the prior); add and add_to take a padded table row of
// wide_row(K) doubles.
template <int K>
struct WideLanes {
    static_assert(K >= 3 && K <= 5, "WideLanes holds 3, 4 or 5 classes");
    static constexpr int kHead = K == 3 ? 3 : 4;  // classes in `head`
    Quad head = {};
    double last = 0.0;

    CS_TARGET_AVX2 static WideLanes load(const double *p) {
        WideLanes x;
        x.head = K == 3 ? Quad{p[0], p[1], p[2], 0.0} : load_quad(p);
        if (K == 5) x.last = p[4];
        return x;
    }
    CS_TARGET_AVX2 void add(const double *p) {
        head += load_quad(p);
        if (K == 5) last += p[4];
    }
    CS_TARGET_AVX2 void add(const WideLanes &o) {
        head += o.head;
        if (K == 5) last += o.last;
    }
    CS_TARGET_AVX2 void store(double *p) const {
        if (K == 3) {
            for (int l = 0; l < 3; ++l) p[l] = head[l];
        } else {
            store_quad(p, head);
        }
        if (K == 5) p[4] = last;
    }
    // p[l] += this[l] for every class.
    CS_TARGET_AVX2 void add_to(double *p) const {
        store_quad(p, load_quad(p) + head);
        if (K == 5) p[4] += last;
    }
    // this[l] = -inf where allowed_j[l] = 0 (Lanes::restrict_to: -inf or 0 added,
    // looked up by the bytes, no branch).
    CS_TARGET_AVX2 void restrict_to(const uint8_t *allowed_j) {
        static constexpr double kAdd[2] = {kMinusInf, 0.0};
        head += Quad{kAdd[allowed_j[0]], kAdd[allowed_j[1]], kAdd[allowed_j[2]], K == 3 ? 0.0 : kAdd[allowed_j[3]]};
        if (K == 5) last += kAdd[allowed_j[4]];
    }
    // The largest value, compared in Lanes::top's order (class 0 twice, then 1, 2, ...).
    CS_TARGET_AVX2 double top() const {
        double t = head[0];
        for (int l = 0; l < kHead; ++l) t = head[l] > t ? head[l] : t;
        if (K == 5) t = last > t ? last : t;
        return t;
    }
};

// An item's exponentials (WideLanes) divided by their sum, added in class order as the
// kernel by item adds them; returns the sum.
template <int K>
CS_TARGET_AVX2 __attribute__((always_inline)) inline double normalise(WideLanes<K> &v) {
    double sum = 0.0;
    for (int l = 0; l < WideLanes<K>::kHead; ++l) sum += v.head[l];
    if (K == 5) sum += v.last;
    v.head /= sum;
    if (K == 5) v.last /= sum;
    return sum;
}

// Items without labels (rows reserved beyond the labelled items, e.g. by CS_PARAM_ITEMS
// or a stream's future items) all have the sums log w_l, restricted by an answer set
// of every class (answer_sets), so the same posterior, top and sum when no classifier
// adds item terms: e_step_range_batched_wide forms them once (empty_item) and copies
// them into every such item that is not gold, adding the same values to the
// log-likelihood and the class mass in the same item order -- the same bits as
// computing each. Measured on 3*10^5 labels over 10^6 item rows, 26 % of them labelled
// (auto, 1 thread, CPU s, medians of 6 alternated): the 738,000 empty rows at the end,
// k = 3 1.02 -> 0.57 s, k = 5 1.48 -> 0.82 s (0.41 and 0.46-0.54 s for the same labels
// without them); scattered at random among the labelled ones, k = 3 1.32 -> 0.96 s.
// The posterior of an item without labels as the kernel's passes form it (sums = base,
// the log prior; restricted, with `restricted`, by an answer set of every class).
template <int K>
CS_TARGET_AVX2 EmptyPosterior<WideLanes<K>> empty_item(const WideLanes<K> &base, bool restricted) {
    static constexpr uint8_t kEveryClass[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    WideLanes<K> x = base;
    if (restricted) x.restrict_to(kEveryClass);
    EmptyPosterior<WideLanes<K>> e;
    const double top = x.top();
    if (top == kMinusInf) return e;  // a special item (prior fallback): computed
    Quad head = x.head - top;
    if (K == 3) head[3] = 0.0;
    e.q.head = exp_nonpositive_quad(head);
    if (K == 5) e.q.last = exp_nonpositive_quad(Quad{x.last - top, 0.0, 0.0, 0.0})[0];
    e.sum = normalise(e.q);
    e.ready = true;
    e.top = top;
    return e;
}

// e_step_range_batched (ds_kernel_lanes.hpp) with WideLanes: the same five passes over
// each batch of kBatch items. The values minus the top of the batch's items are kept
// as one Quad per item (classes 0-3) and, at K = 5, the fifth values as one Quad per
// four items, assembled in registers, so that the exponentials' pass loads every Quad
// from one store of the same size (a Quad loaded from four scalar stores waits for
// them to reach the cache).
//
// kCopies (the crowd has items without labels, Workspace::empty_items): items without
// labels take empty_item's posterior instead of being computed (EmptyPosterior); each batch
// lists the items it computes. Without it, no list: the kernel as before.
template <int K, bool kCopies>
CS_TARGET_AVX2 void e_step_range_batched_wide(const CrowdData &d, ItemRange r, const double *log_pi,
                                              const double *log_prior, const double *prior, const uint8_t *allowed,
                                              double *q, double *counts, double *prior_sum, double &ll_out,
                                              int64_t &impossible_out, const double *item_terms = nullptr) {
    using V = WideLanes<K>;
    const int64_t *start = d.item_start.data();
    const uint32_t *code = d.item_code.data();
    const int32_t *gold = d.gold.empty() ? nullptr : d.gold.data();
    const V base = V::load(log_prior);
    V prior_local;  // stored once at the end (see scatter_range)
    double ll = 0.0, product = 1.0;
    int64_t impossible = 0;
    static_assert(kBatch % 4 == 0, "the fifth values go four items to a Quad");
    V sums[kBatch];  // below, indexed by the batch's computed items (i), not by item
    Quad heads[kBatch], fifths[kBatch / 4];
    double tops[kBatch];
    bool special[kBatch];  // a gold item or one impossible under every class
    ComputedItems<kCopies> computed;  // with kCopies, the batch's items that are not copies
    EmptyPosterior<WideLanes<K>> empty;
    if (kCopies && item_terms == nullptr) empty = empty_item<K>(base, allowed != nullptr);
    for (int64_t j0 = r.first; j0 < r.last; j0 += kBatch) {
        const int64_t n = std::min<int64_t>(kBatch, r.last - j0);
        computed.template list<K>(start, gold, allowed, j0, n, empty.ready);
        const int64_t m = computed.m;
        const bool every = computed.every;
        const auto item = [&](int64_t i) { return computed.item(i); };  // the batch's i-th computed item
        // log q_jl = log w_l + sum over the labels (i, c) of j of log pi_i[l][c].
        for (int64_t i = 0; i < m; ++i) {
            const int64_t j = item(i);
            V acc = base;
            add_label_rows<wide_row(K)>(acc, code + start[j], code + start[j + 1], log_pi);
            // A classifier's terms after the labels, as e_step_range adds them (loaded as
            // K values: unpadded rows).
            if (item_terms != nullptr) acc.add(V::load(item_terms + j * K));
            sums[i] = acc;
        }
        // The top class of each item and s_l - top (0 for a special item, whose
        // exponentials are not used).
        for (int64_t i0 = 0; i0 < m; i0 += 4) {
            double fifth[4] = {0.0, 0.0, 0.0, 0.0};
            for (int64_t i = i0; i < std::min<int64_t>(m, i0 + 4); ++i) {
                const int64_t j = item(i);
                V &xv = sums[i];
                if (allowed != nullptr) xv.restrict_to(allowed + j * K);
                const double top = xv.top();
                tops[i] = top;
                special[i] = (gold != nullptr && gold[j] >= 0) || top == kMinusInf;
                heads[i] = special[i] ? Quad{0.0, 0.0, 0.0, 0.0} : xv.head - top;
                if (K == 3) heads[i][3] = 0.0;  // the padding: exp's argument must be <= 0
                fifth[i - i0] = special[i] ? 0.0 : xv.last - top;
            }
            if (K == 5) fifths[i0 / 4] = Quad{fifth[0], fifth[1], fifth[2], fifth[3]};
        }
        // exp(s_l - top): exactly 1 for the top class (and any tied with it).
        for (int64_t i = 0; i < m; ++i) heads[i] = exp_nonpositive_quad(heads[i]);
        if (K == 5)
            for (int64_t g = 0; g < (m + 3) / 4; ++g) fifths[g] = exp_nonpositive_quad(fifths[g]);
        // The posteriors, in item order (the log-likelihood's sums): the items before each
        // computed one that copy `empty`, then that item; then the batch's last copies.
        int64_t next = j0;  // with kCopies, the batch's first item not yet done
        for (int64_t i = 0; i < m; ++i) {
            const int64_t j = item(i);
            if (kCopies) {
                copy_empty_posteriors<K>(empty, next, j, q, ll, product);
                next = j + 1;
            }
            double *qj = q + j * K;
            if (special[i]) {
                double s[K];
                sums[i].store(s);
                settle_special_item<K>(s, gold != nullptr ? gold[j] : -1, prior,
                                       allowed != nullptr ? allowed + j * K : nullptr, qj, ll, impossible);
                continue;
            }
            V v;
            v.head = heads[i];
            if (K == 5) v.last = fifths[i / 4][i % 4];
            const double sum = normalise(v);
            add_item_term<K>(tops[i], sum, ll, product);
            v.store(qj);
        }
        if (kCopies) copy_empty_posteriors<K>(empty, next, j0 + n, q, ll, product);
        // The next M-step's counts, in a pass of their own as in the pair kernel (adding
        // each item's posterior while it is in registers was measured slower).
        if (counts == nullptr) continue;
        if (every) {
            scatter_batch<K, wide_row(K)>(start, code, q, j0, n, counts, prior_local);
            continue;
        }
        // With copies: the computed items' labels (the copies have none: a loop over
        // their zero labels per item was a branch the processor could not predict), then
        // every item's posterior into the class mass in item order, as scatter_batch.
        for (int64_t i = 0; i < m; ++i) {
            const int64_t j = item(i);
            add_to_label_rows<wide_row(K)>(V::load(q + j * K), code + start[j], code + start[j + 1], counts);
        }
        for (int64_t b = 0; b < n; ++b) prior_local.add(V::load(q + (j0 + b) * K));
    }
    store_range_results(prior_local, prior_sum, ll, product, impossible, ll_out, impossible_out);
}

}  // namespace
}  // namespace cs::ds
#endif
