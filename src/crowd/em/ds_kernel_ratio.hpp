// SPDX-License-Identifier: MIT
// The E-step kernel of k = 2 that reads one number per label, the log ratio of the
// label's two log pi entries (e_step_range_ratio), and its out-of-line path for the
// items that need both sums (a label without a ratio, an impossible gold item). The
// M-step fills the ratios (ds_m_step.cpp, fill_ratios) and says when this kernel may
// run (finish_ratios). Header-only for inlining; ds_e_step.cpp picks the kernel.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "crowd/em/ds_kernel.hpp"
#include "util/simd_pair.hpp"

#if defined(CS_HAVE_PAIR)
namespace cs::ds {
namespace {  // internal linkage: see the top of ds_kernel.hpp

// e_step_range_ratio: how far ahead (in items) its rows are requested. Its rows are 8
// and 16 bytes (one line per label), and a round of 10^7 labels from 10^5 workers at
// k = 2 was 6 % faster 12 items ahead than 4 (8 and 16 the same as 12, 24 slower;
// Xeon with 2 MiB L2 a core), while e_step_range_items at k = 3 was 13 % slower at 12.
constexpr int64_t kRatioPrefetchItems = 12;

// e_step_range_ratio, the batch of items j0 .. j0 + n - 1 with sums dsum, not all above
// -inf: lists (in `listed`, and as bits of `mask`) those to be taken from the two sums --
// NaN: a label without a ratio; -inf on a gold item of class 0: impossible as gold --
// and sets their d to -inf, which adds nothing in the pairs' pass (e = 0, 1 + e = 1,
// max(d, 0) = 0). Their log pi rows, random lines of a table that may be beyond the
// caches, are requested here and read after that pass (take_two_sum_items). Returns
// their number. Out of line, and called only for a batch whose sum says so: a test per
// item, or this search inlined, made the kernel 2-3 % slower on crowds that never need
// it (10^6 labels, 1,000 workers).
__attribute__((noinline, cold)) int64_t list_two_sum_items(const CrowdData &d, int64_t j0, int64_t n,
                                                           const double *log_pi, double *dsum, int64_t *listed,
                                                           uint32_t &mask) {
    const int64_t *start = d.item_start.data();
    const uint32_t *code = d.item_code.data();
    int64_t n_listed = 0;
    for (int64_t b = 0; b < n; ++b) {
        const double x = dsum[b];
        const int64_t j = j0 + b;
        if (x > kMinusInf || !(std::isnan(x) || (!d.gold.empty() && d.gold[j] == 0))) continue;
        listed[n_listed++] = b;
        mask |= uint32_t{1} << b;
        dsum[b] = kMinusInf;
        for (int64_t p = start[j]; p < start[j + 1]; ++p) __builtin_prefetch(log_pi + 2 * int64_t{code[p]});
    }
    return n_listed;
}

// e_step_range_ratio: the listed items of a batch from their two sums s_l = log w_l +
// the sum over the item's labels of log pi[c][l] (posterior_from_sums, as e_step_range
// takes them), their posteriors into q. In place of the pairs' max(d, 0) and 1 + e, each
// adds to `gain` its log-likelihood less its share of ratio_ll (log w_1 and the log
// pi[c][1] of its labels with a ratio), and multiplies `product` by its sum (its log
// goes into ll before the product can overflow). An impossible item gets the prior and
// adds nothing beyond cancelling its share, as in the other kernels; it is counted.
__attribute__((noinline)) void take_two_sum_items(const CrowdData &d, int64_t j0, const int64_t *listed,
                                                  int64_t n_listed, const double *ratio, const double *log_pi,
                                                  const double *log_prior, const double *prior, double *q, double &gain,
                                                  double &product, double &ll, int64_t &impossible) {
    const int64_t *start = d.item_start.data();
    const uint32_t *code = d.item_code.data();
    for (int64_t i = 0; i < n_listed; ++i) {
        const int64_t j = j0 + listed[i];
        double s[2] = {log_prior[0], log_prior[1]};
        double share = log_prior[1];
        for (int64_t p = start[j]; p < start[j + 1]; ++p) {
            const double *row = log_pi + 2 * static_cast<int64_t>(code[p]);
            s[0] += row[0];
            s[1] += row[1];
            if (!std::isnan(ratio[code[p]])) share += row[1];
        }
        const int32_t g = d.gold.empty() ? -1 : d.gold[j];
        const ItemPosterior item = posterior_from_sums<2>(s, 2, g, prior, nullptr, q + 2 * j);
        gain += item.impossible ? -share : item.top - share;
        if (product > kFlush / 2) {
            ll += std::log(product);
            product = 1.0;
        }
        product *= item.impossible ? 1.0 : item.sum;
        impossible += item.impossible;
    }
}

// e_step_range_ratio's pair pass for two items with d = x (one per lane): the
// posterior q_top = 1 / (1 + e), q_other = e / (1 + e) with e = exp(-|d|), class 0 on
// top where d >= 0, the log-likelihood parts max(d, 0) (gain) and 1 + e (sum). Each
// lane depends on its own d only, and always inlined, so that it takes the same IEEE
// operations wherever it is called: an item gets the same bits in any lane of any pair.
struct RatioLanes {
    Pair q0, q1, gain, sum;
};

__attribute__((always_inline)) inline RatioLanes ratio_lanes(Pair x) {
    const PairBits sign = {0x8000000000000000ull, 0x8000000000000000ull};
    PairBits bits;
    std::memcpy(&bits, &x, sizeof bits);
    bits |= sign;
    Pair minus_abs;  // -|d|
    std::memcpy(&minus_abs, &bits, sizeof minus_abs);
    const Pair e = exp_nonpositive(minus_abs);
    RatioLanes r;
    r.sum = 1.0 + e;
    const Pair top = 1.0 / r.sum, other = e / r.sum;
    // Class 0 on top where d >= 0: selected by masks, not branches (the top class of
    // random items is a coin flip for the branch predictor).
    const PairBits zero_top = x >= 0.0;
    PairBits tb, ob;
    std::memcpy(&tb, &top, sizeof tb);
    std::memcpy(&ob, &other, sizeof ob);
    const PairBits q0b = (tb & zero_top) | (ob & ~zero_top), q1b = (ob & zero_top) | (tb & ~zero_top);
    std::memcpy(&r.q0, &q0b, sizeof r.q0);
    std::memcpy(&r.q1, &q1b, sizeof r.q1);
    r.gain = x > 0.0 ? x : Pair{0.0, 0.0};  // max(d, 0)
    return r;
}

// e_step_range_ratio with items without labels (kCopies): one batch's pair-pass values
// by position, positions 0 .. n (n: the odd last pair's second lane, d = -inf).
struct BatchLanes {
    double q0[kBatch + 2], q1[kBatch + 2], gain[kBatch + 2], sum[kBatch + 2];
};

// The values of the batch's n items with sums dsum (dsum[n] = -inf): an item whose d is
// `base` -- every item without labels: d = log w_0 - log w_1 -- takes `empty`'s,
// computed once per E-step, and the others are computed two at a time in the order
// they come. ratio_lanes is lane by lane, so each item gets the bits the pair pass
// would give it, and the kernel adds and multiplies them in the same order as without
// copies. Where three quarters of the rows are empty this leaves a quarter of the
// exponentials and divisions (bench/empty_rows.py --k 2), the kernel's cost.
__attribute__((always_inline)) inline void lanes_of_batch(const double *dsum, int64_t n, double base,
                                                          const RatioLanes &empty, BatchLanes &out) {
    int64_t todo[kBatch + 1];
    int64_t n_todo = 0;
    for (int64_t b = 0; b < n; ++b) {
        out.q0[b] = empty.q0[0];
        out.q1[b] = empty.q1[0];
        out.gain[b] = empty.gain[0];
        out.sum[b] = empty.sum[0];
        todo[n_todo] = b;
        n_todo += !(dsum[b] == base);  // branch-free; a NaN sum is computed
    }
    // Position n as ratio_lanes gives d = -inf: e = 0, q = (0, 1), max(d, 0) = 0, sum 1.
    out.q0[n] = 0.0;
    out.q1[n] = 1.0;
    out.gain[n] = 0.0;
    out.sum[n] = 1.0;
    todo[n_todo] = n;  // an odd count's last pair takes position n as its second lane
    for (int64_t t = 0; t < n_todo; t += 2) {
        const int64_t b0 = todo[t], b1 = todo[t + 1];
        const RatioLanes r = ratio_lanes(Pair{dsum[b0], dsum[b1]});
        out.q0[b0] = r.q0[0];
        out.q1[b0] = r.q1[0];
        out.gain[b0] = r.gain[0];
        out.sum[b0] = r.sum[0];
        out.q0[b1] = r.q0[1];
        out.q1[b1] = r.q1[1];
        out.gain[b1] = r.gain[1];
        out.sum[b1] = r.sum[1];
    }
}

// The E-step of k = 2 from one number per label. With d_j = log w_0 - log w_1 + the sum
// over j's labels of ratio[c] (= s_j0 - s_j1 of the kernels above), the posterior is
// q_top = 1 / (1 + e), q_other = e / (1 + e), e = exp(-|d_j|), the top class 0 when
// d_j >= 0 (ties to class 0, as in argmax); and log(exp s_j0 + exp s_j1) = s_j1 +
// max(d_j, 0) + log(1 + e). The s_j1 of all items add up to sum_c n_c log pi[c][1] +
// n_items log w_1 (ratio_ll, per round over the codes), so the kernel adds only the rest.
// Used when no answer set restricts and few labels lack a ratio (finish_ratios): one
// 8-byte load and one add per label in the sums instead of a 16-byte row, the
// exponentials of two items in one register, no branch on the top class. An item with a
// label without a ratio (its sum is NaN), and a gold item of class 0 with a ratio of
// -inf (impossible as gold), are taken from the two sums (take_two_sum_items). A ratio of
// -inf (log pi[c][0] = -inf) needs nothing else: d = -inf gives q = (0, 1), max(d, 0) =
// 0 and 1 + e = 1, so the item adds s_j1, as the two-sum kernels do. Posteriors differ
// from the two-sum kernels by the rounding of d_j (about 1e-15); the counts are
// scattered exactly as there. Batches as e_step_range_batched;
// with kPrefetch (tables beyond the caches), the rows of the item kRatioPrefetchItems ahead
// are requested in the sums' and the scatter's passes.
template <bool kPrefetch, bool kCopies>
void e_step_range_ratio(const CrowdData &d, ItemRange r, const double *ratio, const double *log_pi,
                        const double *log_prior, const double *prior, double *q, double *counts, double *prior_sum,
                        double &ll_out, int64_t &impossible_out) {
    const double base = log_prior[0] - log_prior[1];
    const int64_t *start = d.item_start.data();
    const uint32_t *code = d.item_code.data();
    const int32_t *gold = d.gold.empty() ? nullptr : d.gold.data();
    Pair prior_local = {0.0, 0.0};
    // Two lanes, items alternating: the sums of max(d, 0) and the products of 1 + e.
    Pair gains = {0.0, 0.0}, products = {1.0, 1.0};
    double ll = 0.0;
    double dsum[kBatch + 1];
    // The items taken from the two sums: their posteriors, and their parts of the
    // log-likelihood added and multiplied apart from the pairs' (listed_gain, _product).
    int64_t listed[kBatch];
    double listed_gain = 0.0, listed_product = 1.0;
    int64_t impossible = 0;
    // kCopies (the crowd has items without labels, Workspace::empty_items): the pair
    // pass's values of such an item, once (lanes_of_batch).
    RatioLanes empty = {};
    BatchLanes lanes;
    if (kCopies) empty = ratio_lanes(Pair{base, base});
    for (int64_t j0 = r.first; j0 < r.last; j0 += kBatch) {
        const int64_t n = std::min<int64_t>(kBatch, r.last - j0);
        // The sum of the batch's d: NaN or -inf when one of them is (no ratio is +inf, and
        // no sum of them overflows).
        double all = 0.0;
        for (int64_t b = 0; b < n; ++b) {
            const int64_t j = j0 + b;
            if (kPrefetch && j + kRatioPrefetchItems < r.last)
                for (int64_t p = start[j + kRatioPrefetchItems]; p < start[j + kRatioPrefetchItems + 1]; ++p)
                    __builtin_prefetch(ratio + code[p]);
            double x = base;
            int64_t p = start[j];
            const int64_t end = start[j + 1];
            for (; p + 1 < end; p += 2) {  // the same order of additions, two per step
                x += ratio[code[p]];
                x += ratio[code[p + 1]];
            }
            if (p < end) x += ratio[code[p]];
            dsum[b] = x;
            all += x;
        }
        int64_t n_listed = 0;
        uint32_t listed_mask = 0;  // bit b: item j0 + b listed
        if (__builtin_expect(!(all > kMinusInf), 0))
            n_listed = list_two_sum_items(d, j0, n, log_pi, dsum, listed, listed_mask);
        // The second lane of an odd last pair: -inf gives e = 0, sum = 1, max(d, 0) = 0.
        dsum[n] = kMinusInf;
        if (kCopies) lanes_of_batch(dsum, n, base, empty, lanes);
        for (int64_t b = 0; b < n; b += 2) {
            const Pair x = load_pair(dsum + b);
            RatioLanes pair;
            if (kCopies) {
                pair.q0 = load_pair(lanes.q0 + b);
                pair.q1 = load_pair(lanes.q1 + b);
                pair.gain = load_pair(lanes.gain + b);
                pair.sum = load_pair(lanes.sum + b);
            } else {
                pair = ratio_lanes(x);
            }
            Pair q0 = pair.q0, q1 = pair.q1, gain = pair.gain, sum = pair.sum;
            if (gold != nullptr)
                for (int64_t i = 0; i < 2 && b + i < n; ++i) {
                    const int32_t g = gold[j0 + b + i];
                    if (g < 0 || (listed_mask >> (b + i) & 1u)) continue;
                    // Pinned to g: adds s_g = s_1 + (g == 0 ? d : 0), no log(sum).
                    q0[i] = g == 0 ? 1.0 : 0.0;
                    q1[i] = g == 0 ? 0.0 : 1.0;
                    gain[i] = g == 0 ? x[i] : 0.0;
                    sum[i] = 1.0;
                }
            gains += gain;
            if (products[0] > kFlush / 2 || products[1] > kFlush / 2) {
                ll += std::log(products[0]) + std::log(products[1]);
                products = Pair{1.0, 1.0};
            }
            products *= sum;
            double *qj = q + 2 * (j0 + b);
            store_pair(qj, Pair{q0[0], q1[0]});
            if (b + 1 < n) store_pair(qj + 2, Pair{q0[1], q1[1]});
        }
        if (n_listed > 0)
            take_two_sum_items(d, j0, listed, n_listed, ratio, log_pi, log_prior, prior, q, listed_gain, listed_product,
                               ll, impossible);
        if (counts == nullptr) continue;
        for (int64_t b = 0; b < n; ++b) {
            const int64_t j = j0 + b;
            if (kPrefetch && j + kRatioPrefetchItems < r.last)
                for (int64_t p = start[j + kRatioPrefetchItems]; p < start[j + kRatioPrefetchItems + 1]; ++p)
                    __builtin_prefetch(counts + 2 * static_cast<int64_t>(code[p]), 1);
            const Pair v = load_pair(q + 2 * j);
            const uint32_t *c = code + start[j], *const c_end = code + start[j + 1];  // read once
            for (; c + 1 < c_end; c += 2) {
                double *row0 = counts + 2 * static_cast<int64_t>(c[0]);
                store_pair(row0, load_pair(row0) + v);
                double *row1 = counts + 2 * static_cast<int64_t>(c[1]);
                store_pair(row1, load_pair(row1) + v);
            }
            if (c < c_end) {
                double *row = counts + 2 * static_cast<int64_t>(c[0]);
                store_pair(row, load_pair(row) + v);
            }
            prior_local += v;
        }
    }
    if (prior_sum != nullptr) store_pair(prior_sum, prior_local);
    ll_out = ll + (gains[0] + gains[1]) + (std::log(products[0]) + std::log(products[1]));
    ll_out += listed_gain + std::log(listed_product);  // + 0 without listed items: the same bits
    impossible_out = impossible;
}

}  // namespace
}  // namespace cs::ds
#endif
