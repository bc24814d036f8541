// SPDX-License-Identifier: MIT
// Where a command's time goes, for benchmarks: with the environment variable
// CROWDSPEC_PHASES set (to anything but "" or "0"), PhaseTimer::mark() prints one line
// per phase to stderr -- wall seconds, user and system CPU seconds and minor page
// faults since the previous mark -- and nothing otherwise. Diagnostic output only: no
// result depends on it.
#pragma once

#include <string>

namespace cli {

class PhaseTimer {
public:
    /// Starts the clock for `command` ("fit"): the first phase runs from here.
    explicit PhaseTimer(const char *command);
    /// Prints the last phase as "free" (what the objects destroyed before it cost).
    ~PhaseTimer() { mark("free"); }
    PhaseTimer(const PhaseTimer &) = delete;
    PhaseTimer &operator=(const PhaseTimer &) = delete;
    /// Ends the current phase, named `phase` ("read", "fit", "write"), and starts the
    /// next; `detail` is appended to the line ("labels grouped by item"). No-op unless
    /// CROWDSPEC_PHASES is set.
    void mark(const char *phase, const char *detail = "");
    /// Whether the lines are printed.
    bool enabled() const { return enabled_; }

private:
    struct Sample {
        double wall = 0, user = 0, sys = 0;
        long minor_faults = 0;
    };
    static Sample now();

    bool enabled_ = false;
    std::string command_;
    Sample start_, last_;
};

}  // namespace cli
