// SPDX-License-Identifier: MIT
// BWA (docs/algorithms.md, "BWA"; Li, Rubinstein and Cohn, WWW 2019). For each class c,
// with y_ijc = [worker j said c] and the soft majority vote z0:
//   B1  b_c  = a_v adj sum_i n_i z0_ic (1 - z0_ic) / L,   adj = 4 (1 - 1/k) or 1
//   B2  mu_c = mean of z_ic over the items with labels (or gold)
//   B3  v_jc = (a_v + N_j) / (b_c + sum_{i in I(j)} (y_ijc - z_ic)^2)
//   B4  z_ic = (lambda mu_c + sum_{j in J(i)} v_jc y_ijc) / (lambda + sum_{j in J(i)} v_jc)
// B2 and B3 read the scores of the previous iteration, B4 the new mu and v (Jacobi). A
// class whose b_c is 0 (no item disagrees about it: every worker's squared error is 0,
// and B3 would divide by 0) keeps the soft majority vote.
//
// One pass over the labels per iteration, in item order: each item's new scores (B4),
// then its labels' squared errors under the new scores, scattered into per-worker
// tables for the next iteration's B3. The tables are per fixed item partition
// (data/item_partitions.hpp) and summed in partition order, so the result does not
// depend on the thread count. Cost O(labels x k) per iteration.
#include "crowd/bayes/bwa.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "crowd/em/dawid_skene.hpp"
#include "data/item_partitions.hpp"
#include "util/fixed_divisor.hpp"
#include "util/parallel.hpp"

namespace cs {

namespace {

// The tables of one fit, reused by every iteration.
struct Bwa {
    int32_t k = 0;
    int64_t table = 0;                 // n_workers x k
    std::vector<ItemRange> parts;      // fixed item partitions
    std::vector<double> z;             // n_items x k: the scores
    std::vector<double> error_parts;   // per partition: sum of (y - z)^2, worker x class
    std::vector<double> error;         // error_parts summed in partition order
    std::vector<double> precision;     // v: worker x class (B3)
    std::vector<double> sum_parts;     // per partition: k sums of z over the counted items
    std::vector<uint8_t> moved_parts;  // per partition: k flags, a score failed the stopping test
    std::vector<double> mu;            // k (B2)
    std::vector<double> scale;         // k: b_c (B1)
    std::vector<uint8_t> active;       // k: the class still iterates
    std::vector<int64_t> worker_labels;  // N_j
    int64_t counted = 0;               // items in B2's mean: with labels, or gold
    double strength = 15.0;            // a_v
    double item_precision = 1.0;       // lambda
    double tol = 0.0;
    // The library's own threads (util/parallel.hpp), which sleep between the passes
    // instead of spinning as OpenMP's idle threads do: a pass lasts milliseconds.
    Team team;

    Bwa(const CrowdData &d, const FitOptions &o)
        : k(d.k), team(threads_for(o.threads, static_cast<int64_t>(d.n_labels()))) {
        table = static_cast<int64_t>(d.n_workers) * k;
        parts = partition_items(d, table);
        const std::size_t np = parts.size(), kk = static_cast<std::size_t>(k);
        z.assign(static_cast<std::size_t>(d.n_items) * kk, 0.0);
        error_parts.assign(np * static_cast<std::size_t>(table), 0.0);
        error.assign(static_cast<std::size_t>(table), 0.0);
        precision.assign(static_cast<std::size_t>(table), 0.0);
        sum_parts.assign(np * kk, 0.0);
        moved_parts.assign(np * kk, 0);
        mu.assign(kk, 0.0);
        scale.assign(kk, 0.0);
        active.assign(kk, 0);
        worker_labels.assign(static_cast<std::size_t>(d.n_workers), 0);
        strength = o.bwa_strength;
        item_precision = o.bwa_item_precision;
        tol = o.tol;
    }

    int64_t n_parts() const { return static_cast<int64_t>(parts.size()); }
};

template <class F>
void for_each_part(Bwa &b, F &&f) {
    b.team.run(b.n_parts(), f);
}

bool counted_item(const CrowdData &d, int32_t j) {
    return d.item_start[j + 1] > d.item_start[j] || d.gold_of(j) >= 0;
}

// Add item j's labels' squared errors (y_ijc - z_jc)^2, every class c, into the worker
// rows of `error`, and its scores into `sums` when it counts for B2. K > 0 is k known at
// compile time (the loops over classes unroll and stay in registers); 0 reads d.k.
template <int K>
void scatter_item(const CrowdData &d, const FixedDivisor &split, int32_t j, const double *zj, double *error,
                  double *sums) {
    const int32_t k = K > 0 ? K : d.k;
    for (int64_t p = d.item_start[j]; p < d.item_start[j + 1]; ++p) {
        uint32_t offset = 0;
        int32_t l = 0;
        split.split(d.item_code[p], offset, l);
        double *row = error + offset;
        for (int32_t c = 0; c < k; ++c) row[c] += zj[c] * zj[c];
        row[l] += 1.0 - 2.0 * zj[l];  // (1 - z)^2 = z^2 + 1 - 2 z
    }
    if (counted_item(d, j))
        for (int32_t c = 0; c < k; ++c) sums[c] += zj[c];
}

// The partitions' error tables and score sums, summed in partition order: B3's v and
// B2's mu for the classes that still iterate.
void update_precisions(const CrowdData &d, Bwa &b) {
    sum_tables(b.error_parts.data(), b.table, b.n_parts(), b.error.data(), b.team.size());
    const int32_t k = b.k;
    for (int32_t c = 0; c < k; ++c) {
        if (!b.active[c]) continue;
        double sum = 0.0;
        for (int64_t p = 0; p < b.n_parts(); ++p) sum += b.sum_parts[static_cast<std::size_t>(p * k + c)];
        b.mu[c] = b.counted > 0 ? sum / static_cast<double>(b.counted) : 0.0;
    }
    for (int32_t i = 0; i < d.n_workers; ++i) {
        const double pseudo = b.strength + static_cast<double>(b.worker_labels[i]);
        for (int32_t c = 0; c < k; ++c) {
            const std::size_t e = static_cast<std::size_t>(i) * k + c;
            if (b.active[c]) b.precision[e] = pseudo / (b.scale[c] + b.error[e]);  // B3
        }
    }
}

// The start: z = the soft majority vote (a gold item its class; an item without labels
// mu), B1's prior scales, the workers' label counts, and the errors of the start.
void start(const CrowdData &d, const FitOptions &o, Bwa &b) {
    const int32_t k = b.k;
    const FixedDivisor split(static_cast<uint32_t>(k));
    for (std::size_t p = 0; p < d.n_labels(); ++p) ++b.worker_labels[static_cast<std::size_t>(d.worker_of(p))];
    std::vector<double> disagreement_parts(b.parts.size() * static_cast<std::size_t>(k), 0.0);
    for_each_part(b, [&](int64_t part) {
        double *error = b.error_parts.data() + part * b.table;
        std::fill(error, error + b.table, 0.0);
        double *sums = b.sum_parts.data() + part * k;
        double *disagreement = disagreement_parts.data() + part * k;
        std::fill(sums, sums + k, 0.0);
        std::vector<double> count(static_cast<std::size_t>(k));
        for (int32_t j = b.parts[part].first; j < b.parts[part].last; ++j) {
            double *zj = b.z.data() + static_cast<int64_t>(j) * k;
            const int64_t n = d.item_start[j + 1] - d.item_start[j];
            std::fill(count.begin(), count.end(), 0.0);
            for (int64_t p = d.item_start[j]; p < d.item_start[j + 1]; ++p) count[d.label_of(p)] += 1.0;
            // B1's sum: n_i z0 (1 - z0) = count (n - count) / n, from the labels alone.
            if (n > 0)
                for (int32_t c = 0; c < k; ++c) {
                    disagreement[c] += count[c] * (static_cast<double>(n) - count[c]) / static_cast<double>(n);
                    zj[c] = count[c] / static_cast<double>(n);
                }
            if (d.gold_of(j) >= 0)
                for (int32_t c = 0; c < k; ++c) zj[c] = c == d.gold_of(j) ? 1.0 : 0.0;
            scatter_item<0>(d, split, j, zj, error, sums);
        }
    });
    for (int32_t j = 0; j < d.n_items; ++j) b.counted += counted_item(d, j);
    const double adj = o.bwa_prior_correction ? 4.0 * (1.0 - 1.0 / k) : 1.0;
    const double labels = static_cast<double>(d.n_labels());
    for (int32_t c = 0; c < k; ++c) {
        double disagreement = 0.0, sum = 0.0;
        for (std::size_t p = 0; p < b.parts.size(); ++p) {
            disagreement += disagreement_parts[p * k + c];
            sum += b.sum_parts[p * k + c];
        }
        b.scale[c] = b.strength * adj * disagreement / labels;  // B1
        b.mu[c] = b.counted > 0 ? sum / static_cast<double>(b.counted) : 0.0;
        // No disagreement: every worker's error is 0 and B3 would divide by 0; the class
        // keeps its vote shares.
        b.active[c] = b.scale[c] > 0.0 && o.max_iter > 0;
    }
    for (int32_t j = 0; j < d.n_items; ++j)
        if (!counted_item(d, j)) std::copy(b.mu.begin(), b.mu.end(), b.z.begin() + static_cast<int64_t>(j) * k);
    update_precisions(d, b);
}

// One iteration: B4 for every item and class that still iterates, the stopping test, and
// the errors and sums of the new scores for the next B2 and B3. K as in scatter_item.
template <int K>
void iterate_k(const CrowdData &d, Bwa &b) {
    const int32_t k = K > 0 ? K : b.k;
    const FixedDivisor split(static_cast<uint32_t>(k));
    const double lambda = b.item_precision;
    for_each_part(b, [&](int64_t part) {
        double *error = b.error_parts.data() + part * b.table;
        std::fill(error, error + b.table, 0.0);
        double *sums = b.sum_parts.data() + part * k;
        std::fill(sums, sums + k, 0.0);
        uint8_t *moved = b.moved_parts.data() + part * k;
        std::fill(moved, moved + k, 0);
        // B4's sums: on the stack for a compile-time k (registers once unrolled).
        double fixed[2 * (K > 0 ? K : 1)];
        std::vector<double> dynamic(K > 0 ? 0 : 2 * static_cast<std::size_t>(k));
        double *num = K > 0 ? fixed : dynamic.data(), *den = num + k;
        for (int32_t j = b.parts[part].first; j < b.parts[part].last; ++j) {
            double *zj = b.z.data() + static_cast<int64_t>(j) * k;
            if (d.gold_of(j) >= 0) {  // a known class: its scores stay one-hot
                scatter_item<K>(d, split, j, zj, error, sums);
                continue;
            }
            if (d.item_start[j + 1] == d.item_start[j]) {  // no labels: the prior mean
                for (int32_t c = 0; c < k; ++c)
                    if (b.active[c]) zj[c] = b.mu[c];
                continue;
            }
            for (int32_t c = 0; c < k; ++c) {
                num[c] = lambda * b.mu[c];
                den[c] = lambda;
            }
            for (int64_t p = d.item_start[j]; p < d.item_start[j + 1]; ++p) {
                uint32_t offset = 0;
                int32_t l = 0;
                split.split(d.item_code[p], offset, l);
                const double *v = b.precision.data() + offset;
                for (int32_t c = 0; c < k; ++c) den[c] += v[c];
                num[l] += v[l];
            }
            for (int32_t c = 0; c < k; ++c) {
                if (!b.active[c]) continue;
                const double next = num[c] / den[c];  // B4
                if (!(std::fabs(next - zj[c]) <= kBwaAbsTol + b.tol * std::fabs(next))) moved[c] = 1;
                zj[c] = next;
            }
            scatter_item<K>(d, split, j, zj, error, sums);
        }
    });
}

void iterate(const CrowdData &d, Bwa &b) {
    switch (b.k) {
        case 2: iterate_k<2>(d, b); break;
        case 3: iterate_k<3>(d, b); break;
        case 4: iterate_k<4>(d, b); break;
        case 5: iterate_k<5>(d, b); break;
        default: iterate_k<0>(d, b); break;
    }
}

}  // namespace

bool fit_bwa(const CrowdData &data, const FitOptions &options, const Progress &progress, FitResult &out) {
    const int32_t k = data.k;
    Bwa b(data, options);
    start(data, options, b);
    out.iterations = 0;
    bool cancelled = progress.cancelled(0, 0.0);
    const auto any_active = [&] { return std::find(b.active.begin(), b.active.end(), 1) != b.active.end(); };
    for (int32_t t = 1; t <= options.max_iter && any_active() && !cancelled; ++t) {
        iterate(data, b);
        if (b.tol > 0.0) {
            for (int32_t c = 0; c < k; ++c) {
                bool moved = false;
                for (int64_t p = 0; p < b.n_parts(); ++p) moved = moved || b.moved_parts[static_cast<std::size_t>(p * k + c)];
                if (!moved) b.active[c] = 0;  // converged: its scores are final
            }
        }
        update_precisions(data, b);
        out.iterations = t;
        out.trace.push_back(0.0);  // no objective (the iteration is no EM of a likelihood)
        cancelled = progress.cancelled(t, 0.0);
    }
    out.converged = !cancelled && !any_active();
    if (cancelled) {
        out.notes |= CS_NOTE_CANCELLED;
    } else if (!out.converged && options.tol > 0.0 && options.max_iter > 0) {
        out.notes |= CS_NOTE_MAX_ITER_REACHED;
        out.note_message += "bwa stopped at max_iter = " + std::to_string(options.max_iter) +
                            " iterations with scores still moving by more than tol. ";
    }

    // The class prior: the mean scores mu, normalised (the model's base rates), or
    // uniform with prior = uniform. Items without labels get it; the others their
    // scores, normalised (each is in [0, 1]).
    std::vector<double> prior(static_cast<std::size_t>(k), 0.0);
    for (int32_t j = 0; j < data.n_items; ++j)
        if (counted_item(data, j))
            for (int32_t c = 0; c < k; ++c) prior[c] += b.z[static_cast<std::size_t>(j) * k + c];
    double total = 0.0;
    for (double w : prior) total += w;
    const bool uniform = options.prior == CS_PRIOR_UNIFORM || !(total > 0.0);
    for (double &w : prior) w = uniform ? 1.0 / k : w / total;
    out.posteriors.assign(b.z.size(), 0.0);
    for (int32_t j = 0; j < data.n_items; ++j) {
        const double *zj = b.z.data() + static_cast<std::size_t>(j) * k;
        double *qj = out.posteriors.data() + static_cast<std::size_t>(j) * k;
        if (data.gold_of(j) >= 0) {
            qj[data.gold_of(j)] = 1.0;
            continue;
        }
        double row = 0.0;
        for (int32_t c = 0; c < k; ++c) row += zj[c];
        if (!counted_item(data, j) || !(row > 0.0)) {
            std::copy(prior.begin(), prior.end(), qj);
            continue;
        }
        for (int32_t c = 0; c < k; ++c) qj[c] = zj[c] / row;
    }
    out.labels = argmax_labels(out.posteriors, data.n_items, k);
    // Confusion matrices: one M-step from the posteriors (as mv's from the vote shares).
    DsParams params;
    m_step(data, out.posteriors, options, params);
    out.confusion = std::move(params.confusion);
    out.prior = std::move(prior);
    out.has_log_likelihood = false;
    return cancelled;
}

}  // namespace cs
