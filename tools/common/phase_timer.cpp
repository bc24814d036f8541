// SPDX-License-Identifier: MIT
#include "common/phase_timer.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#if !defined(_WIN32)
#include <sys/resource.h>
#endif

namespace cli {

PhaseTimer::PhaseTimer(const char *command) : command_(command) {
    const char *v = std::getenv("CROWDSPEC_PHASES");
    enabled_ = v != nullptr && *v != '\0' && std::strcmp(v, "0") != 0;
    if (enabled_) start_ = last_ = now();
}

PhaseTimer::Sample PhaseTimer::now() {
    Sample s;
    s.wall = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
#if !defined(_WIN32)
    rusage u{};
    if (getrusage(RUSAGE_SELF, &u) == 0) {
        s.user = static_cast<double>(u.ru_utime.tv_sec) + 1e-6 * static_cast<double>(u.ru_utime.tv_usec);
        s.sys = static_cast<double>(u.ru_stime.tv_sec) + 1e-6 * static_cast<double>(u.ru_stime.tv_usec);
        s.minor_faults = u.ru_minflt;
    }
#endif
    return s;
}

void PhaseTimer::mark(const char *phase, const char *detail) {
    if (!enabled_) return;
    const Sample s = now();
    std::fprintf(stderr,
                 "crowdspec: phase %s %-8s %7.3f s wall %7.3f s user %7.3f s sys %9ld minor faults (total %.3f s wall)%s%s\n",
                 command_.c_str(), phase, s.wall - last_.wall, s.user - last_.user, s.sys - last_.sys,
                 s.minor_faults - last_.minor_faults, s.wall - start_.wall, *detail ? "; " : "", detail);
    last_ = s;
}

}  // namespace cli
