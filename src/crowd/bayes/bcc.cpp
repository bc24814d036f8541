// SPDX-License-Identifier: MIT
#include "crowd/bayes/bcc.hpp"

#include "crowd/bayes/ebcc.hpp"

namespace cs {

bool fit_bcc(const CrowdData &data, const FitOptions &options, const Progress &progress, FitResult &out) {
    // One subtype: the start is the soft majority vote itself (nothing to split), and
    // the updates are Kim and Ghahramani's model's.
    return fit_subtype_vb(data, options, progress, 1, out);
}

}  // namespace cs
