// SPDX-License-Identifier: MIT
#include "crowd/minimax/ordinal_ds.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "crowd/em/dawid_skene.hpp"
#include "crowd/voting/majority_vote.hpp"
#include "linalg/lbfgs.hpp"

namespace cs {

namespace {

constexpr double kBiasSd = 1.0;          // b_i ~ N(0, 1): a grade either way is plausible
const double kLogNoiseMean = std::log(0.5);  // log s_i ~ N(log 1/2, 1)
constexpr double kLogNoiseSd = 1.0;
constexpr double kThresholdSd = 1.0;     // t_x ~ N(x - 1/2, 1): midway between the grades
constexpr double kFloor = 1e-300;        // least probability of a cell (finite logarithms)
constexpr int32_t kMStepIterations = 100;

inline double logistic(double z) { return 1.0 / (1.0 + std::exp(-z)); }

// F(hi) - F(lo) for lo < hi (either may be infinite), without cancellation: in the upper
// tail as F(-lo) - F(-hi).
inline double interval(double lo, double hi) {
    if (lo >= 0.0) return logistic(-lo) - logistic(-hi);
    return logistic(hi) - logistic(lo);
}

// The density f(z) = F(z) F(-z) and z f(z); both 0 at +-infinity.
inline double density(double z) { return std::isinf(z) ? 0.0 : logistic(z) * logistic(-z); }
inline double z_density(double z) { return std::isinf(z) ? 0.0 : z * logistic(z) * logistic(-z); }

// The parameters in L-BFGS's vector: b (m), rho = log s (m), then t_1 and v_1..v_{K-2}
// with t_{l+1} = t_l + exp(v_l), so the thresholds stay increasing.
struct Layout {
    int32_t m = 0, k = 2;
    std::size_t size() const { return static_cast<std::size_t>(2 * m + k - 1); }
    std::vector<double> thresholds(const std::vector<double> &x) const {
        std::vector<double> t(static_cast<std::size_t>(k - 1));
        t[0] = x[static_cast<std::size_t>(2 * m)];
        for (int32_t l = 1; l + 1 < k; ++l) t[l] = t[l - 1] + std::exp(x[static_cast<std::size_t>(2 * m + l)]);
        return t;
    }
    std::vector<double> start() const {  // the priors' modes
        std::vector<double> x(size(), 0.0);
        for (int32_t i = 0; i < m; ++i) x[static_cast<std::size_t>(m + i)] = kLogNoiseMean;
        x[static_cast<std::size_t>(2 * m)] = 0.5;  // t_1 = 1/2; the gaps exp(0) = 1
        return x;
    }
};

// Bounds (z_lo, z_hi) of cell (c, x) for a worker: (t_x - c - b) / s and (t_{x+1} - c - b) / s.
inline void bounds(int32_t c, int32_t x, double b, double s, const std::vector<double> &t, int32_t k, double &lo,
                   double &hi) {
    const double inf = std::numeric_limits<double>::infinity();
    lo = x == 0 ? -inf : (t[static_cast<std::size_t>(x - 1)] - c - b) / s;
    hi = x == k - 1 ? inf : (t[static_cast<std::size_t>(x)] - c - b) / s;
}

double log_prior(const Layout &layout, const std::vector<double> &x) {
    double lp = 0.0;
    for (int32_t i = 0; i < layout.m; ++i) {
        const double b = x[static_cast<std::size_t>(i)] / kBiasSd;
        const double r = (x[static_cast<std::size_t>(layout.m + i)] - kLogNoiseMean) / kLogNoiseSd;
        lp -= 0.5 * (b * b + r * r);
    }
    const std::vector<double> t = layout.thresholds(x);
    for (int32_t l = 1; l < layout.k; ++l) {
        const double d = (t[static_cast<std::size_t>(l - 1)] - (l - 0.5)) / kThresholdSd;
        lp -= 0.5 * d * d;
    }
    return lp;
}

// Minus the M-step's objective, sum_i sum_{c,x} N_i(c,x) log pi_i(c,x) + log priors, and
// its gradient.
double m_step_objective(const Layout &layout, const std::vector<double> &counts, const std::vector<double> &x,
                        std::vector<double> &grad) {
    const int32_t m = layout.m, k = layout.k;
    const std::vector<double> t = layout.thresholds(x);
    std::vector<double> dt(static_cast<std::size_t>(k - 1), 0.0);
    grad.assign(x.size(), 0.0);
    double value = log_prior(layout, x);
    for (int32_t i = 0; i < m; ++i) {
        const double b = x[static_cast<std::size_t>(i)], rho = x[static_cast<std::size_t>(m + i)], s = std::exp(rho);
        double db = -b / (kBiasSd * kBiasSd), drho = -(rho - kLogNoiseMean) / (kLogNoiseSd * kLogNoiseSd);
        const double *n = counts.data() + static_cast<std::size_t>(i) * k * k;
        for (int32_t c = 0; c < k; ++c)
            for (int32_t y = 0; y < k; ++y) {
                const double w = n[c * k + y];
                if (w == 0.0) continue;
                double lo, hi;
                bounds(c, y, b, s, t, k, lo, hi);
                const double p = std::max(interval(lo, hi), kFloor);
                value += w * std::log(p);
                const double f_lo = density(lo), f_hi = density(hi), r = w / p;
                db += r * (f_lo - f_hi) / s;
                drho += r * (z_density(lo) - z_density(hi));
                if (y > 0) dt[static_cast<std::size_t>(y - 1)] -= r * f_lo / s;
                if (y < k - 1) dt[static_cast<std::size_t>(y)] += r * f_hi / s;
            }
        grad[static_cast<std::size_t>(i)] = -db;
        grad[static_cast<std::size_t>(m + i)] = -drho;
    }
    for (int32_t l = 1; l < k; ++l) dt[static_cast<std::size_t>(l - 1)] -= (t[static_cast<std::size_t>(l - 1)] - (l - 0.5)) / (kThresholdSd * kThresholdSd);
    // Chain rule through t_1 (every threshold moves) and the gaps v_l (t_{l+1}.. move).
    double tail = 0.0;
    for (int32_t l = k - 1; l >= 1; --l) {
        tail += dt[static_cast<std::size_t>(l - 1)];
        if (l == 1) grad[static_cast<std::size_t>(2 * m)] = -tail;
        else grad[static_cast<std::size_t>(2 * m + l - 1)] = -tail * std::exp(x[static_cast<std::size_t>(2 * m + l - 1)]);
    }
    return -value;
}

// N_i(c, x) = sum_j q_jc I(x_ij = x) (worker x true x observed), in item order.
void posterior_counts(const CrowdData &data, const std::vector<double> &q, std::vector<double> &counts) {
    const int32_t k = data.k;
    counts.assign(static_cast<std::size_t>(data.n_workers) * k * k, 0.0);
    for (int32_t j = 0; j < data.n_items; ++j) {
        const double *qj = q.data() + static_cast<int64_t>(j) * k;
        for (int64_t p = data.item_start[j]; p < data.item_start[j + 1]; ++p) {
            double *n = counts.data() + static_cast<std::size_t>(data.worker_of(p)) * k * k + data.label_of(p);
            for (int32_t c = 0; c < k; ++c) n[c * k] += qj[c];
        }
    }
}

class OrdinalEm {
public:
    OrdinalEm(const CrowdData &data, const FitOptions &options) : data_(data), options_(options) {
        layout_.m = data.n_workers;
        layout_.k = data.k;
        x_ = layout_.start();
        lbfgs_.max_iter = kMStepIterations;
        lbfgs_.rel_tol = 1e-12;
        // Curvature about a quarter of the labels (the logistic's largest density) plus the prior.
        std::vector<double> labels(static_cast<std::size_t>(data.n_workers), 0.0);
        for (uint32_t code : data.item_code) labels[code / static_cast<uint32_t>(data.k)] += 1.0;
        lbfgs_.inverse_scale.assign(layout_.size(), 0.0);
        for (int32_t i = 0; i < layout_.m; ++i) {
            lbfgs_.inverse_scale[static_cast<std::size_t>(i)] = 1.0 / (0.25 * labels[i] + 1.0);
            lbfgs_.inverse_scale[static_cast<std::size_t>(layout_.m + i)] = 1.0 / (0.25 * labels[i] + 1.0);
        }
        for (int32_t l = 0; l + 1 < data.k; ++l)
            lbfgs_.inverse_scale[static_cast<std::size_t>(2 * layout_.m + l)] =
                1.0 / (0.05 * static_cast<double>(data.n_labels()) + 1.0);
    }

    // The M-step from posteriors q: the scale parameters, then the matrices and prior.
    void m_step(const std::vector<double> &q, DsParams &params) {
        posterior_counts(data_, q, counts_);
        minimize_lbfgs([&](const std::vector<double> &x, std::vector<double> &g) {
            return m_step_objective(layout_, counts_, x, g);
        }, x_, lbfgs_);
        const int32_t k = data_.k;
        const std::vector<double> t = layout_.thresholds(x_);
        params.confusion.resize(static_cast<std::size_t>(data_.n_workers) * k * k);
        for (int32_t i = 0; i < data_.n_workers; ++i)
            for (int32_t c = 0; c < k; ++c)
                ordered_logit_row(c, x_[static_cast<std::size_t>(i)], std::exp(x_[static_cast<std::size_t>(layout_.m + i)]),
                                  t, params.confusion.data() + (static_cast<std::size_t>(i) * k + c) * k);
        params.prior.assign(static_cast<std::size_t>(k), 1.0 / k);
        if (options_.prior == CS_PRIOR_ESTIMATED && data_.n_items > 0) {
            std::fill(params.prior.begin(), params.prior.end(), 0.0);
            for (int32_t j = 0; j < data_.n_items; ++j)
                for (int32_t c = 0; c < k; ++c) params.prior[c] += q[static_cast<std::size_t>(j) * k + c];
            for (double &w : params.prior) w /= static_cast<double>(data_.n_items);
        }
    }

    double log_prior() const { return cs::log_prior(layout_, x_); }

    void scale(OrdinalScale &out) const {
        out.bias.assign(x_.begin(), x_.begin() + layout_.m);
        out.noise.resize(static_cast<std::size_t>(layout_.m));
        for (int32_t i = 0; i < layout_.m; ++i) out.noise[i] = std::exp(x_[static_cast<std::size_t>(layout_.m + i)]);
        out.thresholds = layout_.thresholds(x_);
    }

private:
    const CrowdData &data_;
    const FitOptions &options_;
    Layout layout_;
    std::vector<double> x_, counts_;
    LbfgsOptions lbfgs_;
};

}  // namespace

void ordered_logit_row(int32_t c, double b, double s, const std::vector<double> &t, double *row) {
    const int32_t k = static_cast<int32_t>(t.size()) + 1;
    double sum = 0.0;
    for (int32_t y = 0; y < k; ++y) {
        double lo, hi;
        bounds(c, y, b, s, t, k, lo, hi);
        sum += (row[y] = std::max(interval(lo, hi), kFloor));
    }
    for (int32_t y = 0; y < k; ++y) row[y] /= sum;
}

bool fit_ordinal_ds_scale(const CrowdData &data, const FitOptions &options, const Progress &progress,
                          FitResult &out, OrdinalScale *scale) {
    OrdinalEm em(data, options);
    // The start (iteration 0): the M-step from the soft majority vote, then the E-step.
    std::vector<double> q = soft_majority_vote(data, options.threads);
    DsParams params;
    em.m_step(q, params);
    double previous = e_step(data, params, options, q).log_likelihood + em.log_prior();
    bool cancelled = progress.cancelled(0, previous);
    out.converged = false;
    for (int32_t r = 1; r <= options.max_iter && !cancelled; ++r) {
        em.m_step(q, params);
        const EStep e = e_step(data, params, options, q);
        const double objective = e.log_likelihood + em.log_prior();
        out.trace.push_back(objective);
        out.iterations = r;
        cancelled = progress.cancelled(r, objective);
        const bool done = options.tol > 0.0 && std::fabs(objective - previous) <= options.tol * std::fabs(previous);
        previous = objective;
        if (cancelled) break;
        if (done) {
            out.converged = true;
            break;
        }
    }
    note_fit_end(options, cancelled, out);
    out.posteriors = std::move(q);
    out.labels = argmax_labels(out.posteriors, data.n_items, data.k);
    out.confusion = std::move(params.confusion);
    out.prior = std::move(params.prior);
    out.has_log_likelihood = true;
    if (scale) em.scale(*scale);
    return cancelled;
}

bool fit_ordinal_ds(const CrowdData &data, const FitOptions &options, const Progress &progress, FitResult &out) {
    return fit_ordinal_ds_scale(data, options, progress, out, nullptr);
}

}  // namespace cs
