#include "crowd/dawid_skene.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "crowd/confusion_model.hpp"
#include "crowd/item_partitions.hpp"
#include "util/parallel.hpp"
#include "util/per_class.hpp"

namespace cs {

namespace {

constexpr double kMinusInf = -std::numeric_limits<double>::infinity();

// Tables an EM fit reuses every round. An EM round is one pass over the labels by
// item: the E-step (Z-4) of item j needs only j's labels, and the M-step (Z-5)
// counts are sums over labels of the new posteriors, so both happen in the same
// pass: after computing q_j, the pass adds q_j into the count rows of j's labels.
// This streams the labels once per round and never reads the posteriors of other
// items (the cache misses of a separate by-worker M-step pass).
struct Workspace {
    int32_t k = 0;
    int64_t table = 0;                  // m x k x k: doubles in one count table
    std::vector<ItemRange> parts;       // fixed item partitions (item_partitions.hpp)
    std::vector<double> counts;         // per partition: m x k (observed) x k (true)
    std::vector<double> total;          // the partitions' counts summed (finish_m_step)
    std::vector<double> prior_sums;     // per partition: k, sum of q_jl over its items
    std::vector<double> log_pi;         // m x k (observed) x k (true): log pi_i[l][c]
    std::vector<double> log_prior;      // k
    std::vector<double> part_ll;        // per partition
    std::vector<int64_t> part_impossible;
    int threads = 1;

    Workspace(const CrowdData &data, int32_t requested_threads)
        : k(data.k),
          table(static_cast<int64_t>(data.n_workers) * data.k * data.k),
          parts(partition_items(data, table)),
          counts(parts.size() * static_cast<std::size_t>(table)),
          total(static_cast<std::size_t>(table)),
          prior_sums(parts.size() * static_cast<std::size_t>(data.k)),
          log_pi(static_cast<std::size_t>(table)),
          log_prior(static_cast<std::size_t>(data.k)),
          part_ll(parts.size()),
          part_impossible(parts.size()),
          threads(threads_for(requested_threads, static_cast<int64_t>(data.n_labels()))) {}

    int64_t n_parts() const { return static_cast<int64_t>(parts.size()); }
};

// Add one item's posterior into the count rows of its labels and the prior sums.
template <int K>
inline void scatter_item(const CrowdData &d, int64_t j, int32_t k, const double *qj,
                         double *counts, double *prior_sum) {
    const int32_t kk = K > 0 ? K : k;
    for (int64_t p = d.item_start[j]; p < d.item_start[j + 1]; ++p) {
        double *row = counts + static_cast<int64_t>(d.item_code[p]) * kk;
        for (int32_t l = 0; l < kk; ++l) row[l] += qj[l];
    }
    for (int32_t l = 0; l < kk; ++l) prior_sum[l] += qj[l];
}

// Counts of one partition from given posteriors (the M-step of a posterior start).
template <int K>
void scatter_range(const CrowdData &d, ItemRange r, const double *q, double *counts,
                   double *prior_sum) {
    const int32_t k = d.k;
    // The prior sums are accumulated locally and stored once: neighbouring partitions'
    // sums share a cache line, and writing them per item made the threads fight over it.
    ClassScratch<K> local(k);
    double *sum = local.data();
    for (int32_t l = 0; l < k; ++l) sum[l] = 0.0;
    for (int64_t j = r.first; j < r.last; ++j)
        scatter_item<K>(d, j, k, q + j * (K > 0 ? K : k), counts, sum);
    for (int32_t l = 0; l < k; ++l) prior_sum[l] = sum[l];
}

// The E-step (Z-4) of one partition in log space, optionally adding the new
// posteriors into the partition's count table. K > 0 fixes k at compile time (the
// common small cases, unrolled); K = 0 reads it from the data.
template <int K>
void e_step_range(const CrowdData &d, ItemRange r, const double *log_pi, const double *log_prior,
                  const double *prior, double *q, double *counts, double *prior_sum,
                  double &ll_out, int64_t &impossible_out) {
    const int32_t k = K > 0 ? K : d.k;
    ClassScratch<K> scratch(k), local_prior(k);
    double *s = scratch.data();
    double *prior_local = local_prior.data();  // stored once at the end (see scatter_range)
    for (int32_t l = 0; l < k; ++l) prior_local[l] = 0.0;
    // The log-likelihood adds top_j + log(sum_j) per item, with 1 <= sum_j <= k. The
    // logs are batched: the sums are multiplied together and one log is taken per
    // batch, before the product can overflow (a log per item cost as much as the
    // rest of the E-step).
    double ll = 0.0, product = 1.0;
    constexpr double kFlush = 1e250;
    int64_t impossible = 0;
    for (int64_t j = r.first; j < r.last; ++j) {
        // log q_jl = log w_l + sum over the labels (i, c) of j of log pi_i[l][c].
        for (int32_t l = 0; l < k; ++l) s[l] = log_prior[l];
        for (int64_t p = d.item_start[j]; p < d.item_start[j + 1]; ++p) {
            const double *row = log_pi + static_cast<int64_t>(d.item_code[p]) * k;
            for (int32_t l = 0; l < k; ++l) s[l] += row[l];
        }
        double *qj = q + j * k;
        const int32_t gold = d.gold_of(static_cast<int32_t>(j));
        if (gold >= 0) {
            // A gold item is pinned to its class; it adds the complete-data
            // log-likelihood of that class.
            for (int32_t l = 0; l < k; ++l) qj[l] = 0.0;
            qj[gold] = 1.0;
            if (s[gold] == kMinusInf) ++impossible;
            else ll += s[gold];
        } else {
            int32_t best = 0;
            for (int32_t l = 1; l < k; ++l)
                if (s[l] > s[best]) best = l;
            const double top = s[best];
            if (top == kMinusInf) {  // every class impossible: fall back to the prior
                for (int32_t l = 0; l < k; ++l) qj[l] = prior[l];
                ++impossible;
            } else {
                double sum = 0.0;
                for (int32_t l = 0; l < k; ++l) {
                    // exp(0) = 1 exactly for the top class; exp(-inf) = 0.
                    qj[l] = l == best ? 1.0 : std::exp(s[l] - top);
                    sum += qj[l];
                }
                for (int32_t l = 0; l < k; ++l) qj[l] /= sum;
                ll += top;
                if (product > kFlush / sum) {
                    ll += std::log(product);
                    product = 1.0;
                }
                product *= sum;
            }
        }
        if (counts != nullptr) scatter_item<K>(d, j, k, qj, counts, prior_local);
    }
    if (prior_sum != nullptr)
        for (int32_t l = 0; l < k; ++l) prior_sum[l] = prior_local[l];
    ll_out = ll + std::log(product);
    impossible_out = impossible;
}

template <class F>
void for_each_part(const Workspace &ws, F &&f) {
#pragma omp parallel for schedule(dynamic, 1) num_threads(ws.threads) if (ws.n_parts() > 1)
    for (int64_t p = 0; p < ws.n_parts(); ++p) f(p);
}

// Counts of the posteriors q in every partition (the M-step of a posterior start).
void scatter_posteriors(const CrowdData &d, Workspace &ws, const double *q) {
    with_classes(d.k, [&](auto kc) {
        constexpr int K = decltype(kc)::value;
        for_each_part(ws, [&](int64_t p) {
            double *counts = ws.counts.data() + p * ws.table;
            std::fill(counts, counts + ws.table, 0.0);  // by its own thread: parallel, cache-warm
            scatter_range<K>(d, ws.parts[p], q, counts, ws.prior_sums.data() + p * d.k);
        });
    });
}

// The E-step of every partition, and with `scatter` the next M-step's counts.
void e_step_parts(const CrowdData &d, Workspace &ws, const double *prior, double *q, bool scatter) {
    with_classes(d.k, [&](auto kc) {
        constexpr int K = decltype(kc)::value;
        for_each_part(ws, [&](int64_t p) {
            double *counts = scatter ? ws.counts.data() + p * ws.table : nullptr;
            if (counts != nullptr) std::fill(counts, counts + ws.table, 0.0);
            e_step_range<K>(d, ws.parts[p], ws.log_pi.data(), ws.log_prior.data(), prior, q, counts,
                            scatter ? ws.prior_sums.data() + p * d.k : nullptr, ws.part_ll[p],
                            ws.part_impossible[p]);
        });
    });
}

// The M-step (Z-5) from the counts of the last pass: sum the partitions' tables,
// add the smoothing pseudo-count, apply the confusion model and normalise each true
// class; the prior, when estimated, is the mean posterior. Also fills log pi (with
// log 0 = -inf marking impossible classes) for the next E-step.
void finish_m_step(const CrowdData &d, Workspace &ws, const FitOptions &options, DsParams &params) {
    const int32_t k = d.k;
    const int64_t kk = static_cast<int64_t>(k) * k;
    std::vector<double> &total = ws.total;  // reused every round: no allocation in the EM loop
    sum_tables(ws.counts.data(), ws.table, ws.n_parts(), total.data(), ws.threads);
    params.confusion.resize(static_cast<std::size_t>(ws.table));
#pragma omp parallel for schedule(static) num_threads(ws.threads) if (d.n_workers > 256)
    for (int32_t i = 0; i < d.n_workers; ++i) {
        double *pi = params.confusion.data() + i * kk;
        const double *c = total.data() + i * kk;  // observed x true
        for (int32_t l = 0; l < k; ++l)
            for (int32_t o = 0; o < k; ++o) pi[l * k + o] = options.smoothing + c[o * k + l];
        apply_confusion_model(pi, k, options.confusion);
    }
    params.prior.assign(static_cast<std::size_t>(k), 1.0 / k);
    if (options.prior == CS_PRIOR_ESTIMATED && d.n_items > 0) {
        for (int32_t l = 0; l < k; ++l) {
            double sum = 0.0;
            for (int64_t p = 0; p < ws.n_parts(); ++p) sum += ws.prior_sums[p * k + l];
            params.prior[l] = sum / d.n_items;
        }
    }
}

// log pi transposed to worker x observed x true, so that one label adds k contiguous
// values, and log w.
void prepare_logs(const CrowdData &d, const DsParams &params, Workspace &ws) {
    const int32_t k = d.k;
    const int64_t kk = static_cast<int64_t>(k) * k;
#pragma omp parallel for schedule(static) num_threads(ws.threads) if (d.n_workers > 256)
    for (int32_t i = 0; i < d.n_workers; ++i) {
        const double *pi = params.confusion.data() + i * kk;
        double *out = ws.log_pi.data() + i * kk;
        for (int32_t l = 0; l < k; ++l)
            for (int32_t c = 0; c < k; ++c) out[c * k + l] = std::log(pi[l * k + c]);
    }
    for (int32_t l = 0; l < k; ++l) ws.log_prior[l] = std::log(params.prior[l]);
}

EStep run_e_step(const CrowdData &d, const DsParams &params, Workspace &ws, std::vector<double> &q,
                 bool scatter) {
    q.resize(static_cast<std::size_t>(d.n_items) * d.k);
    prepare_logs(d, params, ws);
    e_step_parts(d, ws, params.prior.data(), q.data(), scatter);
    EStep result;
    for (int64_t p = 0; p < ws.n_parts(); ++p) {  // in partition order: deterministic
        result.log_likelihood += ws.part_ll[p];
        result.impossible_items += ws.part_impossible[p];
    }
    return result;
}

}  // namespace

void m_step(const CrowdData &data, const std::vector<double> &q, const FitOptions &options,
            DsParams &params) {
    Workspace ws(data, options.threads);
    scatter_posteriors(data, ws, q.data());
    finish_m_step(data, ws, options, params);
}

EStep e_step(const CrowdData &data, const DsParams &params, int32_t threads, std::vector<double> &q) {
    Workspace ws(data, threads);
    return run_e_step(data, params, ws, q, false);
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
    Workspace ws(data, options.threads);
    out.trace.clear();
    out.has_log_likelihood = true;

    // A posterior start's first M-step needs the counts of the start.
    if (!from_params) scatter_posteriors(data, ws, q.data());

    bool cancelled = progress.cancelled(0, 0.0);
    bool converged = false;
    int32_t rounds = 0;
    EStep last;
    if (cancelled || options.max_iter == 0) {
        // No EM round: complete the starting point into a consistent fit.
        if (from_params)
            last = run_e_step(data, params, ws, q, false);
        else
            finish_m_step(data, ws, options, params);
    }
    for (int32_t round = 1; round <= options.max_iter && !cancelled && !converged; ++round) {
        // A round is (M-step, E-step); an Opt-D&S start's first round is its E-step.
        // The E-step pass also accumulates the counts of the next round's M-step.
        if (!(round == 1 && from_params)) finish_m_step(data, ws, options, params);
        last = run_e_step(data, params, ws, q, true);
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
