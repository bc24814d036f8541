// SPDX-License-Identifier: MIT
// Opt-D&S Stage 1 (ALGORITHMS.md "Opt-D&S - Stage 1"; Zhang et al. Algorithm 1):
// a method-of-moments estimate of every worker's confusion matrix from three
// worker groups, their second and third moments, SVD whitening and the robust
// tensor power method.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "crowd/em/dawid_skene.hpp"
#include "core/fit_options.hpp"
#include "data/crowd_data.hpp"
#include "util/progress.hpp"
#include "util/rng.hpp"

namespace cs {

struct SpectralEstimate {
    /// n_workers x k (true) x k (observed); rows of workers with valid[i] == 0 are
    /// undefined and must be replaced by the caller's fallback.
    std::vector<double> confusion;
    std::vector<char> valid;      // per worker: 1 if the spectral estimate is usable
    std::vector<double> prior;    // k: average of the three groups' W, normalised
    bool prior_valid = false;
    std::string problem;          // why some workers are not valid (empty if none)
};

/// Stage 1 with worker i in group group[i] (0, 1 or 2; crowd/spectral/worker_groups.hpp).
/// Never throws on singular data: a group whose moment matrices cannot be inverted or
/// whitened invalidates the workers whose estimate needs it (those of the two other
/// groups). The classes come out in the order of the column matching (step 3); see
/// crowd/spectral/class_identification.hpp for naming them.
/// `progress` is polled inside the O(k^3)-and-worse stages (the moments' products and
/// the tensor power method: hours at k = 300 with every class in use).
SpectralEstimate spectral_confusion(const CrowdData &data, const std::vector<uint8_t> &group,
                                    const FitOptions &options, Rng &rng, const Progress &progress = Progress());

}  // namespace cs
