// SPDX-License-Identifier: MIT
// The distributed fit of the core library (src/api/distributed.h, behind cs_fit_mpi)
// without MPI: the processes are threads, and the transport a shared buffer between
// barriers (the sums formed once, by thread 0, in thread order, and copied to all, as
// the MPI transport does). So the sharding, the agreement on settings and the failure
// handling run in every build, also under the sanitizers, whether or not MPI is there.
// The reference is cs_fit of the union: same iterations and hard labels, posteriors
// and parameters within 1e-10; with one shard, identical bits.
#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "support/cmocka_cpp.hpp"
#include "api/distributed.h"
#include "sim/crowd_sim.hpp"

namespace {

// ---------------------------------------------------------------------------------
// Threads as processes.

class Team {
public:
    explicit Team(int size) : size_(size), slot_(static_cast<std::size_t>(size), nullptr) {}

    int size() const { return size_; }

    // Every member posts its buffer; `combine` runs on member 0 with all of them; then
    // every member takes member 0's (or root's) buffer.
    template <class F>
    void collective(int rank, void *buffer, std::size_t bytes, int source, F combine) {
        slot_[static_cast<std::size_t>(rank)] = buffer;
        wait();
        if (rank == 0) combine(slot_);
        wait();
        if (rank != source) std::memcpy(buffer, slot_[static_cast<std::size_t>(source)], bytes);
        wait();
    }

private:
    void wait() {
        std::unique_lock<std::mutex> lock(mutex_);
        const uint64_t generation = generation_;
        if (++arrived_ == size_) {
            arrived_ = 0;
            ++generation_;
            cv_.notify_all();
        } else {
            cv_.wait(lock, [&] { return generation_ != generation; });
        }
    }

    int size_;
    std::vector<void *> slot_;
    std::mutex mutex_;
    std::condition_variable cv_;
    int arrived_ = 0;
    uint64_t generation_ = 0;
};

struct Member {
    Team *team;
    int rank;
};

template <class T, class Op>
int reduce(void *context, T *values, std::size_t n, Op op) {
    auto *m = static_cast<Member *>(context);
    m->team->collective(m->rank, values, n * sizeof(T), 0, [&](std::vector<void *> &slots) {
        T *out = static_cast<T *>(slots[0]);
        for (std::size_t r = 1; r < slots.size(); ++r) {
            const T *in = static_cast<const T *>(slots[r]);
            for (std::size_t e = 0; e < n; ++e) out[e] = op(out[e], in[e]);
        }
    });
    return 0;
}

int max_i64(void *c, int64_t *v, std::size_t n) { return reduce(c, v, n, [](int64_t a, int64_t b) { return std::max(a, b); }); }
int sum_f64(void *c, double *v, std::size_t n) { return reduce(c, v, n, [](double a, double b) { return a + b; }); }
int sum_u64(void *c, uint64_t *v, std::size_t n) { return reduce(c, v, n, [](uint64_t a, uint64_t b) { return a + b; }); }
int broadcast(void *context, void *bytes, std::size_t n, int32_t root) {
    auto *m = static_cast<Member *>(context);
    m->team->collective(m->rank, bytes, n, root, [](std::vector<void *> &) {});
    return 0;
}

// ---------------------------------------------------------------------------------

struct Labels {
    std::vector<int32_t> item, worker, label;
};

struct Result {
    cs_status status = CS_OK;
    std::string message;
    int32_t iterations = 0;
    std::vector<int32_t> ids, labels;
    std::vector<double> posteriors, confusion, prior, trace;
};

Result results_of(const cs_model *model, cs_status status) {
    Result r;
    r.status = status;
    r.message = cs_last_error(model);
    if (status != CS_OK) return r;
    size_t n = 0, m = 0, k = 0, t = 0;
    cs_n_items(model, &n);
    cs_n_workers(model, &m);
    cs_n_classes(model, &k);
    cs_trace_length(model, &t);
    cs_iterations(model, &r.iterations);
    r.labels.resize(n);
    r.posteriors.resize(n * k);
    r.confusion.resize(m * k * k);
    r.prior.resize(k);
    r.trace.resize(t);
    cs_labels(model, r.labels.data(), n);
    cs_posteriors(model, r.posteriors.data(), n * k);
    cs_confusion(model, r.confusion.data(), m * k * k);
    cs_class_prior(model, r.prior.data(), k);
    cs_trace(model, r.trace.data(), t);
    r.ids.resize(n);
    if (cs_private_item_ids(model, r.ids.data(), n) != CS_OK) r.ids.clear();
    return r;
}

using Configure = void (*)(cs_model *, int rank);

// Fit the shards on `shards.size()` threads; shard r's labels are shards[r].
std::vector<Result> fit_shards(const std::vector<Labels> &shards, Configure configure) {
    const int p = static_cast<int>(shards.size());
    Team team(p);
    std::vector<Result> out(static_cast<std::size_t>(p));
    std::vector<std::thread> threads;
    for (int r = 0; r < p; ++r)
        threads.emplace_back([&, r] {
            Member member{&team, r};
            cs_private_transport t{};
            t.abi = CS_PRIVATE_TRANSPORT_ABI;
            t.rank = r;
            t.size = p;
            t.context = &member;
            t.max_i64 = max_i64;
            t.sum_f64 = sum_f64;
            t.sum_u64 = sum_u64;
            t.broadcast = broadcast;
            cs_model *model = cs_create();
            cs_set_int(model, CS_PARAM_THREADS, 1);
            if (configure) configure(model, r);
            const Labels &s = shards[static_cast<std::size_t>(r)];
            const cs_status status = cs_private_fit_distributed(
                model, &t, s.item.empty() ? nullptr : s.item.data(), s.worker.empty() ? nullptr : s.worker.data(),
                s.label.empty() ? nullptr : s.label.data(), s.item.size());
            out[static_cast<std::size_t>(r)] = results_of(model, status);
            cs_destroy(model);
        });
    for (std::thread &t : threads) t.join();
    return out;
}

uint64_t mix(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

// A simulated crowd whose item ids leave gaps (every 50th id has no labels).
Labels crowd() {
    cs::sim::CrowdSpec spec;
    spec.n_items = 1500;
    spec.n_workers = 40;
    spec.k = 3;
    spec.labels_per_item = 5;
    spec.class_prior = {0.5, 0.3, 0.2};
    spec.seed = 5;
    const cs::sim::Crowd c = cs::sim::simulate_crowd(spec);
    Labels all;
    for (std::size_t t = 0; t < c.item.size(); ++t) {
        if (c.item[t] % 50 == 7) continue;
        all.item.push_back(c.item[t]);
        all.worker.push_back(c.worker[t]);
        all.label.push_back(c.label[t]);
    }
    return all;
}

// Items hashed over p shards; with `empty_last`, the last shard gets nothing.
std::vector<Labels> shard(const Labels &all, int p, bool empty_last) {
    std::vector<Labels> out(static_cast<std::size_t>(p));
    const int used = empty_last && p > 1 ? p - 1 : p;
    for (std::size_t t = 0; t < all.item.size(); ++t) {
        Labels &s = out[mix(static_cast<uint64_t>(all.item[t])) % static_cast<uint64_t>(used)];
        s.item.push_back(all.item[t]);
        s.worker.push_back(all.worker[t]);
        s.label.push_back(all.label[t]);
    }
    return out;
}

Result single_process(const Labels &all, Configure configure) {
    cs_model *model = cs_create();
    cs_set_int(model, CS_PARAM_THREADS, 1);
    if (configure) configure(model, 0);
    const cs_status status = cs_fit(model, all.item.data(), all.worker.data(), all.label.data(), all.item.size());
    Result r = results_of(model, status);
    cs_destroy(model);
    return r;
}

void expect_match(const Result &ref, const std::vector<Result> &shards) {
    assert_int_equal(ref.status, CS_OK);
    std::size_t items = 0;
    for (const Result &s : shards) {
        if (s.status != CS_OK) print_error("shard failed: %s\n", s.message.c_str());
        assert_int_equal(s.status, CS_OK);
        assert_int_equal(s.iterations, ref.iterations);
        assert_int_equal(s.ids.size(), s.labels.size());
        const std::size_t k = ref.prior.size();
        for (std::size_t r = 0; r < s.ids.size(); ++r) {
            const std::size_t j = static_cast<std::size_t>(s.ids[r]);
            assert_true(r == 0 || s.ids[r] > s.ids[r - 1]);
            assert_int_equal(s.labels[r], ref.labels[j]);
            for (std::size_t l = 0; l < k; ++l) assert_near(s.posteriors[r * k + l], ref.posteriors[j * k + l], 1e-10);
        }
        items += s.ids.size();
        assert_int_equal(s.confusion.size(), ref.confusion.size());
        for (std::size_t e = 0; e < ref.confusion.size(); ++e) assert_near(s.confusion[e], ref.confusion[e], 1e-10);
        for (std::size_t l = 0; l < k; ++l) assert_near(s.prior[l], ref.prior[l], 1e-10);
        assert_int_equal(s.trace.size(), ref.trace.size());
        if (!ref.trace.empty()) assert_near(s.trace.back(), ref.trace.back(), 1e-12 * std::fabs(ref.trace.back()));
        // Every shard holds the very same parameters.
        assert_memory_equal(s.confusion.data(), shards[0].confusion.data(), s.confusion.size() * sizeof(double));
    }
    assert_int_equal(items, ref.labels.size());
}

void opt_ds(cs_model *model, int) { cs_set_int(model, CS_PARAM_METHOD, CS_METHOD_OPT_DS); }
void ds(cs_model *model, int) { cs_set_int(model, CS_PARAM_METHOD, CS_METHOD_DS); }
void mv(cs_model *model, int) { cs_set_int(model, CS_PARAM_METHOD, CS_METHOD_MV); }

void one_shard_is_cs_fit(void **) {
    const Labels all = crowd();
    for (Configure c : {opt_ds, ds, mv}) {
        const Result ref = single_process(all, c);
        const std::vector<Result> got = fit_shards({all}, c);
        expect_match(ref, got);
        assert_memory_equal(got[0].posteriors.data(), ref.posteriors.data(), ref.posteriors.size() * sizeof(double));
        assert_memory_equal(got[0].confusion.data(), ref.confusion.data(), ref.confusion.size() * sizeof(double));
        if (!ref.trace.empty())
            assert_memory_equal(got[0].trace.data(), ref.trace.data(), ref.trace.size() * sizeof(double));
    }
}

void shards_match_cs_fit(void **) {
    const Labels all = crowd();
    for (Configure c : {opt_ds, ds, mv})
        for (int p : {2, 3}) expect_match(single_process(all, c), fit_shards(shard(all, p, false), c));
}

// 50,000 workers and k = 5: count tables of 10 MB, so each process gathers its M-step
// counts by code (crowd/em/ds_m_step.cpp) before the processes add them up.
void many_workers_shards_match_cs_fit(void **) {
    cs::sim::CrowdSpec spec;
    spec.n_items = 12000;
    spec.n_workers = 50000;
    spec.k = 5;
    spec.labels_per_item = 5;
    spec.seed = 8;
    const cs::sim::Crowd c = cs::sim::simulate_crowd(spec);
    Labels all;
    all.item = c.item;
    all.worker = c.worker;
    all.label = c.label;
    // 20 rounds: with about one label per worker the likelihood is flat in many
    // directions, and a thousand rounds would carry the shards' different order of
    // additions beyond 1e-10.
    const Configure ds_20 = [](cs_model *model, int) {
        cs_set_int(model, CS_PARAM_METHOD, CS_METHOD_DS);
        cs_set_int(model, CS_PARAM_MAX_ITER, 20);
        cs_set_double(model, CS_PARAM_TOL, 0.0);
    };
    for (int p : {1, 2}) expect_match(single_process(all, ds_20), fit_shards(shard(all, p, false), ds_20));
}

void empty_shard(void **) {
    const Labels all = crowd();
    for (Configure c : {opt_ds, ds}) expect_match(single_process(all, c), fit_shards(shard(all, 3, true), c));
}

// A negative label on shard 1 alone: every shard fails with its status; the others
// name shard 1.
void failure_on_one_shard(void **) {
    std::vector<Labels> shards = shard(crowd(), 3, false);
    shards[1].label[2] = -4;
    const std::vector<Result> got = fit_shards(shards, opt_ds);
    for (std::size_t r = 0; r < got.size(); ++r) {
        assert_int_equal(got[r].status, CS_ERR_INVALID_LABEL);
        assert_non_null(std::strstr(got[r].message.c_str(), "label -4 at label index 2 is negative"));
        assert_true((r == 1) == (got[r].message.rfind("process 1: ", 0) != 0));
    }
}

void settings_must_agree(void **) {
    const std::vector<Result> got = fit_shards(shard(crowd(), 2, false), [](cs_model *model, int rank) {
        if (rank == 1) cs_set_param_string(model, "prior", "uniform");
    });
    for (const Result &r : got) {
        assert_int_equal(r.status, CS_ERR_INVALID_ARGUMENT);
        assert_non_null(std::strstr(r.message.c_str(), "parameter 'prior' differs between the processes"));
    }
}

void wrong_transport(void **) {
    cs_model *model = cs_create();
    cs_private_transport t{};
    t.abi = CS_PRIVATE_TRANSPORT_ABI + 1;
    t.size = 1;
    const int32_t id = 0;
    assert_int_equal(cs_private_fit_distributed(model, &t, &id, &id, &id, 1), CS_ERR_INVALID_ARGUMENT);
    assert_int_equal(cs_private_fit_distributed(model, nullptr, &id, &id, &id, 1), CS_ERR_NULL_POINTER);
    assert_int_equal(cs_private_fit_distributed(nullptr, nullptr, &id, &id, &id, 1), CS_ERR_NULL_HANDLE);
    cs_destroy(model);
}

}  // namespace

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(one_shard_is_cs_fit),  cmocka_unit_test(shards_match_cs_fit),
        cmocka_unit_test(many_workers_shards_match_cs_fit),
        cmocka_unit_test(empty_shard),          cmocka_unit_test(failure_on_one_shard),
        cmocka_unit_test(settings_must_agree),  cmocka_unit_test(wrong_transport),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
