// SPDX-License-Identifier: MIT
#include "cluster/run_points.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "linalg/kmeans.hpp"
#include "cluster/spectral_points.hpp"
#include "util/error.hpp"
#include "util/parallel.hpp"
#include "util/rng.hpp"

namespace cs {

namespace {

// Largest accepted |coordinate|: squared distances summed over up to 2^31 coordinates
// stay far from overflow (documented in crowdspec.h).
constexpr double kMaxMagnitude = 1e100;

// Iteration budget of the k-means on the spectral projection (part of the
// initialisation, so independent of max_iter). It stops earlier when at most 1 in
// 10^4 labels changes: at n = 10^6, d = 20, k = 10 (seeds 1-3) that saves 2-3 of 12-17
// iterations on the projection and leaves the Lloyd iterations on the points and
// their result unchanged (the final k-means cost is identical).
constexpr int32_t kInitMaxIter = 300;
constexpr int64_t kInitStopFraction = 10000;

// The k-means of the initialisation runs on a uniform sample of at most
// max(50000, 500 k) projected points, then every point takes the nearest of its
// centres. The initialisation only has to reach Lloyd's basin of attraction (constant
// clustering error, Lu and Zhou Theorem 3.2); centres fitted to >= 500 points per
// cluster on average in k dimensions are off by ~sqrt(k / 500) sigma, far inside it,
// and the Lloyd iterations on all the points then do the statistical work. At
// n = 10^6, d = 20, k = 10 this turns ~0.9 s of seeding and Lloyd over all projected
// points into ~0.1 s, with the same final labels.
constexpr int64_t kInitSampleMin = 50000;
constexpr int64_t kInitSamplePerCluster = 500;

// Sorted uniform sample of m of the indices 0..n-1 (Knuth's selection sampling).
std::vector<int64_t> sample_indices(int64_t n, int64_t m, Rng &rng) {
    std::vector<int64_t> out;
    out.reserve(static_cast<std::size_t>(m));
    for (int64_t i = 0; i < n && static_cast<int64_t>(out.size()) < m; ++i)
        if (static_cast<double>(n - i) * rng.uniform() < static_cast<double>(m - static_cast<int64_t>(out.size())))
            out.push_back(i);
    return out;
}

// Initial labels of every point: k-means (k-means++ seeding + Lloyd) on `space` (the
// projected points, or the points themselves when d <= k), on a sample when n is large.
std::vector<int32_t> initial_labels(const PointSet &space, int32_t k, int32_t n_init, int threads, Rng &rng,
                                    int64_t &reseeded) {
    const CentredPoints all = CentredPoints::prepare(space, threads);
    const int64_t m = std::max(kInitSampleMin, kInitSamplePerCluster * k);
    LloydOptions options;
    options.k = k;
    options.max_iter = kInitMaxIter;
    if (space.n <= m) {
        options.stop_changes = space.n / kInitStopFraction;
        KmeansRun run = kmeans(all, options, n_init, rng);
        reseeded += run.reseeded;
        return std::move(run.labels);
    }
    const std::vector<int64_t> index = sample_indices(space.n, m, rng);
    std::vector<double> rows(index.size() * static_cast<std::size_t>(space.d));
    for (std::size_t r = 0; r < index.size(); ++r)
        std::copy(space.row(index[r]), space.row(index[r]) + space.d, rows.begin() + static_cast<std::ptrdiff_t>(r * space.d));
    PointSet sample;
    sample.x = rows.data();
    sample.n = static_cast<int64_t>(index.size());
    sample.d = space.d;
    sample.ld = space.d;
    options.stop_changes = sample.n / kInitStopFraction;
    const KmeansRun run = kmeans(CentredPoints::prepare(sample, threads), options, n_init, rng);
    reseeded += run.reseeded;
    return nearest_centre_labels(all, run.centres, k);
}

PointSet validate(const double *x, std::size_t n, std::size_t d, std::size_t ld, int32_t k,
                  int threads) {
    constexpr std::size_t kMaxInt = static_cast<std::size_t>(std::numeric_limits<int32_t>::max());
    if (n == 0) throw Error(CS_ERR_EMPTY_INPUT, "cs_fit_points: no points (n = 0)");
    if (d == 0) throw Error(CS_ERR_EMPTY_INPUT, "cs_fit_points: the points have no coordinates (d = 0)");
    if (x == nullptr) throw Error(CS_ERR_NULL_POINTER, "cs_fit_points: the point array x is NULL");
    if (ld == 0) ld = d;
    if (ld < d)
        throw Error(CS_ERR_INVALID_ARGUMENT, "cs_fit_points: leading dimension ld = " + std::to_string(ld) +
                                                 " is smaller than d = " + std::to_string(d));
    if (n > kMaxInt || d > kMaxInt || ld > kMaxInt)
        throw Error(CS_ERR_INVALID_ARGUMENT, "cs_fit_points: n, d and ld must be at most 2^31 - 1 (n = " +
                                                 std::to_string(n) + ", d = " + std::to_string(d) +
                                                 ", ld = " + std::to_string(ld) + ")");
    if (k < 2)
        throw Error(CS_ERR_TOO_FEW_CLASSES, "cs_fit_points: the number of clusters k (parameter 'classes') is " +
                                                std::to_string(k) + "; set it to 2 or more");
    if (static_cast<std::size_t>(k) > n)
        throw Error(CS_ERR_TOO_MANY_CLASSES, "cs_fit_points: k = " + std::to_string(k) + " clusters but only " +
                                                 std::to_string(n) + " points");
    PointSet p;
    p.x = x;
    p.n = static_cast<int64_t>(n);
    p.d = static_cast<int32_t>(d);
    p.ld = static_cast<int64_t>(ld);
    // The first offending coordinate in row-major order: each chunk finds its first,
    // the lowest chunk wins (the same answer for any thread count).
    constexpr int64_t kRows = 4096;
    const int64_t chunks = chunk_count(p.n, kRows);
    std::vector<int64_t> bad(static_cast<std::size_t>(chunks), -1);
#pragma omp parallel for schedule(static) num_threads(team_size(threads, p.n))
    for (int64_t c = 0; c < chunks; ++c) {
        const int64_t end = std::min((c + 1) * kRows, p.n);
        for (int64_t i = c * kRows; i < end && bad[c] < 0; ++i) {
            const double *y = p.row(i);
            for (int32_t j = 0; j < p.d; ++j)
                if (!(std::fabs(y[j]) <= kMaxMagnitude)) {
                    bad[c] = i * p.d + j;
                    break;
                }
        }
    }
    for (int64_t c = 0; c < chunks; ++c) {
        if (bad[c] < 0) continue;
        const int64_t i = bad[c] / p.d;
        const int32_t j = static_cast<int32_t>(bad[c] % p.d);
        const double value = p.row(i)[j];
        const std::string what = std::isnan(value)   ? "NaN"
                                 : std::isinf(value) ? (value > 0 ? "+Inf" : "-Inf")
                                                     : std::to_string(value) + " (|x| > 1e100)";
        throw Error(CS_ERR_NON_FINITE, "cs_fit_points: coordinate " + std::to_string(j) + " of point " +
                                           std::to_string(i) + " is " + what);
    }
    return p;
}

void note(FitResult &out, int32_t bit, const std::string &message) {
    out.notes |= bit;
    out.note_message += message + " ";
}

}  // namespace

KmeansRun fit_lloyd_points(const PointsProblem &problem, const FitOptions &options, const LloydOptions &settings,
                           Rng &rng, FitResult &out) {
    // Spectral initialisation: k-means (k-means++ seeding + Lloyd) on the projection
    // onto the top-k right singular subspace, the paper's "O(1) approximation of
    // k-means"; then Lloyd on the original points (L-7, L-8).
    const int32_t k = settings.k;
    const SubspaceProjection projection = project_top_singular(problem.points, k, rng, problem.threads);
    if (!projection.converged)
        note(out, CS_NOTE_EIGEN_NOT_CONVERGED,
             "the top-" + std::to_string(k) + " singular subspace did not reach its tolerance in " +
                 std::to_string(projection.products) + " products; its last estimate was used.");
    PointSet space = problem.points;
    if (!projection.identity) {
        space.x = projection.coords.data();
        space.d = projection.dims;
        space.ld = projection.dims;
    }
    int64_t init_reseeded = 0;
    std::vector<int32_t> start = initial_labels(space, k, options.n_init, problem.threads, rng, init_reseeded);
    KmeansRun run = lloyd(problem.data, std::move(start), settings);
    run.reseeded += init_reseeded;
    return run;
}

KmeansRun fit_kmeanspp_points(const PointsProblem &problem, const FitOptions &options, const LloydOptions &settings,
                              Rng &rng, FitResult &) {
    return kmeans(problem.data, settings, options.n_init, rng);
}

bool run_points_method(const double *x, std::size_t n, std::size_t d, std::size_t ld,
                       const FitOptions &options, const Progress &progress, PointsMethod method, FitResult &out) {
    const int threads = resolve_threads(options.threads);
    const int32_t k = options.classes;
    PointsProblem problem;
    problem.points = validate(x, n, d, ld, k, threads);
    problem.data = CentredPoints::prepare(problem.points, threads);
    problem.threads = threads;
    const PointSet &points = problem.points;
    Rng rng(options.seed);

    LloydOptions lloyd_options;
    lloyd_options.k = k;
    lloyd_options.max_iter = options.max_iter;
    lloyd_options.progress = &progress;
    KmeansRun run = method(problem, options, lloyd_options, rng, out);

    out.input_kind = CS_INPUT_POINTS;
    out.n_items = static_cast<int32_t>(points.n);
    out.n_workers = 0;
    out.k = k;
    out.n_dims = points.d;
    out.labels = std::move(run.labels);
    out.centres = std::move(run.centres);
    out.prior.resize(static_cast<std::size_t>(k));
    for (int32_t h = 0; h < k; ++h)
        out.prior[h] = static_cast<double>(run.sizes[h]) / static_cast<double>(points.n);
    out.trace = std::move(run.trace);
    out.has_log_likelihood = false;
    out.iterations = run.iterations;
    out.converged = run.converged && !run.cancelled;  // a cancelled fit did not meet its rule
    if (!run.converged && !run.cancelled && options.max_iter > 0)
        note(out, CS_NOTE_MAX_ITER_REACHED,
             "Lloyd stopped at max_iter = " + std::to_string(options.max_iter) +
                 " iterations with labels still changing.");
    if (run.reseeded > 0)
        note(out, CS_NOTE_EMPTY_CLUSTER,
             std::to_string(run.reseeded) +
                 " empty clusters were re-seeded with the point farthest from its centre.");
    if (run.cancelled) out.notes |= CS_NOTE_CANCELLED;
    if (!out.note_message.empty() && out.note_message.back() == ' ') out.note_message.pop_back();
    return run.cancelled;
}

}  // namespace cs
