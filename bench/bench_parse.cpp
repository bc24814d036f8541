// SPDX-License-Identifier: MIT
// Throughput of the command-line program's input and output paths alone (issue 19,
// item 2): read_crowd_file() on a label file, and write_item_results() /
// write_worker_results() of a result of that size, by thread count. One JSON line per
// run, with wall and CPU seconds (the CPU figure stays meaningful on a loaded machine).
//
//   build/bench/bench_parse [--threads 1,2] [--reps 3] [--grouped] [--write OUT] FILE
//
// --grouped reads as `crowdspec fit` does (labels grouped by item when the file's
// items come in index order, InputOptions::grouped); without it, as triples.
// OUT receives the item results (use a file on the same disk as a real run; /dev/null
// measures formatting alone).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "io/crowd_input.hpp"
#include "io/label_file.hpp"
#include "io/output.hpp"
#include "io/result_writers.hpp"

namespace {

double wall_now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double cpu_now() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

std::vector<std::size_t> parse_list(const std::string &s) {
    std::vector<std::size_t> out;
    std::size_t start = 0;
    while (start <= s.size()) {
        const std::size_t comma = s.find(',', start);
        out.push_back(std::strtoul(s.substr(start, comma - start).c_str(), nullptr, 10));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return out;
}

long file_size(const std::string &path) {
    std::FILE *f = std::fopen(path.c_str(), "rb");
    if (f == nullptr) return -1;
    std::fseek(f, 0, SEEK_END);
    const long n = std::ftell(f);
    std::fclose(f);
    return n;
}

}  // namespace

int main(int argc, char **argv) {
    std::vector<std::size_t> threads = {1, 2};
    int reps = 3;
    bool grouped = false;
    std::string file, out_path;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--threads" && i + 1 < argc) threads = parse_list(argv[++i]);
        else if (a == "--reps" && i + 1 < argc) reps = std::atoi(argv[++i]);
        else if (a == "--write" && i + 1 < argc) out_path = argv[++i];
        else if (a == "--grouped") grouped = true;
        else file = a;
    }
    if (file.empty()) {
        std::fprintf(stderr, "usage: bench_parse [--threads 1,2] [--reps 3] [--grouped] [--write OUT] FILE\n");
        return 1;
    }
    const double bytes = static_cast<double>(file_size(file));
    try {
        for (int r = 0; r < reps; ++r) {
            for (std::size_t t : threads) {
                cli::InputOptions input;
                input.threads = t;
                input.grouped = grouped;
                const double w0 = wall_now(), c0 = cpu_now();
                cli::CrowdTable table = cli::read_crowd_file(file, cli::ClassSpec(), input);
                const double w = wall_now() - w0, c = cpu_now() - c0;
                std::printf("{\"phase\":\"read\",\"threads\":%zu,\"bytes\":%.0f,\"labels\":%zu,\"items\":%zu,"
                            "\"grouped\":%s,\"seconds\":%.3f,\"cpu_seconds\":%.3f,\"mb_per_s\":%.1f}\n",
                            t, bytes, table.n_labels(), table.item_names.size(), table.grouped() ? "true" : "false", w, c,
                            bytes / w / 1e6);
                if (table.grouped()) cli::expand_grouped_triples(table);  // the writer's stand-in posteriors need triples
                std::fflush(stdout);
                if (out_path.empty()) continue;
                // A result of the table's size: posteriors from the vote shares.
                cli::FitOutcome fit;
                fit.n_items = table.item_names.size();
                fit.n_workers = table.worker_names.size();
                fit.k = table.class_names.size();
                fit.posteriors.assign(fit.n_items * fit.k, 0.0);
                for (std::size_t e = 0; e < table.item.size(); ++e)
                    fit.posteriors[static_cast<std::size_t>(table.item[e]) * fit.k + table.label[e]] += 1.0;
                fit.labels.resize(fit.n_items);
                for (std::size_t j = 0; j < fit.n_items; ++j) {
                    double *p = fit.posteriors.data() + j * fit.k, sum = 0.0;
                    for (std::size_t l = 0; l < fit.k; ++l) sum += p[l];
                    for (std::size_t l = 0; l < fit.k; ++l) p[l] = sum > 0 ? p[l] / sum : 1.0 / static_cast<double>(fit.k);
                    fit.labels[j] = static_cast<int32_t>(std::max_element(p, p + fit.k) - p);
                }
                const double v0 = wall_now(), d0 = cpu_now();
                cli::OutputFile out(out_path);
                cli::write_item_results(out, cli::ResultFormat::Csv, table, fit, "mv", t);
                out.commit();
                const double v = wall_now() - v0, d = cpu_now() - d0;
                const double written = static_cast<double>(std::max(0L, file_size(out_path)));
                std::printf("{\"phase\":\"write\",\"threads\":%zu,\"bytes\":%.0f,\"items\":%zu,\"seconds\":%.3f,"
                            "\"cpu_seconds\":%.3f,\"mb_per_s\":%.1f}\n",
                            t, written, fit.n_items, v, d, written / v / 1e6);
                std::fflush(stdout);
            }
        }
    } catch (const cli::CliError &e) {
        std::fprintf(stderr, "bench_parse: %s\n", e.what());
        return 1;
    }
    return 0;
}
