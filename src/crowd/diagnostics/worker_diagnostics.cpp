// SPDX-License-Identifier: MIT
#include "crowd/diagnostics/worker_diagnostics.hpp"

#include <algorithm>
#include <cmath>

#include "crowd/soft_counts.hpp"
#include "util/per_class.hpp"

namespace cs {

namespace {

// Raykar and Yu's score of a k x k matrix a: sum_{t<u} sum_c (a[t][c] - a[u][c])^2 /
// (k (k - 1)), by the identity sum_{t<u} (x_t - x_u)^2 = k sum_t x_t^2 - (sum_t x_t)^2
// per column c: O(k^2), not O(k^3).
double spammer_score(const double *a, int32_t k) {
    double s = 0.0;
    for (int32_t c = 0; c < k; ++c) {
        double sum = 0.0, squares = 0.0;
        for (int32_t t = 0; t < k; ++t) {
            const double x = a[static_cast<int64_t>(t) * k + c];
            sum += x;
            squares += x * x;
        }
        s += k * squares - sum * sum;
    }
    return std::max(0.0, s) / (static_cast<double>(k) * (k - 1));
}

// What the pass over the labels sums. Label codes (worker * k + label) index worker
// i's entries as i k .. i k + k - 1: labels[i k + c] = how many labels c worker i gave;
// hits[i k + t] = n_i[t][t]; mass[i k + t] = sum_c n_i[t][c]; typical the
// unnormalised sum_i n_i[t][c]; counts, when kept, every n_i[t][c] at i k^2 + c k + t
// (label-major, so that a label's k entries are adjacent).
struct SoftCounts {
    std::vector<double> hits, mass, counts, typical;
    std::vector<int64_t> labels;
};

// The hits, masses and typical worker from the counts, O(m k^2).
void sum_from_counts(int32_t n_workers, int32_t k, SoftCounts &s) {
    const int64_t kk = static_cast<int64_t>(k) * k;
    for (int64_t i = 0; i < n_workers; ++i)
        for (int32_t c = 0; c < k; ++c)
            for (int32_t t = 0; t < k; ++t) {
                const double n = s.counts[i * kk + c * k + t];
                s.mass[i * k + t] += n;
                s.typical[static_cast<int64_t>(t) * k + c] += n;
                if (t == c) s.hits[i * k + t] = n;
            }
}

// The pass keeping every soft count, by item (q_j read once), for a k fixed at compile
// time (K > 0: the loops over classes unroll) or at run time (K = 0): each label adds
// q_j to the k adjacent entries its code points at, with no division by k and no sum
// shared by all labels (whose additions would wait on one another); the hits, masses
// and the typical worker are then summed from the counts, O(m k^2).
template <int K>
void sum_all_soft_counts(const CrowdData &data, const std::vector<double> &posteriors, SoftCounts &s) {
    const int32_t k = K > 0 ? K : data.k;
    const uint32_t *code = data.item_code.data();
    for (int32_t j = 0; j < data.n_items; ++j) {
        add_soft_counts<K>(data, j, k, posteriors.data() + static_cast<int64_t>(j) * k, s.counts.data());
        for (int64_t p = data.item_start[j]; p < data.item_start[j + 1]; ++p) ++s.labels[code[p]];
    }
    sum_from_counts(data.n_workers, k, s);
}

// The counts EM's last E-step made of these very posteriors (FitResult::posterior_counts,
// the same layout): no pass over the labels. A code's label count is its row's sum (each
// label adds a posterior row that sums to 1), rounded.
void take_em_counts(const FitResult &out, int32_t n_workers, int32_t k, SoftCounts &s) {
    s.counts = out.posterior_counts;
    const int64_t codes = static_cast<int64_t>(n_workers) * k;
    for (int64_t c = 0; c < codes; ++c) {
        double n = 0.0;
        for (int32_t t = 0; t < k; ++t) n += s.counts[c * k + t];
        s.labels[c] = std::llround(n);
    }
    sum_from_counts(n_workers, k, s);
}

// The pass without the counts (fitted matrices over more than 2^22 worker x class x
// class entries): 2 k numbers a worker, k + 1 scattered additions a label.
void sum_hits_and_mass(const CrowdData &data, const std::vector<double> &posteriors, SoftCounts &s) {
    const int32_t k = data.k;
    for (int32_t j = 0; j < data.n_items; ++j) {
        const double *q = posteriors.data() + static_cast<int64_t>(j) * k;
        for (int64_t p = data.item_start[j]; p < data.item_start[j + 1]; ++p) {
            const uint32_t x = data.item_code[p], c = x % static_cast<uint32_t>(k), row = x - c;
            s.hits[x] += q[c];
            for (int32_t t = 0; t < k; ++t) {
                s.mass[row + t] += q[t];
                s.typical[static_cast<int64_t>(t) * k + c] += q[t];
            }
            ++s.labels[x];
        }
    }
}

// The label-next score of one item (see the header), for k fixed at compile time (K > 0)
// or not (K = 0).
template <int K>
void label_next_of_items(const FitResult &fit, double *score) {
    const int32_t k = K > 0 ? K : fit.k;
    const double *tm = fit.typical_confusion.data();
    // Each row's largest and smallest entry, for the test that settles most items
    // without the k^2 products.
    ClassScratch<K> high_scratch(k), low_scratch(k);
    double *high = high_scratch.data(), *low = low_scratch.data();
    for (int32_t t = 0; t < k; ++t) {
        const double *row = tm + static_cast<int64_t>(t) * k;
        high[t] = *std::max_element(row, row + k);
        low[t] = *std::min_element(row, row + k);
    }
    for (int32_t j = 0; j < fit.n_items; ++j) {
        const double *q = fit.posteriors.data() + static_cast<int64_t>(j) * k;
        // The first largest q(t), as std::max_element finds it, with the largest value
        // kept in a register and both selects made arithmetic: the class is random from
        // item to item, and compiled as branches (as `q[t] > q[top] ? t : top` was) it
        // was mispredicted on most items -- most of this loop's time at k = 5.
        int32_t top = 0;
        double top_q = q[0];
        for (int32_t t = 1; t < k; ++t) {
            const bool above = q[t] > top_q;  // false for a NaN, as in std::max_element
            top_q = above ? q[t] : top_q;
            top += static_cast<int32_t>(above) * (t - top);
        }
        // No label can change the item when every other class's best product, q(t) times
        // its row's largest entry, is at most the top class's worst, q(top) times its
        // row's smallest: rounding is monotone, so then q(t) T[t][c] <= q(top) T[top][c]
        // for every c as the loop below computes them, each of its terms is exactly 0,
        // and so is the score (the same value, k multiplications instead of k^2; most
        // items of a large crowd are settled so). A NaN fails the test and takes the loop.
        // (At k = 2 the loop is four products: the test would only add to them.)
        const double floor = top_q * low[top];
        bool settled = k > 2;
        for (int32_t t = 0; t < k; ++t) settled &= (t == top) | (q[t] * high[t] <= floor);
        if (settled) {
            score[j] = 0.0;
            continue;
        }
        // sum_c max_t q(t) T[t][c] - q(top), written as sum_c (max_t q(t) T[t][c] -
        // q(top) T[top][c]) (the rows of T sum to 1): each term >= 0, and exactly 0
        // where the current label stays the argmax after label c, so that an item no
        // single label can change scores 0, not a rounding residue.
        double gain = 0.0;
        for (int32_t c = 0; c < k; ++c) {
            const double stay = q[top] * tm[static_cast<int64_t>(top) * k + c];
            double best = stay;
            for (int32_t t = 0; t < k; ++t) best = std::max(best, q[t] * tm[static_cast<int64_t>(t) * k + c]);
            gain += best - stay;
        }
        score[j] = gain;
    }
}

}  // namespace

void compute_worker_diagnostics(const CrowdData &data, FitResult &out) {
    const int32_t k = data.k, m = data.n_workers;
    const int64_t kk = static_cast<int64_t>(k) * k;
    out.typical_confusion.clear();
    if (k < 2 || out.posteriors.size() != static_cast<std::size_t>(data.n_items) * k) return;
    // The pass keeps every soft count n_i[t][c] (k^2 a worker: the cheapest pass) up to
    // 2^22 entries (32 MiB). Beyond, every crowd method of the registry keeps confusion
    // matrices, which the spammer score then reads, and the pass keeps 2 k numbers a
    // worker (hits and mass per true class); only a method without them needs the counts,
    // and not beyond 2^26 entries (512 MiB): no diagnostics rather than a surprise
    // allocation.
    const bool fitted_matrices = out.confusion.size() == static_cast<std::size_t>(m) * kk;
    if (!fitted_matrices && static_cast<int64_t>(m) * kk > (int64_t{1} << 26)) return;
    const bool em_counts = out.posterior_counts.size() == static_cast<std::size_t>(m) * kk;
    const bool keep_counts = em_counts || !fitted_matrices || static_cast<int64_t>(m) * kk <= (int64_t{1} << 22);
    const std::size_t mk = static_cast<std::size_t>(m) * k;
    SoftCounts s;
    s.hits.assign(mk, 0.0);
    s.mass.assign(mk, 0.0);
    s.labels.assign(mk, 0);
    s.counts.assign(keep_counts && !em_counts ? mk * k : 0, 0.0);
    s.typical.assign(static_cast<std::size_t>(kk), 0.0);
    if (em_counts) take_em_counts(out, m, k, s);
    else if (!keep_counts) sum_hits_and_mass(data, out.posteriors, s);
    else if (k == 2) sum_all_soft_counts<2>(data, out.posteriors, s);
    else if (k == 3) sum_all_soft_counts<3>(data, out.posteriors, s);
    else if (k == 4) sum_all_soft_counts<4>(data, out.posteriors, s);
    else if (k == 5) sum_all_soft_counts<5>(data, out.posteriors, s);
    else sum_all_soft_counts<0>(data, out.posteriors, s);
    std::vector<double> &typical = s.typical;
    for (int32_t t = 0; t < k; ++t) {
        double *row = typical.data() + static_cast<int64_t>(t) * k;
        double sum = 0.0;
        for (int32_t c = 0; c < k; ++c) sum += row[c];
        // A class no label's item has mass on: the typical worker reveals nothing there.
        for (int32_t c = 0; c < k; ++c) row[c] = sum > 0.0 ? row[c] / sum : 1.0 / k;
    }
    out.typical_confusion = std::move(typical);
    out.worker_spammer.assign(static_cast<std::size_t>(m), 0.0);
    out.worker_worst_class.assign(static_cast<std::size_t>(m), -1);
    out.worker_accuracy.assign(static_cast<std::size_t>(m), std::nan(""));
    out.worker_accuracy_low.assign(static_cast<std::size_t>(m), std::nan(""));
    out.worker_accuracy_high.assign(static_cast<std::size_t>(m), std::nan(""));
    std::vector<double> a(fitted_matrices ? 0 : static_cast<std::size_t>(kk));
    for (int32_t i = 0; i < m; ++i) {
        const int64_t row = static_cast<int64_t>(i) * k;
        double correct = 0.0, worst_rate = 2.0;
        int64_t labels = 0;
        for (int32_t t = 0; t < k; ++t) {
            correct += s.hits[row + t];
            labels += s.labels[row + t];
            if (s.mass[row + t] > 1e-12 && s.hits[row + t] / s.mass[row + t] < worst_rate) {
                worst_rate = s.hits[row + t] / s.mass[row + t];
                out.worker_worst_class[i] = t;
            }
        }
        if (labels > 0) {
            const double total = static_cast<double>(labels);
            const double h = std::min(total, correct);
            out.worker_accuracy[i] = h / total;
            out.worker_accuracy_low[i] = beta_quantile(1.0 + h, 1.0 + total - h, 0.025);
            out.worker_accuracy_high[i] = beta_quantile(1.0 + h, 1.0 + total - h, 0.975);
        }
        // The matrix of the spammer score: the fit's, else the smoothed soft counts.
        if (fitted_matrices) {
            out.worker_spammer[i] = spammer_score(out.confusion.data() + i * kk, k);
            continue;
        }
        const double *n = s.counts.data() + i * kk;
        for (int32_t t = 0; t < k; ++t) {
            double sum = 0.0;
            for (int32_t c = 0; c < k; ++c) sum += n[c * k + t] + 1.0 / k;
            for (int32_t c = 0; c < k; ++c) a[t * k + c] = (n[c * k + t] + 1.0 / k) / sum;
        }
        out.worker_spammer[i] = spammer_score(a.data(), k);
    }
}

void label_next_scores(const FitResult &fit, double *score) {
    if (fit.typical_confusion.size() != static_cast<std::size_t>(fit.k) * fit.k) {
        std::fill(score, score + fit.n_items, 0.0);
        return;
    }
    switch (fit.k) {
    case 2: label_next_of_items<2>(fit, score); break;
    case 3: label_next_of_items<3>(fit, score); break;
    case 4: label_next_of_items<4>(fit, score); break;
    case 5: label_next_of_items<5>(fit, score); break;
    default: label_next_of_items<0>(fit, score); break;
    }
}

std::vector<double> label_next_scores(const FitResult &fit) {
    std::vector<double> score(static_cast<std::size_t>(fit.n_items));
    label_next_scores(fit, score.data());
    return score;
}

}  // namespace cs
