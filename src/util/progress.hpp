// SPDX-License-Identifier: MIT
// The progress/cancel callback of a fit (cs_set_progress), as the algorithms see it.
#pragma once

#include <cstdint>

#include "crowdspec/crowdspec.h"

namespace cs {

class Progress {
public:
    Progress() = default;
    Progress(cs_progress_fn fn, void *user) : fn_(fn), user_(user) {}

    /// Report a completed iteration; returns true when the caller asked to stop.
    bool cancelled(int32_t iteration, double objective) const {
        if (fn_ == nullptr || (iteration == 0 && !report_start_)) return false;
        return fn_(user_, offset_ + iteration, objective) != 0;
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
};

}  // namespace cs
