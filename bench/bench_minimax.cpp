// SPDX-License-Identifier: MIT
// The minimax-entropy methods (issue 36): how gamma is chosen and what it costs.
//
//   bench_minimax --sets DIR/web,DIR/rte,...   per set: the 5-fold likelihood
//       cross-validation score of every gamma of the paper's grid (held-out log-likelihood
//       per label, computed WITHOUT the truth), the error rate of the fit at each gamma
//       (with the truth, reported only), and the two starts (soft majority vote, ds).
//   bench_minimax --labels 1000000 [--k 2] [--reps 3]   a simulated Dawid-Skene crowd:
//       the median over the reps of the wall and CPU seconds of ds and of minimax-entropy
//       (fixed gamma and cross-validated), their ratios to ds's, iterations; one JSON
//       line per method.
// Files: NAME_crowd.txt (item worker label, 1-based) and NAME_truth.txt (item label).
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "core/fit_result.hpp"
#include "crowd/em/dawid_skene.hpp"
#include "crowd/minimax/minimax_entropy.hpp"
#include "crowd/minimax/ordinal_ds.hpp"
#include "crowd/run_crowd.hpp"
#include "data/crowd_data.hpp"
#include "sim/crowd_sim.hpp"

namespace {

const char kUsage[] =
    "usage: bench_minimax --sets PATH/NAME[,PATH/NAME...] [--methods categorical,ordinal] [--grid G,G,...]\n"
    "                     [--starts 1|2]   (2: also the ds start)\n"
    "       bench_minimax --labels N [--k K] [--reps R] [--threads T] [--methods NAME,...]\n";

struct Set {
    std::vector<int32_t> item, worker, label, truth;  // truth per item, -1 unknown
};

Set read_set(const std::string &stem) {
    Set s;
    std::ifstream crowd(stem + "_crowd.txt"), truth(stem + "_truth.txt");
    if (!crowd) {
        std::fprintf(stderr, "cannot read %s_crowd.txt\n", stem.c_str());
        std::exit(2);
    }
    long j, i, l;
    while (crowd >> j >> i >> l) {
        s.item.push_back(static_cast<int32_t>(j - 1));
        s.worker.push_back(static_cast<int32_t>(i - 1));
        s.label.push_back(static_cast<int32_t>(l - 1));
    }
    while (truth >> j >> l) {
        if (static_cast<std::size_t>(j) > s.truth.size()) s.truth.resize(static_cast<std::size_t>(j), -1);
        s.truth[static_cast<std::size_t>(j - 1)] = static_cast<int32_t>(l - 1);
    }
    return s;
}

struct Score {
    double error = 0.0, mae = 0.0;
};

Score score(const Set &s, const cs::FitResult &r) {
    Score out;
    long n = 0;
    for (std::size_t j = 0; j < s.truth.size() && j < r.labels.size(); ++j) {
        if (s.truth[j] < 0) continue;
        ++n;
        out.error += r.labels[j] != s.truth[j];
        out.mae += std::abs(r.labels[j] - s.truth[j]);
    }
    out.error /= static_cast<double>(n);
    out.mae /= static_cast<double>(n);
    return out;
}

cs::FitResult run(const cs::CrowdData &data, cs::FitOptions options, cs::CrowdMethod method) {
    cs::FitResult r;
    cs::run_crowd_method(data, options, cs::Progress(), method, r);
    return r;
}

void sets(const std::string &list, const std::string &which, const std::vector<double> &grid, bool both_starts) {
    std::stringstream names(list);
    std::string stem;
    while (std::getline(names, stem, ',')) {
        const Set s = read_set(stem);
        cs::FitOptions options;
        options.duplicates = CS_DUPLICATES_KEEP_FIRST;
        const cs::CrowdData data = cs::CrowdData::build(s.item.data(), s.worker.data(), s.label.data(),
                                                        s.item.size(), options);
        const std::string name = stem.substr(stem.find_last_of('/') + 1);
        options.method = CS_METHOD_DS;
        const Score ds = score(s, run(data, options, cs::fit_ds));
        std::printf("{\"set\":\"%s\",\"method\":\"ds\",\"error\":%.4f,\"mae\":%.4f}\n", name.c_str(), ds.error, ds.mae);
        options.method = CS_METHOD_ORDINAL_DS;
        const Score ods = score(s, run(data, options, cs::fit_ordinal_ds));
        std::printf("{\"set\":\"%s\",\"method\":\"ordinal-ds\",\"error\":%.4f,\"mae\":%.4f}\n", name.c_str(), ods.error,
                    ods.mae);
        for (const bool ordinal : {false, true}) {
            if (ordinal ? which.find("ordinal") == std::string::npos : which.find("categorical") == std::string::npos)
                continue;
            const char *method = ordinal ? "ordinal-minimax" : "minimax-entropy";
            options.method = ordinal ? CS_METHOD_ORDINAL_MINIMAX : CS_METHOD_MINIMAX_ENTROPY;
            const std::vector<double> cv = cs::minimax_cv_scores(data, options, ordinal, 5, grid);
            std::size_t best = 0;
            for (std::size_t g = 0; g < cv.size(); ++g)
                if (cv[g] > cv[best]) best = g;
            for (std::size_t g = 0; g < grid.size(); ++g) {
                for (int32_t start = CS_MINIMAX_START_VOTE; start <= (both_starts ? CS_MINIMAX_START_DS : CS_MINIMAX_START_VOTE); ++start) {
                    options.gamma = grid[g];
                    options.minimax_start = start;
                    const double t0 = bench::now();
                    const cs::FitResult r =
                        run(data, options, ordinal ? cs::fit_ordinal_minimax : cs::fit_minimax_entropy);
                    const double t1 = bench::now();
                    const Score sc = score(s, r);
                    std::printf("{\"set\":\"%s\",\"method\":\"%s\",\"gamma\":%g,\"start\":\"%s\",\"cv_loglik_per_label\":"
                                "%.6f,\"cv_choice\":%s,\"error\":%.4f,\"mae\":%.4f,\"iterations\":%d,\"seconds\":%.2f}\n",
                                name.c_str(), method, grid[g], start ? "ds" : "vote", cv.empty() ? 0.0 : cv[g],
                                g == best ? "true" : "false", sc.error, sc.mae, r.iterations, t1 - t0);
                    std::fflush(stdout);
                }
            }
        }
    }
}

void speed(long labels, int32_t k, int reps, int32_t threads, const std::string &which) {
    cs::sim::CrowdSpec sim;
    sim.n_workers = 1000;
    sim.k = k;
    sim.n_items = static_cast<int32_t>(labels / 10);
    sim.labels_per_item = 10;
    sim.seed = 1;
    const cs::sim::Crowd crowd = cs::sim::simulate_crowd(sim);
    cs::FitOptions options;
    options.threads = threads;
    const cs::CrowdData data = cs::CrowdData::build(crowd.item.data(), crowd.worker.data(), crowd.label.data(),
                                                    crowd.item.size(), options);
    struct Case {
        const char *name;
        int32_t method;
        cs::CrowdMethod fit;
        double gamma;
        int32_t start = CS_MINIMAX_START_VOTE;  // of the minimax methods
        int32_t calibration = CS_CALIBRATION_AUTO;
    };
    // ds as users get it (calibrated posteriors, the default) is the reference of the
    // ratios; ds(uncalibrated) is its EM alone, the kernel the minimax fit is compared to
    // when the question is the cost of the model rather than of the method.
    const Case cases[] = {{"ds", CS_METHOD_DS, cs::fit_ds, 0.0},
                          {"ds(uncalibrated)", CS_METHOD_DS, cs::fit_ds, 0.0, CS_MINIMAX_START_VOTE, CS_CALIBRATION_NONE},
                          {"minimax-entropy", CS_METHOD_MINIMAX_ENTROPY, cs::fit_minimax_entropy, 0.25},
                          {"ordinal-minimax", CS_METHOD_ORDINAL_MINIMAX, cs::fit_ordinal_minimax, 0.25},
                          {"ordinal-ds", CS_METHOD_ORDINAL_DS, cs::fit_ordinal_ds, 0.0},
                          {"minimax-entropy(cv)", CS_METHOD_MINIMAX_ENTROPY, cs::fit_minimax_entropy, 0.0},
                          {"minimax-entropy(ds-start)", CS_METHOD_MINIMAX_ENTROPY, cs::fit_minimax_entropy, 0.25,
                           CS_MINIMAX_START_DS}};
    // Medians of `reps` runs, wall and CPU seconds of the process (all threads): ds and
    // every minimax case in the same process, so the ratios share the machine's load.
    double ds_wall = 0.0, ds_cpu = 0.0;
    for (const Case &c : cases) {
        if (std::string(c.name) != "ds" && which.find(c.name) == std::string::npos) continue;
        options.method = c.method;
        options.gamma = c.gamma;
        options.minimax_start = c.start;
        options.calibration = c.calibration;
        std::vector<double> walls, cpus;
        cs::FitResult r;
        for (int rep = 0; rep < reps; ++rep) {
            const double t0 = bench::now(), c0 = bench::cpu_now();
            r = run(data, options, c.fit);
            cpus.push_back(bench::cpu_now() - c0);
            walls.push_back(bench::now() - t0);
            if (std::string(c.name).find("(cv)") != std::string::npos) break;  // one run: it is 26 fits
        }
        const double wall = bench::median(walls), cpu = bench::median(cpus);
        if (std::string(c.name) == "ds") {
            ds_wall = wall;
            ds_cpu = cpu;
        }
        long wrong = 0;
        for (std::size_t j = 0; j < r.labels.size(); ++j) wrong += r.labels[j] != crowd.truth[j];
        std::printf("{\"method\":\"%s\",\"labels\":%zu,\"k\":%d,\"reps\":%zu,\"seconds\":%.3f,\"cpu_seconds\":%.3f,"
                    "\"ratio_to_ds\":%.2f,\"cpu_ratio_to_ds\":%.2f,\"iterations\":%d,\"error\":%.4f}\n",
                    c.name, crowd.item.size(), k, walls.size(), wall, cpu, wall / ds_wall, cpu / ds_cpu, r.iterations,
                    static_cast<double>(wrong) / static_cast<double>(r.labels.size()));
        std::fflush(stdout);
    }
}

}  // namespace

int main(int argc, char **argv) {
    bench::Args args(argc, argv, kUsage);
    const std::string list = args.str("sets", "");
    const std::string which = args.str("methods", "");
    const long labels = static_cast<long>(args.num("labels", 0));
    const int32_t k = static_cast<int32_t>(args.num("k", 2));
    const int reps = static_cast<int>(args.num("reps", 3));
    const int32_t threads = static_cast<int32_t>(args.num("threads", 0));
    const std::string grid_text = args.str("grid", "");
    const bool both_starts = args.num("starts", 2) >= 2;
    args.done();
    std::vector<double> grid = cs::minimax_gamma_grid();
    if (!grid_text.empty()) {
        grid.clear();
        std::stringstream g(grid_text);
        std::string v;
        while (std::getline(g, v, ',')) grid.push_back(std::strtod(v.c_str(), nullptr));
    }
    if (!list.empty()) sets(list, which.empty() ? "categorical,ordinal" : which, grid, both_starts);
    if (labels > 0)
        speed(labels, k, reps, threads,
              which.empty() ? "ds(uncalibrated),minimax-entropy,ordinal-minimax,ordinal-ds,minimax-entropy(cv)" : which);
    return 0;
}
