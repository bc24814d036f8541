// SPDX-License-Identifier: MIT
// Clean cancellation on SIGINT / SIGTERM. While an InterruptGuard lives, the first
// such signal only sets a flag; the command notices it (the fit's progress callback,
// the file reader, the output writer), stops, removes its temporary files and exits
// with 128 + the signal number. A second signal, half a second or more after the
// first, kills the process the usual way, so a stuck program can still be stopped (a
// repeat within half a second is the same request delivered twice, e.g. by timeout(1)).
#pragma once

#if !defined(_WIN32)
#include <signal.h>
#endif

namespace cli {

/// Installs the handlers for its lifetime and restores the previous ones afterwards.
/// Commands that write files create one at their start; commands that never check
/// the flag must not (Ctrl-C would then be ignored once). A signal that is ignored
/// when the guard is made (background job, nohup) stays ignored.
class InterruptGuard {
public:
    InterruptGuard();
    ~InterruptGuard();
    InterruptGuard(const InterruptGuard &) = delete;
    InterruptGuard &operator=(const InterruptGuard &) = delete;

private:
#if !defined(_WIN32)
    struct sigaction previous_int_ {}, previous_term_ {};
#endif
    bool have_int_ = false, have_term_ = false;  // whether we replaced that handler
};

/// The signal that arrived (SIGINT, SIGTERM), or 0.
int pending_interrupt() noexcept;

/// Throws CliError(128 + signal, "interrupted by SIGINT ...") if a signal arrived.
void throw_if_interrupted();

/// The same error for a signal known to have arrived (e.g. after a cancelled fit).
[[noreturn]] void throw_interrupted(int signal_number);

}  // namespace cli
