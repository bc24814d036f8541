// SPDX-License-Identifier: MIT
// Pairwise comparisons at scale (issue 35): bt, noisy-bt and crowd-bt on comparisons
// drawn from Crowd-BT's generative process (true scores N(0, 1); 80% of the workers state
// the true BT preference with eta = 0.9, 20% are adversaries with eta = 0.2). One JSON
// line per method:
//   seconds            cs_fit_comparisons with the defaults (to convergence)
//   iterations         its iterations
//   start_seconds      the same fit with max_iter = 0: validation, layout, the start and
//                      the standard errors
//   per_iteration      (time with --iters iterations and tol = 0 - start_seconds) / --iters
//   cpu_seconds, start_cpu, per_iteration_cpu   the same in CPU seconds of every thread
//   peak_bytes_per_comparison  the process's peak resident memory during the defaults'
//                      fit above its level before (Linux VmHWM, reset through
//                      /proc/self/clear_refs), divided by the comparisons; the caller's
//                      own arrays (16 bytes per comparison) are not counted
//   spearman           Spearman's rho of the scores against the true scores
// With --write PREFIX it also writes PREFIX.csv (worker,left,right,label: crowd-kit's
// columns, label = the winner's id) and PREFIX_truth.txt (`item score`) for
// bench/compare_crowdkit_pairwise.py.
//
//   build/bench/bench_comparisons --comparisons 1e6 [--items N] [--workers 1000]
//       [--iters 20] [--methods bt,noisy-bt,crowd-bt] [--threads 0] [--write PREFIX]
//       [--full 0: skip the fit to convergence; seconds and iterations are then --iters']
#include <sys/resource.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "crowdspec/crowdspec.h"
#include "sim/comparison_sim.hpp"
#include "sim/rank_scoring.hpp"

namespace {

const char kUsage[] =
    "usage: bench_comparisons [--comparisons 1e6] [--items N (default comparisons / 100)] [--workers 1000]\n"
    "       [--iters 20] [--methods bt,noisy-bt,crowd-bt] [--threads 0] [--seed 1] [--write PREFIX] [--full 1]\n";

// Peak resident set (VmHWM) in bytes; reset_peak() starts a new peak from the current size.
double peak_bytes() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) * 1024.0;
    return 0.0;
}
double current_bytes() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmRSS:", 0) == 0) return std::stod(line.substr(6)) * 1024.0;
    return 0.0;
}
bool reset_peak() {
    std::ofstream clear("/proc/self/clear_refs");
    clear << "5";
    return static_cast<bool>(clear);
}

// CPU seconds of the process, every thread (a shared machine's wall times vary).
double cpu_seconds() {
    rusage r{};
    getrusage(RUSAGE_SELF, &r);
    return static_cast<double>(r.ru_utime.tv_sec + r.ru_stime.tv_sec) +
           1e-6 * static_cast<double>(r.ru_utime.tv_usec + r.ru_stime.tv_usec);
}

struct Timed {
    double seconds = 0.0, cpu = 0.0;
    int32_t iterations = 0;
    std::vector<double> score;
};

Timed run(const char *method, const cs::sim::SimulatedComparisons &s, int32_t threads, int32_t max_iter, double tol) {
    cs_model *m = cs_create();
    cs_set_param_string(m, "method", method);
    cs_set_int(m, CS_PARAM_THREADS, threads);
    if (max_iter >= 0) cs_set_int(m, CS_PARAM_MAX_ITER, max_iter);
    if (tol >= 0.0) cs_set_double(m, CS_PARAM_TOL, tol);
    Timed t;
    const double start = bench::now(), cpu_start = cpu_seconds();
    const cs_status status =
        cs_fit_comparisons(m, s.worker.data(), s.left.data(), s.right.data(), s.answer.data(), s.left.size());
    t.seconds = bench::now() - start;
    t.cpu = cpu_seconds() - cpu_start;
    if (status != CS_OK) {
        std::fprintf(stderr, "%s: %s\n", method, cs_last_error(m));
        std::exit(1);
    }
    cs_iterations(m, &t.iterations);
    size_t n = 0;
    cs_n_items(m, &n);
    t.score.resize(n);
    cs_scores(m, t.score.data(), nullptr, nullptr, n);
    cs_destroy(m);
    return t;
}

void write_files(const std::string &prefix, const cs::sim::SimulatedComparisons &s) {
    std::FILE *f = std::fopen((prefix + ".csv").c_str(), "w");
    std::fprintf(f, "worker,left,right,label\n");
    for (std::size_t t = 0; t < s.left.size(); ++t) {
        const int32_t winner = s.answer[t] == CS_ANSWER_LEFT ? s.left[t] : s.right[t];
        std::fprintf(f, "w%d,i%d,i%d,i%d\n", s.worker[t], s.left[t], s.right[t], winner);
    }
    std::fclose(f);
    f = std::fopen((prefix + "_truth.txt").c_str(), "w");
    for (std::size_t i = 0; i < s.score.size(); ++i) std::fprintf(f, "i%zu %.10g\n", i, s.score[i]);
    std::fclose(f);
}

}  // namespace

int main(int argc, char **argv) {
    bench::Args args(argc, argv, kUsage);
    cs::sim::ComparisonSimOptions o;
    o.comparisons = static_cast<int64_t>(args.num("comparisons", 1e6));
    o.items = static_cast<int32_t>(args.num("items", static_cast<double>(o.comparisons / 100)));
    o.workers = static_cast<int32_t>(args.num("workers", 1000));
    o.seed = static_cast<uint64_t>(args.num("seed", 1));
    const int32_t iters = static_cast<int32_t>(args.num("iters", 20));
    const int32_t threads = static_cast<int32_t>(args.num("threads", 0));
    const std::string methods = args.str("methods", "bt,noisy-bt,crowd-bt");
    const std::string write = args.str("write", "");
    const bool full_fit = args.num("full", 1) != 0;
    args.done();
    o.model = cs::sim::ComparisonModel::Crowd;
    for (int32_t w = 0; w < o.workers; ++w) o.reliability.push_back(w % 5 == 4 ? 0.2 : 0.9);

    const double sim_start = bench::now();
    const cs::sim::SimulatedComparisons s = cs::sim::simulate_comparisons(o);
    const double sim_seconds = bench::now() - sim_start;
    if (!write.empty()) write_files(write, s);

    std::size_t begin = 0;
    while (begin <= methods.size()) {
        std::size_t end = methods.find(',', begin);
        if (end == std::string::npos) end = methods.size();
        const std::string method = methods.substr(begin, end - begin);
        begin = end + 1;
        const double before = current_bytes();
        const bool peak_ok = reset_peak();
        // --full 0: no fit to convergence (the peak is then the fixed-iteration fit's).
        const Timed fixed = run(method.c_str(), s, threads, iters, 0.0);
        const Timed full = full_fit ? run(method.c_str(), s, threads, -1, -1.0) : fixed;
        const double peak = peak_ok ? peak_bytes() - before : 0.0;
        const Timed start = run(method.c_str(), s, threads, 0, -1.0);
        bench::Json j;
        j.str("method", method)
            .integer("comparisons", o.comparisons)
            .integer("items", o.items)
            .integer("workers", o.workers)
            .integer("threads", threads)
            .num("seconds", full.seconds)
            .integer("iterations", full.iterations)
            .num("start_seconds", start.seconds)
            .num("per_iteration", (fixed.seconds - start.seconds) / iters)
            .num("cpu_seconds", full.cpu)
            .num("start_cpu", start.cpu)
            .num("per_iteration_cpu", (fixed.cpu - start.cpu) / iters)
            .num("peak_bytes_per_comparison", peak / static_cast<double>(o.comparisons), "%.1f")
            .num("spearman", cs::sim::rank_agreement(full.score, s.score).spearman, "%.4f")
            .num("simulate_seconds", sim_seconds);
        j.print();
    }
    return 0;
}
