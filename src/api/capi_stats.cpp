// SPDX-License-Identifier: MIT
// The sufficient statistics of Dawid-Skene EM as a public API (issue 38): a shard's
// start and E-step statistics, the M-step from summed statistics, and cs_fit_stats,
// which runs the library's own EM loop on statistics an engine sums (Dask, Spark; MPI
// sums the same quantities inside cs_fit_mpi, see core/collective.hpp).
//
// cs_fit_stats gives the EM of dawid_skene.cpp a crowd with no local item and a shard
// whose items are the engine's (data/crowd_shard.hpp, Shard::remote): before each
// E-step the fit hands the parameters to the engine, and the sums it then completes --
// the log-likelihood and impossible count of that E-step, the next M-step's counts and
// class mass, the workers' label counts of auto's strata -- are the engine's
// statistics. So the start, the rounds, SQUAREM and the stopping rule are the very code
// of cs_fit.
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "api/arguments.hpp"
#include "api/guard.hpp"
#include "api/model.hpp"
#include "core/collective.hpp"
#include "crowd/em/dawid_skene.hpp"
#include "crowd/em/ds_steps.hpp"
#include "crowd/voting/majority_vote.hpp"
#include "data/crowd_shard.hpp"

using cs::Error;
using cs::require;

namespace {

constexpr double kMinusInf = -HUGE_VAL;

std::size_t stats_length(std::size_t n_workers, std::size_t k) {
    if (k == 0 || n_workers > (SIZE_MAX - 2) / k / k) return 0;
    const std::size_t table = n_workers * k * k;
    return table > SIZE_MAX - k - 2 ? 0 : table + k + 2;
}

void check_sizes(std::size_t n_workers, std::size_t k) {
    if (k < 2) throw Error(CS_ERR_TOO_FEW_CLASSES, "k = " + std::to_string(k) + ": at least 2 classes");
    if (k > CS_MAX_CROWD_CLASSES)
        throw Error(CS_ERR_TOO_MANY_CLASSES, "k = " + std::to_string(k) + " > " + std::to_string(CS_MAX_CROWD_CLASSES));
    if (n_workers == 0 || n_workers * k >= (std::size_t{1} << 32) || n_workers > INT32_MAX)
        throw Error(CS_ERR_TOO_LARGE, "n_workers = " + std::to_string(n_workers) + " with k = " + std::to_string(k));
}

void check_statistics(const double *stats, std::size_t n, std::size_t expected) {
    require(stats, "stats");
    if (n != expected)
        throw Error(CS_ERR_INVALID_ARGUMENT, "statistics of " + std::to_string(n) + " values; n_workers x k x k + k + 2 = " +
                                                 std::to_string(expected));
    for (std::size_t e = 0; e + 2 < n; ++e)
        if (!(std::isfinite(stats[e]) && stats[e] >= 0.0))
            throw Error(CS_ERR_INVALID_ARGUMENT, "stats[" + std::to_string(e) + "] = " + std::to_string(stats[e]) +
                                                     ": counts and class mass are finite and >= 0");
}

void check_family(int32_t method) {
    if (method != CS_METHOD_DS && method != CS_METHOD_ONE_COIN_DS && method != CS_METHOD_CLASS_ONE_COIN_DS &&
        method != CS_METHOD_AUTO)
        throw Error(CS_ERR_INVALID_ARGUMENT, std::string("method '") + (cs_method_name(method) ? cs_method_name(method) : "?") +
                                                 "' does not run on statistics alone; ds, one-coin-ds, "
                                                 "class-one-coin-ds and auto do");
}

// Labels per worker: the rounded row sums of the count tables (each labelled item's
// posterior sums to 1).
std::vector<uint64_t> worker_labels(const double *counts, int32_t n_workers, int32_t k) {
    const int64_t kk = static_cast<int64_t>(k) * k;
    std::vector<uint64_t> out(static_cast<std::size_t>(n_workers));
    for (int32_t i = 0; i < n_workers; ++i) {
        double sum = 0.0;
        for (int64_t e = 0; e < kk; ++e) sum += counts[i * kk + e];
        out[static_cast<std::size_t>(i)] = static_cast<uint64_t>(std::llround(sum));
    }
    return out;
}

// The engine behind cs_fit_stats, as the shard's Collective and remote items.
class EngineItems final : public cs::Collective, public cs::RemoteItems {
public:
    EngineItems(cs_e_step_fn fn, void *user, int32_t n_workers, int32_t k, const double *start)
        : fn_(fn), user_(user), n_workers_(n_workers), k_(k),
          table_(static_cast<std::size_t>(n_workers) * k * k), stats_(start, start + table_ + k + 2),
          labels_(worker_labels(start, n_workers, k)) {}

    int32_t rank() const override { return 0; }
    int32_t size() const override { return 1; }
    void e_step(const double *confusion, const double *prior) override {
        if (fn_(user_, confusion, prior, stats_.data()) != 0)
            throw Error(CS_ERR_CANCELLED, "the engine's E-step asked to stop");
        for (std::size_t e = 0; e < stats_.size(); ++e)
            if (!std::isfinite(stats_[e]) || (e < table_ + k_ && stats_[e] < 0.0))
                throw Error(CS_ERR_INVALID_ARGUMENT, "the engine's statistics: entry " + std::to_string(e) + " = " +
                                                         std::to_string(stats_[e]));
        counts_ready_ = ll_ready_ = true;
    }
    void sum(double *values, std::size_t n) override {
        if (n == 2 && ll_ready_) {
            values[0] += stats_[table_ + k_];
            values[1] += stats_[table_ + k_ + 1];
            ll_ready_ = false;
            return;
        }
        if (n == table_ + k_ && counts_ready_) {
            for (std::size_t e = 0; e < n; ++e) values[e] += stats_[e];
            counts_ready_ = false;
            return;
        }
        unexpected(n);
    }
    void sum(uint64_t *values, std::size_t n) override {
        if (n != labels_.size()) unexpected(n);
        for (std::size_t e = 0; e < n; ++e) values[e] += labels_[e];
    }
    void max(int64_t *, std::size_t n) override { unexpected(n); }
    uint64_t total_labels() const {
        uint64_t sum = 0;
        for (uint64_t n : labels_) sum += n;
        return sum;
    }

private:
    [[noreturn]] static void unexpected(std::size_t n) {
        throw Error(CS_ERR_INTERNAL, "cs_fit_stats: the fit asked for a sum of " + std::to_string(n) +
                                         " values that the statistics do not carry");
    }
    cs_e_step_fn fn_;
    void *user_;
    int32_t n_workers_, k_;
    std::size_t table_;
    std::vector<double> stats_;
    std::vector<uint64_t> labels_;
    bool counts_ready_ = true;  // the start's counts, for the first M-step
    bool ll_ready_ = false;
};

const cs::CrowdData &shard_of(const cs_model *model) {
    if (!model->kept_data || model->fit_params)
        throw Error(CS_ERR_NOT_FITTED, "the handle has no shard: call cs_shard_labels first");
    return *model->kept_data;
}

// Counts and class mass of posteriors q over a shard's labels, in item order.
void scatter(const cs::CrowdData &d, const std::vector<double> &q, double *stats) {
    const int32_t k = d.k;
    const std::size_t table = static_cast<std::size_t>(d.n_workers) * k * k;
    std::fill(stats, stats + table + k + 2, 0.0);
    for (int32_t j = 0; j < d.n_items; ++j) {
        const double *qj = q.data() + static_cast<int64_t>(j) * k;
        for (int64_t p = d.item_start[j]; p < d.item_start[j + 1]; ++p) {
            double *row = stats + static_cast<int64_t>(d.item_code[p]) * k;
            for (int32_t l = 0; l < k; ++l) row[l] += qj[l];
        }
        for (int32_t l = 0; l < k; ++l) stats[table + l] += qj[l];
    }
}

}  // namespace

extern "C" {

CS_API size_t cs_stats_length(size_t n_workers, size_t k) { return stats_length(n_workers, k); }

CS_API cs_status cs_shard_labels(cs_model *model, const int32_t *item, const int32_t *worker, const int32_t *label,
                                 size_t n_labels, size_t n_items, size_t n_workers, size_t k) {
    return cs::guard(model, [&] {
        cs::clear_fit(model);
        check_sizes(n_workers, k);
        if (n_items == 0) throw Error(CS_ERR_EMPTY_INPUT, "a shard of 0 items");
        if (n_items > INT32_MAX - 1) throw Error(CS_ERR_TOO_LARGE, "n_items = " + std::to_string(n_items));
        cs::FitOptions options = model->params.fit_options();
        options.items = static_cast<int32_t>(n_items);
        options.workers = static_cast<int32_t>(n_workers);
        options.classes = static_cast<int32_t>(k);
        cs::CrowdData data;
        if (n_labels == 0) {
            data.n_items = static_cast<int32_t>(n_items);
            data.n_workers = static_cast<int32_t>(n_workers);
            data.k = static_cast<int32_t>(k);
            data.item_start.assign(n_items + 1, 0);
        } else {
            data = cs::CrowdData::build(item, worker, label, n_labels, options);
        }
        if (data.item_code.is_view()) data.item_code.resize(data.item_code.size());
        model->kept_data = std::make_unique<cs::CrowdData>(std::move(data));
    });
}

CS_API cs_status cs_shard_start(cs_model *model, double *stats, size_t capacity) {
    return cs::guard(model, [&] {
        const cs::CrowdData &d = shard_of(model);
        require(stats, "stats");
        const std::size_t n = stats_length(static_cast<std::size_t>(d.n_workers), static_cast<std::size_t>(d.k));
        if (capacity < n)
            throw Error(CS_ERR_BUFFER_TOO_SMALL, "stats: capacity " + std::to_string(capacity) + " < " + std::to_string(n));
        scatter(d, cs::soft_majority_vote(d, model->params.fit_options().threads), stats);
    });
}

CS_API cs_status cs_shard_e_step(cs_model *model, const double *confusion, const double *prior, double *stats,
                                 size_t capacity) {
    return cs::guard(model, [&] {
        const cs::CrowdData &d = shard_of(model);
        require(confusion, "confusion");
        require(prior, "prior");
        require(stats, "stats");
        const int32_t k = d.k;
        const std::size_t table = static_cast<std::size_t>(d.n_workers) * k * k;
        const std::size_t n = table + k + 2;
        if (capacity < n)
            throw Error(CS_ERR_BUFFER_TOO_SMALL, "stats: capacity " + std::to_string(capacity) + " < " + std::to_string(n));
        cs::DsParams params;
        params.confusion.assign(confusion, confusion + table);
        params.prior.assign(prior, prior + k);
        for (double v : params.confusion)
            if (!(std::isfinite(v) && v >= 0.0)) throw Error(CS_ERR_INVALID_ARGUMENT, "a confusion entry is negative or not finite");
        for (double v : params.prior)
            if (!(std::isfinite(v) && v >= 0.0)) throw Error(CS_ERR_INVALID_ARGUMENT, "a prior entry is negative or not finite");
        // The kernels' logs: log pi transposed to worker x observed x true, and log w.
        std::vector<double> log_pi(table), log_prior(static_cast<std::size_t>(k));
        const std::size_t kk = static_cast<std::size_t>(k) * k;
        for (std::size_t i = 0; i < static_cast<std::size_t>(d.n_workers); ++i)
            for (int32_t l = 0; l < k; ++l)
                for (int32_t c = 0; c < k; ++c) {
                    const double x = params.confusion[i * kk + l * k + c];
                    log_pi[i * kk + c * k + l] = x > 0.0 ? std::log(x) : kMinusInf;
                }
        for (int32_t l = 0; l < k; ++l) log_prior[l] = params.prior[l] > 0.0 ? std::log(params.prior[l]) : kMinusInf;
        const cs::FitOptions options = model->params.fit_options();
        std::vector<uint8_t> allowed;
        if (cs::restricts_support(d, options)) allowed = cs::answer_sets(d);
        auto fit = std::make_unique<cs::FitResult>();
        fit->n_items = d.n_items;
        fit->n_workers = d.n_workers;
        fit->k = k;
        fit->posteriors.assign(static_cast<std::size_t>(d.n_items) * k, 0.0);
        std::vector<double> item_ll(static_cast<std::size_t>(d.n_items));
        std::vector<uint8_t> impossible(static_cast<std::size_t>(d.n_items));
        std::vector<int32_t> all(static_cast<std::size_t>(d.n_items));
        for (int32_t j = 0; j < d.n_items; ++j) all[static_cast<std::size_t>(j)] = j;
        std::fill(stats, stats + n, 0.0);
        cs::ds::e_step_items(d, all.data(), all.size(), log_pi.data(), log_prior.data(), params.prior.data(),
                             allowed.empty() ? nullptr : allowed.data(), fit->posteriors.data(), item_ll.data(),
                             impossible.data(), stats, stats + table);
        double ll = 0.0, none = 0.0;
        for (int32_t j = 0; j < d.n_items; ++j) {
            ll += item_ll[static_cast<std::size_t>(j)];
            none += impossible[static_cast<std::size_t>(j)];
        }
        stats[table + k] = ll;
        stats[table + k + 1] = none;
        fit->labels = cs::argmax_labels(fit->posteriors, d.n_items, k);
        fit->prior = params.prior;
        fit->has_log_likelihood = true;
        fit->trace.push_back(ll);
        fit->converged = true;
        model->fit = std::move(fit);
    });
}

CS_API cs_status cs_m_step(cs_model *model, const double *stats, size_t n_stats, size_t n_items, size_t n_workers,
                           size_t k, double *confusion, size_t confusion_capacity, double *prior,
                           size_t prior_capacity) {
    return cs::guard(model, [&] {
        check_sizes(n_workers, k);
        check_statistics(stats, n_stats, stats_length(n_workers, k));
        require(confusion, "confusion");
        require(prior, "prior");
        const std::size_t table = n_workers * k * k;
        if (confusion_capacity < table || prior_capacity < k)
            throw Error(CS_ERR_BUFFER_TOO_SMALL, "confusion needs " + std::to_string(table) + " values, prior " +
                                                     std::to_string(k));
        const cs::FitOptions options = model->params.fit_options();
        check_family(options.method);
        const int32_t w = static_cast<int32_t>(n_workers), kc = static_cast<int32_t>(k);
        const std::vector<uint64_t> labels = worker_labels(stats, w, kc);
        std::vector<int32_t> strata(labels.size(), 0);
        int32_t n_strata = 1;
        for (std::size_t i = 0; i < labels.size(); ++i) {
            int32_t g = 0;
            for (uint64_t c = labels[i]; c > 1; c >>= 1) ++g;  // floor(log2 n), as pooled_prior.cpp
            strata[i] = g;
            n_strata = std::max(n_strata, g + 1);
        }
        cs::DsParams params;
        cs::ds::m_step_from_totals(stats, stats + table, w, kc, static_cast<int64_t>(n_items), strata, n_strata,
                                   cs::em_options(options), params);
        std::copy(params.confusion.begin(), params.confusion.end(), confusion);
        std::copy(params.prior.begin(), params.prior.end(), prior);
    });
}

CS_API cs_status cs_fit_stats(cs_model *model, size_t n_items, size_t n_workers, size_t k, const double *start,
                              size_t n_stats, cs_e_step_fn e_step, void *user) {
    return cs::guard(model, [&] {
        cs::clear_fit(model);
        model->message.clear();
        check_sizes(n_workers, k);
        check_statistics(start, n_stats, stats_length(n_workers, k));
        if (e_step == nullptr) throw Error(CS_ERR_NULL_POINTER, "e_step is NULL");
        if (n_items == 0 || n_items > INT32_MAX - 1)
            throw Error(CS_ERR_INVALID_ARGUMENT, "n_items = " + std::to_string(n_items));
        const cs::FitOptions options = model->params.fit_options();
        check_family(options.method);
        const int32_t w = static_cast<int32_t>(n_workers), kc = static_cast<int32_t>(k);
        EngineItems engine(e_step, user, w, kc, start);
        cs::Shard shard;
        shard.collective = &engine;
        shard.remote = &engine;
        shard.items = static_cast<int64_t>(n_items);
        shard.labels = static_cast<int64_t>(engine.total_labels());
        cs::CrowdData data;  // no item here: every one is the engine's
        data.n_workers = w;
        data.k = kc;
        data.item_start.assign(1, 0);
        data.shard = &shard;
        auto fit = std::make_unique<cs::FitResult>();
        fit->n_workers = w;
        fit->k = kc;
        const bool cancelled = cs::run_em(data, cs::em_options(options), model->progress, cs::EmStart{}, *fit);
        fit->n_items = 0;
        fit->labels.clear();
        fit->posteriors.clear();
        cs::keep_fit(model, std::move(fit), cancelled);
    });
}

}  // extern "C"
