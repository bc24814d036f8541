// SPDX-License-Identifier: MIT
// Scale benchmark of the spectral baselines (issue 3): simulate a binary crowd with
// 10^7 labels (by default), fit kos and ghosh-svd through the C API, and print one JSON
// line per method: labels, items, workers, seconds, iterations (eigensolver block
// products), converged, error rate (and the Bayes-optimal oracle's), and the process's
// peak resident memory so far (VmHWM). Run one method per process to attribute peak
// memory, e.g.
//
//   /usr/bin/time -v build/bench/bench_baselines --method kos
//
// and compare peak_bytes_per_label with the label storage: 12 bytes per label in the
// caller's arrays (input_mib) plus the library's own copy (CrowdData: 16 bytes per
// label with its by-item and by-worker layouts, 4 with main's packed by-item codes).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "crowdspec/crowdspec.h"
#include "sim/crowd_sim.hpp"

namespace {

void usage() {
    std::fprintf(stderr,
                 "usage: bench_baselines [--labels N] [--per-item R] [--workers M] [--seed S]\n"
                 "                       [--threads T] [--method NAME]...\n"
                 "  defaults: 10000000 labels, 10 per item, 2000 workers, seed 1, all cores,\n"
                 "  methods kos and ghosh-svd; k = 2, the simulator's default worker mix\n");
}

long peak_rss_kib() {  // VmHWM of this process, or -1
    FILE *f = std::fopen("/proc/self/status", "r");
    if (!f) return -1;
    char line[256];
    long kib = -1;
    while (std::fgets(line, sizeof line, f))
        if (std::strncmp(line, "VmHWM:", 6) == 0) kib = std::strtol(line + 6, nullptr, 10);
    std::fclose(f);
    return kib;
}

double error_rate(const std::vector<int32_t> &a, const std::vector<int32_t> &b) {
    std::size_t wrong = 0;
    for (std::size_t j = 0; j < a.size(); ++j) wrong += a[j] != b[j];
    return a.empty() ? 0.0 : static_cast<double>(wrong) / static_cast<double>(a.size());
}

}  // namespace

int main(int argc, char **argv) {
    long long labels = 10000000;
    int per_item = 10, workers = 2000, threads = 0;
    unsigned long long seed = 1;
    std::vector<std::string> methods;
    for (int a = 1; a < argc; ++a) {
        const std::string arg = argv[a];
        if (a + 1 >= argc) {
            usage();
            return 2;
        }
        const char *value = argv[++a];
        const auto number = [&] { return bench::parse_number(arg.substr(2), value); };  // 1e7 is a count
        if (arg == "--labels") labels = static_cast<long long>(number());
        else if (arg == "--per-item") per_item = static_cast<int>(number());
        else if (arg == "--workers") workers = static_cast<int>(number());
        else if (arg == "--seed") seed = static_cast<unsigned long long>(number());
        else if (arg == "--threads") threads = static_cast<int>(number());
        else if (arg == "--method") methods.push_back(value);
        else {
            usage();
            return 2;
        }
    }
    if (methods.empty()) methods = {"kos", "ghosh-svd"};
    if (labels < per_item || per_item < 1 || workers < per_item) {
        usage();
        return 2;
    }

    cs::sim::CrowdSpec spec;
    spec.k = 2;
    spec.n_workers = workers;
    spec.labels_per_item = per_item;
    spec.n_items = static_cast<int32_t>(labels / per_item);
    spec.seed = seed;
    const auto t0 = std::chrono::steady_clock::now();
    cs::sim::Crowd crowd = cs::sim::simulate_crowd(spec);
    const double simulate_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double oracle = error_rate(cs::sim::oracle_labels(crowd, {0.5, 0.5}), crowd.truth);
    crowd.confusion.clear();
    crowd.confusion.shrink_to_fit();
    const std::size_t n_labels = crowd.item.size();
    std::printf("{\"simulated\":true,\"labels\":%zu,\"items\":%d,\"workers\":%d,\"k\":2,"
                "\"seconds\":%.3f,\"oracle_error_rate\":%.6f,\"peak_rss_mib\":%.1f}\n",
                n_labels, crowd.n_items, crowd.n_workers, simulate_seconds, oracle,
                peak_rss_kib() / 1024.0);
    std::fflush(stdout);

    for (const std::string &method : methods) {
        cs_model *model = cs_create();
        if (model == nullptr || cs_set_param_string(model, "method", method.c_str()) != CS_OK ||
            cs_set_int(model, CS_PARAM_THREADS, threads) != CS_OK) {
            std::fprintf(stderr, "bench_baselines: %s: %s\n", method.c_str(), cs_last_error(model));
            cs_destroy(model);
            return 1;
        }
        const auto start = std::chrono::steady_clock::now();
        const cs_status status = cs_fit(model, crowd.item.data(), crowd.worker.data(),
                                        crowd.label.data(), n_labels);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (status != CS_OK) {
            std::fprintf(stderr, "bench_baselines: %s: %s: %s\n", method.c_str(),
                         cs_status_string(status), cs_last_error(model));
            cs_destroy(model);
            return 1;
        }
        std::vector<int32_t> fitted(crowd.truth.size());
        int32_t iterations = 0, converged = 0;
        cs_labels(model, fitted.data(), fitted.size());
        cs_iterations(model, &iterations);
        cs_converged(model, &converged);
        cs_destroy(model);
        const double peak_mib = peak_rss_kib() / 1024.0;
        const double input_mib = 12.0 * static_cast<double>(n_labels) / (1024.0 * 1024.0);
        std::printf("{\"method\":\"%s\",\"labels\":%zu,\"seconds\":%.3f,\"iterations\":%d,"
                    "\"converged\":%s,\"error_rate\":%.6f,\"labels_per_second\":%.4g,"
                    "\"peak_rss_mib\":%.1f,\"input_mib\":%.1f,\"peak_bytes_per_label\":%.1f}\n",
                    method.c_str(), n_labels, seconds, iterations, converged ? "true" : "false",
                    error_rate(fitted, crowd.truth), static_cast<double>(n_labels) / seconds,
                    peak_mib, input_mib, peak_mib * 1024.0 * 1024.0 / static_cast<double>(n_labels));
        std::fflush(stdout);
    }
    return 0;
}
