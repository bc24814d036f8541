// SPDX-License-Identifier: MIT
// Stochastic block model benchmark: graphs from src/sim/sbm_sim, communities found by
// the library's graph methods through the public C API, scored as mis-clustering rates
// (min over permutations). For each replicate: spec, spec-mle and commu-lloyd (to
// convergence), and with --curve T the commu-lloyd error after 0, 1, ..., T iterations
// (fits with max_iter = t; the fit is deterministic, so these are the iterates of one
// run). One JSON line per replicate and a summary line with the means.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "crowdspec/crowdspec.h"
#include "sim/sbm_sim.hpp"
#include "sim/scoring.hpp"

namespace {

const char kUsage[] =
    "Usage: bench_sbm [options]\n"
    "  --n N --k K --a A --b B     block model: p = a/n within, q = b/n across (default 2000 2 20 5)\n"
    "  --threshold C               instead of a, b: b = 2 log n, (sqrt a - sqrt b)^2 = C log n\n"
    "  --seed S --reps R           replicates use seeds S .. S+R-1 (default 1, 1)\n"
    "  --curve T                   also report the commu-lloyd error after 0..T iterations\n"
    "  --threads T                 CS_PARAM_THREADS (default 0)\n"
    "  --methods LIST              subset of spec,spec-mle,commu-lloyd (default all three)\n"
    "  --trim X                    CS_PARAM_TRIM (default: the library's)\n";

struct Fit {
    double error = 0.0, seconds = 0.0, within = 0.0, between = 0.0;
    int32_t iterations = 0, converged = 0, notes = 0;
};

Fit fit(const cs::sim::Sbm &g, const char *method, int threads, int max_iter, double trim) {
    cs_model *m = cs_create();
    cs_set_param_string(m, "method", method);
    cs_set_int(m, CS_PARAM_CLASSES, g.k);
    cs_set_int(m, CS_PARAM_THREADS, threads);
    if (max_iter >= 0) cs_set_int(m, CS_PARAM_MAX_ITER, max_iter);
    if (trim >= 0) cs_set_double(m, CS_PARAM_TRIM, trim);
    const double t0 = bench::now();
    const cs_status s = cs_fit_graph(m, static_cast<size_t>(g.n), g.u.data(), g.v.data(), g.u.size());
    Fit f;
    f.seconds = bench::now() - t0;
    if (s != CS_OK) {
        std::fprintf(stderr, "error: %s: %s\n", cs_status_string(s), cs_last_error(m));
        std::exit(1);
    }
    std::vector<int32_t> labels(static_cast<std::size_t>(g.n));
    cs_labels(m, labels.data(), labels.size());
    cs_iterations(m, &f.iterations);
    cs_converged(m, &f.converged);
    cs_fit_notes(m, &f.notes);
    cs_graph_densities(m, &f.within, &f.between);
    f.error = cs::sim::misclustering_rate(labels.data(), g.truth.data(), labels.size(), g.k, g.k).rate;
    cs_destroy(m);
    return f;
}

}  // namespace

int main(int argc, char **argv) {
    bench::Args args(argc, argv, kUsage);
    cs::sim::SbmSpec spec;
    spec.n = static_cast<int32_t>(args.num("n", 2000));
    spec.k = static_cast<int32_t>(args.num("k", 2));
    spec.a = args.num("a", 20);
    spec.b = args.num("b", 5);
    const double threshold = args.num("threshold", -1);
    if (threshold >= 0) {
        const double log_n = std::log(static_cast<double>(spec.n));
        spec.b = 2.0 * log_n;
        const double root = std::sqrt(spec.b) + std::sqrt(threshold * log_n);
        spec.a = root * root;
    }
    const uint64_t seed = static_cast<uint64_t>(args.num("seed", 1));
    const int reps = static_cast<int>(args.num("reps", 1));
    const int curve = static_cast<int>(args.num("curve", -1));
    const int threads = static_cast<int>(args.num("threads", 0));
    const std::string methods = args.str("methods", "spec,spec-mle,commu-lloyd");
    const double trim = args.num("trim", -1);
    args.done();
    bool run_spec = false, run_mle = false, run_lloyd = false;
    for (std::size_t pos = 0; pos <= methods.size();) {
        const std::size_t comma = std::min(methods.find(',', pos), methods.size());
        const std::string name = methods.substr(pos, comma - pos);
        run_spec |= name == "spec";
        run_mle |= name == "spec-mle";
        run_lloyd |= name == "commu-lloyd";
        pos = comma + 1;
    }

    std::vector<double> sum_curve(curve >= 0 ? static_cast<std::size_t>(curve) + 1 : 0, 0.0);
    double sum_spec = 0, sum_mle = 0, sum_lloyd = 0, sum_seconds = 0, sum_iters = 0, sum_spec_seconds = 0;
    for (int r = 0; r < reps; ++r) {
        spec.seed = seed + static_cast<uint64_t>(r);
        const double t0 = bench::now();
        const cs::sim::Sbm g = cs::sim::simulate_sbm(spec);
        const double generate = bench::now() - t0;
        bench::Json line;
        line.str("bench", "sbm")
            .integer("n", spec.n)
            .integer("k", spec.k)
            .num("a", spec.a, "%.4f")
            .num("b", spec.b, "%.4f")
            .num("snr_over_log_n", std::pow(std::sqrt(spec.a) - std::sqrt(spec.b), 2) / std::log(static_cast<double>(spec.n)), "%.3f")
            .integer("seed", static_cast<long long>(spec.seed))
            .integer("edges", static_cast<long long>(g.u.size()))
            .num("mean_degree", 2.0 * static_cast<double>(g.u.size()) / spec.n, "%.3f")
            .num("generate_seconds", generate, "%.3f");
        if (run_spec) {
            const Fit f = fit(g, "spec", threads, -1, trim);
            line.num("spec_error", f.error, "%.6f").num("spec_seconds", f.seconds, "%.4f");
            sum_spec += f.error;
            sum_spec_seconds += f.seconds;
        }
        if (run_mle) {
            const Fit f = fit(g, "spec-mle", threads, -1, trim);
            line.num("spec_mle_error", f.error, "%.6f").num("spec_mle_seconds", f.seconds, "%.4f");
            sum_mle += f.error;
        }
        if (run_lloyd) {
            const Fit f = fit(g, "commu-lloyd", threads, -1, trim);
            line.num("commu_lloyd_error", f.error, "%.6f")
                .integer("commu_lloyd_iterations", f.iterations)
                .boolean("commu_lloyd_converged", f.converged != 0)
                .integer("commu_lloyd_notes", f.notes)
                .num("commu_lloyd_seconds", f.seconds, "%.4f")
                .num("within_density_x_n", f.within * spec.n, "%.4f")
                .num("between_density_x_n", f.between * spec.n, "%.4f");
            sum_lloyd += f.error;
            sum_seconds += f.seconds;
            sum_iters += f.iterations;
        }
        if (curve >= 0) {
            std::vector<double> errors;
            for (int t = 0; t <= curve; ++t) errors.push_back(fit(g, "commu-lloyd", threads, t, trim).error);
            for (int t = 0; t <= curve; ++t) sum_curve[t] += errors[t];
            line.list("commu_lloyd_error_by_iteration", errors, "%.6f");
        }
        line.print();
    }
    if (reps > 1) {
        bench::Json summary;
        summary.str("bench", "sbm-summary").integer("n", spec.n).integer("k", spec.k).num("a", spec.a, "%.4f")
            .num("b", spec.b, "%.4f").integer("reps", reps);
        if (run_spec) summary.num("mean_spec_error", sum_spec / reps, "%.6f").num("mean_spec_seconds", sum_spec_seconds / reps, "%.4f");
        if (run_mle) summary.num("mean_spec_mle_error", sum_mle / reps, "%.6f");
        if (run_lloyd)
            summary.num("mean_commu_lloyd_error", sum_lloyd / reps, "%.6f")
                .num("mean_commu_lloyd_iterations", sum_iters / reps, "%.2f")
                .num("mean_commu_lloyd_seconds", sum_seconds / reps, "%.4f");
        if (curve >= 0) {
            for (double &e : sum_curve) e /= reps;
            summary.list("mean_commu_lloyd_error_by_iteration", sum_curve, "%.6f");
        }
        summary.print();
    }
    return 0;
}
