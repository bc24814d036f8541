// SPDX-License-Identifier: MIT
// The distributed crowd fit behind cs_fit_mpi (src/api/distributed.h): the transport's
// collectives as a cs::Collective, the agreement of the processes on their settings,
// and the handling of failures so that no process is left waiting for another.
//
// Failures. Every operation starts with a small header all-reduce: (failing process,
// operation, size, sequence number), each with its complement, reduced by max. So
// - a process that fails (invalid input, out of memory) between two operations joins
//   the others' next header with its failure instead of their operation; every
//   process then receives its status and message by broadcast and stops, and no one
//   waits for an operation that will never come;
// - processes that fell out of step (a bug, or nodes computing floating point
//   differently) see a header that is not the same everywhere and stop, instead of
//   summing unrelated arrays.
// A last header after the fit lets a failure after the last operation stop the others.
#include "api/distributed.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "api/guard.hpp"
#include "api/registry.hpp"
#include "api/model.hpp"
#include "api/params.hpp"
#include "core/collective.hpp"
#include "crowd/run_crowd.hpp"
#include "crowd/em/warm_start.hpp"
#include "data/crowd_shard.hpp"

using cs::Error;

namespace {

enum Operation : int64_t { kFailure = 0, kMax = 1, kSumDouble = 2, kSumWord = 3, kFinish = 4 };
constexpr std::size_t kMaxMessage = 4096;

class TransportCollective final : public cs::Collective {
public:
    explicit TransportCollective(const cs_private_transport &t) : t_(t) {}

    int32_t rank() const override { return t_.rank; }
    int32_t size() const override { return t_.size; }
    void sum(double *values, std::size_t n) override {
        header(kSumDouble, n);
        check(t_.sum_f64(t_.context, values, n), "a sum");
    }
    void sum(uint64_t *values, std::size_t n) override {
        header(kSumWord, n);
        check(t_.sum_u64(t_.context, values, n), "a sum");
    }
    void max(int64_t *values, std::size_t n) override {
        header(kMax, n);
        check(t_.max_i64(t_.context, values, n), "a maximum");
    }

    /// The last header: every process got through the fit. No operation after it.
    void finish() {
        header(kFinish, 0);
        closed_ = true;
    }

    /// Tell the other processes that this one failed (once; nothing when they already
    /// know, when the transport broke, or after finish()).
    void fail(cs_status status, const std::string &message) noexcept {
        if (broken_ || closed_) return;
        broken_ = true;
        try {
            int64_t h[7] = {t_.size - t_.rank, kFailure, ~int64_t{kFailure}, 0, ~int64_t{0}, calls_, ~calls_};
            if (t_.max_i64(t_.context, h, 7) != 0) return;
            const int32_t root = static_cast<int32_t>(t_.size - h[0]);
            exchange_failure(root, status, message);
        } catch (...) {
        }
    }

private:
    void header(int64_t op, std::size_t n) {
        if (broken_ || closed_) throw Error(CS_ERR_INTERNAL, "distributed fit: an operation after the end");
        const int64_t size = static_cast<int64_t>(n);
        int64_t h[7] = {0, op, ~op, size, ~size, calls_, ~calls_};
        ++calls_;
        check(t_.max_i64(t_.context, h, 7), "a header");
        if (h[0] != 0) {  // some process failed: the lowest one tells why
            broken_ = true;
            const int32_t root = static_cast<int32_t>(t_.size - h[0]);
            std::string message;
            const cs_status status = exchange_failure(root, CS_OK, std::string(), &message);
            throw Error(status, "process " + std::to_string(root) + ": " + message);
        }
        if (h[1] != ~h[2] || h[3] != ~h[4] || h[5] != ~h[6]) {
            broken_ = true;
            throw Error(CS_ERR_INTERNAL, "distributed fit: the processes fell out of step at operation " +
                                             std::to_string(calls_) +
                                             " (they must run the same build of crowdspec with the same parameters)");
        }
    }

    // The failing `root` broadcasts its status and message; returns them on every process.
    cs_status exchange_failure(int32_t root, cs_status status, const std::string &message,
                               std::string *received = nullptr) {
        const std::string text = message.substr(0, kMaxMessage);
        int64_t head[2] = {status, static_cast<int64_t>(text.size())};
        if (t_.broadcast(t_.context, head, sizeof head, root) != 0) return CS_ERR_INTERNAL;
        std::vector<char> bytes(static_cast<std::size_t>(std::clamp<int64_t>(head[1], 0, static_cast<int64_t>(kMaxMessage))));
        if (t_.rank == root) std::copy(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(bytes.size()), bytes.begin());
        if (!bytes.empty() && t_.broadcast(t_.context, bytes.data(), bytes.size(), root) != 0) return CS_ERR_INTERNAL;
        if (received != nullptr) received->assign(bytes.begin(), bytes.end());
        const int64_t s = head[0];
        return s < 0 && s > -1000 ? static_cast<cs_status>(s) : CS_ERR_INTERNAL;
    }

    void check(int code, const char *what) {
        if (code == 0) return;
        broken_ = true;
        const char *text = t_.error_text != nullptr ? t_.error_text(t_.context, code) : nullptr;
        throw Error(CS_ERR_INTERNAL, std::string("distributed fit: the transport failed in ") + what + " (" +
                                         (text != nullptr ? text : "code " + std::to_string(code)) + ")");
    }

    const cs_private_transport &t_;
    bool broken_ = false;
    bool closed_ = false;
    int64_t calls_ = 0;
};

bool supported(int32_t method) {
    switch (method) {
        case CS_METHOD_MV:
        case CS_METHOD_DS:
        case CS_METHOD_OPT_DS:
        case CS_METHOD_ONE_COIN_DS:
        case CS_METHOD_CLASS_ONE_COIN_DS:
        case CS_METHOD_AUTO:
            return true;
        default:
            return false;
    }
}

// splitmix64's finaliser, to fingerprint arrays of doubles.
uint64_t mix(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

int64_t fingerprint(const std::vector<double> &values) {
    uint64_t h = mix(values.size());
    for (double v : values) {
        uint64_t bits = 0;
        std::memcpy(&bits, &v, sizeof bits);
        h = mix(h ^ bits);
    }
    return static_cast<int64_t>(h);
}

// Values that must be the same on every process: max(v) and max(~v) = ~min(v), so
// each is equal everywhere exactly when entry 2e == ~entry 2e+1 after the reduction.
// Returns the index of the first value that differs, or -1.
int64_t first_difference(cs::Collective &c, const std::vector<int64_t> &values) {
    std::vector<int64_t> both;
    both.reserve(2 * values.size());
    for (int64_t v : values) {
        both.push_back(v);
        both.push_back(~v);
    }
    c.max(both.data(), both.size());
    for (std::size_t e = 0; e < values.size(); ++e)
        if (both[2 * e] != ~both[2 * e + 1]) return static_cast<int64_t>(e);
    return -1;
}

// Every parameter but the thread count, and the warm start, must be the same on every
// process: the fit is one fit.
void check_same_settings(cs::Collective &c, const cs_model &model) {
    std::vector<int64_t> values;
    std::vector<const char *> names;
    for (const cs::ParamSpec &p : cs::param_table()) {
        if (p.id == CS_PARAM_THREADS) continue;  // may differ: it never changes a result
        int64_t v = 0;
        if (p.integer) {
            v = model.params.get_int(p.id);
        } else {
            const double d = model.params.get_double(p.id);
            std::memcpy(&v, &d, sizeof v);
        }
        values.push_back(v);
        names.push_back(p.name);
    }
    values.push_back(fingerprint(model.initial.confusion));
    names.push_back("the initial confusion (cs_set_initial_confusion)");
    values.push_back(fingerprint(model.initial.prior));
    names.push_back("the initial prior (cs_set_initial_prior)");
    const int64_t e = first_difference(c, values);
    if (e >= 0) {
        const std::string what = names[static_cast<std::size_t>(e)];
        throw Error(CS_ERR_INVALID_ARGUMENT,
                    "cs_fit_mpi: " + (what.rfind("the ", 0) == 0 ? what : "parameter '" + what + "'") +
                        " differs between the processes; every process must set the same parameters "
                        "(only 'threads' may differ)");
    }
}

// The asking processes' callbacks, as one decision: the fit stops when any of them
// asks, on every process at the same iteration. Installed on every process, with or
// without a callback of its own, so that all take part in each vote.
struct CancelVote {
    cs_progress_fn fn = nullptr;
    void *user = nullptr;
    cs::Collective *collective = nullptr;
};

int32_t cancel_vote(void *data, int32_t iteration, double objective) {
    const auto *vote = static_cast<const CancelVote *>(data);
    int64_t stop = vote->fn != nullptr && vote->fn(vote->user, iteration, objective) != 0 ? 1 : 0;
    vote->collective->max(&stop, 1);
    return stop != 0 ? 1 : 0;
}

const cs::FitResult &distributed_fit(const cs_model *model) {
    if (!model->fit || model->fit->total_items == 0)
        throw Error(CS_ERR_NOT_FITTED, "no distributed fit yet: call cs_fit_mpi first");
    return *model->fit;
}

}  // namespace

extern "C" {

CS_API int32_t cs_private_supports(int32_t method) { return supported(method) ? 1 : 0; }

CS_API cs_status cs_private_fail(cs_model *model, cs_status status, const char *message) {
    if (model == nullptr) return CS_ERR_NULL_HANDLE;
    const cs::HandleClaim claim(model);
    if (!claim.claimed()) return CS_ERR_BUSY;
    cs::clear_fit(model);
    try {
        model->message = message != nullptr ? message : "";
    } catch (...) {
    }
    return status;
}

CS_API cs_status cs_private_fit_distributed(cs_model *model, const cs_private_transport *transport,
                                            const int32_t *item, const int32_t *worker,
                                            const int32_t *label, size_t n_local) {
    return cs::guard(model, [&] {
        cs::clear_fit(model);
        model->message.clear();
        if (transport == nullptr) throw Error(CS_ERR_NULL_POINTER, "the transport is NULL");
        if (transport->abi != CS_PRIVATE_TRANSPORT_ABI || transport->size < 1 || transport->rank < 0 ||
            transport->rank >= transport->size || transport->max_i64 == nullptr || transport->sum_f64 == nullptr ||
            transport->sum_u64 == nullptr || transport->broadcast == nullptr)
            throw Error(CS_ERR_INVALID_ARGUMENT,
                        "cs_fit_mpi: libcrowdspec_mpi and libcrowdspec are not from the same build (transport "
                        "version " + std::to_string(transport->abi) + ", expected " +
                            std::to_string(CS_PRIVATE_TRANSPORT_ABI) + ")");
        TransportCollective collective(*transport);
        std::unique_ptr<cs::FitResult> fit;
        bool cancelled = false;
        try {
            check_same_settings(collective, *model);
            const cs::FitOptions options = model->params.fit_options();
            const cs::MethodInfo *method = cs::find_method(options.method);
            if (!supported(options.method))
                throw Error(method != nullptr && method->input != cs::InputKind::Crowd ? CS_ERR_WRONG_INPUT_KIND
                                                                                       : CS_ERR_INVALID_ARGUMENT,
                            std::string("cs_fit_mpi: method '") + (method ? method->name : "?") +
                                "' cannot be fitted across processes; cs_fit_mpi fits mv, ds, opt-ds, one-coin-ds "
                                "and class-one-coin-ds");
            if (!model->initial.empty() && !cs::takes_initial_params(options.method))
                throw Error(CS_ERR_INVALID_ARGUMENT,
                            std::string("method '") + method->name +
                                "' cannot start from initial confusion matrices (only ds, opt-ds, one-coin-ds and "
                                "class-one-coin-ds can); clear them with cs_set_initial_confusion(model, NULL, 0)");
            if (!model->model_probs.empty())
                throw Error(CS_ERR_INVALID_ARGUMENT,
                            "cs_fit_mpi does not take model probabilities; clear them with "
                            "cs_set_model_probs(model, NULL, NULL, 0, 0)");
            cs::ShardData shard = cs::build_shard(collective, item, worker, label, n_local, options,
                                                  model->gold_item, model->gold_label);
            CancelVote vote{model->progress.function(), model->progress.user_data(), &collective};
            const cs::Progress progress(cancel_vote, &vote);
            fit = std::make_unique<cs::FitResult>();
            cancelled = model->initial.empty()
                            ? cs::run_crowd_method(shard.data, options, progress, method->crowd, *fit)
                            : cs::run_crowd_from_initial(shard.data, options, progress, model->initial, *fit);
            // Every process must end with the same workers and prior (they do when the
            // processes compute alike; say so rather than return different answers).
            const std::vector<int64_t> outcome = {fingerprint(fit->confusion), fingerprint(fit->prior),
                                                  fingerprint(fit->trace), fit->iterations};
            if (first_difference(collective, outcome) >= 0)
                throw Error(CS_ERR_INTERNAL,
                            "cs_fit_mpi: the processes ended with different worker parameters; they must run "
                            "the same build of crowdspec on machines that compute floating point alike");
            collective.finish();
            fit->item_ids = std::move(shard.shard->item_ids);
            fit->total_items = shard.shard->items;
        } catch (const Error &e) {
            collective.fail(e.status(), e.what());
            throw;
        } catch (const std::bad_alloc &) {
            collective.fail(CS_ERR_OUT_OF_MEMORY, "out of memory");
            throw;
        } catch (const std::exception &e) {
            collective.fail(CS_ERR_INTERNAL, std::string("internal error: ") + e.what());
            throw;
        } catch (...) {
            collective.fail(CS_ERR_INTERNAL, "internal error: unknown exception");
            throw;
        }
        cs::keep_fit(model, std::move(fit), cancelled);
    });
}

CS_API cs_status cs_private_item_ids(const cs_model *model, int32_t *ids, size_t capacity) {
    return cs::guard(model, [&] {
        const cs::FitResult &fit = distributed_fit(model);
        if (ids == nullptr) throw Error(CS_ERR_NULL_POINTER, "items is NULL");
        if (capacity < fit.item_ids.size())
            throw Error(CS_ERR_BUFFER_TOO_SMALL, "items: capacity " + std::to_string(capacity) + " < " +
                                                     std::to_string(fit.item_ids.size()) + " values");
        std::copy(fit.item_ids.begin(), fit.item_ids.end(), ids);
    });
}

CS_API cs_status cs_private_total_items(const cs_model *model, size_t *n) {
    return cs::guard(model, [&] {
        if (n == nullptr) throw Error(CS_ERR_NULL_POINTER, "n is NULL");
        *n = static_cast<size_t>(distributed_fit(model).total_items);
    });
}

}  // extern "C"
