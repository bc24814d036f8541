#include "crowd/crowd_lloyd.hpp"

#include <algorithm>

#include "crowd/dawid_skene.hpp"
#include "crowd/majority_vote.hpp"
#include "util/parallel.hpp"

namespace cs {

bool fit_crowd_lloyd(const CrowdData &data, const FitOptions &options, const Progress &progress,
                     FitResult &out) {
    const int32_t k = data.k, n = data.n_items, m = data.n_workers;
    const int64_t kk = static_cast<int64_t>(k) * k;
    const int threads = resolve_threads(options.threads);

    std::vector<int32_t> z = argmax_labels(soft_majority_vote(data), n, k);
    // Centres: pi_i[g][h]; a worker with no item of current class g keeps its
    // previous row g, uniform at the start.
    std::vector<double> pi(static_cast<std::size_t>(m) * kk, 1.0 / k);
    std::vector<double> norm2(static_cast<std::size_t>(m) * k);
    std::vector<int32_t> next(static_cast<std::size_t>(n));
    out.trace.clear();
    out.has_log_likelihood = false;

    bool cancelled = progress.cancelled(0, 0.0);
    bool converged = false;
    int32_t iterations = 0;
    for (int32_t it = 1; it <= options.max_iter && !cancelled && !converged; ++it) {
        // (L-24) centre update over the items each worker labelled.
#pragma omp parallel num_threads(threads)
        {
        std::vector<double> counts(static_cast<std::size_t>(kk));
        std::vector<double> total(static_cast<std::size_t>(k));
#pragma omp for schedule(dynamic, 64)
        for (int32_t i = 0; i < m; ++i) {
            std::fill(counts.begin(), counts.end(), 0.0);
            std::fill(total.begin(), total.end(), 0.0);
            for (int64_t p = data.worker_start[i]; p < data.worker_start[i + 1]; ++p) {
                const int32_t g = z[data.worker_item[p]];
                counts[g * k + data.worker_label[p]] += 1.0;
                total[g] += 1.0;
            }
            double *row = pi.data() + i * kk;
            for (int32_t g = 0; g < k; ++g) {
                if (total[g] > 0.0)
                    for (int32_t h = 0; h < k; ++h) row[g * k + h] = counts[g * k + h] / total[g];
                double s = 0.0;
                for (int32_t h = 0; h < k; ++h) s += row[g * k + h] * row[g * k + h];
                norm2[static_cast<int64_t>(i) * k + g] = s;
            }
        }
        }
        // (L-25) label update: z_j = argmin_g sum over labels (i, c) of j of
        // (1 - 2 pi_i[g][c] + ||pi_i[g]||^2), ties to the lowest index, all items at once.
        double cost = 0.0;
        int64_t changed = 0;
#pragma omp parallel num_threads(threads)
        {
            std::vector<double> d(static_cast<std::size_t>(k));
#pragma omp for schedule(static) reduction(+ : changed)
            for (int32_t j = 0; j < n; ++j) {
                const int64_t begin = data.item_start[j], end = data.item_start[j + 1];
                if (begin == end || data.gold_of(j) >= 0) {  // nothing to move, or known
                    next[j] = z[j];
                    continue;
                }
                std::fill(d.begin(), d.end(), 0.0);
                for (int64_t p = begin; p < end; ++p) {
                    const int32_t i = data.item_worker[p], c = data.item_label[p];
                    const double *row = pi.data() + static_cast<int64_t>(i) * kk;
                    const double *nrm = norm2.data() + static_cast<int64_t>(i) * k;
                    for (int32_t g = 0; g < k; ++g) d[g] += 1.0 - 2.0 * row[g * k + c] + nrm[g];
                }
                const int32_t best = static_cast<int32_t>(std::min_element(d.begin(), d.end()) - d.begin());
                next[j] = best;
                changed += best != z[j];
            }
        }
        // The cost of the new labels under the current centres, summed in item order
        // (deterministic for any thread count).
        for (int32_t j = 0; j < n; ++j)
            for (int64_t p = data.item_start[j]; p < data.item_start[j + 1]; ++p) {
                const int32_t i = data.item_worker[p];
                cost += 1.0 - 2.0 * pi[static_cast<int64_t>(i) * kk + next[j] * k + data.item_label[p]] +
                        norm2[static_cast<int64_t>(i) * k + next[j]];
            }
        z.swap(next);
        converged = changed == 0;
        iterations = it;
        out.trace.push_back(-cost);
        cancelled = progress.cancelled(it, -cost);
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
