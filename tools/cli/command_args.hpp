// SPDX-License-Identifier: MIT
// The start every subcommand shares: its arguments parsed against its options, --help
// answered, and the one input file it takes.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/options.hpp"

namespace cli {

/// Parses args[first..] for `command` against `specs` (parse_args). For --help, writes
/// help() to stdout and returns nullopt: the command then returns kExitOk. Throws
/// CliError(kExitUsage) on an unknown option or a missing value.
std::optional<ParsedArgs> parse_command(const std::string &command, const std::vector<std::string> &args,
                                        std::size_t first, const std::vector<OptionSpec> &specs,
                                        const std::function<std::string()> &help);

/// The command's one positional argument, its input file. None or several are a usage
/// error: "COMMAND: missing the NOUN (see 'crowdspec COMMAND --help')" or
/// "COMMAND: expected one NOUN, got N".
const std::string &single_input(const ParsedArgs &parsed, const std::string &command,
                                const std::string &noun = "input FILE");

}  // namespace cli
