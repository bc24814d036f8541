// SPDX-License-Identifier: MIT
// libFuzzer target: the JSON label readers (tools/io/json_text, tools/io/json_labels)
// on arbitrary text: JSON records, JSON lines, fit's own JSON output and Label Studio
// exports, read as a crowd file (read_crowd_text) or as a truth file, and the bare
// conversion to a table (json_as_table). Invariants: a reader either returns a
// consistent table (equal lengths, indices within the name tables, distinct names,
// increasing lines) or throws CliError with the input exit code and one line naming the
// file; and a crowd table written back as JSON records (the program's own JSON string
// escapes) reads back to the same names and triples.
#include <unistd.h>

#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "io/json_labels.hpp"
#include "io/label_file.hpp"
#include "io/output.hpp"
#include "fuzz_input.hpp"
#include "fuzz_readers.hpp"

namespace {

using fuzz::check_crowd;
using fuzz::check_lines;
using fuzz::g_dir;
using fuzz::write_file;

void check_error(const cli::CliError &e, const std::string &source) {
    const std::string what = e.what();
    if (e.exit_code() != cli::kExitInput) fuzz::fail("reader error with exit code %d: %s", e.exit_code(), what.c_str());
    if (what.empty() || what.find('\n') != std::string::npos || what.find('\r') != std::string::npos)
        fuzz::fail("reader error not on one line: \"%s\"", what.c_str());
    if (what.find(source) == std::string::npos) fuzz::fail("reader error does not name the file: %s", what.c_str());
}

// The table written as JSON records (one per line), read back with the default options.
// Ids that are not well-formed UTF-8 change in JSON (U+FFFD), so only tables whose names
// are written as they are take this check.
void round_trip(const cli::CrowdTable &c) {
    for (const auto *names : {&c.item_names, &c.worker_names, &c.class_names})
        if (!cli::json_lossy_note(*names, "names").empty()) return;
    std::string json = "[\n";
    for (std::size_t t = 0; t < c.item.size(); ++t) {
        json += t ? ",\n{\"item\":" : "{\"item\":";
        cli::append_json_string(json, c.item_names[static_cast<std::size_t>(c.item[t])]);
        json += ",\"worker\":";
        cli::append_json_string(json, c.worker_names[static_cast<std::size_t>(c.worker[t])]);
        json += ",\"label\":";
        cli::append_json_string(json, c.class_names[static_cast<std::size_t>(c.label[t])]);
        json += "}";
    }
    json += "\n]\n";
    cli::CrowdTable back;
    try {
        back = cli::read_crowd_text(json, "round.json", cli::ClassSpec());
    } catch (const cli::CliError &e) {
        fuzz::fail("the table written back as JSON does not read: %s", e.what());
    }
    if (back.item_names != c.item_names || back.worker_names != c.worker_names || back.class_names != c.class_names ||
        back.item != c.item || back.worker != c.worker || back.label != c.label)
        fuzz::fail("JSON round trip changed the table (%zu vs %zu items, %zu vs %zu workers, %zu vs %zu classes)",
                   c.item_names.size(), back.item_names.size(), c.worker_names.size(), back.worker_names.size(),
                   c.class_names.size(), back.class_names.size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz::Input in(data, size);
    const uint8_t kind = in.byte() % 3;
    const std::string text(in.rest());
    try {
        switch (kind) {
            case 0: {
                const cli::CrowdTable c = cli::read_crowd_text(text, "in.json", cli::ClassSpec());
                check_crowd(c);
                round_trip(c);
                break;
            }
            case 1: {
                const cli::TruthTable t = cli::read_truth_file(write_file("truth.json", text));
                if (t.entries.size() != t.line.size()) fuzz::fail("truth table of inconsistent lengths");
                check_lines(t.line);
                break;
            }
            default: {
                const cli::JsonTable t = cli::json_as_table(text, "in.json");
                if (t.csv.empty() || t.csv.back() != '\n') fuzz::fail("a table that does not end a line");
                break;
            }
        }
    } catch (const cli::CliError &e) {
        check_error(e, kind == 1 ? g_dir + "/truth.json" : "in.json");
    }
    return 0;
}
