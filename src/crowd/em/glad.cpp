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
// (the trace; generalised EM). A round is two passes over the labels by item: the
// ability candidates' Q terms (the gradients and curvatures come from the previous pass),
// then for each item its b step, E-step and its share of the next ability step's sums;
// per-worker sums go into fixed item partitions' tables, added in partition order, so
// no pass reads in worker order and the result is the same for any thread count.
// log s and log(1 - s) are computed as -softplus(-t) and
// -softplus(t): finite for every t.
#include "crowd/em/glad.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "crowd/em/dawid_skene.hpp"
#include "data/item_partitions.hpp"
#include "util/parallel.hpp"

namespace cs {

namespace {

constexpr double kPriorMean = 1.0;  // of alpha_i and of b_j (unit variances)
constexpr double kMaxStep = 4.0;
constexpr int kHalvings = 30;

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
    std::vector<double> prior;  // k (uniform, fixed)
};

// The fixed item partitions (item_partitions.hpp) and their per-worker tables. Every
// per-worker sum (the ability steps' gradient, curvature and Q terms) is gathered in item
// order, each partition into its own copy, and the copies are added in partition order:
// no pass reads the item posteriors in worker order (random reads, memory-bound at 10^7
// labels), and every sum is the same for any thread count.
struct Pass {
    std::vector<ItemRange> parts;
    int32_t m = 0;
    std::vector<double> copies;    // per partition: m x kStats
    std::vector<double> stats;     // m x kStats, summed
    std::vector<double> part_ll;   // per partition: sum_j log sum_l w_l prod P
    int threads = 1;
    static constexpr int kStats = 3;  // per worker: gradient, curvature, Q term (labels only)
    int64_t table() const { return static_cast<int64_t>(m) * kStats; }
};

template <class F>
void for_each_part(const Pass &pass, F &&f) {
    const int64_t n_parts = static_cast<int64_t>(pass.parts.size());
#pragma omp parallel for schedule(dynamic, 1) num_threads(pass.threads) if (n_parts > 1)
    for (int64_t p = 0; p < n_parts; ++p) f(p);
}

// One item's term of Q at log inverse difficulty bj.
double b_term(const CrowdData &data, int32_t j, const GladState &s, const double *qj, double bj) {
    const double beta = std::exp(bj);
    double f = -0.5 * (bj - kPriorMean) * (bj - kPriorMean);
    for (int64_t e = data.item_start[j]; e < data.item_start[j + 1]; ++e)
        f += label_term(qj[data.label_of(e)], s.alpha[data.worker_of(e)] * beta);
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

// The Fisher-scoring step of b_j given the abilities and j's posteriors qj (from the last
// E-step), safeguarded as above.
void b_step(const CrowdData &data, int32_t j, GladState &s, const double *qj) {
    if (data.item_start[j + 1] == data.item_start[j]) return;
    const double bj = s.b[j], beta = std::exp(bj);
    double g = -(bj - kPriorMean), h = 1.0, f0 = -0.5 * (bj - kPriorMean) * (bj - kPriorMean);
    for (int64_t e = data.item_start[j]; e < data.item_start[j + 1]; ++e) {
        const double p = qj[data.label_of(e)];
        const double t = s.alpha[data.worker_of(e)] * beta;
        double sp, sg;
        logistic(t, sp, sg);
        f0 -= sp + (1.0 - p) * t;
        g += (p - sg) * t;
        h += sg * (1.0 - sg) * t * t;
    }
    s.b[j] = ascend(bj, g / h, f0, [&](double y) { return b_term(data, j, s, qj, y); });
}

// One pass over the labels by item. With `b_steps`, each item first takes its b step
// (given the current abilities and its posteriors of the last E-step: its term of Q
// involves only its own labels), then its E-step at the new b_j; the E-step's sigmoids
// then give the item's share of the next ability step's sums (gradient, curvature and
// Q term of each worker at the current abilities and the new b and q), gathered into
// pass.stats. Returns the log posterior L at (alpha, b).
double item_pass(const CrowdData &data, GladState &s, std::vector<double> &q, Pass &pass, bool b_steps) {
    const int32_t k = data.k;
    const double log_wrong = std::log(static_cast<double>(k - 1));
    for_each_part(pass, [&](int64_t part) {
        double *stats = pass.copies.data() + part * pass.table();
        std::fill(stats, stats + pass.table(), 0.0);
        std::vector<double> add(static_cast<std::size_t>(k)), sp_of, sg_of;
        double sum = 0.0;
        const double log_w = -std::log(static_cast<double>(k));  // the uniform class prior
        for (int32_t j = pass.parts[part].first; j < pass.parts[part].last; ++j) {
            double *qj = q.data() + static_cast<int64_t>(j) * k;
            if (b_steps) b_step(data, j, s, qj);
            const int64_t first = data.item_start[j], count = data.item_start[j + 1] - first;
            sp_of.resize(static_cast<std::size_t>(count));
            sg_of.resize(static_cast<std::size_t>(count));
            const double beta = std::exp(s.b[j]);
            double base = 0.0;
            std::fill(add.begin(), add.end(), 0.0);
            for (int64_t e = 0; e < count; ++e) {
                const int64_t p = first + e;
                const double t = s.alpha[data.worker_of(p)] * beta;
                logistic(t, sp_of[e], sg_of[e]);
                // log P(right) = -sp, log P(each wrong class) = -(sp + t) - log(k - 1).
                const double right = -sp_of[e], wrong = -(sp_of[e] + t) - log_wrong;
                base += wrong;
                add[data.label_of(p)] += right - wrong;
            }
            const int32_t gold = data.gold_of(j);
            if (gold >= 0) {
                std::fill(qj, qj + k, 0.0);
                qj[gold] = 1.0;
                sum += log_w + base + add[gold];
            } else {
                double top = -std::numeric_limits<double>::infinity();
                for (int32_t l = 0; l < k; ++l) {
                    qj[l] = log_w + add[l];
                    top = std::max(top, qj[l]);
                }
                double z = 0.0;
                for (int32_t l = 0; l < k; ++l) z += (qj[l] = std::exp(qj[l] - top));
                for (int32_t l = 0; l < k; ++l) qj[l] /= z;
                sum += base + top + std::log(z);
            }
            for (int64_t e = 0; e < count; ++e) {
                const int64_t p = first + e;
                const int32_t i = data.worker_of(p);
                const double pr = qj[data.label_of(p)], t = s.alpha[i] * beta, sg = sg_of[e];
                double *row = stats + static_cast<int64_t>(i) * Pass::kStats;
                row[0] += (pr - sg) * beta;
                row[1] += sg * (1.0 - sg) * beta * beta;
                row[2] -= sp_of[e] + (1.0 - pr) * t;
            }
        }
        pass.part_ll[part] = sum;
    });
    sum_tables(pass.copies.data(), pass.table(), static_cast<int64_t>(pass.parts.size()), pass.stats.data(),
               pass.threads);
    double ll = 0.0;
    for (double v : pass.part_ll) ll += v;  // in partition order
    for (double a : s.alpha) ll -= 0.5 * (a - kPriorMean) * (a - kPriorMean);
    for (double v : s.b) ll -= 0.5 * (v - kPriorMean) * (v - kPriorMean);
    return ll;
}

// Sum over each worker's labels of its Q term at the candidate abilities `cand`, for the
// workers with pending[i] (0 for the others), into pass.stats (column 0): one pass by
// item, gathered as in item_pass.
void candidate_terms(const CrowdData &data, const GladState &s, const std::vector<double> &q,
                     const std::vector<double> &cand, const std::vector<char> &pending, Pass &pass) {
    const int32_t k = data.k;
    for_each_part(pass, [&](int64_t part) {
        double *stats = pass.copies.data() + part * pass.table();
        std::fill(stats, stats + pass.table(), 0.0);
        for (int32_t j = pass.parts[part].first; j < pass.parts[part].last; ++j) {
            const double beta = std::exp(s.b[j]);
            const double *qj = q.data() + static_cast<int64_t>(j) * k;
            for (int64_t p = data.item_start[j]; p < data.item_start[j + 1]; ++p) {
                const int32_t i = data.worker_of(p);
                if (!pending[i]) continue;
                stats[static_cast<int64_t>(i) * Pass::kStats] += label_term(qj[data.label_of(p)], cand[i] * beta);
            }
        }
    });
    sum_tables(pass.copies.data(), pass.table(), static_cast<int64_t>(pass.parts.size()), pass.stats.data(),
               pass.threads);
}

// The ability sweep: each worker's Newton step from the sums of the last item_pass
// (exact for its concave term of Q), clipped to kMaxStep and halved until the term does
// not decrease, all workers' candidates checked together in one pass by item (further
// passes only while some worker's step is being halved).
void alpha_steps(const CrowdData &data, GladState &s, const std::vector<double> &q,
                 const std::vector<int64_t> &labels_of, Pass &pass, std::vector<double> &cand,
                 std::vector<double> &step, std::vector<double> &f0, std::vector<char> &pending) {
    const int32_t m = data.n_workers;
    int64_t open = 0;
    for (int32_t i = 0; i < m; ++i) {
        pending[i] = 0;
        if (labels_of[i] == 0) continue;  // its term is the prior's alone: alpha stays at its mean
        const double a = s.alpha[i];
        const double *row = pass.stats.data() + static_cast<int64_t>(i) * Pass::kStats;
        const double g = row[0] - (a - kPriorMean), h = row[1] + 1.0;
        f0[i] = row[2] - 0.5 * (a - kPriorMean) * (a - kPriorMean);
        step[i] = std::max(-kMaxStep, std::min(kMaxStep, g / h));
        if (step[i] == 0.0) continue;
        cand[i] = a + step[i];
        pending[i] = 1;
        ++open;
    }
    for (int h = 0; h < kHalvings && open > 0; ++h) {
        candidate_terms(data, s, q, cand, pending, pass);
        open = 0;
        for (int32_t i = 0; i < m; ++i) {
            if (!pending[i]) continue;
            const double f = pass.stats[static_cast<std::size_t>(i) * Pass::kStats] -
                             0.5 * (cand[i] - kPriorMean) * (cand[i] - kPriorMean);
            if (f >= f0[i]) {
                s.alpha[i] = cand[i];
                pending[i] = 0;
                continue;
            }
            step[i] *= 0.5;
            if (h + 1 == kHalvings || step[i] == 0.0) {
                pending[i] = 0;  // no halving helped: alpha stays
                continue;
            }
            cand[i] = s.alpha[i] + step[i];
            ++open;
        }
    }
}

}  // namespace

bool fit_glad(const CrowdData &data, const FitOptions &options, const Progress &progress, FitResult &out) {
    const int threads = threads_for(options.threads, static_cast<int64_t>(data.n_labels()));
    const int32_t m = data.n_workers, n = data.n_items, k = data.k;
    GladState s;
    s.alpha.assign(static_cast<std::size_t>(m), kPriorMean);
    s.b.assign(static_cast<std::size_t>(n), kPriorMean);
    // The paper's class prior is given, not estimated: uniform (as in its experiments and
    // crowd-kit's GLAD); estimating it lost 2-15 pp on three of the five shared sets.
    s.prior.assign(static_cast<std::size_t>(k), 1.0 / k);
    Pass pass;
    pass.m = m;
    pass.parts = partition_items(data, pass.table());
    pass.copies.assign(pass.parts.size() * static_cast<std::size_t>(pass.table()), 0.0);
    pass.stats.assign(static_cast<std::size_t>(pass.table()), 0.0);
    pass.part_ll.assign(pass.parts.size(), 0.0);
    pass.threads = threads;
    std::vector<int64_t> labels_of(static_cast<std::size_t>(m), 0);
    for (uint32_t code : data.item_code) ++labels_of[code / static_cast<uint32_t>(k)];
    std::vector<double> q(static_cast<std::size_t>(n) * k), cand(static_cast<std::size_t>(m)),
        step(static_cast<std::size_t>(m)), f0(static_cast<std::size_t>(m));
    std::vector<char> pending(static_cast<std::size_t>(m));
    // Round r: the ability sweep from the sums of the last pass, then one pass by item
    // that takes every b step, the E-step and gathers the next sweep's sums: the
    // generalised-EM round alpha -> b -> q.
    double ll = item_pass(data, s, q, pass, false);
    bool cancelled = progress.cancelled(0, ll);
    out.converged = !cancelled && options.max_iter == 0;
    out.iterations = 0;
    for (int32_t r = 1; r <= options.max_iter && !cancelled; ++r) {
        alpha_steps(data, s, q, labels_of, pass, cand, step, f0, pending);
        const double next = item_pass(data, s, q, pass, true);
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
    // (uniform rows for a worker without labels), summed in item order.
    std::vector<double> right(static_cast<std::size_t>(m), 0.0);
    for (int32_t j = 0; j < n; ++j) {
        const double beta = std::exp(s.b[j]);
        for (int64_t p = data.item_start[j]; p < data.item_start[j + 1]; ++p) {
            const int32_t i = data.worker_of(p);
            double sp, sg;
            logistic(s.alpha[i] * beta, sp, sg);
            right[i] += sg;
        }
    }
    const std::size_t kk = static_cast<std::size_t>(k) * k;
    out.confusion.assign(static_cast<std::size_t>(m) * kk, 1.0 / k);
    for (int32_t i = 0; i < m; ++i) {
        if (labels_of[i] == 0) continue;
        const double accuracy = right[i] / static_cast<double>(labels_of[i]);
        for (int32_t l = 0; l < k; ++l)
            for (int32_t c = 0; c < k; ++c)
                out.confusion[i * kk + static_cast<std::size_t>(l) * k + c] =
                    l == c ? accuracy : (1.0 - accuracy) / (k - 1);
    }
    // The model's own parameters (cs_estimate): alpha_i, and beta_j = exp(b_j).
    std::vector<double> beta(s.b.size());
    for (std::size_t j = 0; j < beta.size(); ++j) beta[j] = std::exp(s.b[j]);
    out.estimates.push_back({"ability", m, 1, s.alpha});
    out.estimates.push_back({"inverse_difficulty", n, 1, std::move(beta)});
    out.has_log_likelihood = true;
    return cancelled;
}

}  // namespace cs
