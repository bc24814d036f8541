// SPDX-License-Identifier: MIT
// bench_binary: writes a simulated Dawid-Skene crowd straight into a binary label file
// (docs/binary-format.md), item by item, so that crowds of 10^9 labels are made without
// holding their triples (the simulator of src/sim holds every triple): the codes stream
// to the file, and what stays in memory is the item offsets the file ends with, 8 bytes
// an item, about 16 bytes an item at the peak (measured: 165 MB for 10^8 labels of 10^7
// items, 1.5 GB for 10^9 labels). bench_binary.sh then
// times `crowdspec fit` on it and reads its peak resident memory.
//
//   bench_binary --labels N [--per-item 10] [--workers 1000] [--classes 2] [--seed 1]
//                [--truth FILE] OUT
//
// Workers: 20 % spammers (uniform answers whatever the item), the others right with a
// per-class probability drawn from U(0.55, 0.95), errors spread evenly. Items: a
// uniform true class, --per-item distinct workers. Ids are 1-based integers (stored as
// integer ranges). --truth writes `item label` lines. Prints one JSON line.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "common/errors.hpp"
#include "io/binary_labels.hpp"
#include "util/rng.hpp"

int main(int argc, char **argv) {
    long long labels = 0;
    int per_item = 10, workers = 1000, k = 2;
    unsigned long long seed = 1;
    std::string out, truth_path;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const auto value = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "bench_binary: %s needs a value\n", a.c_str());
                std::exit(1);
            }
            return argv[++i];
        };
        const auto number = [&] { return bench::parse_number(a.substr(2), value()); };  // 1e9 is a count
        if (a == "--labels") labels = static_cast<long long>(number());
        else if (a == "--per-item") per_item = static_cast<int>(number());
        else if (a == "--workers") workers = static_cast<int>(number());
        else if (a == "--classes") k = static_cast<int>(number());
        else if (a == "--seed") seed = static_cast<unsigned long long>(number());
        else if (a == "--truth") truth_path = value();
        else if (!a.empty() && a[0] != '-' && out.empty()) out = a;
        else {
            std::fprintf(stderr, "bench_binary: unknown argument '%s'\n", a.c_str());
            return 1;
        }
    }
    if (out.empty() || labels <= 0 || per_item < 1 || per_item > workers || k < 2 || k > 1000) {
        std::fprintf(stderr, "usage: bench_binary --labels N [--per-item R] [--workers M] [--classes K] [--seed S] "
                             "[--truth FILE] OUT\n");
        return 1;
    }
    const long long items = labels / per_item;
    if (items < 1 || items > 2147483647LL) {
        std::fprintf(stderr, "bench_binary: --labels / --per-item must be 1 .. 2^31 - 1 items\n");
        return 1;
    }
    const auto start = std::chrono::steady_clock::now();
    cs::Rng rng(seed);
    // Confusion rows as cumulative distributions: cdf[(i * k + true) * k + c].
    std::vector<double> cdf(static_cast<std::size_t>(workers) * k * k);
    for (int i = 0; i < workers; ++i) {
        const bool spammer = rng.uniform() < 0.2;
        for (int l = 0; l < k; ++l) {
            double *row = &cdf[(static_cast<std::size_t>(i) * k + l) * k];
            const double right = spammer ? 1.0 / k : 0.55 + 0.4 * rng.uniform();
            double acc = 0.0;
            for (int c = 0; c < k; ++c) {
                acc += c == l ? right : (1.0 - right) / (k - 1);
                row[c] = acc;
            }
            row[k - 1] = 1.0;
        }
    }
    std::vector<std::string> class_names;
    for (int l = 1; l <= k; ++l) class_names.push_back(std::to_string(l));
    cli::Dictionary classes = cli::dictionary_of(class_names), item_dict, worker_dict;
    item_dict.range = worker_dict.range = true;
    item_dict.first = worker_dict.first = 1;
    item_dict.count = static_cast<uint64_t>(items);
    worker_dict.count = static_cast<uint64_t>(workers);
    std::FILE *truth = truth_path.empty() ? nullptr : std::fopen(truth_path.c_str(), "w");
    if (!truth_path.empty() && truth == nullptr) {
        std::perror(truth_path.c_str());
        return 1;
    }
    try {
        cli::BinaryLabelWriter writer(out, classes, item_dict, worker_dict);
        std::vector<uint32_t> codes(static_cast<std::size_t>(per_item));
        std::vector<int> chosen(static_cast<std::size_t>(per_item));
        for (long long j = 0; j < items; ++j) {
            const int truth_class = static_cast<int>(rng.below(static_cast<uint64_t>(k)));
            for (int r = 0; r < per_item; ++r) {
                int w;
                bool fresh;
                do {
                    w = static_cast<int>(rng.below(static_cast<uint64_t>(workers)));
                    fresh = true;
                    for (int q = 0; q < r; ++q) fresh = fresh && chosen[q] != w;
                } while (!fresh);
                chosen[r] = w;
                const double u = rng.uniform();
                const double *row = &cdf[(static_cast<std::size_t>(w) * k + truth_class) * k];
                int c = 0;
                while (c < k - 1 && u >= row[c]) ++c;
                codes[r] = static_cast<uint32_t>(w) * static_cast<uint32_t>(k) + static_cast<uint32_t>(c);
            }
            writer.add_item(codes.data(), codes.size());
            if (truth) std::fprintf(truth, "%lld %d\n", j + 1, truth_class + 1);
        }
        const uint64_t bytes = writer.commit();
        if (truth) std::fclose(truth);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::printf("{\"file\":\"%s\",\"labels\":%lld,\"items\":%lld,\"workers\":%d,\"k\":%d,\"bytes\":%llu,"
                    "\"bytes_per_label\":%.3f,\"seconds\":%.2f}\n",
                    out.c_str(), items * per_item, items, workers, k, static_cast<unsigned long long>(bytes),
                    static_cast<double>(bytes) / static_cast<double>(items * per_item), seconds);
    } catch (const cli::CliError &e) {
        std::fprintf(stderr, "bench_binary: %s\n", e.what());
        return 1;
    }
    return 0;
}
