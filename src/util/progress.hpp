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
        return fn_ != nullptr && fn_(user_, iteration, objective) != 0;
    }

private:
    cs_progress_fn fn_ = nullptr;
    void *user_ = nullptr;
};

}  // namespace cs
