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

/// Number of fixed-size chunks covering [0, n).
inline int64_t chunk_count(int64_t n, int64_t chunk) { return (n + chunk - 1) / chunk; }

/// Team size for a loop over `items` (points, nodes): one thread below 16384 items,
/// where the barrier costs more than the work (and much more on a busy machine).
inline int team_size(int threads, int64_t items) { return items >= 16384 ? threads : 1; }

}  // namespace cs
