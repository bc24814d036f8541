// SPDX-License-Identifier: MIT
#include "cli/command_args.hpp"

#include "io/output.hpp"

namespace cli {

std::optional<ParsedArgs> parse_command(const std::string &command, const std::vector<std::string> &args,
                                        std::size_t first, const std::vector<OptionSpec> &specs,
                                        const std::function<std::string()> &help) {
    ParsedArgs parsed = parse_args(command, args, first, specs);
    if (parsed.help) {
        write_stdout(help());
        return std::nullopt;
    }
    return parsed;
}

const std::string &single_input(const ParsedArgs &parsed, const std::string &command, const std::string &noun) {
    if (parsed.positionals.size() != 1)
        throw CliError(kExitUsage, parsed.positionals.empty()
                                       ? command + ": missing the " + noun + " (see 'crowdspec " + command +
                                             " --help')"
                                       : command + ": expected one " + noun + ", got " +
                                             std::to_string(parsed.positionals.size()));
    return parsed.positionals[0];
}

}  // namespace cli
