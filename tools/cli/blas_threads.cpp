// SPDX-License-Identifier: MIT
// `crowdspec rank` runs with one OpenBLAS thread unless the user chose a count.
//
// OpenBLAS's initialiser starts its thread pool as the library loads, and each pool
// thread spins (sched_yield) for a while before it sleeps: measured on `crowdspec rank`
// at 10^6 comparisons, 0.05 CPU seconds of a 0.37 s command (bench/README.md, issue 35),
// spent whether or not BLAS is called. rank's only dense BLAS call is the exact
// standard errors' Cholesky inverse for at most se_items (2000) items, 0.3 CPU seconds
// on one thread at that size, so the pool buys rank little. Like address_limit.cpp this
// runs from the executable's .preinit_array, before any shared library's initialiser,
// and only sets the environment variable every OpenBLAS build reads (other BLAS
// libraries ignore it). The fit's own threads (--threads) are unaffected.
#include <cstdlib>
#include <cstring>

namespace cli {

namespace {

#if defined(__linux__)
void one_blas_thread_for_rank(int argc, char **argv, char **) {
    if (argc < 2 || argv == nullptr || argv[1] == nullptr || std::strcmp(argv[1], "rank") != 0) return;
    if (std::getenv("OPENBLAS_NUM_THREADS") != nullptr || std::getenv("GOTO_NUM_THREADS") != nullptr) return;
    (void)setenv("OPENBLAS_NUM_THREADS", "1", 0);
}

__attribute__((section(".preinit_array"), used)) void (*const kPreinitRankBlasThreads)(int, char **, char **) =
    one_blas_thread_for_rank;
#endif

}  // namespace

}  // namespace cli
