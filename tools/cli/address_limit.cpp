// SPDX-License-Identifier: MIT
#include "cli/address_limit.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "common/errors.hpp"

#if defined(__linux__)
#include <sys/resource.h>
#include <unistd.h>
#define CS_CLI_HAVE_RLIMIT 1
#endif

namespace cli {

namespace {

#if defined(CS_CLI_HAVE_RLIMIT)
bool address_space_limited() {
    struct rlimit limit {};
    return getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY;
}

// Whether the environment block `env` (the process's own, as the loader passes it)
// sets `name`.
bool environment_sets(char **env, const char *name) {
    const std::size_t length = std::strlen(name);
    for (char **e = env; e != nullptr && *e != nullptr; ++e)
        if (std::strncmp(*e, name, length) == 0 && (*e)[length] == '=') return true;
    return false;
}

// Runs before any shared library's initialiser (the executable's .preinit_array, which
// the dynamic loader calls first): under a finite RLIMIT_AS, and unless the user chose
// a count, OpenBLAS is told to use one thread. Its initialiser starts the thread pool
// as the library loads, before main() could call openblas_set_num_threads() (which
// changes the count but does not stop threads already started), and each pool thread
// first allocates a buffer of about 128 MB, retrying forever when the limit refuses it.
// One thread: no pool, and the calling thread's own buffer is allocated only by a
// dense BLAS call, which the library checks against the limit first (docs/reliability.md).
// The environment variable is the one interface every OpenBLAS build reads; other
// BLAS libraries ignore it. The fit's own threads (OpenMP, the EM team) are unaffected.
//
// `crowdspec rank` gets one thread too: each pool thread spins (sched_yield) for a while
// before it sleeps, whether or not BLAS is called, measured at 0.1 CPU seconds of a
// 0.36 s `rank` at 10^6 comparisons (bench/README.md, issue 35), and rank's only dense
// BLAS call is the exact standard errors' Cholesky inverse for at most se_items (2000)
// items, 0.3 CPU seconds on one thread at that size.
//
// How: the program executes itself again with OPENBLAS_NUM_THREADS=1 added to its
// environment (same arguments, same process id and open files; nothing has been read
// yet). setenv() here does not work: with glibc (2.36) the C library's environment is
// not yet set up when .preinit_array runs (getenv() sees nothing), and the array setenv()
// builds is replaced by the real environment before OpenBLAS's initialiser reads it, so
// the pool started anyway (strace: one clone before main()). The second run finds the
// variable in its environment and returns. If the program cannot execute itself (no
// /proc), it goes on with the pool.
void one_blas_thread_under_a_limit(int argc, char **argv, char **env) {
    const bool rank = argc >= 2 && argv != nullptr && argv[1] != nullptr && std::strcmp(argv[1], "rank") == 0;
    if (argv == nullptr || argv[0] == nullptr || env == nullptr) return;
    if (!rank && !address_space_limited()) return;
    if (environment_sets(env, "OPENBLAS_NUM_THREADS") || environment_sets(env, "GOTO_NUM_THREADS")) return;
    std::size_t count = 0;
    while (env[count] != nullptr) ++count;
    // malloc, not new: the C++ runtime's initialisers have not run yet.
    char **extended = static_cast<char **>(std::malloc((count + 2) * sizeof(char *)));
    if (extended == nullptr) return;
    static char one_thread[] = "OPENBLAS_NUM_THREADS=1";
    std::memcpy(extended, env, count * sizeof(char *));
    extended[count] = one_thread;
    extended[count + 1] = nullptr;
    execve("/proc/self/exe", argv, extended);
    std::free(extended);  // not executed: carry on as we are
}

__attribute__((section(".preinit_array"), used)) void (*const kPreinitBlasThreads)(int, char **, char **) =
    one_blas_thread_under_a_limit;
#endif

}  // namespace

int finish_process(int code) {
    // The commands flush what they write; a failure here is one they could not see.
    if (std::fflush(stdout) != 0 && code == kExitOk) {
        std::fputs("crowdspec: <stdout>: write error\n", stderr);
        code = kExitOutput;
    }
#if defined(CS_CLI_HAVE_RLIMIT)
    if (address_space_limited()) {
        std::fflush(stderr);
        _exit(code);
    }
#endif
    return code;
}

}  // namespace cli
