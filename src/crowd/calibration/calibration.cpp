// SPDX-License-Identifier: MIT
#include "crowd/calibration/calibration.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "crowd/em/confusion_model.hpp"
#include "crowd/em/model_worker.hpp"
#include "crowd/soft_counts.hpp"
#include "priors/pooled_prior.hpp"
#include "data/crowd_shard.hpp"
#include "data/item_partitions.hpp"
#include "util/fast_mod.hpp"
#include "util/parallel.hpp"
#include "util/per_class.hpp"

namespace cs {

namespace {

// At most this many held-out labels enter the objective (a deterministic subsample of
// whole items above it): T is one number, and 2*10^5 labels fix it to well under the
// spread between data sets, at a cost that stays flat beyond 10^6 labels.
constexpr int64_t kCalibrationLabels = 200000;
// The temperature's range from held-out labels: [1, 10]. Up to 10: a posterior five
// labels strong then counts as half a label. From 1: the model multiplies one term per
// label as if an item's labels were independent given its class; real crowds break that
// by shared mistakes, which make the posterior overconfident (T > 1), and no crowd
// process makes errors cancel, which T < 1 would claim. The held-out criterion chose
// T < 1 on crowds of many sparse workers (mill 0.20, labelme 0.56, ms 0.85, product
// 0.96) and sharpened posteriors that were already too sure there (docs/defaults.md).
// Not because a one-label worker's held-out label leaves its row at its stratum's
// centre, as once thought: without the held-out labels of workers with fewer than 2 (or
// 5) labels T stays the same (mill 0.20 with 21,702 of its 105,569 held-out labels
// dropped; labelme and ms have no such labels in the sample).
constexpr double kLowTemperature = 1.0, kHighTemperature = 10.0;
// From gold the range is wider, on both sides: gold measures the truth itself.
constexpr double kLowGoldTemperature = 0.2, kHighGoldTemperature = 200.0;
// Golden-section steps on log T (gold): the bracket shrinks to 0.618^24 = 1e-5 of its width.
constexpr int kGoldenSteps = 24;
// Mixing weights tried with gold: 0, 0.02, ..., 0.4.
constexpr int kMixingSteps = 20;
constexpr double kMixingStep = 0.02;
constexpr double kNegInf = -std::numeric_limits<double>::infinity();

// Whether an item's posterior is restricted to the classes its workers gave
// (CS_PARAM_SUPPORT), as in the E-step.
bool answered_support(const FitOptions &options, int32_t k) {
    return options.support == CS_SUPPORT_ANSWERED || (options.support == CS_SUPPORT_AUTO && k >= 3);
}

// What the held-out rows are made from: the M-step counts of the final posteriors,
// total[w][o][t] = sum over worker w's labels o of q_j(t) (the M-step's layout, workers
// x observed x true), and the pseudo-counts each worker's rows get: the model's own
// prior (smoothing, the pooled or stratified centre: priors/pooled_prior.hpp), else
// one pooled pseudo-label per row, the smallest proper prior.
struct RowCounts {
    int32_t k = 0;
    int32_t model = CS_CONFUSION_FULL;
    double smoothing = 0.0;
    std::vector<double> total;
    std::vector<double> tables;   // pseudo-counts, true x observed: one table, or one per stratum
    std::vector<int32_t> strata;  // each worker's table (empty: table 0 for all)
    // The full model's row masses, workers x true class: sum over c of smoothing +
    // n_w[t][c] (below 1e-12: 0) + a[t][c]; empty for the other models.
    std::vector<double> row_mass;
    const double *pseudo(int32_t w) const {
        const int64_t kk = static_cast<int64_t>(k) * k;
        return tables.data() + (strata.empty() ? 0 : strata[static_cast<std::size_t>(w)] * kk);
    }
};

RowCounts row_counts(const CrowdData &data, const FitOptions &options, const FitResult &fit) {
    RowCounts rc;
    const int32_t k = data.k;
    rc.k = k;
    rc.model = options.confusion;
    rc.smoothing = options.smoothing;
    const int64_t kk = static_cast<int64_t>(k) * k;
    rc.total.assign(static_cast<std::size_t>(data.n_workers * kk + k), 0.0);
    double *class_mass = rc.total.data() + data.n_workers * kk;  // summed with the counts
    if (fit.posterior_counts.size() == static_cast<std::size_t>(data.n_workers * kk) &&
        fit.posterior_class_mass.size() == static_cast<std::size_t>(k)) {
        // EM's last E-step counted these posteriors already (FitResult::posterior_counts):
        // the same sums, added in partition order, with no pass over the labels.
        std::copy(fit.posterior_counts.begin(), fit.posterior_counts.end(), rc.total.begin());
        std::copy(fit.posterior_class_mass.begin(), fit.posterior_class_mass.end(), class_mass);
    } else {
        with_classes(k, [&](auto kc) {  // [w][o][.], as the tempered rows are counted below
            add_soft_counts_of_items<decltype(kc)::value>(data, 0, data.n_items, k, fit.posteriors.data(),
                                                          rc.total.data(), class_mass);
        });
    }
    sum_over_shards(data, rc.total.data(), rc.total.size());
    FitOptions prior = options;
    if (options.smoothing_center == CS_SMOOTHING_CENTER_STRATA) {
        // Each worker's labels are the sum of its count row (every label adds a
        // posterior row that sums to 1), rounded: no pass over the labels of its own.
        std::vector<uint64_t> labels(static_cast<std::size_t>(data.n_workers));
        for (int32_t w = 0; w < data.n_workers; ++w) {
            double n = 0.0;
            for (int64_t e = 0; e < kk; ++e) n += rc.total[static_cast<std::size_t>(w * kk + e)];
            labels[static_cast<std::size_t>(w)] = static_cast<uint64_t>(std::llround(n));
        }
        int32_t n_strata = 0;
        rc.strata = strata_of_counts(labels, n_strata);
        strata_pseudo_counts(rc.total.data(), class_mass, total_items(data), rc.strata, n_strata, k, prior, rc.tables);
        return rc;
    }
    if (options.smoothing_center != CS_SMOOTHING_CENTER_POOLED) {
        if (options.smoothing > 0.0) {
            rc.tables.assign(static_cast<std::size_t>(kk), 0.0);
            return rc;
        }
        prior.smoothing_strength = 1.0;  // the model has no prior: one pooled pseudo-label per row
    }
    pooled_pseudo_counts(rc.total.data(), data.n_workers, k, prior, rc.tables);
    return rc;
}

// The full model's row masses (RowCounts::row_mass), once per worker: a held-out
// column then costs O(k) instead of a k x k table normalised per label.
void add_row_masses(RowCounts &rc, int32_t n_workers) {
    if (rc.model != CS_CONFUSION_FULL) return;
    const int32_t k = rc.k;
    const int64_t kk = static_cast<int64_t>(k) * k;
    rc.row_mass.assign(static_cast<std::size_t>(n_workers * static_cast<int64_t>(k)), 0.0);
    for (int32_t w = 0; w < n_workers; ++w) {
        const double *n = rc.total.data() + w * kk;  // observed x true
        const double *a = rc.pseudo(w);              // true x observed
        for (int32_t t = 0; t < k; ++t) {
            double mass = 0.0;
            for (int32_t c = 0; c < k; ++c) {
                const double v = n[c * k + t];
                mass += rc.smoothing + (v < 1e-12 ? 0.0 : v) + a[t * k + c];
            }
            rc.row_mass[static_cast<std::size_t>(w * static_cast<int64_t>(k) + t)] = mass;
        }
    }
}

// Worker w's confusion column o with `drop[t]` taken out of the counts n_w[t][o] (the
// held-out label's share): the row the M-step would give without it, under the fit's
// confusion model. Writes k values to `column`; `scratch` holds k x k. The full model
// normalises each row by its mass, so its column is entry / mass with the mass
// corrected for the one entry that changes (the same value up to rounding).
void held_out_column(const RowCounts &rc, int32_t w, int32_t o, const double *drop, std::vector<double> &scratch,
                     double *column) {
    const int32_t k = rc.k;
    const int64_t kk = static_cast<int64_t>(k) * k;
    const double *n = rc.total.data() + w * kk;  // observed x true
    const double *a = rc.pseudo(w);              // true x observed
    if (!rc.row_mass.empty()) {
        const double *mass = rc.row_mass.data() + w * static_cast<int64_t>(k);
        for (int32_t t = 0; t < k; ++t) {
            const double kept = n[o * k + t], v = kept - drop[t];
            const double before = rc.smoothing + (kept < 1e-12 ? 0.0 : kept) + a[t * k + o];
            const double after = rc.smoothing + (v < 1e-12 ? 0.0 : v) + a[t * k + o];
            const double row = mass[t] - before + after;
            column[t] = row > 0.0 ? after / row : 1.0 / k;
        }
        return;
    }
    scratch.resize(static_cast<std::size_t>(kk));
    for (int32_t t = 0; t < k; ++t)
        for (int32_t c = 0; c < k; ++c) {
            double v = n[c * k + t] - (c == o ? drop[t] : 0.0);
            if (v < 1e-12) v = 0.0;  // the label's own share, less rounding
            scratch[t * k + c] = rc.smoothing + v + a[t * k + c];
        }
    apply_confusion_model(scratch.data(), k, rc.model);
    for (int32_t t = 0; t < k; ++t) column[t] = scratch[t * k + o];
}

// The log evidence of one item's labels for each class: sum of the finite log pi
// terms, the number of zero terms, and the labels given per class.
struct ItemEvidence {
    std::vector<double> finite;
    std::vector<int32_t> zeros, answered;
};

// label_mod: the remainder by k (a label's class is its code mod k).
void item_evidence(const CrowdData &data, const std::vector<double> &log_pi, int32_t j, const FastMod32 &label_mod,
                   ItemEvidence &ev) {
    const int32_t k = data.k;
    ev.finite.assign(k, 0.0);
    ev.zeros.assign(k, 0);
    ev.answered.assign(k, 0);
    for (int64_t p = data.item_start[j]; p < data.item_start[j + 1]; ++p) {
        const uint32_t code = data.item_code[p];
        ++ev.answered[label_mod(code)];
        const double *lp = log_pi.data() + static_cast<int64_t>(code) * k;  // log pi_w[.][o], by true class
        for (int32_t t = 0; t < k; ++t) {
            if (lp[t] == kNegInf) ++ev.zeros[t];
            else ev.finite[t] += lp[t];
        }
    }
}

// log pi laid out by code (worker * k + observed) then true class: one label's k
// terms are contiguous.
std::vector<double> log_pi_by_code(const FitResult &fit, int32_t n_workers, int32_t k) {
    const int64_t kk = static_cast<int64_t>(k) * k;
    std::vector<double> out(static_cast<std::size_t>(n_workers * kk));
    for (int32_t w = 0; w < n_workers; ++w)
        for (int32_t t = 0; t < k; ++t)
            for (int32_t o = 0; o < k; ++o) {
                const double v = fit.confusion[w * kk + t * k + o];
                out[(static_cast<int64_t>(w) * k + o) * k + t] = v > 0.0 ? std::log(v) : kNegInf;
            }
    return out;
}

int64_t global_item(const CrowdData &data, int32_t j) {
    return data.shard != nullptr ? data.shard->item_ids[static_cast<std::size_t>(j)] : j;
}

// Model probabilities (crowd/em/model_worker.hpp): each item's term m_j(t) at the fit's
// pi_M, which is part of the posterior that T tempers, so it is part of the evidence
// that predicts each held-out label (and of a gold item's) too: T is fitted on the
// very logits it is applied to. Empty without a model.
struct ModelTerms {
    std::vector<double> terms;
    const double *of(int32_t j, int32_t k) const {
        return terms.empty() ? nullptr : terms.data() + static_cast<int64_t>(j) * k;
    }
};

ModelTerms model_terms_of(const CrowdData &data, const FitResult &fit) {
    ModelTerms m;
    if (has_model(data) && !fit.model_confusion.empty()) model_log_terms(data, fit.model_confusion, m.terms);
    return m;
}

// Whether class t is an answer of item j: some label's, or the model's (model_answers).
bool answers(const CrowdData &data, const std::vector<int32_t> &answered, int32_t j, int32_t t) {
    return answered[t] > 0 || (has_model(data) && model_answers(data, j, t));
}

// Held-out labels of the sample, laid out for the objective: per label, its held-out
// column at the class of the largest tempered-posterior logit without it (that class's
// softmax term is exp(0) = 1 at every T: no exponential), then, for the other possible
// classes, the logit less that largest one (<= 0) and the column entry.
struct HeldOut {
    std::vector<double> top;     // per label
    std::vector<uint32_t> end;   // per label: the end of its other classes in s and c
    std::vector<double> s, c;    // the other possible classes of every label, in order
    std::size_t size() const { return top.size(); }
    void add(const double *logit, const double *column, int32_t k) {
        int32_t best = -1;
        for (int32_t t = 0; t < k; ++t)
            if (logit[t] != kNegInf && (best < 0 || logit[t] > logit[best])) best = t;
        top.push_back(column[best]);
        for (int32_t t = 0; t < k; ++t)
            if (t != best && logit[t] != kNegInf) {
                s.push_back(logit[t] - logit[best]);
                c.push_back(column[t]);
            }
        end.push_back(static_cast<uint32_t>(s.size()));
    }
};

HeldOut held_out_labels(const CrowdData &data, const FitOptions &options, const FitResult &fit,
                        const RowCounts &rc, const std::vector<double> &log_pi, const ModelTerms &model) {
    const int32_t k = data.k;
    HeldOut h;
    const bool restricted = answered_support(options, k);
    const int64_t stride = std::max<int64_t>(1, (total_labels(data) + kCalibrationLabels - 1) / kCalibrationLabels);
    // Room for the sample (about one label in `stride`, k - 1 other classes each).
    const std::size_t expected = static_cast<std::size_t>(data.n_labels() / static_cast<uint64_t>(stride)) + 16;
    h.top.reserve(expected);
    h.end.reserve(expected);
    h.s.reserve(expected * static_cast<std::size_t>(k - 1));
    h.c.reserve(expected * static_cast<std::size_t>(k - 1));
    const uint32_t k32 = static_cast<uint32_t>(k);
    const FastMod32 label_mod(k32);
    std::vector<double> log_w(k), drop(k), column(k), logit(k), scratch;
    for (int32_t t = 0; t < k; ++t) log_w[t] = fit.prior[t] > 0.0 ? std::log(fit.prior[t]) : kNegInf;
    ItemEvidence ev;
    for (int32_t j = 0; j < data.n_items; ++j) {
        const int64_t begin = data.item_start[j], end = data.item_start[j + 1];
        if (end - begin < 2 || data.gold_of(j) >= 0 || global_item(data, j) % stride != 0) continue;
        item_evidence(data, log_pi, j, label_mod, ev);
        const double *q = fit.posteriors.data() + static_cast<int64_t>(j) * k;
        const double *m = model.of(j, k);
        for (int64_t p = begin; p < end; ++p) {
            // One division a label for the worker, the class from it (a division each for
            // the class and the worker was a third of this loop's time at 10^6 labels).
            const uint32_t code = data.item_code[p], worker = code / k32;
            const int32_t o = static_cast<int32_t>(code - worker * k32);
            const double *lp = log_pi.data() + static_cast<int64_t>(code) * k;
            bool any = false;
            for (int32_t t = 0; t < k; ++t) {
                const bool own_zero = lp[t] == kNegInf;
                const bool answered = ev.answered[t] - (o == t ? 1 : 0) > 0 ||
                                      (m != nullptr && model_answers(data, j, t));
                const bool possible = ev.zeros[t] - (own_zero ? 1 : 0) == 0 && log_w[t] != kNegInf &&
                                      (!restricted || answered);
                const double model_term = m != nullptr ? m[t] : 0.0;
                logit[t] = possible ? log_w[t] + ev.finite[t] - (own_zero ? 0.0 : lp[t]) + model_term : kNegInf;
                any = any || possible;
            }
            if (!any) continue;  // the rest of the item allows no class: nothing to predict from
            for (int32_t t = 0; t < k; ++t) drop[t] = q[t];
            held_out_column(rc, static_cast<int32_t>(worker), o, drop.data(), scratch, column.data());
            h.add(logit.data(), column.data(), k);
        }
    }
    return h;
}

// softmax(logit / T + model) over the finite logits, into `p` (`model`: a classifier's
// terms, which T leaves alone, or null); false when none is finite.
bool tempered(const double *logit, int32_t k, double inv_t, double *p, const double *model = nullptr) {
    double top = kNegInf;
    if (model == nullptr) {
        for (int32_t t = 0; t < k; ++t) top = std::max(top, logit[t]);
    } else {
        for (int32_t t = 0; t < k; ++t)
            if (logit[t] != kNegInf) top = std::max(top, logit[t] * inv_t + model[t]);
    }
    if (top == kNegInf) return false;
    double z = 0.0;
    for (int32_t t = 0; t < k; ++t) {
        p[t] = logit[t] == kNegInf         ? 0.0
               : model == nullptr          ? std::exp((logit[t] - top) * inv_t)
                                           : std::exp(logit[t] * inv_t + model[t] - top);
        z += p[t];
    }
    for (int32_t t = 0; t < k; ++t) p[t] /= z;
    return true;
}

// The mean log predictive probability of the held-out labels at temperature T = e^u,
// f(u) = mean over labels of log(A / B), A = sum_t c_t e^(b s_t), B = sum_t e^(b s_t),
// b = 1/T (s_t the logit less the largest, c_t the held-out column), and its first two
// derivatives in u: with A' = sum c s e^(b s), A'' = sum c s^2 e^(b s) (B', B'' alike),
// d/db log(A/B) = A'/A - B'/B and d2/db2 = A''/A - (A'/A)^2 - B''/B + (B'/B)^2; db/du = -b.
// Summed over shards, so every process of a distributed fit sees the same numbers.
struct Objective {
    double f = 0.0, du = 0.0, duu = 0.0;
};

Objective held_out_objective(const CrowdData &data, const HeldOut &h, double u) {
    const double b = std::exp(-u);
    double totals[4] = {0.0, 0.0, 0.0, 0.0};  // sum f, sum d/db, sum d2/db2, labels
    // sum f = log of the product of the labels' A / B (each in (0, 1], floored at
    // 1e-300), multiplied up and logged only when the product falls below 1e-7 (so that
    // the next factor cannot underflow it): a logarithm per dozens of labels instead of
    // one per label. T depends on the derivatives alone; f only decides, at T = 1 and at
    // the end, whether T is kept (held_out_temperature's caller, a relative 1e-6 test).
    double product = 1.0;
    std::size_t e = 0;
    for (std::size_t l = 0; l < h.size(); ++l) {
        double a0 = h.top[l], a1 = 0.0, a2 = 0.0, b0 = 1.0, b1 = 0.0, b2 = 0.0;
        for (const std::size_t end = h.end[l]; e < end; ++e) {
            const double s = h.s[e], x = std::exp(b * s), cx = h.c[e] * x;
            a0 += cx, a1 += cx * s, a2 += cx * s * s;
            b0 += x, b1 += x * s, b2 += x * s * s;
        }
        product *= std::max(a0 / b0, 1e-300);
        if (product < 1e-7) {
            totals[0] += std::log(product);
            product = 1.0;
        }
        if (a0 > 0.0) {
            const double ra = a1 / a0, rb = b1 / b0;
            totals[1] += ra - rb;
            totals[2] += a2 / a0 - ra * ra - b2 / b0 + rb * rb;
        }
        totals[3] += 1.0;
    }
    totals[0] += std::log(product);
    sum_over_shards(data, totals, 4);
    Objective o;
    if (totals[3] == 0.0) return o;
    const double f_b = totals[1] / totals[3], f_bb = totals[2] / totals[3];
    o.f = totals[0] / totals[3];
    o.du = -b * f_b;
    o.duu = b * f_b + b * b * f_bb;
    return o;
}

// Steps of the temperature search, and the step in log T below which it stops (T
// known to a relative 1e-7, finer than the 24 golden-section steps it replaced).
constexpr int kNewtonSteps = 60;
constexpr double kLogTemperatureStep = 1e-7;

// The T in [kLowTemperature, kHighTemperature] that maximises the held-out objective:
// Newton's method on u = log T from T = 1 (the model as fitted), safeguarded by the
// bracket the derivative's sign gives: a step that leaves the bracket, or one where f
// is not concave, tries the bracket's end once if that is the range's end, and
// bisects otherwise. Each step is one pass over the sample with no more exponentials
// than the objective itself, and it converges in a handful of them (golden section
// took 26 passes to 1e-5). Returns T; at_one and at_t are f at T = 1 and at T.
double held_out_temperature(const CrowdData &data, const HeldOut &h, double &at_one, double &at_t) {
    const double range_lo = std::log(kLowTemperature), range_hi = std::log(kHighTemperature);
    double lo = range_lo, hi = range_hi, u = 0.0;
    Objective at = held_out_objective(data, h, u);
    at_one = at.f;
    bool lo_tried = false, hi_tried = false;
    for (int step = 0; step < kNewtonSteps && at.du != 0.0; ++step) {
        if (at.du > 0.0) lo = u;
        else hi = u;
        if ((u == range_hi && at.du > 0.0) || (u == range_lo && at.du < 0.0)) break;  // the max is at the end
        double next = at.duu < 0.0 ? u - at.du / at.duu : (at.du > 0.0 ? hi : lo);
        if (!(next > lo && next < hi)) {
            if (next >= hi && hi == range_hi && !hi_tried) next = hi, hi_tried = true;
            else if (next <= lo && lo == range_lo && !lo_tried) next = lo, lo_tried = true;
            else next = 0.5 * (lo + hi);
        }
        if (std::fabs(next - u) < kLogTemperatureStep) break;
        u = next;
        at = held_out_objective(data, h, u);
    }
    at_t = at.f;
    return std::exp(u);
}

// Maximises f over log T in [log lo, log hi] by golden section; returns T.
template <class F>
double golden_max(F f, double lo, double hi) {
    const double r = 0.5 * (std::sqrt(5.0) - 1.0);
    double a = std::log(lo), b = std::log(hi);
    double c = b - r * (b - a), d = a + r * (b - a);
    double fc = f(std::exp(c)), fd = f(std::exp(d));
    for (int step = 0; step < kGoldenSteps; ++step) {
        if (fc >= fd) {
            b = d, d = c, fd = fc;
            c = b - r * (b - a);
            fc = f(std::exp(c));
        } else {
            a = c, c = d, fc = fd;
            d = a + r * (b - a);
            fd = f(std::exp(d));
        }
    }
    return std::exp(fc >= fd ? c : d);
}

// Gold items with labels: the log evidence of each one's labels under its workers'
// rows fitted without that item (its pinned one-hot count removed), per class.
// With a classifier, its terms apart (items x k; empty without one): T tempers the
// crowd's part only, as the calibration is applied (calibrate_row), and gold measures
// the truth of exactly that transformation.
struct GoldEvidence {
    int32_t k = 0;
    std::vector<double> logit;  // items x k
    std::vector<double> model;  // items x k, or empty
    std::vector<int32_t> truth;
    std::size_t size() const { return truth.size(); }
    const double *model_of(std::size_t i) const { return model.empty() ? nullptr : model.data() + i * k; }
};

GoldEvidence gold_evidence(const CrowdData &data, const FitOptions &options, const FitResult &fit,
                           const RowCounts &rc, const ModelTerms &model) {
    const int32_t k = data.k;
    GoldEvidence g;
    g.k = k;
    const bool restricted = answered_support(options, k);
    std::vector<double> log_w(k), drop(k), column(k), scratch, logit(k);
    std::vector<int32_t> answered(k);
    for (int32_t t = 0; t < k; ++t) log_w[t] = fit.prior[t] > 0.0 ? std::log(fit.prior[t]) : kNegInf;
    for (int32_t j = 0; j < data.n_items; ++j) {
        const int32_t truth = data.gold_of(j);
        if (truth < 0 || data.item_start[j + 1] == data.item_start[j]) continue;
        for (int32_t t = 0; t < k; ++t) drop[t] = t == truth ? 1.0 : 0.0;
        logit = log_w;
        std::fill(answered.begin(), answered.end(), 0);
        for (int64_t p = data.item_start[j]; p < data.item_start[j + 1]; ++p) {
            const int32_t o = data.label_of(p);
            ++answered[o];
            held_out_column(rc, data.worker_of(p), o, drop.data(), scratch, column.data());
            for (int32_t t = 0; t < k; ++t) logit[t] += column[t] > 0.0 ? std::log(column[t]) : kNegInf;
        }
        if (restricted)
            for (int32_t t = 0; t < k; ++t)
                if (!answers(data, answered, j, t)) logit[t] = kNegInf;
        g.logit.insert(g.logit.end(), logit.begin(), logit.end());
        if (const double *m = model.of(j, k)) g.model.insert(g.model.end(), m, m + k);
        g.truth.push_back(truth);
    }
    return g;
}

// Negative log-likelihood of the gold classes under (T, eps), summed over shards.
double gold_loss(const CrowdData &data, const GoldEvidence &g, const std::vector<double> &prior, double temperature,
                 double mixing) {
    const int32_t k = g.k;
    std::vector<double> p(k);
    double loss = 0.0;
    for (std::size_t i = 0; i < g.size(); ++i) {
        const int32_t truth = g.truth[i];
        double q = prior[truth];
        if (tempered(g.logit.data() + i * k, k, 1.0 / temperature, p.data(), g.model_of(i)))
            q = (1.0 - mixing) * p[truth] + mixing * q;
        loss -= std::log(std::max(q, 1e-300));
    }
    sum_over_shards(data, &loss, 1);
    return loss;
}

int64_t gold_items_with_labels(const CrowdData &data) {
    uint64_t count = 0;
    for (int32_t j = 0; j < data.n_items; ++j)
        if (data.gold_of(j) >= 0 && data.item_start[j + 1] > data.item_start[j]) ++count;
    sum_over_shards(data, &count, 1);
    return static_cast<int64_t>(count);
}

// q(t) <- (1 - eps) q(t)^(1/T) / Z + eps w(t) on every item with labels that is not
// gold, and its label the argmax, ties to the lowest class. T alone keeps the order of
// the classes, but two posteriors a rounding apart can come out equal, and the label
// must stay the argmax of the posterior it is reported with.
// An impossible item (every class has a zero confusion term, CS_NOTE_IMPOSSIBLE_ITEMS)
// keeps the prior EM gave it, as an item without labels does; `check_impossible`
// false says there is none (the fit's last E-step, at its final parameters, reported no
// CS_NOTE_IMPOSSIBLE_ITEMS), which spares the pass over every label that finds them.
//
// The items of range r, for k fixed at compile time (K > 0) or not (K = 0). With
// `counts` (a table of n_workers x k x k, then k for the class mass), each item's final
// row is also added to the entries of its labels' codes, as EM's E-step counts its
// posteriors (FitResult::posterior_counts): the worker diagnostics then take the
// counts of the tempered rows from here, while each row is in cache, instead of a pass
// over the labels of their own.
template <int K>
void temper_range(const CrowdData &data, const std::vector<double> &log_pi, const ModelTerms &model,
                  double temperature, double mixing, bool check_impossible, ItemRange r, FitResult &out,
                  double *counts) {
    const int32_t k = K > 0 ? K : data.k;
    std::vector<double> scratch(static_cast<std::size_t>(k));  // calibrate_row's
    ItemEvidence ev;
    const FastMod32 label_mod(static_cast<uint32_t>(k));
    const auto temper = [&](int32_t j) {
        if (data.gold_of(j) >= 0 || data.item_start[j + 1] == data.item_start[j]) return;
        if (check_impossible) {
            item_evidence(data, log_pi, j, label_mod, ev);
            if (std::find(ev.zeros.begin(), ev.zeros.end(), 0) == ev.zeros.end()) return;
        }
        const int32_t label = calibrate_row(out.posteriors.data() + static_cast<int64_t>(j) * k, k, temperature,
                                            mixing, out.prior.data(), scratch.data(), model.of(j, k));
        if (label >= 0) out.labels[j] = label;
    };
    if (counts == nullptr) {
        for (int32_t j = r.first; j < r.last; ++j) temper(j);
        return;
    }
    // Blocks of kCountBlock items: tempered, then counted while their rows are in L1.
    // (Counting each row right after its tempering cost 0.037 CPU s at 10^7 labels,
    // k = 5, against 0.025 in blocks: the scattered additions waited behind the
    // logarithms and exponentials.)
    constexpr int32_t kCountBlock = 256;
    double *class_mass = counts + static_cast<int64_t>(data.n_workers) * k * k;
    for (int32_t first = r.first; first < r.last; first += kCountBlock) {
        const int32_t last = std::min(r.last, first + kCountBlock);
        for (int32_t j = first; j < last; ++j) temper(j);
        add_soft_counts_of_items<K>(data, first, last, k, out.posteriors.data(), counts, class_mass);
    }
}

// Partitions of the recount (partition_items): at most one per 64 labels a table entry.
// EM's E-step takes 4, since it clears and sums its tables every round; the recount
// does so once, and fewer copies keep its tables in cache.
constexpr int64_t kLabelsPerCountEntry = 64;

// apply() as above on every item. When `out` holds EM's counts of its rows
// (posterior_counts; `recount`), they are replaced by the counts of the tempered rows,
// summed per fixed partition of the items (partition_items, as EM's E-step does, with
// fewer partitions) and added in partition order, so that they never depend on the
// thread count; otherwise they are dropped. The items are independent: `threads` split
// them (1: the caller).
void apply(const CrowdData &data, const std::vector<double> &log_pi, const ModelTerms &model, double temperature,
           double mixing, bool check_impossible, bool recount, int threads, FitResult &out) {
    const int32_t k = data.k;
    const int64_t table = static_cast<int64_t>(data.n_workers) * k * k + k;  // counts, then class mass
    recount = recount && out.posterior_counts.size() == static_cast<std::size_t>(table - k) &&
              out.posterior_class_mass.size() == static_cast<std::size_t>(k);
    out.drop_posterior_counts();  // the rows change: EM's counts no longer describe them
    Team team(threads_for(threads, static_cast<int64_t>(data.n_labels())));
    const std::vector<ItemRange> parts =
        recount ? partition_items(data, table, kLabelsPerCountEntry) : split_items(data, team.size());
    const int64_t n_parts = static_cast<int64_t>(parts.size());
    std::vector<double> tables(recount ? static_cast<std::size_t>(n_parts * table) : 0);
    with_classes(k, [&](auto kc) {
        constexpr int K = decltype(kc)::value;
        team.run(n_parts, [&](int64_t part) {
            double *counts = recount ? tables.data() + part * table : nullptr;
            if (counts != nullptr) std::fill(counts, counts + table, 0.0);  // by its own thread
            temper_range<K>(data, log_pi, model, temperature, mixing, check_impossible,
                            parts[static_cast<std::size_t>(part)], out, counts);
        });
    });
    if (!recount) return;
    std::vector<double> total(static_cast<std::size_t>(table));
    sum_tables(tables.data(), table, n_parts, total.data(), team.size());
    out.posterior_class_mass.assign(total.end() - k, total.end());
    total.resize(static_cast<std::size_t>(table - k));
    out.posterior_counts = std::move(total);
}

}  // namespace

int32_t calibrate_row(double *q, int32_t k, double temperature, double mixing, const double *prior, double *scratch,
                      const double *model) {
    // q(t)^(1/T) / Z as (q(t) / q(top))^(1/T) / Z': the top class's term is exactly 1, so
    // a row takes k - 1 logarithms and exponentials instead of k of each (at 10^7 labels,
    // k = 5, this loop over 10^6 rows was most of the calibration's time).
    double *p = scratch;
    const int32_t top = static_cast<int32_t>(std::max_element(q, q + k) - q);
    if (!(q[top] > 0.0)) return -1;
    const double inv_t = 1.0 / temperature;
    double z = 0.0;
    if (model != nullptr) {
        // The classifier's term d_t = m(t) - m(top) left out of the tempering:
        // log p(t) = (log(q(t) / q(top)) - d_t) / T + d_t, less the largest (which the
        // classifier may make another class's than top's).
        double largest = 0.0;
        for (int32_t t = 0; t < k; ++t) {
            const double d = model[t] - model[top];
            p[t] = t == top ? 0.0 : q[t] > 0.0 ? (std::log(q[t] / q[top]) - d) * inv_t + d : kNegInf;
            largest = std::max(largest, p[t]);
        }
        for (int32_t t = 0; t < k; ++t) {
            p[t] = p[t] == kNegInf ? 0.0 : std::exp(p[t] - largest);
            z += p[t];
        }
    } else {
        for (int32_t t = 0; t < k; ++t) {
            p[t] = t == top ? 1.0 : q[t] > 0.0 ? std::exp(std::log(q[t] / q[top]) * inv_t) : 0.0;
            z += p[t];
        }
    }
    for (int32_t t = 0; t < k; ++t) q[t] = (1.0 - mixing) * (p[t] / z) + mixing * prior[t];
    return static_cast<int32_t>(std::max_element(q, q + k) - q);
}

void calibrate_crowd_posteriors(const CrowdData &data, const FitOptions &options, FitResult &out) {
    out.temperature = 1.0;
    out.mixing = 0.0;
    out.calibration = CS_CALIBRATION_NONE;
    // Every process of a distributed fit goes on (one with no items too): the sums below
    // are collective.
    if (options.calibration == CS_CALIBRATION_NONE || data.k < 2) return;
    RowCounts rc = row_counts(data, options, out);
    add_row_masses(rc, data.n_workers);
    const std::vector<double> log_pi = log_pi_by_code(out, data.n_workers, data.k);
    const ModelTerms model = model_terms_of(data, out);
    const bool use_gold = options.calibration != CS_CALIBRATION_LABELS && gold_items_with_labels(data) >= kMinGoldItems;
    if (use_gold) {
        const GoldEvidence g = gold_evidence(data, options, out, rc, model);
        double best_loss = std::numeric_limits<double>::infinity(), best_t = 1.0, best_eps = 0.0;
        for (int step = 0; step <= kMixingSteps; ++step) {
            const double eps = step * kMixingStep;
            const double t = golden_max([&](double temp) { return -gold_loss(data, g, out.prior, temp, eps); },
                                        kLowGoldTemperature, kHighGoldTemperature);
            const double loss = gold_loss(data, g, out.prior, t, eps);
            if (loss < best_loss) best_loss = loss, best_t = t, best_eps = eps;
        }
        // No better than the model as it is (T = 1, eps = 0) by a relative 1e-9: keep it.
        if (!(best_loss < gold_loss(data, g, out.prior, 1.0, 0.0) * (1.0 - 1e-9))) best_t = 1.0, best_eps = 0.0;
        out.temperature = best_t;
        out.mixing = best_eps;
        out.calibration = CS_CALIBRATION_GOLD;
    } else {
        const HeldOut h = held_out_labels(data, options, out, rc, log_pi, model);
        double at_one = 0.0, at_t = 0.0;
        const double t = held_out_temperature(data, h, at_one, at_t);
        // A flat objective (nothing to learn, e.g. every item unanimous) keeps T = 1.
        out.temperature = at_t - at_one > 1e-6 * std::fabs(at_one) ? t : 1.0;
        out.calibration = CS_CALIBRATION_LABELS;
    }
    if (out.temperature != 1.0 || out.mixing != 0.0)
        apply(data, log_pi, model, out.temperature, out.mixing,
              out.iterations == 0 || (out.notes & CS_NOTE_IMPOSSIBLE_ITEMS) != 0, true, options.threads, out);
}

void apply_calibration(const CrowdData &data, double temperature, double mixing, int32_t source, FitResult &out) {
    out.temperature = temperature;
    out.mixing = mixing;
    out.calibration = source;
    if (temperature != 1.0 || mixing != 0.0)
        apply(data, log_pi_by_code(out, data.n_workers, data.k), model_terms_of(data, out), temperature, mixing, true,
              false, 1, out);
}

}  // namespace cs
