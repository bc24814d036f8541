// SPDX-License-Identifier: MIT
// Argument checks and result copies shared by the exported functions: a NULL pointer
// is CS_ERR_NULL_POINTER naming the argument, and a result goes into a caller buffer
// only when its capacity holds it (CS_ERR_BUFFER_TOO_SMALL otherwise).
#pragma once

#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "util/error.hpp"

namespace cs {

inline void require(const void *p, const char *what) {
    if (p == nullptr) throw Error(CS_ERR_NULL_POINTER, std::string(what) + " is NULL");
}

template <class T>
void copy_out(const std::vector<T> &values, T *out, std::size_t capacity, const char *what) {
    require(out, what);
    if (capacity < values.size())
        throw Error(CS_ERR_BUFFER_TOO_SMALL, std::string(what) + ": capacity " + std::to_string(capacity) + " < " +
                                                 std::to_string(values.size()) + " values");
    if (!values.empty()) std::memcpy(out, values.data(), values.size() * sizeof(T));
}

}  // namespace cs
