// SPDX-License-Identifier: MIT
// The refinement steps of community detection on the untrimmed adjacency A
// (ALGORITHMS.md, "CommuLloyd for stochastic block models"): CommuLloyd iterations and
// the one-step likelihood refinement of Spec+MLE, each O(edges + n k) per pass, and the
// within / between edge densities of a labelling.
#pragma once

#include <cstdint>
#include <vector>

#include "data/graph_data.hpp"
#include "util/progress.hpp"

namespace cs {

struct CommuLloydResult {
    std::vector<double> trace;  // sum_i max_h e_ih / n_h of each iteration
    int32_t iterations = 0;
    bool converged = false;     // an iteration changed no label
    bool cycle = false;         // stopped because the labels repeated those of two iterations before
    bool cancelled = false;
};

/// CommuLloyd from `labels` (updated in place): every node simultaneously moves to
/// argmax_h e_ih / n_h (e_ih = its edges into community h, n_h = the size of h under
/// the previous labels; ties to the lowest index; a node without edges keeps its
/// label; an empty community attracts no node). Stops when nothing changes, when the
/// labels equal those of two iterations before (a 2-cycle: the result is then the one
/// of the two alternating labellings with the larger ratio association
/// sum_h 2 e_hh / n_h, the objective the update climbs; the later one on ties), after
/// max_iter iterations, or when cancelled.
CommuLloydResult commu_lloyd(const GraphData &graph, int32_t k, std::vector<int32_t> &labels,
                             int32_t max_iter, int threads, const Progress &progress);

/// Edge densities of a labelling: within = edges inside communities / pairs inside,
/// between = edges across / pairs across (0 when there are no such pairs).
struct Densities {
    double within = 0.0;
    double between = 0.0;
    int64_t edges_within = 0;
    int64_t pairs_within = 0;
    int64_t pairs_between = 0;
};
Densities edge_densities(const GraphData &graph, int32_t k, const std::vector<int32_t> &labels);

/// One likelihood step of Spec+MLE (Gao, Ma, Zhang, Zhou): with p, q the densities of
/// `labels`, every node moves to argmax_h [e_ih L1 - n_h L0], L1 = log(p(1-q) / (q(1-p))),
/// L0 = log((1-q) / (1-p)) (ties to the lowest index). p and q are kept inside
/// [1/(2 pairs), 1 - 1/(2 pairs)] so the logarithms are finite; when one kind of pair
/// does not exist the labels are left unchanged, and so is the label of a node without
/// edges. Returns the maximised score summed over the nodes with edges.
double likelihood_step(const GraphData &graph, int32_t k, std::vector<int32_t> &labels, int threads);

}  // namespace cs
