// SPDX-License-Identifier: MIT
// ghosh-svd: Ghosh, Kale and McAfee's SVD method as the Opt-D&S reference code runs it
// (ALGORITHMS.md, "Baselines of the Opt-D&S paper", Ghosh-SVD). For each binary split s:
//
//   u = top left singular vector of O;
//   t = sign(u) if sign(u)^T (O 1) >= 0, else -sign(u).
//
// The reference code (src/MainProgram.m) takes the dot product with the sign vector,
// u = sign(U(:,1)); u'*sum(O,2) >= 0; ALGORITHMS.md writes u^T (O 1). The two differ
// only when the weighted and unweighted agreement with the row sums disagree in sign;
// we follow the reference code, whose numbers datasets/README.md reproduces.
//
// u = O v / sigma with v the top eigenvector of O^T O (m x m), found by block subspace
// iteration (linalg/subspace_eigen) over products O^T (O X): memory O(labels + items x
// block), never a dense matrix. sigma > 0 does not change signs and is not applied.
#include <utility>
#include <vector>

#include "crowd/spectral/binary_splits.hpp"
#include "crowd/spectral/split_methods.hpp"
#include "linalg/subspace_eigen.hpp"
#include "util/parallel.hpp"
#include "util/rng.hpp"

namespace cs {

namespace {

SplitOutcome ghosh_split(const CrowdData &data, int32_t split, const FitOptions &options,
                         int threads, Rng &rng, SplitRun &run) {
    const SplitMatrix o = split_matrix(data, split);
    const int64_t n = data.n_items, m = data.n_workers;
    if (options.max_iter == 0) return SplitOutcome{};  // NotRun

    std::vector<double> w;  // O X, n x block
    const BlockOperator apply = [&](const double *x, double *y, int32_t p) {
        w.resize(static_cast<std::size_t>(n) * p);
        o.multiply(x, w.data(), p, threads);
        o.multiply_transpose(w.data(), y, p, threads);
    };
    const EigenResult top = top_split_vector(m, apply, options, rng, run);
    std::vector<double>().swap(w);
    if (top.values.empty())
        return missing_vector(run.cancelled(), options.max_iter,
                              "the eigensolver failed (LAPACK error)");
    // ||O||_F^2 = number of labels >= 1 and sigma_1^2 >= ||O||_F^2 / min(n, m) > 0; a
    // zero here can only be an eigensolver stopped before it found any direction.
    if (!(top.values[0] > 0.0)) return degenerate_split("the eigensolver found no direction (top singular value 0)");

    std::vector<double> u(static_cast<std::size_t>(n));
    o.multiply(top.vectors.data(), u.data(), 1, threads);
    std::vector<int8_t> t = tie_signs(u);
    const std::vector<int64_t> row_sum = split_row_sums(data, split);
    int64_t agreement = 0;  // sign(u)^T (O 1), exact
    for (int64_t j = 0; j < n; ++j) agreement += t[j] * row_sum[j];
    return split_signs(std::move(t), agreement < 0, top.converged);
}

}  // namespace

bool fit_ghosh_svd(const CrowdData &data, const FitOptions &options, const Progress &progress,
                   FitResult &out) {
    return fit_each_split(data, options, progress, "ghosh-svd", out, ghosh_split);
}

}  // namespace cs
