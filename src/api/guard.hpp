// SPDX-License-Identifier: MIT
// The exception barrier of every exported function: runs the body, turns any C++
// exception into a cs_status and stores its message on the handle. Nothing thrown
// inside the library crosses the C ABI.
#pragma once

#include <exception>
#include <new>
#include <string>

#include "api/model.hpp"
#include "util/error.hpp"

namespace cs {

template <class Body>
cs_status guard(const cs_model *model, Body &&body) noexcept {
    if (model == nullptr) return CS_ERR_NULL_HANDLE;
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
