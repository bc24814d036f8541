// SPDX-License-Identifier: MIT
// Wawa and Zero-Based Skill (ALGORITHMS-style specification in docs/defaults.md,
// "Voting methods"): both weigh each worker's vote by the worker's agreement with the
// aggregate, Wawa once, ZBS by damped steps towards a fixed point. Cost per round:
// two passes over the labels in item order (the vote, then the agreement).
#include "crowd/voting/weighted_vote.hpp"

#include <algorithm>
#include <cmath>

#include "crowd/em/dawid_skene.hpp"
#include "util/parallel.hpp"

namespace cs {

std::vector<double> weighted_vote(const CrowdData &data, const std::vector<double> &weight, int threads) {
    const int32_t k = data.k;
    std::vector<double> q(static_cast<std::size_t>(data.n_items) * k, 0.0);
#pragma omp parallel for schedule(static, 4096) num_threads(threads)
    for (int32_t j = 0; j < data.n_items; ++j) {
        double *qj = q.data() + static_cast<int64_t>(j) * k;
        if (data.gold_of(j) >= 0) {
            qj[data.gold_of(j)] = 1.0;
            continue;
        }
        for (int64_t p = data.item_start[j]; p < data.item_start[j + 1]; ++p)
            qj[data.label_of(p)] += weight[data.worker_of(p)];
        double total = 0.0;
        for (int32_t l = 0; l < k; ++l) total += qj[l];
        if (total > 0.0) {
            for (int32_t l = 0; l < k; ++l) qj[l] /= total;
        } else {
            std::fill(qj, qj + k, 1.0 / k);
        }
    }
    return q;
}

WorkerAgreement agreement(const CrowdData &data, const std::vector<int32_t> &labels, int threads) {
    const std::size_t m = static_cast<std::size_t>(data.n_workers);
    // One pass in item order, integer counts per worker: each thread counts its items
    // into its own tables, added afterwards. Integer sums do not depend on the order, so
    // the result is the same for any thread count, and no by-worker index is needed.
    std::vector<int64_t> agree(m, 0), count(m, 0);
#pragma omp parallel num_threads(threads)
    {
        std::vector<int64_t> my_agree(m, 0), my_count(m, 0);
#pragma omp for schedule(static, 4096) nowait
        for (int32_t j = 0; j < data.n_items; ++j) {
            const int32_t lj = labels[j];
            for (int64_t p = data.item_start[j]; p < data.item_start[j + 1]; ++p) {
                const std::size_t w = static_cast<std::size_t>(data.worker_of(p));
                ++my_count[w];
                my_agree[w] += data.label_of(p) == lj;
            }
        }
#pragma omp critical(cs_agreement_sum)
        for (std::size_t i = 0; i < m; ++i) {
            agree[i] += my_agree[i];
            count[i] += my_count[i];
        }
    }
    WorkerAgreement out;
    out.rate.assign(m, 0.0);
    for (std::size_t i = 0; i < m; ++i)
        out.rate[i] = count[i] > 0 ? static_cast<double>(agree[i]) / static_cast<double>(count[i]) : 0.0;
    out.labels = std::move(count);
    return out;
}

std::vector<double> one_coin_confusion(const std::vector<double> &accuracy, const std::vector<int64_t> &labels,
                                       int32_t k) {
    const std::size_t m = accuracy.size(), kk = static_cast<std::size_t>(k) * k;
    std::vector<double> confusion(m * kk);
    for (std::size_t i = 0; i < m; ++i) {
        const bool known = labels[i] > 0;
        const double p = known ? std::min(1.0, std::max(0.0, accuracy[i])) : 1.0 / k;
        const double off = (1.0 - p) / (k - 1);
        for (int32_t l = 0; l < k; ++l)
            for (int32_t c = 0; c < k; ++c) confusion[i * kk + static_cast<std::size_t>(l) * k + c] = l == c ? p : off;
    }
    return confusion;
}

std::vector<double> posterior_mean_prior(const std::vector<double> &q, int32_t n_items, int32_t k,
                                         const FitOptions &options) {
    std::vector<double> prior(static_cast<std::size_t>(k), 1.0 / k);
    if (options.prior != CS_PRIOR_ESTIMATED || n_items == 0) return prior;
    std::fill(prior.begin(), prior.end(), 0.0);
    for (int32_t j = 0; j < n_items; ++j)
        for (int32_t l = 0; l < k; ++l) prior[l] += q[static_cast<std::size_t>(j) * k + l];
    for (double &w : prior) w /= static_cast<double>(n_items);
    return prior;
}

namespace {

// The agreement-weighted votes: skills start equal (so the first vote is the majority
// vote), then each round moves them by lr towards the agreement with the current vote
// and votes again. Wawa is one round with lr = 1.
bool fit_agreement_vote(const CrowdData &data, const FitOptions &options, const Progress &progress,
                        int32_t max_rounds, bool decay, FitResult &out) {
    const int threads = threads_for(options.threads, static_cast<int64_t>(data.n_labels()));
    const int32_t k = data.k;
    std::vector<double> skill(static_cast<std::size_t>(data.n_workers), 1.0);
    out.posteriors = weighted_vote(data, skill, threads);
    out.labels = argmax_labels(out.posteriors, data.n_items, k);
    out.iterations = 0;
    out.converged = false;
    bool cancelled = progress.cancelled(0, 0.0);
    if (!cancelled && max_rounds == 0) out.converged = true;
    double lr = 1.0;
    std::vector<int64_t> labels_per_worker;  // from the first agreement pass
    for (int32_t r = 1; r <= max_rounds && !cancelled; ++r) {
        if (decay && r % 20 == 0) lr *= 0.5;
        const WorkerAgreement with_vote = agreement(data, out.labels, threads);
        const std::vector<double> &acc = with_vote.rate;
        if (r == 1) labels_per_worker = with_vote.labels;
        double moved = 0.0;
        for (std::size_t i = 0; i < skill.size(); ++i) {
            // The first round sets every skill to its agreement (lr = 1; the equal start
            // only made the first vote unweighted).
            const double next = r == 1 ? acc[i] : skill[i] + lr * (acc[i] - skill[i]);
            moved = std::max(moved, std::fabs(next - skill[i]));
            skill[i] = next;
        }
        out.posteriors = weighted_vote(data, skill, threads);
        out.labels = argmax_labels(out.posteriors, data.n_items, k);
        out.iterations = r;
        out.trace.push_back(0.0);
        cancelled = progress.cancelled(r, 0.0);
        if (!decay || (options.tol > 0.0 && moved <= options.tol)) {
            out.converged = !cancelled;
            break;
        }
    }
    if (cancelled) {
        out.notes |= CS_NOTE_CANCELLED;
    } else if (!out.converged) {
        out.notes |= CS_NOTE_MAX_ITER_REACHED;
        out.note_message += "zbs stopped at max_iter = " + std::to_string(options.max_iter) +
                            " rounds with skills still moving by more than tol. ";
        if (options.tol == 0.0) {  // exactly max_iter rounds were asked for
            out.notes &= ~CS_NOTE_MAX_ITER_REACHED;
            out.note_message.clear();
        }
    }
    // A worker's weight is its skill; its one-coin matrix says so. Before any round the
    // skills are the equal start, i.e. unknown: the agreement with the majority vote
    // describes the workers better.
    if (out.iterations == 0) {
        WorkerAgreement with_vote = agreement(data, out.labels, threads);
        skill = std::move(with_vote.rate);
        labels_per_worker = std::move(with_vote.labels);
    }
    out.confusion = one_coin_confusion(skill, labels_per_worker, k);
    out.prior = posterior_mean_prior(out.posteriors, data.n_items, k, options);
    out.has_log_likelihood = false;
    return cancelled;
}

}  // namespace

bool fit_wawa(const CrowdData &data, const FitOptions &options, const Progress &progress, FitResult &out) {
    return fit_agreement_vote(data, options, progress, options.max_iter == 0 ? 0 : 1, false, out);
}

bool fit_zbs(const CrowdData &data, const FitOptions &options, const Progress &progress, FitResult &out) {
    return fit_agreement_vote(data, options, progress, options.max_iter, true, out);
}

}  // namespace cs
