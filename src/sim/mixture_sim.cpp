// SPDX-License-Identifier: MIT
#include "sim/mixture_sim.hpp"

#include <cmath>
#include <stdexcept>

#include "util/rng.hpp"

namespace cs {
namespace sim {

Mixture simulate_mixture(const MixtureSpec &spec) {
    if (spec.n < 1 || spec.d < 1 || spec.k < 1 || spec.k > spec.d || !(spec.sigma >= 0.0) ||
        !(spec.delta >= 0.0))
        throw std::invalid_argument("simulate_mixture: need n, d, k >= 1, k <= d, sigma, delta >= 0");
    Mixture m;
    m.n = spec.n;
    m.d = spec.d;
    m.k = spec.k;
    // Scaled unit vectors: ||(c e_g) - (c e_h)|| = c sqrt 2 = delta.
    m.centres.assign(static_cast<std::size_t>(spec.k) * spec.d, 0.0);
    for (int32_t h = 0; h < spec.k; ++h)
        m.centres[static_cast<std::size_t>(h) * spec.d + h] = spec.delta / std::sqrt(2.0);
    Rng rng(spec.seed);
    m.truth.resize(static_cast<std::size_t>(spec.n));
    m.x.resize(static_cast<std::size_t>(spec.n) * spec.d);
    for (int64_t i = 0; i < spec.n; ++i) {
        const int32_t h = static_cast<int32_t>(rng.below(static_cast<uint64_t>(spec.k)));
        m.truth[i] = h;
        double *y = m.x.data() + i * spec.d;
        const double *c = m.centres.data() + static_cast<int64_t>(h) * spec.d;
        for (int32_t j = 0; j < spec.d; ++j) y[j] = c[j] + spec.sigma * rng.normal();
    }
    return m;
}

std::vector<int32_t> nearest_centre_labels(const Mixture &m) {
    std::vector<int32_t> labels(static_cast<std::size_t>(m.n));
    for (int64_t i = 0; i < m.n; ++i) {
        const double *y = m.x.data() + i * m.d;
        int32_t best = 0;
        double best_d2 = 0.0;
        for (int32_t h = 0; h < m.k; ++h) {
            const double *c = m.centres.data() + static_cast<int64_t>(h) * m.d;
            double d2 = 0.0;
            for (int32_t j = 0; j < m.d; ++j) d2 += (y[j] - c[j]) * (y[j] - c[j]);
            if (h == 0 || d2 < best_d2) {
                best_d2 = d2;
                best = h;
            }
        }
        labels[i] = best;
    }
    return labels;
}

}  // namespace sim
}  // namespace cs
