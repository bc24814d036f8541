// SPDX-License-Identifier: MIT
#include "crowd/run_crowd.hpp"

#include <algorithm>
#include <string>

#include "crowd/crowd_lloyd.hpp"
#include "crowd/dawid_skene.hpp"
#include "crowd/majority_vote.hpp"
#include "crowd/opt_ds.hpp"
#include "crowd/split_methods.hpp"
#include "util/error.hpp"

namespace cs {

namespace {

// What every crowd fit reports after its method: items without labels.
void finish_crowd_fit(const CrowdData &data, FitResult &out) {
    const int32_t unlabeled = data.unlabeled_items();
    if (unlabeled > 0) {
        out.notes |= CS_NOTE_UNLABELED_ITEMS;
        out.note_message += std::to_string(unlabeled) +
                            " items have no labels; their posterior is the class prior (uniform for mv, crowd-lloyd, "
                            "kos, kos-mp, ghosh-svd and eigen-ratio). ";
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
    finish_crowd_fit(data, out);
    return cancelled;
}

bool run_crowd_method(const CrowdData &data, const FitOptions &options, const Progress &progress,
                      FitResult &out) {
    out.n_items = data.n_items;
    out.n_workers = data.n_workers;
    out.k = data.k;
    bool cancelled = false;
    switch (options.method) {
        case CS_METHOD_MV:
            fit_majority_vote(data, options, out);
            cancelled = progress.cancelled(0, 0.0);  // its one step is the initialisation
            if (cancelled) out.notes |= CS_NOTE_CANCELLED;
            break;
        case CS_METHOD_DS: {
            EmStart start;
            start.posteriors = soft_majority_vote(data);
            cancelled = run_em(data, options, progress, std::move(start), out);
            break;
        }
        case CS_METHOD_OPT_DS:
            cancelled = fit_opt_ds(data, options, progress, out);
            break;
        case CS_METHOD_CROWD_LLOYD:
            cancelled = fit_crowd_lloyd(data, options, progress, out);
            break;
        case CS_METHOD_KOS:
            cancelled = fit_kos(data, options, progress, out);
            break;
        case CS_METHOD_KOS_MP:
            cancelled = fit_kos_message_passing(data, options, progress, out);
            break;
        case CS_METHOD_GHOSH_SVD:
            cancelled = fit_ghosh_svd(data, options, progress, out);
            break;
        case CS_METHOD_EIGEN_RATIO:
            cancelled = fit_eigen_ratio(data, options, progress, out);
            break;
        case CS_METHOD_ONE_COIN_DS:
        case CS_METHOD_CLASS_ONE_COIN_DS: {
            // MV-D&S with the confusion model fixed by the method (it overrides
            // CS_PARAM_CONFUSION; ALGORITHMS.md, "Confusion models").
            FitOptions fixed = options;
            fixed.confusion = options.method == CS_METHOD_ONE_COIN_DS ? CS_CONFUSION_ONE_COIN
                                                                      : CS_CONFUSION_CLASS_ONE_COIN;
            EmStart start;
            start.posteriors = soft_majority_vote(data);
            cancelled = run_em(data, fixed, progress, std::move(start), out);
            break;
        }
        default:
            throw Error(CS_ERR_WRONG_INPUT_KIND,
                        "method " + std::to_string(options.method) + " does not take crowd labels");
    }
    finish_crowd_fit(data, out);
    return cancelled;
}

}  // namespace cs
