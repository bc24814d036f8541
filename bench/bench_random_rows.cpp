// SPDX-License-Identifier: MIT
// The memory floor under a Dawid-Skene round with many workers (issue 19, item 4):
// the cost of touching one random row of k doubles in a table of a given size, as
// every label does once in the E-step (its worker's log pi row) and once in the
// M-step (a count row, or the item's posterior row when the counts are gathered by
// code). Three passes over 10^7 random rows of one table, each row requested
// `--ahead` rows in advance (as the EM kernels do):
//   read    sum the row (the E-step's gather, the M-step's gather);
//   update  add into the row (the M-step's scatter);
//   sorted  add into the rows in increasing order (the best case of any reordering).
// Prints one JSON line per table size: nanoseconds per row, the median of --reps.
//
//   build/bench/bench_random_rows --k 5 --mb 0.2,2,20,40 --ahead 32
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

// A table of n doubles, 2 MiB-aligned and on transparent huge pages when it can be (as
// the library's tables of 1 MiB or more, util/aligned.hpp), touched once.
struct Table {
    double *data = nullptr;
    std::size_t bytes = 0;
    explicit Table(std::size_t n) {
        constexpr std::size_t kHuge = std::size_t(2) << 20;
        bytes = (n * sizeof(double) + kHuge - 1) / kHuge * kHuge;
        data = static_cast<double *>(std::aligned_alloc(kHuge, bytes));
        if (data == nullptr) return;
#if defined(MADV_HUGEPAGE)
        (void)madvise(data, bytes, MADV_HUGEPAGE);
#endif
        for (std::size_t i = 0; i < n; ++i) data[i] = 1e-3 * static_cast<double>(i % 97);
    }
    ~Table() { std::free(data); }
    Table(const Table &) = delete;
    Table &operator=(const Table &) = delete;
};

template <int K>
double pass(int mode, double *t, const std::vector<uint32_t> &rows, std::size_t ahead, double &sink) {
    const std::size_t n = rows.size();
    double acc[K] = {};
    const auto t0 = Clock::now();
    for (std::size_t p = 0; p < n; ++p) {
        if (p + ahead < n) {  // a row of K > 2 doubles may span two cache lines
            const double *next = t + static_cast<std::size_t>(rows[p + ahead]) * K;
            __builtin_prefetch(next, mode == 0 ? 0 : 1);
            __builtin_prefetch(next + K - 1, mode == 0 ? 0 : 1);
        }
        double *row = t + static_cast<std::size_t>(rows[p]) * K;
        if (mode == 0)
            for (int l = 0; l < K; ++l) acc[l] += row[l];
        else
            for (int l = 0; l < K; ++l) row[l] += 1e-9;
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    for (int l = 0; l < K; ++l) sink += acc[l];
    return seconds * 1e9 / static_cast<double>(n);
}

template <int K>
void run(const std::vector<double> &sizes_mb, std::size_t ahead, int reps, std::size_t n) {
    double sink = 0.0;
    for (double mb : sizes_mb) {
        const std::size_t table_rows = std::max<std::size_t>(1, static_cast<std::size_t>(mb * 1e6 / (K * 8.0)));
        Table table(table_rows * K);
        if (table.data == nullptr) {
            std::fprintf(stderr, "bench_random_rows: cannot allocate %.1f MB\n", mb);
            std::exit(1);
        }
        std::mt19937_64 rng(1);
        std::vector<uint32_t> rows(n);
        for (auto &r : rows) r = static_cast<uint32_t>(rng() % table_rows);
        std::vector<uint32_t> sorted(rows);
        std::sort(sorted.begin(), sorted.end());
        std::vector<double> read, update, in_order;
        for (int r = 0; r < reps; ++r) {
            read.push_back(pass<K>(0, table.data, rows, ahead, sink));
            update.push_back(pass<K>(1, table.data, rows, ahead, sink));
            in_order.push_back(pass<K>(1, table.data, sorted, ahead, sink));
        }
        const auto median = [](std::vector<double> v) {
            std::sort(v.begin(), v.end());
            return v[v.size() / 2];
        };
        std::printf("{\"k\":%d,\"table_mb\":%.2f,\"rows\":%zu,\"ahead\":%zu,\"ns_read\":%.2f,\"ns_update\":%.2f,"
                    "\"ns_update_sorted\":%.2f}\n",
                    K, static_cast<double>(table_rows * K * 8) / 1e6, n, ahead, median(read), median(update),
                    median(in_order));
    }
    if (sink == 12345.0) std::printf("#\n");  // keeps the sums alive
}

std::vector<double> parse_list(const char *s) {
    std::vector<double> out;
    std::string item;
    for (const char *c = s;; ++c) {
        if (*c == ',' || *c == '\0') {
            if (!item.empty()) out.push_back(std::atof(item.c_str()));
            item.clear();
            if (*c == '\0') break;
        } else {
            item += *c;
        }
    }
    return out;
}

}  // namespace

int main(int argc, char **argv) {
    int k = 5, reps = 3;
    std::size_t ahead = 32, n = 10000000;
    std::vector<double> sizes = {0.2, 2, 20, 40};
    if (argc % 2 == 0) {
        std::fprintf(stderr, "usage: bench_random_rows [--k 2|3|4|5] [--mb LIST] [--ahead N] [--reps N] [--rows N]\n");
        return 2;
    }
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string opt = argv[i];
        if (opt == "--k") k = std::atoi(argv[i + 1]);
        else if (opt == "--mb") sizes = parse_list(argv[i + 1]);
        else if (opt == "--ahead") ahead = static_cast<std::size_t>(std::atol(argv[i + 1]));
        else if (opt == "--reps") reps = std::max(1, std::atoi(argv[i + 1]));
        else if (opt == "--rows") n = static_cast<std::size_t>(std::atol(argv[i + 1]));
        else {
            std::fprintf(stderr, "usage: bench_random_rows [--k 2|3|4|5] [--mb LIST] [--ahead N] [--reps N] [--rows N]\n");
            return 2;
        }
    }
    switch (k) {
        case 2: run<2>(sizes, ahead, reps, n); break;
        case 3: run<3>(sizes, ahead, reps, n); break;
        case 4: run<4>(sizes, ahead, reps, n); break;
        case 5: run<5>(sizes, ahead, reps, n); break;
        default: std::fprintf(stderr, "bench_random_rows: --k must be 2..5\n"); return 2;
    }
    return 0;
}
