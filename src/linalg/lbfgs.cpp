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
    double yhy = 0.0;  // y' H0 y (H0 = diag(inverse_scale)), for the scaling of H0
};

// The two-loop recursion (Nocedal and Wright, Algorithm 7.4): d = -H g, where H is the
// L-BFGS inverse Hessian built on H0 = scale * diag(inverse_scale), scale = s'y / y' H0 y
// of the newest pair. Each pass over the vectors does one update and the next dot
// product (2 memory + 1 passes in all, not 4 memory + 4): the vectors have as many
// entries as the model has parameters, and at a few labels per parameter these passes
// cost as much as the function evaluation.
void direction(const std::deque<Pair> &pairs, const std::vector<double> &g, const std::vector<double> &diag,
               std::size_t curved, std::vector<double> &d) {
    const std::size_t m = pairs.size(), n = curved;
    d.resize(g.size());
    for (std::size_t e = curved; e < g.size(); ++e) d[e] = -g[e] * (diag.empty() ? 1.0 : diag[e]);
    double alpha[64];
    const double scale = m > 0 && pairs.back().yhy > 0.0 ? 1.0 / (pairs.back().rho * pairs.back().yhy) : 1.0;
    // d = g, with the dot product of the newest s.
    double next = 0.0;
    for (std::size_t e = 0; e < n; ++e) {
        d[e] = g[e];
        if (m > 0) next += pairs[m - 1].s[e] * g[e];
    }
    for (std::size_t p = m; p-- > 0;) {
        alpha[p] = pairs[p].rho * next;
        const double a = alpha[p];
        const std::vector<double> &y = pairs[p].y;
        next = 0.0;
        if (p > 0) {
            const std::vector<double> &s_prev = pairs[p - 1].s;
            for (std::size_t e = 0; e < n; ++e) {
                d[e] -= a * y[e];
                next += s_prev[e] * d[e];
            }
        } else {
            // Last update of the first loop, then d = H0 d and the oldest y's dot product.
            for (std::size_t e = 0; e < n; ++e) {
                const double v = (d[e] - a * y[e]) * scale * (diag.empty() ? 1.0 : diag[e]);
                d[e] = v;
                next += pairs[0].y[e] * v;
            }
        }
    }
    if (m == 0)
        for (std::size_t e = 0; e < n; ++e) d[e] *= diag.empty() ? 1.0 : diag[e];
    for (std::size_t p = 0; p < m; ++p) {
        const double c = alpha[p] - pairs[p].rho * next;
        const std::vector<double> &sp = pairs[p].s;
        next = 0.0;
        if (p + 1 < m) {
            const std::vector<double> &y_next = pairs[p + 1].y;
            for (std::size_t e = 0; e < n; ++e) {
                d[e] += c * sp[e];
                next += y_next[e] * d[e];
            }
        } else {
            for (std::size_t e = 0; e < n; ++e) d[e] += c * sp[e];
        }
    }
    for (std::size_t e = 0; e < n; ++e) d[e] = -d[e];
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
    const HookAnswer start = hook ? hook(0, value) : HookAnswer::Continue;
    if (start != HookAnswer::Continue) {
        report.cancelled = start == HookAnswer::Cancel;
        report.converged = start == HookAnswer::Converged;
        return report;
    }
    std::deque<Pair> pairs;
    const std::size_t curved = options.curvature_dims < 0 ? n
                                                          : std::min(n, static_cast<std::size_t>(options.curvature_dims));
    for (int32_t it = 1; it <= options.max_iter; ++it) {
        direction(pairs, g, options.inverse_scale, curved, d);
        double slope = dot(g, d);
        if (!(slope < 0.0)) {  // not a descent direction: restart from the preconditioned gradient
            pairs.clear();
            direction(pairs, g, options.inverse_scale, curved, d);
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
        // The new curvature pair goes into the storage of the oldest one once the memory
        // is full (no allocation per iteration: the vectors have the problem's size).
        Pair pair;
        if (static_cast<int32_t>(pairs.size()) >= std::max(1, std::min(64, options.memory))) {
            pair = std::move(pairs.front());
            pairs.pop_front();
        }
        pair.s.resize(curved);
        pair.y.resize(curved);
        double sy = 0.0, ss = 0.0, yy = 0.0, yhy = 0.0;
        const std::vector<double> &h0 = options.inverse_scale;
        for (std::size_t e = 0; e < curved; ++e) {
            const double se = trial[e] - x[e], ye = g_trial[e] - g[e];
            pair.s[e] = se;
            pair.y[e] = ye;
            sy += se * ye;
            ss += se * se;
            yy += ye * ye;
            yhy += ye * ye * (h0.empty() ? 1.0 : h0[e]);
        }
        if (sy > 1e-12 * std::sqrt(ss * yy)) {
            pair.rho = 1.0 / sy;
            pair.yhy = yhy;
            pairs.push_back(std::move(pair));
        }
        x.swap(trial);
        g.swap(g_trial);
        const double previous = value;
        value = next;
        report.value = value;
        report.iterations = it;
        const HookAnswer answer = hook ? hook(it, value) : HookAnswer::Continue;
        if (answer != HookAnswer::Continue) {
            report.cancelled = answer == HookAnswer::Cancel;
            report.converged = answer == HookAnswer::Converged;
            break;
        }
        if (!(value < previous) ||  // no decrease at all: stationary to machine precision
            (options.rel_tol > 0.0 &&
             std::fabs(previous - value) <= options.rel_tol * std::max(std::fabs(value), 1.0))) {
            report.converged = true;
            break;
        }
    }
    return report;
}

}  // namespace cs
