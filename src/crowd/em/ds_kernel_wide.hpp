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

// e_step_range_batched (ds_kernel_lanes.hpp) with WideLanes: the same five passes over
// each batch of kBatch items. The values minus the top of the batch's items are kept
// as one Quad per item (classes 0-3) and, at K = 5, the fifth values as one Quad per
// four items, assembled in registers, so that the exponentials' pass loads every Quad
// from one store of the same size (a Quad loaded from four scalar stores waits for
// them to reach the cache).
template <int K>
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
    V sums[kBatch];
    Quad heads[kBatch], fifths[kBatch / 4];
    double tops[kBatch];
    bool special[kBatch];  // a gold item or one impossible under every class
    for (int64_t j0 = r.first; j0 < r.last; j0 += kBatch) {
        const int64_t n = std::min<int64_t>(kBatch, r.last - j0);
        // log q_jl = log w_l + sum over the labels (i, c) of j of log pi_i[l][c].
        for (int64_t b = 0; b < n; ++b) {
            V acc = base;
            add_label_rows<wide_row(K)>(acc, code + start[j0 + b], code + start[j0 + b + 1], log_pi);
            // A classifier's terms after the labels, as e_step_range adds them (loaded as
            // K values: unpadded rows).
            if (item_terms != nullptr) acc.add(V::load(item_terms + (j0 + b) * K));
            sums[b] = acc;
        }
        // The top class of each item and s_l - top (0 for a special item, whose
        // exponentials are not used).
        for (int64_t b0 = 0; b0 < n; b0 += 4) {
            double fifth[4] = {0.0, 0.0, 0.0, 0.0};
            for (int64_t b = b0; b < std::min<int64_t>(n, b0 + 4); ++b) {
                const int64_t j = j0 + b;
                V &xv = sums[b];
                if (allowed != nullptr) xv.restrict_to(allowed + j * K);
                const double top = xv.top();
                tops[b] = top;
                special[b] = (gold != nullptr && gold[j] >= 0) || top == kMinusInf;
                heads[b] = special[b] ? Quad{0.0, 0.0, 0.0, 0.0} : xv.head - top;
                if (K == 3) heads[b][3] = 0.0;  // the padding: exp's argument must be <= 0
                fifth[b - b0] = special[b] ? 0.0 : xv.last - top;
            }
            if (K == 5) fifths[b0 / 4] = Quad{fifth[0], fifth[1], fifth[2], fifth[3]};
        }
        // exp(s_l - top): exactly 1 for the top class (and any tied with it).
        for (int64_t b = 0; b < n; ++b) heads[b] = exp_nonpositive_quad(heads[b]);
        if (K == 5)
            for (int64_t g = 0; g < (n + 3) / 4; ++g) fifths[g] = exp_nonpositive_quad(fifths[g]);
        // The posteriors.
        for (int64_t b = 0; b < n; ++b) {
            const int64_t j = j0 + b;
            double *qj = q + j * K;
            if (special[b]) {
                double s[K];
                sums[b].store(s);
                settle_special_item<K>(s, gold != nullptr ? gold[j] : -1, prior,
                                       allowed != nullptr ? allowed + j * K : nullptr, qj, ll, impossible);
                continue;
            }
            V v;
            v.head = heads[b];
            if (K == 5) v.last = fifths[b / 4][b % 4];
            double sum = 0.0;  // in class order, as the kernel by item
            for (int l = 0; l < V::kHead; ++l) sum += v.head[l];
            if (K == 5) sum += v.last;
            v.head /= sum;
            if (K == 5) v.last /= sum;
            add_item_term<K>(tops[b], sum, ll, product);
            v.store(qj);
        }
        // The next M-step's counts, in a pass of their own as in the pair kernel (adding
        // each item's posterior while it is in registers was measured slower).
        if (counts != nullptr) scatter_batch<K, wide_row(K)>(start, code, q, j0, n, counts, prior_local);
    }
    store_range_results(prior_local, prior_sum, ll, product, impossible, ll_out, impossible_out);
}

}  // namespace
}  // namespace cs::ds
#endif
