// SPDX-License-Identifier: MIT
#include "linalg/lbfgs.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <deque>

namespace cs {

namespace {

double dot(const std::vector<double> &a, const std::vector<double> &b) {
    double s = 0.0;
    for (std::size_t e = 0; e < a.size(); ++e) s += a[e] * b[e];
    return s;
}

struct Pair {
    std::vector<double> s, y;
    double rho = 0.0;  // 1 / s'y
};

// The two-loop recursion (Nocedal and Wright, Algorithm 7.4): d = -H g, where H is the
// L-BFGS inverse Hessian built on H0 = scale * diag(inverse_scale).
void direction(const std::deque<Pair> &pairs, const std::vector<double> &g, const std::vector<double> &diag,
               std::vector<double> &d) {
    const std::size_t n = g.size();
    d = g;
    std::vector<double> alpha(pairs.size());
    for (std::size_t p = pairs.size(); p-- > 0;) {
        alpha[p] = pairs[p].rho * dot(pairs[p].s, d);
        for (std::size_t e = 0; e < n; ++e) d[e] -= alpha[p] * pairs[p].y[e];
    }
    double scale = 1.0;
    if (!pairs.empty()) {
        const Pair &last = pairs.back();
        double yhy = 0.0;
        for (std::size_t e = 0; e < n; ++e) yhy += last.y[e] * last.y[e] * (diag.empty() ? 1.0 : diag[e]);
        if (yhy > 0.0) scale = 1.0 / (last.rho * yhy);
    }
    for (std::size_t e = 0; e < n; ++e) d[e] *= scale * (diag.empty() ? 1.0 : diag[e]);
    for (std::size_t p = 0; p < pairs.size(); ++p) {
        const double beta = pairs[p].rho * dot(pairs[p].y, d);
        for (std::size_t e = 0; e < n; ++e) d[e] += pairs[p].s[e] * (alpha[p] - beta);
    }
    for (double &v : d) v = -v;
}

}  // namespace

LbfgsReport minimize_lbfgs(const Objective &f, std::vector<double> &x, const LbfgsOptions &options,
                           const IterationHook &hook) {
    constexpr double kArmijo = 1e-4;
    constexpr int kHalvings = 40;
    LbfgsReport report;
    const std::size_t n = x.size();
    std::vector<double> g(n), d, trial(n), g_trial(n);
    double value = f(x, g);
    report.value = value;
    if (hook && hook(0, value)) {
        report.cancelled = true;
        return report;
    }
    std::deque<Pair> pairs;
    for (int32_t it = 1; it <= options.max_iter; ++it) {
        direction(pairs, g, options.inverse_scale, d);
        double slope = dot(g, d);
        if (!(slope < 0.0)) {  // not a descent direction: restart from the preconditioned gradient
            pairs.clear();
            direction(pairs, g, options.inverse_scale, d);
            slope = dot(g, d);
            if (!(slope < 0.0)) {  // a zero gradient: stationary
                report.converged = true;
                break;
            }
        }
        double step = 1.0, next = value;
        bool accepted = false;
        for (int h = 0; h < kHalvings; ++h, step *= 0.5) {
            for (std::size_t e = 0; e < n; ++e) trial[e] = x[e] + step * d[e];
            next = f(trial, g_trial);
            if (std::isfinite(next) && next <= value + kArmijo * step * slope) {
                accepted = true;
                break;
            }
        }
        if (!accepted) {  // no decrease left at machine precision: x is where it stops
            report.converged = true;
            break;
        }
        Pair pair;
        pair.s.resize(n);
        pair.y.resize(n);
        for (std::size_t e = 0; e < n; ++e) {
            pair.s[e] = trial[e] - x[e];
            pair.y[e] = g_trial[e] - g[e];
        }
        const double sy = dot(pair.s, pair.y);
        if (sy > 1e-12 * std::sqrt(dot(pair.s, pair.s) * dot(pair.y, pair.y))) {
            pair.rho = 1.0 / sy;
            pairs.push_back(std::move(pair));
            if (static_cast<int32_t>(pairs.size()) > options.memory) pairs.pop_front();
        }
        x.swap(trial);
        g.swap(g_trial);
        const double previous = value;
        value = next;
        report.value = value;
        report.iterations = it;
        if (hook && hook(it, value)) {
            report.cancelled = true;
            break;
        }
        if (options.rel_tol > 0.0 &&
            std::fabs(previous - value) <= options.rel_tol * std::max(std::fabs(value), 1.0)) {
            report.converged = true;
            break;
        }
    }
    return report;
}

}  // namespace cs
