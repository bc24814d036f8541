// SPDX-License-Identifier: MIT
#include "common/interrupt.hpp"

#include <csignal>
#include <ctime>
#include <string>

#include "common/errors.hpp"

namespace cli {

namespace {

// The one piece of global mutable state in the program, and the only kind a signal
// handler may touch: a volatile sig_atomic_t written by the handler and read by the
// code that polls it. It holds the number of the signal that arrived (0 = none).
volatile std::sig_atomic_t g_interrupt_signal = 0;

#if !defined(_WIN32)
// When the first signal arrived; written and read only by the handler, which runs
// with SIGINT and SIGTERM blocked, so it needs no synchronisation.
struct timespec g_first_signal {};

// The first SIGINT/SIGTERM sets the flag. A repeat within half a second is the same
// request delivered twice (timeout(1), for one, signals both the command and its
// process group) and is ignored; a later one means "stop now": the default action.
// Everything here is async-signal-safe (clock_gettime, signal, raise).
extern "C" void on_interrupt(int signal_number) {
    struct timespec now {};
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (g_interrupt_signal == 0) {
        g_interrupt_signal = signal_number;
        g_first_signal = now;
        return;
    }
    const double since = static_cast<double>(now.tv_sec - g_first_signal.tv_sec) +
                         1e-9 * static_cast<double>(now.tv_nsec - g_first_signal.tv_nsec);
    if (since < 0.5) return;
    std::signal(signal_number, SIG_DFL);
    std::raise(signal_number);
}
#else
extern "C" void on_interrupt(int signal_number) { g_interrupt_signal = signal_number; }
#endif

#if !defined(_WIN32)
// Installs `action` for a signal unless the signal is ignored: a program started in
// the background by a non-interactive shell, or under nohup, must keep ignoring it.
bool install(int signal_number, const struct sigaction &action, struct sigaction &previous) {
    if (sigaction(signal_number, nullptr, &previous) != 0 || previous.sa_handler == SIG_IGN) return false;
    return sigaction(signal_number, &action, nullptr) == 0;
}
#endif

}  // namespace

InterruptGuard::InterruptGuard() {
#if !defined(_WIN32)
    struct sigaction action {};
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    sigaddset(&action.sa_mask, SIGINT);
    sigaddset(&action.sa_mask, SIGTERM);
    // No SA_RESTART: a read blocked on a terminal or pipe returns EINTR, so the reader
    // notices the flag instead of waiting for more input. A second Ctrl-C (half a
    // second or more after the first) kills a program that does not stop.
    action.sa_flags = 0;
    have_int_ = install(SIGINT, action, previous_int_);
    have_term_ = install(SIGTERM, action, previous_term_);
#else
    have_int_ = std::signal(SIGINT, on_interrupt) != SIG_ERR;
#endif
}

InterruptGuard::~InterruptGuard() {
#if !defined(_WIN32)
    if (have_int_) sigaction(SIGINT, &previous_int_, nullptr);
    if (have_term_) sigaction(SIGTERM, &previous_term_, nullptr);
#else
    if (have_int_) std::signal(SIGINT, SIG_DFL);
#endif
}

int pending_interrupt() noexcept { return static_cast<int>(g_interrupt_signal); }

void throw_interrupted(int signal_number) {
    const std::string name = signal_number == SIGINT    ? "SIGINT"
                             : signal_number == SIGTERM ? "SIGTERM"
                                                        : "signal " + std::to_string(signal_number);
    throw CliError(kExitSignalBase + signal_number,
                   "interrupted by " + name + "; no output file was written or changed");
}

void throw_if_interrupted() {
    const int s = pending_interrupt();
    if (s != 0) throw_interrupted(s);
}

}  // namespace cli
