// SPDX-License-Identifier: MIT
// Small helpers of the benchmark programs: option parsing, wall and CPU clocks, medians,
// JSON output.
#pragma once

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace bench {

/// A number given on the command line: strtod's syntax, so counts may be written 1e7;
/// anything else (an empty value, trailing characters) is an error (exit 2, after
/// printing `usage` when given). atoll-style parsing read "1e7" as 1.
[[noreturn]] inline void fail_usage(const std::string &what, const char *usage) {
    std::fprintf(stderr, "error: %s\n%s", what.c_str(), usage ? usage : "");
    std::exit(2);
}

inline double parse_number(const std::string &name, const std::string &text, const char *usage = nullptr) {
    char *end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || end == text.c_str() || *end != '\0') fail_usage("--" + name + ": not a number: " + text, usage);
    return v;
}

/// --name value options (a repeated one: str() gives its last value, all() every one);
/// anything else is an error (exit 2 with usage).
class Args {
public:
    Args(int argc, char **argv, const char *usage) : usage_(usage) {
        for (int i = 1; i < argc; ++i) {
            const std::string a = argv[i];
            if (a == "--help" || a == "-h") {
                std::fputs(usage, stdout);
                std::exit(0);
            }
            if (a.rfind("--", 0) != 0 || i + 1 >= argc) fail("bad argument '" + a + "'");
            values_.emplace_back(a.substr(2), argv[++i]);
        }
    }
    /// The option's value (its last, when given more than once), or `fallback`.
    std::string str(const std::string &name, const std::string &fallback) {
        const std::vector<std::string> v = all(name);
        return v.empty() ? fallback : v.back();
    }
    /// Every value of a repeatable option, in the order given.
    std::vector<std::string> all(const std::string &name) {
        used_.push_back(name);
        std::vector<std::string> out;
        for (const auto &kv : values_)
            if (kv.first == name) out.push_back(kv.second);
        return out;
    }
    double num(const std::string &name, double fallback) {
        const std::string s = str(name, "");
        return s.empty() ? fallback : parse_number(name, s, usage_);
    }
    /// Call after every option was read: unknown options are errors.
    void done() {
        for (const auto &kv : values_)
            if (std::find(used_.begin(), used_.end(), kv.first) == used_.end()) fail("unknown option --" + kv.first);
    }

private:
    [[noreturn]] void fail(const std::string &what) { fail_usage(what, usage_); }
    const char *usage_;
    std::vector<std::pair<std::string, std::string>> values_;
    std::vector<std::string> used_;
};

inline double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// CPU seconds of the whole process (every thread): on a shared machine the work done,
/// which the neighbours' load does not stretch as it does wall time.
inline double cpu_now() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

/// The median of a few timings (the mean of the middle two for an even count).
inline double median(std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    const std::size_t h = v.size() / 2;
    return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

/// A JSON object built field by field and printed as one line.
class Json {
public:
    Json &num(const char *key, double v, const char *format = "%.6g") {
        char buf[64];
        std::snprintf(buf, sizeof buf, format, v);
        return raw(key, buf);
    }
    Json &integer(const char *key, long long v) { return raw(key, std::to_string(v)); }
    Json &str(const char *key, const std::string &v) { return raw(key, "\"" + v + "\""); }
    Json &boolean(const char *key, bool v) { return raw(key, v ? "true" : "false"); }
    Json &list(const char *key, const std::vector<double> &v, const char *format = "%.6g") {
        std::string s = "[";
        for (std::size_t i = 0; i < v.size(); ++i) {
            char buf[64];
            std::snprintf(buf, sizeof buf, format, v[i]);
            s += (i ? "," : "") + std::string(buf);
        }
        return raw(key, s + "]");
    }
    Json &raw(const char *key, const std::string &v) {
        text_ += (text_.empty() ? "{" : ",") + std::string("\"") + key + "\":" + v;
        return *this;
    }
    void print() const {
        std::printf("%s}\n", text_.c_str());
        std::fflush(stdout);
    }

private:
    std::string text_;
};

}  // namespace bench
