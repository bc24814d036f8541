// SPDX-License-Identifier: MIT
// k-means building blocks shared by the points methods (src/cluster) and the spectral
// initialisation of graphs (src/community): greedy k-means++ seeding and Lloyd's
// iterations (ALGORITHMS.md, "Lloyd for sub-Gaussian mixtures"; (L-7), (L-8)).
//
// Distances use ||y - t||^2 = ||y'||^2 - 2 y'.t' + ||t'||^2 with y' = y - m and
// t' = t - m around the data mean m, so that a large common offset costs no precision;
// the products y.t' of a block of points with all centres are one dgemm. Where that
// expansion's rounding bound exceeds 1e-8 of a point's distance or could swap its two
// nearest centres (a point far from the mean but near its centre, e.g. when one huge
// outlier moves the mean), the point's distances come from direct differences instead.
// Centres are kept in raw coordinates and each cluster's sums are taken relative to a
// reference point near it, so they lose no digits to a distant mean either. Work is split
// into fixed chunks of points and partial sums are combined in chunk order, so every
// result is bit-identical for any thread count.
#pragma once

#include <cstdint>
#include <vector>

#include "util/progress.hpp"
#include "util/rng.hpp"

namespace cs {

/// n points of R^d: point i is x[i * ld .. i * ld + d - 1]. A read-only view.
struct PointSet {
    const double *x = nullptr;
    int64_t n = 0;
    int32_t d = 0;
    int64_t ld = 0;
    const double *row(int64_t i) const { return x + i * ld; }
};

/// A point set with what every pass needs: the mean m and ||y_i - m||^2.
struct CentredPoints {
    PointSet points;
    std::vector<double> mean;   // d
    std::vector<double> norm2;  // n
    int threads = 1;

    static CentredPoints prepare(const PointSet &points, int threads);
};

/// Options of one Lloyd run.
struct LloydOptions {
    int32_t k = 2;
    int32_t max_iter = 300;
    // Also stop once an iteration changes at most this many labels (0: only when none
    // changes). Initialisations use a small fraction of n: their result only has to land
    // in Lloyd's basin of attraction, and the last iterations move a handful of points.
    int64_t stop_changes = 0;
    const Progress *progress = nullptr;  // called after the start (0) and each iteration
};

/// The outcome of k-means: labels, the means of the clusters, and the iterations.
struct KmeansRun {
    std::vector<int32_t> labels;   // n, each in [0, k)
    std::vector<double> centres;   // k x d: the mean of each cluster of `labels`
    std::vector<int64_t> sizes;    // k, all > 0 when n >= k
    std::vector<double> trace;     // minus the k-means cost of each iteration's labels
    double cost = 0.0;             // cost of the final labels under their assignment centres
    int32_t iterations = 0;
    bool converged = false;        // the last iteration left every label as it was
    bool cancelled = false;        // the progress callback asked to stop
    int64_t reseeded = 0;          // empty clusters re-seeded with the farthest point
};

/// Greedy k-means++ seeding (Arthur and Vassilvitskii's D^2 sampling, each centre the
/// best of 2 + floor(ln k) sampled candidates by the potential it leaves). Returns the
/// label of each point's nearest seed (ties to the earlier seed) in `labels` and the
/// potential sum_i min_seed ||y_i - seed||^2.
double kmeanspp_seed(const CentredPoints &data, int32_t k, Rng &rng, std::vector<int32_t> &labels);

/// Lloyd's algorithm from `labels` (k >= 1 clusters, n >= k): each iteration sets the
/// centres to the cluster means (L-7), then every label to its nearest centre (L-8),
/// ties to the lowest index; a cluster left empty is re-seeded with the point farthest
/// from its assigned centre, taken from a cluster of two or more points. Stops when an
/// iteration leaves every label as it was (counted after re-seeding, so that a duplicate
/// point re-seeded into the same cluster every time is a fixed point), after max_iter
/// iterations, or when cancelled.
KmeansRun lloyd(const CentredPoints &data, std::vector<int32_t> labels, const LloydOptions &options);

/// The label of each point's nearest centre (centres k x d, ties to the lowest index),
/// one pass of the same blocked dgemm.
std::vector<int32_t> nearest_centre_labels(const CentredPoints &data, const std::vector<double> &centres,
                                           int32_t k);

/// k-means++ seeding + Lloyd, `n_init` times; keeps the run of lowest final cost (the
/// first on ties). With a progress callback each restart reports iterations from 0;
/// cancelling keeps the best finished run (or the cancelled one if none finished).
KmeansRun kmeans(const CentredPoints &data, const LloydOptions &options, int32_t n_init, Rng &rng);

}  // namespace cs
