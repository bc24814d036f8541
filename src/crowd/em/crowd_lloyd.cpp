// SPDX-License-Identifier: MIT
#include "crowd/em/crowd_lloyd.hpp"

#include <algorithm>

#include "crowd/em/dawid_skene.hpp"
#include "data/item_partitions.hpp"
#include "crowd/voting/majority_vote.hpp"
#include "util/parallel.hpp"
#include "util/per_class.hpp"

namespace cs {

namespace {

// Add item j's labels, under its class g, into the centre counts
// counts[(w * k + h) * k + g] (worker w gave h to an item of current class g): the
// label code w * k + h indexes the row.
inline void count_item(const CrowdData &d, int64_t j, int32_t g, double *counts) {
    const int32_t k = d.k;
    for (int64_t p = d.item_start[j]; p < d.item_start[j + 1]; ++p)
        counts[static_cast<int64_t>(d.item_code[p]) * k + g] += 1.0;
}

struct LabelPass {
    double cost = 0.0;   // the (L-25) cost of the new labels
    int64_t changed = 0; // items whose label changed
};

// (L-25) label update of one partition: z_j = argmin_g sum over the labels (i, c) of j
// of cost_i[c][g], ties to the lowest index, from the previous labels z; the same
// pass counts the new labels for the next centre update. K > 0 fixes k at compile
// time (the common small cases); K = 0 reads it from the data.
template <int K>
LabelPass update_labels(const CrowdData &d, ItemRange r, const double *cost, const int32_t *z,
                        int32_t *next, double *counts) {
    const int32_t k = K > 0 ? K : d.k;
    ClassScratch<K> scratch(k);
    double *dist = scratch.data();
    LabelPass out;
    for (int64_t j = r.first; j < r.last; ++j) {
        const int64_t begin = d.item_start[j], end = d.item_start[j + 1];
        int32_t best = z[j];
        if (begin != end) {
            for (int32_t g = 0; g < k; ++g) dist[g] = 0.0;
            for (int64_t p = begin; p < end; ++p) {
                const double *row = cost + static_cast<int64_t>(d.item_code[p]) * k;
                for (int32_t g = 0; g < k; ++g) dist[g] += row[g];
            }
            if (d.gold_of(static_cast<int32_t>(j)) < 0) {  // gold items keep their class
                best = 0;
                for (int32_t g = 1; g < k; ++g)
                    if (dist[g] < dist[best]) best = g;
            }
            out.cost += dist[best];
            for (int64_t p = begin; p < end; ++p)
                counts[static_cast<int64_t>(d.item_code[p]) * k + best] += 1.0;
        }
        next[j] = best;
        out.changed += best != z[j];
    }
    return out;
}

LabelPass update_labels_k(const CrowdData &d, ItemRange r, const double *cost, const int32_t *z,
                          int32_t *next, double *counts) {
    return with_classes(d.k, [&](auto kc) {
        return update_labels<decltype(kc)::value>(d, r, cost, z, next, counts);
    });
}

}  // namespace

bool fit_crowd_lloyd(const CrowdData &data, const FitOptions &options, const Progress &progress,
                     FitResult &out) {
    const int32_t k = data.k, n = data.n_items, m = data.n_workers;
    const int64_t kk = static_cast<int64_t>(k) * k;
    const int64_t table = static_cast<int64_t>(m) * kk;
    const int threads = threads_for(options.threads, static_cast<int64_t>(data.n_labels()));
    const std::vector<ItemRange> parts = partition_items(data, table);
    const int64_t n_parts = static_cast<int64_t>(parts.size());

    std::vector<int32_t> z = argmax_labels(soft_majority_vote(data, options.threads), n, k);
    // Centres pi_i[g][h]; a worker with no item of current class g keeps its previous
    // row g, uniform at the start.
    std::vector<double> pi(static_cast<std::size_t>(table), 1.0 / k);
    // cost[(w * k + c) * k + g] = 1 - 2 pi_w[g][c] + ||pi_w[g]||^2: the (L-25) cost of
    // worker w's label c under class g, laid out so that a label adds k contiguous values.
    std::vector<double> cost(static_cast<std::size_t>(table));
    std::vector<double> counts(static_cast<std::size_t>(n_parts * table)), total(static_cast<std::size_t>(table));
    std::vector<double> part_cost(static_cast<std::size_t>(n_parts));
    std::vector<int64_t> part_changed(static_cast<std::size_t>(n_parts));
    std::vector<int32_t> next(static_cast<std::size_t>(n));
    out.trace.clear();
    out.has_log_likelihood = false;

    // Counts of the starting labels: one pass, each partition into its own table.
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) if (n_parts > 1)
    for (int64_t p = 0; p < n_parts; ++p)
        for (int64_t j = parts[p].first; j < parts[p].last; ++j)
            count_item(data, j, z[j], counts.data() + p * table);

    bool cancelled = progress.cancelled(0, 0.0);
    bool converged = false;
    int32_t iterations = 0;
    for (int32_t it = 1; it <= options.max_iter && !cancelled && !converged; ++it) {
        // (L-24) centre update over the items each worker labelled.
        sum_tables(counts.data(), table, n_parts, total.data(), threads);
#pragma omp parallel for schedule(static) num_threads(threads) if (m > 256)
        for (int32_t i = 0; i < m; ++i) {
            double *row = pi.data() + i * kk;
            const double *c = total.data() + i * kk;  // observed x class
            for (int32_t g = 0; g < k; ++g) {
                double labelled = 0.0;
                for (int32_t h = 0; h < k; ++h) labelled += c[h * k + g];
                if (labelled > 0.0)
                    for (int32_t h = 0; h < k; ++h) row[g * k + h] = c[h * k + g] / labelled;
                double norm2 = 0.0;
                for (int32_t h = 0; h < k; ++h) norm2 += row[g * k + h] * row[g * k + h];
                for (int32_t h = 0; h < k; ++h)
                    cost[(static_cast<int64_t>(i) * k + h) * k + g] = 1.0 - 2.0 * row[g * k + h] + norm2;
            }
        }
        // (L-25) label update of all items at once from the previous labels, which
        // also counts the new labels for the next centre update.
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) if (n_parts > 1)
        for (int64_t p = 0; p < n_parts; ++p) {
            double *part_counts = counts.data() + p * table;
            std::fill(part_counts, part_counts + table, 0.0);  // by its own thread, cache-warm
            const LabelPass pass = update_labels_k(data, parts[p], cost.data(), z.data(), next.data(),
                                                   part_counts);
            part_cost[p] = pass.cost;
            part_changed[p] = pass.changed;
        }
        double cost_total = 0.0;
        int64_t changed = 0;
        for (int64_t p = 0; p < n_parts; ++p) {  // partition order: deterministic
            cost_total += part_cost[p];
            changed += part_changed[p];
        }
        z.swap(next);
        converged = changed == 0;
        iterations = it;
        out.trace.push_back(-cost_total);
        cancelled = progress.cancelled(it, -cost_total);
    }

    out.iterations = iterations;
    out.converged = converged;
    out.labels = z;
    out.posteriors.assign(static_cast<std::size_t>(n) * k, 0.0);
    for (int32_t j = 0; j < n; ++j) {
        double *qj = out.posteriors.data() + static_cast<int64_t>(j) * k;
        if (data.item_start[j] == data.item_start[j + 1] && data.gold_of(j) < 0)
            std::fill(qj, qj + k, 1.0 / k);  // no labels: no information
        else
            qj[z[j]] = 1.0;
    }
    out.confusion = std::move(pi);
    out.prior.assign(static_cast<std::size_t>(k), 1.0 / k);
    if (options.prior == CS_PRIOR_ESTIMATED) {
        std::fill(out.prior.begin(), out.prior.end(), 0.0);
        for (int32_t j = 0; j < n; ++j) out.prior[z[j]] += 1.0 / n;
    }
    if (!converged && !cancelled && options.max_iter > 0) {
        out.notes |= CS_NOTE_MAX_ITER_REACHED;
        out.note_message += "CrowdLloyd stopped at max_iter = " + std::to_string(options.max_iter) +
                            " iterations with labels still changing. ";
    }
    if (cancelled) out.notes |= CS_NOTE_CANCELLED;
    return cancelled;
}

}  // namespace cs
