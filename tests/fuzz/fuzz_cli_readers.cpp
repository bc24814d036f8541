// SPDX-License-Identifier: MIT
// libFuzzer target: the command-line program's readers (tools/io/label_file,
// tools/io/table_reader, tools/io/point_files) on arbitrary file contents: crowd files with
// random input options (format, header, columns, --classes), truth files, point files
// and edge files, under a .csv, .tsv or .txt name. Invariants: a reader either returns a
// consistent table (equal lengths, indices within the name tables, distinct names,
// increasing lines) or throws CliError with the input exit code and a one-line message
// naming the file; and a crowd table written back as CSV (the program's own field
// quoting) reads back to the same names and triples.
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "io/crowd_input.hpp"
#include "io/label_file.hpp"
#include "io/output.hpp"
#include "io/point_files.hpp"
#include "fuzz_input.hpp"
#include "fuzz_readers.hpp"

namespace {

using fuzz::check_crowd;
using fuzz::check_lines;
using fuzz::check_names;
using fuzz::write_file;

void check_error(const cli::CliError &e, const std::string &path) {
    const std::string what = e.what();
    if (e.exit_code() != cli::kExitInput && e.exit_code() != cli::kExitUsage)
        fuzz::fail("reader error with exit code %d: %s", e.exit_code(), what.c_str());
    if (what.empty() || what.find('\n') != std::string::npos || what.find('\r') != std::string::npos)
        fuzz::fail("reader error not on one line: \"%s\"", what.c_str());
    if (e.exit_code() == cli::kExitInput && what.find(path) == std::string::npos &&
        what.find("--") == std::string::npos)
        fuzz::fail("reader error does not name the file: %s", what.c_str());
}

// The table written as the program writes CSV, read back with the default options.
void round_trip(const cli::CrowdTable &c) {
    std::string csv = "item,worker,label\n";
    for (std::size_t t = 0; t < c.item.size(); ++t) {
        cli::append_csv_field(csv, c.item_names[c.item[t]]);
        csv += ',';
        cli::append_csv_field(csv, c.worker_names[c.worker[t]]);
        csv += ',';
        cli::append_csv_field(csv, c.class_names[c.label[t]]);
        csv += '\n';
    }
    const std::string path = write_file("round.csv", csv);
    cli::CrowdTable back;
    try {
        back = cli::read_crowd_file(path, cli::ClassSpec());
    } catch (const cli::CliError &e) {
        fuzz::fail("the table written back does not read: %s", e.what());
    }
    if (back.item_names != c.item_names || back.worker_names != c.worker_names || back.class_names != c.class_names ||
        back.item != c.item || back.worker != c.worker || back.label != c.label)
        fuzz::fail("round trip changed the table (%zu vs %zu items, %zu vs %zu workers, %zu vs %zu classes)",
                   c.item_names.size(), back.item_names.size(), c.worker_names.size(), back.worker_names.size(),
                   c.class_names.size(), back.class_names.size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz::Input in(data, size);
    const uint8_t kind = in.byte() % 4, opts = in.byte(), cols = in.byte();
    static const char *const names[] = {"in.csv", "in.tsv", "in.txt", "in"};
    static const cli::TextFormat formats[] = {cli::TextFormat::Auto, cli::TextFormat::Csv, cli::TextFormat::Tsv,
                                              cli::TextFormat::Whitespace};
    static const cli::HeaderMode headers[] = {cli::HeaderMode::Auto, cli::HeaderMode::Yes, cli::HeaderMode::No};
    const std::string path = write_file(names[opts % 4], in.rest());
    cli::InputOptions input;
    input.format = formats[(opts >> 2) % 4];
    input.header = headers[(opts >> 4) % 3];
    static const char *const col_names[] = {"", "", "", "2", "1", "3", "label", "worker", "4", "0"};
    input.item_col = col_names[cols % 10];
    input.label_col = col_names[(cols / 10) % 10];
    try {
        switch (kind) {
            case 0: {
                cli::ClassSpec classes;
                if (opts >> 6 == 1) classes = cli::parse_class_spec("3");
                else if (opts >> 6 == 2) classes = cli::parse_class_spec("a,b,0,1");
                const cli::CrowdTable c = cli::read_crowd_file(path, classes, input);
                check_crowd(c);
                if (opts >> 6 == 0 || opts >> 6 == 3) round_trip(c);
                break;
            }
            case 1: {
                const cli::TruthTable t = cli::read_truth_file(path, input);
                if (t.entries.size() != t.line.size()) fuzz::fail("truth table of inconsistent lengths");
                check_lines(t.line);
                break;
            }
            case 2: {
                const cli::PointTable p = cli::read_points_file(path);
                if (p.n == 0 || p.d == 0 || p.x.size() != p.n * p.d || p.line.size() != p.n)
                    fuzz::fail("point table of inconsistent sizes");
                check_lines(p.line);
                break;
            }
            default: {
                const cli::EdgeTable g = cli::read_edges_file(path);
                if (g.u.empty() || g.u.size() != g.v.size()) fuzz::fail("edge table of inconsistent lengths");
                for (std::size_t e = 0; e < g.u.size(); ++e)
                    if (g.u[e] < 0 || g.v[e] < 0 || static_cast<std::size_t>(g.u[e]) >= g.node_names.size() ||
                        static_cast<std::size_t>(g.v[e]) >= g.node_names.size())
                        fuzz::fail("edge %zu indexes outside the node names", e);
                check_names(g.node_names, "node");
                break;
            }
        }
    } catch (const cli::CliError &e) {
        check_error(e, path);
    }
    return 0;
}
