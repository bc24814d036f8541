// SPDX-License-Identifier: MIT
// An undirected simple graph after validation, as compressed sparse rows: the
// neighbours of node i are adj[start[i]] .. adj[start[i+1]-1], in increasing order,
// each undirected edge stored once in each endpoint's row. This is the adjacency A of
// the stochastic block model (symmetric, zero diagonal) in O(edges) memory: the
// spectral initialisation multiplies blocks of vectors by it and every CommuLloyd
// iteration is one pass over it (ALGORITHMS.md, "CommuLloyd").
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cs {

struct GraphData {
    int32_t n_nodes = 0;
    int64_t n_edges = 0;            // undirected edges kept (each pair once)
    std::vector<int64_t> start;     // n_nodes + 1 row offsets into adj
    std::vector<int32_t> adj;       // 2 * n_edges neighbour ids, sorted within each row

    int64_t self_loops = 0;         // input edges u == v, ignored
    int64_t repeated = 0;           // input edges whose pair was already given, ignored

    int64_t degree(int32_t i) const { return start[i + 1] - start[i]; }

    /// Validate an edge list (ids in [0, n_nodes)) and build the rows: self-loops are
    /// ignored, a pair given more than once (in either orientation) is kept once.
    /// Throws cs::Error: CS_ERR_NULL_POINTER, CS_ERR_EMPTY_INPUT (no nodes, no edges, or
    /// only self-loops), CS_ERR_INVALID_ID (naming the edge index), CS_ERR_INVALID_ARGUMENT
    /// (sizes beyond int32 ids / int64 offsets). `threads` parallelises the row sorts.
    static GraphData build(std::size_t n_nodes, const int32_t *u, const int32_t *v,
                           std::size_t n_edges, int threads);

    /// The graph restricted to the nodes with keep[i] != 0: rows and columns of the
    /// other nodes are emptied (same node ids, fewer edges). The trimmed adjacency A^tau.
    GraphData induced(const std::vector<char> &keep, int threads) const;

    /// The graph of the nodes that have an edge, renumbered in their order: `nodes`
    /// receives the old id of each new one. Each row keeps its neighbours, sorted; the
    /// counts of ignored edges are kept.
    GraphData without_isolated(std::vector<int32_t> &nodes) const;
};

}  // namespace cs
