// SPDX-License-Identifier: MIT
// eigen-ratio: Dalvi, Dasgupta, Kumar and Rastogi's ratio of eigenvectors, as the
// Opt-D&S reference code runs it ("algorithm 2" in src/MainProgram.m; ALGORITHMS.md,
// "Baselines of the Opt-D&S paper", EigenRatio). With G = |O| (who labelled what):
//
//   R1 = (O^T O) ./ (G^T G + 1e-8) elementwise,  R2 = [G^T G > 0];
//   v1, v2 = top eigenvectors (largest |eigenvalue|) of R1 and R2;
//   v = v1 ./ v2;  u = O v;  t = sign(u) if u^T (O 1) >= 0, else -sign(u).
//
// R1 and R2 are m x m but non-zero only on co-labelling worker pairs (workers who share
// an item, a worker with itself included): they are built in compressed sparse rows
// over those pairs, in O(sum over items of (labels per item)^2) time and O(labels +
// pairs) memory (a by-worker copy of the labels, 8 bytes each, plus the pairs), never
// as dense m x m or n x m matrices. R2 and G^T G do not depend on
// the split and are built and solved once (the reference code recomputes them per split
// with the same result). v2 is the Perron vector of R2 (non-negative; the solver's sign
// convention makes it so); a worker where |v2_i| <= 1e-9 max |v2| (outside the
// co-labelling component that carries v2, or without labels) gets v_i = 0 instead of a
// division by zero. The sign of v1 is irrelevant: the final rule fixes t's sign.
//
// On trec two workers lie outside the main co-labelling component; the reference code
// divides by their (numerically) zero v2 entries, which yields inf or NaN there. With
// those workers set to 0 this gives 38.73 % error on trec, as does a dense LAPACK
// evaluation of the same formula; the paper's Table 2 prints 43.96 %, which neither
// reproduces. The other four sets match the reference run (datasets/README.md).
#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "crowd/spectral/binary_splits.hpp"
#include "crowd/spectral/split_methods.hpp"
#include "linalg/subspace_eigen.hpp"
#include "util/parallel.hpp"
#include "util/rng.hpp"

namespace cs {

namespace {

// Each worker's labels, by increasing item: the by-worker view the pair sums need,
// built from the by-item layout (CrowdData keeps only that one) and kept for the fit.
struct WorkerLabels {
    std::vector<int64_t> start;  // n_workers + 1
    std::vector<int32_t> item;   // the item of each label
    std::vector<int32_t> label;  // its label
};

WorkerLabels worker_labels(const CrowdData &data) {
    const int32_t m = data.n_workers;
    WorkerLabels w;
    w.start.assign(static_cast<std::size_t>(m) + 1, 0);
    const int64_t labels = static_cast<int64_t>(data.n_labels());
    for (int64_t p = 0; p < labels; ++p) ++w.start[data.worker_of(p) + 1];
    for (int32_t i = 0; i < m; ++i) w.start[i + 1] += w.start[i];
    w.item.resize(static_cast<std::size_t>(labels));
    w.label.resize(static_cast<std::size_t>(labels));
    std::vector<int64_t> next(w.start.begin(), w.start.end() - 1);
    for (int32_t j = 0; j < data.n_items; ++j)
        for (int64_t p = data.item_start[j]; p < data.item_start[j + 1]; ++p) {
            const int64_t q = next[data.worker_of(p)]++;
            w.item[q] = j;
            w.label[q] = data.label_of(p);
        }
    return w;
}

// The pattern of G^T G: row i lists the workers who share at least one item with worker
// i (i itself included when it has labels), in order of first appearance over i's items
// (increasing) and each item's labels (input order). Values are left empty.
CsrMatrix pair_pattern(const CrowdData &data, const WorkerLabels &w, int threads) {
    const int32_t m = data.n_workers;
    CsrMatrix r;
    r.rows = r.cols = m;
    r.start.assign(static_cast<std::size_t>(m) + 1, 0);
    // Each thread's marks, allocated here: an allocation failing inside the parallel
    // region could not throw out of it (std::terminate) and would end the process.
    std::vector<int32_t> marks(static_cast<std::size_t>(threads) * m);
    for (int pass = 0; pass < 2; ++pass) {
        std::fill(marks.begin(), marks.end(), -1);
#pragma omp parallel num_threads(threads)
        {
            int32_t *mark = marks.data() + static_cast<std::size_t>(current_thread()) * m;
#pragma omp for schedule(dynamic, 64)
            for (int32_t i = 0; i < m; ++i) {
                int64_t count = 0;
                for (int64_t p = w.start[i]; p < w.start[i + 1]; ++p) {
                    const int32_t j = w.item[p];
                    for (int64_t q = data.item_start[j]; q < data.item_start[j + 1]; ++q) {
                        const int32_t other = data.worker_of(q);
                        if (mark[other] == i) continue;
                        mark[other] = i;
                        if (pass == 1) r.index[r.start[i] + count] = other;
                        ++count;
                    }
                }
                if (pass == 0) r.start[i + 1] = count;
            }
        }
        if (pass == 0) {
            for (int32_t i = 0; i < m; ++i) r.start[i + 1] += r.start[i];
            r.index.resize(static_cast<std::size_t>(r.start[m]));
        }
    }
    return r;
}

// Values on the pattern: (G^T G)_ii' (split < 0) or (O^T O)_ii' for split s.
std::vector<double> pair_sums(const CrowdData &data, const WorkerLabels &w,
                              const CsrMatrix &pattern, int32_t split, int threads) {
    const int32_t m = data.n_workers;
    std::vector<double> value(pattern.index.size(), 0.0);
    std::vector<int64_t> positions(static_cast<std::size_t>(threads) * m, 0);  // per thread, as above
#pragma omp parallel num_threads(threads)
    {
        int64_t *position = positions.data() + static_cast<std::size_t>(current_thread()) * m;
#pragma omp for schedule(dynamic, 64)
        for (int32_t i = 0; i < m; ++i) {
            for (int64_t e = pattern.start[i]; e < pattern.start[i + 1]; ++e)
                position[pattern.index[e]] = e;
            for (int64_t p = w.start[i]; p < w.start[i + 1]; ++p) {
                const int32_t j = w.item[p];
                const double si = split < 0 ? 1.0 : split_sign(w.label[p], split);
                for (int64_t q = data.item_start[j]; q < data.item_start[j + 1]; ++q) {
                    const double sq = split < 0 ? 1.0 : split_sign(data.label_of(q), split);
                    value[position[data.worker_of(q)]] += si * sq;
                }
            }
        }
    }
    return value;
}

EigenResult top_vector(const CsrMatrix &r, const FitOptions &options, int threads, Rng &rng,
                       SplitRun &run) {
    const BlockOperator apply = [&](const double *x, double *y, int32_t p) {
        r.multiply(x, y, p, threads);
    };
    return top_split_vector(r.rows, apply, options, rng, run);
}

}  // namespace

bool fit_eigen_ratio(const CrowdData &data, const FitOptions &options, const Progress &progress,
                     FitResult &out) {
    SplitRun run(data, options, progress, "eigen-ratio", out);
    const int threads = threads_for(options.threads, static_cast<int64_t>(data.n_labels()));
    const int64_t n = data.n_items, m = data.n_workers;
    Rng rng(options.seed);
    if (run.cancelled()) return run.finish();
    if (options.max_iter == 0) {
        for (int32_t s = 0; s + 1 < data.k; ++s) run.set(s, SplitOutcome{});  // NotRun
        return run.finish();
    }

    // R2 = [G^T G > 0] and its Perron vector v2, once for all splits.
    const WorkerLabels by_worker = worker_labels(data);
    CsrMatrix pairs = pair_pattern(data, by_worker, threads);
    const std::vector<double> shared = pair_sums(data, by_worker, pairs, -1, threads);  // G^T G
    pairs.value.assign(pairs.index.size(), 1.0);
    const EigenResult perron = top_vector(pairs, options, threads, rng, run);
    if (perron.values.empty()) {
        const SplitOutcome missing = missing_vector(run.cancelled(), options.max_iter,
                                                    "the eigensolver failed on R2 (LAPACK error)");
        for (int32_t s = 0; s + 1 < data.k; ++s) run.set(s, missing);
        return run.finish();
    }
    const std::vector<double> &v2 = perron.vectors;
    double v2_top = 0.0;
    for (double x : v2) v2_top = std::max(v2_top, std::fabs(x));

    for (int32_t s = 0; s + 1 < data.k && !run.cancelled(); ++s) {
        // R1 = (O^T O) ./ (G^T G + 1e-8) on the same pattern.
        pairs.value = pair_sums(data, by_worker, pairs, s, threads);
        for (std::size_t e = 0; e < pairs.value.size(); ++e) pairs.value[e] /= shared[e] + 1e-8;
        const EigenResult top = top_vector(pairs, options, threads, rng, run);
        if (top.values.empty()) {
            run.set(s, missing_vector(run.cancelled(), options.max_iter,
                                      "the eigensolver failed on R1 (LAPACK error)"));
            continue;
        }
        std::vector<double> v(static_cast<std::size_t>(m), 0.0);
        for (int64_t i = 0; i < m; ++i)
            if (std::fabs(v2[i]) > 1e-9 * v2_top) v[i] = top.vectors[i] / v2[i];

        const SplitMatrix o = split_matrix(data, s);
        std::vector<double> u(static_cast<std::size_t>(n));
        o.multiply(v.data(), u.data(), 1, threads);
        std::vector<int8_t> t = tie_signs(u);
        if (std::all_of(t.begin(), t.end(), [](int8_t tj) { return tj == 0; })) {
            run.set(s, degenerate_split("the eigenvector ratio gives every item the score 0"));
            continue;
        }
        const std::vector<int64_t> row_sum = split_row_sums(data, s);
        double agreement = 0.0;  // u^T (O 1), in item order
        for (int64_t j = 0; j < n; ++j) agreement += u[j] * static_cast<double>(row_sum[j]);
        run.set(s, split_signs(std::move(t), agreement < 0.0, top.converged && perron.converged));
    }
    return run.finish();
}

}  // namespace cs
