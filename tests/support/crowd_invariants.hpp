// SPDX-License-Identifier: MIT
// What every crowd fit must satisfy, checked through the public C API only, and the
// random tiny crowds that exercise it. Shared by the degenerate sweep
// (tests/test_degenerate_sweep.cpp) and the cs_fit fuzz target (tests/fuzz/).
//
// check_crowd_fit() returns "" or a description of the first violated invariant:
// - every number is finite; posteriors in [0, 1] with rows summing to 1; labels in
//   [0, k) and equal to the argmax of their row (the first maximum); confusion rows and
//   the prior sum to 1; the trace has one entry per iteration and ends at the
//   log-likelihood (EM methods); gold items carry their gold class, one-hot;
//   converged is 0 or 1 and 0 after a cancel; notes carry only documented bits.
// unanimity_labels() is the oracle of issue 12: in a crowd where every labelled item
// has >= 2 labels that agree, or where every label is the same class, each labelled
// item's label must be that class.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "crowdspec/crowdspec.h"

namespace test {

/// splitmix64: a small, fully specified generator, so that the crowds do not depend
/// on the standard library's distributions.
struct SplitMix {
    uint64_t state;
    explicit SplitMix(uint64_t seed) : state(seed) {}
    uint64_t next() {
        uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    /// Uniform in [0, n), n > 0.
    int32_t below(int32_t n) { return static_cast<int32_t>(next() % static_cast<uint64_t>(n)); }
    double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
    bool chance(double p) { return unit() < p; }
};

struct Crowd {
    std::vector<int32_t> item, worker, label;
    std::vector<int32_t> gold_item, gold_label;
    int32_t n_items = 0;   // 1 + largest item id (labelled or gold)
    int32_t k_labels = 0;  // 1 + largest label (labels and gold)
    void add(int32_t j, int32_t i, int32_t c) {
        item.push_back(j);
        worker.push_back(i);
        label.push_back(c);
    }
};

/// The unanimous class of each item (n_items entries, -1 for an item without labels),
/// when the crowd is a unanimity crowd (every labelled item has >= 2 labels that agree,
/// or every label is the same class) and no gold item contradicts its labels; an empty
/// vector otherwise.
inline std::vector<int32_t> unanimity_labels(const Crowd &c, int32_t n_items) {
    std::vector<int32_t> cls(static_cast<std::size_t>(n_items), -1), count(cls.size(), 0);
    bool agree = true, one_class = true;
    for (std::size_t t = 0; t < c.item.size(); ++t) {
        int32_t &x = cls[c.item[t]];
        if (x >= 0 && x != c.label[t]) agree = false;
        x = c.label[t];
        ++count[c.item[t]];
        if (c.label[t] != c.label[0]) one_class = false;
    }
    if (!agree) return {};
    if (!one_class)
        for (std::size_t j = 0; j < cls.size(); ++j)
            if (cls[j] >= 0 && count[j] < 2) return {};
    // Gold must agree with the labels. Gold on an item without labels whose class no
    // worker gave anchors a class that no label describes: under the estimated prior the
    // likelihood is then higher when that class takes over a voted pattern (its rows are
    // free and its prior mass grows), which renames those items; such crowds are left out.
    for (std::size_t g = 0; g < c.gold_item.size(); ++g) {
        const int32_t j = c.gold_item[g];
        if (j < n_items && cls[j] >= 0 && cls[j] != c.gold_label[g]) return {};
        if (j < n_items && cls[j] < 0 &&
            std::find(c.label.begin(), c.label.end(), c.gold_label[g]) == c.label.end())
            return {};
    }
    return cls;
}

/// A random tiny crowd: 1..10 items, 1..6 workers, k 2..6, one of six label patterns
/// (random; unanimous items; one class everywhere; a noisy crowd around a truth;
/// workers who always give their own label; two of the classes only); sometimes gold.
inline Crowd random_crowd(SplitMix &rng, int32_t *k_out) {
    Crowd c;
    const int32_t n = 1 + rng.below(10), m = 1 + rng.below(6), k = 2 + rng.below(5);
    const int32_t mode = rng.below(6);
    const double density = rng.chance(0.3) ? 1.0 : 0.3 + 0.6 * rng.unit();
    const int32_t one = rng.below(k);
    std::vector<int32_t> truth(static_cast<std::size_t>(n)), own(static_cast<std::size_t>(m));
    std::vector<double> skill(static_cast<std::size_t>(m));
    for (auto &t : truth) t = mode == 5 ? rng.below(2) : rng.below(k);
    for (auto &o : own) o = rng.below(k);
    for (auto &s : skill) s = rng.unit();
    for (int32_t j = 0; j < n; ++j) {
        std::vector<int32_t> who;
        for (int32_t i = 0; i < m; ++i)
            if (rng.chance(density)) who.push_back(i);
        if (mode == 1 && who.size() == 1 && m >= 2) who.push_back((who[0] + 1) % m);
        for (int32_t i : who) {
            int32_t l = 0;
            switch (mode) {
                case 0: l = rng.below(k); break;
                case 1: l = truth[j]; break;
                case 2: l = one; break;
                case 3: l = rng.chance(skill[i]) ? truth[j] : rng.below(k); break;
                case 4: l = own[i]; break;
                default: l = rng.chance(0.8) ? truth[j] : 1 - truth[j]; break;
            }
            c.add(j, i, l);
        }
    }
    if (c.item.empty()) c.add(rng.below(n), rng.below(m), mode == 2 ? one : truth[0]);
    if (rng.chance(0.15)) {  // gold: the truth of a few items (which unanimous crowds share)
        for (int32_t j = 0; j < n; ++j)
            if (rng.chance(0.3)) {
                c.gold_item.push_back(j);
                c.gold_label.push_back(mode == 2 ? one : truth[j]);
            }
    }
    for (int32_t j : c.item) c.n_items = std::max(c.n_items, j + 1);
    for (int32_t j : c.gold_item) c.n_items = std::max(c.n_items, j + 1);
    for (int32_t l : c.label) c.k_labels = std::max(c.k_labels, l + 1);
    for (int32_t l : c.gold_label) c.k_labels = std::max(c.k_labels, l + 1);
    *k_out = k;
    return c;
}

/// Random values for the fitting parameters (by name, as a binding would set them).
inline std::vector<std::pair<std::string, std::string>> random_params(SplitMix &rng) {
    static const char *const priors[] = {"uniform", "estimated"};
    static const char *const supports[] = {"all", "answered", "auto"};
    static const char *const confusions[] = {"full", "one-coin", "class-one-coin"};
    static const char *const accels[] = {"none", "squarem"};
    static const char *const identifies[] = {"vote", "reference"};
    static const char *const groups[] = {"balanced", "reference"};
    std::vector<std::pair<std::string, std::string>> p;
    p.emplace_back("prior", priors[rng.below(2)]);
    p.emplace_back("support", supports[rng.below(3)]);
    if (rng.chance(0.3)) p.emplace_back("confusion", confusions[rng.below(3)]);
    p.emplace_back("accel", accels[rng.below(2)]);
    if (rng.chance(0.3)) p.emplace_back("identify", identifies[rng.below(2)]);
    if (rng.chance(0.3)) p.emplace_back("groups", groups[rng.below(2)]);
    if (rng.chance(0.3)) p.emplace_back("smoothing", rng.chance(0.5) ? "0.5" : "1");
    if (rng.chance(0.3)) p.emplace_back("starts", std::to_string(1 + rng.below(4)));
    if (rng.chance(0.2)) p.emplace_back("start_rounds", std::to_string(rng.below(3)));
    if (rng.chance(0.2)) p.emplace_back("delta", rng.chance(0.5) ? "0" : "0.01");
    if (rng.chance(0.5)) p.emplace_back("power_starts", std::to_string(1 + rng.below(20)));
    if (rng.chance(0.5)) p.emplace_back("power_iters", std::to_string(1 + rng.below(30)));
    const int32_t iters = rng.below(10);
    if (iters == 0) p.emplace_back("max_iter", "0");
    else if (iters == 1) p.emplace_back("max_iter", "1");
    else if (iters == 2) {
        p.emplace_back("max_iter", std::to_string(2 + rng.below(5)));
        if (rng.chance(0.5)) p.emplace_back("tol", "0");
    }
    if (rng.chance(0.2)) p.emplace_back("tol", "1e-6");
    p.emplace_back("seed", std::to_string(rng.next() >> 1));
    return p;
}

struct FitReadout {
    size_t n_items = 0, n_workers = 0, k = 0;
    std::vector<int32_t> labels;
    std::vector<double> posteriors, confusion, prior, trace;
    int32_t iterations = -1, converged = -1, notes = -1;
    double log_likelihood = 0.0;
};

inline std::string status_text(const char *what, cs_status s, const cs_model *m) {
    return std::string(what) + " returned " + cs_status_string(s) + ": " + cs_last_error(m);
}

/// Reads every result of a fitted handle; "" or what failed.
inline std::string read_fit(const cs_model *m, FitReadout &r) {
    cs_status s;
    if ((s = cs_n_items(m, &r.n_items)) != CS_OK) return status_text("cs_n_items", s, m);
    if ((s = cs_n_workers(m, &r.n_workers)) != CS_OK) return status_text("cs_n_workers", s, m);
    if ((s = cs_n_classes(m, &r.k)) != CS_OK) return status_text("cs_n_classes", s, m);
    size_t tl = 0;
    if ((s = cs_trace_length(m, &tl)) != CS_OK) return status_text("cs_trace_length", s, m);
    r.labels.assign(r.n_items, -1);
    r.posteriors.assign(r.n_items * r.k, -1.0);
    r.confusion.assign(r.n_workers * r.k * r.k, -1.0);
    r.prior.assign(r.k, -1.0);
    r.trace.assign(tl, 0.0);
    double none = 0.0;  // a valid pointer for an empty result (NULL is CS_ERR_NULL_POINTER)
    if ((s = cs_labels(m, r.labels.data(), r.labels.size())) != CS_OK) return status_text("cs_labels", s, m);
    if ((s = cs_posteriors(m, r.posteriors.data(), r.posteriors.size())) != CS_OK)
        return status_text("cs_posteriors", s, m);
    if ((s = cs_confusion(m, r.confusion.empty() ? &none : r.confusion.data(), r.confusion.size())) != CS_OK)
        return status_text("cs_confusion", s, m);
    if ((s = cs_class_prior(m, r.prior.data(), r.prior.size())) != CS_OK)
        return status_text("cs_class_prior", s, m);
    if ((s = cs_trace(m, r.trace.empty() ? &none : r.trace.data(), r.trace.size())) != CS_OK)
        return status_text("cs_trace", s, m);
    if ((s = cs_iterations(m, &r.iterations)) != CS_OK) return status_text("cs_iterations", s, m);
    if ((s = cs_converged(m, &r.converged)) != CS_OK) return status_text("cs_converged", s, m);
    if ((s = cs_fit_notes(m, &r.notes)) != CS_OK) return status_text("cs_fit_notes", s, m);
    if ((s = cs_log_likelihood(m, &r.log_likelihood)) != CS_OK)
        return status_text("cs_log_likelihood", s, m);
    return "";
}

inline bool em_method(int32_t method) {
    return method == CS_METHOD_DS || method == CS_METHOD_OPT_DS || method == CS_METHOD_ONE_COIN_DS ||
           method == CS_METHOD_CLASS_ONE_COIN_DS || method == CS_METHOD_AUTO;
}

inline std::string describe(const char *what, std::size_t index, double value) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s [%zu] = %.17g", what, index, value);
    return buf;
}

/// The invariants of a crowd fit that returned CS_OK or CS_ERR_CANCELLED (see the
/// file comment). gold: the gold set given to cs_set_gold(). "" when all hold.
inline std::string check_crowd_fit(const cs_model *m, int32_t method, bool cancelled,
                                   const std::vector<int32_t> &gold_item,
                                   const std::vector<int32_t> &gold_label, FitReadout *out = nullptr) {
    FitReadout local;
    FitReadout &r = out ? *out : local;
    std::string e = read_fit(m, r);
    if (!e.empty()) return e;
    const size_t k = r.k;
    if (k < 2) return "k < 2";
    for (size_t j = 0; j < r.n_items; ++j) {
        const double *q = r.posteriors.data() + j * k;
        double sum = 0.0;
        size_t best = 0;
        for (size_t l = 0; l < k; ++l) {
            if (!std::isfinite(q[l]) || q[l] < 0.0 || q[l] > 1.0)
                return describe("posterior", j * k + l, q[l]);
            sum += q[l];
            if (q[l] > q[best]) best = l;
        }
        if (!(std::fabs(sum - 1.0) <= 1e-9)) return describe("posterior row sum", j, sum);
        if (r.labels[j] < 0 || static_cast<size_t>(r.labels[j]) >= k)
            return describe("label", j, r.labels[j]);
        if (static_cast<size_t>(r.labels[j]) != best)
            return describe("label differs from the argmax of its posterior, item", j, r.labels[j]);
    }
    for (size_t row = 0; row < r.n_workers * k; ++row) {
        double sum = 0.0;
        for (size_t c = 0; c < k; ++c) {
            const double v = r.confusion[row * k + c];
            if (!std::isfinite(v) || v < 0.0 || v > 1.0) return describe("confusion", row * k + c, v);
            sum += v;
        }
        if (!(std::fabs(sum - 1.0) <= 1e-9)) return describe("confusion row sum", row, sum);
    }
    double prior_sum = 0.0;
    for (size_t l = 0; l < k; ++l) {
        if (!std::isfinite(r.prior[l]) || r.prior[l] < 0.0) return describe("prior", l, r.prior[l]);
        prior_sum += r.prior[l];
    }
    if (!(std::fabs(prior_sum - 1.0) <= 1e-9)) return describe("prior sum", 0, prior_sum);
    for (size_t t = 0; t < r.trace.size(); ++t)
        if (!std::isfinite(r.trace[t])) return describe("trace", t, r.trace[t]);
    if (!std::isfinite(r.log_likelihood)) return describe("log-likelihood", 0, r.log_likelihood);
    if (r.iterations < 0) return describe("iterations", 0, r.iterations);
    if (r.trace.size() != static_cast<size_t>(r.iterations))
        return describe("trace length differs from iterations", r.trace.size(), r.iterations);
    if (em_method(method) && !r.trace.empty() && r.log_likelihood != r.trace.back())
        return describe("log-likelihood differs from the last trace entry", 0, r.log_likelihood);
    if (r.converged != 0 && r.converged != 1) return describe("converged", 0, r.converged);
    if (cancelled && r.converged != 0) return "converged = 1 after a cancel";
    if (cancelled != ((r.notes & CS_NOTE_CANCELLED) != 0)) return describe("cancel note", 0, r.notes);
    const int32_t known = CS_NOTE_MAX_ITER_REACHED | CS_NOTE_SPECTRAL_FALLBACK | CS_NOTE_IMPOSSIBLE_ITEMS |
                          CS_NOTE_UNLABELED_ITEMS | CS_NOTE_CANCELLED | CS_NOTE_IGNORED_EDGES |
                          CS_NOTE_ISOLATED_NODES | CS_NOTE_EMPTY_CLUSTER | CS_NOTE_LABEL_CYCLE |
                          CS_NOTE_EIGEN_NOT_CONVERGED | CS_NOTE_MAJORITY_START | CS_NOTE_UNKNOWN_WORKERS |
                          CS_NOTE_DEGENERATE_MAXIMUM | CS_NOTE_CROWDLAB_FALLBACK;  // the documented bits
    if ((r.notes & ~known) != 0) return describe("undocumented note bits", 0, r.notes);
    for (size_t g = 0; g < gold_item.size(); ++g) {
        const size_t j = static_cast<size_t>(gold_item[g]);
        const int32_t y = gold_label[g];
        if (r.labels[j] != y) return describe("gold item not pinned, item", j, r.labels[j]);
        if (r.posteriors[j * k + static_cast<size_t>(y)] != 1.0)
            return describe("gold posterior not one-hot, item", j, r.posteriors[j * k + y]);
    }
    return "";
}

}  // namespace test
