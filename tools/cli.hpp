// SPDX-License-Identifier: MIT
// Shared plumbing of the `crowdspec` command-line program: exit codes, the error type
// that carries an exit code to main(), and a small option parser.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cli {

/// The program's exit codes (documented in `crowdspec --help`).
enum ExitCode : int {
    kExitOk = 0,      ///< success
    kExitUsage = 1,   ///< unknown option, missing or invalid argument
    kExitInput = 2,   ///< unreadable file, malformed line, bad truth file
    kExitFit = 3,     ///< the library refused the data or the fit failed
    kExitOutput = 4,  ///< the result could not be written
    kExitSignalBase = 128  ///< + the signal number: interrupted (130 SIGINT, 143 SIGTERM)
};

/// Stops a command with one message line and an exit code. Commands throw it; main()
/// catches it, prints "crowdspec: <message>" and returns the code, so no exception
/// ever leaves the program.
class CliError : public std::runtime_error {
public:
    CliError(int exit_code, const std::string &message)
        : std::runtime_error(message), exit_code_(exit_code) {}
    int exit_code() const noexcept { return exit_code_; }

private:
    int exit_code_;
};

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

/// `s` with its control characters written as escapes (\n, \r, \t, else \xHH for
/// bytes below 0x20 and 0x7f), so that a message quoting it stays on one line.
std::string escape_controls(std::string_view s);

/// A field (id, label, column name) quoted for a message: 'escaped text', so that
/// blanks and empty strings stay visible and line breaks do not split the message.
std::string quote_field(std::string_view s);

}  // namespace cli
