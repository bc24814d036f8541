// SPDX-License-Identifier: MIT
#include "crowd/run_crowd.hpp"

#include <string>

#include "data/crowd_shard.hpp"
#include "crowd/calibration/calibration.hpp"
#include "crowd/em/dawid_skene.hpp"
#include "crowd/em/degenerate_fit.hpp"

namespace cs {

namespace {

// What every crowd fit reports after its method: convergence after a cancel, the items
// a degenerate maximum of EM left undecided, items without labels.
void finish_crowd_fit(const CrowdData &data, const FitOptions &options, bool cancelled, FitResult &out) {
    // A cancelled fit did not meet its stopping rule, whatever the method (mv's one
    // step included): cs_converged() is 0 after a cancel.
    if (cancelled) out.converged = false;
    // Dawid-Skene EM methods: items left undecided by a degenerate maximum (a unanimous
    // crowd under the uniform prior) fall back to majority vote among the confounded
    // classes (crowd/em/degenerate_fit.hpp). Not after a cancel, whose results are those
    // of the last completed round.
    const bool em = is_ds_family(options.method);
    if (em && !cancelled) resolve_degenerate_ties(data, out, options.threads);
    // Calibrated posteriors (crowd/calibration/): after the ties are settled, so that
    // tempering keeps every hard label the fit chose.
    if (em && !cancelled) calibrate_crowd_posteriors(data, em_options(options), out);
    const int64_t unlabeled = total_unlabeled(data);
    if (unlabeled > 0) {
        out.notes |= CS_NOTE_UNLABELED_ITEMS;
        out.note_message += std::to_string(unlabeled) +
                            " items have no labels; their posterior is the class prior (uniform for methods that "
                            "estimate none: see CS_NOTE_UNLABELED_ITEMS). ";
    }
    if (!out.note_message.empty() && out.note_message.back() == ' ') out.note_message.pop_back();
}

}  // namespace

bool run_crowd_from_initial(const CrowdData &data, const FitOptions &options, const Progress &progress,
                            const InitialParams &initial, FitResult &out) {
    out.n_items = data.n_items;
    out.n_workers = data.n_workers;
    out.k = data.k;
    const bool cancelled = fit_from_initial(data, options, progress, initial, out);
    finish_crowd_fit(data, options, cancelled, out);
    return cancelled;
}

bool run_crowd_method(const CrowdData &data, const FitOptions &options, const Progress &progress,
                      CrowdMethod method, FitResult &out) {
    out.n_items = data.n_items;
    out.n_workers = data.n_workers;
    out.k = data.k;
    const bool cancelled = method(data, options, progress, out);
    finish_crowd_fit(data, options, cancelled, out);
    return cancelled;
}

}  // namespace cs
