// SPDX-License-Identifier: MIT
// A small command-line option parser shared by every subcommand (and by the readers'
// and the fit's option sets): long and short options, "--name=value", "--", "-" for
// standard input, and whole-number checks for options the program reads itself.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/errors.hpp"

namespace cli {

/// One option a command accepts. `name` is the long name without "--"; `short_name`
/// is an optional one-letter alias ('\0' for none).
struct OptionSpec {
    const char *name;
    bool takes_value;
    char short_name;
};

/// The command line of one command after parsing: options in command-line order (so
/// repeatable options keep every value and "last one wins" is easy), positionals,
/// and whether help was asked for.
struct ParsedArgs {
    std::vector<std::pair<std::string, std::string>> options;
    std::vector<std::string> positionals;
    bool help = false;

    /// Value of the last occurrence of an option, if any.
    std::optional<std::string> last(std::string_view name) const;
    /// Whether a flag (or valued option) occurred at all.
    bool has(std::string_view name) const { return last(name).has_value(); }
};

/// Parses args[first..] for `command` against `specs`. Accepts "--name value",
/// "--name=value", "-x value", "--" (end of options) and "-" (a positional: stdin).
/// Throws CliError(kExitUsage) on an unknown option or a missing value.
ParsedArgs parse_args(const std::string &command, const std::vector<std::string> &args,
                      std::size_t first, const std::vector<OptionSpec> &specs);

/// Parses a whole decimal integer in [lo, hi]; used for options the program itself
/// interprets (the library validates the ones passed to it). Throws CliError(kExitUsage).
long long parse_integer_option(const std::string &option, const std::string &value,
                               long long lo, long long hi);

/// Parses a whole finite decimal number in [lo, hi]. Throws CliError(kExitUsage).
double parse_number_option(const std::string &option, const std::string &value, double lo, double hi);

}  // namespace cli
