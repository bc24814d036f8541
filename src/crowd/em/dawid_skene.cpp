// SPDX-License-Identifier: MIT
#include "crowd/em/dawid_skene.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "crowd/spectral/class_identification.hpp"
#include "crowd/em/confusion_model.hpp"
#include "crowd/em/pooled_prior.hpp"
#include "crowd/voting/majority_vote.hpp"
#include "data/crowd_shard.hpp"
#include "data/item_partitions.hpp"
#include "data/labels_by_code.hpp"
#include "util/aligned.hpp"
#include "util/parallel.hpp"
#include "util/squarem.hpp"
#include "util/per_class.hpp"
#include "util/simd_pair.hpp"

namespace cs {

namespace {

constexpr double kMinusInf = -std::numeric_limits<double>::infinity();

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

// Tables of 1 MiB or more go on transparent huge pages: with many workers every label
// reads a random row of log pi and adds into a random row of a count table, and with
// 4 KiB pages nearly each of those also missed the TLB (10^7 labels from 10^5 workers,
// k = 2: 14.8 -> 11.7 ns per label-iteration). AlignedAllocator (util/aligned.hpp) asks
// for huge pages from 8 MiB on, so a table between 1 and 8 MiB reserves 8 MiB of
// address space (only the pages it uses are ever touched).
template <class V>
void allocate_table(V &v, std::size_t n) {
    constexpr std::size_t kHuge = V::allocator_type::kHugeThreshold / sizeof(double);
    if (n * sizeof(double) >= (std::size_t(1) << 20)) v.reserve(std::max(n, kHuge));
    v.resize(n);
}

// Tables an EM fit reuses every round. An EM round is one pass over the labels by
// item: the E-step (Z-4) of item j needs only j's labels, and the M-step (Z-5)
// counts are sums over labels of the new posteriors, so both happen in the same
// pass: after computing q_j, the pass adds q_j into the count rows of j's labels.
// This streams the labels once per round and never reads the posteriors of other
// items (the cache misses of a separate by-worker M-step pass). Only when the count
// tables are beyond the caches is the by-worker pass the cheaper (gathers_counts).
// The number of labels with each code, counted on the team: each task counts one range
// of the labels, and the ranges' counts are added in order (integers, so exact).
std::vector<double> count_codes(const CrowdData &data, std::size_t codes, Team &team) {
    const std::size_t n = data.n_labels();
    const std::size_t ranges = n >= 2 * kMinParallelLabels ? static_cast<std::size_t>(team.size()) : 1;
    std::vector<int64_t> count(ranges * codes, 0);
    team.run(static_cast<int64_t>(ranges), [&](int64_t r) {
        int64_t *own = count.data() + static_cast<std::size_t>(r) * codes;
        const std::size_t last = (static_cast<std::size_t>(r) + 1) * n / ranges;
        for (std::size_t p = static_cast<std::size_t>(r) * n / ranges; p < last; ++p) ++own[data.item_code[p]];
    });
    std::vector<double> out(codes, 0.0);
    for (std::size_t c = 0; c < codes; ++c) {
        int64_t sum = 0;
        for (std::size_t r = 0; r < ranges; ++r) sum += count[r * codes + c];
        out[c] = static_cast<double>(sum);  // exact: counts below 2^53
    }
    return out;
}

struct Workspace {
    int32_t k = 0;
    int64_t table = 0;                  // m x k x k: doubles in one count table
    std::vector<ItemRange> parts;       // fixed item partitions (item_partitions.hpp)
    // Cache-line aligned, and on huge pages when large (util/aligned.hpp): with many
    // workers every label's row is a random line of these tables, and with 4 KiB pages
    // nearly every one of them also missed the TLB.
    using Table = std::vector<double, AlignedAllocator<double>>;
    Table counts;                       // per partition: m x k (observed) x k (true)
    std::vector<double> total;          // the partitions' counts summed, then the class mass (finish_m_step)
    std::vector<double> pooled;         // k x k pseudo-counts of smoothing_center = pooled
    std::vector<double> prior_sums;     // per partition: k, sum of q_jl over its items
    Table log_pi;                       // m x k (observed) x k (true): log pi_i[l][c]
    std::vector<double> log_prior;      // k
    std::vector<double> part_ll;        // per partition
    std::vector<int64_t> part_impossible;
    std::vector<uint8_t> own_allowed;   // the answer sets, when no caller shares theirs
    const uint8_t *allowed = nullptr;   // n x k answer-set support, null = every class
    int threads = 1;
    Team team;                          // the fit's threads (util/parallel.hpp)
    int64_t worker_block = 1;           // workers per task of the M-step

    // k = 2 (e_step_range_ratio): per code c, ratio[c] = log pi[c][0] - log pi[c][1],
    // the one number an item's posterior needs from each of its labels; code_labels[c]
    // = the number of labels with code c, so that the part of the log-likelihood that
    // is a sum over labels of log pi[c][1] is sum_c code_labels[c] log pi[c][1], taken
    // per round over the codes instead of per label (ratio_ll, with the items' log w_1).
    // block_ll / block_special: that sum and the number of labels whose code has no
    // ratio (a zero confusion entry, see fill_ratios) in a block of workers.
    Table ratio;
    std::vector<double> code_labels;
    std::vector<double> block_ll;
    std::vector<double> block_special;
    double ratio_ll = 0.0;
    bool ratio_ready = false;           // ratio and ratio_ll are those of the current logs

    // Count tables beyond the caches (gathers_counts): no count tables. The E-step only
    // writes the posteriors, and finish_m_step gathers every code's counts from them
    // through the labels grouped by code (pull_codes): the caller's (EmStart::by_code)
    // or own_by_code. `pull_q` = the posteriors of the last E-step that scattered (or
    // of scatter_posteriors).
    LabelsByCode own_by_code;
    const LabelsByCode *by_code = nullptr;
    const double *pull_q = nullptr;

    // `scatter` = false for a lone E-step, which needs no count tables; `support` =
    // false for a lone M-step, which needs no answer sets. `shared` are the answer sets
    // computed once by the caller (null: computed here when the support restricts).
    Workspace(const CrowdData &data, const FitOptions &options, bool scatter = true, bool support = true,
              const std::vector<uint8_t> *shared = nullptr, const LabelsByCode *shared_by_code = nullptr)
        : k(data.k),
          table(static_cast<int64_t>(data.n_workers) * data.k * data.k),
          parts(partition_items(data, table, 4)),
          total(scatter ? static_cast<std::size_t>(table + data.k) : 0),
          prior_sums(parts.size() * static_cast<std::size_t>(data.k)),
          log_prior(static_cast<std::size_t>(data.k)),
          part_ll(parts.size()),
          part_impossible(parts.size()),
          threads(threads_for(options.threads, static_cast<int64_t>(data.n_labels()))),
          team(threads) {
        // About 32,768 table entries read per M-step task (every partition's copy of
        // the block's rows), so that the sum of the copies spreads over the team.
        const int64_t kk = static_cast<int64_t>(data.k) * data.k;
        worker_block = std::max<int64_t>(1, 32768 / std::max<int64_t>(1, kk * n_parts()));
        allocate_table(log_pi, static_cast<std::size_t>(table));
        if (scatter && gathers_counts(data, options)) {
            if (shared_by_code == nullptr) {
                own_by_code = labels_by_code(data, team);
                shared_by_code = &own_by_code;
            }
            by_code = shared_by_code;
        } else if (scatter) {
            allocate_table(counts, parts.size() * static_cast<std::size_t>(table));
        }
        if (data.k == 2) {
            const std::size_t codes = static_cast<std::size_t>(data.n_workers) * 2;
            allocate_table(ratio, codes);
            code_labels = count_codes(data, codes, team);
            block_ll.assign(static_cast<std::size_t>(n_worker_blocks(data.n_workers)), 0.0);
            block_special.assign(block_ll.size(), 0.0);
        }
        if (!support || !restricts_support(data, options)) return;
        if (shared == nullptr) {
            own_allowed = answer_sets(data);
            shared = &own_allowed;
        }
        allowed = shared->data();
    }

    int64_t n_parts() const { return static_cast<int64_t>(parts.size()); }
    bool pull() const { return by_code != nullptr; }
    int64_t n_worker_blocks(int32_t n_workers) const { return chunk_count(n_workers, worker_block); }
};

#if defined(CS_HAVE_PAIR)
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
#endif

// Add one item's posterior into the count rows of its labels and the prior sums.
template <int K>
inline void scatter_item(const CrowdData &d, int64_t j, int32_t k, const double *qj,
                         double *counts, double *prior_sum) {
    const int32_t kk = K > 0 ? K : k;
    for (int64_t p = d.item_start[j]; p < d.item_start[j + 1]; ++p) {
        double *row = counts + static_cast<int64_t>(d.item_code[p]) * kk;
        for (int32_t l = 0; l < kk; ++l) row[l] += qj[l];
    }
    for (int32_t l = 0; l < kk; ++l) prior_sum[l] += qj[l];
}

// Counts of one partition from given posteriors (the M-step of a posterior start).
template <int K>
void scatter_range(const CrowdData &d, ItemRange r, const double *q, double *counts,
                   double *prior_sum) {
    const int32_t k = d.k;
    // The prior sums are accumulated locally and stored once: neighbouring partitions'
    // sums share a cache line, and writing them per item made the threads fight over it.
    ClassScratch<K> local(k);
    double *sum = local.data();
    for (int32_t l = 0; l < k; ++l) sum[l] = 0.0;
    for (int64_t j = r.first; j < r.last; ++j)
        scatter_item<K>(d, j, k, q + j * (K > 0 ? K : k), counts, sum);
    for (int32_t l = 0; l < k; ++l) prior_sum[l] = sum[l];
}

#if defined(CS_HAVE_PAIR)
// Kernels of e_step_range (below) for a class count fixed at compile time, K = 2..5,
// with the per-item sums and posteriors in registers (Lanes) instead of arrays in memory
// (the generic kernel stored every partial sum back to the stack and reloaded the
// posterior for every label it scattered; bench/README.md, issue 19).

// Whether the running product of the items' sums (the batched logs of the
// log-likelihood, see e_step_range) may grow further: each sum is at most k, so a
// product below kFlush / k stays below kFlush after one more.
constexpr double kFlush = 1e250;

// Items of one batch (e_step_range_batched, e_step_range_ratio).
constexpr int64_t kBatch = 16;

// e_step_range_items: how far ahead (in items) the rows are prefetched.
constexpr int64_t kPrefetchItems = 4;

// e_step_range_ratio: how far ahead (in items) its rows are requested. Its rows are 8
// and 16 bytes (one line per label), and a round of 10^7 labels from 10^5 workers at
// k = 2 was 6 % faster 12 items ahead than 4 (8 and 16 the same as 12, 24 slower;
// Xeon with 2 MiB L2 a core), while e_step_range_items at k = 3 was 13 % slower at 12.
constexpr int64_t kRatioPrefetchItems = 12;

// For tables larger than the caches (many workers): one item at a time, and the rows
// that the item kPrefetchItems ahead reads and writes requested in advance: each label's
// row is a random line of log pi and one of the count table, and the scatter into a
// count table that no longer fits in L2 otherwise waits for each of its lines in turn.
// (The batched kernel below was 20 % slower here: 10^7 labels, 10^5 workers, k = 2.)
template <int K>
void e_step_range_items(const CrowdData &d, ItemRange r, const double *log_pi, const double *log_prior,
                        const double *prior, const uint8_t *allowed, double *q, double *counts,
                        double *prior_sum, double &ll_out, int64_t &impossible_out) {
    const int64_t *start = d.item_start.data();
    const uint32_t *code = d.item_code.data();
    const int32_t *gold = d.gold.empty() ? nullptr : d.gold.data();
    const Lanes<K> base = Lanes<K>::load(log_prior);
    Lanes<K> prior_local;  // stored once at the end (see scatter_range)
    double ll = 0.0, product = 1.0;
    int64_t impossible = 0;
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
        Lanes<K> acc = base;
        for (int64_t p = p0; p < p1; ++p) acc.add(log_pi + static_cast<int64_t>(code[p]) * K);
        const uint8_t *allowed_j = allowed != nullptr ? allowed + j * K : nullptr;
        if (allowed_j != nullptr) acc.restrict_to(allowed_j);
        double s[K];
        acc.store(s);
        double qj[K];
        const int32_t g = gold != nullptr ? gold[j] : -1;
        if (g >= 0) {
            for (int32_t l = 0; l < K; ++l) qj[l] = 0.0;
            qj[g] = 1.0;
            if (s[g] == kMinusInf) ++impossible;
            else ll += s[g];
        } else {
            const double top = acc.top();
            if (top == kMinusInf) {
                prior_fallback(prior, allowed_j, K, qj);
                ++impossible;
            } else {
                // exp(s_l - top): exactly 1 for the top class (and any tied with it).
                Lanes<K> v = exp_minus(Lanes<K>::load(s), top);
                v.store(qj);
                double sum = 0.0;
                for (int32_t l = 0; l < K; ++l) sum += qj[l];
                v.divide(sum);
                v.store(qj);
                ll += top;
                if (product > kFlush / K) {
                    ll += std::log(product);
                    product = 1.0;
                }
                product *= sum;
            }
        }
        const Lanes<K> v = Lanes<K>::load(qj);
        v.store(q + j * K);
        if (counts != nullptr) {
            for (int64_t p = p0; p < p1; ++p) v.add_to(counts + static_cast<int64_t>(code[p]) * K);
            prior_local.add(v);
        }
    }
    if (prior_sum != nullptr) prior_local.store(prior_sum);
    ll_out = ll + std::log(product);
    impossible_out = impossible;
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
template <int K>
void e_step_range_batched(const CrowdData &d, ItemRange r, const double *log_pi, const double *log_prior,
                          const double *prior, const uint8_t *allowed, double *q, double *counts,
                          double *prior_sum, double &ll_out, int64_t &impossible_out) {
    const int64_t *start = d.item_start.data();
    const uint32_t *code = d.item_code.data();
    const int32_t *gold = d.gold.empty() ? nullptr : d.gold.data();
    const Lanes<K> base = Lanes<K>::load(log_prior);
    Lanes<K> prior_local;  // stored once at the end (see scatter_range)
    double ll = 0.0, product = 1.0;
    int64_t impossible = 0;
    double sums[kBatch * K], x[kBatch * K + 1], tops[kBatch];
    bool special[kBatch];  // a gold item or one impossible under every class
    for (int64_t j0 = r.first; j0 < r.last; j0 += kBatch) {
        const int64_t n = std::min<int64_t>(kBatch, r.last - j0);
        // log q_jl = log w_l + sum over the labels (i, c) of j of log pi_i[l][c].
        for (int64_t b = 0; b < n; ++b) {
            Lanes<K> acc = base;
            const uint32_t *c = code + start[j0 + b], *const c_end = code + start[j0 + b + 1];
            for (; c + 1 < c_end; c += 2) {  // the same order of additions, two per step
                acc.add(log_pi + static_cast<int64_t>(c[0]) * K);
                acc.add(log_pi + static_cast<int64_t>(c[1]) * K);
            }
            if (c < c_end) acc.add(log_pi + static_cast<int64_t>(*c) * K);
            acc.store(sums + b * K);
        }
        // The top class of each item and s_l - top.
        double carry = 0.0;
        for (int64_t b = 0; b < n; ++b) {
            const int64_t j = j0 + b;
            // In registers, stored as pairs where later passes load pairs (a pair loaded
            // from two scalar stores waits for them to reach the cache).
            double *s = sums + b * K;
            Lanes<K> xv = Lanes<K>::load(s);
            if (allowed != nullptr) {
                xv.restrict_to(allowed + j * K);
                xv.store(s);
            }
            const double top = xv.top();
            tops[b] = top;
            special[b] = (gold != nullptr && gold[j] >= 0) || top == kMinusInf;
            for (int i = 0; i < Lanes<K>::kPairs; ++i) xv.pair[i] = special[b] ? Pair{0.0, 0.0} : xv.pair[i] - top;
            xv.last = special[b] ? 0.0 : xv.last - top;
            store_flat<K>(x, b, xv, carry);
        }
        store_flat_end<K>(x, n, carry);
        // exp(s_l - top): exactly 1 for the top class (and any tied with it).
        for (int64_t i = 0; i < n * K; i += 2) store_pair(x + i, exp_nonpositive(load_pair(x + i)));
        // The posteriors.
        carry = 0.0;
        for (int64_t b = 0; b < n; ++b) {
            const int64_t j = j0 + b;
            double *qj = q + j * K;
            Lanes<K> v = load_flat<K>(x, b, carry);  // for every item: it carries
            if (special[b]) {
                const double *s = sums + b * K;
                const uint8_t *allowed_j = allowed != nullptr ? allowed + j * K : nullptr;
                const int32_t g = gold != nullptr ? gold[j] : -1;
                if (g >= 0) {
                    for (int32_t l = 0; l < K; ++l) qj[l] = 0.0;
                    qj[g] = 1.0;
                    if (s[g] == kMinusInf) ++impossible;
                    else ll += s[g];
                } else {
                    prior_fallback(prior, allowed_j, K, qj);
                    ++impossible;
                }
                continue;
            }
            double sum = 0.0;  // in class order, as the kernel by item
            for (int i = 0; i < Lanes<K>::kPairs; ++i) {
                sum += v.pair[i][0];
                sum += v.pair[i][1];
            }
            if (K & 1) sum += v.last;
            v.divide(sum);
            v.store(qj);
            ll += tops[b];
            if (product > kFlush / K) {
                ll += std::log(product);
                product = 1.0;
            }
            product *= sum;
        }
        if (counts == nullptr) continue;
        // The next M-step's counts. (As far as the compiler knows the stores into
        // counts may alias start and code: the bounds are read once.)
        for (int64_t b = 0; b < n; ++b) {
            const Lanes<K> v = Lanes<K>::load(q + (j0 + b) * K);
            const uint32_t *c = code + start[j0 + b], *const c_end = code + start[j0 + b + 1];
            for (; c + 1 < c_end; c += 2) {
                v.add_to(counts + static_cast<int64_t>(c[0]) * K);
                v.add_to(counts + static_cast<int64_t>(c[1]) * K);
            }
            if (c < c_end) v.add_to(counts + static_cast<int64_t>(*c) * K);
            prior_local.add(v);
        }
    }
    if (prior_sum != nullptr) prior_local.store(prior_sum);
    ll_out = ll + std::log(product);
    impossible_out = impossible;
}

// The smallest log pi[c][1] the ratio kernel takes (fill_ratios), and the ratio of a
// code it does not take: any sum with it is NaN, which marks the item.
constexpr double kRatioLowest = -100.0;
constexpr double kNoRatio = std::numeric_limits<double>::quiet_NaN();

// The largest share of the labels without a ratio at which e_step_range_ratio runs
// (finish_ratios). An item with such a label costs the ratio sums and the two sums, and
// its log pi rows are lines of one more table: whole ds fits on one thread against the
// two-sum kernels were 0.86-0.97 the time with 1 % of the labels without a ratio and
// 1.03-1.27 with 2-10 % (simulated crowds of 10^6 labels from 2·10^4 and 6·10^4
// workers, trec, rte; bench/README.md). Rounds above the bound take the two-sum kernels.
constexpr double kMostWithoutRatio = 0.02;

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
template <bool kPrefetch>
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
    const PairBits sign = {0x8000000000000000ull, 0x8000000000000000ull};
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
        for (int64_t b = 0; b < n; b += 2) {
            const Pair x = load_pair(dsum + b);
            PairBits bits;
            std::memcpy(&bits, &x, sizeof bits);
            bits |= sign;
            Pair minus_abs;  // -|d|
            std::memcpy(&minus_abs, &bits, sizeof minus_abs);
            const Pair e = exp_nonpositive(minus_abs);
            Pair sum = 1.0 + e;
            const Pair top = 1.0 / sum, other = e / sum;
            // Class 0 on top where d >= 0: selected by masks, not branches (the top class
            // of random items is a coin flip for the branch predictor).
            const PairBits zero_top = x >= 0.0;
            PairBits tb, ob;
            std::memcpy(&tb, &top, sizeof tb);
            std::memcpy(&ob, &other, sizeof ob);
            const PairBits q0b = (tb & zero_top) | (ob & ~zero_top), q1b = (ob & zero_top) | (tb & ~zero_top);
            Pair q0, q1;
            std::memcpy(&q0, &q0b, sizeof q0);
            std::memcpy(&q1, &q1b, sizeof q1);
            Pair gain = x > 0.0 ? x : Pair{0.0, 0.0};  // max(d, 0)
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
#endif

// The E-step (Z-4) of one partition in log space, optionally adding the new
// posteriors into the partition's count table. K > 0 fixes k at compile time (the
// common small cases, unrolled); K = 0 reads it from the data.
template <int K>
void e_step_range(const CrowdData &d, ItemRange r, const double *log_pi, const double *log_prior,
                  const double *prior, const uint8_t *allowed, double *q, double *counts,
                  double *prior_sum, double &ll_out, int64_t &impossible_out) {
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
        if (counts != nullptr) scatter_item<K>(d, j, k, qj, counts, prior_local);
    }
    if (prior_sum != nullptr)
        for (int32_t l = 0; l < k; ++l) prior_sum[l] = prior_local[l];
    ll_out = ll + std::log(product);
    impossible_out = impossible;
}

// f(p) for every partition p, spread over the fit's team (whichever thread is free
// takes the next partition).
template <class F>
void for_each_part(Workspace &ws, F &&f) {
    ws.team.run(ws.n_parts(), f);
}

// f(first, last, b) for every block b of the M-step's worker blocks (workers [first,
// last)), spread over the fit's team.
template <class F>
void for_each_worker_block(const CrowdData &d, Workspace &ws, F &&f) {
    const int64_t block = ws.worker_block;
    ws.team.run(ws.n_worker_blocks(d.n_workers), [&](int64_t b) {
        const int32_t first = static_cast<int32_t>(b * block);
        const int32_t last = static_cast<int32_t>(std::min<int64_t>(d.n_workers, (b + 1) * block));
        f(first, last, b);
    });
}

// Sum of q_j over the items of r, in item order: the prior sums of a partition, the
// same additions as the kernels' (pull mode, where they do not scatter).
void sum_posteriors(const double *q, ItemRange r, int32_t k, double *out) {
    for (int32_t l = 0; l < k; ++l) out[l] = 0.0;
    for (int64_t j = r.first; j < r.last; ++j)
        for (int32_t l = 0; l < k; ++l) out[l] += q[j * k + l];
}

// Pull mode: the prior sums of every partition, and q for the M-step's gather.
void pull_from(const CrowdData &d, Workspace &ws, const double *q) {
    ws.pull_q = q;
    for_each_part(ws, [&](int64_t p) { sum_posteriors(q, ws.parts[p], d.k, ws.prior_sums.data() + p * d.k); });
}

// Counts of the posteriors q in every partition (the M-step of a posterior start).
void scatter_posteriors(const CrowdData &d, Workspace &ws, const double *q) {
    if (ws.pull()) return pull_from(d, ws, q);
    with_classes(d.k, [&](auto kc) {
        constexpr int K = decltype(kc)::value;
        for_each_part(ws, [&](int64_t p) {
            double *counts = ws.counts.data() + p * ws.table;
            std::fill(counts, counts + ws.table, 0.0);  // by its own thread: parallel, cache-warm
            scatter_range<K>(d, ws.parts[p], q, counts, ws.prior_sums.data() + p * d.k);
        });
    });
}

// The E-step of every partition, and with `scatter` the next M-step's counts.
void e_step_parts(const CrowdData &d, Workspace &ws, const double *prior, double *q, bool scatter) {
    const bool pull = scatter && ws.pull();
    if (pull) scatter = false;  // the kernels only write q; the counts are gathered later
    with_classes(d.k, [&](auto kc) {
        constexpr int K = decltype(kc)::value;
        for_each_part(ws, [&](int64_t p) {
            double *counts = scatter ? ws.counts.data() + p * ws.table : nullptr;
            if (counts != nullptr) std::fill(counts, counts + ws.table, 0.0);
            double *prior_sum = scatter ? ws.prior_sums.data() + p * d.k : nullptr;
#if defined(CS_HAVE_PAIR)
            if constexpr (K == 2) {
                if (ws.ratio_ready) {
                    const auto kernel = ws.table * 12 > (int64_t{1} << 20) ? e_step_range_ratio<true>
                                                                           : e_step_range_ratio<false>;
                    kernel(d, ws.parts[p], ws.ratio.data(), ws.log_pi.data(), ws.log_prior.data(), prior, q,
                           counts, prior_sum, ws.part_ll[p], ws.part_impossible[p]);
                    return;
                }
            }
            if constexpr (K > 0) {
                // Prefetch when log pi and a count table together exceed about 1 MiB.
                const auto kernel = ws.table * 16 > (int64_t{1} << 20) ? e_step_range_items<K>
                                                                       : e_step_range_batched<K>;
                kernel(d, ws.parts[p], ws.log_pi.data(), ws.log_prior.data(), prior, ws.allowed, q, counts,
                       prior_sum, ws.part_ll[p], ws.part_impossible[p]);
                return;
            }
#endif
            e_step_range<K>(d, ws.parts[p], ws.log_pi.data(), ws.log_prior.data(), prior, ws.allowed, q, counts,
                            prior_sum, ws.part_ll[p], ws.part_impossible[p]);
        });
    });
    if (pull) pull_from(d, ws, q);
}

// log pi of worker i, transposed to observed x true (so that one label adds k
// contiguous values): out[c * k + l] = log pi[l * k + c]. A zero entry's log, -inf, is
// written without the call: libm takes its slow divide-by-zero path for it, which was
// 6 % of a fit of a sparse crowd (60,000 labels from 60,000 workers, k = 3, where most
// entries are 0).
inline void log_transposed(const double *pi, int32_t k, double *out) {
    for (int32_t l = 0; l < k; ++l)
        for (int32_t c = 0; c < k; ++c) {
            const double x = pi[l * k + c];
            out[c * k + l] = x == 0.0 ? kMinusInf : std::log(x);  // log(+-0) = -inf
        }
}

// k = 2: the log ratios of workers [first, last) (block b of the M-step) from log pi,
// their part of ratio_ll and their labels without a ratio. A code whose log pi[c][1] is
// below kRatioLowest (an entry that is 0 or under e^-100, as ML makes them for workers
// who never, or nearly never, gave this label to an item of class 1) gets kNoRatio and
// no part of ratio_ll: e_step_range_ratio takes the items with such a label from the
// two sums (take_two_sum_items). Its log pi[c][1] in ratio_ll and the items' max(d, 0) would
// cancel, costing the log-likelihood about 2e-16 |log pi[c][1]| per label in absolute
// terms (1e-13 relative was seen on a sparse crowd whose entries ML drives towards 0);
// the bound keeps that below a few 1e-14 relative even if every label had one. A log
// pi[c][0] of -inf gives a ratio of -inf, which the kernel takes as it is.
void fill_ratios(Workspace &ws, int32_t first, int32_t last, int64_t b) {
    double sum = 0.0, special = 0.0;
    for (int64_t c = int64_t{2} * first; c < int64_t{2} * last; ++c) {
        const double l0 = ws.log_pi[2 * c], l1 = ws.log_pi[2 * c + 1];
        if (ws.code_labels[c] == 0.0) {  // a label no one gave (log pi = -inf): never read
            ws.ratio[c] = 0.0;
            continue;
        }
        if (!(l1 >= kRatioLowest)) {
            ws.ratio[c] = kNoRatio;
            special += ws.code_labels[c];
            continue;
        }
        ws.ratio[c] = l0 - l1;
        sum += ws.code_labels[c] * l1;
    }
    ws.block_ll[b] = sum;
    ws.block_special[b] = special;
}

// k = 2, after fill_ratios of every block: whether the ratio kernel may run (no
// answer-set restriction, finite log priors, and at most kMostWithoutRatio of the labels
// without a ratio) and the log-likelihood's part that is not in the kernel's sums, in
// block order. In a distributed fit each process decides for its own labels (the two
// kernels' posteriors differ by rounding only).
void finish_ratios(const CrowdData &d, Workspace &ws) {
    bool ok = ws.allowed == nullptr && std::isfinite(ws.log_prior[0]) && std::isfinite(ws.log_prior[1]);
    double sum = static_cast<double>(d.n_items) * ws.log_prior[1], special = 0.0;
    for (std::size_t b = 0; b < ws.block_ll.size(); ++b) {
        special += ws.block_special[b];
        sum += ws.block_ll[b];
    }
    ws.ratio_ready = ok && special <= kMostWithoutRatio * static_cast<double>(d.n_labels());
    ws.ratio_ll = sum;
}

// Pull mode: the counts of codes [first, last) from the posteriors q, row c = the sum
// of q_j over the items j given code c (Z-5). Summed per partition in item order, and
// the partitions' sums added in partition order: the same additions in the same order
// as the kernels' scatter into per-partition tables (zeroed, so the first addition is
// exact) followed by sum_block's sum over them, so the counts are identical bit for bit
// (an empty partition adds 0, which changes no sum of non-negative terms). The rows
// of q are read in increasing item order, and requested kAhead labels ahead.
template <int K>
void pull_codes(const LabelsByCode &by_code, const std::vector<ItemRange> &parts, int32_t k, const double *q,
                int64_t first, int64_t last, double *total) {
    constexpr int64_t kAhead = 16;
    const int32_t kk = K > 0 ? K : k;
    ClassScratch<K> sum_scratch(kk), part_scratch(kk);
    double *sum = sum_scratch.data(), *part = part_scratch.data();
    const int32_t *item = by_code.item.data();
    const int64_t n = static_cast<int64_t>(by_code.item.size());
    for (int64_t c = first; c < last; ++c) {
        for (int32_t l = 0; l < kk; ++l) sum[l] = part[l] = 0.0;
        std::size_t in = 0;  // the partition of the items being summed
        for (int64_t e = by_code.start[c]; e < by_code.start[c + 1]; ++e) {
            if (e + kAhead < n) {  // a row of K > 2 doubles can span two lines
                const double *ahead = q + static_cast<int64_t>(item[e + kAhead]) * kk;
                __builtin_prefetch(ahead);
                __builtin_prefetch(ahead + kk - 1);
            }
            const int32_t j = item[e];
            if (j >= parts[in].last) {  // the next partition: add this one's sum
                for (int32_t l = 0; l < kk; ++l) {
                    sum[l] += part[l];
                    part[l] = 0.0;
                }
                while (j >= parts[in].last) ++in;
            }
            const double *qj = q + static_cast<int64_t>(j) * kk;
            for (int32_t l = 0; l < kk; ++l) part[l] += qj[l];
        }
        double *row = total + c * kk;
        for (int32_t l = 0; l < kk; ++l) row[l] = sum[l] + part[l];
    }
}

// The M-step (Z-5) from the counts of the last pass: sum the partitions' tables,
// add the smoothing pseudo-count, apply the confusion model and normalise each true
// class; the prior, when estimated, is the mean posterior. With `logs`, also log pi
// (log 0 = -inf marks impossible classes) and log w for the next E-step, so that it
// needs no pass of its own (run_e_step with logs_ready).
//
// One pass over blocks of workers does it all: each task sums the partitions' copies
// of its workers' rows (in partition order, so the sums never depend on the thread
// count) and turns them into confusion matrices and their logs.
void finish_m_step(const CrowdData &d, Workspace &ws, const FitOptions &options, DsParams &params,
                   bool logs = true) {
    const int32_t k = d.k;
    const int64_t kk = static_cast<int64_t>(k) * k;
    std::vector<double> &total = ws.total;  // reused every round: no allocation in the EM loop
    params.confusion.resize(static_cast<std::size_t>(ws.table));
    const bool pooled = options.smoothing_center == CS_SMOOTHING_CENTER_POOLED;
    const int64_t parts = ws.n_parts(), blocks = ws.n_worker_blocks(d.n_workers);
    const auto sum_block = [&](int64_t b) {
        const int64_t first = b * ws.worker_block * kk;
        const int64_t last = std::min<int64_t>(d.n_workers, (b + 1) * ws.worker_block) * kk;
        if (ws.pull()) {  // codes [first / k, last / k)
            with_classes(k, [&](auto kc) {
                pull_codes<decltype(kc)::value>(*ws.by_code, ws.parts, k, ws.pull_q, first / k, last / k, total.data());
            });
            return;
        }
        const double *tables = ws.counts.data();
        for (int64_t e = first; e < last; ++e) {
            double sum = tables[e];
            for (int64_t p = 1; p < parts; ++p) sum += tables[p * ws.table + e];
            total[e] = sum;
        }
    };
    double *class_mass = total.data() + ws.table;  // sum of q_jl over the items, per class l
    for (int32_t l = 0; l < k; ++l) {
        double sum = 0.0;
        for (int64_t p = 0; p < ws.n_parts(); ++p) sum += ws.prior_sums[p * k + l];
        class_mass[l] = sum;
    }
    // The sums are a pass of their own when something needs all of them before the
    // confusion matrices: a distributed fit (the counts and class mass of all processes'
    // items, sum_over_shards) or smoothing_center = pooled (every row also gets s P[l][o],
    // P this round's pooled confusion matrix, crowd/em/pooled_prior.hpp).
    const bool sums_first = pooled || d.shard != nullptr;
    if (sums_first) {
        ws.team.run(blocks, sum_block);
        sum_over_shards(d, total.data(), total.size());
        if (pooled) pooled_pseudo_counts(total.data(), d.n_workers, k, options, ws.pooled);
    }
    for_each_worker_block(d, ws, [&](int32_t first, int32_t last, int64_t b) {
        if (!sums_first) sum_block(b);
        for (int32_t i = first; i < last; ++i) {
            double *pi = params.confusion.data() + i * kk;
            const double *c = total.data() + i * kk;  // observed x true
            for (int32_t l = 0; l < k; ++l)
                for (int32_t o = 0; o < k; ++o)
                    pi[l * k + o] = options.smoothing + c[o * k + l] + (pooled ? ws.pooled[l * k + o] : 0.0);
            apply_confusion_model(pi, k, options.confusion);
            if (logs) log_transposed(pi, k, ws.log_pi.data() + i * kk);
        }
        if (logs && k == 2) fill_ratios(ws, first, last, b);
    });
    params.prior.assign(static_cast<std::size_t>(k), 1.0 / k);
    const int64_t n_items = total_items(d);
    if (options.prior == CS_PRIOR_ESTIMATED && n_items > 0)
        for (int32_t l = 0; l < k; ++l) params.prior[l] = class_mass[l] / static_cast<double>(n_items);
    if (logs) {
        for (int32_t l = 0; l < k; ++l) ws.log_prior[l] = std::log(params.prior[l]);
        if (k == 2) finish_ratios(d, ws);
    } else {
        ws.ratio_ready = false;
    }
}

// log pi (log_transposed) and log w of given parameters, for an E-step at parameters
// that did not come from finish_m_step (a start, an extrapolated SQUAREM point).
void prepare_logs(const CrowdData &d, const DsParams &params, Workspace &ws) {
    const int32_t k = d.k;
    const int64_t kk = static_cast<int64_t>(k) * k;
    for_each_worker_block(d, ws, [&](int32_t first, int32_t last, int64_t b) {  // fill_ratios' blocks
        for (int32_t i = first; i < last; ++i)
            log_transposed(params.confusion.data() + i * kk, k, ws.log_pi.data() + i * kk);
        if (k == 2) fill_ratios(ws, first, last, b);
    });
    for (int32_t l = 0; l < k; ++l) ws.log_prior[l] = std::log(params.prior[l]);
    if (k == 2) finish_ratios(d, ws);
}

// k = 2: the log ratios of the logs in ws.log_pi (as prepare_logs takes them, for logs
// that were taken elsewhere).
void ratios_from_logs(const CrowdData &d, Workspace &ws) {
    for_each_worker_block(d, ws, [&](int32_t first, int32_t last, int64_t b) { fill_ratios(ws, first, last, b); });
    finish_ratios(d, ws);
}

// The E-step at `params`; `logs_ready` when the finish_m_step that produced them has
// already filled the logs.
EStep run_e_step(const CrowdData &d, const DsParams &params, Workspace &ws, std::vector<double> &q,
                 bool scatter, bool logs_ready = false) {
    q.resize(static_cast<std::size_t>(d.n_items) * d.k);
    if (!logs_ready) prepare_logs(d, params, ws);
    e_step_parts(d, ws, params.prior.data(), q.data(), scatter);
    EStep result;
    if (d.k == 2 && ws.ratio_ready) result.log_likelihood = ws.ratio_ll;  // e_step_range_ratio
    for (int64_t p = 0; p < ws.n_parts(); ++p) {  // in partition order: deterministic
        result.log_likelihood += ws.part_ll[p];
        result.impossible_items += ws.part_impossible[p];
    }
    if (d.shard != nullptr) {  // the whole problem's (counts below 2^53 stay exact)
        double both[2] = {result.log_likelihood, static_cast<double>(result.impossible_items)};
        sum_over_shards(d, both, 2);
        result.log_likelihood = both[0];
        result.impossible_items = static_cast<int64_t>(both[1]);
    }
    return result;
}

// The EM loop's bookkeeping: every kept E-step adds its log-likelihood to the trace,
// is reported to the progress callback, and is tested against the stopping rule.
struct RoundLog {
    const FitOptions &options;
    const Progress &progress;
    FitResult &out;
    int32_t rounds = 0;
    bool converged = false;
    bool cancelled = false;

    // Record a kept round; test the stopping rule against `reference` (by default the
    // previous round): the relative change |L - L_ref| < tol |L_ref|, or no change at
    // all (at L = 0 the relative test could never fire). tol = 0 never stops.
    void record(double ll, bool test = true) {
        if (test && rounds >= 1) record_against(ll, out.trace.back());
        out.trace.push_back(ll);
        ++rounds;
        cancelled = progress.cancelled(rounds, ll);
    }
    void record_against(double ll, double reference) {
        converged = options.tol > 0.0 &&
                    (ll == reference || std::fabs(ll - reference) < options.tol * std::fabs(reference));
    }
    void record_tested_against(double ll, double reference) {
        record_against(ll, reference);
        out.trace.push_back(ll);
        ++rounds;
        cancelled = progress.cancelled(rounds, ll);
    }
    bool done() const { return converged || cancelled || rounds >= options.max_iter; }
};

// Name the classes of a start known only up to a renaming from the posteriors of its
// E-step (class_identification.hpp); true when that renamed `params`.
bool identify_by_vote(const CrowdData &data, const std::vector<double> &q, DsParams &params) {
    const std::vector<int32_t> sigma = vote_identification(data, q);
    if (is_identity(sigma)) return false;
    rename_classes(params, sigma, data.k);
    return true;
}

// The first round of every EM run: a parameter start's E-step (after which a start
// with identify_classes names its classes, redoing the E-step only if that renamed
// them), or a posterior start's M-step and E-step.
EStep first_round(const CrowdData &data, const FitOptions &options, bool from_params, bool identify,
                  Workspace &ws, DsParams &params, std::vector<double> &q, RoundLog &log) {
    if (!from_params) finish_m_step(data, ws, options, params);
    EStep first = run_e_step(data, params, ws, q, true, !from_params);
    if (from_params && identify && identify_by_vote(data, q, params))
        first = run_e_step(data, params, ws, q, true);
    log.record(first.log_likelihood);
    return first;
}

// Plain EM after the first round: rounds of (M-step, E-step).
EStep plain_em(const CrowdData &data, const FitOptions &options, Workspace &ws, DsParams &params,
               std::vector<double> &q, RoundLog &log, EStep last) {
    while (!log.done()) {
        finish_m_step(data, ws, options, params);
        last = run_e_step(data, params, ws, q, true, true);
        log.record(last.log_likelihood);
    }
    return last;
}

// f(e, t) for every confusion entry of a table of `table` entries: e its place in the
// parameters SQUAREM extrapolates (worker by worker, true class l by observed class o;
// the prior follows at `table`), t its place in the transposed logs (observed x true).
template <class F>
void for_each_confusion_entry(std::size_t table, int32_t k, F &&f) {
    const std::size_t kk = static_cast<std::size_t>(k) * k;
    for (std::size_t row = 0; row < table; row += kk)
        for (int32_t l = 0; l < k; ++l)
            for (int32_t o = 0; o < k; ++o)
                f(row + static_cast<std::size_t>(l) * k + o, row + static_cast<std::size_t>(o) * k + l);
}

// SQUAREM works here on the logarithms of the parameters: the extrapolated entries
// are then positive whatever alpha (SQUAREM applies to any smooth parameterisation of
// the EM map), and the entries EM drives towards 0 -- geometrically, the slow
// direction of EM on real crowds -- are extrapolated along their own geometric path
// instead of being cut short at the boundary. For the points a, b = F(a), c = F(b):
// r = log b - log a and v = log c - 2 log b + log a per entry (log a itself is read
// where it is kept, see extrapolate); `used` is 0 for entries that are 0 in any of
// them (not extrapolated).
//
// The logs of a and b are the E-steps' own (log pi as log_transposed laid it out,
// observed x true, and log w; log 0 = -inf): a's were taken for its E-step, b's by
// the M-step that made it. Only c's are taken here, in place of b's (which nothing
// needs after this), so that c's E-step, when the cycle ends at c, needs no logs of
// its own either. They are the same std::log of the same entries, so the steps are
// those of three logs per entry, bit for bit, at one log per entry (the logs were a
// quarter of a fit of a sparse crowd: 60,000 labels from 60,000 workers, k = 3). The
// vectors are reused from cycle to cycle.
struct LogSteps {
    std::vector<double> r, v;
    std::vector<char> used;
    double r2 = 0.0, v2 = 0.0;  // ||r||^2 and ||v||^2 of SqS3

    // log_a_pi, log_bc_pi: m x k (observed) x k (true); log_a_prior, log_bc_prior: k.
    // log_bc_* hold b's logs on entry and c's on return.
    void compute(const double *log_a_pi, const double *log_a_prior, double *log_bc_pi, double *log_bc_prior,
                 const DsParams &c, int32_t k) {
        const std::size_t table = c.confusion.size(), n = table + c.prior.size();
        r.resize(n);  // every entry is written below
        v.resize(n);
        used.resize(n);
        r2 = v2 = 0.0;
        const auto step = [&](std::size_t e, double la, double &lbc, double ce) {
            const double lb = lbc, lc = ce == 0.0 ? kMinusInf : std::log(ce);  // as log_transposed
            lbc = lc;
            if (ce == 0.0 || lb == kMinusInf || la == kMinusInf) {  // an entry 0 in c, b or a
                r[e] = v[e] = 0.0;
                used[e] = 0;
                return;
            }
            r[e] = lb - la;
            v[e] = lc - 2.0 * lb + la;
            used[e] = 1;
            r2 += r[e] * r[e];
            v2 += v[e] * v[e];
        };
        for_each_confusion_entry(table, k, [&](std::size_t e, std::size_t t) {
            step(e, log_a_pi[t], log_bc_pi[t], c.confusion[e]);
        });
        for (int32_t l = 0; l < k; ++l) step(table + l, log_a_prior[l], log_bc_prior[l], c.prior[l]);
    }
};

// theta(alpha) = a - 2 alpha r + alpha^2 v (Varadhan and Roland 2008, eq. 8) on the
// logarithms, log a read from the logs LogSteps::compute took it from (log_a_pi
// transposed, log_a_prior). Entries that are 0 in c (EM's next iterate) stay 0, as EM
// keeps them; entries 0 in a or b take c's value. Each confusion row and the prior are
// renormalised.
void extrapolate(const LogSteps &steps, const double *log_a_pi, const double *log_a_prior, const DsParams &c,
                 double alpha, int32_t k, DsParams &out) {
    out = c;
    const std::size_t table = out.confusion.size();
    const auto point = [&](std::size_t e, double la, double &x_out) {
        if (!steps.used[e]) return;
        const double x = std::exp(squarem_log_point(la, steps.r[e], steps.v[e], alpha));
        if (x > 0.0 && std::isfinite(x)) x_out = x;
    };
    for_each_confusion_entry(table, k,
                             [&](std::size_t e, std::size_t t) { point(e, log_a_pi[t], out.confusion[e]); });
    for (int32_t l = 0; l < k; ++l) point(table + l, log_a_prior[l], out.prior[l]);
    const std::size_t rows = out.confusion.size() / static_cast<std::size_t>(k);
    for (std::size_t row = 0; row <= rows; ++row) {  // the last "row" is the prior
        double *x = row < rows ? out.confusion.data() + row * k : out.prior.data();
        double sum = 0.0;
        for (int32_t l = 0; l < k; ++l) sum += x[l];
        for (int32_t l = 0; l < k; ++l) x[l] /= sum;
    }
}

// SQUAREM (Varadhan and Roland 2008, SqS3 step length with the SQUAREM package's
// adaptive bound) on the EM map F = M-step o E-step of the parameters theta =
// (confusion, prior). From a point a whose E-step is done, each cycle takes
// b = F(a), the E-step at b (one kept round), c = F(b) (the M-step only), then the
// extrapolation theta' and its E-step. theta' is kept (one more round) when its
// log-likelihood is at least b's; otherwise the cycle falls back to c, the plain EM
// step, and evaluates it instead. So the trace never decreases, every kept round costs
// one E-step pass, and a rejected extrapolation one extra pass.
EStep squarem_em(const CrowdData &data, const FitOptions &options, Workspace &ws, DsParams &params,
                 std::vector<double> &q, RoundLog &log, EStep last) {
    const int32_t k = data.k;
    // The first round (plain, before this) made `params` a point whose E-step is done.
    double alpha_max = 1.0;  // the SQUAREM package's step.max0 (util/squarem.hpp)
    DsParams b, c, trial;
    LogSteps steps;
    Workspace::Table log_a_pi;  // log pi of a (ws.log_pi's previous contents, swapped out)
    allocate_table(log_a_pi, ws.log_pi.size());
    std::vector<double> log_a_prior(static_cast<std::size_t>(k));
    while (!log.done()) {
        // The extrapolated point is tested against a, the start of its cycle: the change
        // between b and that point can be small while the cycle still moves, and
        // stopping there would end short of plain EM's fixed point.
        const double at_a = last.log_likelihood;
        // The logs of a, the point whose E-step is done (see LogSteps): the M-step
        // below writes b's into ws.log_pi, every entry of it.
        std::swap(log_a_pi, ws.log_pi);
        log_a_prior = ws.log_prior;
        finish_m_step(data, ws, options, b);
        const EStep at_b = run_e_step(data, b, ws, q, true, true);
        log.record(at_b.log_likelihood);  // a plain EM step from a: plain EM's rule
        if (log.done()) {
            params = std::move(b);
            return at_b;
        }
        finish_m_step(data, ws, options, c, false);  // its E-step, if any, follows an extrapolation
        steps.compute(log_a_pi.data(), log_a_prior.data(), ws.log_pi.data(), ws.log_prior.data(), c, k);
        ws.ratio_ready = false;  // ws.log_pi now holds c's logs; the ratios are still b's
        // SqS3: alpha = -||r|| / ||v||, at most alpha_max in size and at least 1 (alpha
        // = -1 is exactly c, the plain step).
        const double alpha = squarem_step_length(steps.r2, steps.v2, alpha_max);
        bool accepted = false, rejected = false;
        if (alpha < -1.0) {
            extrapolate(steps, log_a_pi.data(), log_a_prior.data(), c, alpha, k, trial);
            // c's logs are kept aside (a's are no longer needed) while the trial's E-step
            // takes its own.
            std::swap(log_a_pi, ws.log_pi);
            std::swap(log_a_prior, ws.log_prior);
            const EStep at_trial = run_e_step(data, trial, ws, q, true);
            accepted = at_trial.log_likelihood >= at_b.log_likelihood &&
                       at_trial.impossible_items <= at_b.impossible_items;
            rejected = !accepted;
            if (accepted) {
                params = std::move(trial);
                last = at_trial;
            } else {
                std::swap(log_a_pi, ws.log_pi);
                std::swap(log_a_prior, ws.log_prior);
            }
        }
        if (!accepted) {  // the plain EM step, from c's logs (LogSteps::compute)
            params = std::move(c);
            if (k == 2) ratios_from_logs(data, ws);
            last = run_e_step(data, params, ws, q, true, true);
        }
        alpha_max = squarem_next_bound(alpha_max, alpha, rejected);
        log.record_tested_against(last.log_likelihood, at_a);
    }
    return last;
}

}  // namespace

void note_max_iter(const FitOptions &options, FitResult &out) {
    if (options.max_iter == 0 || options.tol == 0.0) return;  // asked for exactly that many rounds
    out.notes |= CS_NOTE_MAX_ITER_REACHED;
    out.note_message += "EM stopped at max_iter = " + std::to_string(options.max_iter) +
                        " rounds before the relative log-likelihood change fell below tol. ";
}

// With many workers each label's scatter is a read-modify-write of a random row of a
// table beyond the caches, the larger part of a round's time (10^7 labels from 10^5
// workers, k = 5: about 40 of 65 ns per label); the gather reads the item's posterior
// row instead, and leaves no tables to clear and sum. But while log pi and a count
// table stay in the last-level cache the scatter is the faster: measured on 10^7 labels
// (bench/README.md, issue 19), the gather lost at tables of 6 and 7.7 MB (k = 5 and 4)
// and won from 10 MB (k = 3..6, 1.2-1.3x). So the threshold, options.pull_table_bytes,
// is 8 MiB a table: log pi and one count table together at half of the 32 MiB
// last-level cache of the machine measured. At k = 2 the scatter moves 16 bytes a label
// and the gather gained 7 % at 12.8 MB: not worth its 4 bytes a label, so k = 2 keeps
// the scatter.
bool gathers_counts(const CrowdData &data, const FitOptions &options) {
    const int64_t table = static_cast<int64_t>(data.n_workers) * data.k * data.k;
    return data.k >= 3 && table * static_cast<int64_t>(sizeof(double)) >= options.pull_table_bytes;
}

bool restricts_support(const CrowdData &data, const FitOptions &options) {
    return options.support == CS_SUPPORT_ANSWERED || (options.support == CS_SUPPORT_AUTO && data.k >= 3);
}

std::vector<uint8_t> answer_sets(const CrowdData &data) {
    const int32_t k = data.k;
    std::vector<uint8_t> allowed(static_cast<std::size_t>(data.n_items) * k, 0);
    for (int32_t j = 0; j < data.n_items; ++j) {
        uint8_t *a = allowed.data() + static_cast<int64_t>(j) * k;
        if (data.item_start[j] == data.item_start[j + 1]) {
            std::fill(a, a + k, uint8_t{1});  // no answers: no restriction
            continue;
        }
        for (int64_t p = data.item_start[j]; p < data.item_start[j + 1]; ++p) a[data.label_of(p)] = 1;
    }
    return allowed;
}

void m_step(const CrowdData &data, const std::vector<double> &q, const FitOptions &options,
            DsParams &params) {
    Workspace ws(data, options, true, false);
    scatter_posteriors(data, ws, q.data());
    finish_m_step(data, ws, options, params, false);
}

EStep e_step(const CrowdData &data, const DsParams &params, const FitOptions &options,
             std::vector<double> &q) {
    Workspace ws(data, options, false);
    return run_e_step(data, params, ws, q, false);
}

std::vector<int32_t> argmax_labels(const std::vector<double> &q, int32_t n_items, int32_t k) {
    std::vector<int32_t> labels(static_cast<std::size_t>(n_items));
    for (int32_t j = 0; j < n_items; ++j) {
        const double *qj = q.data() + static_cast<int64_t>(j) * k;
        int32_t best = 0;
        for (int32_t l = 1; l < k; ++l)
            if (qj[l] > qj[best]) best = l;
        labels[j] = best;
    }
    return labels;
}

bool run_em(const CrowdData &data, const FitOptions &options, const Progress &progress,
            EmStart start, FitResult &out, DsParams *next) {
    const bool from_params = !start.params.confusion.empty();
    DsParams params = std::move(start.params);
    std::vector<double> q = std::move(start.posteriors);
    Workspace ws(data, options, true, true, start.answer_sets, start.by_code);
    out.trace.clear();
    out.has_log_likelihood = true;

    // A posterior start's first M-step needs the counts of the start.
    if (!from_params) scatter_posteriors(data, ws, q.data());

    RoundLog log{options, progress, out};
    log.cancelled = progress.cancelled(0, 0.0);
    EStep last;
    if (log.cancelled || options.max_iter == 0) {
        // No EM round: complete the starting point into a consistent fit.
        if (from_params) {
            last = run_e_step(data, params, ws, q, false);
            if (start.identify_classes && identify_by_vote(data, q, params))
                last = run_e_step(data, params, ws, q, false);
        } else {
            finish_m_step(data, ws, options, params, false);
        }
    } else {
        last = first_round(data, options, from_params, start.identify_classes, ws, params, q, log);
        last = options.accel == CS_ACCEL_SQUAREM ? squarem_em(data, options, ws, params, q, log, last)
                                                 : plain_em(data, options, ws, params, q, log, last);
    }
    // The next M-step, for a caller that continues this EM later (its counts are those
    // of the last E-step, which scattered whenever a round ran).
    if (next != nullptr && log.rounds > 0) finish_m_step(data, ws, options, *next, false);

    out.iterations = log.rounds;
    out.converged = log.converged;
    out.posteriors = std::move(q);
    out.confusion = std::move(params.confusion);
    out.prior = std::move(params.prior);
    out.labels = argmax_labels(out.posteriors, data.n_items, data.k);
    // A run that hands over its continuation point (`next`) is a segment of a longer
    // fit: its caller decides whether the fit as a whole stopped at max_iter.
    if (next == nullptr && !log.converged && !log.cancelled) note_max_iter(options, out);
    if (last.impossible_items > 0) {
        out.notes |= CS_NOTE_IMPOSSIBLE_ITEMS;
        out.note_message += std::to_string(last.impossible_items) +
                            " items have zero likelihood under every class (zero confusion "
                            "entries); they got the prior as posterior. ";
    }
    if (log.cancelled) out.notes |= CS_NOTE_CANCELLED;
    return log.cancelled;
}

namespace {

bool fit_ds_with(const CrowdData &data, const FitOptions &options, const Progress &progress, FitResult &out) {
    EmStart start;
    start.posteriors = soft_majority_vote(data, options.threads);
    return run_em(data, options, progress, std::move(start), out);
}

}  // namespace

bool fit_ds(const CrowdData &data, const FitOptions &options, const Progress &progress, FitResult &out) {
    return fit_ds_with(data, options, progress, out);
}

bool fit_one_coin_ds(const CrowdData &data, const FitOptions &options, const Progress &progress, FitResult &out) {
    FitOptions fixed = options;
    fixed.confusion = CS_CONFUSION_ONE_COIN;
    return fit_ds_with(data, fixed, progress, out);
}

bool fit_class_one_coin_ds(const CrowdData &data, const FitOptions &options, const Progress &progress,
                           FitResult &out) {
    FitOptions fixed = options;
    fixed.confusion = CS_CONFUSION_CLASS_ONE_COIN;
    return fit_ds_with(data, fixed, progress, out);
}

}  // namespace cs
