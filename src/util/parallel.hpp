// SPDX-License-Identifier: MIT
// Threading helpers. Work is split into fixed-size chunks whose boundaries do not
// depend on the thread count, and partial sums are combined in chunk order, so
// every result is bit-identical for any number of threads (DESIGN.md, Determinism).
#pragma once

#include <algorithm>
#include <cstdint>
#include <thread>
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

/// Labels below which a fit runs on one thread: waking and synchronising threads
/// every round costs more than it saves there, and on a busy machine a descheduled
/// helper thread can stall every round's barrier.
constexpr int64_t kMinParallelLabels = 100000;

/// Threads for a fit over `labels` labels: the requested count (0 = all cores), or 1
/// for small inputs. The result never changes a fit's output (work is split into
/// fixed partitions whatever the thread count).
inline int threads_for(int32_t requested, int64_t labels) {
    return labels < kMinParallelLabels ? 1 : resolve_threads(requested);
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

/// Number of fixed-size chunks covering [0, n).
inline int64_t chunk_count(int64_t n, int64_t chunk) { return (n + chunk - 1) / chunk; }

/// Team size for a loop over `items` (points, nodes): one thread below 16384 items,
/// where the barrier costs more than the work (and much more on a busy machine).
inline int team_size(int threads, int64_t items) { return items >= 16384 ? threads : 1; }

}  // namespace cs
