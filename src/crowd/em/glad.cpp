// SPDX-License-Identifier: MIT
// GLAD. Worker i has ability alpha_i, item j inverse difficulty beta_j = exp(b_j); worker
// i's label on item j is the true class with probability s_ij = sigma(alpha_i beta_j),
// otherwise each of the other k - 1 classes with probability (1 - s_ij) / (k - 1)
// (Whitehill et al., eq. 1, for k classes). Priors alpha_i ~ N(1, 1), b_j ~ N(1, 1),
// the class prior w uniform (the paper takes it as given; see fit_glad).
//
// MAP-EM. E-step: q_jl proportional to w_l prod_i P(label_ij | z_j = l), in log space,
// O(labels + k) per item (every class shares the wrong-label terms; the given classes add
// the difference). M-step, with p_e = q_j[label] the posterior that label e is correct:
//   Q(alpha, b) = sum_e [p_e log s_e + (1 - p_e) log(1 - s_e)]
//                 - sum_i (alpha_i - 1)^2 / 2 - sum_j (b_j - 1)^2 / 2,
// separable in the alpha_i given b and in the b_j given alpha. One sweep of Newton steps
// over every alpha_i (concave: the exact Newton step), then over every b_j (Fisher
// scoring: the step g / (sum s (1 - s) t^2 + 1), t = alpha_i beta_j, an ascent direction
// whatever the sign of the curvature), each step at most 4 in size and halved (up to 30
// times) until its own term of Q does not decrease. Q never decreases, so neither does
// the log posterior L = sum_j log sum_l w_l prod P - sum (alpha - 1)^2/2 - sum (b - 1)^2/2
// (the trace; generalised EM). log s and log(1 - s) are computed as -softplus(-t) and
// -softplus(t): finite for every t.
#include "crowd/em/glad.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "crowd/em/dawid_skene.hpp"
#include "data/worker_index.hpp"
#include "util/parallel.hpp"

namespace cs {

namespace {

constexpr double kPriorMean = 1.0;  // of alpha_i and of b_j (unit variances)
constexpr double kMaxStep = 4.0;
constexpr int kHalvings = 30;
constexpr int64_t kChunk = 1024;  // items per chunk of the E-step's ordered sums

// For t: sp = softplus(-t) = -log sigma(t) and sg = sigma(t), from one exp and one
// log1p (softplus(t) = t + softplus(-t)); finite for every t.
inline void logistic(double t, double &sp, double &sg) {
    const double e = std::exp(-std::fabs(t));
    sp = (t < 0.0 ? -t : 0.0) + std::log1p(e);
    sg = t >= 0.0 ? 1.0 / (1.0 + e) : e / (1.0 + e);
}

// The label's term of Q, p log s + (1 - p) log(1 - s) = -(sp + (1 - p) t).
inline double label_term(double p, double t) {
    const double sp = (t < 0.0 ? -t : 0.0) + std::log1p(std::exp(-std::fabs(t)));
    return -(sp + (1.0 - p) * t);
}

struct GladState {
    std::vector<double> alpha;  // n_workers
    std::vector<double> b;      // n_items: log beta
    std::vector<double> prior;  // k
};

// E-step: posteriors q and the log posterior L.
double e_step(const CrowdData &data, const GladState &s, std::vector<double> &q, int threads) {
    const int32_t n = data.n_items, k = data.k;
    const double log_wrong = std::log(static_cast<double>(k - 1));
    std::vector<double> log_w(static_cast<std::size_t>(k));
    for (int32_t l = 0; l < k; ++l)
        log_w[l] = s.prior[l] > 0.0 ? std::log(s.prior[l]) : -std::numeric_limits<double>::infinity();
    const int64_t chunks = chunk_count(n, kChunk);
    std::vector<double> part(static_cast<std::size_t>(chunks), 0.0);
#pragma omp parallel num_threads(threads)
    {
        std::vector<double> add(static_cast<std::size_t>(k));
#pragma omp for schedule(static)
        for (int64_t c = 0; c < chunks; ++c) {
            double sum = 0.0;
            const int32_t end = static_cast<int32_t>(std::min<int64_t>((c + 1) * kChunk, n));
            for (int32_t j = static_cast<int32_t>(c * kChunk); j < end; ++j) {
                double *qj = q.data() + static_cast<int64_t>(j) * k;
                const double beta = std::exp(s.b[j]);
                double base = 0.0;
                std::fill(add.begin(), add.end(), 0.0);
                for (int64_t p = data.item_start[j]; p < data.item_start[j + 1]; ++p) {
                    const double t = s.alpha[data.worker_of(p)] * beta;
                    const double sp = (t < 0.0 ? -t : 0.0) + std::log1p(std::exp(-std::fabs(t)));
                    const double right = -sp, wrong = -(sp + t) - log_wrong;
                    base += wrong;
                    add[data.label_of(p)] += right - wrong;
                }
                const int32_t gold = data.gold_of(j);
                if (gold >= 0) {
                    std::fill(qj, qj + k, 0.0);
                    qj[gold] = 1.0;
                    // A gold class the prior forbids adds nothing (it cannot be scored).
                    if (s.prior[gold] > 0.0) sum += log_w[gold] + base + add[gold];
                    continue;
                }
                double top = -std::numeric_limits<double>::infinity();
                for (int32_t l = 0; l < k; ++l) {
                    qj[l] = log_w[l] + add[l];
                    top = std::max(top, qj[l]);
                }
                double z = 0.0;
                for (int32_t l = 0; l < k; ++l) z += (qj[l] = s.prior[l] > 0.0 ? std::exp(qj[l] - top) : 0.0);
                for (int32_t l = 0; l < k; ++l) qj[l] /= z;
                sum += base + top + std::log(z);
            }
            part[c] = sum;
        }
    }
    double ll = 0.0;
    for (double v : part) ll += v;
    for (double a : s.alpha) ll -= 0.5 * (a - kPriorMean) * (a - kPriorMean);
    for (double v : s.b) ll -= 0.5 * (v - kPriorMean) * (v - kPriorMean);
    return ll;
}

// One worker's term of Q at ability a: sum over its labels, minus the prior term.
double alpha_term(const CrowdData &data, const WorkerIndex &w, int32_t i, const std::vector<double> &beta,
                  const std::vector<double> &q, double a) {
    const int32_t k = data.k;
    double f = -0.5 * (a - kPriorMean) * (a - kPriorMean);
    for (int64_t e = w.start[i]; e < w.start[i + 1]; ++e) {
        const int32_t j = w.item[e];
        f += label_term(q[static_cast<int64_t>(j) * k + data.label_of(w.position[e])], a * beta[j]);
    }
    return f;
}

// One item's term of Q at log inverse difficulty bj.
double b_term(const CrowdData &data, int32_t j, const GladState &s, const std::vector<double> &q, double bj) {
    const int32_t k = data.k;
    const double beta = std::exp(bj);
    double f = -0.5 * (bj - kPriorMean) * (bj - kPriorMean);
    for (int64_t e = data.item_start[j]; e < data.item_start[j + 1]; ++e)
        f += label_term(q[static_cast<int64_t>(j) * k + data.label_of(e)], s.alpha[data.worker_of(e)] * beta);
    return f;
}

// A step from x in direction `step` (clipped to kMaxStep), halved until the term does
// not decrease; returns the new point (x itself when no halving helps).
template <class Term>
double ascend(double x, double step, double f0, const Term &term) {
    step = std::max(-kMaxStep, std::min(kMaxStep, step));
    for (int h = 0; h < kHalvings && step != 0.0; ++h, step *= 0.5) {
        const double y = x + step;
        if (term(y) >= f0) return y;
    }
    return x;
}

void m_step(const CrowdData &data, const WorkerIndex &w, const std::vector<double> &q, GladState &s,
            std::vector<double> &beta, int threads) {
    const int32_t m = data.n_workers, n = data.n_items, k = data.k;
    for (int32_t j = 0; j < n; ++j) beta[j] = std::exp(s.b[j]);
#pragma omp parallel for schedule(dynamic, 16) num_threads(threads)
    for (int32_t i = 0; i < m; ++i) {
        if (w.count(i) == 0) continue;  // its term is the prior's alone: alpha stays at its mean
        const double a = s.alpha[i];
        double g = -(a - kPriorMean), h = 1.0, f0 = -0.5 * (a - kPriorMean) * (a - kPriorMean);
        for (int64_t e = w.start[i]; e < w.start[i + 1]; ++e) {
            const int32_t j = w.item[e];
            const double p = q[static_cast<int64_t>(j) * k + data.label_of(w.position[e])];
            const double t = a * beta[j];
            double sp, sg;
            logistic(t, sp, sg);
            f0 -= sp + (1.0 - p) * t;
            g += (p - sg) * beta[j];
            h += sg * (1.0 - sg) * beta[j] * beta[j];
        }
        s.alpha[i] = ascend(a, g / h, f0, [&](double y) { return alpha_term(data, w, i, beta, q, y); });
    }
#pragma omp parallel for schedule(dynamic, 256) num_threads(threads)
    for (int32_t j = 0; j < n; ++j) {
        if (data.item_start[j + 1] == data.item_start[j]) continue;
        const double bj = s.b[j];
        double g = -(bj - kPriorMean), h = 1.0, f0 = -0.5 * (bj - kPriorMean) * (bj - kPriorMean);
        for (int64_t e = data.item_start[j]; e < data.item_start[j + 1]; ++e) {
            const double p = q[static_cast<int64_t>(j) * k + data.label_of(e)];
            const double t = s.alpha[data.worker_of(e)] * beta[j];
            double sp, sg;
            logistic(t, sp, sg);
            f0 -= sp + (1.0 - p) * t;
            g += (p - sg) * t;
            h += sg * (1.0 - sg) * t * t;
        }
        s.b[j] = ascend(bj, g / h, f0, [&](double y) { return b_term(data, j, s, q, y); });
    }
}

}  // namespace

bool fit_glad(const CrowdData &data, const FitOptions &options, const Progress &progress, FitResult &out) {
    const int threads = threads_for(options.threads, static_cast<int64_t>(data.n_labels()));
    const int32_t m = data.n_workers, n = data.n_items, k = data.k;
    const WorkerIndex w = WorkerIndex::build(data);
    GladState s;
    s.alpha.assign(static_cast<std::size_t>(m), kPriorMean);
    s.b.assign(static_cast<std::size_t>(n), kPriorMean);
    // The paper's class prior is given, not estimated: uniform (as in its experiments and
    // crowd-kit's GLAD); estimating it lost 2-15 pp on three of the five shared sets.
    s.prior.assign(static_cast<std::size_t>(k), 1.0 / k);
    std::vector<double> q(static_cast<std::size_t>(n) * k), beta(static_cast<std::size_t>(n));
    double ll = e_step(data, s, q, threads);
    bool cancelled = progress.cancelled(0, ll);
    out.converged = !cancelled && options.max_iter == 0;
    out.iterations = 0;
    for (int32_t r = 1; r <= options.max_iter && !cancelled; ++r) {
        m_step(data, w, q, s, beta, threads);
        const double next = e_step(data, s, q, threads);
        out.trace.push_back(next);
        out.iterations = r;
        cancelled = progress.cancelled(r, next);
        const bool done = options.tol > 0.0 && std::fabs(next - ll) <= options.tol * std::fabs(ll);
        ll = next;
        if (done) {
            out.converged = !cancelled;
            break;
        }
    }
    if (cancelled) {
        out.notes |= CS_NOTE_CANCELLED;
    } else if (!out.converged) {
        note_max_iter(options, out);
    }
    out.posteriors = std::move(q);
    out.labels = argmax_labels(out.posteriors, n, k);
    out.prior = s.prior;
    // One-coin matrices: each worker's mean probability of a right label over its items
    // (uniform rows for a worker without labels).
    const std::size_t kk = static_cast<std::size_t>(k) * k;
    out.confusion.assign(static_cast<std::size_t>(m) * kk, 1.0 / k);
    for (int32_t i = 0; i < m; ++i) {
        if (w.count(i) == 0) continue;
        double sum = 0.0;
        for (int64_t e = w.start[i]; e < w.start[i + 1]; ++e) {
            double sp, sg;
            logistic(s.alpha[i] * std::exp(s.b[w.item[e]]), sp, sg);
            sum += sg;
        }
        const double accuracy = sum / static_cast<double>(w.count(i));
        for (int32_t l = 0; l < k; ++l)
            for (int32_t c = 0; c < k; ++c)
                out.confusion[i * kk + static_cast<std::size_t>(l) * k + c] =
                    l == c ? accuracy : (1.0 - accuracy) / (k - 1);
    }
    out.has_log_likelihood = true;
    return cancelled;
}

}  // namespace cs
