// SPDX-License-Identifier: MIT
#include "common/options.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace cli {

std::optional<std::string> ParsedArgs::last(std::string_view name) const {
    for (auto it = options.rbegin(); it != options.rend(); ++it)
        if (it->first == name) return it->second;
    return std::nullopt;
}

namespace {

const OptionSpec *find_long(const std::vector<OptionSpec> &specs, std::string_view name) {
    for (const OptionSpec &s : specs)
        if (name == s.name) return &s;
    return nullptr;
}

const OptionSpec *find_short(const std::vector<OptionSpec> &specs, char c) {
    for (const OptionSpec &s : specs)
        if (s.short_name != '\0' && s.short_name == c) return &s;
    return nullptr;
}

// Every parse error names the command and points at its help.
[[noreturn]] void usage_error(const std::string &command, const std::string &what) {
    throw CliError(kExitUsage, command + ": " + what + " (see 'crowdspec " + command + " --help')");
}

}  // namespace

ParsedArgs parse_args(const std::string &command, const std::vector<std::string> &args,
                      std::size_t first, const std::vector<OptionSpec> &specs) {
    ParsedArgs out;
    bool options_done = false;
    for (std::size_t i = first; i < args.size(); ++i) {
        const std::string &a = args[i];
        // "-" alone is the stdin file name, and after "--" everything is a file name.
        if (options_done || a == "-" || a.empty() || a[0] != '-') {
            out.positionals.push_back(a);
            continue;
        }
        if (a == "--") {
            options_done = true;
            continue;
        }
        if (a == "--help" || a == "-h") {
            out.help = true;
            continue;
        }
        const OptionSpec *spec = nullptr;
        std::string shown = a;  // how the option is named in messages
        std::optional<std::string> inline_value;
        if (a.compare(0, 2, "--") == 0) {
            const std::size_t eq = a.find('=');
            const std::string name = a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
            if (eq != std::string::npos) inline_value = a.substr(eq + 1);
            shown = "--" + name;
            spec = find_long(specs, name);
        } else if (a.size() == 2) {
            spec = find_short(specs, a[1]);
        }
        if (spec == nullptr) usage_error(command, "unknown option '" + shown + "'");
        std::string value;
        if (spec->takes_value) {
            if (inline_value) {
                value = *inline_value;
            } else {
                if (i + 1 >= args.size()) usage_error(command, "option '" + shown + "' needs a value");
                value = args[++i];
            }
        } else if (inline_value) {
            usage_error(command, "option '" + shown + "' takes no value");
        }
        out.options.emplace_back(spec->name, value);
    }
    return out;
}

long long parse_integer_option(const std::string &option, const std::string &value, long long lo,
                               long long hi) {
    const char *s = value.c_str();
    char *end = nullptr;
    errno = 0;
    const long long v = std::strtoll(s, &end, 10);
    // strtoll skips leading blanks and accepts a partial parse; we want the whole text.
    const bool whole = !value.empty() && value[0] != ' ' && value[0] != '\t' && end != s && *end == '\0';
    if (!whole || errno == ERANGE || v < lo || v > hi)
        throw CliError(kExitUsage, "--" + option + " '" + value + "': expected an integer in " +
                                       std::to_string(lo) + ".." + std::to_string(hi));
    return v;
}

double parse_number_option(const std::string &option, const std::string &value, double lo, double hi) {
    const char *s = value.c_str();
    char *end = nullptr;
    errno = 0;
    const double v = std::strtod(s, &end);
    const bool whole = !value.empty() && value[0] != ' ' && value[0] != '\t' && end != s && *end == '\0';
    if (!whole || errno == ERANGE || !std::isfinite(v) || v < lo || v > hi) {
        char range[96];
        std::snprintf(range, sizeof range, "%g..%g", lo, hi);
        throw CliError(kExitUsage, "--" + option + " '" + value + "': expected a number in " + range);
    }
    return v;
}

}  // namespace cli
