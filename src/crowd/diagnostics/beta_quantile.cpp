// SPDX-License-Identifier: MIT
#include "crowd/diagnostics/beta_quantile.hpp"

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

double log_beta(double a, double b) { return log_gamma(a) + log_gamma(b) - log_gamma(a + b); }

// I_x(a, b) and the log of the Beta(a, b) density at x in (0, 1), given log B(a, b).
struct BetaPoint {
    double cdf, log_density;
};

BetaPoint beta_at(double a, double b, double log_b, double x) {
    // x^a (1 - x)^b / B(a, b), times the fraction over a; the symmetry I_x(a, b) =
    // 1 - I_{1-x}(b, a) keeps x on the side where the fraction converges.
    const double log_front = a * std::log(x) + b * std::log1p(-x) - log_b;
    const double cdf = x < (a + 1.0) / (a + b + 2.0) ? std::exp(log_front) * beta_fraction(a, b, x) / a
                                                     : 1.0 - std::exp(log_front) * beta_fraction(b, a, 1.0 - x) / b;
    return {cdf, log_front - std::log(x) - std::log1p(-x)};
}

// The upper-tail standard normal quantile y (P(Z > y) = p), Abramowitz and Stegun
// 26.2.23 (error below 4.5e-4): only a starting point.
double normal_upper_quantile(double p) {
    const double tail = p < 0.5 ? p : 1.0 - p;
    const double t = std::sqrt(-2.0 * std::log(tail));
    const double y = t - (2.515517 + t * (0.802853 + t * 0.010328)) / (1.0 + t * (1.432788 + t * (0.189269 + t * 0.001308)));
    return p < 0.5 ? y : -y;
}

// Abramowitz and Stegun 26.5.22: the Beta(a, b) p-quantile from the normal one,
//     x = a / (a + b e^{2w}),  w = y sqrt(h + l) / h - (1/(2b-1) - 1/(2a-1)) (l + 5/6 - 2/(3h)),
// with y the upper-tail normal p-quantile, h = 2 / (1/(2a-1) + 1/(2b-1)), l = (y^2 - 3) / 6.
// Meant for a, b > 1; elsewhere the bracket below corrects it.
double beta_quantile_start(double a, double b, double p) {
    if (a <= 0.5 || b <= 0.5) return 0.5;
    const double y = -normal_upper_quantile(1.0 - p);
    const double ra = 1.0 / (2.0 * a - 1.0), rb = 1.0 / (2.0 * b - 1.0);
    const double h = 2.0 / (ra + rb), l = (y * y - 3.0) / 6.0;
    const double w = y * std::sqrt(h + l) / h - (rb - ra) * (l + 5.0 / 6.0 - 2.0 / (3.0 * h));
    const double x = a / (a + b * std::exp(2.0 * w));
    return std::isfinite(x) ? x : 0.5;
}

}  // namespace

double incomplete_beta(double a, double b, double x) {
    if (x <= 0.0) return 0.0;
    if (x >= 1.0) return 1.0;
    return beta_at(a, b, log_beta(a, b), x).cdf;
}

double beta_quantile(double a, double b, double p) {
    const double log_b = log_beta(a, b);
    // [lo, hi] brackets the root of f(x) = I_x(a, b) - p, which increases in x.
    double lo = 0.0, hi = 1.0, last_f = 2.0;
    double x = std::min(std::max(beta_quantile_start(a, b, p), 1e-300), 1.0 - 1e-16);
    for (int step = 0; step < 200; ++step) {
        const BetaPoint at = beta_at(a, b, log_b, x);
        const double f = at.cdf - p;
        if (f == 0.0) return x;
        if (f < 0.0) lo = x;
        else hi = x;
        // Halley's step f/f' / (1 - f f'' / (2 f'^2)), with f' the density and
        // f''/f' = (a - 1)/x - (b - 1)/(1 - x); cubic convergence from a start within
        // about 1e-3 of the root, so two or three steps reach rounding level.
        const double newton = f / std::exp(at.log_density);
        const double bend = 1.0 - 0.5 * newton * ((a - 1.0) / x - (b - 1.0) / (1.0 - x));
        const double delta = bend > 0.5 ? newton / bend : newton;
        if (std::fabs(delta) <= 1e-14 * x) return x - delta;
        double next = x - delta;
        // Bisect instead where the step leaves the bracket (a poor start, a tail where
        // the density underflows) or the last one did not halve |f| (creeping along a
        // flat tail).
        if (!(next > lo && next < hi) || std::fabs(f) > 0.5 * last_f) next = 0.5 * (lo + hi);
        last_f = std::fabs(f);
        x = next;
        if (hi - lo <= 1e-15 * x) break;
    }
    return x;
}

}  // namespace cs
