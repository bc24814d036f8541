// SPDX-License-Identifier: MIT
// The E-step (Z-4) of one item, and the kernel that takes a partition of items through
// it for any number of classes (e_step_range): the reference that the specialised
// kernels (ds_kernel_lanes.hpp for K = 2..5, ds_kernel_ratio.hpp for k = 2) follow
// operation for operation. Also the scatter of posteriors into count tables that every
// kernel ends with (the M-step counts, Z-5).
//
// The kernels are headers because they run once per item or label, and everything in
// the three ds_kernel*.hpp has internal linkage (an unnamed namespace): each is compiled
// in the one translation unit that runs it -- ds_e_step.cpp the E-step kernels,
// ds_settle.cpp the update rounds', ds_m_step.cpp scatter_range -- and laid out there
// as when all of Dawid-Skene EM was one file (per-item helpers inlined, rare paths
// split off into cold sections, the same machine code). Include them from no other
// file.
#pragma once

#include <cmath>
#include <cstdint>

#include "crowd/em/ds_workspace.hpp"
#include "data/crowd_data.hpp"
#include "data/item_partitions.hpp"
#include "util/per_class.hpp"

namespace cs::ds {
namespace {  // internal linkage: see the top of ds_kernel.hpp

// Whether the running product of the items' sums (the batched logs of the
// log-likelihood, see e_step_range) may grow further: each sum is at most k, so a
// product below kFlush / k stays below kFlush after one more.
constexpr double kFlush = 1e250;

// Items of one batch (e_step_range_batched, e_step_range_ratio).
constexpr int64_t kBatch = 16;

// An item that is impossible under every allowed class gets the prior restricted to
// its allowed classes (the whole prior without a support restriction); uniform over
// them if the prior gives them no mass.
void prior_fallback(const double *prior, const uint8_t *allowed, int32_t k, double *qj) {
    double mass = 0.0;
    int32_t n_allowed = 0;
    for (int32_t l = 0; l < k; ++l) {
        const bool ok = allowed == nullptr || allowed[l];
        qj[l] = ok ? prior[l] : 0.0;
        mass += qj[l];
        n_allowed += ok;
    }
    for (int32_t l = 0; l < k; ++l)
        qj[l] = mass > 0.0 ? qj[l] / mass : (allowed == nullptr || allowed[l]) ? 1.0 / n_allowed : 0.0;
}

// The batched kernels' rare items, from their sums s (Z-4): a gold item is pinned to
// its class and adds s[gold] to the log-likelihood (or, impossible, nothing); any
// other item comes here only when every class is impossible, and gets the prior
// restricted to allowed_j (prior_fallback) and adds nothing.
template <int K>
inline void settle_special_item(const double *s, int32_t gold, const double *prior, const uint8_t *allowed_j,
                                double *qj, double &ll, int64_t &impossible) {
    if (gold >= 0) {
        for (int32_t l = 0; l < K; ++l) qj[l] = 0.0;
        qj[gold] = 1.0;
        if (s[gold] == kMinusInf) ++impossible;
        else ll += s[gold];
    } else {
        prior_fallback(prior, allowed_j, K, qj);
        ++impossible;
    }
}

// The batched kernels' loops over one item's labels, codes [c, c_end), where code c's
// row is at rows + c * Row and V holds k values (Lanes, WideLanes): acc += every row,
// in label order, two a step (the sums of Z-4); and v added into every row (the
// scatter of the counts). Always inlined, so that they are compiled for the kernel's
// target (SSE2 or AVX2).
template <int64_t Row, class V>
__attribute__((always_inline)) inline void add_label_rows(V &acc, const uint32_t *c, const uint32_t *c_end,
                                                          const double *rows) {
    for (; c + 1 < c_end; c += 2) {
        acc.add(rows + static_cast<int64_t>(c[0]) * Row);
        acc.add(rows + static_cast<int64_t>(c[1]) * Row);
    }
    if (c < c_end) acc.add(rows + static_cast<int64_t>(*c) * Row);
}
template <int64_t Row, class V>
__attribute__((always_inline)) inline void add_to_label_rows(const V &v, const uint32_t *c, const uint32_t *c_end,
                                                             double *rows) {
    for (; c + 1 < c_end; c += 2) {
        v.add_to(rows + static_cast<int64_t>(c[0]) * Row);
        v.add_to(rows + static_cast<int64_t>(c[1]) * Row);
    }
    if (c < c_end) v.add_to(rows + static_cast<int64_t>(*c) * Row);
}

// The batched kernels' last pass: the posteriors of items [j0, j0 + n) added into the
// count rows of their labels (add_to_label_rows) and into the prior sums. (As far as the
// compiler knows the stores into counts may alias start and code: the bounds are read
// once.)
template <int K, int64_t Row, class V>
__attribute__((always_inline)) inline void scatter_batch(const int64_t *start, const uint32_t *code, const double *q,
                                                         int64_t j0, int64_t n, double *counts, V &prior_local) {
    for (int64_t b = 0; b < n; ++b) {
        const V v = V::load(q + (j0 + b) * K);
        add_to_label_rows<Row>(v, code + start[j0 + b], code + start[j0 + b + 1], counts);
        prior_local.add(v);
    }
}

// Whether item j takes the posterior the kernels form once for items without labels
// (EmptyPosterior: empty_item in ds_kernel_wide.hpp, empty_lanes in ds_kernel_lanes.hpp):
// no labels, not gold, every class allowed.
template <int K>
inline bool copies_empty(const int64_t *start, const int32_t *gold, const uint8_t *allowed, int64_t j) {
    bool all_allowed = true;
    if (allowed != nullptr)
        for (int l = 0; l < K; ++l) all_allowed &= allowed[j * K + l] != 0;
    return start[j] == start[j + 1] && (gold == nullptr || gold[j] < 0) && all_allowed;
}

// The batched kernels with copies (kCopies): which items of the batch [j0, j0 + n) are
// computed -- those that are not copies_empty, m of them, item(i) the i-th in
// increasing order -- listed without a branch per item. Without copies (kCopies false,
// or `ready` false: no posterior to copy) every item is computed and no list is made.
template <bool kCopies>
struct ComputedItems {
    int64_t j0 = 0, m = 0;
    bool every = true;  // all n items computed: item(i) = j0 + i
    int64_t todo[kBatch];

    template <int K>
    void list(const int64_t *start, const int32_t *gold, const uint8_t *allowed, int64_t first, int64_t n,
              bool ready) {
        j0 = first;
        m = n;
        every = true;
        if (!kCopies || !ready) return;
        m = 0;
        for (int64_t b = 0; b < n; ++b) {
            todo[m] = b;
            m += !copies_empty<K>(start, gold, allowed, j0 + b);
        }
        every = m == n;
    }
    int64_t item(int64_t i) const { return kCopies && !every ? j0 + todo[i] : j0 + i; }
};

// A non-special item's log-likelihood term, top + log(sum) with 1 <= sum <= K: the sums
// are multiplied together and one log is taken before the product could overflow (see
// e_step_range).
template <int K>
inline void add_item_term(double top, double sum, double &ll, double &product) {
    ll += top;
    if (product > kFlush / K) {
        ll += std::log(product);
        product = 1.0;
    }
    product *= sum;
}

// The posterior that the kernels with copies form once for items without labels (all
// have the sums log w_l): q in the kernel's lanes V (Lanes or WideLanes), its top and
// sum. Not ready: every item is computed (item terms, or a prior of zeros).
template <class V>
struct EmptyPosterior {
    bool ready = false;
    V q;
    double top = 0.0, sum = 1.0;
};

// The batched kernels with copies: items [next, end) take the posterior formed once for
// items without labels (`empty`: its q in the kernel's lanes, top and sum), adding its
// log-likelihood term in item order; next ends at end. Always inlined (the kernel's
// target: see add_label_rows).
template <int K, class Empty>
__attribute__((always_inline)) inline void copy_empty_posteriors(const Empty &empty, int64_t &next, int64_t end,
                                                                 double *q, double &ll, double &product) {
    for (; next < end; ++next) {
        add_item_term<K>(empty.top, empty.sum, ll, product);
        empty.q.store(q + next * K);
    }
}

// The end of a partition in the kernels in registers: its prior sums (stored once, see
// scatter_range), its log-likelihood with the last batch of logs (see e_step_range) and
// its impossible items. Always inlined (the kernel's target: see add_label_rows).
template <class V>
__attribute__((always_inline)) inline void store_range_results(const V &prior_local, double *prior_sum, double ll,
                                                               double product, int64_t impossible, double &ll_out,
                                                               int64_t &impossible_out) {
    if (prior_sum != nullptr) prior_local.store(prior_sum);
    ll_out = ll + std::log(product);
    impossible_out = impossible;
}

// One item's posterior (Z-4) from its sums s_l = log w_l + the sum over its labels of
// log pi[c][l] (-inf: class l impossible), into qj. A gold item is pinned to its class
// and adds the complete-data log-likelihood of that class, s_gold (sum = 1); an item
// with every class impossible falls back to the prior (restricted to allowed_j) and
// adds nothing (impossible); any other adds top + log(sum), top = max_l s_l and sum =
// the sum over l of exp(s_l - top). K > 0 fixes k at compile time.
struct ItemPosterior {
    double top = 0.0, sum = 1.0;
    bool impossible = false;
};

template <int K>
inline ItemPosterior posterior_from_sums(const double *s, int32_t k_runtime, int32_t gold, const double *prior,
                                         const uint8_t *allowed_j, double *qj) {
    const int32_t k = K > 0 ? K : k_runtime;
    ItemPosterior out;
    if (gold >= 0) {
        for (int32_t l = 0; l < k; ++l) qj[l] = 0.0;
        qj[gold] = 1.0;
        out.top = s[gold];
        out.impossible = s[gold] == kMinusInf;
        return out;
    }
    int32_t best = 0;
    for (int32_t l = 1; l < k; ++l)
        if (s[l] > s[best]) best = l;
    out.top = s[best];
    if (out.top == kMinusInf) {
        prior_fallback(prior, allowed_j, k, qj);
        out.impossible = true;
        return out;
    }
    double sum = 0.0;
    for (int32_t l = 0; l < k; ++l) {
        // exp(0) = 1 exactly for the top class; exp(-inf) = 0.
        qj[l] = l == best ? 1.0 : std::exp(s[l] - out.top);
        sum += qj[l];
    }
    for (int32_t l = 0; l < k; ++l) qj[l] /= sum;
    out.sum = sum;
    return out;
}

// Add one item's posterior into the count rows of its labels (code c's row at counts +
// c * row) and the prior sums.
template <int K>
inline void scatter_item(const CrowdData &d, int64_t j, int32_t k, const double *qj,
                         double *counts, double *prior_sum, int64_t row_size) {
    const int32_t kk = K > 0 ? K : k;
    for (int64_t p = d.item_start[j]; p < d.item_start[j + 1]; ++p) {
        double *row = counts + static_cast<int64_t>(d.item_code[p]) * row_size;
        for (int32_t l = 0; l < kk; ++l) row[l] += qj[l];
    }
    for (int32_t l = 0; l < kk; ++l) prior_sum[l] += qj[l];
}

// Counts of one partition from given posteriors (the M-step of a posterior start), code
// c's row at counts + c * row_size.
template <int K>
void scatter_range(const CrowdData &d, ItemRange r, const double *q, double *counts,
                   double *prior_sum, int64_t row_size) {
    const int32_t k = d.k;
    // The prior sums are accumulated locally and stored once: neighbouring partitions'
    // sums share a cache line, and writing them per item made the threads fight over it.
    ClassScratch<K> local(k);
    double *sum = local.data();
    for (int32_t l = 0; l < k; ++l) sum[l] = 0.0;
    for (int64_t j = r.first; j < r.last; ++j)
        scatter_item<K>(d, j, k, q + j * (K > 0 ? K : k), counts, sum, row_size);
    for (int32_t l = 0; l < k; ++l) prior_sum[l] = sum[l];
}

// The E-step (Z-4) of one partition in log space, optionally adding the new
// posteriors into the partition's count table. K > 0 fixes k at compile time (the
// common small cases, unrolled); K = 0 reads it from the data. `item_terms` (n_items x
// k, or null) adds a log-likelihood term per item and class to its sums: the model
// probabilities' m_j(t) (crowd/em/model_worker.hpp), after the labels' rows; the pair
// and AVX2 kernels take it the same way (the ratio kernel of k = 2 does not).
template <int K>
void e_step_range(const CrowdData &d, ItemRange r, const double *log_pi, const double *log_prior,
                  const double *prior, const uint8_t *allowed, double *q, double *counts,
                  double *prior_sum, double &ll_out, int64_t &impossible_out,
                  const double *item_terms = nullptr) {
    const int32_t k = K > 0 ? K : d.k;
    ClassScratch<K> scratch(k), local_prior(k);
    double *s = scratch.data();
    double *prior_local = local_prior.data();  // stored once at the end (see scatter_range)
    for (int32_t l = 0; l < k; ++l) prior_local[l] = 0.0;
    // The log-likelihood adds top_j + log(sum_j) per item, with 1 <= sum_j <= k. The
    // logs are batched: the sums are multiplied together and one log is taken per
    // batch, before the product can overflow (a log per item cost as much as the
    // rest of the E-step).
    double ll = 0.0, product = 1.0;
    int64_t impossible = 0;
    for (int64_t j = r.first; j < r.last; ++j) {
        // log q_jl = log w_l + sum over the labels (i, c) of j of log pi_i[l][c].
        for (int32_t l = 0; l < k; ++l) s[l] = log_prior[l];
        for (int64_t p = d.item_start[j]; p < d.item_start[j + 1]; ++p) {
            const double *row = log_pi + static_cast<int64_t>(d.item_code[p]) * k;
            for (int32_t l = 0; l < k; ++l) s[l] += row[l];
        }
        if (item_terms != nullptr)
            for (int32_t l = 0; l < k; ++l) s[l] += item_terms[j * k + l];
        // Answer-set support: a class nobody gave item j is impossible for it.
        const uint8_t *allowed_j = allowed != nullptr ? allowed + j * k : nullptr;
        if (allowed_j != nullptr)
            for (int32_t l = 0; l < k; ++l)
                if (!allowed_j[l]) s[l] = kMinusInf;
        double *qj = q + j * k;
        const int32_t gold = d.gold_of(static_cast<int32_t>(j));
        const ItemPosterior item = posterior_from_sums<K>(s, k, gold, prior, allowed_j, qj);
        if (item.impossible) {
            ++impossible;
        } else {
            ll += item.top;
            if (gold < 0) {  // a gold item adds no log(sum)
                if (product > kFlush / item.sum) {
                    ll += std::log(product);
                    product = 1.0;
                }
                product *= item.sum;
            }
        }
        if (counts != nullptr) scatter_item<K>(d, j, k, qj, counts, prior_local, K > 0 ? K : k);
    }
    if (prior_sum != nullptr)
        for (int32_t l = 0; l < k; ++l) prior_sum[l] = prior_local[l];
    ll_out = ll + std::log(product);
    impossible_out = impossible;
}

}  // namespace
}  // namespace cs::ds
