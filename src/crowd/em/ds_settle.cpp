// SPDX-License-Identifier: MIT
// The E-step of an update's rounds of incremental EM (ds_steps.hpp: e_step_settle): the
// working items' posteriors at the current parameters (Z-4, as e_step_range forms them)
// and, in the same pass, each item's change of share moved into the sums, so that the
// sums never leave the working items out (Neal and Hinton 1998, sec. 3-4).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "crowd/em/ds_kernel.hpp"
#include "crowd/em/ds_steps.hpp"
#include "util/per_class.hpp"

namespace cs::ds {

namespace {

// One item's share in an update round's sums (e_step_settle): `change`, the new posterior
// less the old one already in the sums (or the new one alone), added into the count row
// of each of its labels and into the class mass, clamped at 0 (a count is never
// negative; rounding can leave one a hair below where its true value is 0).
template <int K>
inline void move_item_share(const CrowdData &d, int64_t j, int32_t k, const double *change, double *counts,
                            double *class_mass) {
    const int32_t kk = K > 0 ? K : k;
    for (int64_t p = d.item_start[j]; p < d.item_start[j + 1]; ++p) {
        double *row = counts + static_cast<int64_t>(d.item_code[p]) * kk;
        for (int32_t l = 0; l < kk; ++l) row[l] = std::max(0.0, row[l] + change[l]);
    }
    for (int32_t l = 0; l < kk; ++l) class_mass[l] = std::max(0.0, class_mass[l] + change[l]);
}

// The running total of an update round's log-likelihood: top + log(sum) per ordinary
// item, the logs batched as the full E-step batches them (e_step_range); top alone for
// a gold item; nothing for an impossible one.
struct SettleTotal {
    double ll = 0.0, product = 1.0, largest = 0.0;
    double margin = std::numeric_limits<double>::infinity();  // smallest top - second posterior
    void add(double top, double sum, bool gold, bool impossible, int32_t k) {
        if (impossible) return;
        ll += top;
        if (gold) return;
        if (product > kFlush / k) {
            ll += std::log(product);
            product = 1.0;
        }
        product *= sum;
    }
};

// e_step_settle's loop, kBatch items at a time: their sums and posteriors as
// e_step_range forms them (Z-4), then their shares moved in item order. The posteriors
// read log pi alone, so the items of a batch are independent chains the processor can
// overlap; the moves keep the one-item-at-a-time order of the sums.
template <int K>
void settle_range(const CrowdData &d, int64_t n, const double *log_pi, const double *log_prior, const double *prior,
                  const uint8_t *allowed, bool shares_in_sums, double *q, double *top, double *sum,
                  uint8_t *impossible, double *counts, double *class_mass, const double *item_terms,
                  SettleTotal &total) {
    const int32_t k = K > 0 ? K : d.k;
    ClassScratch<K> sums(k), changes(k);
    double *s = sums.data(), *change = changes.data();
    std::vector<double> old(static_cast<std::size_t>(kBatch) * k);  // the batch's previous posteriors
    for (int64_t b = 0; b < n; b += kBatch) {
        const int64_t e = std::min(n, b + kBatch);
        std::copy(q + b * k, q + e * k, old.begin());
        for (int64_t j = b; j < e; ++j) {
            for (int32_t l = 0; l < k; ++l) s[l] = log_prior[l];
            for (int64_t p = d.item_start[j]; p < d.item_start[j + 1]; ++p) {
                const double *row = log_pi + static_cast<int64_t>(d.item_code[p]) * k;
                for (int32_t l = 0; l < k; ++l) s[l] += row[l];
            }
            if (item_terms != nullptr)  // a classifier's term m_j(t) (model_worker.hpp)
                for (int32_t l = 0; l < k; ++l) s[l] += item_terms[j * k + l];
            const uint8_t *allowed_j = allowed != nullptr ? allowed + j * k : nullptr;
            if (allowed_j != nullptr)
                for (int32_t l = 0; l < k; ++l)
                    if (!allowed_j[l]) s[l] = kMinusInf;
            const int32_t gold = d.gold_of(static_cast<int32_t>(j));
            const ItemPosterior item = posterior_from_sums<K>(s, k, gold, prior, allowed_j, q + j * k);
            top[j] = item.top;
            sum[j] = item.sum;
            impossible[j] = item.impossible ? 1 : 0;
            total.add(item.top, item.sum, gold >= 0, item.impossible, k);
            // A gold item's posterior is pinned, an impossible one's the prior: neither moves.
            if (gold < 0 && !item.impossible) total.margin = std::min(total.margin, top_margin(q + j * k, k));
        }
        for (int64_t j = b; j < e; ++j) {
            const double *qj = q + j * k, *was = old.data() + (j - b) * k;
            for (int32_t l = 0; l < k; ++l) {
                total.largest = std::max(total.largest, std::fabs(qj[l] - was[l]));
                change[l] = shares_in_sums ? qj[l] - was[l] : qj[l];
            }
            move_item_share<K>(d, j, k, change, counts, class_mass);
        }
    }
}

}  // namespace

// One round of an update's incremental EM (ds_steps.hpp). Fusing the removal of the old
// shares with the addition of the new halves the passes over the count rows, and the
// log of each item's sum is left to the end of the rounds (item_log_likelihood).
double e_step_settle(const CrowdData &d, int64_t n, const double *log_pi, const double *log_prior,
                     const double *prior, const uint8_t *allowed, bool shares_in_sums, double *q, double *top,
                     double *sum, uint8_t *impossible, double *counts, double *class_mass, double &moved,
                     double &margin, const double *item_terms) {
    SettleTotal total;
    with_classes(d.k, [&](auto kc) {
        constexpr int K = decltype(kc)::value;
        settle_range<K>(d, n, log_pi, log_prior, prior, allowed, shares_in_sums, q, top, sum, impossible, counts,
                        class_mass, item_terms, total);
    });
    moved = total.largest;
    margin = total.margin;
    return total.ll + std::log(total.product);
}

// The largest entry of a posterior row less the second largest (ds_steps.hpp).
double top_margin(const double *q, int32_t k) {
    double first = q[0], second = -std::numeric_limits<double>::infinity();
    for (int32_t l = 1; l < k; ++l) {
        if (q[l] > first) {
            second = first;
            first = q[l];
        } else if (q[l] > second) {
            second = q[l];
        }
    }
    return first - second;
}

double item_log_likelihood(const CrowdData &d, int64_t j, double top, double sum, bool impossible) {
    if (impossible) return 0.0;
    return d.gold_of(static_cast<int32_t>(j)) >= 0 ? top : top + std::log(sum);
}

}  // namespace cs::ds
