// SPDX-License-Identifier: MIT
#include "community/spectral_graph.hpp"

#include <algorithm>
#include <cmath>

#include "linalg/kmeans.hpp"
#include "linalg/subspace_eigen.hpp"
#include "util/error.hpp"
#include "util/parallel.hpp"

namespace cs {

namespace {

// Eigensolver settings. The wanted eigenvalues of a sparse block model sit just
// outside the bulk of radius ~2 sqrt(mean degree) (for mean degree 20 and k = 5:
// about 10.6 against 8.9), where plain subspace iteration gains a factor ~0.84 per
// product; the Chebyshev filter on the bulk makes that about 0.55 (measured at
// n = 10^5: 84 products plain, 33-41 filtered). A residual of 1e-3 |lambda_1| bounds
// the subspace angle by about 1e-3 |lambda_1| / (lambda_k - bulk edge) ~ 0.01, far
// below what moves the k-means of the rows (the spectral error rate at n = 10^5 is the
// same to 1e-4 at tolerances 1e-2 .. 1e-4), and CommuLloyd corrects the rest. Three
// extra block columns keep a block of k = 5 at 8 doubles, one cache line per row.
constexpr double kEigenTol = 1e-3;
constexpr int32_t kEigenMaxProducts = 1000;
constexpr int32_t kEigenFilterDegree = 8;
constexpr int32_t kEigenOversample = 3;
constexpr int32_t kInitMaxIter = 300;
constexpr int64_t kInitStopFraction = 10000;  // as for points (src/cluster/run_points.cpp)

}  // namespace

void adjacency_block_product(const GraphData &graph, const double *x, double *y, int32_t p, int threads) {
    // Gathering the rows x_j of random neighbours is memory-latency bound on large
    // graphs: prefetch the row needed kAhead edges later (across row boundaries, adj is
    // one array), and accumulate in registers for the usual small blocks.
    constexpr int64_t kAhead = 16;
    constexpr int32_t kMaxLocal = 32;
    const int64_t n = graph.n_nodes, total = graph.start[graph.n_nodes];
    const int32_t *adj = graph.adj.data();
#pragma omp parallel for schedule(dynamic, 4096) num_threads(team_size(threads, n))
    for (int64_t i = 0; i < n; ++i) {
        double acc[kMaxLocal];
        double *yi = y + i * p;
        double *sum = p <= kMaxLocal ? acc : yi;
        std::fill(sum, sum + p, 0.0);
        for (int64_t e = graph.start[i]; e < graph.start[i + 1]; ++e) {
            if (e + kAhead < total) __builtin_prefetch(x + static_cast<int64_t>(adj[e + kAhead]) * p);
            const double *xj = x + static_cast<int64_t>(adj[e]) * p;
            for (int32_t c = 0; c < p; ++c) sum[c] += xj[c];
        }
        if (sum != yi) std::copy(sum, sum + p, yi);
    }
}

GraphSpectralResult spectral_communities(const GraphData &graph, const GraphSpectralOptions &options,
                                         Rng &rng) {
    const int64_t n = graph.n_nodes;
    const int32_t k = options.k;
    GraphSpectralResult out;

    // Trimming: A^tau zeroes the rows and columns of the nodes of degree > tau.
    GraphData trimmed_graph;
    const GraphData *a = &graph;
    if (options.trim > 0.0) {
        const double average = 2.0 * static_cast<double>(graph.n_edges) / static_cast<double>(n);
        out.tau = options.trim * average;
        std::vector<char> keep(static_cast<std::size_t>(n), 1);
        for (int64_t i = 0; i < n; ++i)
            if (static_cast<double>(graph.degree(static_cast<int32_t>(i))) > out.tau) {
                keep[i] = 0;
                ++out.trimmed;
            }
        if (out.trimmed > 0) {
            trimmed_graph = graph.induced(keep, options.threads);
            a = &trimmed_graph;
        }
    }

    // The k eigenvectors of A^tau of largest |eigenvalue|.
    BlockOperator apply = [&](const double *x, double *y, int32_t p) {
        adjacency_block_product(*a, x, y, p, options.threads);
    };
    EigenOptions eigen;
    eigen.k = k;
    eigen.oversample = kEigenOversample;
    eigen.tol = kEigenTol;
    eigen.max_iter = kEigenMaxProducts;
    eigen.filter_degree = kEigenFilterDegree;

    const EigenResult e = top_eigenpairs(n, apply, eigen, rng);
    if (e.values.empty()) throw Error(CS_ERR_INTERNAL, "the graph eigensolver failed (LAPACK error)");
    out.eigenvalues = e.values;
    out.converged = e.converged;
    out.products = e.iterations;
    const int32_t dims = static_cast<int32_t>(e.values.size());

    // k-means on the rows of the embedded nodes (non-empty rows of A^tau).
    std::vector<int64_t> rows;
    rows.reserve(static_cast<std::size_t>(n));
    for (int64_t i = 0; i < n; ++i)
        if (a->degree(static_cast<int32_t>(i)) > 0) rows.push_back(i);
    out.unembedded = n - static_cast<int64_t>(rows.size());
    const bool subset = static_cast<int64_t>(rows.size()) >= k && out.unembedded > 0;
    std::vector<double> compact;
    PointSet points;
    points.d = dims;
    points.ld = dims;
    if (subset) {
        compact.resize(rows.size() * static_cast<std::size_t>(dims));
        for (std::size_t r = 0; r < rows.size(); ++r)
            std::copy(e.vectors.begin() + rows[r] * dims, e.vectors.begin() + (rows[r] + 1) * dims,
                      compact.begin() + static_cast<std::ptrdiff_t>(r * dims));
        points.x = compact.data();
        points.n = static_cast<int64_t>(rows.size());
    } else {
        points.x = e.vectors.data();
        points.n = n;
    }
    LloydOptions lloyd_options;
    lloyd_options.k = k;
    lloyd_options.max_iter = kInitMaxIter;
    lloyd_options.stop_changes = points.n / kInitStopFraction;
    KmeansRun run = kmeans(CentredPoints::prepare(points, options.threads), lloyd_options, options.n_init, rng);
    out.reseeded = run.reseeded;
    if (!subset) {
        out.labels = std::move(run.labels);
        return out;
    }

    // The others vote with their untrimmed edges into the embedded communities.
    out.labels.assign(static_cast<std::size_t>(n), -1);
    for (std::size_t r = 0; r < rows.size(); ++r) out.labels[rows[r]] = run.labels[r];
    std::vector<int64_t> count(static_cast<std::size_t>(k), 0);
    for (int64_t i = 0; i < n; ++i) {
        if (out.labels[i] >= 0) continue;
        std::fill(count.begin(), count.end(), 0);
        for (int64_t p = graph.start[i]; p < graph.start[i + 1]; ++p) {
            const int32_t h = out.labels[graph.adj[p]];
            if (h >= 0 && a->degree(graph.adj[p]) > 0) ++count[h];
        }
        int32_t best = 0;
        for (int32_t h = 1; h < k; ++h)  // count[h] / size[h] > count[best] / size[best]
            if (count[h] * run.sizes[best] > count[best] * run.sizes[h]) best = h;
        out.labels[i] = best;
    }
    return out;
}

}  // namespace cs
