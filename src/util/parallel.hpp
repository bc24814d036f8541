// SPDX-License-Identifier: MIT
// Threading helpers. Work is split into fixed-size chunks whose boundaries do not
// depend on the thread count, and partial sums are combined in chunk order, so
// every result is bit-identical for any number of threads (DESIGN.md, Determinism).
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace cs {

/// Threads to use for a requested count (0 = all available cores).
inline int resolve_threads(int32_t requested) {
    if (requested > 0) return requested;
#ifdef _OPENMP
    return std::max(1, omp_get_num_procs());
#else
    return std::max(1u, std::thread::hardware_concurrency());
#endif
}

/// Labels below which a fit runs on one thread whatever is asked: waking and
/// synchronising threads every round costs more than it saves there, and on a busy
/// machine a descheduled helper thread can stall every round's barrier.
constexpr int64_t kMinParallelLabels = 100000;

/// Labels per thread when the count is automatic (threads = 0): a thread joins for every
/// further 250,000 labels, up to the cores. Measured with one busy process pinned to
/// each core (bench/README.md, issue 19): two threads were 1.14x slower than one at 10^5
/// labels (a round there lasts about a scheduler time slice, so a helper that loses its
/// core stalls the round) and on par at 10^6; 10^7 labels ran 0.64x.
constexpr int64_t kLabelsPerThread = 250000;

/// Threads for a fit over `labels` labels: 1 below kMinParallelLabels; else the
/// requested count, or for 0 (automatic) one per kLabelsPerThread labels, at least 1 and
/// at most the cores. The result never changes a fit's output (work is split into fixed
/// partitions whatever the thread count).
inline int threads_for(int32_t requested, int64_t labels) {
    if (labels < kMinParallelLabels) return 1;
    if (requested > 0) return requested;
    return static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(resolve_threads(0), labels / kLabelsPerThread)));
}

/// The calling thread's number within the current parallel team (0 outside one, or
/// without OpenMP).
inline int current_thread() {
#ifdef _OPENMP
    return omp_get_thread_num();
#else
    return 0;
#endif
}

/// out[e] = sum over p < parts of tables[p * size + e]: the partitions' copies of a
/// table, laid out one after another, added in partition order (so the result never
/// depends on the thread count); parallel over the entries e.
inline void sum_tables(const double *tables, int64_t size, int64_t parts, double *out, int threads) {
#pragma omp parallel for schedule(static) num_threads(threads) if (size * parts > 65536)
    for (int64_t e = 0; e < size; ++e) {
        double sum = tables[e];
        for (int64_t p = 1; p < parts; ++p) sum += tables[p * size + e];
        out[e] = sum;
    }
}

/// A team of threads for the rounds of one fit (the EM loop of Dawid-Skene): the
/// calling thread and `size() - 1` helpers it starts at the first parallel pass and
/// joins when the team is destroyed, so no thread outlives the fit and nothing is
/// shared with the host program or other fits (no process-wide pool, no environment
/// variable such as OMP_WAIT_POLICY).
///
/// Why not OpenMP here: between the several parallel regions of every EM round,
/// libgomp's idle threads spin (by default for about 300,000 iterations) before they
/// sleep. On a machine where anything else runs, those spinning threads take the core
/// from the thread that has work, and a 10-round fit on 10^6 labels took 5-6x longer on
/// two threads than on one. A helper of this team spins for at most kSpinMicros, then
/// sleeps on a condition variable; the caller that waits for the last task does the same.
///
/// run(n, f) calls f(t) for t = 0 .. n - 1, each exactly once; whichever thread is free
/// takes the next t (the caller too), and run returns when all n calls returned. Which
/// thread runs which t never matters to the results: callers give every t its own
/// output (a partition's table, a block of workers), combined afterwards in a fixed order.
/// f must not throw. Not reentrant: one run at a time, from the thread that owns the
/// team. n above 2^31 - 1 runs on the caller alone (the task number has 32 bits).
class Team {
public:
    /// A team of `threads` threads in all (at least 1; 1 = everything on the caller).
    explicit Team(int threads) : size_(std::max(1, threads)) {}
    Team(const Team &) = delete;
    Team &operator=(const Team &) = delete;
    ~Team() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stop_ = true;
        }
        wake_.notify_all();
        for (std::thread &t : helpers_) t.join();
    }

    /// Number of threads, the caller's included.
    int size() const { return size_; }

    /// f(t) for every t in [0, n), spread over the team; returns when all are done.
    template <class F>
    void run(int64_t n, F &&f) {
        if (n <= 0) return;
        if (size_ == 1 || n == 1 || n > int64_t{0x7fffffff}) {
            for (int64_t t = 0; t < n; ++t) f(t);
            return;
        }
        start_helpers();
        using Fn = std::remove_reference_t<F>;
        const uint64_t gen = (state_.load(std::memory_order_relaxed) >> 32) + 1;
        // The job goes into the slot of its generation's parity: a helper still looking
        // at the previous generation reads the other slot (and its claim fails anyway).
        Slot &slot = slots_[gen & 1];
        slot.job.store([](void *ctx, int64_t t) { (*static_cast<Fn *>(ctx))(t); }, std::memory_order_relaxed);
        slot.ctx.store(const_cast<void *>(static_cast<const void *>(&f)), std::memory_order_relaxed);
        slot.tasks.store(n, std::memory_order_relaxed);
        done_.store(0, std::memory_order_relaxed);
        {
            // Publish: the generation in the high half of state_, the next task in the low.
            std::lock_guard<std::mutex> lock(mutex_);
            state_.store(gen << 32, std::memory_order_release);
        }
        if (sleeping_.load(std::memory_order_relaxed) > 0) wake_.notify_all();
        work(gen);
        // Wait for the tasks the helpers took.
        const auto all_done = [&] { return done_.load(std::memory_order_acquire) == n; };
        if (!spin_until(all_done)) {
            std::unique_lock<std::mutex> lock(mutex_);
            caller_waits_ = true;
            finished_.wait(lock, all_done);
            caller_waits_ = false;
        }
    }

private:
    static constexpr int kSpinMicros = 50;

    // Spin (with a pause) until pred() or about kSpinMicros; false if it timed out.
    template <class P>
    static bool spin_until(P &&pred) {
        const auto limit = std::chrono::steady_clock::now() + std::chrono::microseconds(kSpinMicros);
        for (;;) {
            for (int i = 0; i < 64; ++i) {
                if (pred()) return true;
#if defined(__x86_64__) || defined(__i386__)
                __builtin_ia32_pause();
#endif
            }
            if (std::chrono::steady_clock::now() > limit) return pred();
        }
    }

    void start_helpers() {
        if (!helpers_.empty()) return;
        helpers_.reserve(static_cast<std::size_t>(size_ - 1));
        for (int h = 1; h < size_; ++h) helpers_.emplace_back([this] { helper_loop(); });
    }

    // Take and run tasks of generation `gen` until none is left. A task is claimed by
    // advancing state_ from (gen, t) to (gen, t + 1), so it succeeds only while `gen` is
    // the current generation, whose slot then holds its job.
    void work(uint64_t gen) {
        Slot &slot = slots_[gen & 1];
        uint64_t s = state_.load(std::memory_order_acquire);
        for (;;) {
            const int64_t tasks = slot.tasks.load(std::memory_order_relaxed);
            if ((s >> 32) != gen || static_cast<int64_t>(s & 0xffffffffu) >= tasks) return;
            if (!state_.compare_exchange_weak(s, s + 1, std::memory_order_acq_rel, std::memory_order_acquire))
                continue;
            slot.job.load(std::memory_order_relaxed)(slot.ctx.load(std::memory_order_relaxed),
                                                     static_cast<int64_t>(s & 0xffffffffu));
            if (done_.fetch_add(1, std::memory_order_acq_rel) + 1 == tasks) {
                // The last task: wake the caller if it went to sleep.
                std::lock_guard<std::mutex> lock(mutex_);
                if (caller_waits_) finished_.notify_one();
            }
            s = state_.load(std::memory_order_acquire);
        }
    }

    void helper_loop() {
        uint64_t seen = 0;  // the last generation this helper worked on
        for (;;) {
            const auto fresh = [&] { return (state_.load(std::memory_order_acquire) >> 32) != seen; };
            if (!spin_until(fresh)) {
                std::unique_lock<std::mutex> lock(mutex_);
                sleeping_.fetch_add(1, std::memory_order_relaxed);
                wake_.wait(lock, [&] { return stop_ || fresh(); });
                sleeping_.fetch_sub(1, std::memory_order_relaxed);
                if (stop_) return;
            }
            seen = state_.load(std::memory_order_acquire) >> 32;
            work(seen);
        }
    }

    const int size_;
    std::vector<std::thread> helpers_;
    std::mutex mutex_;
    std::condition_variable wake_, finished_;
    std::atomic<uint64_t> state_{0};  // generation << 32 | next task
    std::atomic<int64_t> done_{0};    // tasks of the current generation finished
    std::atomic<int> sleeping_{0};    // helpers waiting on wake_
    struct Slot {
        std::atomic<void (*)(void *, int64_t)> job{nullptr};
        std::atomic<void *> ctx{nullptr};
        std::atomic<int64_t> tasks{0};
    };
    Slot slots_[2];
    bool caller_waits_ = false;  // guarded by mutex_
    bool stop_ = false;          // guarded by mutex_
};

/// Number of fixed-size chunks covering [0, n).
inline int64_t chunk_count(int64_t n, int64_t chunk) { return (n + chunk - 1) / chunk; }

/// Team size for a loop over `items` (points, nodes): one thread below 16384 items,
/// where the barrier costs more than the work (and much more on a busy machine).
inline int team_size(int threads, int64_t items) { return items >= 16384 ? threads : 1; }

}  // namespace cs
