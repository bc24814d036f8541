// SPDX-License-Identifier: MIT
// Throughput, memory and accuracy of the crowd methods on simulated Dawid-Skene
// crowds (issue 6). One JSON line per method:
//   labels, items, workers, k, threads, iterations, converged, seconds_init (the
//   data validation and layout plus the spectral stage or the majority-vote start, up
//   to the progress callback's iteration 0), seconds_build and seconds_spectral (for
//   opt-ds: the internal stages timed separately in a second, identical run),
//   seconds_em, seconds_total, label_iterations_per_second (labels x iterations /
//   seconds_em), cpu_seconds_em (the process's CPU time over the same span, all
//   threads), label_iterations_per_cpu_second (labels x iterations / cpu_seconds_em:
//   the throughput per thread, which a busy shared machine disturbs far less than the
//   wall-clock figure), ns_per_label_iteration (its inverse), peak_rss_mb (the process's peak resident memory during the fit,
//   input included), peak_extra_mb (that peak beyond what the process held before
//   the fit, i.e. beyond the caller's input), bytes_per_label_extra, error_rate.
//
// With --phases 1, a Dawid-Skene-family method (auto, the default, included) is run
// a second time through the internal API, stage by stage, and one more JSON line
// ("phases") gives the wall and CPU seconds of each: the data layout, the soft
// majority-vote start, every EM round (the progress callback's times), the degenerate
// ties, the calibration, the worker diagnostics (from counts -- EM's, or those the
// calibration made of the rows it tempered: "diagnostics_counted_by_calibration" -- or
// by a pass over the labels: "diagnostics_from_em_counts" false); what that counting of
// the tempered rows costs ("cpu_counting_tempered_rows": the same additions over every
// item's final row into one zeroed table, median of 3, caches warm -- the part of the
// calibration's time that is the diagnostics'); and "labels_differ_after_round": [r,
// labels after r rounds that differ from the final ones] (EM rerun with max_iter = r).
//
// With --scores 1 (issue 34), one more JSON line per method ("scores") gives the CPU
// seconds (median of 3 calls) of what a fit's scores and diagnostics cost: the pass
// over the labels that computes the typical worker and the worker diagnostics when the
// fit cannot take them from EM's counts (compute_worker_diagnostics, run again on the
// fit's posteriors and matrices, without the counts; --phases 1 times what the fit
// itself spends on them), the
// C calls cs_label_next (every item), cs_label_wrong (every label) and
// cs_worker_diagnostics, and their sum as a share of the fit's CPU time and in EM
// rounds (one round: the CPU seconds between the progress reports of iteration 0 and
// the last one, over their count).
// With --model-acc A (0 < A < 1), every method is given a simulated classifier's
// probabilities (cs_set_model_probs) before the fit: for each item the true class with
// probability A, else a uniformly random other one, said with probability 0.8 and the
// rest spread evenly; "model_acc" in the JSON line says so.
//
// Usage: bench_crowd [--labels N] [--k K] [--workers M] [--per-item R] [--threads T]
//                    [--methods ds,opt-ds,...] [--max-iter N] [--tol X] [--seed S]
//                    [--phases 0|1] [--scores 0|1] [--model-acc A]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <exception>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "api/params.hpp"
#include "bench_common.hpp"
#include "crowd/calibration/calibration.hpp"
#include "crowd/diagnostics/worker_diagnostics.hpp"
#include "crowd/em/dawid_skene.hpp"
#include "crowd/em/degenerate_fit.hpp"
#include "crowd/soft_counts.hpp"
#include "crowd/spectral/spectral_init.hpp"
#include "crowd/voting/majority_vote.hpp"
#include "crowd/spectral/worker_groups.hpp"
#include "crowdspec/crowdspec.h"
#include "data/crowd_data.hpp"
#include "sim/crowd_sim.hpp"
#include "util/per_class.hpp"

namespace {

using Clock = std::chrono::steady_clock;

// Peak and current resident set size from /proc/self/status (kB).
long status_kb(const char *key) {
    std::ifstream in("/proc/self/status");
    std::string line;
    const std::size_t len = std::strlen(key);
    while (std::getline(in, line))
        if (line.compare(0, len, key) == 0) return std::atol(line.c_str() + len + 1);
    return -1;
}

// Reset the kernel's peak-RSS counter (VmHWM) to the current RSS.
void reset_peak() {
    std::ofstream out("/proc/self/clear_refs");
    out << "5";
}

// CPU time of the whole process (every thread), in seconds.
double process_cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

struct Timing {
    Clock::time_point start, init_done;
    double cpu_start = 0.0, cpu_init_done = 0.0;
    bool init_seen = false;
    int32_t last_iteration = 0;  // the last progress report: its iteration and CPU time
    double cpu_last = 0.0;
};

int32_t on_progress(void *user, int32_t iteration, double) {
    auto *t = static_cast<Timing *>(user);
    if (iteration == 0 && !t->init_seen) {
        t->init_done = Clock::now();
        t->cpu_init_done = process_cpu_seconds();
        t->init_seen = true;
    }
    t->last_iteration = iteration;
    t->cpu_last = process_cpu_seconds();
    return 0;
}

// Wall and CPU seconds since the last mark.
struct Stopwatch {
    Clock::time_point wall = Clock::now();
    double cpu = process_cpu_seconds();
    void lap(double &wall_s, double &cpu_s) {
        const Clock::time_point w = Clock::now();
        const double c = process_cpu_seconds();
        wall_s = std::chrono::duration<double>(w - wall).count();
        cpu_s = c - cpu;
        wall = w;
        cpu = c;
    }
};

// The calibration's counting of the tempered rows (calibration.cpp, temper_range) timed
// alone: every item's final row added to its labels' count rows and to the class mass,
// in one zeroed table; the median CPU seconds of 3. (The calibration sums a few such
// tables, one per fixed partition of the items: that adds a clearing and a sum of
// tables of n_workers x k x k entries, not counted here.)
double counting_seconds(const cs::CrowdData &data, const cs::FitResult &fit) {
    const int32_t k = data.k;
    std::vector<double> counts(static_cast<std::size_t>(data.n_workers) * k * k + k);
    std::vector<double> times;
    volatile double sink = 0.0;  // so that the additions are not dropped as unused
    for (int rep = 0; rep < 3; ++rep) {
        const double before = process_cpu_seconds();
        std::fill(counts.begin(), counts.end(), 0.0);
        cs::with_classes(k, [&](auto kc) {
            cs::add_soft_counts_of_items<decltype(kc)::value>(data, 0, data.n_items, k, fit.posteriors.data(),
                                                              counts.data(), counts.data() + counts.size() - k);
        });
        times.push_back(process_cpu_seconds() - before);
        sink = sink + counts.back();
    }
    std::sort(times.begin(), times.end());
    return times[1];
}

struct RoundTimes {
    std::vector<double> wall, cpu;  // at each progress report, from the EM's start
    Stopwatch start;
};

int32_t on_round(void *user, int32_t, double) {
    auto *r = static_cast<RoundTimes *>(user);
    r->wall.push_back(std::chrono::duration<double>(Clock::now() - r->start.wall).count());
    r->cpu.push_back(process_cpu_seconds() - r->start.cpu);
    return 0;
}

// The stages of a Dawid-Skene-family fit, timed one by one (--phases 1).
void print_phases(const cs::sim::Crowd &crowd, int32_t method, int threads, int max_iter, double tol,
                  const std::vector<std::string> &params) {
    // The handle's settings, in the order main() gave them (the --param values, already
    // accepted there, last), as the library reads them.
    cs::Params values;
    values.set_int(CS_PARAM_METHOD, method);
    values.set_int(CS_PARAM_THREADS, threads);
    values.set_int(CS_PARAM_MAX_ITER, max_iter);
    if (tol >= 0) values.set_double(CS_PARAM_TOL, tol);
    for (const std::string &p : params) {
        const std::size_t eq = p.find('=');
        values.set_string(p.substr(0, eq), p.substr(eq + 1));
    }
    const cs::FitOptions options = values.fit_options();
    const cs::FitOptions em = cs::em_options(options);
    double w_build, c_build, w_start, c_start, w_em, c_em, w_ties, c_ties, w_cal, c_cal, w_diag, c_diag;
    Stopwatch sw;
    const cs::CrowdData data = cs::CrowdData::build(crowd.item.data(), crowd.worker.data(), crowd.label.data(),
                                                    crowd.item.size(), options);
    sw.lap(w_build, c_build);
    cs::EmStart start;
    start.posteriors = cs::soft_majority_vote(data, threads);
    sw.lap(w_start, c_start);
    RoundTimes rounds;
    cs::FitResult out;
    out.n_items = data.n_items;
    out.n_workers = data.n_workers;
    out.k = data.k;
    cs::run_em(data, em, cs::Progress(on_round, &rounds), std::move(start), out);
    sw.lap(w_em, c_em);
    if (cs::resolve_degenerate_ties(data, out, threads) > 0) out.drop_posterior_counts();
    sw.lap(w_ties, c_ties);
    const std::vector<int32_t> uncalibrated = out.labels;
    cs::calibrate_crowd_posteriors(data, em, out);
    sw.lap(w_cal, c_cal);
    // The worker diagnostics as the fit computes them (run_crowd.cpp): from counts when
    // neither the ties nor the calibration changed the posteriors since EM counted them,
    // or when the calibration counted the rows it tempered; else a pass.
    const bool from_em_counts = !out.posterior_counts.empty();
    const bool counted_by_calibration = from_em_counts && out.temperature != 1.0;
    cs::compute_worker_diagnostics(data, out);
    sw.lap(w_diag, c_diag);
    // What the calibration's counting of the tempered rows costs (part of the
    // diagnostics' cost, not of the calibration): the same additions, timed alone.
    // (Timing the calibration again without EM's counts, as this did before, charged
    // noise: that calibration counts the rows as well, in its own pass.)
    const double c_counting = counted_by_calibration ? counting_seconds(data, out) : 0.0;
    double w_skip, c_skip;
    sw.lap(w_skip, c_skip);  // not part of any phase
    out.drop_posterior_counts();
    int64_t calibration_changed = 0;
    for (std::size_t j = 0; j < uncalibrated.size(); ++j) calibration_changed += uncalibrated[j] != out.labels[j];
    // How many labels after r rounds differ from the final ones (before calibration),
    // r = 1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, ...: EM rerun with max_iter = r.
    std::string differ;
    for (int32_t r = 1; r < out.iterations; r = r < 6 ? r + 1 : r < 12 ? r + 2 : r < 30 ? r + 5 : r + 10) {
        cs::FitOptions upto = em;
        upto.max_iter = r;
        upto.tol = 0.0;
        cs::EmStart again;
        again.posteriors = cs::soft_majority_vote(data, threads);
        cs::FitResult partial;
        cs::run_em(data, upto, cs::Progress(), std::move(again), partial);
        cs::resolve_degenerate_ties(data, partial, threads);
        int64_t n = 0;
        for (std::size_t j = 0; j < uncalibrated.size(); ++j) n += partial.labels[j] != uncalibrated[j];
        differ += (differ.empty() ? "" : ",") + std::string("[") + std::to_string(r) + "," + std::to_string(n) + "]";
    }
    std::string cpu_rounds;
    for (std::size_t r = 0; r < rounds.cpu.size(); ++r)
        cpu_rounds += (r ? "," : "") + std::to_string(rounds.cpu[r]).substr(0, 7);
    std::printf("{\"phases\":\"%d\",\"labels\":%zu,\"k\":%d,\"threads\":%d,\"rounds\":%d,\"converged\":%s,"
                "\"wall_build\":%.4f,\"cpu_build\":%.4f,\"wall_start\":%.4f,\"cpu_start\":%.4f,"
                "\"wall_em\":%.4f,\"cpu_em\":%.4f,\"wall_first_round\":%.4f,\"cpu_first_round\":%.4f,"
                "\"wall_ties\":%.4f,\"cpu_ties\":%.4f,\"wall_calibration\":%.4f,\"cpu_calibration\":%.4f,"
                "\"wall_diagnostics\":%.4f,\"cpu_diagnostics\":%.4f,\"diagnostics_from_em_counts\":%s,"
                "\"diagnostics_counted_by_calibration\":%s,\"cpu_counting_tempered_rows\":%.4f,"
                "\"temperature\":%.4f,\"calibration_changed_labels\":%lld,\"labels_differ_after_round\":[%s],"
                "\"cpu_at_round\":[%s]}\n",
                method, crowd.item.size(), data.k, threads, out.iterations, out.converged ? "true" : "false",
                w_build, c_build, w_start, c_start, w_em, c_em, rounds.wall.empty() ? 0.0 : rounds.wall[0],
                rounds.cpu.empty() ? 0.0 : rounds.cpu[0], w_ties, c_ties, w_cal, c_cal, w_diag, c_diag,
                from_em_counts ? "true" : "false", counted_by_calibration ? "true" : "false", c_counting, out.temperature,
                static_cast<long long>(calibration_changed), differ.c_str(), cpu_rounds.c_str());
    std::fflush(stdout);
}

// Median of 3 runs of `run`, in process CPU seconds.
template <class F>
double median_cpu_of_3(F run) {
    double t[3];
    for (double &x : t) {
        const double c0 = process_cpu_seconds();
        run();
        x = process_cpu_seconds() - c0;
    }
    std::sort(t, t + 3);
    return t[1];
}

// The cost of the scores and worker diagnostics of the fit on m (--scores 1): see the
// header comment. fit_cpu: the fit's CPU seconds; round_cpu: one EM round's.
void print_scores(cs_model *m, const cs::sim::Crowd &crowd, const std::string &method, int threads,
                  double fit_cpu, double round_cpu) {
    size_t n = 0, n_workers = 0, k = 0;
    cs_n_items(m, &n);
    cs_n_workers(m, &n_workers);
    cs_n_classes(m, &k);
    const std::size_t n_labels = crowd.item.size();
    std::vector<double> next(n), wrong(n_labels), spam(n_workers), acc(n_workers), low(n_workers), high(n_workers);
    std::vector<int32_t> worst(n_workers);
    cs_status status = CS_OK;
    const double cpu_next = median_cpu_of_3([&] { status = cs_label_next(m, next.data(), n); });
    if (status == CS_OK)
        status = cs_label_wrong(m, crowd.item.data(), crowd.label.data(), n_labels, wrong.data());
    const double cpu_wrong = median_cpu_of_3([&] {
        cs_label_wrong(m, crowd.item.data(), crowd.label.data(), n_labels, wrong.data());
    });
    if (status == CS_OK)
        status = cs_worker_diagnostics(m, spam.data(), worst.data(), acc.data(), low.data(), high.data(), n_workers);
    const double cpu_copy = median_cpu_of_3([&] {
        cs_worker_diagnostics(m, spam.data(), worst.data(), acc.data(), low.data(), high.data(), n_workers);
    });
    if (status != CS_OK) {
        std::fprintf(stderr, "bench_crowd: %s: scores: %s\n", method.c_str(), cs_last_error(m));
        return;
    }
    // The in-fit pass, on the same posteriors and matrices as the fit's.
    cs::FitOptions options;
    options.threads = threads;
    const cs::CrowdData data = cs::CrowdData::build(crowd.item.data(), crowd.worker.data(), crowd.label.data(),
                                                    n_labels, options);
    cs::FitResult fit;
    fit.n_items = data.n_items;
    fit.n_workers = data.n_workers;
    fit.k = data.k;
    fit.posteriors.resize(n * k);
    fit.confusion.resize(n_workers * k * k);
    cs_posteriors(m, fit.posteriors.data(), fit.posteriors.size());
    if (cs_confusion(m, fit.confusion.data(), fit.confusion.size()) != CS_OK) fit.confusion.clear();
    const double cpu_pass = median_cpu_of_3([&] { cs::compute_worker_diagnostics(data, fit); });
    const double all = cpu_pass + cpu_next + cpu_wrong + cpu_copy;
    const auto share = [](double x, double of) { return of > 0 ? x / of : 0.0; };
    std::printf("{\"scores\":\"%s\",\"labels\":%zu,\"items\":%zu,\"workers\":%zu,\"k\":%zu,\"threads\":%d,"
                "\"cpu_fit\":%.4f,\"cpu_round\":%.4f,\"cpu_diagnostics_pass\":%.4f,\"cpu_label_next\":%.4f,"
                "\"cpu_label_wrong\":%.4f,\"cpu_worker_diagnostics\":%.6f,\"cpu_all\":%.4f,"
                "\"all_share_of_fit\":%.4f,\"all_in_rounds\":%.3f,\"pass_share_of_fit\":%.4f}\n",
                method.c_str(), n_labels, n, n_workers, k, threads, fit_cpu, round_cpu, cpu_pass, cpu_next, cpu_wrong,
                cpu_copy, all, share(all, fit_cpu), share(all, round_cpu), share(cpu_pass, fit_cpu));
    std::fflush(stdout);
}

std::vector<std::string> split(const std::string &s) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start <= s.size()) {
        const std::size_t comma = s.find(',', start);
        out.push_back(s.substr(start, comma - start));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return out;
}

constexpr char kUsage[] =
    "usage: bench_crowd [--labels N] [--k K] [--workers M] [--per-item R] [--threads T]\n"
    "                   [--methods A,B,...] [--max-iter I] [--tol X] [--seed S] [--phases 0|1]\n"
    "                   [--scores 0|1] [--model-acc A] [--param NAME=VALUE]...\n"
    "  defaults: 10^6 labels (counts may be written 1e6), k = 2, 1000 workers, 10 labels an\n"
    "  item, 1 thread, methods mv,ds,opt-ds,crowd-lloyd, 1000 rounds at most, each method's\n"
    "  own tolerance, seed 1; one JSON line per method (the comment at the top of\n"
    "  bench/bench_crowd.cpp lists the fields)\n";

int run(int argc, char **argv) {
    bench::Args args(argc, argv, kUsage);
    const double labels = args.num("labels", 1e6);
    const int k = static_cast<int>(args.num("k", 2)), workers = static_cast<int>(args.num("workers", 1000));
    const int per_item = static_cast<int>(args.num("per-item", 10)), threads = static_cast<int>(args.num("threads", 1));
    const int max_iter = static_cast<int>(args.num("max-iter", 1000)), phases = static_cast<int>(args.num("phases", 0));
    const int scores = static_cast<int>(args.num("scores", 0));
    const double tol = args.num("tol", -1), model_acc = args.num("model-acc", 0);
    const auto seed = static_cast<unsigned long long>(args.num("seed", 1));
    const std::string methods = args.str("methods", "mv,ds,opt-ds,crowd-lloyd");
    const std::vector<std::string> params = args.all("param");  // NAME=VALUE, repeatable
    args.done();
    // The simulator's own limits, said before it is asked (it throws on an empty crowd).
    if (per_item < 1 || workers < per_item || k < 2 || !(labels >= per_item) || labels / per_item > 2147483647.0)
        bench::fail_usage("--labels must give 1 .. 2^31 - 1 items of --per-item labels (>= 1), from --workers >= "
                          "--per-item workers, with --k >= 2",
                          kUsage);

    cs::sim::CrowdSpec spec;
    spec.k = k;
    spec.n_workers = workers;
    spec.labels_per_item = per_item;
    spec.n_items = static_cast<int32_t>(labels / per_item);
    spec.seed = seed;
    const auto t0 = Clock::now();
    const cs::sim::Crowd crowd = cs::sim::simulate_crowd(spec);
    const double sim_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    const std::size_t n_labels = crowd.item.size();
    std::fprintf(stderr, "simulated %zu labels in %.2f s\n", n_labels, sim_seconds);
    const std::vector<double> model_probs =
        model_acc > 0 ? cs::sim::classifier_probs(crowd, k, model_acc, seed) : std::vector<double>();

    for (const std::string &method : split(methods)) {
        cs_model *m = cs_create();
        if (cs_set_param_string(m, "method", method.c_str()) != CS_OK ||
            cs_set_int(m, CS_PARAM_THREADS, threads) != CS_OK ||
            cs_set_int(m, CS_PARAM_MAX_ITER, max_iter) != CS_OK ||
            (tol >= 0 && cs_set_double(m, CS_PARAM_TOL, tol) != CS_OK) ||
            !std::all_of(params.begin(), params.end(), [m](const std::string &p) {
                const std::size_t eq = p.find('=');
                return eq != std::string::npos &&
                       cs_set_param_string(m, p.substr(0, eq).c_str(), p.substr(eq + 1).c_str()) == CS_OK;
            })) {
            std::fprintf(stderr, "bench_crowd: %s\n", cs_last_error(m));
            cs_destroy(m);
            return 1;
        }
        if (!model_probs.empty() && cs_set_model_probs(m, nullptr, model_probs.data(),
                                                       static_cast<size_t>(crowd.n_items), k) != CS_OK) {
            std::fprintf(stderr, "bench_crowd: %s\n", cs_last_error(m));
            cs_destroy(m);
            return 1;
        }
        Timing timing;
        cs_set_progress(m, on_progress, &timing);
        reset_peak();
        const long rss_before = status_kb("VmRSS:");
        timing.start = Clock::now();
        timing.cpu_start = process_cpu_seconds();
        const cs_status status = cs_fit(m, crowd.item.data(), crowd.worker.data(), crowd.label.data(), n_labels);
        const auto end = Clock::now();
        const double cpu_end = process_cpu_seconds();
        const long peak = status_kb("VmHWM:");
        if (status != CS_OK) {
            std::fprintf(stderr, "bench_crowd: %s: %s\n", method.c_str(), cs_last_error(m));
            cs_destroy(m);
            return 1;
        }
        int32_t iterations = 0, converged = 0;
        cs_iterations(m, &iterations);
        cs_converged(m, &converged);
        std::vector<int32_t> predicted(static_cast<std::size_t>(crowd.n_items));
        cs_labels(m, predicted.data(), predicted.size());
        std::size_t wrong = 0;
        for (int32_t j = 0; j < crowd.n_items; ++j) wrong += predicted[j] != crowd.truth[j];
        const double total = std::chrono::duration<double>(end - timing.start).count();
        const double init = timing.init_seen
                                ? std::chrono::duration<double>(timing.init_done - timing.start).count()
                                : total;
        const double em = total - init;
        const double cpu_em = cpu_end - (timing.init_seen ? timing.cpu_init_done : cpu_end);
        const double label_iterations = static_cast<double>(n_labels) * iterations;
        const double extra_mb = (peak - rss_before) / 1024.0;
        // The stages inside cs_fit, timed through the internal API (opt-ds only).
        double build_seconds = -1, spectral_seconds = -1;
        if (method == "opt-ds") {
            cs::FitOptions options;
            options.threads = threads;
            const auto b0 = Clock::now();
            const cs::CrowdData data = cs::CrowdData::build(crowd.item.data(), crowd.worker.data(),
                                                            crowd.label.data(), n_labels, options);
            const auto b1 = Clock::now();
            cs::Rng rng(options.seed);
            const std::vector<uint8_t> groups =
                cs::worker_groups(data, options.groups, options.seed, 0);
            const cs::SpectralEstimate estimate = cs::spectral_confusion(data, groups, options, rng);
            const auto b2 = Clock::now();
            build_seconds = std::chrono::duration<double>(b1 - b0).count();
            spectral_seconds = std::chrono::duration<double>(b2 - b1).count();
        }
        std::printf("{\"method\":\"%s\",\"labels\":%zu,\"items\":%d,\"workers\":%d,\"k\":%d,"
                    "\"threads\":%d,\"iterations\":%d,\"converged\":%s,\"seconds_init\":%.4f,"
                    "\"seconds_build\":%.4f,\"seconds_spectral\":%.4f,"
                    "\"seconds_em\":%.4f,\"seconds_total\":%.4f,\"label_iterations_per_second\":%.4g,"
                    "\"cpu_seconds_em\":%.4f,\"label_iterations_per_cpu_second\":%.4g,"
                    "\"ns_per_label_iteration\":%.3f,"
                    "\"peak_rss_mb\":%.1f,\"peak_extra_mb\":%.1f,\"bytes_per_label_extra\":%.1f,"
                    "\"error_rate\":%.6f,\"model_acc\":%.3f,\"cpu_seconds_total\":%.4f}\n",
                    method.c_str(), n_labels, crowd.n_items, workers, k, threads, iterations,
                    converged ? "true" : "false", init, build_seconds, spectral_seconds, em, total,
                    em > 0 ? label_iterations / em : 0.0, cpu_em,
                    cpu_em > 0 ? label_iterations / cpu_em : 0.0,
                    label_iterations > 0 ? 1e9 * cpu_em / label_iterations : 0.0, peak / 1024.0, extra_mb,
                    extra_mb * 1048576.0 / n_labels, static_cast<double>(wrong) / crowd.n_items, model_acc,
                    cpu_end - timing.cpu_start);
        std::fflush(stdout);
        if (scores)
            print_scores(m, crowd, method, threads, cpu_end - timing.cpu_start,
                         timing.last_iteration > 0
                             ? (timing.cpu_last - timing.cpu_init_done) / timing.last_iteration
                             : 0.0);
        int64_t method_id = -1;
        cs_get_int(m, CS_PARAM_METHOD, &method_id);
        cs_destroy(m);
        if (phases && cs::is_ds_family(method_id)) print_phases(crowd, static_cast<int32_t>(method_id), threads, max_iter, tol, params);
    }
    return 0;
}

}  // namespace

int main(int argc, char **argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception &e) {  // the simulator's and the internal API's errors
        std::fprintf(stderr, "bench_crowd: %s\n", e.what());
        return 1;
    }
}
