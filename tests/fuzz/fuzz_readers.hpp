// SPDX-License-Identifier: MIT
// Shared by the reader fuzz targets (fuzz_cli_readers, fuzz_json_readers): files in a
// private temporary directory, and the invariants of the tables the readers return.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "io/crowd_table.hpp"
#include "fuzz_input.hpp"

namespace fuzz {

inline std::string g_dir;  // a private temporary directory, made once

inline std::string write_file(const std::string &name, std::string_view content) {
    if (g_dir.empty()) {
        char pattern[] = "/tmp/cs_fuzz_readers.XXXXXX";
        if (mkdtemp(pattern) == nullptr) fail("mkdtemp failed");
        g_dir = pattern;
    }
    const std::string path = g_dir + "/" + name;
    std::FILE *f = std::fopen(path.c_str(), "wb");
    if (f == nullptr || std::fwrite(content.data(), 1, content.size(), f) != content.size() || std::fclose(f) != 0)
        fail("cannot write %s", path.c_str());
    return path;
}

// Line numbers as a vector (truth, points) or a cli::LineMap (crowds: runs of lines).
template <class Lines>
inline void check_lines(const Lines &line) {
    for (std::size_t t = 0; t < line.size(); ++t)
        if (line[t] == 0 || (t > 0 && line[t] <= line[t - 1])) fail("line numbers not increasing at %zu", t);
}

inline void check_names(const std::vector<std::string> &names, const char *what) {
    if (std::set<std::string>(names.begin(), names.end()).size() != names.size())
        fail("repeated %s names", what);
}

inline void check_crowd(const cli::CrowdTable &c) {
    const std::size_t n = c.item.size();
    if (n == 0 || c.worker.size() != n || c.label.size() != n || c.line.size() != n)
        fail("crowd table of inconsistent lengths");
    for (std::size_t t = 0; t < n; ++t)
        if (c.item[t] < 0 || static_cast<std::size_t>(c.item[t]) >= c.item_names.size() || c.worker[t] < 0 ||
            static_cast<std::size_t>(c.worker[t]) >= c.worker_names.size() || c.label[t] < 0 ||
            static_cast<std::size_t>(c.label[t]) >= c.class_names.size())
            fail("triple %zu indexes outside the name tables", t);
    check_names(c.item_names, "item");
    check_names(c.worker_names, "worker");
    check_names(c.class_names, "class");
    check_lines(c.line);  // one triple per record, records in file order
}

}  // namespace fuzz
