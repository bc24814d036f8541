// SPDX-License-Identifier: MIT
// The crowd measures of 0.2 (cs_agreement, cs_uncertainty by item and by worker,
// cs_consistency, cs_accuracy_on_aggregates) and cs_intern_strings on a large crowd:
// 10^7 labels by default (5 per item, 2000 workers, k = 3). One JSON line per function
// with its wall seconds and labels per second; the best of --repeat runs.
//   build/bench/bench_metrics [--labels 10000000] [--repeat 3]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "crowdspec/crowdspec.h"

namespace {

double best_seconds(int repeat, const std::function<cs_status()> &run, const char *what, cs_model *m) {
    double best = 1e300;
    for (int r = 0; r < repeat; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        const cs_status s = run();
        const double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (s != CS_OK) {
            std::fprintf(stderr, "%s: %s: %s\n", what, cs_status_string(s), cs_last_error(m));
            std::exit(1);
        }
        best = std::min(best, dt);
    }
    return best;
}

}  // namespace

int main(int argc, char **argv) {
    std::size_t n = 10000000;
    int repeat = 3;
    for (int a = 1; a + 1 < argc; a += 2) {
        if (std::strcmp(argv[a], "--labels") == 0) n = static_cast<std::size_t>(std::atof(argv[a + 1]));
        if (std::strcmp(argv[a], "--repeat") == 0) repeat = std::max(1, std::atoi(argv[a + 1]));
    }
    const int32_t per_item = 5, n_workers = 2000, k = 3;
    const int32_t n_items = static_cast<int32_t>(n / per_item);
    n = static_cast<std::size_t>(n_items) * per_item;
    std::vector<int32_t> item(n), worker(n), label(n), truth(static_cast<std::size_t>(n_items));
    std::vector<double> skill(static_cast<std::size_t>(n_workers));
    std::mt19937_64 rng(1);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    for (double &s : skill) s = 0.55 + 0.4 * u(rng);
    for (int32_t j = 0; j < n_items; ++j) {
        truth[static_cast<std::size_t>(j)] = static_cast<int32_t>(rng() % k);
        const int32_t start = static_cast<int32_t>(rng() % n_workers);
        for (int32_t r = 0; r < per_item; ++r) {
            const std::size_t t = static_cast<std::size_t>(j) * per_item + r;
            item[t] = j;
            worker[t] = (start + r * 7) % n_workers;
            label[t] = u(rng) < skill[static_cast<std::size_t>(worker[t])] ? truth[static_cast<std::size_t>(j)]
                                                                          : static_cast<int32_t>(rng() % k);
        }
    }
    cs_model *m = cs_create();
    std::vector<double> per_item_out(static_cast<std::size_t>(n_items)), per_worker(static_cast<std::size_t>(n_workers));
    double alpha = 0.0, overall = 0.0;
    auto report = [&](const char *name, double seconds) {
        std::printf("{\"function\":\"%s\",\"labels\":%zu,\"seconds\":%.4f,\"labels_per_second\":%.3g}\n", name, n,
                    seconds, static_cast<double>(n) / seconds);
    };
    report("cs_agreement", best_seconds(repeat, [&] {
               return cs_agreement(m, item.data(), label.data(), n, &alpha, nullptr, 0);
           }, "cs_agreement", m));
    report("cs_uncertainty(by item)", best_seconds(repeat, [&] {
               return cs_uncertainty(m, item.data(), worker.data(), label.data(), n, skill.data(), skill.size(),
                                     CS_BY_ITEM, per_item_out.data(), per_item_out.size());
           }, "cs_uncertainty", m));
    report("cs_uncertainty(by worker)", best_seconds(repeat, [&] {
               return cs_uncertainty(m, item.data(), worker.data(), label.data(), n, skill.data(), skill.size(),
                                     CS_BY_WORKER, per_worker.data(), per_worker.size());
           }, "cs_uncertainty", m));
    report("cs_consistency", best_seconds(repeat, [&] {
               return cs_consistency(m, item.data(), worker.data(), label.data(), n, skill.data(), skill.size(),
                                     truth.data(), truth.size(), per_item_out.data(), per_item_out.size());
           }, "cs_consistency", m));
    report("cs_accuracy_on_aggregates", best_seconds(repeat, [&] {
               return cs_accuracy_on_aggregates(m, item.data(), worker.data(), label.data(), n, truth.data(),
                                                truth.size(), per_worker.data(), per_worker.size(), &overall);
           }, "cs_accuracy_on_aggregates", m));
    // String ids: the items as "task<j>" joined by NUL bytes, rows in random order.
    std::string text;
    std::vector<std::size_t> order(n);
    for (std::size_t t = 0; t < n; ++t) order[t] = t;
    std::shuffle(order.begin(), order.end(), rng);
    for (std::size_t t = 0; t < n; ++t) {
        if (t) text.push_back('\0');
        text += "task" + std::to_string(item[order[t]]);
    }
    std::vector<int32_t> codes(n);
    std::vector<int64_t> first(n);
    std::size_t distinct = 0;
    report("cs_intern_strings(shuffled, sorted)", best_seconds(repeat, [&] {
               return cs_intern_strings(m, text.data(), text.size(), nullptr, n, 1, codes.data(), first.data(),
                                        &distinct);
           }, "cs_intern_strings", m));
    std::printf("{\"alpha\":%.6f,\"accuracy_on_truth\":%.6f,\"distinct_items\":%zu}\n", alpha, overall, distinct);
    cs_destroy(m);
    return 0;
}
