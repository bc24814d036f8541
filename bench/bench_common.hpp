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
#include <map>
#include <string>
#include <vector>

namespace bench {

/// --name value options; anything else is an error (exit 2 with usage).
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
            values_[a.substr(2)] = argv[++i];
        }
    }
    std::string str(const std::string &name, const std::string &fallback) {
        used_.push_back(name);
        auto it = values_.find(name);
        return it == values_.end() ? fallback : it->second;
    }
    double num(const std::string &name, double fallback) {
        const std::string s = str(name, "");
        if (s.empty()) return fallback;
        char *end = nullptr;
        const double v = std::strtod(s.c_str(), &end);
        if (end == s.c_str() || *end != '\0') fail("--" + name + ": not a number: " + s);
        return v;
    }
    /// Call after every option was read: unknown options are errors.
    void done() {
        for (const auto &kv : values_) {
            bool known = false;
            for (const std::string &u : used_) known |= u == kv.first;
            if (!known) fail("unknown option --" + kv.first);
        }
    }

private:
    [[noreturn]] void fail(const std::string &what) {
        std::fprintf(stderr, "error: %s\n%s", what.c_str(), usage_);
        std::exit(2);
    }
    const char *usage_;
    std::map<std::string, std::string> values_;
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
