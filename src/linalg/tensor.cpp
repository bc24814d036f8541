#include "linalg/tensor.hpp"

#include "util/per_class.hpp"

#include <cmath>
#include <cstring>
#include <limits>

namespace cs {

Tensor3 multilinear(const Tensor3 &t, const Matrix &a, const Matrix &b, const Matrix &c) {
    const int32_t k = t.k, r = a.cols;
    // Three successive mode products, O(k^3 r) each instead of O(k^3 r^3) at once.
    std::vector<double> s1(static_cast<std::size_t>(r) * k * k, 0.0);  // [a][y][z]
    for (int32_t x = 0; x < k; ++x)
        for (int32_t i = 0; i < r; ++i) {
            const double w = a(x, i);
            if (w == 0.0) continue;
            for (int32_t yz = 0; yz < k * k; ++yz)
                s1[static_cast<std::size_t>(i) * k * k + yz] += w * t.t[static_cast<std::size_t>(x) * k * k + yz];
        }
    std::vector<double> s2(static_cast<std::size_t>(r) * r * k, 0.0);  // [a][b][z]
    for (int32_t i = 0; i < r; ++i)
        for (int32_t y = 0; y < k; ++y)
            for (int32_t j = 0; j < r; ++j) {
                const double w = b(y, j);
                if (w == 0.0) continue;
                for (int32_t z = 0; z < k; ++z)
                    s2[(static_cast<std::size_t>(i) * r + j) * k + z] +=
                        w * s1[(static_cast<std::size_t>(i) * k + y) * k + z];
            }
    Tensor3 out(r);
    for (int32_t i = 0; i < r; ++i)
        for (int32_t j = 0; j < r; ++j)
            for (int32_t z = 0; z < k; ++z) {
                const double v = s2[(static_cast<std::size_t>(i) * r + j) * k + z];
                if (v == 0.0) continue;
                for (int32_t l = 0; l < r; ++l) out(i, j, l) += v * c(z, l);
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

bool same_bits(const std::vector<double> &x, const std::vector<double> &y) {
    return std::memcmp(x.data(), y.data(), x.size() * sizeof(double)) == 0;
}

// v <- the iterate after `iterations` steps v <- T(I, v, v) / ||T(I, v, v)|| (the robust
// tensor power method of ALGORITHMS.md, Opt-D&S step 3); false if an iterate has no
// direction.
// A step is a deterministic function of v, so once an iterate repeats one of the
// previous two bit for bit, every later iterate is known: a fixed point stays, and a
// 2-cycle alternates, so the last iterate follows from the parity of the steps left.
// Stopping there returns exactly what running all the steps would; converged starts,
// the usual case, then cost a few steps instead of `iterations`.
bool power_iterations(const Tensor3 &t, int32_t iterations, std::vector<double> &v,
                      std::vector<double> &next, std::vector<double> &before) {
    for (int32_t it = 1; it <= iterations; ++it) {
        contract_two(t, v, next);  // next = iterate `it`; v = iterate it-1
        if (!normalise(next)) return false;
        if (same_bits(next, v)) return true;  // a fixed point
        if (it >= 2 && same_bits(next, before)) {
            // Iterates it, it+2, ... equal `next`; it+1, it+3, ... equal v.
            if ((iterations - it) % 2 == 0) v.swap(next);
            return true;
        }
        before.swap(v);  // before = iterate it-1
        v.swap(next);    // v = iterate it
    }
    return true;
}

}  // namespace

bool robust_tensor_power(Tensor3 t, int32_t starts, int32_t iterations, Rng &rng,
                         std::vector<TensorEigenpair> &pairs) {
    const int32_t k = t.k;
    pairs.clear();
    std::vector<double> v(static_cast<std::size_t>(k)), next, before;
    for (int32_t h = 0; h < k; ++h) {
        TensorEigenpair best;
        best.lambda = -std::numeric_limits<double>::infinity();
        for (int32_t s = 0; s < starts; ++s) {
            for (double &x : v) x = rng.uniform() - 0.5;
            if (!normalise(v)) continue;  // probability zero; skip the start
            if (!power_iterations(t, iterations, v, next, before)) return false;
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
        pairs.push_back(std::move(best));
    }
    return true;
}

}  // namespace cs
