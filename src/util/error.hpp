// SPDX-License-Identifier: MIT
// The one exception type of the implementation. Code inside the library throws
// cs::Error(status, message) for invalid input; the C boundary (src/api/guard.hpp)
// turns it into the returned cs_status and the handle's cs_last_error() message.
#pragma once

#include <stdexcept>
#include <string>

#include "crowdspec/crowdspec.h"

namespace cs {

class Error : public std::runtime_error {
public:
    Error(cs_status status, const std::string &message)
        : std::runtime_error(message), status_(status) {}
    cs_status status() const noexcept { return status_; }

private:
    cs_status status_;
};

}  // namespace cs
