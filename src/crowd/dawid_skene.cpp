#include "crowd/dawid_skene.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "crowd/confusion_model.hpp"
#include "util/parallel.hpp"

namespace cs {

namespace {

// Items per chunk of the E-step; partial sums are combined in chunk order so that
// the log-likelihood is bit-identical for any thread count.
constexpr int64_t kItemChunk = 2048;

}  // namespace

void m_step(const CrowdData &data, const std::vector<double> &q, const FitOptions &options,
            DsParams &params) {
    const int32_t k = data.k;
    const int64_t kk = static_cast<int64_t>(k) * k;
    params.confusion.assign(static_cast<std::size_t>(data.n_workers) * kk, 0.0);
    const int threads = resolve_threads(options.threads);
    // (Z-5): pi_i[l][c] proportional to sum over the items j that worker i labelled c
    // of q_jl, plus the smoothing pseudo-count; each worker is independent.
#pragma omp parallel for schedule(dynamic, 64) num_threads(threads)
    for (int32_t i = 0; i < data.n_workers; ++i) {
        double *counts = params.confusion.data() + i * kk;
        std::fill(counts, counts + kk, options.smoothing);
        for (int64_t p = data.worker_start[i]; p < data.worker_start[i + 1]; ++p) {
            const double *qj = q.data() + static_cast<int64_t>(data.worker_item[p]) * k;
            const int32_t c = data.worker_label[p];
            for (int32_t l = 0; l < k; ++l) counts[l * k + c] += qj[l];
        }
        apply_confusion_model(counts, k, options.confusion);
    }

    params.prior.assign(static_cast<std::size_t>(k), 1.0 / k);
    if (options.prior == CS_PRIOR_ESTIMATED && data.n_items > 0) {
        // w_l = (1/n) sum_j q_jl, summed in item order (deterministic).
        std::vector<double> sum(static_cast<std::size_t>(k), 0.0);
        for (int32_t j = 0; j < data.n_items; ++j)
            for (int32_t l = 0; l < k; ++l) sum[l] += q[static_cast<int64_t>(j) * k + l];
        for (int32_t l = 0; l < k; ++l) params.prior[l] = sum[l] / data.n_items;
    }
}

EStep e_step(const CrowdData &data, const DsParams &params, int32_t threads_requested,
             std::vector<double> &q) {
    const int32_t k = data.k;
    const int64_t kk = static_cast<int64_t>(k) * k;
    const int threads = resolve_threads(threads_requested);
    q.resize(static_cast<std::size_t>(data.n_items) * k);

    // log pi transposed to worker x observed x true, so that one label adds k
    // contiguous values. log 0 = -inf marks an impossible class.
    std::vector<double> log_pi(static_cast<std::size_t>(data.n_workers) * kk);
#pragma omp parallel for schedule(static) num_threads(threads)
    for (int32_t i = 0; i < data.n_workers; ++i) {
        const double *pi = params.confusion.data() + i * kk;
        double *out = log_pi.data() + i * kk;
        for (int32_t l = 0; l < k; ++l)
            for (int32_t c = 0; c < k; ++c) out[c * k + l] = std::log(pi[l * k + c]);
    }
    std::vector<double> log_prior(static_cast<std::size_t>(k));
    for (int32_t l = 0; l < k; ++l) log_prior[l] = std::log(params.prior[l]);

    const int64_t n_chunks = chunk_count(data.n_items, kItemChunk);
    std::vector<double> chunk_ll(static_cast<std::size_t>(n_chunks), 0.0);
    std::vector<int64_t> chunk_impossible(static_cast<std::size_t>(n_chunks), 0);
    const double minus_inf = -std::numeric_limits<double>::infinity();

#pragma omp parallel num_threads(threads)
    {
        std::vector<double> s(static_cast<std::size_t>(k));
#pragma omp for schedule(dynamic, 1)
        for (int64_t chunk = 0; chunk < n_chunks; ++chunk) {
            const int64_t first = chunk * kItemChunk;
            const int64_t last = std::min<int64_t>(first + kItemChunk, data.n_items);
            double ll = 0.0;
            int64_t impossible = 0;
            for (int64_t j = first; j < last; ++j) {
                // (Z-4): log q_jl = log w_l + sum over the labels (i, c) of j of log pi_i[l][c].
                std::copy(log_prior.begin(), log_prior.end(), s.begin());
                for (int64_t p = data.item_start[j]; p < data.item_start[j + 1]; ++p) {
                    const double *row =
                        log_pi.data() + (static_cast<int64_t>(data.item_worker[p]) * k +
                                         data.item_label[p]) * k;
                    for (int32_t l = 0; l < k; ++l) s[l] += row[l];
                }
                double *qj = q.data() + j * k;
                const int32_t gold = data.gold_of(static_cast<int32_t>(j));
                if (gold >= 0) {
                    // A gold item is pinned to its class; it adds the complete-data
                    // log-likelihood of that class.
                    std::fill(qj, qj + k, 0.0);
                    qj[gold] = 1.0;
                    if (s[gold] == minus_inf) ++impossible;
                    else ll += s[gold];
                    continue;
                }
                double top = minus_inf;
                for (int32_t l = 0; l < k; ++l) top = std::max(top, s[l]);
                if (top == minus_inf) {  // every class impossible: fall back to the prior
                    std::copy(params.prior.begin(), params.prior.end(), qj);
                    ++impossible;
                    continue;
                }
                double sum = 0.0;
                for (int32_t l = 0; l < k; ++l) {
                    qj[l] = std::exp(s[l] - top);  // exp(-inf) = 0 for impossible classes
                    sum += qj[l];
                }
                for (int32_t l = 0; l < k; ++l) qj[l] /= sum;
                ll += top + std::log(sum);
            }
            chunk_ll[chunk] = ll;
            chunk_impossible[chunk] = impossible;
        }
    }

    EStep result;
    for (int64_t chunk = 0; chunk < n_chunks; ++chunk) {
        result.log_likelihood += chunk_ll[chunk];
        result.impossible_items += chunk_impossible[chunk];
    }
    return result;
}

std::vector<int32_t> argmax_labels(const std::vector<double> &q, int32_t n_items, int32_t k) {
    std::vector<int32_t> labels(static_cast<std::size_t>(n_items));
    for (int32_t j = 0; j < n_items; ++j) {
        const double *qj = q.data() + static_cast<int64_t>(j) * k;
        int32_t best = 0;
        for (int32_t l = 1; l < k; ++l)
            if (qj[l] > qj[best]) best = l;
        labels[j] = best;
    }
    return labels;
}

bool run_em(const CrowdData &data, const FitOptions &options, const Progress &progress,
            EmStart start, FitResult &out) {
    const bool from_params = !start.params.confusion.empty();
    DsParams params = std::move(start.params);
    std::vector<double> q = std::move(start.posteriors);
    out.trace.clear();
    out.has_log_likelihood = true;

    bool cancelled = progress.cancelled(0, 0.0);
    bool converged = false;
    int32_t rounds = 0;
    EStep last;
    if (cancelled || options.max_iter == 0) {
        // No EM round: complete the starting point into a consistent fit.
        if (from_params)
            last = e_step(data, params, options.threads, q);
        else
            m_step(data, q, options, params);
    }
    for (int32_t round = 1; round <= options.max_iter && !cancelled && !converged; ++round) {
        // A round is (M-step, E-step); an Opt-D&S start's first round is its E-step.
        if (!(round == 1 && from_params)) m_step(data, q, options, params);
        last = e_step(data, params, options.threads, q);
        const double ll = last.log_likelihood;
        if (round >= 2) {
            const double previous = out.trace.back();
            converged = std::fabs(ll - previous) < options.tol * std::fabs(previous);
        }
        out.trace.push_back(ll);
        rounds = round;
        cancelled = progress.cancelled(round, ll);
    }

    out.iterations = rounds;
    out.converged = converged;
    out.posteriors = std::move(q);
    out.confusion = std::move(params.confusion);
    out.prior = std::move(params.prior);
    out.labels = argmax_labels(out.posteriors, data.n_items, data.k);
    if (!converged && !cancelled && options.max_iter > 0 && options.tol > 0.0) {
        out.notes |= CS_NOTE_MAX_ITER_REACHED;
        out.note_message += "EM stopped at max_iter = " + std::to_string(options.max_iter) +
                            " rounds before the relative log-likelihood change fell below tol. ";
    }
    if (last.impossible_items > 0) {
        out.notes |= CS_NOTE_IMPOSSIBLE_ITEMS;
        out.note_message += std::to_string(last.impossible_items) +
                            " items have zero likelihood under every class (zero confusion "
                            "entries); they got the prior as posterior. ";
    }
    if (cancelled) out.notes |= CS_NOTE_CANCELLED;
    return cancelled;
}

}  // namespace cs
