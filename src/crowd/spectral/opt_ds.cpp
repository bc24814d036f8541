// SPDX-License-Identifier: MIT
#include "crowd/spectral/opt_ds.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "crowd/spectral/class_identification.hpp"
#include "crowd/em/dawid_skene.hpp"
#include "crowd/voting/majority_vote.hpp"
#include "crowd/spectral/spectral_init.hpp"
#include "crowd/spectral/worker_groups.hpp"
#include "data/crowd_shard.hpp"
#include "data/labels_by_code.hpp"
#include "util/parallel.hpp"
#include "util/rng.hpp"

namespace cs {

namespace {

// Above this many labels the starts are screened by their first round rather than run
// to convergence: there the EM rounds dominate the cost, and with that much data one
// round from a good start is already at the optimal rate (Zhang et al., Theorem 4:
// one EM step from the spectral estimate is minimax optimal), so the likelihoods after
// it rank the starts as their limits do.
constexpr std::size_t kFullStartsLabels = 1000000;
constexpr int32_t kScreenRounds = 1;
// The automatic number of starts (CS_PARAM_STARTS = 0): two spectral starts and the
// majority vote; above kFullStartsLabels one spectral start and the majority vote. A
// second partition guards against the sampling noise of one partition's moments,
// which shrinks as the data grow, while it costs a spectral stage and an EM round.
constexpr int32_t kAutoStarts = 3;
constexpr int32_t kAutoStartsLarge = 2;

int32_t resolved_starts(const CrowdData &data, const FitOptions &options) {
    if (options.starts > 0) return options.starts;
    return static_cast<std::size_t>(total_labels(data)) <= kFullStartsLabels ? kAutoStarts : kAutoStartsLarge;
}

struct Start {
    std::string name;
    bool spectral = false;
    EmStart em;
    int32_t notes = 0;        // of its spectral stage
    std::string message;
};

// The MV-D&S estimate: one M-step from the vote shares (the fallback of workers the
// spectral stage cannot estimate).
DsParams majority_vote_params(const CrowdData &data, const FitOptions &options) {
    DsParams mv;
    m_step(data, soft_majority_vote(data, options.threads), options, mv);
    return mv;
}

// Spectral start s: its partition, Stage 1, the fallback of unusable workers, the
// starting prior, and the naming of its classes.
// What every start of one fit shares, computed once.
struct Shared {
    std::vector<uint64_t> signatures;  // worker_signatures, for the partitions
    std::vector<uint8_t> answer_sets;  // when the support restricts (restricts_support)
    std::vector<double> mv_confusion;  // computed once, when a fallback needs it
    LabelsByCode by_code;              // when EM gathers its counts (gathers_counts)
    const std::vector<uint8_t> *support() const { return answer_sets.empty() ? nullptr : &answer_sets; }
    const LabelsByCode *grouping() const { return by_code.empty() ? nullptr : &by_code; }
    // The start's tables shared with every EM run of the fit.
    void share_with(EmStart &em) const {
        em.answer_sets = support();
        em.by_code = grouping();
    }
};

Shared shared_tables(const CrowdData &data, const FitOptions &options, int32_t n_spectral) {
    Shared shared;
    // Only the reference partition of a lone spectral start ignores the signatures.
    if (!(options.groups == CS_GROUPS_REFERENCE && n_spectral == 1)) shared.signatures = worker_signatures(data);
    if (restricts_support(data, options)) shared.answer_sets = answer_sets(data);
    if (gathers_counts(data, options)) {
        Team team(threads_for(options.threads, static_cast<int64_t>(data.n_labels())));
        shared.by_code = labels_by_code(data, team);
    }
    return shared;
}

Start spectral_start(const CrowdData &data, const FitOptions &options, int32_t s, Shared &shared,
                     const Progress &progress) {
    Start start;
    start.spectral = true;
    start.name = "spectral start " + std::to_string(s + 1);
    const std::vector<uint8_t> group = worker_groups(data, shared.signatures, options.groups, options.seed, s);
    // Start 0 draws the tensor power method's starts from the seed itself (the
    // reference reproduction); later starts from a stream of their own.
    Rng rng(s == 0 ? options.seed : options.seed ^ (0xA24BAED4963EE407ull * static_cast<uint64_t>(s)));
    SpectralEstimate spectral = spectral_confusion(data, group, options, rng, progress);
    const int64_t kk = static_cast<int64_t>(data.k) * data.k;

    DsParams &params = start.em.params;
    params.confusion = std::move(spectral.confusion);
    const auto fallbacks = std::count(spectral.valid.begin(), spectral.valid.end(), 0);
    if (fallbacks > 0) {
        std::vector<double> &mv_confusion = shared.mv_confusion;
        if (mv_confusion.empty()) mv_confusion = majority_vote_params(data, options).confusion;
        for (int32_t i = 0; i < data.n_workers; ++i)
            if (!spectral.valid[i])
                std::copy(mv_confusion.begin() + i * kk, mv_confusion.begin() + (i + 1) * kk,
                          params.confusion.begin() + i * kk);
        start.notes |= CS_NOTE_SPECTRAL_FALLBACK;
        start.message = "spectral stage: " + spectral.problem + "; " + std::to_string(fallbacks) +
                        " of " + std::to_string(data.n_workers) +
                        " workers start from the majority-vote estimate instead. ";
    }
    // The reference code's E-step uses the uniform prior; with an estimated prior the
    // spectral class weights are the natural start.
    params.prior.assign(static_cast<std::size_t>(data.k), 1.0 / data.k);
    if (options.prior == CS_PRIOR_ESTIMATED && spectral.prior_valid) params.prior = spectral.prior;

    // Its classes are named by the posteriors of EM's first E-step (EmStart).
    start.em.identify_classes = options.identify == CS_IDENTIFY_VOTE;
    shared.share_with(start.em);
    return start;
}

// After EM from a spectral start, name the classes again, when that leaves the
// likelihood unchanged: no gold item (gold pins label classes) and no answer-set
// support (it restricts items to label classes). Both already tie the classes to the
// labels, and renaming would leave EM's fixed point.
void identify_final_classes(const CrowdData &data, const FitOptions &options, FitResult &fit,
                            const Progress &progress) {
    // Model probabilities (issue 34) name the classes themselves: EM's fixed point is
    // then no longer symmetric under a renaming, so there is nothing to identify.
    if (options.identify != CS_IDENTIFY_VOTE || has_gold(data) || restricts_support(data, options) ||
        data.model_probs != nullptr)
        return;
    const std::vector<int32_t> sigma = vote_identification(data, fit.posteriors, progress);
    if (is_identity(sigma)) return;
    DsParams params{std::move(fit.confusion), std::move(fit.prior), {}};
    rename_classes(params, sigma, data.k);
    fit.confusion = std::move(params.confusion);
    fit.prior = std::move(params.prior);
    rename_posteriors(fit.posteriors, sigma, data.k);
    fit.drop_posterior_counts();  // EM counted the classes under their old names
    fit.labels = argmax_labels(fit.posteriors, data.n_items, data.k);
}

// A start that lost: its trace stays, for the summary; its n x k tables go.
void release_tables(FitResult &fit, DsParams &next) {
    std::vector<double>().swap(fit.posteriors);
    std::vector<int32_t>().swap(fit.labels);
    std::vector<double>().swap(fit.confusion);
    fit.drop_posterior_counts();
    next = DsParams{};
}

std::string format_ll(double ll) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.10g", ll);
    return buffer;
}

// The body of fit_opt_ds (the results' sizes are set by the caller).
bool fit_from_starts(const CrowdData &data, const FitOptions &options, const Progress &progress,
                     FitResult &out) {
    const int32_t n_starts = resolved_starts(data, options);
    const int32_t n_spectral = n_starts <= 1 ? 1 : n_starts - 1;
    const bool with_vote_start = n_starts >= 2;
    Shared shared = shared_tables(data, options, n_spectral);

    if (!with_vote_start) {
        Start only = spectral_start(data, options, 0, shared, progress);
        out.notes |= only.notes;
        out.note_message += only.message;
        const bool cancelled = run_em(data, options, progress, std::move(only.em), out);
        if (!cancelled) identify_final_classes(data, options, out, progress);
        return cancelled;
    }

    int32_t screen = options.start_rounds > 0 ? options.start_rounds
                     : static_cast<std::size_t>(total_labels(data)) <= kFullStartsLabels ? options.max_iter
                                                            : kScreenRounds;
    screen = std::min(screen, options.max_iter);
    FitOptions screening = options;
    screening.max_iter = screen;

    // Run each start for `screen` rounds, one after the other (one start's tables in
    // memory at a time), keeping the best fit so far and the parameters to continue it
    // from; of the others only the trace is kept (for the summary).
    // The best is the highest log-likelihood: a later start must beat an earlier one by
    // more than the stopping tolerance (starts that reach the same maximum differ by
    // rounding).
    std::vector<Start> starts;
    std::vector<FitResult> fits;
    std::vector<DsParams> next;
    std::size_t best = 0;
    const auto final_ll = [&](std::size_t c) { return fits[c].trace.empty() ? -INFINITY : fits[c].trace.back(); };
    int32_t rounds_so_far = 0;
    for (int32_t s = 0; s <= n_spectral; ++s) {
        Start start;
        if (s < n_spectral) {
            start = spectral_start(data, options, s, shared, progress.after(rounds_so_far));
        } else {
            start.name = "majority-vote start";
            start.em.posteriors = soft_majority_vote(data, options.threads);
            shared.share_with(start.em);
        }
        FitResult fit;
        DsParams continue_from;
        const bool cancelled =
            run_em(data, screening, progress.after(rounds_so_far), std::move(start.em), fit, &continue_from);
        rounds_so_far += fit.iterations;
        if (cancelled) {  // the fit so far is this start's
            fit.notes |= start.notes;
            fit.note_message = start.message + fit.note_message;
            out = std::move(fit);
            return true;
        }
        starts.push_back(std::move(start));
        fits.push_back(std::move(fit));
        next.push_back(std::move(continue_from));
        const std::size_t c = fits.size() - 1;
        if (c == 0) continue;
        const double top = final_ll(best);
        const std::size_t loser = final_ll(c) > top + std::max(options.tol, 1e-12) * std::fabs(top) ? best : c;
        if (loser == best) best = c;
        release_tables(fits[loser], next[loser]);
    }

    std::string summary;
    for (std::size_t c = 0; c < fits.size(); ++c)
        summary += (c ? ", " : "") + starts[c].name + " " +
                   (fits[c].trace.empty() ? std::string("-") : format_ll(final_ll(c)));

    FitResult &winner = fits[best];
    const bool go_on = !winner.converged && winner.iterations == screen && screen < options.max_iter &&
                       !next[best].confusion.empty();
    if (go_on) {
        FitOptions rest = options;
        rest.max_iter = options.max_iter - winner.iterations;
        FitResult more;
        EmStart from;
        from.params = std::move(next[best]);
        shared.share_with(from);
        // Continued as a segment too (it hands over `next`): the max_iter note below
        // names the fit's max_iter, not the segment's.
        const bool cancelled =
            run_em(data, rest, progress.after(rounds_so_far), std::move(from), more, &next[best]);
        more.trace.insert(more.trace.begin(), winner.trace.begin(), winner.trace.end());
        more.iterations += winner.iterations;
        more.notes |= winner.notes;
        more.note_message = winner.note_message + more.note_message;
        winner = std::move(more);
        if (cancelled) {
            winner.notes |= starts[best].notes;
            winner.note_message = starts[best].message + winner.note_message;
            out = std::move(winner);
            return true;
        }
    }
    if (!winner.converged) note_max_iter(options, winner);
    if (starts[best].spectral) identify_final_classes(data, options, winner, progress.after(winner.iterations));
    winner.notes |= starts[best].notes;
    winner.note_message = starts[best].message + winner.note_message;
    if (!starts[best].spectral) {
        winner.notes |= CS_NOTE_MAJORITY_START;
        winner.note_message += "opt-ds kept the EM run from the majority-vote start, the highest "
                               "log-likelihood of its starts (after " +
                               (screen < options.max_iter ? std::to_string(screen) + " rounds each"
                                                          : std::string("convergence")) +
                               ": " + summary + "). ";
    }
    out = std::move(winner);
    return false;
}

}  // namespace

bool fit_opt_ds(const CrowdData &data, const FitOptions &options, const Progress &progress,
                FitResult &out) {
    bool cancelled = fit_from_starts(data, options, progress, out);
    out.n_items = data.n_items;
    out.n_workers = data.n_workers;
    out.k = data.k;
    return cancelled;
}

}  // namespace cs
