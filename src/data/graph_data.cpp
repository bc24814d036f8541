// SPDX-License-Identifier: MIT
#include "data/graph_data.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "util/error.hpp"
#include "util/parallel.hpp"

namespace cs {

namespace {

void check_endpoint(int32_t id, std::size_t t, const char *which, std::size_t n_nodes) {
    if (id < 0)
        throw Error(CS_ERR_INVALID_ID, std::string("node id ") + std::to_string(id) + " (" + which +
                                           " of edge " + std::to_string(t) + ") is negative");
    if (static_cast<std::size_t>(id) >= n_nodes)
        throw Error(CS_ERR_INVALID_ID, std::string("node id ") + std::to_string(id) + " (" + which +
                                           " of edge " + std::to_string(t) + ") is >= n_nodes (" +
                                           std::to_string(n_nodes) + ")");
}

}  // namespace

GraphData GraphData::build(std::size_t n_nodes, const int32_t *u, const int32_t *v,
                           std::size_t n_edges, int threads) {
    if (n_nodes == 0) throw Error(CS_ERR_EMPTY_INPUT, "cs_fit_graph: no nodes (n_nodes = 0)");
    if (n_edges == 0) throw Error(CS_ERR_EMPTY_INPUT, "cs_fit_graph: no edges (n_edges = 0)");
    if (u == nullptr || v == nullptr)
        throw Error(CS_ERR_NULL_POINTER,
                    std::string("cs_fit_graph: the ") + (u == nullptr ? "u" : "v") + " array is NULL");
    if (n_nodes > static_cast<std::size_t>(std::numeric_limits<int32_t>::max()))
        throw Error(CS_ERR_INVALID_ARGUMENT, "cs_fit_graph: n_nodes = " + std::to_string(n_nodes) +
                                                 " exceeds 2^31 - 1");
    if (n_edges > static_cast<std::size_t>(std::numeric_limits<int64_t>::max() / 4))
        throw Error(CS_ERR_INVALID_ARGUMENT, "cs_fit_graph: n_edges = " + std::to_string(n_edges) +
                                                 " is too large");

    GraphData g;
    g.n_nodes = static_cast<int32_t>(n_nodes);
    // Degrees (with repeats), then the rows by counting sort.
    std::vector<int64_t> count(n_nodes + 1, 0);
    for (std::size_t t = 0; t < n_edges; ++t) {
        check_endpoint(u[t], t, "first endpoint", n_nodes);
        check_endpoint(v[t], t, "second endpoint", n_nodes);
        if (u[t] == v[t]) {
            ++g.self_loops;
            continue;
        }
        ++count[static_cast<std::size_t>(u[t]) + 1];
        ++count[static_cast<std::size_t>(v[t]) + 1];
    }
    if (g.self_loops == static_cast<int64_t>(n_edges))
        throw Error(CS_ERR_EMPTY_INPUT, "cs_fit_graph: all " + std::to_string(n_edges) +
                                            " edges are self-loops, which are ignored: no edges left");
    for (std::size_t i = 0; i < n_nodes; ++i) count[i + 1] += count[i];
    std::vector<int32_t> adj(static_cast<std::size_t>(count[n_nodes]));
    {
        std::vector<int64_t> fill(count.begin(), count.end() - 1);
        for (std::size_t t = 0; t < n_edges; ++t) {
            if (u[t] == v[t]) continue;
            adj[static_cast<std::size_t>(fill[u[t]]++)] = v[t];
            adj[static_cast<std::size_t>(fill[v[t]]++)] = u[t];
        }
    }
    // Sort each row and drop repeats; rows are independent.
    std::vector<int64_t> kept(n_nodes, 0);
    const int64_t n = g.n_nodes;
#pragma omp parallel for schedule(dynamic, 1024) num_threads(team_size(threads, n))
    for (int64_t i = 0; i < n; ++i) {
        int32_t *begin = adj.data() + count[i], *end = adj.data() + count[i + 1];
        std::sort(begin, end);
        kept[i] = std::unique(begin, end) - begin;
    }
    g.start.assign(n_nodes + 1, 0);
    for (std::size_t i = 0; i < n_nodes; ++i) g.start[i + 1] = g.start[i] + kept[i];
    // Compact in place: row i moves left (start[i] <= count[i]), so copying rows in
    // increasing order never overwrites a row not yet moved.
    for (std::size_t i = 0; i < n_nodes; ++i)
        std::copy(adj.begin() + count[i], adj.begin() + count[i] + kept[i], adj.begin() + g.start[i]);
    adj.resize(static_cast<std::size_t>(g.start[n_nodes]));
    adj.shrink_to_fit();
    g.adj = std::move(adj);
    g.n_edges = g.start[n_nodes] / 2;
    // Every repeat of an undirected pair was dropped once from each endpoint's row.
    g.repeated = (count[n_nodes] - g.start[n_nodes]) / 2;
    return g;
}

GraphData GraphData::induced(const std::vector<char> &keep, int threads) const {
    GraphData g;
    g.n_nodes = n_nodes;
    std::vector<int64_t> kept(static_cast<std::size_t>(n_nodes), 0);
    const int64_t n = n_nodes;
#pragma omp parallel for schedule(dynamic, 1024) num_threads(team_size(threads, n))
    for (int64_t i = 0; i < n; ++i) {
        if (!keep[i]) continue;
        int64_t c = 0;
        for (int64_t p = start[i]; p < start[i + 1]; ++p) c += keep[adj[p]] != 0;
        kept[i] = c;
    }
    g.start.assign(static_cast<std::size_t>(n_nodes) + 1, 0);
    for (int64_t i = 0; i < n; ++i) g.start[i + 1] = g.start[i] + kept[i];
    g.adj.resize(static_cast<std::size_t>(g.start[n]));
#pragma omp parallel for schedule(dynamic, 1024) num_threads(team_size(threads, n))
    for (int64_t i = 0; i < n; ++i) {
        if (!keep[i]) continue;
        int64_t out = g.start[i];
        for (int64_t p = start[i]; p < start[i + 1]; ++p)
            if (keep[adj[p]]) g.adj[out++] = adj[p];
    }
    g.n_edges = g.start[n] / 2;
    return g;
}

GraphData GraphData::without_isolated(std::vector<int32_t> &nodes) const {
    nodes.clear();
    std::vector<int32_t> rank(static_cast<std::size_t>(n_nodes), -1);
    for (int32_t i = 0; i < n_nodes; ++i)
        if (degree(i) > 0) {
            rank[i] = static_cast<int32_t>(nodes.size());
            nodes.push_back(i);
        }
    GraphData g;
    g.n_nodes = static_cast<int32_t>(nodes.size());
    g.n_edges = n_edges;
    g.self_loops = self_loops;
    g.repeated = repeated;
    g.start.assign(nodes.size() + 1, 0);
    g.adj.resize(adj.size());
    for (std::size_t r = 0; r < nodes.size(); ++r) {
        int64_t out = g.start[r];
        for (int64_t p = start[nodes[r]]; p < start[nodes[r] + 1]; ++p) g.adj[out++] = rank[adj[p]];
        g.start[r + 1] = out;
    }
    return g;
}

}  // namespace cs
