// SPDX-License-Identifier: MIT
#include "crowd/em/model_worker.hpp"

#include <algorithm>
#include <cmath>

#include "crowd/em/confusion_model.hpp"
#include "crowdspec/crowdspec.h"
#include "util/parallel.hpp"
#include "util/per_class.hpp"
#include "util/simd_quad.hpp"

namespace cs {

namespace {

// L_j(t) = sum_o p_j(o) pi_M[t][o] of one item for every class t; pi_M null = uniform.
void item_likelihoods(const double *p, const double *pi, int32_t k, double *out) {
    for (int32_t t = 0; t < k; ++t) {
        double sum = 0.0;
        if (pi == nullptr) {
            for (int32_t o = 0; o < k; ++o) sum += p[o];
            sum /= k;
        } else {
            const double *row = pi + static_cast<int64_t>(t) * k;
            for (int32_t o = 0; o < k; ++o) sum += p[o] * row[o];
        }
        out[t] = sum;
    }
}

bool flat(const double *p, int32_t k) { return flat_model_row(p, k); }

}  // namespace

bool flat_model_row(const double *p, int32_t k) {
    for (int32_t o = 1; o < k; ++o)
        if (p[o] != p[0]) return false;
    return true;
}

void add_model_vote(const CrowdData &data, std::vector<double> &q) {
    const int32_t k = data.k;
    for (int32_t j = 0; j < data.n_items; ++j) {
        const double *p = data.model_probs + static_cast<int64_t>(j) * k;
        if (flat(p, k) || data.gold_of(j) >= 0) continue;  // a gold item keeps its pinned row
        const double n = static_cast<double>(data.item_start[j + 1] - data.item_start[j]);
        double *qj = q.data() + static_cast<int64_t>(j) * k;
        for (int32_t t = 0; t < k; ++t) qj[t] = n > 0.0 ? (n * qj[t] + p[t]) / (n + 1.0) : p[t];
    }
}

void model_log_terms_of_item(const CrowdData &data, const std::vector<double> &model_confusion, int32_t j,
                             double *terms) {
    const int32_t k = data.k;
    item_likelihoods(data.model_probs + static_cast<int64_t>(j) * k,
                     model_confusion.empty() ? nullptr : model_confusion.data(), k, terms);
    for (int32_t t = 0; t < k; ++t) terms[t] = std::log(terms[t]);  // > 0: pi_M > 0 and sum_o p_j(o) = 1
}

void model_log_terms(const CrowdData &data, const std::vector<double> &model_confusion, std::vector<double> &terms) {
    terms.resize(static_cast<std::size_t>(data.n_items) * data.k);
    for (int32_t j = 0; j < data.n_items; ++j)
        model_log_terms_of_item(data, model_confusion, j, terms.data() + static_cast<int64_t>(j) * data.k);
}

void model_counts(const CrowdData &data, const double *q, const std::vector<double> &model_confusion,
                  std::vector<double> &counts) {
    counts.assign(static_cast<std::size_t>(data.k) * data.k, 0.0);
    add_model_counts(data, q, model_confusion, nullptr, counts);
}

namespace {

// add_model_counts for k = K (K > 0: the loops unroll and the k x k sums stay in a local
// array, which the compiler knows the model's rows cannot alias -- through `counts`
// every term was a load and a store; K = 0: any k, into `counts` directly). The same
// operations in the same order either way.
template <int K>
void add_model_counts_k(const CrowdData &data, const double *q, const double *pi, const uint8_t *skip,
                        double *counts) {
    const int32_t k = K > 0 ? K : data.k;
    double local[K > 0 ? K * K : 1];
    double *sums = counts;
    if constexpr (K > 0) {
        std::copy(counts, counts + K * K, local);
        sums = local;
    }
    ClassScratch<K> like_scratch(k);
    double *like = like_scratch.data();
    const double uniform = 1.0 / k;
    for (int32_t j = 0; j < data.n_items; ++j) {
        if (skip != nullptr && skip[j]) continue;
        const double *p = data.model_probs + static_cast<int64_t>(j) * k;
        if (flat(p, k)) continue;  // no model answer: missing, not counted (see the header)
        const double *qj = q + static_cast<int64_t>(j) * k;
        item_likelihoods(p, pi, k, like);
        for (int32_t t = 0; t < k; ++t) {
            if (!(qj[t] > 0.0) || !(like[t] > 0.0)) continue;
            // Pr(o_j = o | t_j = t, p_j) = pi_M[t][o] p_j(o) / L_j(t), weighted by q_j(t).
            const double w = qj[t] / like[t];
            double *row = sums + static_cast<int64_t>(t) * k;
            const double *pi_t = pi != nullptr ? pi + static_cast<int64_t>(t) * k : nullptr;
            for (int32_t o = 0; o < k; ++o) row[o] += w * p[o] * (pi_t != nullptr ? pi_t[o] : uniform);
        }
    }
    if constexpr (K > 0) std::copy(local, local + K * K, counts);
}

}  // namespace

void add_model_counts(const CrowdData &data, const double *q, const std::vector<double> &model_confusion,
                      const uint8_t *skip, std::vector<double> &counts) {
    const double *pi = model_confusion.empty() ? nullptr : model_confusion.data();
    with_classes(data.k, [&](auto kc) {
        add_model_counts_k<decltype(kc)::value>(data, q, pi, skip, counts.data());
    });
}

void model_m_step(const std::vector<double> &counts, int32_t k, const FitOptions &options,
                  std::vector<double> &model_confusion) {
    model_confusion.resize(static_cast<std::size_t>(k) * k);
    for (std::size_t e = 0; e < model_confusion.size(); ++e)
        model_confusion[e] = counts[e] + options.smoothing + 1.0 / k;
    apply_confusion_model(model_confusion.data(), k, options.confusion);
}

namespace {

// Classes up to which the classifier's rows are solved by Newton's method (k^3 per item
// and step); above, by repeated EM passes (k^2 per item and pass).
constexpr int32_t kNewtonClasses = 8;

// The items whose terms row t's objective keeps, per row t, ascending (found once per
// M-step; each Newton step and slope below passes over its row's items alone): the
// answered items (rows not flat) with weight w_j = q_j(t) of at least 1e-12 W_t / n, W_t
// the row's total weight over the n answered items. The items left out weigh at most
// 1e-12 W_t together, and a term's gradient is at most w_j / pi_o (p_j . pi >= p_j(o)
// pi_o): they change the gradient by at most 1e-12 of the size of the kept terms', far
// below EM's own tolerance (test_model_assist checks the result against EM's pass over
// every item). A confident fit's row keeps little more than the items of its class
// (about 1/k of them).
void row_items(const CrowdData &data, const double *q, ClassifierRowScratch &scratch) {
    const int32_t k = data.k;
    std::vector<int32_t> &answered = scratch.answered;
    if (!scratch.answered_ready) {
        answered.clear();
        for (int32_t j = 0; j < data.n_items; ++j)
            if (!flat(data.model_probs + static_cast<int64_t>(j) * k, k)) answered.push_back(j);
        scratch.answered_ready = true;
    }
    std::vector<double> total(static_cast<std::size_t>(k), 0.0);
    for (int32_t j : answered)
        for (int32_t t = 0; t < k; ++t) total[t] += q[static_cast<int64_t>(j) * k + t];
    std::vector<double> least(static_cast<std::size_t>(k));
    for (int32_t t = 0; t < k; ++t)
        least[t] = answered.empty() ? 0.0 : 1e-12 * total[t] / static_cast<double>(answered.size());
    // Counted, then written: each answered item goes to every row's next slot, which
    // it keeps by advancing the row's end (no branch on the weights, which a branch
    // predictor cannot guess); the slot past the end is the one spare entry.
    const auto keep = [&](int32_t j, int32_t t) {
        const double w = q[static_cast<int64_t>(j) * k + t];
        return static_cast<std::size_t>(w > 0.0 && w >= least[t]);
    };
    std::vector<std::size_t> end(static_cast<std::size_t>(k), 0);
    for (int32_t j : answered)
        for (int32_t t = 0; t < k; ++t) end[t] += keep(j, t);
    std::vector<std::vector<int32_t>> &items = scratch.items;
    items.resize(static_cast<std::size_t>(k));
    for (int32_t t = 0; t < k; ++t) items[t].resize(end[t] + 1), end[t] = 0;
    for (int32_t j : answered)
        for (int32_t t = 0; t < k; ++t) {
            items[t][end[t]] = j;
            end[t] += keep(j, t);
        }
    for (int32_t t = 0; t < k; ++t) items[t].pop_back();
}

// Solves n x = b for a symmetric positive definite n (k x k, row-major) by Cholesky,
// in place of b; false when n is not positive definite to working precision.
bool spd_solve(const double *n, int32_t k, double *b) {
    double c[kNewtonClasses * kNewtonClasses];
    for (int32_t r = 0; r < k; ++r)
        for (int32_t col = 0; col <= r; ++col) {
            double v = n[r * k + col];
            for (int32_t m = 0; m < col; ++m) v -= c[r * k + m] * c[col * k + m];
            if (r == col) {
                if (!(v > 0.0)) return false;
                c[r * k + r] = std::sqrt(v);
            } else {
                c[r * k + col] = v / c[col * k + col];
            }
        }
    for (int32_t r = 0; r < k; ++r) {  // c y = b
        for (int32_t m = 0; m < r; ++m) b[r] -= c[r * k + m] * b[m];
        b[r] /= c[r * k + r];
    }
    for (int32_t r = k - 1; r >= 0; --r) {  // c^T x = y
        for (int32_t m = r + 1; m < k; ++m) b[r] -= c[m * k + r] * b[m];
        b[r] /= c[r * k + r];
    }
    return true;
}

#if defined(CS_HAVE_QUAD)
// row_derivatives' sums for k = 4 or 5 with a row of p in one AVX2 register: row o of N
// is one register (its entries m > o are computed and never read) and k = 5's last
// column a scalar. Every entry that is read takes the scalar loop's operations in its
// order, so the sums are bit for bit the scalar ones (test_model_assist).
template <int K>
CS_TARGET_AVX2 void row_sums_quad(const CrowdData &data, const std::vector<int32_t> &items, const double *q,
                                  int32_t t, const double *pi, double *sum_g, double *sum_n) {
    static_assert(K == 4 || K == 5, "rows of four or five classes");
    const Quad at = load_quad(pi);
    const double at4 = K == 5 ? pi[4] : 0.0;
    Quad g = {0.0, 0.0, 0.0, 0.0}, rows[K];
    double g4 = 0.0, n44 = 0.0;
    for (int32_t o = 0; o < K; ++o) rows[o] = g;
    for (int32_t j : items) {
        const double w = q[static_cast<int64_t>(j) * K + t];
        const double *p = data.model_probs + static_cast<int64_t>(j) * K;
        const Quad pv = load_quad(p);
        const double p4 = K == 5 ? p[4] : 0.0;
        const Quad terms = pv * at;
        double like = terms[0] + terms[1];
        like += terms[2];
        like += terms[3];
        if constexpr (K == 5) like += p4 * at4;
        const double r = 1.0 / like, u = w * r, v = u * r;  // w / L, w / L^2
        g += u * pv;
        if constexpr (K == 5) g4 += u * p4;
        for (int32_t o = 0; o < 4; ++o) rows[o] += (v * pv[o]) * pv;
        if constexpr (K == 5) {
            const double vp = v * p4;
            rows[4] += vp * pv;
            n44 += vp * p4;
        }
    }
    for (int32_t o = 0; o < 4; ++o) sum_g[o] = g[o];
    if constexpr (K == 5) sum_g[4] = g4;
    for (int32_t o = 0, e = 0; o < K; ++o)
        for (int32_t m = 0; m <= o; ++m, ++e) sum_n[e] = m < 4 ? rows[o][m] : n44;
}
#endif

// The gradient g and curvature N of row t's objective at pi (see newton_row), in one
// pass over the row's items. The sums run in local arrays (the lower triangle of N
// packed): through the pointers g and n, which might alias the model's rows as far as
// the compiler knows, every term was a load and a store, a third of a classifier fit's
// time at k = 5.
template <int K>
void row_derivatives(const CrowdData &data, const std::vector<int32_t> &items, const double *q, int32_t t,
                     double a, const double *pi, bool wide, double *g, double *n) {
    const int32_t k = K > 0 ? K : data.k;
    double at[kNewtonClasses], sum_g[kNewtonClasses], sum_n[kNewtonClasses * (kNewtonClasses + 1) / 2];
    for (int32_t o = 0; o < k; ++o) at[o] = pi[o], sum_g[o] = 0.0;
    std::fill(sum_n, sum_n + k * (k + 1) / 2, 0.0);
    bool summed = false;
#if defined(CS_HAVE_QUAD)
    if constexpr (K == 4 || K == 5) {
        if (wide && cpu_has_avx2()) {
            row_sums_quad<K>(data, items, q, t, at, sum_g, sum_n);
            summed = true;
        }
    }
#endif
    for (std::size_t i = 0; i < (summed ? 0 : items.size()); ++i) {
        const int32_t j = items[i];
        const double w = q[static_cast<int64_t>(j) * k + t];
        const double *p = data.model_probs + static_cast<int64_t>(j) * k;
        double like = 0.0;
        for (int32_t o = 0; o < k; ++o) like += p[o] * at[o];
        const double r = 1.0 / like, u = w * r, v = u * r;  // w / L, w / L^2
        for (int32_t o = 0, e = 0; o < k; ++o) {
            sum_g[o] += u * p[o];
            const double vp = v * p[o];
            for (int32_t m = 0; m <= o; ++m, ++e) sum_n[e] += vp * p[m];
        }
    }
    for (int32_t o = 0, e = 0; o < k; ++o) {
        g[o] = sum_g[o] + a / pi[o];
        for (int32_t m = 0; m <= o; ++m, ++e) n[o * k + m] = n[m * k + o] = sum_n[e];
        n[o * k + o] += a / (pi[o] * pi[o]);
    }
}

// Row t of pi_M at the maximum of f(pi) = sum_j w_j log L_j + a sum_o log pi_o (L_j =
// p_j . pi over the answered items, w_j = q_j(t)), by Newton's method on the simplex:
// gradient g_o = sum_j w_j p_jo / L_j + a / pi_o and curvature N = -Hessian,
// N_oo' = sum_j w_j p_jo p_jo' / L_j^2 + [o = o'] a / pi_o^2 (positive definite); the
// step d = N^-1 (g - lambda 1) with lambda making sum_o d_o = 0, shortened to stay inside
// the simplex. f is concave, so along d its slope falls from g . d > 0: a step is taken
// when the slope at its end, g(end) . d, has not fallen below minus half that (near the
// maximum the full step lands on it, quadratic convergence); otherwise it is cut to
// where the slope's secant crosses zero. The derivatives at the end of a step are the
// next step's, so a taken step costs one pass over the items, not a slope pass and a
// derivatives pass. It stops when a step moves no entry by more than 1e-9, the rule of
// the repeated passes below (at 1e-12 the last steps were rounding noise: 1e-12, then
// 5e-13 ..., a pass each). False when N is singular.
template <int K>
bool newton_row(const CrowdData &data, const std::vector<int32_t> &items, const double *q, int32_t t, double a,
                bool wide, double *pi) {
    const int32_t k = K > 0 ? K : data.k;
    double g[kNewtonClasses], n[kNewtonClasses * kNewtonClasses], x[kNewtonClasses], y[kNewtonClasses];
    double trial[kNewtonClasses], g_end[kNewtonClasses], n_end[kNewtonClasses * kNewtonClasses];
    row_derivatives<K>(data, items, q, t, a, pi, wide, g, n);
    for (int step = 0; step < 50; ++step) {
        for (int32_t o = 0; o < k; ++o) x[o] = g[o], y[o] = 1.0;
        if (!spd_solve(n, k, x) || !spd_solve(n, k, y)) return false;
        double sx = 0.0, sy = 0.0;
        for (int32_t o = 0; o < k; ++o) sx += x[o], sy += y[o];
        const double lambda = sx / sy;
        double alpha = 1.0, largest = 0.0, rise = 0.0;
        for (int32_t o = 0; o < k; ++o) {
            x[o] -= lambda * y[o];  // the step d
            if (x[o] < 0.0) alpha = std::min(alpha, 0.9 * pi[o] / -x[o]);
            largest = std::max(largest, std::fabs(x[o]));
            rise += g[o] * x[o];  // the slope at alpha = 0 (g . d, > 0 away from the maximum)
        }
        if (largest * alpha <= 1e-9 || !(rise > 0.0)) return true;
        for (int cut = 0; cut < 40; ++cut) {
            for (int32_t o = 0; o < k; ++o) trial[o] = pi[o] + alpha * x[o];
            row_derivatives<K>(data, items, q, t, a, trial, wide, g_end, n_end);
            double end = 0.0;  // the slope along d at the trial point
            for (int32_t o = 0; o < k; ++o) end += g_end[o] * x[o];
            if (end >= -0.5 * rise) break;
            alpha *= rise / (rise - end);  // where the slope's secant crosses 0
        }
        std::copy(trial, trial + k, pi);
        std::copy(g_end, g_end + k, g);
        std::copy(n_end, n_end + static_cast<int64_t>(k) * k, n);
        if (largest * alpha <= 1e-9) return true;
    }
    return true;
}

}  // namespace

void settle_model_confusion(const CrowdData &data, const double *q, const FitOptions &options,
                            std::vector<double> &model_confusion, Team *team, ClassifierRowScratch *scratch) {
    const int32_t k = data.k;
    if (options.confusion == CS_CONFUSION_FULL && k <= kNewtonClasses) {
        // Each row is its own concave problem (pseudo-counts a = smoothing + 1/k an entry,
        // as model_m_step adds them), solved by one thread from its own items: the same
        // bits on any number of threads.
        const double a = options.smoothing + 1.0 / k;
        std::vector<double> solved = model_confusion;
        ClassifierRowScratch local;
        ClassifierRowScratch &rows = scratch != nullptr ? *scratch : local;
        row_items(data, q, rows);
        const std::vector<std::vector<int32_t>> &items = rows.items;
        std::vector<char> row_ok(static_cast<std::size_t>(k), 1);
        with_classes(k, [&](auto kc) {
            constexpr int K = decltype(kc)::value;
            const auto solve = [&](int64_t t) {
                row_ok[static_cast<std::size_t>(t)] = newton_row<K>(
                    data, items[static_cast<std::size_t>(t)], q, static_cast<int32_t>(t), a, options.wide_kernels,
                    solved.data() + t * k);
            };
            if (team != nullptr) team->run(k, solve);
            else for (int64_t t = 0; t < k; ++t) solve(t);
        });
        if (std::all_of(row_ok.begin(), row_ok.end(), [](char ok) { return ok != 0; })) {
            for (int32_t t = 0; t < k; ++t) {  // exactly on the simplex
                double *row = solved.data() + static_cast<int64_t>(t) * k;
                double mass = 0.0;
                for (int32_t o = 0; o < k; ++o) mass += row[o];
                for (int32_t o = 0; o < k; ++o) row[o] /= mass;
            }
            model_confusion.swap(solved);
            return;
        }
    }
    // Other confusion models (one-coin, class-one-coin), many classes, or a singular
    // curvature: EM's pass repeated.
    constexpr int kPasses = 200;
    constexpr double kSettled = 1e-9;
    std::vector<double> counts, next;
    for (int pass = 0; pass < kPasses; ++pass) {
        model_counts(data, q, model_confusion, counts);  // n_M at the current pi_M
        model_m_step(counts, k, options, next);
        double moved = 0.0;
        for (std::size_t e = 0; e < next.size(); ++e) moved = std::max(moved, std::fabs(next[e] - model_confusion[e]));
        model_confusion.swap(next);
        if (moved <= kSettled) break;
    }
}

bool model_answers(const CrowdData &data, int32_t j, int32_t t) {
    const double *p = data.model_probs + static_cast<int64_t>(j) * data.k;
    return !flat(p, data.k) && p[t] == *std::max_element(p, p + data.k);
}

}  // namespace cs
