// SPDX-License-Identifier: MIT
// Files of formats the readers do not take (spreadsheets, Parquet, Arrow, archives,
// compressed text), recognised by their first bytes, so that the error names the
// format and says what to do instead of failing on the first odd byte of a "CSV".
#pragma once

#include <string>
#include <string_view>

namespace cli {

/// Throws CliError(kExitInput) with one line "SOURCE: FORMAT: what to do" when `head`
/// (the first bytes of the input) starts like a format no reader takes; returns
/// otherwise. `path` (may be "-") gives the extension that tells a zip from an xlsx.
void reject_foreign_format(std::string_view head, const std::string &path, const std::string &source);

}  // namespace cli
