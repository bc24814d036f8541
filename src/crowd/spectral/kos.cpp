// SPDX-License-Identifier: MIT
// kos: the spectral form of Karger-Oh-Shah used by the Opt-D&S authors' reference code
// (ALGORITHMS.md, "Baselines of the Opt-D&S paper", KOS). For each binary split s:
//
//   B = O - 1 c^T, c = column means of O over all n items;
//   (u, v) = top singular pair of B;
//   t = sign(u) if the squared mass of v's non-negative entries is >= 1/2, else -sign(u).
//
// v is the top eigenvector of B^T B (m x m), found by block subspace iteration
// (linalg/subspace_eigen) over products B^T (B X). B is never formed: the centring is
// applied inside the products, B X = O X - 1 (c^T X) and B^T W = O^T W - c (1^T W), so
// memory is O(labels + items x block). Then u = B v (only its signs matter; sigma = 1).
// The solver's sign convention (v's largest-magnitude entry positive) makes v unique;
// the rule above is invariant to flipping (u, v) together anyway.
#include <algorithm>
#include <cmath>
#include <vector>

#include "crowd/spectral/binary_splits.hpp"
#include "crowd/spectral/split_methods.hpp"
#include "linalg/subspace_eigen.hpp"
#include "util/parallel.hpp"
#include "util/rng.hpp"

namespace cs {

namespace {

SplitOutcome kos_split(const CrowdData &data, int32_t split, const FitOptions &options,
                       int threads, Rng &rng, SplitRun &run) {
    const SplitMatrix o = split_matrix(data, split);
    const int64_t n = data.n_items, m = data.n_workers;
    std::vector<int64_t> col_sum(static_cast<std::size_t>(m), 0), col_count(col_sum.size(), 0);
    for (int64_t p = 0; p < static_cast<int64_t>(data.n_labels()); ++p) {
        col_sum[data.worker_of(p)] += split_sign(data.label_of(p), split);
        ++col_count[data.worker_of(p)];
    }

    // ||B||_F^2 = sum_i (count_i - sum_i^2 / n): zero exactly when every column of O is
    // constant over all n items (tested in integers), i.e. every worker labelled every
    // item with one answer or labelled nothing.
    std::vector<double> c(static_cast<std::size_t>(m));
    bool zero = true;
    double fro2 = 0.0;
    for (int64_t i = 0; i < m; ++i) {
        c[i] = static_cast<double>(col_sum[i]) / static_cast<double>(n);
        if (col_count[i] * n != col_sum[i] * col_sum[i]) zero = false;
        fro2 += static_cast<double>(col_count[i]) - static_cast<double>(col_sum[i]) * c[i];
    }
    if (zero)
        return degenerate_split("the column-centred label matrix is zero (every worker gave one answer "
                                "to every item)");
    if (options.max_iter == 0) return SplitOutcome{};  // NotRun

    std::vector<double> w;  // B X, n x block
    const BlockOperator apply = [&](const double *x, double *y, int32_t p) {
        w.resize(static_cast<std::size_t>(n) * p);
        o.multiply(x, w.data(), p, threads);
        std::vector<double> cx(static_cast<std::size_t>(p), 0.0), sum(static_cast<std::size_t>(p), 0.0);
        for (int64_t i = 0; i < m; ++i)
            for (int32_t b = 0; b < p; ++b) cx[b] += c[i] * x[i * p + b];
        for (int64_t j = 0; j < n; ++j)
            for (int32_t b = 0; b < p; ++b) {
                w[j * p + b] -= cx[b];
                sum[b] += w[j * p + b];  // 1^T (B X), in item order
            }
        o.multiply_transpose(w.data(), y, p, threads);
        for (int64_t i = 0; i < m; ++i)
            for (int32_t b = 0; b < p; ++b) y[i * p + b] -= c[i] * sum[b];
    };
    const EigenResult top = top_split_vector(m, apply, options, rng, run);
    std::vector<double>().swap(w);
    if (top.values.empty())
        return missing_vector(run.cancelled(), options.max_iter,
                              "the eigensolver failed (LAPACK error)");
    if (!(top.values[0] > 1e-12 * fro2))
        return degenerate_split("the top singular value of the column-centred label matrix is zero");

    const std::vector<double> &v = top.vectors;  // m x 1, unit norm
    std::vector<double> u(static_cast<std::size_t>(n));
    o.multiply(v.data(), u.data(), 1, threads);
    double cv = 0.0, positive = 0.0, total = 0.0;
    for (int64_t i = 0; i < m; ++i) {
        cv += c[i] * v[i];
        total += v[i] * v[i];
        if (v[i] >= 0.0) positive += v[i] * v[i];
    }
    for (double &uj : u) uj -= cv;
    return split_signs(tie_signs(u), positive < 0.5 * total, top.converged);
}

}  // namespace

bool fit_kos(const CrowdData &data, const FitOptions &options, const Progress &progress,
             FitResult &out) {
    return fit_each_split(data, options, progress, "kos", out, kos_split);
}

}  // namespace cs
