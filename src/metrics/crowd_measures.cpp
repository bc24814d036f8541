// SPDX-License-Identifier: MIT
#include "metrics/crowd_measures.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "crowdspec/crowdspec.h"
#include "util/error.hpp"

namespace cs {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The labels grouped by item or by worker (a counting sort): group g's labels are
// order[start[g] .. start[g + 1]), in input order.
struct Groups {
    std::vector<std::size_t> start;
    std::vector<std::size_t> order;
};

Groups group_by(const int32_t *key, std::size_t n, int32_t n_groups) {
    Groups g;
    g.start.assign(static_cast<std::size_t>(n_groups) + 1, 0);
    for (std::size_t t = 0; t < n; ++t) ++g.start[static_cast<std::size_t>(key[t]) + 1];
    std::partial_sum(g.start.begin(), g.start.end(), g.start.begin());
    g.order.resize(n);
    std::vector<std::size_t> next(g.start.begin(), g.start.end() - 1);
    for (std::size_t t = 0; t < n; ++t) g.order[next[static_cast<std::size_t>(key[t])]++] = t;
    return g;
}

// Which classes some label has, and how many (crowd-kit's K: pd.unique of the labels).
std::vector<bool> given_classes(const MeasureLabels &l, int32_t *count) {
    std::vector<bool> given(static_cast<std::size_t>(l.k), false);
    for (std::size_t t = 0; t < l.n; ++t) given[static_cast<std::size_t>(l.label[t])] = true;
    *count = static_cast<int32_t>(std::count(given.begin(), given.end(), true));
    return given;
}

double skill_of(const MeasureLabels &l, const std::vector<double> &skill, std::size_t t) {
    return skill.empty() ? 1.0 : skill[static_cast<std::size_t>(l.worker[t])];
}

int32_t max_plus_one(const int32_t *a, std::size_t n, const char *what, cs_status status) {
    int32_t top = -1;
    for (std::size_t t = 0; t < n; ++t) {
        if (a[t] < 0)
            throw Error(status, std::string(what) + " " + std::to_string(a[t]) + " at label index " + std::to_string(t) +
                                    " is negative");
        top = std::max(top, a[t]);
    }
    return top + 1;
}

}  // namespace

MeasureLabels check_measure_labels(const int32_t *item, const int32_t *worker, const int32_t *label, std::size_t n) {
    MeasureLabels l;
    l.item = item;
    l.worker = worker;
    l.label = label;
    l.n = n;
    l.n_items = max_plus_one(item, n, "item id", CS_ERR_INVALID_ID);
    if (worker != nullptr) l.n_workers = max_plus_one(worker, n, "worker id", CS_ERR_INVALID_ID);
    l.k = max_plus_one(label, n, "label", CS_ERR_INVALID_LABEL);
    if (l.k > CS_MAX_CROWD_CLASSES)
        throw Error(CS_ERR_TOO_MANY_CLASSES, "label " + std::to_string(l.k - 1) + " is above the largest class " +
                                                 std::to_string(CS_MAX_CROWD_CLASSES - 1));
    return l;
}

Agreement nominal_agreement(const MeasureLabels &l) {
    const std::size_t k = static_cast<std::size_t>(l.k);
    Agreement a;
    a.k = k;
    a.coincidence.assign(k * k, 0.0);
    a.values.assign(k, 0.0);
    a.class_agreement.assign(k, kNaN);
    const Groups g = group_by(l.item, l.n, l.n_items);
    std::vector<double> count(k, 0.0);
    std::vector<std::size_t> present;  // classes with a label on the current item
    for (std::size_t j = 0; j + 1 < g.start.size(); ++j) {
        const std::size_t m = g.start[j + 1] - g.start[j];
        if (m < 2) continue;
        ++a.units;
        present.clear();
        for (std::size_t p = g.start[j]; p < g.start[j + 1]; ++p) {
            const std::size_t c = static_cast<std::size_t>(l.label[g.order[p]]);
            if (count[c] == 0.0) present.push_back(c);
            count[c] += 1.0;
        }
        // o[c][d] += n_c n_d / (m - 1), n_c (n_c - 1) / (m - 1) on the diagonal
        // (Krippendorff 2011, "Computing Krippendorff's alpha-reliability", sec. C).
        const double scale = 1.0 / static_cast<double>(m - 1);
        for (std::size_t c : present)
            for (std::size_t d : present)
                a.coincidence[c * k + d] += (c == d ? count[c] * (count[c] - 1.0) : count[c] * count[d]) * scale;
        for (std::size_t c : present) count[c] = 0.0;
    }
    double disagree = 0.0, squares = 0.0;
    for (std::size_t c = 0; c < k; ++c) {
        for (std::size_t d = 0; d < k; ++d) {
            a.values[c] += a.coincidence[c * k + d];
            if (c != d) disagree += a.coincidence[c * k + d];
        }
        a.pairable += a.values[c];
        squares += a.values[c] * a.values[c];
        if (a.values[c] > 0.0) a.class_agreement[c] = a.coincidence[c * k + c] / a.values[c];
    }
    const double n = a.pairable;
    a.observed = n > 0.0 ? disagree / n : kNaN;
    // sum_{c != d} n_c n_d = n^2 - sum_c n_c^2.
    a.expected = n > 1.0 ? (n * n - squares) / (n * (n - 1.0)) : kNaN;
    a.alpha = n > 1.0 && a.expected > 0.0 ? 1.0 - a.observed / a.expected : kNaN;
    int32_t distinct = 0;
    given_classes(l, &distinct);
    if (distinct == 1) a.alpha = 1.0;  // NLTK's rule (crowd-kit's alpha_krippendorff)
    return a;
}

std::vector<double> label_uncertainty(const MeasureLabels &l, const std::vector<double> &skill, bool by_worker) {
    int32_t K = 0;
    given_classes(l, &K);
    const int32_t n_groups = by_worker ? l.n_workers : l.n_items;
    const Groups g = group_by(by_worker ? l.worker : l.item, l.n, n_groups);
    std::vector<double> out(static_cast<std::size_t>(n_groups), kNaN);
    // Group g's weight of class c is v_c = A_c + (B - B_c) / (K - 1): A_c sums the skills
    // s of its labels of class c, B_c their 1 - s, B every label's 1 - s. A class none
    // of its labels has gets B / (K - 1) (closed form: no loop over the K classes).
    std::vector<double> A(static_cast<std::size_t>(l.k), 0.0), Bc(A);
    std::vector<int32_t> touched;
    for (int32_t h = 0; h < n_groups; ++h) {
        const std::size_t b = g.start[static_cast<std::size_t>(h)], e = g.start[static_cast<std::size_t>(h) + 1];
        if (b == e) continue;
        double B = 0.0;
        touched.clear();
        for (std::size_t p = b; p < e; ++p) {
            const std::size_t t = g.order[p];
            const int32_t c = l.label[t];
            const double s = skill_of(l, skill, t);
            if (A[static_cast<std::size_t>(c)] == 0.0 && Bc[static_cast<std::size_t>(c)] == 0.0) touched.push_back(c);
            A[static_cast<std::size_t>(c)] += s;
            Bc[static_cast<std::size_t>(c)] += 1.0 - s;
            B += 1.0 - s;
        }
        // v sums to the group's label count when K >= 2 (each label spreads weight 1);
        // with one class it is the sum of the skills.
        std::vector<double> v;
        v.reserve(touched.size() + 1);
        double total = 0.0;
        for (int32_t c : touched) {
            const double w = A[static_cast<std::size_t>(c)] +
                             (K > 1 ? (B - Bc[static_cast<std::size_t>(c)]) / (K - 1) : 0.0);
            v.push_back(w);
            total += w;
            A[static_cast<std::size_t>(c)] = Bc[static_cast<std::size_t>(c)] = 0.0;
        }
        const double rest = K > 1 ? B / (K - 1) : 0.0;  // each class the group lacks
        const double missing = static_cast<double>(K) - static_cast<double>(touched.size());
        total += missing * rest;
        if (!(total > 0.0)) continue;  // every skill 0 with one class: undefined (0 / 0)
        double h_sum = 0.0;
        for (double w : v)
            if (w > 0.0) h_sum -= (w / total) * std::log(w / total);
        if (rest > 0.0 && missing > 0.0) h_sum -= missing * (rest / total) * std::log(rest / total);
        out[static_cast<std::size_t>(h)] = h_sum;
    }
    return out;
}

namespace {

// A product of probabilities kept as (factors equal to 0, sum of the logs of the others).
struct LogProduct {
    int64_t zeros = 0;
    double log = 0.0;
    void add(double p) {
        if (p > 0.0)
            log += std::log(p);
        else
            ++zeros;
    }
};

}  // namespace

std::vector<double> aggregate_consistency(const MeasureLabels &l, const std::vector<double> &skill,
                                          const int32_t *aggregate) {
    int32_t K = 0;
    const std::vector<bool> given = given_classes(l, &K);
    for (int32_t j = 0; j < l.n_items; ++j) {
        const int32_t a = aggregate[j];
        if (a >= 0 && (a >= l.k || !given[static_cast<std::size_t>(a)]))
            throw Error(CS_ERR_INVALID_LABEL, "the aggregate of item " + std::to_string(j) + " is class " +
                                                  std::to_string(a) + ", which no label has");
    }
    const Groups g = group_by(l.item, l.n, l.n_items);
    std::vector<double> out(static_cast<std::size_t>(l.n_items), kNaN);
    // P(class c) = prod_{labels of c} s * prod_{other labels} (1 - s) / (K - 1): with Q the
    // product of every label's q = (1 - s) / (K - 1), P(c) = Q / Q_c * S_c, where Q_c and
    // S_c run over the labels of class c; a class none of the item's labels has is Q.
    std::vector<LogProduct> S(static_cast<std::size_t>(l.k)), Qc(S);
    std::vector<bool> seen(static_cast<std::size_t>(l.k), false);
    std::vector<int32_t> touched;
    std::vector<LogProduct> P;
    for (int32_t j = 0; j < l.n_items; ++j) {
        const std::size_t b = g.start[static_cast<std::size_t>(j)], e = g.start[static_cast<std::size_t>(j) + 1];
        const int32_t a = aggregate[j];
        if (b == e || a < 0) continue;
        LogProduct Q;
        touched.clear();
        for (std::size_t p = b; p < e; ++p) {
            const std::size_t t = g.order[p];
            const int32_t c = l.label[t];
            const double s = skill_of(l, skill, t);
            if (!seen[static_cast<std::size_t>(c)]) {
                seen[static_cast<std::size_t>(c)] = true;
                touched.push_back(c);
            }
            S[static_cast<std::size_t>(c)].add(s);
            if (K > 1) {
                const double q = (1.0 - s) / (K - 1);
                Q.add(q);
                Qc[static_cast<std::size_t>(c)].add(q);
            }
        }
        P.clear();
        LogProduct of_a = Q;  // the aggregate's, if none of the item's labels is a
        for (int32_t c : touched) {
            LogProduct pc;
            pc.zeros = Q.zeros - Qc[static_cast<std::size_t>(c)].zeros + S[static_cast<std::size_t>(c)].zeros;
            pc.log = Q.log - Qc[static_cast<std::size_t>(c)].log + S[static_cast<std::size_t>(c)].log;
            P.push_back(pc);
            if (c == a) of_a = pc;
            S[static_cast<std::size_t>(c)] = Qc[static_cast<std::size_t>(c)] = LogProduct();
            seen[static_cast<std::size_t>(c)] = false;
        }
        const double missing = static_cast<double>(K) - static_cast<double>(touched.size());
        // of_a / sum_c P(c), in log space from the largest nonzero term (crowd-kit's
        // plain product underflows to 0 / 0 on long items; the value is the same).
        double top = -std::numeric_limits<double>::infinity();
        for (const LogProduct &pc : P)
            if (pc.zeros == 0) top = std::max(top, pc.log);
        if (missing > 0.0 && Q.zeros == 0) top = std::max(top, Q.log);
        if (of_a.zeros > 0 || !std::isfinite(top)) {
            out[static_cast<std::size_t>(j)] = 0.0;  // P(a) = 0, or every P(c) = 0 (crowd-kit: 0)
            continue;
        }
        double denominator = 0.0;
        for (const LogProduct &pc : P)
            if (pc.zeros == 0) denominator += std::exp(pc.log - top);
        if (missing > 0.0 && Q.zeros == 0) denominator += missing * std::exp(Q.log - top);
        out[static_cast<std::size_t>(j)] = std::exp(of_a.log - top) / denominator;
    }
    return out;
}

std::vector<double> accuracy_on_aggregates(const MeasureLabels &l, const int32_t *aggregate, double *overall) {
    std::vector<double> right(static_cast<std::size_t>(l.n_workers), 0.0), counted(right);
    for (std::size_t t = 0; t < l.n; ++t) {
        const int32_t a = aggregate[l.item[t]];
        if (a < 0) continue;
        counted[static_cast<std::size_t>(l.worker[t])] += 1.0;
        if (l.label[t] == a) right[static_cast<std::size_t>(l.worker[t])] += 1.0;
    }
    double all_right = 0.0, all_counted = 0.0;
    for (std::size_t i = 0; i < right.size(); ++i) {
        all_right += right[i];
        all_counted += counted[i];
        right[i] = counted[i] > 0.0 ? right[i] / counted[i] : kNaN;
    }
    if (overall != nullptr) *overall = all_counted > 0.0 ? all_right / all_counted : kNaN;
    return right;
}

}  // namespace cs
