// SPDX-License-Identifier: MIT
// The exception barrier of every exported function: claims the handle, runs the body,
// turns any C++ exception into a cs_status and stores its message on the handle.
// Nothing thrown inside the library crosses the C ABI.
#pragma once

#include <atomic>
#include <exception>
#include <new>
#include <string>

#include "api/model.hpp"
#include "util/error.hpp"

namespace cs {

/// Holds a handle's in-use flag for the length of one call. A handle is used by one
/// thread at a time (crowdspec.h, Threads); a call made while another runs on the same
/// handle -- another thread, or the progress callback calling back into its own fit's
/// handle -- finds the flag set and does nothing: `claimed()` is false.
class HandleClaim {
public:
    explicit HandleClaim(const cs_model *model) noexcept
        : model_(model), claimed_(!model->in_use.exchange(true, std::memory_order_acquire)) {}
    ~HandleClaim() {
        if (claimed_) model_->in_use.store(false, std::memory_order_release);
    }
    HandleClaim(const HandleClaim &) = delete;
    HandleClaim &operator=(const HandleClaim &) = delete;
    bool claimed() const noexcept { return claimed_; }

private:
    const cs_model *model_;
    bool claimed_;
};

/// Runs `body` as the one call on `model`: CS_ERR_BUSY (the handle and its message
/// untouched, since they belong to the running call) when another call holds it.
template <class Body>
cs_status guard(const cs_model *model, Body &&body) noexcept {
    if (model == nullptr) return CS_ERR_NULL_HANDLE;
    const HandleClaim claim(model);
    if (!claim.claimed()) return CS_ERR_BUSY;
    try {
        body();
        return CS_OK;
    } catch (const Error &e) {
        try { model->message = e.what(); } catch (...) {}
        return e.status();
    } catch (const std::bad_alloc &) {
        try { model->message = "out of memory"; } catch (...) {}
        return CS_ERR_OUT_OF_MEMORY;
    } catch (const std::exception &e) {
        try { model->message = std::string("internal error: ") + e.what(); } catch (...) {}
        return CS_ERR_INTERNAL;
    } catch (...) {
        try { model->message = "internal error: unknown exception"; } catch (...) {}
        return CS_ERR_INTERNAL;
    }
}

}  // namespace cs
