// SPDX-License-Identifier: MIT
#include "numeric/chi_square.hpp"

#include <algorithm>
#include <cmath>

#include "util/special.hpp"

namespace cs {

double regularized_gamma_p(double a, double x) {
    if (x <= 0.0) return 0.0;
    const double log_front = a * std::log(x) - x - log_gamma(a);
    if (x < a + 1.0) {
        // P = x^a e^-x / Gamma(a + 1) sum_n x^n / ((a + 1) ... (a + n)).
        double term = 1.0 / a, sum = term;
        for (int n = 1; n < 100000; ++n) {
            term *= x / (a + n);
            sum += term;
            if (term < sum * 1e-16) break;
        }
        return std::exp(log_front) * sum;
    }
    // Q = x^a e^-x / Gamma(a) times the continued fraction 1/(x+1-a- 1(1-a)/(x+3-a- ...)),
    // evaluated by the modified Lentz method.
    const double tiny = 1e-300;
    double b = x + 1.0 - a, c = 1.0 / tiny, d = 1.0 / b, h = d;
    for (int i = 1; i < 100000; ++i) {
        const double an = -i * (i - a);
        b += 2.0;
        d = an * d + b;
        if (std::fabs(d) < tiny) d = tiny;
        c = b + an / c;
        if (std::fabs(c) < tiny) c = tiny;
        d = 1.0 / d;
        const double delta = d * c;
        h *= delta;
        if (std::fabs(delta - 1.0) < 1e-16) break;
    }
    return 1.0 - std::exp(log_front) * h;
}

namespace {

// The standard normal quantile (Acklam's rational approximation refined by one Newton
// step on erfc: relative error below 1e-12).
double normal_quantile(double q) {
    static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                               1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
    static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                               6.680131188771972e+01,  -1.328068155288572e+01};
    static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                               -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
    static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                               3.754408661907416e+00};
    double x;
    if (q < 0.02425) {
        const double t = std::sqrt(-2.0 * std::log(q));
        x = (((((c[0] * t + c[1]) * t + c[2]) * t + c[3]) * t + c[4]) * t + c[5]) /
            ((((d[0] * t + d[1]) * t + d[2]) * t + d[3]) * t + 1.0);
    } else if (q > 1.0 - 0.02425) {
        const double t = std::sqrt(-2.0 * std::log(1.0 - q));
        x = -(((((c[0] * t + c[1]) * t + c[2]) * t + c[3]) * t + c[4]) * t + c[5]) /
            ((((d[0] * t + d[1]) * t + d[2]) * t + d[3]) * t + 1.0);
    } else {
        const double u = q - 0.5, r = u * u;
        x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * u /
            (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1.0);
    }
    const double e = 0.5 * std::erfc(-x / std::sqrt(2.0)) - q;
    const double u = e * 2.5066282746310002 * std::exp(x * x / 2.0);
    return x - u / (1.0 + x * u / 2.0);
}

}  // namespace

double chi_square_quantile(double q, int64_t dof) {
    const double n = static_cast<double>(dof);
    if (dof > 100000) {
        const double h = 2.0 / (9.0 * n), base = 1.0 - h + normal_quantile(q) * std::sqrt(h);
        return n * base * base * base;
    }
    // P(N/2, x/2) increases in x: bracket, then bisect.
    double lo = 0.0, hi = std::max(1.0, n);
    while (regularized_gamma_p(n / 2.0, hi / 2.0) < q) hi *= 2.0;
    for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i) {
        const double mid = 0.5 * (lo + hi);
        (regularized_gamma_p(n / 2.0, mid / 2.0) < q ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

}  // namespace cs
