// SPDX-License-Identifier: MIT
// What every text reader of io/ shares: recognising numbers in fields (by hand rather
// than with strtoll/strtod alone, which accept leading blanks, hex, "inf" and "nan",
// none of which may count as a numeric id or label), and the one-line "file:line:
// message" error of every input problem.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace cli {

/// A whole decimal integer in int64 range ([+-] digits); false for anything else.
bool parse_int64(std::string_view s, int64_t &value);

/// A decimal number: [+-] digits [. digits] or [+-] . digits, then [eE [+-] digits].
bool parse_number(std::string_view s, double &value);

/// Throws CliError(kExitInput, "source:line: what").
[[noreturn]] void input_error(const std::string &source, std::size_t line, const std::string &what);

}  // namespace cli
