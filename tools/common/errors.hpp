// SPDX-License-Identifier: MIT
// The lowest layer of the command-line programs (tools/): the exit codes, the error
// type that carries an exit code to main(), and quoting of fields in messages. Every
// other folder of tools/ may include it; it includes nothing of tools/.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

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

/// `s` with its control characters written as escapes (\n, \r, \t, else \xHH for
/// bytes below 0x20 and 0x7f), so that a message quoting it stays on one line.
std::string escape_controls(std::string_view s);

/// A field (id, label, column name) quoted for a message: 'escaped text', so that
/// blanks and empty strings stay visible and line breaks do not split the message.
std::string quote_field(std::string_view s);

}  // namespace cli
