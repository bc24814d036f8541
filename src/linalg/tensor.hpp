// SPDX-License-Identifier: MIT
// Small symmetric-ish third-order tensors (k x k x k) and the robust tensor power
// method of Anandkumar, Ge, Hsu, Kakade and Telgarsky (2014), as used by Opt-D&S
// (ALGORITHMS.md, Stage 1, step 3).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "linalg/dense.hpp"
#include "util/rng.hpp"

namespace cs {

struct Tensor3 {
    int32_t k = 0;
    std::vector<double> t;  // k x k x k, index (a * k + b) * k + c

    Tensor3() = default;
    explicit Tensor3(int32_t n) : k(n), t(static_cast<std::size_t>(n) * n * n, 0.0) {}

    double &operator()(int32_t a, int32_t b, int32_t c) {
        return t[(static_cast<std::size_t>(a) * k + b) * k + c];
    }
    double operator()(int32_t a, int32_t b, int32_t c) const {
        return t[(static_cast<std::size_t>(a) * k + b) * k + c];
    }
};

/// A cancellation poll of the O(k^3)-and-worse loops below: called with the work done
/// since the last call (inner-loop steps); it may throw to stop (util/progress.hpp).
using TensorPoll = std::function<void(int64_t)>;

/// T(A, B, C)[a][b][c] = sum_{x,y,z} T[x][y][z] A[x][a] B[y][b] C[z][c]
/// (A, B, C are k x r matrices; the result is r x r x r). O(k^3 r); `poll` is called
/// after each slice.
Tensor3 multilinear(const Tensor3 &t, const Matrix &a, const Matrix &b, const Matrix &c,
                    const TensorPoll &poll = nullptr);

/// T(I, v, v)[a] = sum_{y,z} T[a][y][z] v[y] v[z].
void contract_two(const Tensor3 &t, const std::vector<double> &v, std::vector<double> &out);

/// T(v, v, v).
double contract_three(const Tensor3 &t, const std::vector<double> &v);

/// One eigenpair of the decomposition T = sum_h lambda_h v_h (x) v_h (x) v_h.
struct TensorEigenpair {
    double lambda = 0.0;
    std::vector<double> v;  // unit vector
};

/// Robust tensor power method: for h = 1..k, from `starts` random unit vectors
/// (uniform in [-1/2, 1/2]^k, normalised) iterate v <- T(I, v, v) / ||T(I, v, v)||
/// `iterations` times, keep the start with the largest T(v, v, v), then deflate
/// T <- T - lambda v (x) v (x) v. Returns false if an iterate vanishes or becomes
/// non-finite (a degenerate tensor); `pairs` then holds what was found before.
/// O(k^4 starts iterations): `poll` is called after every power step and deflation.
bool robust_tensor_power(Tensor3 t, int32_t starts, int32_t iterations, Rng &rng,
                         std::vector<TensorEigenpair> &pairs, const TensorPoll &poll = nullptr);

}  // namespace cs
