// SPDX-License-Identifier: MIT
// Dawid-Skene EM (ALGORITHMS.md "Dawid-Skene EM"), the algorithm: how a run starts (from
// posteriors or from parameters, naming the classes of a spectral start), its rounds,
// plain or SQUAREM-accelerated, the stopping rule, and the fit entry points of ds,
// one-coin-ds and class-one-coin-ds; also the answer sets and the choice between
// scattering and gathering the counts. The passes of a round live in ds_e_step.cpp and
// ds_m_step.cpp (declared in ds_steps.hpp), on the workspace of ds_workspace.hpp, with
// the per-item kernels in ds_kernel*.hpp.
#include "crowd/em/dawid_skene.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "crowd/em/ds_steps.hpp"
#include "crowd/em/ds_workspace.hpp"
#include "crowd/em/model_worker.hpp"
#include "crowd/spectral/class_identification.hpp"
#include "crowd/voting/majority_vote.hpp"
#include "util/fast_mod.hpp"
#include "util/squarem.hpp"

namespace cs {

namespace {

using ds::allocate_table;
using ds::counted_posteriors;
using ds::finish_m_step;
using ds::kMinusInf;
using ds::ratios_from_logs;
using ds::run_e_step;
using ds::scatter_posteriors;
using ds::Workspace;

// The EM loop's bookkeeping: every kept E-step adds its log-likelihood to the trace,
// is reported to the progress callback, and is tested against the stopping rule.
struct RoundLog {
    const FitOptions &options;
    const Progress &progress;
    FitResult &out;
    int32_t rounds = 0;
    bool converged = false;
    bool cancelled = false;

    // Record a kept round; test the stopping rule against `reference` (by default the
    // previous round): the relative change |L - L_ref| < tol |L_ref|, or no change at
    // all (at L = 0 the relative test could never fire). tol = 0 never stops.
    void record(double ll, bool test = true) {
        if (test && rounds >= 1) record_against(ll, out.trace.back());
        out.trace.push_back(ll);
        ++rounds;
        cancelled = progress.cancelled(rounds, ll);
    }
    void record_against(double ll, double reference) {
        converged = options.tol > 0.0 &&
                    (ll == reference || std::fabs(ll - reference) < options.tol * std::fabs(reference));
    }
    void record_tested_against(double ll, double reference) {
        record_against(ll, reference);
        out.trace.push_back(ll);
        ++rounds;
        cancelled = progress.cancelled(rounds, ll);
    }
    bool done() const { return converged || cancelled || rounds >= options.max_iter; }
};

// Name the classes of a start known only up to a renaming from the posteriors of its
// E-step (class_identification.hpp); true when that renamed `params`.
bool identify_by_vote(const CrowdData &data, const std::vector<double> &q, DsParams &params,
                      const Progress &progress) {
    const std::vector<int32_t> sigma = vote_identification(data, q, progress);
    if (is_identity(sigma)) return false;
    rename_classes(params, sigma, data.k);
    return true;
}

// The first round of every EM run: a parameter start's E-step (after which a start
// with identify_classes names its classes, redoing the E-step only if that renamed
// them), or a posterior start's M-step and E-step.
EStep first_round(const CrowdData &data, const FitOptions &options, bool from_params, bool identify,
                  Workspace &ws, DsParams &params, std::vector<double> &q, RoundLog &log) {
    if (!from_params) finish_m_step(data, ws, options, params);
    EStep first = run_e_step(data, params, ws, q, true, !from_params);
    if (from_params && identify && identify_by_vote(data, q, params, log.progress))
        first = run_e_step(data, params, ws, q, true);
    log.record(first.log_likelihood);
    return first;
}

// Plain EM after the first round: rounds of (M-step, E-step).
EStep plain_em(const CrowdData &data, const FitOptions &options, Workspace &ws, DsParams &params,
               std::vector<double> &q, RoundLog &log, EStep last) {
    while (!log.done()) {
        finish_m_step(data, ws, options, params);
        last = run_e_step(data, params, ws, q, true, true);
        log.record(last.log_likelihood);
    }
    return last;
}

// f(e, t) for every confusion entry of a table of `table` entries: e its place in the
// parameters SQUAREM extrapolates (worker by worker, true class l by observed class o;
// the prior follows at `table`), t its place in the transposed logs (observed x true).
template <class F>
void for_each_confusion_entry(std::size_t table, int32_t k, F &&f) {
    const std::size_t kk = static_cast<std::size_t>(k) * k;
    for (std::size_t row = 0; row < table; row += kk)
        for (int32_t l = 0; l < k; ++l)
            for (int32_t o = 0; o < k; ++o)
                f(row + static_cast<std::size_t>(l) * k + o, row + static_cast<std::size_t>(o) * k + l);
}

// SQUAREM works here on the logarithms of the parameters: the extrapolated entries
// are then positive whatever alpha (SQUAREM applies to any smooth parameterisation of
// the EM map), and the entries EM drives towards 0 -- geometrically, the slow
// direction of EM on real crowds -- are extrapolated along their own geometric path
// instead of being cut short at the boundary. For the points a, b = F(a), c = F(b):
// r = log b - log a and v = log c - 2 log b + log a per entry (log a itself is read
// where it is kept, see extrapolate); `used` is 0 for entries that are 0 in any of
// them (not extrapolated).
//
// The logs of a and b are the E-steps' own (log pi as log_transposed laid it out,
// observed x true, and log w; log 0 = -inf): a's were taken for its E-step, b's by
// the M-step that made it. Only c's are taken here, in place of b's (which nothing
// needs after this), so that c's E-step, when the cycle ends at c, needs no logs of
// its own either. They are the same std::log of the same entries, so the steps are
// those of three logs per entry, bit for bit, at one log per entry (the logs were a
// quarter of a fit of a sparse crowd: 60,000 labels from 60,000 workers, k = 3). The
// vectors are reused from cycle to cycle.
struct LogSteps {
    std::vector<double> r, v;
    std::vector<char> used;
    double r2 = 0.0, v2 = 0.0;  // ||r||^2 and ||v||^2 of SqS3

    // log_a_pi, log_bc_pi: m x k (observed) x k (true); log_a_prior, log_bc_prior: k.
    // log_bc_* hold b's logs on entry and c's on return.
    void compute(const double *log_a_pi, const double *log_a_prior, double *log_bc_pi, double *log_bc_prior,
                 const DsParams &c, int32_t k) {
        const std::size_t table = c.confusion.size(), n = table + c.prior.size();
        r.resize(n);  // every entry is written below
        v.resize(n);
        used.resize(n);
        r2 = v2 = 0.0;
        const auto step = [&](std::size_t e, double la, double &lbc, double ce) {
            const double lb = lbc, lc = ce == 0.0 ? kMinusInf : std::log(ce);  // as log_transposed
            lbc = lc;
            if (ce == 0.0 || lb == kMinusInf || la == kMinusInf) {  // an entry 0 in c, b or a
                r[e] = v[e] = 0.0;
                used[e] = 0;
                return;
            }
            r[e] = lb - la;
            v[e] = lc - 2.0 * lb + la;
            used[e] = 1;
            r2 += r[e] * r[e];
            v2 += v[e] * v[e];
        };
        for_each_confusion_entry(table, k, [&](std::size_t e, std::size_t t) {
            step(e, log_a_pi[t], log_bc_pi[t], c.confusion[e]);
        });
        for (int32_t l = 0; l < k; ++l) step(table + l, log_a_prior[l], log_bc_prior[l], c.prior[l]);
    }
};

// theta(alpha) = a - 2 alpha r + alpha^2 v (Varadhan and Roland 2008, eq. 8) on the
// logarithms, log a read from the logs LogSteps::compute took it from (log_a_pi
// transposed, log_a_prior). Entries that are 0 in c (EM's next iterate) stay 0, as EM
// keeps them; entries 0 in a or b take c's value. Each confusion row and the prior are
// renormalised.
void extrapolate(const LogSteps &steps, const double *log_a_pi, const double *log_a_prior, const DsParams &c,
                 double alpha, int32_t k, DsParams &out) {
    out = c;
    const std::size_t table = out.confusion.size();
    const auto point = [&](std::size_t e, double la, double &x_out) {
        if (!steps.used[e]) return;
        const double x = std::exp(squarem_log_point(la, steps.r[e], steps.v[e], alpha));
        if (x > 0.0 && std::isfinite(x)) x_out = x;
    };
    for_each_confusion_entry(table, k,
                             [&](std::size_t e, std::size_t t) { point(e, log_a_pi[t], out.confusion[e]); });
    for (int32_t l = 0; l < k; ++l) point(table + l, log_a_prior[l], out.prior[l]);
    const std::size_t rows = out.confusion.size() / static_cast<std::size_t>(k);
    for (std::size_t row = 0; row <= rows; ++row) {  // the last "row" is the prior
        double *x = row < rows ? out.confusion.data() + row * k : out.prior.data();
        double sum = 0.0;
        for (int32_t l = 0; l < k; ++l) sum += x[l];
        for (int32_t l = 0; l < k; ++l) x[l] /= sum;
    }
}

// SQUAREM (Varadhan and Roland 2008, SqS3 step length with the SQUAREM package's
// adaptive bound) on the EM map F = M-step o E-step of the parameters theta =
// (confusion, prior). From a point a whose E-step is done, each cycle takes
// b = F(a), the E-step at b (one kept round), c = F(b) (the M-step only), then the
// extrapolation theta' and its E-step. theta' is kept (one more round) when its
// log-likelihood is at least b's; otherwise the cycle falls back to c, the plain EM
// step, and evaluates it instead. So the trace never decreases, every kept round costs
// one E-step pass, and a rejected extrapolation one extra pass.
EStep squarem_em(const CrowdData &data, const FitOptions &options, Workspace &ws, DsParams &params,
                 std::vector<double> &q, RoundLog &log, EStep last) {
    const int32_t k = data.k;
    // The first round (plain, before this) made `params` a point whose E-step is done.
    double alpha_max = 1.0;  // the SQUAREM package's step.max0 (util/squarem.hpp)
    DsParams b, c, trial;
    LogSteps steps;
    Workspace::Table log_a_pi;  // log pi of a (ws.log_pi's previous contents, swapped out)
    allocate_table(log_a_pi, ws.log_pi.size());
    std::vector<double> log_a_prior(static_cast<std::size_t>(k));
    while (!log.done()) {
        // The extrapolated point is tested against a, the start of its cycle: the change
        // between b and that point can be small while the cycle still moves, and
        // stopping there would end short of plain EM's fixed point.
        const double at_a = last.log_likelihood;
        // The logs of a, the point whose E-step is done (see LogSteps): the M-step
        // below writes b's into ws.log_pi, every entry of it.
        std::swap(log_a_pi, ws.log_pi);
        log_a_prior = ws.log_prior;
        finish_m_step(data, ws, options, b);
        const EStep at_b = run_e_step(data, b, ws, q, true, true);
        log.record(at_b.log_likelihood);  // a plain EM step from a: plain EM's rule
        if (log.done()) {
            params = std::move(b);
            return at_b;
        }
        finish_m_step(data, ws, options, c, false);  // its E-step, if any, follows an extrapolation
        steps.compute(log_a_pi.data(), log_a_prior.data(), ws.log_pi.data(), ws.log_prior.data(), c, k);
        ws.ratio_ready = false;  // ws.log_pi now holds c's logs; the ratios are still b's
        // SqS3: alpha = -||r|| / ||v||, at most alpha_max in size and at least 1 (alpha
        // = -1 is exactly c, the plain step).
        const double alpha = squarem_step_length(steps.r2, steps.v2, alpha_max);
        bool accepted = false, rejected = false;
        if (alpha < -1.0) {
            extrapolate(steps, log_a_pi.data(), log_a_prior.data(), c, alpha, k, trial);
            // c's logs are kept aside (a's are no longer needed) while the trial's E-step
            // takes its own.
            std::swap(log_a_pi, ws.log_pi);
            std::swap(log_a_prior, ws.log_prior);
            const EStep at_trial = run_e_step(data, trial, ws, q, true);
            accepted = at_trial.log_likelihood >= at_b.log_likelihood &&
                       at_trial.impossible_items <= at_b.impossible_items;
            rejected = !accepted;
            if (accepted) {
                params = std::move(trial);
                last = at_trial;
            } else {
                std::swap(log_a_pi, ws.log_pi);
                std::swap(log_a_prior, ws.log_prior);
            }
        }
        if (!accepted) {  // the plain EM step, from c's logs (LogSteps::compute)
            params = std::move(c);
            if (k == 2) ratios_from_logs(data, ws);
            last = run_e_step(data, params, ws, q, true, true);
        }
        alpha_max = squarem_next_bound(alpha_max, alpha, rejected);
        log.record_tested_against(last.log_likelihood, at_a);
    }
    return last;
}

}  // namespace

void note_fit_end(const FitOptions &options, bool cancelled, FitResult &out) {
    if (cancelled)
        out.notes |= CS_NOTE_CANCELLED;
    else if (!out.converged)
        note_max_iter(options, out);
}

void note_max_iter(const FitOptions &options, FitResult &out) {
    if (options.max_iter == 0 || options.tol == 0.0) return;  // asked for exactly that many rounds
    out.notes |= CS_NOTE_MAX_ITER_REACHED;
    out.note_message += "EM stopped at max_iter = " + std::to_string(options.max_iter) +
                        " rounds before the relative log-likelihood change fell below tol. ";
}

// With many workers each label's scatter is a read-modify-write of a random row of a
// table beyond the caches, the larger part of a round's time (10^7 labels from 10^5
// workers, k = 5: about 40 of 65 ns per label); the gather reads the item's posterior
// row instead, and leaves no tables to clear and sum. But while log pi and a count
// table stay in the last-level cache the scatter is the faster: measured on 10^7 labels
// (bench/README.md, issue 19), the gather lost at tables of 6 and 7.7 MB (k = 5 and 4)
// and won from 10 MB (k = 3..6, 1.2-1.3x). So the threshold, options.pull_table_bytes,
// is 8 MiB a table: log pi and one count table together at half of the 32 MiB
// last-level cache of the machine measured. At k = 2 the scatter moves 16 bytes a label
// and the gather gained 7 % at 12.8 MB: not worth its 4 bytes a label, so k = 2 keeps
// the scatter.
bool gathers_counts(const CrowdData &data, const FitOptions &options) {
    const int64_t table = static_cast<int64_t>(data.n_workers) * data.k * data.k;
    return data.k >= 3 && table * static_cast<int64_t>(sizeof(double)) >= options.pull_table_bytes;
}

bool restricts_support(const CrowdData &data, const FitOptions &options) {
    return options.support == CS_SUPPORT_ANSWERED || (options.support == CS_SUPPORT_AUTO && data.k >= 3);
}

std::vector<uint8_t> answer_sets(const CrowdData &data) {
    const int32_t k = data.k;
    // A label's class is its code mod k (CrowdData::label_of), here by multiplication:
    // the division was most of this pass's cost (10^7 labels, k = 5: 0.08 s, 6 % of a
    // default fit).
    const FastMod32 class_of(static_cast<uint32_t>(k));
    std::vector<uint8_t> allowed(static_cast<std::size_t>(data.n_items) * k, 0);
    for (int32_t j = 0; j < data.n_items; ++j) {
        uint8_t *a = allowed.data() + static_cast<int64_t>(j) * k;
        if (data.item_start[j] == data.item_start[j + 1]) {
            std::fill(a, a + k, uint8_t{1});  // no answers: no restriction
            continue;
        }
        for (int64_t p = data.item_start[j]; p < data.item_start[j + 1]; ++p) a[class_of(data.item_code[p])] = 1;
        if (has_model(data))  // the model answers too
            for (int32_t t = 0; t < k; ++t) a[t] = a[t] || model_answers(data, j, t);
    }
    return allowed;
}

void m_step(const CrowdData &data, const std::vector<double> &q, const FitOptions &options,
            DsParams &params) {
    Workspace ws(data, options, true, false);
    scatter_posteriors(data, ws, q.data());
    finish_m_step(data, ws, options, params, false);
}

EStep e_step(const CrowdData &data, const DsParams &params, const FitOptions &options,
             std::vector<double> &q) {
    Workspace ws(data, options, false);
    return run_e_step(data, params, ws, q, false);
}

std::vector<int32_t> argmax_labels(const std::vector<double> &q, int32_t n_items, int32_t k) {
    std::vector<int32_t> labels(static_cast<std::size_t>(n_items));
    for (int32_t j = 0; j < n_items; ++j) labels[j] = argmax_row(q.data() + static_cast<int64_t>(j) * k, k);
    return labels;
}

int32_t argmax_row(const double *q, int32_t k) {
    int32_t best = 0;
    for (int32_t l = 1; l < k; ++l)
        if (q[l] > q[best]) best = l;
    return best;
}

bool run_em(const CrowdData &data, const FitOptions &options, const Progress &progress,
            EmStart start, FitResult &out, DsParams *next) {
    const bool from_params = !start.params.confusion.empty();
    DsParams params = std::move(start.params);
    // A parameter start without the model's matrix: uniform, k x k (model_worker.hpp).
    if (has_model(data) && params.model_confusion.empty())
        params.model_confusion.assign(static_cast<std::size_t>(data.k) * data.k, 1.0 / data.k);
    std::vector<double> q = std::move(start.posteriors);
    Workspace ws(data, options, true, true, start.answer_sets, start.by_code);
    out.trace.clear();
    out.has_log_likelihood = true;

    // A posterior start's first M-step needs the counts of the start.
    if (!from_params) scatter_posteriors(data, ws, q.data());

    RoundLog log{options, progress, out};
    log.cancelled = progress.cancelled(0, 0.0);
    EStep last;
    if (log.cancelled || options.max_iter == 0) {
        // No EM round: complete the starting point into a consistent fit.
        if (from_params) {
            last = run_e_step(data, params, ws, q, false);
            if (start.identify_classes && identify_by_vote(data, q, params, progress))
                last = run_e_step(data, params, ws, q, false);
        } else {
            finish_m_step(data, ws, options, params, false);
        }
    } else {
        last = first_round(data, options, from_params, start.identify_classes, ws, params, q, log);
        last = options.accel == CS_ACCEL_SQUAREM ? squarem_em(data, options, ws, params, q, log, last)
                                                 : plain_em(data, options, ws, params, q, log, last);
    }
    // The next M-step, for a caller that continues this EM later (its counts are those
    // of the last E-step, which scattered whenever a round ran).
    if (next != nullptr && log.rounds > 0) finish_m_step(data, ws, options, *next, false);

    // The counts of the final posteriors, which the last E-step scattered: the
    // calibration and the worker diagnostics then need no pass over the labels to make
    // them (FitResult::posterior_counts). Not after a cancel (the caller keeps the last
    // completed round's posteriors but ends the fit without them).
    out.drop_posterior_counts();
    if (log.rounds > 0 && !log.cancelled) counted_posteriors(data, ws, out.posterior_counts, out.posterior_class_mass);
    out.iterations = log.rounds;
    out.converged = log.converged;
    out.posteriors = std::move(q);
    out.confusion = std::move(params.confusion);
    out.prior = std::move(params.prior);
    out.model_confusion = std::move(params.model_confusion);
    out.labels = argmax_labels(out.posteriors, data.n_items, data.k);
    // A run that hands over its continuation point (`next`) is a segment of a longer
    // fit: its caller decides whether the fit as a whole stopped at max_iter.
    if (next == nullptr && !log.converged && !log.cancelled) note_max_iter(options, out);
    if (last.impossible_items > 0) {
        out.notes |= CS_NOTE_IMPOSSIBLE_ITEMS;
        out.note_message += impossible_items_note(last);
    }
    if (log.cancelled) out.notes |= CS_NOTE_CANCELLED;
    return log.cancelled;
}

std::string impossible_items_note(const EStep &e) {
    std::string text = std::to_string(e.impossible_items) +
                       (e.impossible_items == 1 ? " item has" : " items have") +
                       " zero likelihood under every class (zero confusion entries";
    if (e.first_impossible >= 0)
        text += std::string(e.impossible_items == 1 ? "; it is" : "; the first is") + " item " +
                std::to_string(e.first_impossible);
    return text + "); " + (e.impossible_items == 1 ? "it got" : "they got") + " the prior as posterior. ";
}

namespace {

bool fit_ds_with(const CrowdData &data, const FitOptions &options, const Progress &progress, FitResult &out) {
    EmStart start;
    start.posteriors = soft_majority_vote(data, options.threads);
    if (has_model(data)) add_model_vote(data, start.posteriors);  // the model votes too
    return run_em(data, options, progress, std::move(start), out);
}

}  // namespace

bool is_ds_family(int32_t method) {
    return method == CS_METHOD_DS || method == CS_METHOD_OPT_DS || method == CS_METHOD_ONE_COIN_DS ||
           method == CS_METHOD_CLASS_ONE_COIN_DS || method == CS_METHOD_AUTO;
}

FitOptions em_options(const FitOptions &options) {
    FitOptions em = options;
    if (options.method == CS_METHOD_ONE_COIN_DS) em.confusion = CS_CONFUSION_ONE_COIN;
    if (options.method == CS_METHOD_CLASS_ONE_COIN_DS) em.confusion = CS_CONFUSION_CLASS_ONE_COIN;
    if (options.method == CS_METHOD_AUTO) em.smoothing_center = CS_SMOOTHING_CENTER_STRATA;
    return em;
}

bool fit_ds(const CrowdData &data, const FitOptions &options, const Progress &progress, FitResult &out) {
    return fit_ds_with(data, options, progress, out);
}

bool fit_one_coin_ds(const CrowdData &data, const FitOptions &options, const Progress &progress, FitResult &out) {
    return fit_ds_with(data, em_options(options), progress, out);
}

bool fit_class_one_coin_ds(const CrowdData &data, const FitOptions &options, const Progress &progress,
                           FitResult &out) {
    return fit_ds_with(data, em_options(options), progress, out);
}

bool fit_auto(const CrowdData &data, const FitOptions &options, const Progress &progress, FitResult &out) {
    return fit_ds_with(data, em_options(options), progress, out);
}

}  // namespace cs
