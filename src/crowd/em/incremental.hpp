// SPDX-License-Identifier: MIT
// Incremental updates of a Dawid-Skene fit (cs_update; docs/incremental.md): the state a
// saved model carries -- every label, the EM posteriors, the sufficient statistics of
// the M-step and the parameters -- and the incremental EM of Neal and Hinton (1998)
// that adds new labels to it.
//
// EM's M-step (Z-5) reads the data only through sums over items: per worker the counts
// n_i[o][t] = sum over i's labels o of q_j(t), and the class mass sum_j q_j(t). So the
// state keeps those sums with the posteriors q that made them. New labels touch a few
// items: their old share leaves the sums, and each round redoes their E-step (Z-4) at
// the current parameters, adds their new share and runs the M-step from the sums. Every
// step raises the free energy F(q, theta) whose maxima are EM's (Neal and Hinton, sec.
// 3-4), so the rounds converge; the other items keep the posteriors of their last
// E-step, and a rotation revisits some of them at each update so that none stays stale
// forever (CS_PARAM_UPDATE_SWEEP).
#pragma once

#include <cstdint>
#include <vector>

#include "core/fit_options.hpp"
#include "core/fit_result.hpp"
#include "crowd/em/dawid_skene.hpp"
#include "data/crowd_data.hpp"

namespace cs {

/// What an update needs besides the options: everything is saved (api saved_model).
struct UpdateState {
    CrowdData data;                  // every label so far (owned codes) and the gold
    std::vector<double> q;           // EM posteriors, n_items x k (before calibration)
    std::vector<double> item_ll;     // each item's log-likelihood term at its last E-step
    std::vector<uint8_t> impossible; // items with zero likelihood at their last E-step
    std::vector<double> counts;      // n_workers x k (observed) x k (true): sum of q over labels
    std::vector<double> class_mass;  // k: sum of q over items
    DsParams params;                 // the parameters (the fit's, then each update's M-step)
    int64_t cursor = 0;              // the next item of the rotation (CS_PARAM_UPDATE_SWEEP)
    int64_t calibrated_labels = 0;   // labels when the calibration was last fitted
    int64_t fitted_labels = 0;       // labels of the last full fit (CS_PARAM_UPDATE_REFIT)
    double temperature = 1.0;        // the calibration applied to the results
    double mixing = 0.0;
    int32_t calibration = CS_CALIBRATION_NONE;
    bool incremental = false;        // an update ran since the last full fit
    double log_likelihood = 0.0;     // sum of item_ll, kept up to date
    // A classifier's probabilities (issue 34; crowd/em/model_worker.hpp): n_items x k, the
    // uniform row for an item the model gave none, normalised as cs_set_model_probs
    // stores them; empty when the model has none. Its confusion matrix pi_M is
    // params.model_confusion (empty: uniform, no estimate yet). data.model_probs points
    // here (attach_model), so the E-step, the answer sets, the ties and the calibration
    // see the model as a full fit does.
    std::vector<double> model_table;

    /// Per-item answer sets when the options restrict the support, else empty; derived
    /// (not saved), rebuilt by prepare().
    std::vector<uint8_t> allowed;
    /// Labels per worker, derived from the labels (the strata of auto's prior).
    std::vector<uint64_t> worker_labels;
    /// Per item 1 when its EM posterior has a tie (posterior_tied) and it is labelled and
    /// not gold: an item whose result resolve_degenerate_ties may change even when no
    /// classes are confounded; and their count. Derived from q (rebuilt by prepare()),
    /// kept up to date for the items an update works on.
    std::vector<uint8_t> tied;
    int64_t n_tied = 0;
    /// Rows of the results that the last update recomputed: n_items after a whole
    /// refresh, fewer after one in place (for tests and benches; not saved).
    int64_t refreshed_rows = 0;
    /// Items of the last update's narrowed rounds (those still near a tie when the
    /// rounds converged linearly; 0 when none were needed; for tests; not saved).
    int64_t narrowed_items = 0;

    /// Point data.model_probs at model_table (null when it is empty); after any change
    /// of model_table's size.
    void attach_model() { data.model_probs = model_table.empty() ? nullptr : model_table.data(); }

    /// Rebuild the derived tables above from data (after a load or a merge).
    /// Also reserves room in the codes for a quarter more labels (updates insert in place).
    void prepare(const FitOptions &options);
};

/// The state of a finished fit: its labels (moved in), the classifier's dense table the
/// fit ran with (moved in; empty without one) and its pi_M (fit.model_confusion), one
/// E-step of every item at the fit's parameters (the posteriors EM ended with: its last
/// E-step was at these parameters) and the statistics of those posteriors; the fit's
/// calibration.
UpdateState state_from_fit(CrowdData data, std::vector<double> model_table, const FitOptions &options,
                           const FitResult &fit);

/// A classifier's rows for an update (the handle's cs_set_model_probs rows): item ids of
/// the model (after the batch), rows of k values already checked and normalised.
struct ModelRows {
    const int32_t *item = nullptr;
    const double *probs = nullptr;
    std::size_t n = 0;
    int32_t k = 0;
};

/// The labels a full refit runs on in place of an update (UpdatePath::Refit): the
/// state's labels with the batch merged in, and the classifier's table with the call's
/// rows written in (empty without a classifier; data.model_probs is left to the refit).
struct RefitLabels {
    CrowdData data;
    std::vector<double> model_table;
};

/// What update_state did with a batch.
enum class UpdatePath {
    Incremental,  ///< the state and the results were updated
    Refit,        ///< nothing was changed: a full refit of the RefitLabels is due instead
};

/// Add new labels (validated here) to the state and refit incrementally (the file
/// comment; crowdspec.h cs_update for the contract) -- unless the automatic refits
/// (FitOptions::update_refit at least 1) call for a full refit instead: the labels with
/// the batch reach update_refit times those of the last full fit, or the update would
/// work on at least update_refit_work of them (its touched items' labels and the
/// rotation's). Then the state and `out` are left as they were, `refit` receives the
/// labels to refit and the result is UpdatePath::Refit. `out` holds the results of the
/// state before the update (the fit's, a load's or the last update's) and receives the
/// results for every item: labels, calibrated posteriors, parameters, the trace of the
/// state's log-likelihood after each round, notes. Only the rows of the items the
/// update worked on are recomputed when nothing else can have changed (no confounded
/// classes, no tied posteriors, no mixing with the prior, the calibration kept: every
/// other row is then what results_from_state would give it); otherwise every row is.
/// Every check comes before the first change: on invalid input it throws cs::Error
/// with the state and `out` unchanged and `changed` false; a later failure (out of
/// memory) leaves `changed` true and the state and `out` unusable.
///
/// `rows` (issue 34): the classifier's probabilities for items of the model or of the
/// batch. An item whose row differs from the one the state has (or a new item with an
/// informative row) counts as touched: its E-step is redone with the new row. A state
/// without a model gains one (pi_M starts uniform, as EM's parameter starts do). The
/// model's M-step counts are summed afresh each round over every item with a row, the
/// untouched ones at their kept posteriors (a partial E-step of the model's hidden
/// answer, which also raises the free energy). Throws CS_ERR_INVALID_ARGUMENT when
/// rows.k is not the model's k, CS_ERR_INVALID_ID for a row of an item beyond the
/// model's items after the batch. With no label and no changed row nothing changes.
UpdatePath update_state(UpdateState &state, const FitOptions &options, const int32_t *item, const int32_t *worker,
                        const int32_t *label, std::size_t n_labels, const ModelRows &rows, FitResult &out,
                        bool &changed, RefitLabels &refit);

/// The results of a state as a fit (after a load or an update): posteriors, labels,
/// degenerate ties settled, calibration applied. Keeps out's trace and notes.
void results_from_state(const UpdateState &state, const FitOptions &options, FitResult &out);

}  // namespace cs
