// SPDX-License-Identifier: MIT
// The progress/cancel callback of a fit (cs_set_progress), as the algorithms see it.
#pragma once

#include <cstdint>
#include <string>

#include "crowdspec/crowdspec.h"
#include "util/error.hpp"

namespace cs {

class Progress {
public:
    Progress() = default;
    Progress(cs_progress_fn fn, void *user) : fn_(fn), user_(user) {}

    /// Report a completed iteration; returns true when the caller asked to stop.
    bool cancelled(int32_t iteration, double objective) const {
        last_iteration_ = iteration;
        last_objective_ = objective;
        if (fn_ == nullptr || (iteration == 0 && !report_start_)) return false;
        return fn_(user_, offset_ + iteration, objective) != 0;
    }

    /// Inner-loop steps between two polls: 2^24, tens of milliseconds of the O(k^2) and
    /// O(k^3) loops that call poll(), so that no fit of a small crowd ever polls.
    static constexpr int64_t kPollWork = int64_t{1} << 24;

    /// A cancellation poll inside a long iteration (issue 40): loops of O(k^2) work or
    /// more, whose one iteration can take minutes at a large declared k, add their
    /// `work` here; every kPollWork steps the callback is called again with the last
    /// completed iteration and objective. If it asks to stop, throws cs::Error
    /// (CS_ERR_CANCELLED): the iteration under way is incomplete, so the fit ends
    /// without results. Serial code only: never inside an OpenMP region, which an
    /// exception cannot leave.
    void poll(int64_t work) const {
        if (fn_ == nullptr) return;
        pending_work_ += work;
        if (pending_work_ < kPollWork) return;
        pending_work_ = 0;
        if (fn_(user_, offset_ + last_iteration_, last_objective_) != 0)
            throw Error(CS_ERR_CANCELLED, "cancelled by the progress callback during iteration " +
                                              std::to_string(offset_ + last_iteration_ + 1) +
                                              ", before it completed: no results are kept");
    }

    /// The same callback with iterations counted from `done` on, and without a second
    /// report of the start (iteration 0): for a fit made of several runs (opt-ds's
    /// starts), whose iterations the callback sees as one count.
    Progress after(int32_t done) const {
        Progress p = *this;
        p.offset_ += done;
        p.report_start_ = p.report_start_ && done == 0;
        return p;
    }

    /// The callback and its user pointer as given to cs_set_progress (null: none).
    cs_progress_fn function() const { return fn_; }
    void *user_data() const { return user_; }

private:
    cs_progress_fn fn_ = nullptr;
    void *user_ = nullptr;
    int32_t offset_ = 0;
    bool report_start_ = true;
    // The poll's state: the last reported iteration and objective, and the work since
    // the last call. Mutable: a fit reports through a const Progress, from one thread.
    mutable int32_t last_iteration_ = 0;
    mutable double last_objective_ = 0.0;
    mutable int64_t pending_work_ = 0;
};

}  // namespace cs
