// SPDX-License-Identifier: MIT
#include "crowd/diagnostics/worker_diagnostics.hpp"

#include <algorithm>
#include <cmath>

#include "util/special.hpp"

namespace cs {

namespace {

// The continued fraction of I_x(a, b) (its even and odd terms d_2m, d_2m+1), by the
// modified Lentz method; converges fast for x < (a + 1) / (a + b + 2).
double beta_fraction(double a, double b, double x) {
    const double tiny = 1e-300;
    double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0);
    if (std::fabs(d) < tiny) d = tiny;
    d = 1.0 / d;
    double h = d;
    for (int m = 1; m <= 500; ++m) {
        const double m2 = 2.0 * m;
        const double even = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));
        d = 1.0 + even * d;
        c = 1.0 + even / c;
        if (std::fabs(d) < tiny) d = tiny;
        if (std::fabs(c) < tiny) c = tiny;
        d = 1.0 / d;
        h *= d * c;
        const double odd = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
        d = 1.0 + odd * d;
        c = 1.0 + odd / c;
        if (std::fabs(d) < tiny) d = tiny;
        if (std::fabs(c) < tiny) c = tiny;
        d = 1.0 / d;
        const double step = d * c;
        h *= step;
        if (std::fabs(step - 1.0) < 1e-15) break;
    }
    return h;
}

}  // namespace

double incomplete_beta(double a, double b, double x) {
    if (x <= 0.0) return 0.0;
    if (x >= 1.0) return 1.0;
    // x^a (1 - x)^b / (a B(a, b)) times the fraction; the symmetry I_x(a, b) =
    // 1 - I_{1-x}(b, a) keeps x on the side where the fraction converges.
    const double log_front =
        log_gamma(a + b) - log_gamma(a) - log_gamma(b) + a * std::log(x) + b * std::log1p(-x);
    if (x < (a + 1.0) / (a + b + 2.0)) return std::exp(log_front) * beta_fraction(a, b, x) / a;
    return 1.0 - std::exp(log_front) * beta_fraction(b, a, 1.0 - x) / b;
}

double beta_quantile(double a, double b, double p) {
    double lo = 0.0, hi = 1.0;
    for (int step = 0; step < 60 && hi - lo > 1e-12; ++step) {
        const double mid = 0.5 * (lo + hi);
        if (incomplete_beta(a, b, mid) < p) lo = mid;
        else hi = mid;
    }
    return 0.5 * (lo + hi);
}

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

}  // namespace

void compute_worker_diagnostics(const CrowdData &data, FitResult &out) {
    const int32_t k = data.k, m = data.n_workers;
    const int64_t kk = static_cast<int64_t>(k) * k;
    out.typical_confusion.clear();
    if (k < 2 || out.posteriors.size() != static_cast<std::size_t>(data.n_items) * k) return;
    // Every crowd method of the registry keeps confusion matrices; the spammer score then
    // reads them and the pass keeps 2 k numbers per worker (hits and mass per true
    // class). Only without them are the full soft counts (k^2 per worker) kept, and
    // not beyond 2^26 entries (512 MiB): no diagnostics rather than a surprise allocation.
    const bool fitted_matrices = out.confusion.size() == static_cast<std::size_t>(m) * kk;
    if (!fitted_matrices && static_cast<int64_t>(m) * kk > (int64_t{1} << 26)) return;
    std::vector<double> counts(fitted_matrices ? 0 : static_cast<std::size_t>(m) * kk, 0.0);
    std::vector<double> hits(static_cast<std::size_t>(m) * k, 0.0), mass(hits.size(), 0.0);
    std::vector<int64_t> labels(static_cast<std::size_t>(m), 0);
    std::vector<double> typical(static_cast<std::size_t>(kk), 0.0);
    // One pass over the labels, by item (q_j is read once): n_i[t][c] += q_j(t).
    for (int32_t j = 0; j < data.n_items; ++j) {
        const double *q = out.posteriors.data() + static_cast<int64_t>(j) * k;
        for (int64_t p = data.item_start[j]; p < data.item_start[j + 1]; ++p) {
            const int32_t i = data.worker_of(p), c = data.label_of(p);
            const int64_t row = static_cast<int64_t>(i) * k;
            hits[row + c] += q[c];
            for (int32_t t = 0; t < k; ++t) {
                mass[row + t] += q[t];
                typical[static_cast<int64_t>(t) * k + c] += q[t];
            }
            if (!fitted_matrices)
                for (int32_t t = 0; t < k; ++t) counts[i * kk + static_cast<int64_t>(t) * k + c] += q[t];
            ++labels[i];
        }
    }
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
        for (int32_t t = 0; t < k; ++t) {
            correct += hits[row + t];
            if (mass[row + t] > 1e-12 && hits[row + t] / mass[row + t] < worst_rate) {
                worst_rate = hits[row + t] / mass[row + t];
                out.worker_worst_class[i] = t;
            }
        }
        if (labels[i] > 0) {
            const double total = static_cast<double>(labels[i]);
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
        const double *n = counts.data() + i * kk;
        for (int32_t t = 0; t < k; ++t) {
            double sum = 0.0;
            for (int32_t c = 0; c < k; ++c) sum += n[t * k + c] + 1.0 / k;
            for (int32_t c = 0; c < k; ++c) a[t * k + c] = (n[t * k + c] + 1.0 / k) / sum;
        }
        out.worker_spammer[i] = spammer_score(a.data(), k);
    }
}

std::vector<double> label_next_scores(const FitResult &fit) {
    const int32_t k = fit.k;
    std::vector<double> score(static_cast<std::size_t>(fit.n_items), 0.0);
    if (fit.typical_confusion.size() != static_cast<std::size_t>(k) * k) return score;
    const double *tm = fit.typical_confusion.data();
    for (int32_t j = 0; j < fit.n_items; ++j) {
        const double *q = fit.posteriors.data() + static_cast<int64_t>(j) * k;
        const int32_t top = static_cast<int32_t>(std::max_element(q, q + k) - q);
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
    return score;
}

}  // namespace cs
