// SPDX-License-Identifier: MIT
// Incremental EM over a saved state (incremental.hpp): the rounds of incremental EM on
// the touched items (their new labels merged in by update_labels.cpp), the rotation over
// the others, and the results (ties, calibration) of the new state. An update costs in
// proportion to the items it works on, not to the model (issue 38: 1 % more labels for
// at most about 5 % of a full fit): the labels are patched in place, the rounds run on a
// gathered copy of the working items, and the results are refreshed in place for them.
#include "crowd/em/incremental.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <numeric>
#include <string>
#include <utility>

#include "crowd/calibration/calibration.hpp"
#include "crowd/em/degenerate_fit.hpp"
#include "crowd/em/ds_steps.hpp"
#include "crowd/em/incremental_model.hpp"
#include "crowd/em/items_ahead.hpp"
#include "crowd/em/model_worker.hpp"
#include "crowd/em/round_stop.hpp"
#include "crowd/em/update_labels.hpp"
#include "util/error.hpp"

namespace cs {

namespace {

constexpr double kMinusInf = -std::numeric_limits<double>::infinity();
// A round changes no touched posterior by more than this: the touched part has converged.
constexpr double kSettled = 1e-7;

// log pi transposed to worker x observed x true (the E-step kernels' layout) and log w.
void take_logs(const DsParams &params, int32_t k, std::vector<double> &log_pi, std::vector<double> &log_prior) {
    const std::size_t kk = static_cast<std::size_t>(k) * k;
    const std::size_t workers = params.confusion.size() / kk;
    log_pi.resize(params.confusion.size());
    for (std::size_t i = 0; i < workers; ++i) {
        const double *pi = params.confusion.data() + i * kk;
        double *out = log_pi.data() + i * kk;
        for (int32_t l = 0; l < k; ++l)
            for (int32_t c = 0; c < k; ++c) {
                const double x = pi[l * k + c];
                out[c * k + l] = x > 0.0 ? std::log(x) : kMinusInf;
            }
    }
    log_prior.resize(static_cast<std::size_t>(k));
    for (int32_t l = 0; l < k; ++l) log_prior[l] = params.prior[l] > 0.0 ? std::log(params.prior[l]) : kMinusInf;
}

// The labels and per-item state that the steps below read and write: the state's own
// (whole_items), or a gathered copy of the items an update works on (Gathered), whose
// rows then lie next to each other in memory rather than scattered over the arrays.
struct ItemView {
    const CrowdData &data;
    double *q;
    double *item_ll;
    uint8_t *impossible;
    const uint8_t *allowed;  // null: the support is not restricted
};

ItemView whole_items(UpdateState &s) {
    return ItemView{s.data, s.q.data(), s.item_ll.data(), s.impossible.data(), s.allowed.empty() ? nullptr : s.allowed.data()};
}

// Take the share of the listed items' posteriors out of the sums. Rounding can leave a
// count a hair below zero where its true value is 0; it is clamped, as a count is never
// negative (a negative entry would give the M-step a negative probability).
void remove_items(UpdateState &s, const ItemView &v, const std::vector<int32_t> &items) {
    const CrowdData &d = v.data;
    const int32_t k = d.k;
    const ItemsAhead ahead(d);
    for (std::size_t t = 0; t < items.size(); ++t) {
        ahead.fetch(t, items.size(), [&](std::size_t i) { return items[i]; }, [&](int32_t a) {
            __builtin_prefetch(v.q + static_cast<int64_t>(a) * k);
            __builtin_prefetch(v.item_ll + a);
        });
        const int32_t j = items[t];
        const double *qj = v.q + static_cast<int64_t>(j) * k;
        for (int64_t p = d.item_start[j]; p < d.item_start[j + 1]; ++p) {
            double *row = s.counts.data() + static_cast<int64_t>(d.item_code[p]) * k;
            for (int32_t l = 0; l < k; ++l) row[l] = std::max(0.0, row[l] - qj[l]);
        }
        for (int32_t l = 0; l < k; ++l) s.class_mass[l] = std::max(0.0, s.class_mass[l] - qj[l]);
        s.log_likelihood -= v.item_ll[j];
    }
}

// E-step of the listed items at the state's parameters, their share added to the sums;
// `terms`: the view's model terms at pi_M (incremental_model.hpp), or null.
void e_step(UpdateState &s, const ItemView &v, const std::vector<int32_t> &items, const std::vector<double> &log_pi,
            const std::vector<double> &log_prior, const double *terms) {
    ds::e_step_items(v.data, items.data(), items.size(), log_pi.data(), log_prior.data(), s.params.prior.data(),
                     v.allowed, v.q, v.item_ll, v.impossible, s.counts.data(), s.class_mass.data(), terms);
    for (int32_t j : items) s.log_likelihood += v.item_ll[j];
}

// A copy of the listed items (increasing) of the state as items 0, 1, ...: their labels,
// gold, answer sets and posteriors. The rounds of an update pass over these items some
// ten times, and in the state's arrays they are scattered (new labels in random order
// touch items everywhere): one gather and one scatter back replace a cache miss per item
// and round. The order of the items, hence of every sum, is the state's.
struct Gathered {
    CrowdData data;
    std::vector<double> q, item_ll, model;
    std::vector<uint8_t> impossible, allowed;

    Gathered(const UpdateState &s, const std::vector<int32_t> &items) {
        const CrowdData &d = s.data;
        const int32_t k = d.k;
        const std::size_t n = items.size(), kn = n * static_cast<std::size_t>(k);
        data.n_items = static_cast<int32_t>(n);
        data.n_workers = d.n_workers;
        data.k = k;
        data.item_start.resize(n + 1);
        int64_t labels = 0;
        for (std::size_t t = 0; t < n; ++t) {
            data.item_start[t] = labels;
            labels += d.item_start[items[t] + 1] - d.item_start[items[t]];
        }
        data.item_start[n] = labels;
        data.item_code.resize(static_cast<std::size_t>(labels));
        uint32_t *codes = data.item_code.owned_data();
        q.resize(kn);
        item_ll.resize(n);
        impossible.resize(n);
        if (!d.gold.empty()) data.gold.resize(n);
        if (!s.allowed.empty()) allowed.resize(kn);
        if (has_model(d)) model.resize(kn);
        const ItemsAhead ahead(d);
        for (std::size_t t = 0; t < n; ++t) {
            ahead.fetch(t, n, [&](std::size_t i) { return items[i]; }, [&](int32_t a) {
                __builtin_prefetch(s.q.data() + static_cast<int64_t>(a) * k);
                __builtin_prefetch(s.item_ll.data() + a);
                __builtin_prefetch(s.impossible.data() + a);
                if (!s.allowed.empty()) __builtin_prefetch(s.allowed.data() + static_cast<int64_t>(a) * k);
            });
            const int32_t j = items[t];
            std::copy(d.item_code.data() + d.item_start[j], d.item_code.data() + d.item_start[j + 1],
                      codes + data.item_start[t]);
            std::copy_n(s.q.data() + static_cast<int64_t>(j) * k, k, q.data() + t * k);
            item_ll[t] = s.item_ll[j];
            impossible[t] = s.impossible[j];
            if (!d.gold.empty()) data.gold[t] = d.gold[j];
            if (!s.allowed.empty()) std::copy_n(s.allowed.data() + static_cast<int64_t>(j) * k, k, allowed.data() + t * k);
            if (has_model(d)) std::copy_n(d.model_probs + static_cast<int64_t>(j) * k, k, model.data() + t * k);
        }
        data.model_probs = has_model(d) ? model.data() : nullptr;
    }

    ItemView view() {
        return ItemView{data, q.data(), item_ll.data(), impossible.data(), allowed.empty() ? nullptr : allowed.data()};
    }

    /// The posteriors and likelihood terms back into the state's rows of `items`.
    void scatter(UpdateState &s, const std::vector<int32_t> &items) const {
        const int32_t k = s.data.k;
        for (std::size_t t = 0; t < items.size(); ++t) {
            if (t + kFetchAhead < items.size()) {  // the rows written kFetchAhead items on
                const int32_t a = items[t + kFetchAhead];
                __builtin_prefetch(s.q.data() + static_cast<int64_t>(a) * k, 1);
                __builtin_prefetch(s.item_ll.data() + a, 1);
                __builtin_prefetch(s.impossible.data() + a, 1);
            }
            const int32_t j = items[t];
            std::copy_n(q.data() + t * k, k, s.q.data() + static_cast<int64_t>(j) * k);
            s.item_ll[j] = item_ll[t];
            s.impossible[j] = impossible[t];
        }
    }
};

// The M-step from the state's sums, with the strata of auto's prior taken from the
// workers' label counts as a full fit takes them.
void m_step(UpdateState &s, const FitOptions &em) {
    std::vector<int32_t> strata(s.worker_labels.size(), 0);
    int32_t n_strata = 1;
    for (std::size_t i = 0; i < strata.size(); ++i) {
        int32_t g = 0;
        for (uint64_t n = s.worker_labels[i]; n > 1; n >>= 1) ++g;  // floor(log2 n)
        strata[i] = g;
        n_strata = std::max(n_strata, g + 1);
    }
    ds::m_step_from_totals(s.counts.data(), s.class_mass.data(), s.data.n_workers, s.data.k, s.data.n_items, strata,
                           n_strata, em, s.params);
}

// The classifier's counts n_M of the state's items other than the listed ones
// (model_counts_of_rest, incremental_model.hpp); empty without a classifier.
std::vector<double> model_counts_outside(const UpdateState &s, const std::vector<int32_t> &items) {
    std::vector<double> rest;
    if (!has_model(s.data)) return rest;
    std::vector<uint8_t> listed(static_cast<std::size_t>(s.data.n_items), 0);
    for (int32_t j : items) listed[static_cast<std::size_t>(j)] = 1;
    model_counts_of_rest(s, listed, rest);
    return rest;
}

// The scratch of an update's rounds (incremental_round).
struct RoundScratch {
    std::vector<double> log_pi, log_prior, terms, model_counts, top, sum;
};

// One round of incremental EM over the items of a gathered copy (Neal and Hinton 1998,
// sec. 3-4): each item's E-step at the state's parameters with its share in the sums
// moved to the new posterior (e_step_settle; with `shares_in_sums` false the sums do not
// hold the items yet and their shares are added), the state's log-likelihood the rest's
// plus theirs, then the M-step from the sums (and the classifier's, from `model_rest`
// plus the items'). Appends the log-likelihood to `trace`; returns the largest posterior
// move and the smallest gap between an item's two largest posteriors in `margin`.
double incremental_round(UpdateState &s, const FitOptions &em, Gathered &gathered, bool shares_in_sums,
                         double rest_log_likelihood, const std::vector<double> &model_rest, RoundScratch &r,
                         std::vector<double> &trace, double &margin) {
    const int32_t k = s.data.k;
    const ItemView v = gathered.view();
    const int64_t n = v.data.n_items;
    r.top.resize(static_cast<std::size_t>(n));
    r.sum.resize(static_cast<std::size_t>(n));
    take_logs(s.params, k, r.log_pi, r.log_prior);
    double moved = 0.0;
    const double items_ll = ds::e_step_settle(
        v.data, n, r.log_pi.data(), r.log_prior.data(), s.params.prior.data(), v.allowed, shares_in_sums, v.q,
        r.top.data(), r.sum.data(), v.impossible, s.counts.data(), s.class_mass.data(), moved, margin,
        model_terms_for(gathered.data, s.params.model_confusion, r.terms));
    s.log_likelihood = rest_log_likelihood + items_ll;
    model_counts_with(s, model_rest, gathered.data, gathered.q.data(), r.model_counts);
    m_step(s, em);
    if (!r.model_counts.empty()) model_m_step(r.model_counts, k, em, s.params.model_confusion);
    trace.push_back(s.log_likelihood);
    return moved;
}

// Each gathered item's log-likelihood term from its last round, the share the next
// update removes.
void keep_item_terms(Gathered &gathered, const RoundScratch &r) {
    const ItemView v = gathered.view();
    for (int64_t t = 0; t < v.data.n_items; ++t)
        v.item_ll[t] = ds::item_log_likelihood(v.data, t, r.top[static_cast<std::size_t>(t)],
                                               r.sum[static_cast<std::size_t>(t)], v.impossible[t] != 0);
}

// More rounds of incremental EM for the listed items alone (increasing): the working
// items still nearer a tie than RoundStop's safe_margin when the rounds converged
// linearly. Every other working item's gap between its two largest posteriors exceeds
// what all later rounds could move an entry, so more E-steps of it would change no
// label; they keep their posteriors, and the near-tie items settle against parameters
// that no longer follow the others' remaining moves (each below that bound). A partial
// E-step and the M-step after it are still incremental EM (Neal and Hinton 1998, sec.
// 3-4). The items' shares in the sums move from their posteriors so far; the rounds stop
// as the update's do, after at most `rounds` of them. On the 10^7-label bench this turns
// the last round over 135,577 working items into two over 2 (docs/incremental.md).
void settle_near_ties(UpdateState &s, const FitOptions &em, const std::vector<int32_t> &items, int32_t rounds,
                      RoundScratch &scratch, std::vector<double> &trace) {
    if (rounds <= 0) return;  // none left: the items keep their posteriors and shares
    Gathered gathered(s, items);
    double rest_log_likelihood = s.log_likelihood;
    for (double term : gathered.item_ll) rest_log_likelihood -= term;
    const std::vector<double> model_rest = model_counts_outside(s, items);
    RoundStop stop;
    for (int32_t round = 0; round < rounds; ++round) {
        double margin = 0.0;
        const double moved =
            incremental_round(s, em, gathered, true, rest_log_likelihood, model_rest, scratch, trace, margin);
        if (moved <= kSettled || (round > 0 && stop.settled(moved, margin))) break;
    }
    keep_item_terms(gathered, scratch);
    gathered.scatter(s, items);
}

// Items of the rotation: from the cursor on, the untouched items until `budget` of their
// labels are taken or every item was seen once.
std::vector<int32_t> rotation(UpdateState &s, const std::vector<char> &touched, double budget) {
    std::vector<int32_t> out;
    const int32_t n = s.data.n_items;
    if (budget <= 0.0 || n == 0) return out;
    double taken = 0.0;
    for (int32_t seen = 0; seen < n && taken < budget; ++seen) {
        const int32_t j = static_cast<int32_t>(s.cursor % n);
        s.cursor = (s.cursor + 1) % n;
        if (touched[static_cast<std::size_t>(j)]) continue;
        out.push_back(j);
        taken += static_cast<double>(s.data.item_start[j + 1] - s.data.item_start[j]);
    }
    std::sort(out.begin(), out.end());
    return out;
}

// Whether a full refit should replace an update (update_state's contract). An update
// costs about its working labels' share of a full fit at 4-5 rounds, more when its
// rounds are many (10^7 labels: 14 % of them worked on cost 11 % of a fit, 60 % 41 %,
// 80 % 72 %, all of them 181 %, bench/README.md), and a refit gives the full fit itself.
// The working labels: the touched items' labels after the batch and the rotation's
// update_sweep per added label (it takes whole items: a little more).
// `model_only`: the items touched for a changed classifier row alone (not in change).
bool refit_instead(const UpdateState &s, const FitOptions &options, const BatchChange &change,
                   const std::vector<int32_t> &model_only) {
    if (options.update_refit < 1.0) return false;  // automatic refits off
    const double labels_after = static_cast<double>(s.data.n_labels() + change.inserted);
    if (labels_after >= options.update_refit * static_cast<double>(s.fitted_labels)) return true;
    if (options.update_refit_work <= 0.0) return false;
    double touched_labels = static_cast<double>(change.items_labels + change.inserted);
    for (int32_t j : model_only)
        if (j < s.data.n_items) touched_labels += static_cast<double>(s.data.item_start[j + 1] - s.data.item_start[j]);
    const double revisited =
        std::min(options.update_sweep * static_cast<double>(change.added), labels_after - touched_labels);
    return touched_labels + revisited >= options.update_refit_work * labels_after;
}

// The tie flags of the listed items (UpdateState::tied) from their EM posteriors.
void mark_ties(UpdateState &s, const std::vector<int32_t> &items) {
    const CrowdData &d = s.data;
    const int32_t k = d.k;
    s.tied.resize(static_cast<std::size_t>(d.n_items), 0);
    for (std::size_t t = 0; t < items.size(); ++t) {
        if (t + kFetchAhead < items.size()) {  // the rows read kFetchAhead items on (ItemsAhead)
            const int32_t a = items[t + kFetchAhead];
            __builtin_prefetch(d.item_start.data() + a);
            __builtin_prefetch(s.q.data() + static_cast<int64_t>(a) * k);
            __builtin_prefetch(s.tied.data() + a, 1);
        }
        const int32_t j = items[t];
        const double *q = s.q.data() + static_cast<int64_t>(j) * k;
        const bool tied = d.item_start[j] < d.item_start[j + 1] && d.gold_of(j) < 0 && posterior_tied(q, k, argmax_row(q, k));
        s.n_tied += static_cast<int64_t>(tied) - static_cast<int64_t>(s.tied[static_cast<std::size_t>(j)]);
        s.tied[static_cast<std::size_t>(j)] = tied ? 1 : 0;
    }
}

std::vector<int32_t> every_item(int32_t n) {
    std::vector<int32_t> all(static_cast<std::size_t>(n));
    std::iota(all.begin(), all.end(), 0);
    return all;
}

// Item j's calibrated posterior and label in `out`, from its EM posterior there: the
// per-item part of results_from_state. Gold, unlabelled and impossible items keep theirs.
// scratch: 2k doubles (the second k hold a classifier's terms, which the calibration
// leaves untempered, as calibrate_crowd_posteriors does).
void calibrate_item(const UpdateState &s, int32_t j, FitResult &out, double *scratch) {
    const CrowdData &d = s.data;
    if (d.gold_of(j) >= 0 || d.item_start[j] == d.item_start[j + 1] || s.impossible[j]) return;
    double *model = nullptr;
    if (has_model(d) && !s.params.model_confusion.empty()) {
        model = scratch + d.k;
        model_log_terms_of_item(d, s.params.model_confusion, j, model);
    }
    const int32_t label = calibrate_row(out.posteriors.data() + static_cast<int64_t>(j) * d.k, d.k, s.temperature,
                                        s.mixing, out.prior.data(), scratch, model);
    if (label >= 0) out.labels[j] = label;
}

// The parts of a state's results that are not per item: sizes, parameters, notes.
void shared_results(const UpdateState &s, FitResult &out) {
    const CrowdData &d = s.data;
    out.input_kind = CS_INPUT_CROWD;
    out.n_items = d.n_items;
    out.n_workers = d.n_workers;
    out.k = d.k;
    out.confusion = s.params.confusion;
    out.prior = s.params.prior;
    out.model_confusion = s.params.model_confusion;
    out.has_log_likelihood = true;
    out.temperature = s.temperature;
    out.mixing = s.mixing;
    out.calibration = s.calibration;
}

void add_notes(const UpdateState &s, FitResult &out) {
    const CrowdData &d = s.data;
    int64_t impossible = 0, unlabeled = 0;
    for (int32_t j = 0; j < d.n_items; ++j) {
        impossible += s.impossible[j];
        unlabeled += d.item_start[j] == d.item_start[j + 1] && d.gold_of(j) < 0;
    }
    if (impossible > 0) {
        out.notes |= CS_NOTE_IMPOSSIBLE_ITEMS;
        EStep e;
        e.impossible_items = impossible;
        out.note_message += impossible_items_note(e);
    }
    if (unlabeled > 0) {
        out.notes |= CS_NOTE_UNLABELED_ITEMS;
        out.note_message += std::to_string(unlabeled) + " items have no labels; their posterior is the class prior. ";
    }
    if (s.incremental) {
        out.notes |= CS_NOTE_INCREMENTAL;
        out.note_message += "the results come from incremental updates since the last full fit (cs_refit for a full one). ";
    }
    if (!out.note_message.empty() && out.note_message.back() == ' ') out.note_message.pop_back();
}

// Whether `out`, the results of the state before an update of `old_items` items, can be
// refreshed for the items the update worked on and the tied ones alone and equal
// results_from_state: every other item's EM posterior is unchanged, so its row is unless
// the calibration changed, mixes in the (changed) prior, leaves a classifier's terms at
// the (changed) pi_M out of its tempering, or resolve_degenerate_ties could move it
// (confounded classes; an untied row it leaves alone).
bool refreshable_in_place(const UpdateState &s, const FitResult &out, int32_t old_items) {
    const std::size_t k = static_cast<std::size_t>(s.data.k);
    if (out.input_kind != CS_INPUT_CROWD || out.posteriors.size() != static_cast<std::size_t>(old_items) * k ||
        out.labels.size() != static_cast<std::size_t>(old_items))
        return false;
    if (s.mixing != 0.0 || out.mixing != 0.0 || out.temperature != s.temperature || out.calibration != s.calibration)
        return false;
    if (s.temperature != 1.0 && has_model(s.data) && !s.params.model_confusion.empty()) return false;
    FitResult confusion_only;
    confusion_only.confusion = s.params.confusion;
    return !classes_may_be_confounded(s.data, confusion_only);
}

}  // namespace

void UpdateState::prepare(const FitOptions &options) {
    const int32_t k = data.k;
    // Room for a quarter more labels: updates then insert into the codes in place
    // (merge_labels) instead of moving every label to a larger array at the first one;
    // past it the array grows geometrically, as a vector does.
    data.item_code.reserve(data.n_labels() + data.n_labels() / 4);
    worker_labels.assign(static_cast<std::size_t>(data.n_workers), 0);
    for (std::size_t p = 0; p < data.n_labels(); ++p) ++worker_labels[data.item_code[p] / static_cast<uint32_t>(k)];
    allowed.clear();
    if (restricts_support(data, options)) allowed = answer_sets(data);
    tied.clear();
    n_tied = 0;
    if (q.size() == static_cast<std::size_t>(data.n_items) * k) mark_ties(*this, every_item(data.n_items));
}

UpdateState state_from_fit(CrowdData data, std::vector<double> model_table, const FitOptions &options,
                           const FitResult &fit) {
    UpdateState s;
    s.data = std::move(data);
    if (s.data.item_code.is_view()) s.data.item_code.resize(s.data.item_code.size());  // own the codes
    s.data.shard = nullptr;
    const int32_t k = s.data.k;
    s.model_table = std::move(model_table);
    s.attach_model();
    s.params.confusion = fit.confusion;
    s.params.prior = fit.prior;
    if (has_model(s.data)) s.params.model_confusion = fit.model_confusion;
    s.prepare(options);
    s.q.assign(static_cast<std::size_t>(s.data.n_items) * k, 0.0);
    s.item_ll.assign(static_cast<std::size_t>(s.data.n_items), 0.0);
    s.impossible.assign(static_cast<std::size_t>(s.data.n_items), 0);
    s.counts.assign(static_cast<std::size_t>(s.data.n_workers) * k * k, 0.0);
    s.class_mass.assign(static_cast<std::size_t>(k), 0.0);
    const std::vector<int32_t> all = every_item(s.data.n_items);
    std::vector<double> log_pi, log_prior;
    take_logs(s.params, k, log_pi, log_prior);
    std::vector<double> terms;
    e_step(s, whole_items(s), all, log_pi, log_prior, model_terms_for(s.data, s.params.model_confusion, terms));
    mark_ties(s, all);
    s.calibrated_labels = static_cast<int64_t>(s.data.n_labels());
    s.fitted_labels = s.calibrated_labels;
    s.temperature = fit.temperature;
    s.mixing = fit.mixing;
    s.calibration = fit.calibration;
    return s;
}

void results_from_state(const UpdateState &s, const FitOptions &options, FitResult &out) {
    const CrowdData &d = s.data;
    shared_results(s, out);
    out.posteriors = s.q;
    out.labels = argmax_labels(out.posteriors, d.n_items, d.k);
    resolve_degenerate_ties(d, out, options.threads);
    if (s.temperature != 1.0 || s.mixing != 0.0) {
        std::vector<double> scratch(2 * static_cast<std::size_t>(d.k));  // calibrate_item's
        for (int32_t j = 0; j < d.n_items; ++j) calibrate_item(s, j, out, scratch.data());
    }
    add_notes(s, out);
}

UpdatePath update_state(UpdateState &s, const FitOptions &options, const int32_t *item, const int32_t *worker,
                        const int32_t *label, std::size_t n_labels, const ModelRows &model_rows, FitResult &out,
                        bool &changed, RefitLabels &refit) {
    changed = false;
    const FitOptions em = em_options(options);
    const int32_t k = s.data.k;
    const std::vector<NewLabel> batch = checked_labels(s, item, worker, label, n_labels);
    const int32_t old_items = s.data.n_items, old_workers = s.data.n_workers;
    int32_t items_after = old_items;
    for (const NewLabel &l : batch) items_after = std::max(items_after, l.item + 1);

    // The touched items: their old share leaves the sums before their labels change;
    // with them the items whose classifier row changes.
    const BatchChange change = changed_items(s, batch, options.duplicates);
    std::vector<int32_t> touched = change.items;
    const std::vector<int32_t> model_changed = changed_model_rows(s, model_rows, items_after);
    if (batch.empty() && model_changed.empty()) return UpdatePath::Incremental;  // nothing to do
    std::vector<int32_t> model_only;  // touched for their classifier row alone
    if (!model_changed.empty()) {
        std::set_difference(model_changed.begin(), model_changed.end(), touched.begin(), touched.end(),
                            std::back_inserter(model_only));
        std::vector<int32_t> both;
        std::set_union(touched.begin(), touched.end(), model_changed.begin(), model_changed.end(),
                       std::back_inserter(both));
        touched = std::move(both);
    }
    if (refit_instead(s, options, change, model_only)) {
        refit.data = s.data;
        refit.model_table = s.model_table;
        std::vector<uint64_t> worker_labels;  // the refit counts its own
        merge_codes(refit.data, worker_labels, batch, options.duplicates);
        rows_into_table(refit.model_table, refit.data.n_items, k, model_rows);
        return UpdatePath::Refit;
    }
    changed = true;  // from here on only an allocation can fail, and the state is then lost
    std::vector<int32_t> old_touched;
    for (int32_t j : touched)
        if (j < old_items) old_touched.push_back(j);
    remove_items(s, whole_items(s), old_touched);
    merge_labels(s, batch, options.duplicates);
    for (int32_t j = old_items; j < s.data.n_items; ++j)  // new items, with labels or not
        if (!std::binary_search(touched.begin(), touched.end(), j)) touched.push_back(j);
    std::sort(touched.begin(), touched.end());
    if (has_model(s.data) || model_rows.n > 0) apply_model_rows(s, model_rows);  // grows the table with the items
    if (restricts_support(s.data, options)) refresh_allowed(s, touched);
    // New workers need parameters before their first E-step: those the M-step gives a
    // worker without counts (its prior's centre, or uniform); the others keep theirs.
    if (s.data.n_workers > old_workers) {
        const DsParams kept = s.params;
        m_step(s, em);
        std::copy(kept.confusion.begin(), kept.confusion.end(), s.params.confusion.begin());
        s.params.prior = kept.prior;
    }
    const std::size_t kk = static_cast<std::size_t>(k) * k;
    if (s.params.confusion.size() != static_cast<std::size_t>(s.data.n_workers) * kk)
        throw Error(CS_ERR_INTERNAL, "update: parameters of the wrong size");

    // The items the rounds work on: the touched ones and, from the rotation, untouched
    // items whose labels weigh update_sweep times the new ones (their share leaves the
    // sums too: every round redoes the E-step of the whole working set).
    std::vector<char> is_touched(static_cast<std::size_t>(s.data.n_items), 0);
    for (int32_t j : touched) is_touched[static_cast<std::size_t>(j)] = 1;
    const std::vector<int32_t> revisit = rotation(s, is_touched, options.update_sweep * static_cast<double>(change.added));
    std::vector<int32_t> working;
    working.reserve(touched.size() + revisit.size());
    std::merge(touched.begin(), touched.end(), revisit.begin(), revisit.end(), std::back_inserter(working));

    // The rounds run on a gathered copy of the working items (items 0 .. W-1 there).
    Gathered gathered(s, working);
    const ItemView v = gathered.view();
    std::vector<int32_t> local_revisit;
    for (std::size_t t = 0; t < working.size(); ++t)
        if (!is_touched[static_cast<std::size_t>(working[t])]) local_revisit.push_back(static_cast<int32_t>(t));
    remove_items(s, v, local_revisit);
    // From here the sums hold every item but the working ones; each round puts the
    // working items' new shares in (e_step_settle: in place of the old ones after the
    // first round) and the log-likelihood is the rest's plus theirs.
    const double rest_log_likelihood = s.log_likelihood;
    const int64_t n_working = static_cast<int64_t>(working.size());
    std::vector<double> trace;
    RoundScratch rounds;
    // The classifier's counts of the items outside the working set, once.
    const std::vector<double> model_rest = model_counts_outside(s, working);
    RoundStop stop;
    std::vector<int32_t> near_tie;  // working items whose label later rounds could still change
    for (int32_t round = 0; round < options.update_rounds; ++round) {
        double margin = 0.0;
        const double moved =
            incremental_round(s, em, gathered, round > 0, rest_log_likelihood, model_rest, rounds, trace, margin);
        if (round > 0 && moved <= kSettled) break;
        // The first round's move is the new labels' arrival, not EM's convergence: the
        // rate is measured from the second on.
        if (round == 0) continue;
        const double safe = stop.safe_margin(moved);
        if (margin > safe) break;  // no label can change any more
        if (safe < std::numeric_limits<double>::infinity()) {
            // Converging linearly, with a few items near a tie: the rounds go on for
            // those alone (settle_near_ties).
            for (int64_t t = 0; t < n_working; ++t)
                if (v.data.gold_of(static_cast<int32_t>(t)) < 0 && !v.impossible[t] &&
                    ds::top_margin(v.q + t * k, k) <= safe)
                    near_tie.push_back(working[static_cast<std::size_t>(t)]);
            break;
        }
    }
    keep_item_terms(gathered, rounds);
    gathered.scatter(s, working);
    s.narrowed_items = static_cast<int64_t>(near_tie.size());
    if (!near_tie.empty())
        settle_near_ties(s, em, near_tie, options.update_rounds - static_cast<int32_t>(trace.size()), rounds, trace);
    s.incremental = true;
    mark_ties(s, working);
    // The calibration: re-fitted once the labels grew enough since it was fitted.
    const double labels_now = static_cast<double>(s.data.n_labels());
    const bool refit_calibration =
        options.calibration != CS_CALIBRATION_NONE &&
        labels_now >= static_cast<double>(s.calibrated_labels) * (1.0 + options.update_recalibrate);
    if (refit_calibration || options.calibration == CS_CALIBRATION_NONE) {
        s.temperature = 1.0;
        s.mixing = 0.0;
        s.calibration = CS_CALIBRATION_NONE;
    }
    const bool in_place = !refit_calibration && refreshable_in_place(s, out, old_items);
    {
        // The results of an update: the arrays of the previous ones are reused (in place
        // for the rows that stay), every other field starts afresh.
        FitResult next;
        next.posteriors = std::move(out.posteriors);
        next.labels = std::move(out.labels);
        out = std::move(next);
    }
    out.trace = std::move(trace);
    out.iterations = static_cast<int32_t>(out.trace.size());
    out.converged = true;
    if (in_place) {
        shared_results(s, out);
        out.posteriors.resize(static_cast<std::size_t>(s.data.n_items) * k);
        out.labels.resize(static_cast<std::size_t>(s.data.n_items));
        // The rows to refresh: the items worked on and every tied item (whose settling
        // reads the workers' current confusion matrices).
        std::vector<int32_t> rows;
        if (s.n_tied > 0) {
            std::vector<int32_t> tied;
            for (int32_t j = 0; j < s.data.n_items; ++j)
                if (s.tied[static_cast<std::size_t>(j)]) tied.push_back(j);
            rows.reserve(working.size() + tied.size());
            std::set_union(working.begin(), working.end(), tied.begin(), tied.end(), std::back_inserter(rows));
        } else {
            rows = working;
        }
        for (std::size_t t = 0; t < rows.size(); ++t) {
            if (t + kFetchAhead < rows.size()) {  // the rows read and written kFetchAhead items on (ItemsAhead)
                const int32_t a = rows[t + kFetchAhead];
                __builtin_prefetch(s.q.data() + static_cast<int64_t>(a) * k);
                __builtin_prefetch(out.posteriors.data() + static_cast<int64_t>(a) * k, 1);
                __builtin_prefetch(out.labels.data() + a, 1);
            }
            const int32_t j = rows[t];
            double *row = out.posteriors.data() + static_cast<int64_t>(j) * k;
            std::copy_n(s.q.data() + static_cast<int64_t>(j) * k, k, row);
            out.labels[j] = argmax_row(row, k);
        }
        resolve_ties_of_items(s.data, out, rows);
        if (s.temperature != 1.0 || s.mixing != 0.0) {
            std::vector<double> scratch(2 * static_cast<std::size_t>(k));  // calibrate_item's
            for (int32_t j : rows) calibrate_item(s, j, out, scratch.data());
        }
        add_notes(s, out);
        s.refreshed_rows = static_cast<int64_t>(rows.size());
        return UpdatePath::Incremental;
    }
    results_from_state(s, options, out);
    s.refreshed_rows = s.data.n_items;
    if (refit_calibration) {
        FitResult raw = out;  // the posteriors before calibration, ties settled
        calibrate_crowd_posteriors(s.data, em, raw);
        s.temperature = raw.temperature;
        s.mixing = raw.mixing;
        s.calibration = raw.calibration;
        s.calibrated_labels = static_cast<int64_t>(s.data.n_labels());
        out.posteriors = std::move(raw.posteriors);
        out.labels = std::move(raw.labels);
        out.temperature = s.temperature;
        out.mixing = s.mixing;
        out.calibration = s.calibration;
    }
    return UpdatePath::Incremental;
}

}  // namespace cs
