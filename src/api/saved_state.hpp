// SPDX-License-Identifier: MIT
// Between the saved-model functions (api/saved_model.cpp) and the update functions
// (api/capi_update.cpp): the handle's update state, built on first use.
#pragma once

#include "api/model.hpp"

namespace cs {

/// Make sure the handle has an update state: built from the labels a Dawid-Skene fit
/// kept (one E-step at its parameters), or there already (a load, an update). Throws
/// CS_ERR_NOT_FITTED without a fit, CS_ERR_INVALID_ARGUMENT when the fit cannot have
/// one (another method or input kind, a distributed fit, labels not kept).
void ensure_update_state(cs_model *model);

}  // namespace cs
