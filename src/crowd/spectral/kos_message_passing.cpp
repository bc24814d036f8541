// SPDX-License-Identifier: MIT
// kos-mp: the iterative message-passing algorithm of Karger, Oh and Shah ("Budget-optimal
// task allocation for reliable crowdsourcing systems", Operations Research 62(1), 2014;
// ALGORITHMS.md, "Baselines of the Opt-D&S paper", the note on the iterative KOS), on
// each binary split s of crowd/spectral/binary_splits.hpp. With A_e = +1/-1 the code of label e
// (item j(e), worker i(e)) in split s:
//
//   start:   y_e ~ N(1, 1) for every label e (worker -> item messages; from the seed)
//   round:   x_e = sum over the other labels e' of item j(e) of A_e' y_e'
//            y_e = sum over the other labels e' of worker i(e) of A_e' x_e'
//   decide:  t_j = sign( sum over the labels e of item j of A_e y_e ).
//
// Both sums "over the others" are a full sum minus the own term: with s_j = sum_{e in j}
// A_e y_e and r_i = sum_{e in i} (A_e s_j(e) - y_e), the round is y_e <- r_i(e) -
// A_e s_j(e) + y_e (using A_e^2 = 1), so no x message is stored. The messages live in
// the by-item order of the labels (8 bytes each, plus one buffer): s is a gather by
// item, r a scatter by item ranges into per-range worker tables summed in range order
// (linalg/sparse_matrix.hpp), so no by-worker copy of the labels is needed.
//
// The messages are linear in y, so they grow or shrink geometrically (crowd-kit's
// version overflows to inf and NaN on trec). Here y is divided by max_e |y_e| after
// every round; a positive scale changes no sign, so the decisions are those of the
// unnormalised algorithm. The rounds are a power iteration of the (linear) message
// operator; they stop when the normalised messages stop changing, max_e |y_e - y_e'|
// <= tol (CS_PARAM_TOL), or after max_iter rounds (CS_PARAM_MAX_ITER) per split.
//
// Overall sign: KOS presumes workers better than random on average, which its start
// (mean 1) encodes; but the limit of the rounds is only defined up to sign, and on a
// small crowd the random start can land on either side (crowd-kit's labels then depend
// on its seed), and a negative dominant eigenvalue would flip the labels every round.
// We apply the same presumption to the final messages: if their sum (the total
// reliability of the workers) is negative, every sign is flipped. The labels then do
// not depend on the seed. If every message becomes exactly 0 (no item has two labels
// from workers who labelled other items, e.g. a single worker), the split has no
// information and takes the majority sign (a noted fallback).
#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "crowd/spectral/binary_splits.hpp"
#include "crowd/spectral/split_methods.hpp"
#include "linalg/sparse_matrix.hpp"
#include "util/parallel.hpp"
#include "util/rng.hpp"

namespace cs {

namespace {

// s_j = sum over the labels e of item j of A_e y_e.
void item_sums(const CrowdData &data, int32_t split, const std::vector<double> &y,
               std::vector<double> &s, int threads) {
#pragma omp parallel for schedule(dynamic, 1024) num_threads(threads)
    for (int32_t j = 0; j < data.n_items; ++j) {
        double sum = 0.0;
        for (int64_t p = data.item_start[j]; p < data.item_start[j + 1]; ++p)
            sum += split_sign(data.label_of(p), split) * y[p];
        s[j] = sum;
    }
}

SplitOutcome kos_mp_split(const CrowdData &data, int32_t split, const FitOptions &options,
                          int threads, Rng &rng, SplitRun &run) {
    if (options.max_iter == 0) return SplitOutcome{};  // NotRun
    const int32_t n = data.n_items, m = data.n_workers;
    const int64_t labels = static_cast<int64_t>(data.n_labels());
    std::vector<double> y(static_cast<std::size_t>(labels));
    for (double &v : y) v = 1.0 + rng.normal();  // by-item order
    std::vector<double> s(static_cast<std::size_t>(n)), r(static_cast<std::size_t>(m)), next(y.size());
    const std::vector<int64_t> bounds = row_ranges(data.item_start.data(), n, m);
    const int64_t parts = static_cast<int64_t>(bounds.size()) - 1;
    std::vector<double> tables(static_cast<std::size_t>(parts * m));

    bool converged = false, vanished = false;
    for (int32_t round = 1; round <= options.max_iter && !converged && !vanished; ++round) {
        item_sums(data, split, y, s, threads);
        // r_i = sum over worker i's labels of (A_e s_j(e) - y_e): each item range adds
        // into its own worker table; the tables are summed in range order.
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
        for (int64_t part = 0; part < parts; ++part) {
            double *t = tables.data() + part * m;
            std::fill(t, t + m, 0.0);
            for (int64_t j = bounds[part]; j < bounds[part + 1]; ++j)
                for (int64_t p = data.item_start[j]; p < data.item_start[j + 1]; ++p)
                    t[data.worker_of(p)] += split_sign(data.label_of(p), split) * s[j] - y[p];
        }
        sum_tables(tables.data(), m, parts, r.data(), threads);
        double top = 0.0;
#pragma omp parallel for schedule(dynamic, 1024) reduction(max : top) num_threads(threads)
        for (int32_t j = 0; j < n; ++j)
            for (int64_t p = data.item_start[j]; p < data.item_start[j + 1]; ++p) {
                next[p] = r[data.worker_of(p)] - split_sign(data.label_of(p), split) * s[j] + y[p];
                top = std::max(top, std::fabs(next[p]));
            }
        // Normalise (max |y| = 1) and measure the change of the normalised messages; max
        // is exact in any order, so both are thread-count independent.
        double change = 0.0;
        if (top > 0.0 && std::isfinite(top)) {
#pragma omp parallel for schedule(static) reduction(max : change) num_threads(threads)
            for (int64_t e = 0; e < labels; ++e) {
                next[e] /= top;
                change = std::max(change, std::fabs(next[e] - y[e]));
            }
            y.swap(next);
            converged = change <= options.tol;
        } else {
            vanished = true;
        }
        if (run.step()) break;
    }
    if (vanished)
        return degenerate_split("every message became 0 (no item has labels from two workers who "
                                "also labelled other items)");
    item_sums(data, split, y, s, threads);
    double reliability = 0.0;  // sum of the messages, in label order
    for (double v : y) reliability += v;
    if (reliability < 0.0)
        for (double &v : s) v = -v;
    std::vector<int8_t> t = tie_signs(s);
    if (std::all_of(t.begin(), t.end(), [](int8_t tj) { return tj == 0; }))
        return degenerate_split("the messages give every item the score 0");
    return split_signs(std::move(t), false, converged);
}

}  // namespace

bool fit_kos_message_passing(const CrowdData &data, const FitOptions &options,
                             const Progress &progress, FitResult &out) {
    return fit_each_split(data, options, progress, "kos-mp", out, kos_mp_split);
}

}  // namespace cs
