// SPDX-License-Identifier: MIT
// String ids numbered inside the library (cs_intern_strings): a binding hands over one
// buffer of bytes, and each distinct string gets a code from an open-addressing hash
// table, then optionally the codes are renumbered in the strings' byte order. The
// strings are views into the caller's buffer for the length of the call; nothing is
// copied.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace cs {

/// The codes of n strings and, per code, the index of its first string.
struct StringCodes {
    std::vector<int32_t> codes;  ///< one per string
    std::vector<int64_t> first;  ///< one per distinct string
};

/// The n strings of text: offsets has n + 1 entries, or is null and the strings are
/// joined by single NUL bytes. Throws cs::Error (CS_ERR_INVALID_ARGUMENT) on offsets
/// out of order or out of the text, or a NUL count other than n - 1.
std::vector<std::string_view> split_strings(const char *text, std::size_t size, const int64_t *offsets,
                                            std::size_t n);

/// Codes of the strings: in order of first appearance, or (sorted) in byte order of the
/// distinct strings. O(total bytes + d log d) for d distinct strings.
StringCodes intern_strings(const std::vector<std::string_view> &strings, bool sorted);

}  // namespace cs
