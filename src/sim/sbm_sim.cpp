// SPDX-License-Identifier: MIT
#include "sim/sbm_sim.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "util/rng.hpp"

namespace cs {
namespace sim {

namespace {

// Number of failures before the next success of Bernoulli(p) trials, p in (0, 1).
int64_t geometric_skip(Rng &rng, double log_q) {
    const double u = 1.0 - rng.uniform();  // (0, 1]
    const double s = std::floor(std::log(u) / log_q);
    return s > 9e18 ? INT64_MAX / 2 : static_cast<int64_t>(s);
}

}  // namespace

Sbm simulate_sbm(const SbmSpec &spec) {
    if (spec.n < 1 || spec.k < 1 || spec.k > spec.n || !(spec.a >= 0.0) || !(spec.b >= 0.0))
        throw std::invalid_argument("simulate_sbm: need 1 <= k <= n and a, b >= 0");
    Sbm g;
    g.n = spec.n;
    g.k = spec.k;
    Rng rng(spec.seed);
    // Balanced sizes, random assignment: a shuffled 0..n-1 cut into k runs.
    std::vector<int32_t> order(static_cast<std::size_t>(spec.n));
    for (int32_t i = 0; i < spec.n; ++i) order[i] = i;
    for (int32_t i = spec.n - 1; i > 0; --i)
        std::swap(order[i], order[rng.below(static_cast<uint64_t>(i) + 1)]);
    std::vector<std::vector<int32_t>> members(static_cast<std::size_t>(spec.k));
    g.truth.resize(static_cast<std::size_t>(spec.n));
    for (int32_t t = 0; t < spec.n; ++t) {
        const int32_t h = static_cast<int32_t>(static_cast<int64_t>(t) * spec.k / spec.n);
        members[h].push_back(order[t]);
        g.truth[order[t]] = h;
    }
    for (auto &m : members) std::sort(m.begin(), m.end());

    const double p_in = std::min(1.0, spec.a / spec.n), p_out = std::min(1.0, spec.b / spec.n);
    const double expected = 0.5 * spec.n * ((spec.a + (spec.k - 1) * spec.b) / spec.k);
    g.u.reserve(static_cast<std::size_t>(expected * 1.05) + 16);
    g.v.reserve(g.u.capacity());
    auto add = [&](int32_t x, int32_t y) {
        g.u.push_back(x);
        g.v.push_back(y);
    };
    for (int32_t ga = 0; ga < spec.k; ++ga) {
        for (int32_t gb = ga; gb < spec.k; ++gb) {
            const std::vector<int32_t> &ma = members[ga], &mb = members[gb];
            const double p = ga == gb ? p_in : p_out;
            const int64_t na = static_cast<int64_t>(ma.size()), nb = static_cast<int64_t>(mb.size());
            const int64_t pairs = ga == gb ? na * (na - 1) / 2 : na * nb;
            if (p <= 0.0 || pairs == 0) continue;
            if (p >= 1.0) {  // complete block
                for (int64_t r = 0; r < na; ++r)
                    for (int64_t c = ga == gb ? r + 1 : 0; c < nb; ++c) add(ma[r], mb[c]);
                continue;
            }
            const double log_q = std::log1p(-p);
            if (ga != gb) {
                for (int64_t t = geometric_skip(rng, log_q); t < pairs; t += 1 + geometric_skip(rng, log_q))
                    add(ma[t / nb], mb[t % nb]);
                continue;
            }
            // Pairs (r, c), r < c, in row order: row r holds na - 1 - r pairs.
            int64_t r = 0, offset = 0;  // offset = index of pair (r, r + 1)
            for (int64_t t = geometric_skip(rng, log_q); t < pairs; t += 1 + geometric_skip(rng, log_q)) {
                while (t >= offset + (na - 1 - r)) {
                    offset += na - 1 - r;
                    ++r;
                }
                add(ma[r], ma[r + 1 + (t - offset)]);
            }
        }
    }
    return g;
}

}  // namespace sim
}  // namespace cs
