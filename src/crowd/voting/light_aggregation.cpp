// SPDX-License-Identifier: MIT
// LA one-pass and two-pass (docs/algorithms.md, "LA"). Worker w's ability is the mode of
// its Beta(alpha, beta) posterior given hard agreement counts,
//   L1  a_w = (alpha - 1 + c_w) / (alpha + beta - 2 + t_w),
// t_w = labels of w seen so far, c_w = how many agreed with their item's decision.
//   L2  pass 1, item by item in a fixed order: s_l = sum of a_w over the item's labels l;
//       decide the largest s_l (lowest class on ties); then every labeller's t_w += 1,
//       c_w += [its label = the decision], a_w by L1.
//   L3  pass 2 (two-pass only): s_l = sum of (k a_w - 1) over the item's labels l with the
//       final abilities; decide the largest s_l over the classes the item got.
// Pass 1 is sequential by nature (each decision uses the abilities of the items before
// it); pass 2 runs over the items in parallel.
#include "crowd/voting/light_aggregation.hpp"

#include <algorithm>
#include <numeric>
#include <vector>

#include "crowd/em/dawid_skene.hpp"
#include "crowd/voting/majority_vote.hpp"
#include "crowd/voting/weighted_vote.hpp"
#include "util/fixed_divisor.hpp"
#include "util/parallel.hpp"
#include "util/rng.hpp"

namespace cs {

namespace {

// The workers' agreement counts and the Beta prior behind their abilities (L1).
struct Abilities {
    double alpha = 2.0, beta = 2.0;
    std::vector<int64_t> seen, agreed;  // t_w, c_w

    Abilities(int32_t n_workers, const FitOptions &o)
        : alpha(o.la_alpha), beta(o.la_beta), seen(static_cast<std::size_t>(n_workers), 0),
          agreed(static_cast<std::size_t>(n_workers), 0) {}

    double of(int32_t w) const {
        const double den = alpha + beta - 2.0 + static_cast<double>(seen[w]);
        // alpha = beta = 1 (a flat prior) has no mode before the first label: its mean.
        return den > 0.0 ? (alpha - 1.0 + static_cast<double>(agreed[w])) / den : 0.5;
    }
    std::vector<double> all() const {
        std::vector<double> a(seen.size());
        for (std::size_t w = 0; w < a.size(); ++w) a[w] = of(static_cast<int32_t>(w));
        return a;
    }
};

// The order of pass 1: a permutation of the items drawn from the seed (Fisher-Yates), or
// the item ids in increasing order (the arrival order of an online stream).
std::vector<int32_t> item_order(int32_t n_items, const FitOptions &o) {
    std::vector<int32_t> order(static_cast<std::size_t>(n_items));
    std::iota(order.begin(), order.end(), 0);
    if (o.la_order == CS_LA_ORDER_RANDOM) {
        Rng rng(o.seed);
        for (int32_t i = n_items - 1; i > 0; --i)
            std::swap(order[i], order[rng.below(static_cast<uint64_t>(i) + 1)]);
    }
    return order;
}

// Uniform over the classes that `mark` flags (at least one).
void uniform_over(const std::vector<uint8_t> &mark, int32_t k, double *qj) {
    double count = 0.0;
    for (int32_t c = 0; c < k; ++c) count += mark[c];
    for (int32_t c = 0; c < k; ++c) qj[c] = mark[c] ? 1.0 / count : 0.0;
}

// Pass 1 (L2): every item's decision as the normalised ability-weighted vote at the time
// it is decided (its posterior row; the decision is the row's first largest entry, so the
// label is the argmax of the row, as in every method), and the final counts.
void first_pass(const CrowdData &d, const FitOptions &o, Abilities &ab, std::vector<double> &q) {
    const int32_t k = d.k;
    const FixedDivisor split(static_cast<uint32_t>(k));
    std::vector<double> score(static_cast<std::size_t>(k));
    std::vector<uint8_t> voted(static_cast<std::size_t>(k));
    const std::vector<int32_t> order = item_order(d.n_items, o);
    const std::size_t n = order.size();
    for (std::size_t at = 0; at < n; ++at) {
        // In a random order every item is a cache miss (its offsets, its labels, its row):
        // ask for them ahead, the offsets 16 items ahead, the labels and row 8 ahead.
        if (at + 16 < n) __builtin_prefetch(d.item_start.data() + order[at + 16]);
        if (at + 8 < n) {
            const int32_t ahead = order[at + 8];
            __builtin_prefetch(d.item_code.data() + d.item_start[ahead]);
            __builtin_prefetch(q.data() + static_cast<std::size_t>(ahead) * k, 1);
        }
        const int32_t j = order[at];
        double *qj = q.data() + static_cast<std::size_t>(j) * k;
        const int64_t first = d.item_start[j], last = d.item_start[j + 1];
        int32_t decision = d.gold_of(j);
        if (decision >= 0) {
            qj[decision] = 1.0;  // a known class decides, and the labellers are scored against it
        } else if (first == last) {
            continue;  // no labels: nothing to decide or learn (uniform, set by the caller)
        } else {
            std::fill(score.begin(), score.end(), 0.0);
            std::fill(voted.begin(), voted.end(), 0);
            double total = 0.0;
            for (int64_t p = first; p < last; ++p) {
                const uint32_t w = split.quotient(d.item_code[p]);
                const int32_t l = static_cast<int32_t>(d.item_code[p] - w * static_cast<uint32_t>(k));
                const double a = ab.of(static_cast<int32_t>(w));
                score[l] += a;
                voted[l] = 1;
                total += a;
            }
            if (total > 0.0) {
                for (int32_t c = 0; c < k; ++c) qj[c] = score[c] / total;
            } else {
                uniform_over(voted, k, qj);  // every labeller has ability 0 (alpha = 1)
            }
            decision = static_cast<int32_t>(std::max_element(qj, qj + k) - qj);
        }
        for (int64_t p = first; p < last; ++p) {
            const uint32_t w = split.quotient(d.item_code[p]);
            ++ab.seen[w];
            // The label agrees when the code is the worker's code of the decision.
            ab.agreed[w] += d.item_code[p] == w * static_cast<uint32_t>(k) + static_cast<uint32_t>(decision);
        }
    }
}

// Pass 2 (L3): the vote with weights k a_w - 1 over the classes each item got. Its row:
// the positive parts of the class sums, normalised; when no class has a positive sum,
// uniform over the classes of the largest sum. Either way the row's first largest entry
// is the decision (lowest class on ties).
void second_pass(const CrowdData &d, const std::vector<double> &ability, int threads, std::vector<double> &q) {
    const int32_t k = d.k;
    const FixedDivisor split(static_cast<uint32_t>(k));
    constexpr int32_t kBlockItems = 16384;  // each block of items one task, its rows its own
    Team team(threads);
    team.run(chunk_count(d.n_items, kBlockItems), [&](int64_t block) {
        std::vector<double> score(static_cast<std::size_t>(k));
        std::vector<uint8_t> voted(static_cast<std::size_t>(k)), best(static_cast<std::size_t>(k));
        const int32_t first_item = static_cast<int32_t>(block * kBlockItems);
        const int32_t last_item = std::min(d.n_items, first_item + kBlockItems);
        for (int32_t j = first_item; j < last_item; ++j) {
            const int64_t first = d.item_start[j], last = d.item_start[j + 1];
            if (d.gold_of(j) >= 0 || first == last) continue;  // as after pass 1
            double *qj = q.data() + static_cast<std::size_t>(j) * k;
            std::fill(score.begin(), score.end(), 0.0);
            std::fill(voted.begin(), voted.end(), 0);
            for (int64_t p = first; p < last; ++p) {
                const uint32_t w = split.quotient(d.item_code[p]);
                const int32_t l = static_cast<int32_t>(d.item_code[p] - w * static_cast<uint32_t>(k));
                score[l] += k * ability[w] - 1.0;
                voted[l] = 1;
            }
            double top = 0.0, positive = 0.0;
            bool any = false;
            for (int32_t c = 0; c < k; ++c) {
                if (!voted[c]) continue;
                if (!any || score[c] > top) top = score[c];
                any = true;
                if (score[c] > 0.0) positive += score[c];
            }
            if (top > 0.0) {
                for (int32_t c = 0; c < k; ++c) qj[c] = voted[c] && score[c] > 0.0 ? score[c] / positive : 0.0;
            } else {
                for (int32_t c = 0; c < k; ++c) best[c] = voted[c] && score[c] == top;
                uniform_over(best, k, qj);
            }
        }
    });
}

bool fit_light_aggregation(const CrowdData &data, const FitOptions &options, const Progress &progress,
                           bool two_pass, FitResult &out) {
    const int32_t k = data.k;
    Abilities ab(data.n_workers, options);
    out.iterations = 0;  // iterations count the passes over the labels (nothing converges)
    bool cancelled = progress.cancelled(0, 0.0);
    if (cancelled) {
        // Cancelled before the first pass: what it would start from, every ability at its
        // prior value, under which a decision is the majority vote.
        out.posteriors = soft_majority_vote(data, options.threads);
    } else {
        out.posteriors.assign(static_cast<std::size_t>(data.n_items) * k, 0.0);
        first_pass(data, options, ab, out.posteriors);
        out.iterations = 1;
        out.trace.push_back(0.0);
        cancelled = progress.cancelled(1, 0.0);
    }
    const std::vector<double> ability = ab.all();
    if (two_pass && !cancelled) {
        second_pass(data, ability, threads_for(options.threads, static_cast<int64_t>(data.n_labels())),
                    out.posteriors);
        out.iterations = 2;
        out.trace.push_back(0.0);
        cancelled = progress.cancelled(2, 0.0);
    }
    for (int32_t j = 0; j < data.n_items; ++j)
        if (data.gold_of(j) < 0 && data.item_start[j + 1] == data.item_start[j])
            std::fill_n(out.posteriors.begin() + static_cast<std::ptrdiff_t>(j) * k, k, 1.0 / k);
    out.labels = argmax_labels(out.posteriors, data.n_items, k);
    out.converged = !cancelled;
    if (cancelled) out.notes |= CS_NOTE_CANCELLED;
    // A worker's confusion matrix is one-coin with its final ability as accuracy.
    out.confusion = one_coin_confusion(ability, ab.seen, k);
    out.prior = posterior_mean_prior(out.posteriors, data.n_items, k, options);
    out.has_log_likelihood = false;
    return cancelled;
}

}  // namespace

bool fit_la_onepass(const CrowdData &data, const FitOptions &options, const Progress &progress, FitResult &out) {
    return fit_light_aggregation(data, options, progress, false, out);
}

bool fit_la(const CrowdData &data, const FitOptions &options, const Progress &progress, FitResult &out) {
    return fit_light_aggregation(data, options, progress, true, out);
}

}  // namespace cs
