// SPDX-License-Identifier: MIT
// Spectral initialisation of community detection (ALGORITHMS.md, "CommuLloyd for
// stochastic block models"; the "Spec" baseline): trim the nodes of too high degree,
// take the k eigenvectors of largest |eigenvalue| of the trimmed adjacency A^tau by
// block subspace iteration over sparse products, and cluster the rows of the n x k
// eigenvector matrix with k-means (k-means++ seeding + Lloyd).
#pragma once

#include <cstdint>
#include <vector>

#include "data/graph_data.hpp"
#include "util/rng.hpp"

namespace cs {

struct GraphSpectralOptions {
    int32_t k = 2;
    double trim = 3.0;     // tau = trim x average degree; 0 = no trimming
    int32_t n_init = 1;    // k-means++ restarts on the embedding
    int threads = 1;
};

struct GraphSpectralResult {
    std::vector<int32_t> labels;      // n_nodes initial communities
    std::vector<double> eigenvalues;  // k, by decreasing |value|
    double tau = 0.0;                 // the degree threshold used (0 = none)
    int64_t trimmed = 0;              // nodes whose rows and columns were zeroed
    int64_t unembedded = 0;           // nodes with an empty row in A^tau (trimmed or isolated)
    bool converged = true;            // the eigensolver met its tolerance
    int32_t products = 0;             // sparse block products used
    int64_t reseeded = 0;             // empty k-means clusters re-seeded
};

/// Spectral labels of every node. Rows of nodes without edges in A^tau (trimmed or
/// isolated) are zero and carry no information: they are left out of the k-means and
/// then take the community h maximising (their untrimmed edges into h) / n_h, ties and
/// nodes without edges to the lowest index.
GraphSpectralResult spectral_communities(const GraphData &graph, const GraphSpectralOptions &options,
                                         Rng &rng);

/// Y = A X for an n x p block X (row-major), one pass over the rows of the graph.
void adjacency_block_product(const GraphData &graph, const double *x, double *y, int32_t p, int threads);

}  // namespace cs
