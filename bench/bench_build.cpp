// SPDX-License-Identifier: MIT
// The crowd's construction alone (CrowdData::build: validation, grouping by item, each
// item's labels put in worker order), the serial part of a fit that threads did not
// shorten before issue 19 item 1's second pass. One JSON line per input order and
// thread count, with the median wall and CPU seconds of --reps builds:
//   build/bench/bench_build --labels 10000000 --threads 1,2 --reps 5
// Orders: "canonical" (items in order, each item's workers in order: the layout the
// library keeps, only checked), "workers" (items in order, workers in the simulator's
// random order: most exports), "shuffled" (rows in random order).
#include <algorithm>
#include <cstdint>
#include <ctime>
#include <numeric>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "data/crowd_data.hpp"
#include "sim/crowd_sim.hpp"
#include "util/rng.hpp"

namespace {

double cpu_now() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

struct Triples {
    std::vector<int32_t> item, worker, label;
};

Triples reordered(const Triples &t, const std::vector<std::size_t> &order) {
    Triples out;
    for (auto *v : {&out.item, &out.worker, &out.label}) v->resize(order.size());
    for (std::size_t p = 0; p < order.size(); ++p) {
        out.item[p] = t.item[order[p]];
        out.worker[p] = t.worker[order[p]];
        out.label[p] = t.label[order[p]];
    }
    return out;
}

}  // namespace

int main(int argc, char **argv) {
    bench::Args args(argc, argv,
                     "usage: bench_build [--labels N] [--per-item R] [--workers M] [--k K] [--threads 1,2]\n"
                     "                   [--reps R] [--seed S]\n");
    const int64_t labels = static_cast<int64_t>(args.num("labels", 1e7));
    const int32_t per_item = static_cast<int32_t>(args.num("per-item", 10));
    const int32_t workers = static_cast<int32_t>(args.num("workers", 1000));
    const int32_t k = static_cast<int32_t>(args.num("k", 2));
    const int reps = std::max(1, static_cast<int>(args.num("reps", 5)));
    const uint64_t seed = static_cast<uint64_t>(args.num("seed", 1));
    std::vector<int> thread_counts;
    {
        const std::string list = args.str("threads", "1,2");
        std::size_t a = 0;
        while (a < list.size()) {
            const std::size_t b = std::min(list.find(',', a), list.size());
            thread_counts.push_back(std::stoi(list.substr(a, b - a)));
            a = b + 1;
        }
    }
    args.done();

    cs::sim::CrowdSpec spec;
    spec.n_items = static_cast<int32_t>(labels / per_item);
    spec.n_workers = workers;
    spec.k = k;
    spec.labels_per_item = per_item;
    spec.seed = seed;
    const cs::sim::Crowd crowd = cs::sim::simulate_crowd(spec);
    Triples workers_order{crowd.item, crowd.worker, crowd.label};
    const std::size_t n = workers_order.item.size();

    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return workers_order.item[a] != workers_order.item[b] ? workers_order.item[a] < workers_order.item[b]
                                                              : workers_order.worker[a] < workers_order.worker[b];
    });
    const Triples canonical = reordered(workers_order, order);
    cs::Rng rng(seed + 1);
    std::iota(order.begin(), order.end(), std::size_t{0});
    for (std::size_t i = n - 1; i > 0; --i) std::swap(order[i], order[rng.below(static_cast<uint64_t>(i) + 1)]);
    const Triples shuffled = reordered(workers_order, order);

    for (const auto &[name, t] : {std::pair<const char *, const Triples *>{"canonical", &canonical},
                                  {"workers", &workers_order},
                                  {"shuffled", &shuffled}})
        for (int threads : thread_counts) {
            cs::FitOptions options;
            options.threads = threads;
            std::vector<double> wall, cpu;
            std::size_t kept = 0;
            for (int r = 0; r < reps; ++r) {
                const double w0 = bench::now(), c0 = cpu_now();
                const cs::CrowdData d =
                    cs::CrowdData::build(t->item.data(), t->worker.data(), t->label.data(), n, options);
                cpu.push_back(cpu_now() - c0);
                wall.push_back(bench::now() - w0);
                kept = d.n_labels();
            }
            bench::Json()
                .str("order", name)
                .integer("labels", static_cast<long long>(kept))
                .integer("threads", threads)
                .num("wall_s", median(wall), "%.4f")
                .num("cpu_s", median(cpu), "%.4f")
                .num("ns_per_label_cpu", 1e9 * median(cpu) / static_cast<double>(n), "%.2f")
                .print();
        }
    return 0;
}
