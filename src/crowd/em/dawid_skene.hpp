// SPDX-License-Identifier: MIT
// Dawid-Skene EM (ALGORITHMS.md "Dawid-Skene EM"): the E-step (Z-4), the M-step
// (Z-5) and the EM loop shared by ds, opt-ds and the one-coin variants.
// Implemented in dawid_skene.cpp (the algorithm: starts, rounds, SQUAREM, stopping,
// entry points) and the ds_* files beside it: ds_workspace (the tables of a fit),
// ds_steps.hpp with ds_e_step.cpp and ds_m_step.cpp (the passes of a round), and
// ds_kernel*.hpp (the per-item E-step kernels).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/fit_result.hpp"
#include "core/fit_options.hpp"
#include "data/crowd_data.hpp"
#include "data/labels_by_code.hpp"
#include "util/progress.hpp"

namespace cs {

/// Parameters of the Dawid-Skene model.
struct DsParams {
    std::vector<double> confusion;  // n_workers x k (true) x k (observed); rows sum to 1
    std::vector<double> prior;      // k, sums to 1
    // The model's confusion matrix (crowd/em/model_worker.hpp), k x k, when the data
    // carry model probabilities; empty: none, or uniform (a parameter start).
    std::vector<double> model_confusion;
};

/// M-step (Z-5): confusion matrices (and, when options.prior is estimated, the
/// prior) from posteriors q (n_items x k). Uses the confusion model and the
/// smoothing pseudo-count of the options.
void m_step(const CrowdData &data, const std::vector<double> &q, const FitOptions &options,
            DsParams &params);

/// Result of an E-step.
struct EStep {
    double log_likelihood = 0.0;  // sum_j log sum_l w_l prod pi (finite items only)
    int64_t impossible_items = 0; // items with zero likelihood under every class
    int64_t first_impossible = -1; // the first of them (-1: none, or a sharded fit)
};

/// "N items have zero likelihood ... (the first: item J) ...", the note text of an
/// E-step's impossible items (dawid_skene.cpp and warm_start.cpp share it).
std::string impossible_items_note(const EStep &e);

/// E-step (Z-4) in log space: posteriors q (n_items x k) from the parameters.
/// A zero confusion entry makes a class impossible for the items it touches; an
/// item for which every class is impossible gets the prior as posterior and is left
/// out of the log-likelihood. A gold item (data.gold) is pinned to its class and
/// adds log w_y + sum log pi_i[y][c] for its gold class y. Never produces NaN or Inf.
/// Uses options.threads and the answer-set support of options.support.
EStep e_step(const CrowdData &data, const DsParams &params, const FitOptions &options,
             std::vector<double> &q);

/// Whether options.support restricts item posteriors to their answer sets for these
/// data (CS_SUPPORT_ANSWERED, or CS_SUPPORT_AUTO with k >= 3).
bool restricts_support(const CrowdData &data, const FitOptions &options);

/// The answer sets: allowed[j * k + c] = 1 when some worker gave item j class c; all
/// ones for an item without labels (nothing restricts it). n_items x k bytes.
std::vector<uint8_t> answer_sets(const CrowdData &data);

/// Whether Dawid-Skene EM on these data gathers its M-step counts by code (k >= 3 and
/// a count table of options.pull_table_bytes or more: the tables are beyond the caches)
/// instead of scattering them into per-partition tables; it then needs the labels
/// grouped by code (data/labels_by_code.hpp). The results are the same either way.
bool gathers_counts(const CrowdData &data, const FitOptions &options);

/// How EM starts: from posteriors (MV-D&S: the first round begins with an M-step)
/// or from parameters (Opt-D&S: the first round is the E-step alone).
struct EmStart {
    std::vector<double> posteriors;  // set for a posterior start
    DsParams params;                 // set (non-empty confusion) for a parameter start
    /// A parameter start whose classes are known only up to a renaming (a spectral
    /// estimate): the first E-step's posteriors name them (vote_identification), and
    /// when that renames anything the E-step is redone at the renamed parameters. So
    /// the naming costs no pass of its own when the classes were already right.
    bool identify_classes = false;
    /// The answer sets of the data (answer_sets) when restricts_support holds, shared
    /// by the EM runs of one fit; null: run_em computes them when it needs them.
    const std::vector<uint8_t> *answer_sets = nullptr;
    /// The labels grouped by code (labels_by_code) when gathers_counts holds, shared by
    /// the EM runs of one fit; null: run_em builds them when it needs them.
    const LabelsByCode *by_code = nullptr;
};

/// Run EM from the start until the relative log-likelihood change is below
/// options.tol or options.max_iter rounds, plain or accelerated (options.accel);
/// fill `out` (labels, posteriors, confusion, prior, trace, iterations, converged,
/// notes). With `next`, also the M-step that would follow the last round (a parameter
/// start for continuing this EM later; left untouched when no round ran), and no
/// max_iter note: the caller, who may continue, decides (note_max_iter). Returns true
/// when the progress callback cancelled (out then holds the last completed round).
bool run_em(const CrowdData &data, const FitOptions &options, const Progress &progress,
            EmStart start, FitResult &out, DsParams *next = nullptr);

/// Report that EM stopped at options.max_iter before meeting options.tol
/// (CS_NOTE_MAX_ITER_REACHED and its message); nothing when max_iter or tol is 0, which
/// ask for exactly that many rounds.
void note_max_iter(const FitOptions &options, FitResult &out);

/// Whether `method` is of the Dawid-Skene family, whose EM runs on confusion matrices
/// (ds, opt-ds, one-coin-ds, class-one-coin-ds, auto): they take warm starts, settle
/// degenerate ties and get calibrated posteriors.
bool is_ds_family(int32_t method);

/// The options EM runs with for a method of the family: the confusion model that
/// one-coin-ds and class-one-coin-ds fix, the stratified prior (smoothing_center =
/// strata) of auto; the options as given for the others.
FitOptions em_options(const FitOptions &options);
/// The notes of an iterative fit's end: CS_NOTE_CANCELLED after a cancel, otherwise
/// note_max_iter when out.converged is false.
void note_fit_end(const FitOptions &options, bool cancelled, FitResult &out);

/// Entry point of "ds" (MV-D&S): EM from the soft majority vote.
bool fit_ds(const CrowdData &data, const FitOptions &options, const Progress &progress, FitResult &out);

/// Entry points of "one-coin-ds" and "class-one-coin-ds": MV-D&S with the confusion model
/// fixed by the method (it overrides CS_PARAM_CONFUSION; ALGORITHMS.md, "Confusion models").
bool fit_one_coin_ds(const CrowdData &data, const FitOptions &options, const Progress &progress, FitResult &out);
bool fit_class_one_coin_ds(const CrowdData &data, const FitOptions &options, const Progress &progress,
                           FitResult &out);

/// Entry point of "auto", the default: EM from the soft majority vote under the
/// stratified pooled prior (priors/pooled_prior.hpp, smoothing_center = strata, with
/// smoothing_strength's s = k by default); its posteriors are then calibrated like every
/// method of the family (crowd/calibration/). docs/defaults.md says why.
bool fit_auto(const CrowdData &data, const FitOptions &options, const Progress &progress, FitResult &out);

/// Hard labels: argmax of each posterior row, ties to the lowest class index.
std::vector<int32_t> argmax_labels(const std::vector<double> &q, int32_t n_items, int32_t k);

/// The label of one posterior row (k entries): its largest entry, ties to the lowest class.
int32_t argmax_row(const double *q, int32_t k);

}  // namespace cs
