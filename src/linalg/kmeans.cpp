// SPDX-License-Identifier: MIT
#include "linalg/kmeans.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "linalg/cblas_lapacke.hpp"
#include "util/memory_budget.hpp"

#include "util/parallel.hpp"

namespace cs {

namespace {

// Points per chunk (the unit of parallel work and of ordered reductions) and chunks
// per block (one dgemm of a block of points with every centre).
constexpr int64_t kChunk = 1024;
constexpr int64_t kChunksPerBlock = 8;
constexpr int64_t kBlock = kChunk * kChunksPerBlock;

int64_t n_chunks(int64_t n) { return chunk_count(n, kChunk); }

// G = X_block T^T for the rows [first, first + rows) and `cols` shifted centres T
// (cols x d, row-major): G is rows x cols.
void block_products(const PointSet &p, int64_t first, int64_t rows, const double *t, int32_t cols,
                    double *g) {
    require_blas_headroom(0.0, "the distances to the centres (dgemm)");
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, static_cast<int>(rows), cols, p.d, 1.0,
                p.row(first), static_cast<int>(p.ld), t, p.d, 0.0, g, cols);
}

// Centres for one pass: raw centres c, shifted t' = c - m, their squared norms, norms
// and m.t' (so that y'.t' = y.t' - m.t' for a raw point y).
struct Shifted {
    std::vector<double> raw;    // cols x d
    std::vector<double> t;      // cols x d
    std::vector<double> norm2;  // cols
    std::vector<double> norm;   // cols
    std::vector<double> mdot;   // cols
};

Shifted shift_rows(const CentredPoints &data, const std::vector<double> &raw, int32_t cols) {
    const int32_t d = data.points.d;
    Shifted s;
    s.raw = raw;
    s.t = raw;
    s.norm2.assign(static_cast<std::size_t>(cols), 0.0);
    s.norm.assign(static_cast<std::size_t>(cols), 0.0);
    s.mdot.assign(static_cast<std::size_t>(cols), 0.0);
    for (int32_t h = 0; h < cols; ++h) {
        double *th = s.t.data() + static_cast<int64_t>(h) * d;
        double a = 0.0, b = 0.0;
        for (int32_t j = 0; j < d; ++j) {
            th[j] -= data.mean[j];
            a += th[j] * th[j];
            b += data.mean[j] * th[j];
        }
        s.norm2[h] = a;
        s.norm[h] = std::sqrt(a);
        s.mdot[h] = b;
    }
    return s;
}

// The norm expansion ||y' - t'||^2 = ||y'||^2 + ||t'||^2 - 2 (y.t' - m.t') is one dgemm
// but cancels: its rounding error is at most about kExpansionSlack * (||y'||^2 +
// ||t'||^2 + 2 (||y|| + ||m||) ||t'||), which is no longer small against the distance
// when a point sits far from the data mean but close to its centre (one huge outlier
// moves the mean away from every other point). Where that bound exceeds kMaxLostFraction
// of the distance (more than 8 of the 16 digits lost), or could reorder the two nearest
// centres, the distances of that point are recomputed from direct differences.
constexpr double kMaxLostFraction = 1e-8;

double expansion_slack(int32_t d) { return 2.0 * (d + 2) * std::numeric_limits<double>::epsilon(); }

double direct_distance(const double *y, const double *c, int32_t d) {
    double a = 0.0;
    for (int32_t j = 0; j < d; ++j) {
        const double v = y[j] - c[j];
        a += v * v;
    }
    return a;
}

double norm_of(const std::vector<double> &v) {
    double a = 0.0;
    for (double x : v) a += x * x;
    return std::sqrt(a);
}

// Cluster sums of y - ref_h (ref: k x d raw reference points, each near its cluster, so
// that the differences keep their digits) and sizes of `labels`, in chunk order.
void cluster_sums(const CentredPoints &data, const std::vector<int32_t> &labels, int32_t k,
                  const std::vector<double> &ref, std::vector<double> &sums, std::vector<int64_t> &sizes) {
    const PointSet &p = data.points;
    const int32_t d = p.d;
    const int64_t kd = static_cast<int64_t>(k) * d;
    sums.assign(static_cast<std::size_t>(kd), 0.0);
    sizes.assign(static_cast<std::size_t>(k), 0);
    std::vector<double> partial(static_cast<std::size_t>(kChunksPerBlock * kd));
    std::vector<int64_t> partial_sizes(static_cast<std::size_t>(kChunksPerBlock * k));
    for (int64_t first = 0; first < p.n; first += kBlock) {
        const int64_t rows = std::min(kBlock, p.n - first);
        const int64_t chunks = n_chunks(rows);
#pragma omp parallel for schedule(static, 1) num_threads(team_size(data.threads, p.n))
        for (int64_t c = 0; c < chunks; ++c) {
            double *s = partial.data() + c * kd;
            int64_t *z = partial_sizes.data() + c * k;
            std::fill(s, s + kd, 0.0);
            std::fill(z, z + k, 0);
            const int64_t end = std::min(first + (c + 1) * kChunk, first + rows);
            for (int64_t i = first + c * kChunk; i < end; ++i) {
                const int32_t h = labels[i];
                const double *y = p.row(i);
                const double *r = ref.data() + static_cast<int64_t>(h) * d;
                double *sh = s + static_cast<int64_t>(h) * d;
                for (int32_t j = 0; j < d; ++j) sh[j] += y[j] - r[j];
                ++z[h];
            }
        }
        for (int64_t c = 0; c < chunks; ++c) {
            const double *s = partial.data() + c * kd;
            for (int64_t e = 0; e < kd; ++e) sums[e] += s[e];
            for (int32_t h = 0; h < k; ++h) sizes[h] += partial_sizes[c * k + h];
        }
    }
}

// One label update (L-8) against the centres, fused with the sums of the new clusters
// relative to those centres (the next centre update, L-7). Returns the cost
// sum_i ||y_i - c_(z_i)||^2; `dist` receives each point's squared distance to its new
// centre.
struct PassResult {
    double cost = 0.0;
    int64_t changed = 0;
};

PassResult assign(const CentredPoints &data, const Shifted &centres, int32_t k,
                  const std::vector<int32_t> &previous, std::vector<int32_t> &next,
                  std::vector<double> &dist, std::vector<double> &sums, std::vector<int64_t> &sizes) {
    const PointSet &p = data.points;
    const int32_t d = p.d;
    const int64_t kd = static_cast<int64_t>(k) * d;
    const double slack = expansion_slack(d), mean_norm = norm_of(data.mean);
    sums.assign(static_cast<std::size_t>(kd), 0.0);
    sizes.assign(static_cast<std::size_t>(k), 0);
    std::vector<double> g(static_cast<std::size_t>(kBlock * k));
    std::vector<double> partial(static_cast<std::size_t>(kChunksPerBlock * kd));
    std::vector<int64_t> partial_sizes(static_cast<std::size_t>(kChunksPerBlock * k));
    std::vector<double> chunk_cost(static_cast<std::size_t>(n_chunks(p.n)), 0.0);
    PassResult result;
    for (int64_t first = 0; first < p.n; first += kBlock) {
        const int64_t rows = std::min(kBlock, p.n - first);
        const int64_t chunks = n_chunks(rows);
        block_products(p, first, rows, centres.t.data(), k, g.data());
        int64_t changed = 0;
#pragma omp parallel for schedule(static, 1) num_threads(team_size(data.threads, p.n)) reduction(+ : changed)
        for (int64_t c = 0; c < chunks; ++c) {
            double *s = partial.data() + c * kd;
            int64_t *z = partial_sizes.data() + c * k;
            std::fill(s, s + kd, 0.0);
            std::fill(z, z + k, 0);
            double cost = 0.0;
            const int64_t end = std::min(first + (c + 1) * kChunk, first + rows);
            for (int64_t i = first + c * kChunk; i < end; ++i) {
                // ||y' - t'||^2 - ||y'||^2 = ||t'||^2 - 2 (y.t' - m.t'), minimised over h.
                const double *gi = g.data() + (i - first) * k;
                const double *y = p.row(i);
                int32_t best = 0;
                double best_value = centres.norm2[0] - 2.0 * (gi[0] - centres.mdot[0]);
                for (int32_t h = 1; h < k; ++h) {
                    const double value = centres.norm2[h] - 2.0 * (gi[h] - centres.mdot[h]);
                    if (value < best_value) {
                        best_value = value;
                        best = h;
                    }
                }
                const double y_norm = std::sqrt(data.norm2[i]) + mean_norm;  // >= ||y||
                auto error = [&](int32_t h) {
                    return slack * (data.norm2[i] + centres.norm2[h] + 2.0 * (y_norm + mean_norm) * centres.norm[h]);
                };
                double di = std::max(0.0, data.norm2[i] + best_value);
                const double best_error = error(best);
                bool exact = best_error > kMaxLostFraction * di;
                for (int32_t h = 0; h < k && !exact; ++h)
                    exact = h != best &&
                            centres.norm2[h] - 2.0 * (gi[h] - centres.mdot[h]) - best_value <= error(h) + best_error;
                if (exact) {
                    best = 0;
                    di = direct_distance(y, centres.raw.data(), d);
                    for (int32_t h = 1; h < k; ++h) {
                        const double dh = direct_distance(y, centres.raw.data() + static_cast<int64_t>(h) * d, d);
                        if (dh < di) {
                            di = dh;
                            best = h;
                        }
                    }
                }
                dist[i] = di;
                cost += di;
                changed += best != previous[i];
                next[i] = best;
                const double *r = centres.raw.data() + static_cast<int64_t>(best) * d;
                double *sh = s + static_cast<int64_t>(best) * d;
                for (int32_t j = 0; j < d; ++j) sh[j] += y[j] - r[j];
                ++z[best];
            }
            chunk_cost[(first / kChunk) + c] = cost;
        }
        result.changed += changed;
        for (int64_t c = 0; c < chunks; ++c) {
            const double *s = partial.data() + c * kd;
            for (int64_t e = 0; e < kd; ++e) sums[e] += s[e];
            for (int32_t h = 0; h < k; ++h) sizes[h] += partial_sizes[c * k + h];
        }
    }
    for (double c : chunk_cost) result.cost += c;
    return result;
}

// Re-seed every empty cluster h (in index order) with the point farthest from its
// assigned centre (ties to the lowest index) among clusters of two or more points; the
// point leaves its cluster and forms h alone, and becomes h's reference point. `dist`
// of a moved point becomes -1 so it is not taken twice. The sums are recomputed from
// the references afterwards (subtracting a far point from its old cluster's sum would
// cancel). Returns the number of clusters re-seeded.
int64_t reseed_empty(const CentredPoints &data, int32_t k, std::vector<int32_t> &labels,
                     std::vector<double> &dist, std::vector<double> &ref, std::vector<double> &sums,
                     std::vector<int64_t> &sizes) {
    const PointSet &p = data.points;
    const int32_t d = p.d;
    int64_t reseeded = 0;
    for (int32_t h = 0; h < k; ++h) {
        if (sizes[h] > 0) continue;
        int64_t far = -1;
        for (int64_t i = 0; i < p.n; ++i)
            if (sizes[labels[i]] >= 2 && (far < 0 || dist[i] > dist[far])) far = i;
        if (far < 0) break;  // fewer points than clusters: cannot happen when n >= k
        std::copy(p.row(far), p.row(far) + d, ref.begin() + static_cast<int64_t>(h) * d);
        --sizes[labels[far]];
        sizes[h] = 1;
        labels[far] = h;
        dist[far] = -1.0;
        ++reseeded;
    }
    if (reseeded > 0) cluster_sums(data, labels, k, ref, sums, sizes);
    return reseeded;
}

// Raw centres ref + sums / sizes (an empty cluster gets the data mean).
std::vector<double> means_of(const CentredPoints &data, const std::vector<double> &ref,
                             const std::vector<double> &sums, const std::vector<int64_t> &sizes, int32_t k) {
    const int32_t d = data.points.d;
    std::vector<double> c(sums.size(), 0.0);
    for (int32_t h = 0; h < k; ++h) {
        double *ch = c.data() + static_cast<int64_t>(h) * d;
        if (sizes[h] == 0) {
            std::copy(data.mean.begin(), data.mean.end(), ch);
            continue;
        }
        const double inv = 1.0 / static_cast<double>(sizes[h]);
        const double *rh = ref.data() + static_cast<int64_t>(h) * d;
        const double *sh = sums.data() + static_cast<int64_t>(h) * d;
        for (int32_t j = 0; j < d; ++j) ch[j] = rh[j] + sh[j] * inv;
    }
    return c;
}

// Index i at which the running sum of w (fixed chunk order) first exceeds r, or the
// last index with w > 0 when rounding leaves r beyond the total.
int64_t sample_index(const std::vector<double> &w, const std::vector<double> &chunk_sum, double r) {
    const int64_t n = static_cast<int64_t>(w.size());
    double acc = 0.0;
    for (std::size_t c = 0; c < chunk_sum.size(); ++c) {
        if (acc + chunk_sum[c] <= r) {
            acc += chunk_sum[c];
            continue;
        }
        const int64_t begin = static_cast<int64_t>(c) * kChunk, end = std::min(begin + kChunk, n);
        for (int64_t i = begin; i < end; ++i) {
            acc += w[i];
            if (acc > r && w[i] > 0.0) return i;
        }
    }
    for (int64_t i = n - 1; i >= 0; --i)
        if (w[i] > 0.0) return i;
    return 0;
}

std::vector<double> chunk_sums(const std::vector<double> &w, int threads) {
    const int64_t n = static_cast<int64_t>(w.size());
    std::vector<double> s(static_cast<std::size_t>(n_chunks(n)), 0.0);
    const int64_t chunks = static_cast<int64_t>(s.size());
#pragma omp parallel for schedule(static) num_threads(team_size(threads, n))
    for (int64_t c = 0; c < chunks; ++c) {
        double a = 0.0;
        const int64_t end = std::min((c + 1) * kChunk, n);
        for (int64_t i = c * kChunk; i < end; ++i) a += w[i];
        s[c] = a;
    }
    return s;
}

}  // namespace

CentredPoints CentredPoints::prepare(const PointSet &points, int threads) {
    CentredPoints c;
    c.points = points;
    c.threads = threads;
    const int32_t d = points.d;
    const int64_t chunks = n_chunks(points.n);
    // Mean: per-chunk sums combined in chunk order.
    std::vector<double> partial(static_cast<std::size_t>(chunks * d), 0.0);
#pragma omp parallel for schedule(static) num_threads(team_size(threads, points.n))
    for (int64_t ch = 0; ch < chunks; ++ch) {
        double *s = partial.data() + ch * d;
        const int64_t end = std::min((ch + 1) * kChunk, points.n);
        for (int64_t i = ch * kChunk; i < end; ++i) {
            const double *y = points.row(i);
            for (int32_t j = 0; j < d; ++j) s[j] += y[j];
        }
    }
    c.mean.assign(static_cast<std::size_t>(d), 0.0);
    for (int64_t ch = 0; ch < chunks; ++ch)
        for (int32_t j = 0; j < d; ++j) c.mean[j] += partial[ch * d + j];
    for (int32_t j = 0; j < d; ++j) c.mean[j] /= static_cast<double>(points.n);
    c.norm2.resize(static_cast<std::size_t>(points.n));
#pragma omp parallel for schedule(static, 1) num_threads(team_size(threads, points.n))
    for (int64_t ch = 0; ch < chunks; ++ch) {
        const int64_t end = std::min((ch + 1) * kChunk, points.n);
        for (int64_t i = ch * kChunk; i < end; ++i) {
            const double *y = points.row(i);
            double a = 0.0;
            for (int32_t j = 0; j < d; ++j) {
                const double v = y[j] - c.mean[j];
                a += v * v;
            }
            c.norm2[i] = a;
        }
    }
    return c;
}

double kmeanspp_seed(const CentredPoints &data, int32_t k, Rng &rng, std::vector<int32_t> &labels) {
    const PointSet &p = data.points;
    const int64_t n = p.n;
    const int threads = data.threads;
    const int32_t trials = 2 + static_cast<int32_t>(std::floor(std::log(static_cast<double>(k))));
    labels.assign(static_cast<std::size_t>(n), 0);
    std::vector<double> best_dist(static_cast<std::size_t>(n));
    std::vector<double> cand_dist(static_cast<std::size_t>(n) * trials);
    std::vector<double> g(static_cast<std::size_t>(kBlock) * trials);

    // Squared distances of every point to `cols` candidate points, into cand_dist
    // (n x cols).
    const double slack = expansion_slack(p.d), mean_norm = norm_of(data.mean);
    auto distances_to = [&](const std::vector<int64_t> &index) {
        const int32_t cols = static_cast<int32_t>(index.size());
        std::vector<double> raw(index.size() * static_cast<std::size_t>(p.d));
        for (std::size_t c = 0; c < index.size(); ++c)
            std::copy(p.row(index[c]), p.row(index[c]) + p.d, raw.begin() + static_cast<std::ptrdiff_t>(c * p.d));
        const Shifted s = shift_rows(data, raw, cols);
        for (int64_t first = 0; first < n; first += kBlock) {
            const int64_t rows = std::min(kBlock, n - first);
            block_products(p, first, rows, s.t.data(), cols, g.data());
#pragma omp parallel for schedule(static) num_threads(team_size(threads, n))
            for (int64_t r = 0; r < rows; ++r) {
                const int64_t i = first + r;
                const double y_norm = std::sqrt(data.norm2[i]) + mean_norm;  // >= ||y||
                for (int32_t c = 0; c < cols; ++c) {
                    double di = std::max(0.0, data.norm2[i] + s.norm2[c] - 2.0 * (g[r * cols + c] - s.mdot[c]));
                    const double error = slack * (data.norm2[i] + s.norm2[c] + 2.0 * (y_norm + mean_norm) * s.norm[c]);
                    if (error > kMaxLostFraction * di) di = direct_distance(p.row(i), s.raw.data() + c * p.d, p.d);
                    cand_dist[i * cols + c] = di;
                }
            }
        }
    };

    // First seed: uniform.
    distances_to({static_cast<int64_t>(rng.below(static_cast<uint64_t>(n)))});
    for (int64_t i = 0; i < n; ++i) best_dist[i] = cand_dist[i];
    const int64_t chunks = n_chunks(n);
    std::vector<double> potential(static_cast<std::size_t>(chunks * trials));
    for (int32_t seed = 1; seed < k; ++seed) {
        const std::vector<double> sums = chunk_sums(best_dist, threads);
        double total = 0.0;
        for (double s : sums) total += s;
        std::vector<int64_t> candidates(static_cast<std::size_t>(trials));
        for (int32_t t = 0; t < trials; ++t)
            candidates[t] = total > 0.0 ? sample_index(best_dist, sums, rng.uniform() * total)
                                        : static_cast<int64_t>(rng.below(static_cast<uint64_t>(n)));
        distances_to(candidates);
        // Potential left by each candidate, per chunk, summed in chunk order.
#pragma omp parallel for schedule(static) num_threads(team_size(threads, n))
        for (int64_t c = 0; c < chunks; ++c) {
            const int64_t end = std::min((c + 1) * kChunk, n);
            for (int32_t t = 0; t < trials; ++t) {
                double a = 0.0;
                for (int64_t i = c * kChunk; i < end; ++i)
                    a += std::min(best_dist[i], cand_dist[i * trials + t]);
                potential[c * trials + t] = a;
            }
        }
        int32_t chosen = 0;
        double chosen_potential = std::numeric_limits<double>::infinity();
        for (int32_t t = 0; t < trials; ++t) {
            double a = 0.0;
            for (int64_t c = 0; c < chunks; ++c) a += potential[c * trials + t];
            if (a < chosen_potential) {
                chosen_potential = a;
                chosen = t;
            }
        }
#pragma omp parallel for schedule(static) num_threads(team_size(threads, n))
        for (int64_t i = 0; i < n; ++i) {
            const double dc = cand_dist[i * trials + chosen];
            if (dc < best_dist[i]) {  // ties keep the earlier seed
                best_dist[i] = dc;
                labels[i] = seed;
            }
        }
    }
    double potential_total = 0.0;
    for (double s : chunk_sums(best_dist, threads)) potential_total += s;
    return potential_total;
}

KmeansRun lloyd(const CentredPoints &data, std::vector<int32_t> labels, const LloydOptions &options) {
    const PointSet &p = data.points;
    const int32_t k = options.k, d = p.d;
    KmeansRun run;
    std::vector<double> sums, dist(static_cast<std::size_t>(p.n), 0.0);
    std::vector<int64_t> sizes;
    // Each cluster's sums are taken relative to a reference point near it -- its first
    // member at the start, then the centre the points were assigned to -- so that a
    // far-away mean or outlier costs the centres no digits.
    std::vector<double> ref(static_cast<std::size_t>(k) * d, 0.0);
    {
        std::vector<char> seen(static_cast<std::size_t>(k), 0);
        for (int64_t i = 0; i < p.n; ++i)
            if (!seen[labels[i]]) {
                seen[labels[i]] = 1;
                std::copy(p.row(i), p.row(i) + d, ref.begin() + static_cast<int64_t>(labels[i]) * d);
            }
    }
    cluster_sums(data, labels, k, ref, sums, sizes);
    // A cluster empty at the start takes the point farthest from the data mean.
    dist = data.norm2;
    run.reseeded += reseed_empty(data, k, labels, dist, ref, sums, sizes);
    std::vector<double> centres = means_of(data, ref, sums, sizes, k);  // of `labels`
    std::vector<int32_t> next(labels.size());

    run.cancelled = options.progress && options.progress->cancelled(0, 0.0);
    for (int32_t it = 1; it <= options.max_iter && !run.cancelled && !run.converged; ++it) {
        const Shifted shifted = shift_rows(data, centres, k);
        const PassResult pass = assign(data, shifted, k, labels, next, dist, sums, sizes);
        ref = centres;
        const int64_t reseeded = reseed_empty(data, k, next, dist, ref, sums, sizes);
        run.reseeded += reseeded;
        // Net changes: with fewer distinct points than clusters, a re-seeded duplicate
        // of an occupied centre falls back to the lower index and is re-seeded again;
        // labels that come back unchanged are a fixed point, i.e. converged.
        int64_t changed = pass.changed;
        if (reseeded > 0) {
            changed = 0;
            for (std::size_t i = 0; i < labels.size(); ++i) changed += next[i] != labels[i];
        }
        labels.swap(next);
        centres = means_of(data, ref, sums, sizes, k);
        run.cost = pass.cost;
        run.trace.push_back(-pass.cost);
        run.iterations = it;
        run.converged = changed == 0;
        run.cancelled = options.progress && options.progress->cancelled(it, -pass.cost);
        if (changed <= options.stop_changes) break;
    }
    if (run.iterations == 0) {  // no iteration: the cost of the start under its means
        double cost = 0.0;
        for (int64_t i = 0; i < p.n; ++i)
            cost += direct_distance(p.row(i), centres.data() + static_cast<int64_t>(labels[i]) * d, d);
        run.cost = cost;
    }
    run.labels = std::move(labels);
    run.sizes = std::move(sizes);
    run.centres = std::move(centres);
    return run;
}

std::vector<int32_t> nearest_centre_labels(const CentredPoints &data, const std::vector<double> &centres,
                                           int32_t k) {
    const std::size_t n = static_cast<std::size_t>(data.points.n);
    std::vector<int32_t> previous(n, 0), labels(n);
    std::vector<double> dist(n), sums;
    std::vector<int64_t> sizes;
    assign(data, shift_rows(data, centres, k), k, previous, labels, dist, sums, sizes);
    return labels;
}

KmeansRun kmeans(const CentredPoints &data, const LloydOptions &options, int32_t n_init, Rng &rng) {
    KmeansRun best;
    bool have_best = false;
    for (int32_t r = 0; r < std::max(1, n_init); ++r) {
        std::vector<int32_t> labels;
        kmeanspp_seed(data, options.k, rng, labels);
        KmeansRun run = lloyd(data, std::move(labels), options);
        if (run.cancelled) {
            if (!have_best) {
                best = std::move(run);
            } else {
                best.cancelled = true;
            }
            return best;
        }
        if (!have_best || run.cost < best.cost) {
            const int64_t reseeded = best.reseeded + run.reseeded;
            best = std::move(run);
            best.reseeded = reseeded;
            have_best = true;
        } else {
            best.reseeded += run.reseeded;
        }
    }
    return best;
}

}  // namespace cs
