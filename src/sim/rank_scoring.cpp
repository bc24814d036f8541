// SPDX-License-Identifier: MIT
#include "sim/rank_scoring.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>

namespace cs::sim {

namespace {

// Average ranks (1-based; ties share the mean of their positions).
std::vector<double> average_ranks(const std::vector<double> &x) {
    const std::size_t n = x.size();
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return x[a] < x[b]; });
    std::vector<double> rank(n);
    for (std::size_t i = 0; i < n;) {
        std::size_t j = i;
        while (j + 1 < n && x[order[j + 1]] == x[order[i]]) ++j;
        const double mean = 0.5 * static_cast<double>(i + j) + 1.0;
        for (std::size_t k = i; k <= j; ++k) rank[order[k]] = mean;
        i = j + 1;
    }
    return rank;
}

double pearson(const std::vector<double> &a, const std::vector<double> &b) {
    const double n = static_cast<double>(a.size());
    const double ma = std::accumulate(a.begin(), a.end(), 0.0) / n, mb = std::accumulate(b.begin(), b.end(), 0.0) / n;
    double sab = 0.0, saa = 0.0, sbb = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        sab += (a[i] - ma) * (b[i] - mb);
        saa += (a[i] - ma) * (a[i] - ma);
        sbb += (b[i] - mb) * (b[i] - mb);
    }
    return saa > 0.0 && sbb > 0.0 ? sab / std::sqrt(saa * sbb) : 0.0;
}

// Pairs tied within runs of equal values of key over `order` (already sorted by key).
template <class Equal>
double tied_pairs(const std::vector<std::size_t> &order, Equal equal) {
    double pairs = 0.0, run = 1.0;
    for (std::size_t k = 1; k <= order.size(); ++k) {
        if (k < order.size() && equal(order[k - 1], order[k])) {
            run += 1.0;
        } else {
            pairs += run * (run - 1.0) / 2.0;
            run = 1.0;
        }
    }
    return pairs;
}

// Merge sort of v counting the pairs i < j with v[i] > v[j] (the swaps).
double sort_counting_swaps(std::vector<double> &v, std::vector<double> &buffer, std::size_t lo, std::size_t hi) {
    if (hi - lo < 2) return 0.0;
    const std::size_t mid = lo + (hi - lo) / 2;
    double swaps = sort_counting_swaps(v, buffer, lo, mid) + sort_counting_swaps(v, buffer, mid, hi);
    std::size_t i = lo, j = mid, k = lo;
    while (i < mid && j < hi) {
        if (v[j] < v[i]) {
            swaps += static_cast<double>(mid - i);
            buffer[k++] = v[j++];
        } else {
            buffer[k++] = v[i++];
        }
    }
    while (i < mid) buffer[k++] = v[i++];
    while (j < hi) buffer[k++] = v[j++];
    std::copy(buffer.begin() + static_cast<std::ptrdiff_t>(lo), buffer.begin() + static_cast<std::ptrdiff_t>(hi),
              v.begin() + static_cast<std::ptrdiff_t>(lo));
    return swaps;
}

}  // namespace

RankAgreement rank_agreement(const std::vector<double> &estimate, const std::vector<double> &truth) {
    RankAgreement r;
    const std::size_t n = std::min(estimate.size(), truth.size());
    r.items = n;
    if (n < 2) return r;
    std::vector<double> e(estimate.begin(), estimate.begin() + static_cast<std::ptrdiff_t>(n));
    std::vector<double> t(truth.begin(), truth.begin() + static_cast<std::ptrdiff_t>(n));
    r.spearman = pearson(average_ranks(e), average_ranks(t));

    // Knight (1966): sort by (truth, estimate); count the ties, then the swaps of a merge
    // sort of the estimates, which are the discordant pairs.
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return t[a] != t[b] ? t[a] < t[b] : e[a] < e[b];
    });
    const double all = static_cast<double>(n) * static_cast<double>(n - 1) / 2.0;
    const double tied_truth = tied_pairs(order, [&](std::size_t a, std::size_t b) { return t[a] == t[b]; });
    const double tied_both =
        tied_pairs(order, [&](std::size_t a, std::size_t b) { return t[a] == t[b] && e[a] == e[b]; });
    std::vector<double> sorted(n), buffer(n);
    for (std::size_t k = 0; k < n; ++k) sorted[k] = e[order[k]];
    const double discordant = sort_counting_swaps(sorted, buffer, 0, n);
    std::vector<std::size_t> identity(n);
    std::iota(identity.begin(), identity.end(), 0);
    const double tied_estimate = tied_pairs(identity, [&](std::size_t a, std::size_t b) { return sorted[a] == sorted[b]; });

    const double concordant_minus_discordant = all - tied_truth - tied_estimate + tied_both - 2.0 * discordant;
    const double denominator = std::sqrt((all - tied_truth) * (all - tied_estimate));
    r.kendall = denominator > 0.0 ? concordant_minus_discordant / denominator : 0.0;
    r.ordered_pairs = all - tied_truth;
    const double estimate_ties = tied_estimate - tied_both;  // among the pairs the truth orders
    const double concordant = r.ordered_pairs - discordant - estimate_ties;
    r.pair_accuracy = r.ordered_pairs > 0.0 ? (concordant + 0.5 * estimate_ties) / r.ordered_pairs : 0.0;
    return r;
}

}  // namespace cs::sim
