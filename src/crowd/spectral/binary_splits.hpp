// SPDX-License-Identifier: MIT
// The k-1 binary splits shared by the baselines of the Opt-D&S paper (ALGORITHMS.md,
// "Baselines of the Opt-D&S paper (for k > 2: k-1 binary splits)"): kos, kos-mp,
// ghosh-svd and eigen-ratio each turn split s into one sign per item, and this file
// encodes the splits, combines the signs into classes, and completes the fit (one-hot
// posteriors, plug-in confusion matrices, iterations, progress, notes).
//
// Conventions (0-based; ALGORITHMS.md counts splits and classes from 1):
// - Split s = 0 .. k-2 encodes label c as +1 if c > s, else -1 (the matrix O of split s).
// - A method's score vector is turned into signs t_j in {-1, 0, +1}; a score with
//   |score_j| <= kTieTolerance * max_j |score_j| (or all scores zero) is a tie, t_j = 0.
// - Item j's class is the first split s with t_j(s) = -1, else k-1 (ALGORITHMS.md: "the
//   first l with t_j(l) = -1, else k"). A tie is not -1, so it defers to the next split,
//   as sign(0) = 0 does in the reference code: a tie in the last split gives class k-1.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/fit_result.hpp"
#include "core/fit_options.hpp"
#include "data/crowd_data.hpp"
#include "linalg/sparse_matrix.hpp"
#include "linalg/subspace_eigen.hpp"
#include "util/parallel.hpp"
#include "util/progress.hpp"
#include "util/rng.hpp"

namespace cs {

/// Relative size below which a score counts as zero (a tie). Scores that are exactly 0
/// in exact arithmetic come out of an iterative solver as rounding noise far below it.
constexpr double kTieTolerance = 1e-9;

/// Code of label c in split s: +1 if c > s, else -1.
inline int32_t split_sign(int32_t label, int32_t split) { return label > split ? 1 : -1; }

/// Entry e (a by-item label position) of the label matrix O of split s: column = the
/// label's worker, value = split_sign(label, s).
struct SplitEntry {
    const CrowdData *data;
    int32_t split;
    SparseEntry operator()(int64_t e) const {
        return {data->worker_of(e), data->label_of(e) > split ? 1.0 : -1.0};
    }
};

/// The +1/-1 label matrix O of a binary split, items x workers, 0 where unlabelled.
using SplitMatrix = CsrView<SplitEntry>;

/// O of split s, read in place from the data's labels by item (O X gathers by item,
/// O^T X scatters by item ranges): no copy of the labels. Keep `data` alive.
SplitMatrix split_matrix(const CrowdData &data, int32_t split);

/// O 1 for split s: per item, the labels above the split minus those at or below it.
std::vector<int64_t> split_row_sums(const CrowdData &data, int32_t split);

/// Signs of scores with the tie rule above.
std::vector<int8_t> tie_signs(const std::vector<double> &score);

/// Classes from split signs t (n_items x (k-1), row-major): the first split s with
/// t[j][s] = -1, else k-1.
std::vector<int32_t> combine_splits(const std::vector<int8_t> &t, int32_t n_items, int32_t k);

/// What a method made of one split.
struct SplitOutcome {
    enum class Kind {
        Signs,       // t holds the split's signs
        Degenerate,  // the split's matrix carries no usable information: `problem` says why
        NotRun,      // no iteration was allowed (max_iter = 0) or the fit was cancelled
    };
    Kind kind = Kind::NotRun;
    std::vector<int8_t> t;  // n_items signs in {-1, 0, +1} when kind == Signs
    bool converged = false; // the split's iterative solver met its stopping rule
    std::string problem;    // for Degenerate: the reason, for the fit's note
};

/// The outcome of a split whose iterative solver produced no vector: NotRun when no
/// iteration was allowed (max_iter = 0) or the fit was cancelled, otherwise Degenerate
/// with `problem` (a LAPACK failure inside the eigensolver).
SplitOutcome missing_vector(bool cancelled, int32_t max_iter, const std::string &problem);

/// The outcome of a split whose matrix carries no usable information: Degenerate, with
/// `problem` for the fit's note.
SplitOutcome degenerate_split(std::string problem);

/// The outcome of a split that gave signs: t (tie_signs of the method's scores), reversed
/// when `flip` (the method's orientation rule picks the other sign), and whether the
/// split's solver met its stopping rule.
SplitOutcome split_signs(std::vector<int8_t> t, bool flip, bool converged);

/// One run of a split method: counts iterations (eigensolver block products or
/// message-passing rounds) across all splits, reports each to the progress callback
/// with objective 0 (these methods have no objective; the trace gets a 0 per
/// iteration), records cancellation, collects the splits' signs and completes the fit.
class SplitRun {
public:
    /// Starts the fit: sizes, empty trace, and the progress report of iteration 0.
    SplitRun(const CrowdData &data, const FitOptions &options, const Progress &progress,
             const char *method_name, FitResult &out);

    /// Whether the progress callback has cancelled the fit.
    bool cancelled() const { return cancelled_; }
    /// Record one completed iteration; returns true when the callback cancels.
    bool step();
    /// step() as an eigensolver observer (EigenOptions::observer).
    std::function<bool(int32_t)> observer() {
        return [this](int32_t) { return step(); };
    }

    /// Store split s's outcome. Degenerate and NotRun splits use the majority sign of
    /// the split, sign(O 1) (ties 0), instead; a Degenerate one adds
    /// CS_NOTE_SPECTRAL_FALLBACK and its reason to the fit's message.
    void set(int32_t split, SplitOutcome outcome);

    /// Complete the fit into `out`: classes from the splits (a split never set uses the
    /// majority sign), gold items pinned to their class, one-hot posteriors (uniform for
    /// items without labels, so their label is class 0), confusion matrices and prior
    /// by one M-step from the one-hot posteriors (Z-5, with CS_PARAM_CONFUSION and
    /// smoothing), converged = every split's solver met its rule and nothing was cut
    /// short, and the notes. Returns true when the fit was cancelled.
    bool finish();

private:
    const CrowdData &data_;
    const FitOptions &options_;
    const Progress &progress_;
    std::string name_;
    FitResult &out_;
    std::vector<int8_t> t_;     // n_items x (k-1)
    std::vector<char> done_;    // k-1: split set
    bool cancelled_ = false;
    bool all_converged_ = true;
    std::string unconverged_;   // splits whose solver stopped at max_iter
};

/// The top eigenvector of a split method's symmetric operator `apply` on R^dim (block
/// subspace iteration, linalg/subspace_eigen.hpp) within the fit's max_iter and tol, each
/// block product one iteration of `run` (progress report, cancellation). The result is
/// empty when no product was allowed, the fit was cancelled before any, or LAPACK failed
/// (missing_vector tells which).
EigenResult top_split_vector(int64_t dim, const BlockOperator &apply, const FitOptions &options, Rng &rng,
                             SplitRun &run);

/// The driver of a method that treats each binary split on its own (kos, kos-mp,
/// ghosh-svd): split(data, s, options, threads, rng, run) gives split s's outcome, for
/// s = 0 .. k-2 until the progress callback cancels; then the fit is completed.
template <class SplitFn>
bool fit_each_split(const CrowdData &data, const FitOptions &options, const Progress &progress,
                    const char *method_name, FitResult &out, SplitFn split) {
    SplitRun run(data, options, progress, method_name, out);
    const int threads = threads_for(options.threads, static_cast<int64_t>(data.n_labels()));
    Rng rng(options.seed);
    for (int32_t s = 0; s + 1 < data.k && !run.cancelled(); ++s)
        run.set(s, split(data, s, options, threads, rng, run));
    return run.finish();
}

}  // namespace cs
