// SPDX-License-Identifier: MIT
#include "community/commu_lloyd.hpp"

#include <algorithm>
#include <cmath>

#include "util/parallel.hpp"

namespace cs {

namespace {

// Nodes per chunk of the parallel passes; objective partial sums are combined in chunk
// order (bit-identical for any thread count).
constexpr int64_t kNodeChunk = 4096;

std::vector<int64_t> community_sizes(const std::vector<int32_t> &labels, int32_t k) {
    std::vector<int64_t> sizes(static_cast<std::size_t>(k), 0);
    for (int32_t h : labels) ++sizes[h];
    return sizes;
}

// The objective CommuLloyd's update climbs, evaluated on one labelling: sum over nodes
// of (edges into its own community) / (its community's size) = sum_h 2 e_hh / n_h.
double ratio_association(const GraphData &graph, int32_t k, const std::vector<int32_t> &labels) {
    const std::vector<int64_t> sizes = community_sizes(labels, k);
    std::vector<int64_t> inside(static_cast<std::size_t>(k), 0);
    for (int32_t i = 0; i < graph.n_nodes; ++i)
        for (int64_t e = graph.start[i]; e < graph.start[i + 1]; ++e)
            if (labels[graph.adj[e]] == labels[i]) ++inside[labels[i]];
    double q = 0.0;
    for (int32_t h = 0; h < k; ++h)
        if (sizes[h] > 0) q += static_cast<double>(inside[h]) / static_cast<double>(sizes[h]);
    return q;
}

}  // namespace

CommuLloydResult commu_lloyd(const GraphData &graph, int32_t k, std::vector<int32_t> &labels,
                             int32_t max_iter, int threads, const Progress &progress) {
    const int64_t n = graph.n_nodes;
    const int64_t chunks = chunk_count(n, kNodeChunk);
    CommuLloydResult result;
    std::vector<int32_t> next(labels.size()), before(labels.size());
    std::vector<double> chunk_objective(static_cast<std::size_t>(chunks));

    result.cancelled = progress.cancelled(0, 0.0);
    // Each thread's counts and touched communities (at most k), allocated here: an
    // allocation failing inside the parallel region could not throw out of it
    // (std::terminate) and would end the process.
    const int team = team_size(threads, n);
    std::vector<int64_t> counts(static_cast<std::size_t>(team) * k, 0);
    std::vector<int32_t> touched_all(static_cast<std::size_t>(team) * k);
    for (int32_t it = 1; it <= max_iter && !result.cancelled; ++it) {
        const std::vector<int64_t> sizes = community_sizes(labels, k);
        int64_t changed = 0;
#pragma omp parallel num_threads(team)
        {
            int64_t *count = counts.data() + static_cast<std::size_t>(current_thread()) * k;
            int32_t *touched = touched_all.data() + static_cast<std::size_t>(current_thread()) * k;
            int32_t n_touched = 0;
#pragma omp for schedule(dynamic, 1) reduction(+ : changed)
            for (int64_t c = 0; c < chunks; ++c) {
                double objective = 0.0;
                const int64_t end = std::min((c + 1) * kNodeChunk, n);
                for (int64_t i = c * kNodeChunk; i < end; ++i) {
                    if (graph.start[i] == graph.start[i + 1]) {  // no edges: no information
                        next[i] = labels[i];
                        continue;
                    }
                    n_touched = 0;
                    for (int64_t e = graph.start[i]; e < graph.start[i + 1]; ++e) {
                        const int32_t h = labels[graph.adj[e]];
                        if (count[h]++ == 0) touched[n_touched++] = h;
                    }
                    // argmax_h e_ih / n_h over the communities i touches (the others
                    // score 0 < any touched one); exact comparison of the fractions by
                    // cross-multiplication, ties to the lower index.
                    int32_t best = touched[0];
                    for (int32_t t = 1; t < n_touched; ++t) {
                        const int32_t h = touched[t];
                        const int64_t lhs = count[h] * sizes[best], rhs = count[best] * sizes[h];
                        if (lhs > rhs || (lhs == rhs && h < best)) best = h;
                    }
                    objective += static_cast<double>(count[best]) / static_cast<double>(sizes[best]);
                    for (int32_t t = 0; t < n_touched; ++t) count[touched[t]] = 0;
                    next[i] = best;
                    changed += best != labels[i];
                }
                chunk_objective[c] = objective;
            }
        }
        double objective = 0.0;
        for (double v : chunk_objective) objective += v;
        result.trace.push_back(objective);
        result.iterations = it;
        if (changed == 0) {
            result.converged = true;
        } else if (it >= 2 && next == before) {
            result.cycle = true;
        }
        // In a 2-cycle keep the better of the two alternating labellings by the
        // objective itself (the later one on ties).
        const bool keep_previous =
            result.cycle && ratio_association(graph, k, labels) > ratio_association(graph, k, next);
        before.swap(labels);  // before <- the labels this iteration started from
        if (!keep_previous) labels.swap(next);
        else labels = before;
        result.cancelled = progress.cancelled(it, objective);
        if (result.converged || result.cycle) break;
    }
    return result;
}

Densities edge_densities(const GraphData &graph, int32_t k, const std::vector<int32_t> &labels) {
    Densities d;
    const int64_t n = graph.n_nodes;
    for (int64_t i = 0; i < n; ++i)
        for (int64_t e = graph.start[i]; e < graph.start[i + 1]; ++e) {
            const int32_t j = graph.adj[e];
            if (j > i && labels[j] == labels[i]) ++d.edges_within;
        }
    for (int64_t s : community_sizes(labels, k)) d.pairs_within += s * (s - 1) / 2;
    d.pairs_between = n * (n - 1) / 2 - d.pairs_within;
    if (d.pairs_within > 0)
        d.within = static_cast<double>(d.edges_within) / static_cast<double>(d.pairs_within);
    if (d.pairs_between > 0)
        d.between = static_cast<double>(graph.n_edges - d.edges_within) / static_cast<double>(d.pairs_between);
    return d;
}

double likelihood_step(const GraphData &graph, int32_t k, std::vector<int32_t> &labels, int threads) {
    const Densities dens = edge_densities(graph, k, labels);
    if (dens.pairs_within == 0 || dens.pairs_between == 0) return 0.0;
    const auto clamp = [](double x, int64_t pairs) {
        const double eps = 0.5 / static_cast<double>(pairs);
        return std::min(std::max(x, eps), 1.0 - eps);
    };
    const double p = clamp(dens.within, dens.pairs_within), q = clamp(dens.between, dens.pairs_between);
    const double l1 = std::log(p * (1.0 - q) / (q * (1.0 - p)));
    const double l0 = std::log((1.0 - q) / (1.0 - p));
    const std::vector<int64_t> sizes = community_sizes(labels, k);
    const int64_t n = graph.n_nodes;
    const int64_t chunks = chunk_count(n, kNodeChunk);
    std::vector<double> chunk_score(static_cast<std::size_t>(chunks));
    std::vector<int32_t> next(labels.size());
    const int team = team_size(threads, n);
    std::vector<int64_t> counts(static_cast<std::size_t>(team) * k, 0);  // per thread, as above
#pragma omp parallel num_threads(team)
    {
        int64_t *count = counts.data() + static_cast<std::size_t>(current_thread()) * k;
#pragma omp for schedule(dynamic, 1)
        for (int64_t c = 0; c < chunks; ++c) {
            double total = 0.0;
            const int64_t end = std::min((c + 1) * kNodeChunk, n);
            for (int64_t i = c * kNodeChunk; i < end; ++i) {
                if (graph.start[i] == graph.start[i + 1]) {  // no edges: no information
                    next[i] = labels[i];
                    continue;
                }
                for (int64_t e = graph.start[i]; e < graph.start[i + 1]; ++e) ++count[labels[graph.adj[e]]];
                int32_t best = 0;
                double best_score = static_cast<double>(count[0]) * l1 - static_cast<double>(sizes[0]) * l0;
                for (int32_t h = 1; h < k; ++h) {
                    const double score = static_cast<double>(count[h]) * l1 - static_cast<double>(sizes[h]) * l0;
                    if (score > best_score) {
                        best_score = score;
                        best = h;
                    }
                }
                for (int64_t e = graph.start[i]; e < graph.start[i + 1]; ++e) count[labels[graph.adj[e]]] = 0;
                next[i] = best;
                total += best_score;
            }
            chunk_score[c] = total;
        }
    }
    labels.swap(next);
    double score = 0.0;
    for (double v : chunk_score) score += v;
    return score;
}

}  // namespace cs
