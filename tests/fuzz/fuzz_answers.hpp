// SPDX-License-Identifier: MIT
// Shared by fuzz_tags and fuzz_numbers: the reader options drawn from the fuzzer's
// first bytes, the checks every answer table must pass, and the error check.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "common/errors.hpp"
#include "fuzz_input.hpp"
#include "io/answer_file.hpp"

namespace fuzz {

/// Options byte: name = opts % 4 (in.csv, in.tsv, in.txt, in), format = (opts >> 2) % 4,
/// header = (opts >> 4) % 3; columns byte: item and answer columns (0 = by name).
inline cli::InputOptions answer_options(uint8_t opts, uint8_t cols, std::string &path) {
    static const char *const names[] = {"in.csv", "in.tsv", "in.txt", "in"};
    static const cli::TextFormat formats[] = {cli::TextFormat::Auto, cli::TextFormat::Csv, cli::TextFormat::Tsv,
                                              cli::TextFormat::Whitespace};
    static const cli::HeaderMode headers[] = {cli::HeaderMode::Auto, cli::HeaderMode::Yes, cli::HeaderMode::No};
    static const char *const col_names[] = {"", "", "", "2", "1", "3", "tags", "worker", "4", "OUTPUT:a"};
    cli::InputOptions input;
    input.format = formats[(opts >> 2) % 4];
    input.header = headers[(opts >> 4) % 3];
    input.item_col = col_names[cols % 10];
    input.label_col = col_names[(cols / 10) % 10];
    input.keep_rejected = (opts >> 6) & 1;
    path = names[opts % 4];
    return input;
}

/// A reader error: the input or usage exit code, one line, naming the file (or an option).
inline void check_answer_error(const cli::CliError &e, const std::string &path) {
    const std::string what = e.what();
    if (e.exit_code() != cli::kExitInput && e.exit_code() != cli::kExitUsage)
        fail("reader error with exit code %d: %s", e.exit_code(), what.c_str());
    if (what.empty() || what.find('\n') != std::string::npos || what.find('\r') != std::string::npos)
        fail("reader error not on one line: \"%s\"", what.c_str());
    if (e.exit_code() == cli::kExitInput && what.find(path) == std::string::npos && what.find("--") == std::string::npos)
        fail("reader error does not name the file: %s", what.c_str());
}

/// A table read: ids within the name tables, names distinct, one line per answer.
inline void check_answer_table(const cli::AnswerTable &t) {
    const std::size_t n = t.item.size();
    if (n == 0 || t.worker.size() != n || t.line.size() != n) fail("answer table of inconsistent lengths");
    for (std::size_t a = 0; a < n; ++a) {
        if (t.item[a] < 0 || static_cast<std::size_t>(t.item[a]) >= t.item_names.size()) fail("item index out of range");
        if (t.worker[a] < 0 || static_cast<std::size_t>(t.worker[a]) >= t.worker_names.size())
            fail("worker index out of range");
        if (t.line[a] == 0) fail("line 0");
    }
    for (const auto *names : {&t.item_names, &t.worker_names, &t.tag_names})
        if (std::set<std::string>(names->begin(), names->end()).size() != names->size()) fail("repeated names");
}

}  // namespace fuzz
