// SPDX-License-Identifier: MIT
// The baselines of the Opt-D&S paper (ALGORITHMS.md, "Baselines of the Opt-D&S paper"),
// each on the k-1 binary splits of crowd/spectral/binary_splits.hpp. Each produces hard labels
// (one-hot posteriors) and the plug-in confusion matrices of those labels; its
// iterations are eigensolver block products (kos, ghosh-svd, eigen-ratio) or
// message-passing rounds (kos-mp). Each returns true when the progress callback
// cancelled the fit (out then holds the signs of the last completed iteration).
#pragma once

#include "core/fit_result.hpp"
#include "core/fit_options.hpp"
#include "data/crowd_data.hpp"
#include "util/progress.hpp"

namespace cs {

/// kos: the spectral form of Karger-Oh-Shah of the reference code (crowd/spectral/kos.cpp).
bool fit_kos(const CrowdData &data, const FitOptions &options, const Progress &progress,
             FitResult &out);

/// kos-mp: iterative message passing of Karger, Oh and Shah (crowd/spectral/kos_message_passing.cpp).
bool fit_kos_message_passing(const CrowdData &data, const FitOptions &options,
                             const Progress &progress, FitResult &out);

/// ghosh-svd: the top left singular vector of the label matrix (crowd/spectral/ghosh_svd.cpp).
bool fit_ghosh_svd(const CrowdData &data, const FitOptions &options, const Progress &progress,
                   FitResult &out);

/// eigen-ratio: Dalvi et al.'s ratio of eigenvectors (crowd/spectral/eigen_ratio.cpp).
bool fit_eigen_ratio(const CrowdData &data, const FitOptions &options, const Progress &progress,
                     FitResult &out);

}  // namespace cs
