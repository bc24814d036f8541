// SPDX-License-Identifier: MIT
#include "crowd/em/degenerate_fit.hpp"

#include "data/crowd_shard.hpp"
#include "util/parallel.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace cs {

namespace {

// EM approaches a degenerate maximum slowly (the likelihood is flat along it) and stops
// on the log-likelihood: with tol = 1e-10 the rows of confounded classes and the tied
// posteriors were seen up to 1.4e-6 apart. Distinct classes differ far more.
constexpr double kRowTolerance = 1e-4;
constexpr double kTie = 1e-4;
// A row the M-step had no mass for is uniform (apply_confusion_model), exactly or, with
// smoothing, to rounding.
constexpr double kUniform = 1e-12;

bool tied_with(const double *q, int32_t l, int32_t top) { return std::fabs(q[l] - q[top]) <= kTie * q[top]; }

class Confounding {
public:
    Confounding(const CrowdData &data, const FitResult &out) : data_(data), out_(out), k_(data.k) {}

    /// Whether classes a and b are confounded: for every worker their rows are equal, or
    /// one of the two classes has no posterior mass on the worker's items.
    bool confounded(int32_t a, int32_t b) {
        // A massless row is uniform, so a pair that differs even where a uniform row may
        // match anything is told apart: that settles almost every pair without the
        // masses, which need a pass over the labels.
        if (!pair_matches(a, b, false) || !model_matches(a, b)) return false;
        if (mass_.empty()) compute_masses();
        return pair_matches(a, b, true);
    }
    /// The test of confounded() before the masses: true for every confounded pair.
    bool may_be_confounded(int32_t a, int32_t b) const { return pair_matches(a, b, false) && model_matches(a, b); }

private:
    const double *row(int32_t i, int32_t l) const {
        return out_.confusion.data() + (static_cast<int64_t>(i) * k_ + l) * k_;
    }

    bool rows_equal(const double *x, const double *y) const {
        for (int32_t c = 0; c < k_; ++c)
            if (!(std::fabs(x[c] - y[c]) <= kRowTolerance)) return false;
        return true;
    }

    bool uniform(const double *x) const {
        const double u = 1.0 / k_;
        for (int32_t c = 0; c < k_; ++c)
            if (!(std::fabs(x[c] - u) <= kUniform)) return false;
        return true;
    }

    bool massless(int32_t i, int32_t l, bool exact) const {
        if (!exact) return uniform(row(i, l));
        return !(mass_[static_cast<std::size_t>(i) * k_ + l] > 0.0);
    }

    // Model probabilities (crowd/em/model_worker.hpp): the model tells a and b apart
    // when its confusion rows for them differ.
    bool model_matches(int32_t a, int32_t b) const {
        if (out_.model_confusion.empty()) return true;
        return rows_equal(out_.model_confusion.data() + static_cast<int64_t>(a) * k_,
                          out_.model_confusion.data() + static_cast<int64_t>(b) * k_);
    }

    bool pair_matches(int32_t a, int32_t b, bool exact) const {
        for (int32_t i = 0; i < data_.n_workers; ++i)
            if (!rows_equal(row(i, a), row(i, b)) && !massless(i, a, exact) && !massless(i, b, exact))
                return false;
        return true;
    }

    // mass[i][l]: posterior mass of class l over worker i's labels (the M-step's row mass).
    void compute_masses() {
        mass_.assign(static_cast<std::size_t>(data_.n_workers) * k_, 0.0);
        for (int32_t j = 0; j < data_.n_items; ++j) {
            const double *q = out_.posteriors.data() + static_cast<int64_t>(j) * k_;
            for (int64_t p = data_.item_start[j]; p < data_.item_start[j + 1]; ++p) {
                double *m = mass_.data() + static_cast<int64_t>(data_.worker_of(p)) * k_;
                for (int32_t l = 0; l < k_; ++l) m[l] += q[l];
            }
        }
        // A distributed fit: the masses of the whole problem (every process calls this
        // at the same point, see resolve_degenerate_ties).
        sum_over_shards(data_, mass_.data(), mass_.size());
    }

    const CrowdData &data_;
    const FitResult &out_;
    const int32_t k_;
    std::vector<double> mass_;
};

// The model's likelihood of item j under class t, sum_o p_j(o) pi_M[t][o].
double model_likelihood(const CrowdData &data, const FitResult &out, int32_t j, int32_t t) {
    const int32_t k = data.k;
    const double *p = data.model_probs + static_cast<int64_t>(j) * k;
    const double *row = out.model_confusion.data() + static_cast<int64_t>(t) * k;
    double sum = 0.0;
    for (int32_t o = 0; o < k; ++o) sum += p[o] * row[o];
    return sum;
}

// Per-item scratch of settle_item.
struct ItemScratch {
    explicit ItemScratch(int32_t k)
        : votes(static_cast<std::size_t>(k)), before(static_cast<std::size_t>(k)), in(static_cast<std::size_t>(k)) {}
    std::vector<double> votes, before;
    std::vector<char> in;
};

// The per-item part of resolve_degenerate_ties for labelled, non-gold item j, whose
// label's confounded classes are `with_top`: its set of classes, and when that holds two
// or more with votes, their mass shared by the votes. Returns whether its row changed.
bool settle_item(const CrowdData &data, FitResult &out, const std::vector<int32_t> &with_top, int32_t j,
                 ItemScratch &scratch) {
    const int32_t k = data.k;
    std::vector<double> &votes = scratch.votes, &before = scratch.before;
    std::vector<char> &in = scratch.in;
    const int64_t begin = data.item_start[j], end = data.item_start[j + 1];
    const int32_t top = out.labels[j];
    // An impossible item (zero likelihood under its label, hence under every
    // class) keeps the prior it was given (CS_NOTE_IMPOSSIBLE_ITEMS).
    bool possible = true;
    for (int64_t p = begin; p < end && possible; ++p)
        possible =
            out.confusion[(static_cast<int64_t>(data.worker_of(p)) * k + top) * k + data.label_of(p)] > 0.0;
    if (!possible) return false;
    // The item's set: its label, the classes confounded with it by the whole
    // fit, and the classes tied with it whose entries for this item's labels are
    // the label's for every worker who gave them (a tie only the index rule
    // decided).
    double *q = out.posteriors.data() + static_cast<int64_t>(j) * k;
    std::fill(in.begin(), in.end(), 0);
    in[top] = 1;
    for (int32_t l : with_top) in[l] = 1;
    for (int32_t l = 0; l < k; ++l) {
        if (in[l] || !tied_with(q, l, top)) continue;
        bool clone = true;
        for (int64_t p = begin; p < end && clone; ++p) {
            const double *pi = out.confusion.data() + static_cast<int64_t>(data.worker_of(p)) * k * k;
            const int32_t c = data.label_of(p);
            clone = std::fabs(pi[static_cast<int64_t>(top) * k + c] - pi[static_cast<int64_t>(l) * k + c]) <=
                    kRowTolerance;
        }
        if (clone && data.model_probs != nullptr && !out.model_confusion.empty())
            clone = std::fabs(model_likelihood(data, out, j, top) - model_likelihood(data, out, j, l)) <=
                    kRowTolerance;
        in[l] = clone;
    }
    std::fill(votes.begin(), votes.end(), 0.0);
    double voted = 0.0, mass = 0.0;
    int32_t members = 0;
    for (int64_t p = begin; p < end; ++p) votes[data.label_of(p)] += 1.0;
    for (int32_t l = 0; l < k; ++l)
        if (in[l]) voted += votes[l], ++members;
    if (members < 2 || voted == 0.0) return false;  // nothing confounded, or nothing to go by
    std::copy(q, q + k, before.begin());
    // Their mass as the complement of the other classes' (exactly 1 when they
    // are all of them), so the row still sums to 1 and no entry exceeds it.
    mass = 1.0;
    for (int32_t l = 0; l < k; ++l)
        if (!in[l]) mass -= q[l];
    mass = std::max(0.0, mass);
    for (int32_t l = 0; l < k; ++l)
        if (in[l]) q[l] = mass * votes[l] / voted;
    int32_t best = 0;
    for (int32_t l = 1; l < k; ++l)
        if (q[l] > q[best]) best = l;
    out.labels[j] = best;
    return !std::equal(q, q + k, before.begin());
}

// The note of resolve_degenerate_ties when `changed` items changed; `which` names the first.
void degenerate_note(int64_t changed, const std::string &which, FitResult &out) {
    if (changed == 0) return;
    out.notes |= CS_NOTE_DEGENERATE_MAXIMUM;
    out.note_message += "EM ended at a degenerate maximum: " + std::to_string(changed) + " items" + which +
                        " had a label that no worker's confusion matrix tells apart from other "
                        "classes; those classes share the item's posterior by its votes (majority "
                        "vote among them). ";
}

}  // namespace

int64_t resolve_degenerate_ties(const CrowdData &data, FitResult &out, int32_t threads) {
    const int32_t k = data.k;
    if (out.posteriors.size() != static_cast<std::size_t>(data.n_items) * k ||
        out.confusion.size() != static_cast<std::size_t>(data.n_workers) * k * k ||
        out.labels.size() != static_cast<std::size_t>(data.n_items))
        return 0;
    Confounding confounding(data, out);
    // The classes confounded with each label that some labelled, non-gold item has (all
    // of them in a distributed fit, so that every process makes the same collective calls
    // -- the masses' sum -- whatever its own items are). They are computed before any
    // item changes, from EM's posteriors: they depend only on the fit, so the items can
    // then be taken in any order, and a distributed fit gets the single-process sets.
    std::vector<std::vector<int32_t>> with(static_cast<std::size_t>(k));
    std::vector<char> needed(static_cast<std::size_t>(k), data.shard != nullptr);
    for (int32_t j = 0; j < data.n_items; ++j)
        if (data.item_start[j] < data.item_start[j + 1] && data.gold_of(j) < 0) needed[out.labels[j]] = 1;
    for (int32_t top = 0; top < k; ++top)
        if (needed[top])
            for (int32_t l = 0; l < k; ++l)
                if (l != top && confounding.confounded(top, l)) with[top].push_back(l);

    // An item's set can hold a second class only when its label is confounded with
    // another class by the whole fit, or another class's posterior ties its label's:
    // that test reads only the item's posterior row, so the items for which neither
    // holds (nearly all of them, unless the fit is degenerate) skip the passes over their
    // labels below, which decode every label and read a random row of the confusion
    // table for it (10^7 labels from 10^5 workers, k = 2: about 2 EM rounds' time).
    const auto may_change = [&](int32_t j) {
        const int32_t top = out.labels[j];
        if (!with[static_cast<std::size_t>(top)].empty()) return true;
        return posterior_tied(out.posteriors.data() + static_cast<int64_t>(j) * k, k, top);
    };
    const bool any_confounded =
        std::any_of(with.begin(), with.end(), [](const std::vector<int32_t> &w) { return !w.empty(); });

    // Items in fixed blocks on the fit's threads; each block counts its changed items
    // and its first, combined in block order.
    constexpr int32_t kBlockItems = 8192;
    const int64_t blocks = chunk_count(data.n_items, kBlockItems);
    std::vector<int64_t> block_changed(static_cast<std::size_t>(blocks), 0), block_first(static_cast<std::size_t>(blocks), -1);
    Team team(threads_for(threads, static_cast<int64_t>(data.n_labels())));
    // In a degenerate fit most items are checked, and with many workers the confusion
    // rows their checks read are random lines of a table beyond the caches, one per
    // label: the rows of the item kAhead further on are requested in advance (10^7
    // labels from 10^5 workers: the check took about a third of a 10-round k = 2 fit's
    // E-step time without it). Otherwise the few items checked are not worth it.
    constexpr int32_t kAhead = 8;
    const bool prefetch = any_confounded && out.confusion.size() * sizeof(double) > (std::size_t(1) << 20);
    team.run(blocks, [&](int64_t b) {
        ItemScratch scratch(k);
        int64_t changed = 0, first = -1;
        const int32_t last_item = static_cast<int32_t>(std::min<int64_t>(data.n_items, (b + 1) * kBlockItems));
        for (int32_t j = static_cast<int32_t>(b * kBlockItems); j < last_item; ++j) {
            if (prefetch && j + kAhead < last_item) {
                const int32_t ahead = j + kAhead, label = out.labels[ahead];
                for (int64_t p = data.item_start[ahead]; p < data.item_start[ahead + 1]; ++p)
                    __builtin_prefetch(out.confusion.data() +
                                       (static_cast<int64_t>(data.worker_of(p)) * k + label) * k + data.label_of(p));
            }
            if (data.item_start[j] == data.item_start[j + 1] || data.gold_of(j) >= 0 || !may_change(j)) continue;
            if (settle_item(data, out, with[static_cast<std::size_t>(out.labels[j])], j, scratch)) {
                if (first < 0) first = j;
                ++changed;
            }
        }
        block_changed[static_cast<std::size_t>(b)] = changed;
        block_first[static_cast<std::size_t>(b)] = first;
    });
    int64_t changed = 0, first = -1;
    for (int64_t b = 0; b < blocks; ++b) {
        changed += block_changed[static_cast<std::size_t>(b)];
        if (first < 0) first = block_first[static_cast<std::size_t>(b)];
    }
    std::string which = " (the first is item " + std::to_string(first) + ")";
    if (data.shard != nullptr) {
        // Every process reports the count of the whole problem, and the same note.
        uint64_t total = static_cast<uint64_t>(changed);
        sum_over_shards(data, &total, 1);
        changed = static_cast<int64_t>(total);
        which = "";
    }
    degenerate_note(changed, which, out);
    return changed;
}

int64_t resolve_ties_of_items(const CrowdData &data, FitResult &out, const std::vector<int32_t> &items) {
    const std::vector<int32_t> confounded_with_none;
    ItemScratch scratch(data.k);
    int64_t changed = 0, first = -1;
    for (int32_t j : items) {
        if (data.item_start[j] == data.item_start[j + 1] || data.gold_of(j) >= 0) continue;
        if (!posterior_tied(out.posteriors.data() + static_cast<int64_t>(j) * data.k, data.k, out.labels[j])) continue;
        if (settle_item(data, out, confounded_with_none, j, scratch)) {
            if (first < 0) first = j;
            ++changed;
        }
    }
    degenerate_note(changed, " (the first is item " + std::to_string(first) + ")", out);
    return changed;
}

bool posterior_tied(const double *q, int32_t k, int32_t top) {
    for (int32_t l = 0; l < k; ++l)
        if (l != top && tied_with(q, l, top)) return true;
    return false;
}

bool classes_may_be_confounded(const CrowdData &data, const FitResult &out) {
    if (out.confusion.size() != static_cast<std::size_t>(data.n_workers) * data.k * data.k) return true;
    const Confounding confounding(data, out);
    for (int32_t a = 0; a < data.k; ++a)
        for (int32_t b = a + 1; b < data.k; ++b)
            if (confounding.may_be_confounded(a, b)) return true;
    return false;
}

}  // namespace cs
