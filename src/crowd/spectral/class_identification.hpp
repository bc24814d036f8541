// SPDX-License-Identifier: MIT
// Naming the classes of an estimate that finds them only up to a relabelling
// (ALGORITHMS.md, "Opt-D&S - Stage 1", class identification).
//
// The tensor decomposition of the spectral stage returns the confusion columns in
// an arbitrary order, and the Dawid-Skene likelihood is the same under any renaming
// of the true classes, so nothing inside those methods says which estimated class is
// which label class. On real crowds the column matching by the largest entry fails
// for weak workers or imbalanced classes, and EM from there converges to the
// relabelled solution (the mirror image on a binary set). The rule here: name the
// estimated classes by the permutation sigma that maximises the agreement with the
// soft majority vote, sum_l A[l][sigma(l)] with A[l][c] = sum_j q_jl v_jc (q: the
// estimate's posteriors, v: the vote shares), found by the Hungarian algorithm.
#pragma once

#include <cstdint>
#include <vector>

#include "crowd/em/dawid_skene.hpp"
#include "data/crowd_data.hpp"
#include "util/progress.hpp"

namespace cs {

/// A[l][c] = sum_j q_jl v_jc, k x k row-major: q are posteriors (n_items x k), v the
/// vote shares of each item (items without labels add nothing).
std::vector<double> vote_agreement(const CrowdData &data, const std::vector<double> &q);

/// The naming sigma (estimated class l is label class sigma[l]) of highest agreement
/// with the soft majority vote; the identity whenever the identity scores as high as
/// the best (up to rounding), so estimates already named right are never renamed.
/// `progress` is polled during the matching (O(m^2 k) for m label classes in use).
std::vector<int32_t> vote_identification(const CrowdData &data, const std::vector<double> &q,
                                         const Progress &progress = Progress());

/// Whether sigma is the identity.
bool is_identity(const std::vector<int32_t> &sigma);

/// Rename the true classes of parameters: class sigma[l] takes old class l's confusion
/// rows (of every worker) and prior weight.
void rename_classes(DsParams &params, const std::vector<int32_t> &sigma, int32_t k);

/// The same renaming of posteriors (n x k): column sigma[l] takes old column l.
void rename_posteriors(std::vector<double> &q, const std::vector<int32_t> &sigma, int32_t k);

}  // namespace cs
