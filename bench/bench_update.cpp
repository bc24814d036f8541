// SPDX-License-Identifier: MIT
// Incremental updates against full refits (issue 38, docs/incremental.md), on a
// simulated one-coin crowd through the public C API:
//   --mode one      fit 99 % of the labels, then cs_update with the last 1 % (new and
//                   known items); prints the update's time as a share of the full fit of
//                   all labels (goal: <= 5 %), and how the labels agree with that fit.
//   --mode replay   the labels in --batches batches: the first fitted, each next one
//                   added by cs_update; time per batch, total, and the time of the full
//                   fits a refit-every-batch pipeline would run (measured on every
//                   --refit-every-th batch and interpolated linearly between them, which
//                   the fit's cost, linear in the labels, allows).
// One JSON line per run. Usage: bench_update [--labels 1e7] [--items 1e6] [--workers 2000]
//   [--k 3] [--mode one|replay] [--batches 100] [--refit-every 10] [--threads 0]
//   [--method auto] [--seed 38]
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "crowdspec/crowdspec.h"

namespace {

const char kUsage[] =
    "usage: bench_update [--labels N] [--items N] [--workers N] [--k K] [--mode one|replay]\n"
    "                    [--batches B] [--refit-every R] [--threads T] [--method NAME] [--seed S]\n";

struct Rng {
    uint64_t s;
    uint64_t next() {
        uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
    int32_t below(int32_t n) { return static_cast<int32_t>(next() % static_cast<uint64_t>(n)); }
};

struct Labels {
    std::vector<int32_t> item, worker, label;
    std::size_t size() const { return item.size(); }
};

// labels / items labels per item from distinct workers of accuracy 0.55-0.95; the
// labels are then put in a random order (the order batches arrive in).
Labels simulate(std::size_t n_labels, int32_t items, int32_t workers, int32_t k, uint64_t seed) {
    Rng rng{seed};
    std::vector<double> accuracy(static_cast<std::size_t>(workers));
    for (double &a : accuracy) a = 0.55 + 0.4 * rng.uniform();
    Labels t;
    t.item.reserve(n_labels);
    t.worker.reserve(n_labels);
    t.label.reserve(n_labels);
    const std::size_t per_item = std::max<std::size_t>(1, n_labels / static_cast<std::size_t>(items));
    for (int32_t j = 0; j < items && t.size() < n_labels; ++j) {
        const int32_t y = rng.below(k);
        const int32_t first = rng.below(workers);
        for (std::size_t r = 0; r < per_item && t.size() < n_labels; ++r) {
            const int32_t w = static_cast<int32_t>((static_cast<std::size_t>(first) + r * 7919) % workers);
            t.item.push_back(j);
            t.worker.push_back(w);
            t.label.push_back(rng.uniform() < accuracy[static_cast<std::size_t>(w)] ? y : (y + 1 + rng.below(k - 1)) % k);
        }
    }
    std::vector<std::size_t> order(t.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    for (std::size_t e = order.size(); e > 1; --e) std::swap(order[e - 1], order[rng.next() % e]);
    Labels out;
    out.item.resize(t.size());
    out.worker.resize(t.size());
    out.label.resize(t.size());
    for (std::size_t e = 0; e < order.size(); ++e) {
        out.item[e] = t.item[order[e]];
        out.worker[e] = t.worker[order[e]];
        out.label[e] = t.label[order[e]];
    }
    return out;
}

cs_model *make(const std::string &method, int32_t threads, int32_t items) {
    cs_model *m = cs_create();
    if (m == nullptr || cs_set_param_string(m, "method", method.c_str()) != CS_OK) {
        std::fprintf(stderr, "error: method %s\n", method.c_str());
        std::exit(2);
    }
    cs_set_int(m, CS_PARAM_THREADS, threads);
    cs_set_int(m, CS_PARAM_ITEMS, items);  // the full fit's item rows, also for a partial fit
    return m;
}

void ok(cs_model *m, cs_status s, const char *what) {
    if (s != CS_OK) {
        std::fprintf(stderr, "error: %s: %s\n", what, cs_last_error(m));
        std::exit(1);
    }
}

// Fit of labels [0, end) timed.
double timed_fit(cs_model *m, const Labels &t, std::size_t end) {
    const double t0 = bench::now();
    ok(m, cs_fit(m, t.item.data(), t.worker.data(), t.label.data(), end), "cs_fit");
    return bench::now() - t0;
}

double timed_update(cs_model *m, const Labels &t, std::size_t from, std::size_t to) {
    const double t0 = bench::now();
    ok(m, cs_update(m, t.item.data() + from, t.worker.data() + from, t.label.data() + from, to - from), "cs_update");
    return bench::now() - t0;
}

std::vector<int32_t> labels_of(cs_model *m) {
    std::size_t n = 0;
    cs_n_items(m, &n);
    std::vector<int32_t> out(n);
    cs_labels(m, out.data(), n);
    return out;
}

double agreement(cs_model *a, cs_model *b) {
    const std::vector<int32_t> x = labels_of(a), y = labels_of(b);
    std::size_t same = 0;
    for (std::size_t j = 0; j < x.size() && j < y.size(); ++j) same += x[j] == y[j];
    return x.empty() ? 0.0 : 100.0 * static_cast<double>(same) / static_cast<double>(x.size());
}

}  // namespace

int main(int argc, char **argv) {
    bench::Args args(argc, argv, kUsage);
    const std::size_t n_labels = static_cast<std::size_t>(args.num("labels", 1e7));
    const int32_t items = static_cast<int32_t>(args.num("items", 1e6));
    const int32_t workers = static_cast<int32_t>(args.num("workers", 2000));
    const int32_t k = static_cast<int32_t>(args.num("k", 3));
    const std::string mode = args.str("mode", "one");
    const int batches = static_cast<int>(args.num("batches", 100));
    const int refit_every = std::max(1, static_cast<int>(args.num("refit-every", 10)));
    const int32_t threads = static_cast<int32_t>(args.num("threads", 0));
    const std::string method = args.str("method", "auto");
    const uint64_t seed = static_cast<uint64_t>(args.num("seed", 38));
    args.done();
    if (mode != "one" && mode != "replay") {
        std::fprintf(stderr, "error: --mode one or replay\n%s", kUsage);
        return 2;
    }
    const Labels t = simulate(n_labels, items, workers, k, seed);
    const std::size_t n = t.size();

    bench::Json out;
    out.str("bench", "update").str("mode", mode).str("method", method).integer("labels", static_cast<long long>(n));
    out.integer("items", items).integer("workers", workers).integer("k", k).integer("threads", threads);
    if (mode == "one") {
        const std::size_t cut = n - n / 100;
        cs_model *inc = make(method, threads, items);
        const double first = timed_fit(inc, t, cut);
        const double update = timed_update(inc, t, cut, n);
        cs_model *full = make(method, threads, items);
        const double full_fit = timed_fit(full, t, n);
        out.num("fit_99pct_s", first).num("update_1pct_s", update).num("full_fit_s", full_fit);
        out.num("update_share_pct", 100.0 * update / full_fit, "%.3f").num("agreement_pct", agreement(inc, full), "%.4f");
        cs_destroy(inc);
        cs_destroy(full);
    } else {
        cs_model *inc = make(method, threads, items);
        std::vector<double> per_batch, refit_times;
        std::vector<int> refit_at;
        for (int b = 0; b < batches; ++b) {
            const std::size_t from = n * static_cast<std::size_t>(b) / batches;
            const std::size_t to = n * static_cast<std::size_t>(b + 1) / batches;
            per_batch.push_back(b == 0 ? timed_fit(inc, t, to) : timed_update(inc, t, from, to));
            if ((b + 1) % refit_every == 0 || b == 0) {
                cs_model *full = make(method, threads, items);
                refit_times.push_back(timed_fit(full, t, to));
                refit_at.push_back(b);
                if (b + 1 == batches) out.num("final_agreement_pct", agreement(inc, full), "%.4f");
                cs_destroy(full);
            }
        }
        // The refits of the batches between two measured ones: linear in between.
        double refits_total = 0.0;
        for (int b = 0; b < batches; ++b) {
            std::size_t r = 0;
            while (r + 1 < refit_at.size() && refit_at[r + 1] < b) ++r;
            if (refit_at[r] == b || r + 1 >= refit_at.size()) {
                refits_total += refit_times[r];
                continue;
            }
            const double f = static_cast<double>(b - refit_at[r]) / (refit_at[r + 1] - refit_at[r]);
            refits_total += refit_times[r] + f * (refit_times[r + 1] - refit_times[r]);
        }
        double total = 0.0;
        for (double s : per_batch) total += s;
        std::vector<double> updates(per_batch.begin() + 1, per_batch.end());
        std::sort(updates.begin(), updates.end());
        out.integer("batches", batches).num("first_fit_s", per_batch[0]).num("updates_total_s", total - per_batch[0]);
        out.num("update_median_s", updates.empty() ? 0.0 : updates[updates.size() / 2]);
        out.num("update_max_s", updates.empty() ? 0.0 : updates.back());
        out.num("replay_total_s", total).num("refits_total_s", refits_total).num("last_refit_s", refit_times.back());
        out.list("measured_refit_s", refit_times);
        cs_destroy(inc);
    }
    out.print();
    return 0;
}
