// SPDX-License-Identifier: MIT
#include "linalg/tensor.hpp"

#include "util/per_class.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace cs {

Tensor3 multilinear(const Tensor3 &t, const Matrix &a, const Matrix &b, const Matrix &c, const TensorPoll &poll) {
    const int32_t k = t.k, r = a.cols;
    // Three successive mode products, O(k^3 r) each instead of O(k^3 r^3) at once, with
    // a poll after each slice of O(k^2 r).
    const int64_t slice = static_cast<int64_t>(k) * k * r;
    std::vector<double> s1(static_cast<std::size_t>(r) * k * k, 0.0);  // [a][y][z]
    for (int32_t x = 0; x < k; ++x) {
        for (int32_t i = 0; i < r; ++i) {
            const double w = a(x, i);
            if (w == 0.0) continue;
            for (int32_t yz = 0; yz < k * k; ++yz)
                s1[static_cast<std::size_t>(i) * k * k + yz] += w * t.t[static_cast<std::size_t>(x) * k * k + yz];
        }
        if (poll) poll(slice);
    }
    std::vector<double> s2(static_cast<std::size_t>(r) * r * k, 0.0);  // [a][b][z]
    for (int32_t i = 0; i < r; ++i) {
        for (int32_t y = 0; y < k; ++y)
            for (int32_t j = 0; j < r; ++j) {
                const double w = b(y, j);
                if (w == 0.0) continue;
                for (int32_t z = 0; z < k; ++z)
                    s2[(static_cast<std::size_t>(i) * r + j) * k + z] +=
                        w * s1[(static_cast<std::size_t>(i) * k + y) * k + z];
            }
        if (poll) poll(slice);
    }
    Tensor3 out(r);
    for (int32_t i = 0; i < r; ++i) {
        for (int32_t j = 0; j < r; ++j)
            for (int32_t z = 0; z < k; ++z) {
                const double v = s2[(static_cast<std::size_t>(i) * r + j) * k + z];
                if (v == 0.0) continue;
                for (int32_t l = 0; l < r; ++l) out(i, j, l) += v * c(z, l);
            }
        if (poll) poll(static_cast<int64_t>(r) * k * r);
    }
    return out;
}

namespace {

// out[a] = sum_y (sum_z T[a][y][z] v[z]) v[y], each a summed in exactly this order. K > 0
// fixes k at compile time: the k sums then live in registers as independent chains
// that the processor overlaps (the robust power method calls this k x 100 x 100 times
// per group; one chain at a time was latency-bound).
template <int K>
void contract_two_k(const Tensor3 &t, const double *v, double *out) {
    const int32_t k = K > 0 ? K : t.k;
    const double *base = t.t.data();
    if (K == 0) {
        for (int32_t a = 0; a < k; ++a) {
            double sum = 0.0;
            for (int32_t y = 0; y < k; ++y) {
                double inner = 0.0;
                const double *row = base + (static_cast<std::size_t>(a) * k + y) * k;
                for (int32_t z = 0; z < k; ++z) inner += row[z] * v[z];
                sum += inner * v[y];
            }
            out[a] = sum;
        }
        return;
    }
    double sum[K > 0 ? K : 1] = {};
    for (int32_t y = 0; y < k; ++y) {
        double inner[K > 0 ? K : 1] = {};
        for (int32_t z = 0; z < k; ++z)
            for (int32_t a = 0; a < k; ++a) inner[a] += base[(a * k + y) * k + z] * v[z];
        for (int32_t a = 0; a < k; ++a) sum[a] += inner[a] * v[y];
    }
    for (int32_t a = 0; a < k; ++a) out[a] = sum[a];
}

}  // namespace

void contract_two(const Tensor3 &t, const std::vector<double> &v, std::vector<double> &out) {
    out.resize(static_cast<std::size_t>(t.k));
    with_classes(t.k, [&](auto kc) { contract_two_k<decltype(kc)::value>(t, v.data(), out.data()); });
}

double contract_three(const Tensor3 &t, const std::vector<double> &v) {
    std::vector<double> w;
    contract_two(t, v, w);
    double sum = 0.0;
    for (int32_t a = 0; a < t.k; ++a) sum += w[a] * v[a];
    return sum;
}

namespace {

// Normalise in place; false if the norm is zero or not finite.
bool normalise(std::vector<double> &v) {
    double norm = 0.0;
    for (double x : v) norm += x * x;
    norm = std::sqrt(norm);
    if (!(norm > 0.0) || !std::isfinite(norm)) return false;
    for (double &x : v) x /= norm;
    return true;
}

// The last iterates of one start, to recognise a repeat (power_iterations).
class IterateHistory {
public:
    static constexpr int32_t kDepth = 16;  // periods up to this are recognised

    explicit IterateHistory(int32_t k) : k_(k), iterate_(static_cast<std::size_t>(kDepth) * k), key_(kDepth) {}

    // Remember iterate number `it`.
    void store(int32_t it, const std::vector<double> &v) {
        const int32_t at = it % kDepth;
        std::memcpy(&iterate_[static_cast<std::size_t>(at) * k_], v.data(), static_cast<std::size_t>(k_) * sizeof(double));
        key_[at] = key(v);
    }

    // The smallest p <= min(it, kDepth) such that v equals iterate it - p bit for bit,
    // or 0.
    int32_t period(int32_t it, const std::vector<double> &v) const {
        const uint64_t want = key(v);
        for (int32_t p = 1; p <= std::min(it, kDepth); ++p) {
            const int32_t at = (it - p) % kDepth;
            if (key_[at] == want &&
                std::memcmp(&iterate_[static_cast<std::size_t>(at) * k_], v.data(),
                            static_cast<std::size_t>(k_) * sizeof(double)) == 0)
                return p;
        }
        return 0;
    }

    // Iterate number `it` (one of the last kDepth stored).
    void load(int32_t it, std::vector<double> &v) const {
        std::memcpy(v.data(), &iterate_[static_cast<std::size_t>(it % kDepth) * k_], static_cast<std::size_t>(k_) * sizeof(double));
    }

private:
    // A cheap summary of the bits, compared before the bits themselves.
    uint64_t key(const std::vector<double> &v) const {
        uint64_t h = 0;
        for (double x : v) {
            uint64_t bits;
            std::memcpy(&bits, &x, sizeof bits);
            h = (h ^ bits) * 0x9E3779B97F4A7C15ull;
        }
        return h;
    }

    int32_t k_;
    std::vector<double> iterate_;  // kDepth iterates, iterate i at slot i mod kDepth
    std::vector<uint64_t> key_;
};

// v <- the iterate after `iterations` steps v <- T(I, v, v) / ||T(I, v, v)|| (the robust
// tensor power method of ALGORITHMS.md, Opt-D&S step 3); false if an iterate has no
// direction.
// A step is a deterministic function of the bits of v. So once iterate `it` equals
// iterate it - p bit for bit, the sequence repeats with period p from there on, and
// the last iterate is the stored iterate it - p + (iterations - it) mod p. Stopping
// there returns exactly what running all the steps would. In floating point a start
// settles on a fixed point or a short cycle (periods 1 to 12 seen on simulated crowds)
// after 10-30 steps, instead of running all `iterations`.
bool power_iterations(const Tensor3 &t, int32_t iterations, std::vector<double> &v,
                      std::vector<double> &next, IterateHistory &history, const TensorPoll &poll) {
    history.store(0, v);
    const int64_t step = static_cast<int64_t>(t.k) * t.k * t.k;
    for (int32_t it = 1; it <= iterations; ++it) {
        contract_two(t, v, next);  // next = iterate `it`
        if (poll) poll(step);
        if (!normalise(next)) return false;
        const int32_t p = history.period(it, next);
        if (p > 0) {
            history.load(it - p + (iterations - it) % p, v);
            return true;
        }
        history.store(it, next);
        v.swap(next);
    }
    return true;
}

}  // namespace

bool robust_tensor_power(Tensor3 t, int32_t starts, int32_t iterations, Rng &rng,
                         std::vector<TensorEigenpair> &pairs, const TensorPoll &poll) {
    const int32_t k = t.k;
    pairs.clear();
    std::vector<double> v(static_cast<std::size_t>(k)), next;
    IterateHistory history(k);
    for (int32_t h = 0; h < k; ++h) {
        TensorEigenpair best;
        best.lambda = -std::numeric_limits<double>::infinity();
        for (int32_t s = 0; s < starts; ++s) {
            for (double &x : v) x = rng.uniform() - 0.5;
            if (!normalise(v)) continue;  // probability zero; skip the start
            if (!power_iterations(t, iterations, v, next, history, poll)) return false;
            const double lambda = contract_three(t, v);
            if (lambda > best.lambda) {
                best.lambda = lambda;
                best.v = v;
            }
        }
        if (best.v.empty() || !std::isfinite(best.lambda)) return false;
        // Deflate: T <- T - lambda v (x) v (x) v.
        for (int32_t a = 0; a < k; ++a)
            for (int32_t b = 0; b < k; ++b)
                for (int32_t c = 0; c < k; ++c) t(a, b, c) -= best.lambda * best.v[a] * best.v[b] * best.v[c];
        if (poll) poll(static_cast<int64_t>(k) * k * k);
        pairs.push_back(std::move(best));
    }
    return true;
}

}  // namespace cs
