// SPDX-License-Identifier: MIT
#include "community/run_graph.hpp"

#include <string>

#include "community/commu_lloyd.hpp"
#include "community/spectral_graph.hpp"
#include "util/error.hpp"
#include "util/parallel.hpp"
#include "util/rng.hpp"

namespace cs {

namespace {

void note(FitResult &out, int32_t bit, const std::string &message) {
    out.notes |= bit;
    out.note_message += message + " ";
}

}  // namespace

bool fit_spec(const GraphData &, int32_t, std::vector<int32_t> &, const FitOptions &, const Progress &progress,
              int, FitResult &out) {
    out.converged = true;
    return progress.cancelled(0, 0.0);
}

bool fit_spec_mle(const GraphData &graph, int32_t k, std::vector<int32_t> &labels, const FitOptions &options,
                  const Progress &progress, int threads, FitResult &out) {
    out.converged = true;
    if (progress.cancelled(0, 0.0)) return true;
    // max_iter = 0 skips the likelihood step: the spectral labels, which (like spec's)
    // always count as converged.
    if (options.max_iter == 0) return false;
    const double score = likelihood_step(graph, k, labels, threads);
    out.trace.push_back(score);
    out.iterations = 1;
    return progress.cancelled(1, score);
}

bool fit_commu_lloyd(const GraphData &graph, int32_t k, std::vector<int32_t> &labels, const FitOptions &options,
                     const Progress &progress, int threads, FitResult &out) {
    CommuLloydResult r = commu_lloyd(graph, k, labels, options.max_iter, threads, progress);
    out.trace = std::move(r.trace);
    out.iterations = r.iterations;
    out.converged = r.converged;
    if (r.cycle)
        note(out, CS_NOTE_LABEL_CYCLE,
             "CommuLloyd stopped after " + std::to_string(r.iterations) +
                 " iterations: the labels alternated between two states; the one with the larger "
                 "ratio association was kept.");
    else if (!r.converged && !r.cancelled && options.max_iter > 0)
        note(out, CS_NOTE_MAX_ITER_REACHED,
             "CommuLloyd stopped at max_iter = " + std::to_string(options.max_iter) +
                 " iterations with labels still changing.");
    if (options.max_iter == 0) out.converged = false;
    return r.cancelled;
}

bool run_graph_method(const GraphData &graph, const FitOptions &options, const Progress &progress,
                      GraphMethod method, FitResult &out) {
    const int32_t k = options.classes;
    if (k < 2)
        throw Error(CS_ERR_TOO_FEW_CLASSES, "cs_fit_graph: the number of communities k (parameter 'classes') is " +
                                                std::to_string(k) + "; set it to 2 or more");
    if (k > graph.n_nodes)
        throw Error(CS_ERR_TOO_MANY_CLASSES, "cs_fit_graph: k = " + std::to_string(k) + " communities but only " +
                                                 std::to_string(graph.n_nodes) + " nodes");
    const int threads = resolve_threads(options.threads);
    Rng rng(options.seed);

    // Nodes without edges take no part (issue 40, R12): the fit runs on the graph of the
    // others, renumbered, so that they neither lower the average degree that sets the
    // trimming threshold, nor shift the random start of the eigensolver, nor cost time,
    // and the connected part gets exactly the communities it gets on its own. Unless
    // fewer than k nodes have edges: then every node is kept, as before.
    int64_t isolated = 0;
    for (int32_t i = 0; i < graph.n_nodes; ++i) isolated += graph.degree(i) == 0;
    std::vector<int32_t> connected;
    GraphData compact;
    const bool shrink = isolated > 0 && graph.n_nodes - isolated >= k;
    if (shrink) compact = graph.without_isolated(connected);
    const GraphData &fitted = shrink ? compact : graph;

    GraphSpectralOptions spectral_options;
    spectral_options.k = k;
    spectral_options.trim = options.trim;
    spectral_options.n_init = options.n_init;
    spectral_options.threads = threads;
    GraphSpectralResult spectral = spectral_communities(fitted, spectral_options, rng);
    std::vector<int32_t> labels = std::move(spectral.labels);
    if (!shrink)
        for (int32_t i = 0; i < graph.n_nodes; ++i)
            if (graph.degree(i) == 0) labels[i] = 0;  // nothing informs the community of a node without edges

    const bool cancelled = method(fitted, k, labels, options, progress, threads, out);
    if (cancelled) out.converged = false;  // a cancelled fit did not meet its rule
    if (shrink) {  // back to the input's nodes; those without edges in community 0
        std::vector<int32_t> all(static_cast<std::size_t>(graph.n_nodes), 0);
        for (std::size_t r = 0; r < connected.size(); ++r) all[connected[r]] = labels[r];
        labels = std::move(all);
    }

    out.input_kind = CS_INPUT_GRAPH;
    out.n_items = graph.n_nodes;
    out.n_workers = 0;
    out.k = k;
    const Densities densities = edge_densities(graph, k, labels);
    out.within_density = densities.within;
    out.between_density = densities.between;
    out.prior.assign(static_cast<std::size_t>(k), 0.0);
    for (int32_t h : labels) out.prior[h] += 1.0;
    for (double &w : out.prior) w /= static_cast<double>(graph.n_nodes);
    out.labels = std::move(labels);
    out.has_log_likelihood = false;

    if (graph.self_loops > 0 || graph.repeated > 0)
        note(out, CS_NOTE_IGNORED_EDGES,
             "ignored " + std::to_string(graph.self_loops) + " self-loops and " +
                 std::to_string(graph.repeated) + " repeated edges (" + std::to_string(graph.n_edges) +
                 " distinct edges kept).");
    if (isolated > 0)
        note(out, CS_NOTE_ISOLATED_NODES,
             std::to_string(isolated) + " nodes have no edges; they were put in community 0.");
    if (!spectral.converged)
        note(out, CS_NOTE_EIGEN_NOT_CONVERGED,
             "the eigenvectors of the trimmed adjacency did not reach their tolerance in " +
                 std::to_string(spectral.products) + " products; the last estimate was used.");
    if (spectral.reseeded > 0)
        note(out, CS_NOTE_EMPTY_CLUSTER,
             std::to_string(spectral.reseeded) +
                 " empty clusters of the spectral k-means were re-seeded with the farthest point.");
    if (spectral.trimmed > 0)
        out.note_message += std::to_string(spectral.trimmed) + " nodes of degree above tau = " +
                            std::to_string(spectral.tau) + " were trimmed for the spectral initialisation. ";
    if (cancelled) out.notes |= CS_NOTE_CANCELLED;
    if (!out.note_message.empty() && out.note_message.back() == ' ') out.note_message.pop_back();
    return cancelled;
}

}  // namespace cs
