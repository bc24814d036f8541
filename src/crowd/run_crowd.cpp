// SPDX-License-Identifier: MIT
#include "crowd/run_crowd.hpp"

#include <string>

#include "data/crowd_shard.hpp"
#include "crowd/calibration/calibration.hpp"
#include "crowd/diagnostics/worker_diagnostics.hpp"
#include "crowd/em/dawid_skene.hpp"
#include "crowd/em/degenerate_fit.hpp"

namespace cs {

namespace {

// What every crowd fit reports after its method: convergence after a cancel, the items
// a degenerate maximum of EM left undecided, items without labels.
void finish_crowd_fit(const CrowdData &data, const FitOptions &options, bool cancelled, FitResult &out) {
    out.ordered = options.ordinal == 1 || ordinal_method(options.method);
    // A cancelled fit did not meet its stopping rule, whatever the method (mv's one
    // step included): cs_converged() is 0 after a cancel.
    if (cancelled) out.converged = false;
    // Dawid-Skene EM methods: items left undecided by a degenerate maximum (a unanimous
    // crowd under the uniform prior) fall back to majority vote among the confounded
    // classes (crowd/em/degenerate_fit.hpp). Not after a cancel, whose results are those
    // of the last completed round.
    // The minimax methods too: on a crowd too small for their penalties (a unanimous
    // one of a few labels) their optimum can make every class explain the labels alike
    // (all rows of sigma_i and tau_j equal), the same degenerate maximum.
    const bool em = is_ds_family(options.method);
    const bool degenerate_rule = em || options.method == CS_METHOD_MINIMAX_ENTROPY ||
                                 options.method == CS_METHOD_ORDINAL_MINIMAX;
    if (degenerate_rule && !cancelled && resolve_degenerate_ties(data, out, options.threads) > 0)
        out.drop_posterior_counts();  // some items' rows changed since EM counted them
    // Calibrated posteriors (crowd/calibration/): after the ties are settled, so that
    // tempering keeps every hard label the fit chose.
    if (em && !cancelled) calibrate_crowd_posteriors(data, em_options(options), out);
    // Scores and worker diagnostics from the final posteriors (issue 34): from the
    // counts EM made of them, or the calibration of the rows it tempered; else (a tie
    // settled, classes renamed, another method) one pass over the labels, less than an
    // E-step.
    compute_worker_diagnostics(data, out);
    out.drop_posterior_counts();  // a hand-off within this fit, not kept with the model
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

bool ordinal_method(int32_t method) {
    return method == CS_METHOD_ORDINAL_MINIMAX || method == CS_METHOD_ORDINAL_DS;
}

std::vector<int32_t> median_grades(const std::vector<double> &posteriors, int32_t n_items, int32_t k) {
    std::vector<int32_t> median(static_cast<std::size_t>(n_items), k - 1);
    for (int32_t j = 0; j < n_items; ++j) {
        const double *q = posteriors.data() + static_cast<int64_t>(j) * k;
        double cumulative = 0.0;
        for (int32_t g = 0; g < k; ++g) {
            cumulative += q[g];
            if (cumulative >= 0.5 - 1e-12) {
                median[j] = g;
                break;
            }
        }
    }
    return median;
}

std::vector<double> mean_grades(const std::vector<double> &posteriors, int32_t n_items, int32_t k) {
    std::vector<double> mean(static_cast<std::size_t>(n_items), 0.0);
    for (int32_t j = 0; j < n_items; ++j) {
        const double *q = posteriors.data() + static_cast<int64_t>(j) * k;
        for (int32_t g = 1; g < k; ++g) mean[j] += g * q[g];
    }
    return mean;
}

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
