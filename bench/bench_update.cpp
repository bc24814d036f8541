// SPDX-License-Identifier: MIT
// Incremental updates against full refits (issue 38, docs/incremental.md), on a
// simulated crowd (src/sim, one-coin workers of every type) through the public C API:
//   --mode one      fit 99 % of the labels, then cs_update with the last 1 % (new and
//                   known items); prints the update's time as a share of the full fit of
//                   all labels (goal: <= 5 %), and how the labels agree with that fit.
//                   --batch-pct P: the update brings the last P % instead (0 < P < 100).
//   --mode replay   the labels in --batches batches: the first fitted, each next one
//                   added by cs_update; time per batch, total, and the time of the full
//                   fits a refit-every-batch pipeline would run (measured on every
//                   --refit-every-th batch and interpolated linearly between them, which
//                   the fit's cost, linear in the labels, allows).
// Times are CPU seconds of the process (the machine is shared). One JSON line per run. Usage: bench_update [--labels 1e7] [--items 1e6] [--workers 2000]
//   [--k 3] [--mode one|replay] [--arrival random|items] [--batches 100]
//   [--refit-every 10] [--threads 1] [--method auto] [--seed 38] [--param NAME=VALUE]
//   [--batch-pct 1]
// Replay also counts the updates that were automatic full refits (no CS_NOTE_INCREMENTAL).
// --arrival random: the labels in a random order, so 1 % of them touches about 10 % of
// the items (10 labels an item); items: item after item, each batch new items.
// --model-acc A (0 < A < 1; mode one): a simulated classifier's probabilities for every
// item (cs::sim::classifier_probs, as bench_crowd's) set on both handles before their
// fits, so the update carries the classifier (issue 34; docs/incremental.md).
#include <time.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "crowdspec/crowdspec.h"
#include "sim/crowd_sim.hpp"

namespace {

const char kUsage[] =
    "usage: bench_update [--labels N] [--items N] [--workers N] [--k K] [--mode one|replay]\n"
    "                    [--arrival random|items] [--param NAME=VALUE] [--model-acc A]\n"
    "                    [--batches B] [--refit-every R] [--threads T] [--method NAME] [--seed S]\n"
    "                    [--batch-pct P]\n";

// Seconds of CPU time of this process: on a machine shared with other jobs the wall
// clock measures their load as much as ours, CPU time does not (threads = 1 makes the
// two the same on an idle machine).
double cpu_now() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

struct Labels {
    std::vector<int32_t> item, worker, label;
    std::vector<double> probs;  // a classifier's rows (--model-acc), n_items x k, or empty
    std::size_t size() const { return item.size(); }
};

// The simulator's Dawid-Skene crowd (src/sim: experts, ordinary workers, spammers,
// adversaries; one-coin matrices), labels / items labels per item, then put in a
// random order (the order batches arrive in; Fisher-Yates on mt19937_64, whose stream
// the standard fixes) or, with `by_item`, item after item (each batch: new items).
Labels simulate(std::size_t n_labels, int32_t items, int32_t workers, int32_t k, uint64_t seed, bool by_item,
                double model_acc) {
    cs::sim::CrowdSpec spec;
    spec.n_items = items;
    spec.n_workers = workers;
    spec.k = k;
    spec.labels_per_item = static_cast<int32_t>(std::max<std::size_t>(1, n_labels / static_cast<std::size_t>(items)));
    spec.one_coin = true;
    spec.seed = seed;
    const cs::sim::Crowd crowd = cs::sim::simulate_crowd(spec);
    std::vector<std::size_t> order(crowd.item.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::mt19937_64 rng(seed);
    for (std::size_t e = order.size(); e > 1 && !by_item; --e) std::swap(order[e - 1], order[rng() % e]);
    Labels out;
    if (model_acc > 0.0) out.probs = cs::sim::classifier_probs(crowd, k, model_acc, seed);
    for (std::size_t e : order) {
        out.item.push_back(crowd.item[e]);
        out.worker.push_back(crowd.worker[e]);
        out.label.push_back(crowd.label[e]);
    }
    return out;
}

// A model of `method`; `param` (NAME=VALUE, may be empty) is one more library
// parameter, e.g. update_rounds=5.
cs_model *make(const std::string &method, int32_t threads, int32_t items, const std::string &param,
               const std::vector<double> &probs = {}, int32_t k = 0) {
    cs_model *m = cs_create();
    if (m == nullptr || cs_set_param_string(m, "method", method.c_str()) != CS_OK) {
        std::fprintf(stderr, "error: method %s\n", method.c_str());
        std::exit(2);
    }
    cs_set_int(m, CS_PARAM_THREADS, threads);
    cs_set_int(m, CS_PARAM_ITEMS, items);  // the full fit's item rows, also for a partial fit
    if (!probs.empty() && cs_set_model_probs(m, nullptr, probs.data(), static_cast<std::size_t>(items), k) != CS_OK) {
        std::fprintf(stderr, "error: model probabilities: %s\n", cs_last_error(m));
        std::exit(2);
    }
    const std::size_t eq = param.find('=');
    if (eq != std::string::npos &&
        cs_set_param_string(m, param.substr(0, eq).c_str(), param.substr(eq + 1).c_str()) != CS_OK) {
        std::fprintf(stderr, "error: --param %s: %s\n", param.c_str(), cs_last_error(m));
        std::exit(2);
    }
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
    const double t0 = cpu_now();
    ok(m, cs_fit(m, t.item.data(), t.worker.data(), t.label.data(), end), "cs_fit");
    return cpu_now() - t0;
}

double timed_update(cs_model *m, const Labels &t, std::size_t from, std::size_t to) {
    const double t0 = cpu_now();
    ok(m, cs_update(m, t.item.data() + from, t.worker.data() + from, t.label.data() + from, to - from), "cs_update");
    return cpu_now() - t0;
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
    const std::string arrival = args.str("arrival", "random");
    const int batches = static_cast<int>(args.num("batches", 100));
    const int refit_every = std::max(1, static_cast<int>(args.num("refit-every", 10)));
    const int32_t threads = static_cast<int32_t>(args.num("threads", 1));
    const std::string method = args.str("method", "auto");
    const uint64_t seed = static_cast<uint64_t>(args.num("seed", 38));
    const std::string param = args.str("param", "");
    const double model_acc = args.num("model-acc", 0.0);
    const double batch_pct = args.num("batch-pct", 1.0);
    args.done();
    if (!(batch_pct > 0.0 && batch_pct < 100.0)) {
        std::fprintf(stderr, "error: --batch-pct between 0 and 100 (exclusive)\n%s", kUsage);
        return 2;
    }
    if ((mode != "one" && mode != "replay") || (arrival != "random" && arrival != "items")) {
        std::fprintf(stderr, "error: --mode one or replay, --arrival random or items\n%s", kUsage);
        return 2;
    }
    const Labels t = simulate(n_labels, items, workers, k, seed, arrival == "items", model_acc);
    const std::size_t n = t.size();

    bench::Json out;
    out.str("bench", "update").str("mode", mode).str("arrival", arrival).str("method", method).integer("labels", static_cast<long long>(n));
    if (!param.empty()) out.str("param", param);
    if (model_acc > 0.0) out.num("model_acc", model_acc, "%.3f");
    out.integer("items", items).integer("workers", workers).integer("k", k).integer("threads", threads);
    if (mode == "one") {
        const std::size_t cut = n - static_cast<std::size_t>(static_cast<double>(n) * batch_pct / 100.0);
        cs_model *inc = make(method, threads, items, param, t.probs, k);
        const double first = timed_fit(inc, t, cut);
        // The update state (every item's E-step at the fitted parameters and the
        // statistics) is built once after a fit, by the first cs_save or cs_update; a
        // loaded or updated model has it. Timed apart, so the update is the steady one.
        const double s0 = cpu_now();
        std::size_t saved_size = 0;
        ok(inc, cs_save_buffer(inc, nullptr, 0, &saved_size), "cs_save_buffer");
        const double state = cpu_now() - s0;
        const double update = timed_update(inc, t, cut, n);
        cs_model *full = make(method, threads, items, param, t.probs, k);
        const double full_fit = timed_fit(full, t, n);
        // The names say 1 % and 99 % for the default batch; batch_pct says what they were.
        out.num("batch_pct", batch_pct, "%.3f");
        out.num("fit_99pct_s", first).num("state_after_fit_s", state).num("update_1pct_s", update);
        out.num("full_fit_s", full_fit).integer("saved_bytes", static_cast<long long>(saved_size));
        out.num("update_share_pct", 100.0 * update / full_fit, "%.3f").num("agreement_pct", agreement(inc, full), "%.4f");
        cs_destroy(inc);
        cs_destroy(full);
    } else {
        cs_model *inc = make(method, threads, items, param);
        std::vector<double> per_batch, refit_times;
        std::vector<int> refit_at;
        int automatic_refits = 0;  // updates that refitted in full (update_refit, update_refit_work)
        for (int b = 0; b < batches; ++b) {
            const std::size_t from = n * static_cast<std::size_t>(b) / batches;
            const std::size_t to = n * static_cast<std::size_t>(b + 1) / batches;
            per_batch.push_back(b == 0 ? timed_fit(inc, t, to) : timed_update(inc, t, from, to));
            int32_t notes = 0;
            cs_fit_notes(inc, &notes);
            automatic_refits += b > 0 && (notes & CS_NOTE_INCREMENTAL) == 0;
            if ((b + 1) % refit_every == 0 || b == 0) {
                cs_model *full = make(method, threads, items, param);
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
        out.integer("batches", batches).integer("automatic_refits", automatic_refits);
        out.num("first_fit_s", per_batch[0]).num("updates_total_s", total - per_batch[0]);
        out.num("update_median_s", updates.empty() ? 0.0 : updates[updates.size() / 2]);
        out.num("update_max_s", updates.empty() ? 0.0 : updates.back());
        out.num("replay_total_s", total).num("refits_total_s", refits_total).num("last_refit_s", refit_times.back());
        out.list("measured_refit_s", refit_times);
        out.list("batch_s", per_batch);  // the first fit, then each update in order
        cs_destroy(inc);
    }
    out.print();
    return 0;
}
