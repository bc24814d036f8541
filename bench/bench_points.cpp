// SPDX-License-Identifier: MIT
// Points benchmark: Gaussian mixtures (src/sim/mixture_sim) clustered by the library's
// points methods through the public C API, scored against the truth and against the
// nearest-true-centre oracle (both as mis-clustering rates, min over permutations).
// One JSON line per method. --save writes the data for bench/compare_sklearn.py,
// --load reads it back so both programs time the same points.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "crowdspec/crowdspec.h"
#include "sim/mixture_sim.hpp"
#include "sim/scoring.hpp"

namespace {

const char kUsage[] =
    "Usage: bench_points [options]\n"
    "  --n N --d D --k K --delta X --sigma S --seed S   the mixture (default 10000 50 5 5 1 1)\n"
    "  --methods LIST     comma-separated: lloyd,kmeans++ (default lloyd)\n"
    "  --threads T        CS_PARAM_THREADS (default 0 = automatic)\n"
    "  --reps R           fits per method; the best time is reported (default 1)\n"
    "  --n-init M         CS_PARAM_N_INIT (default 1)\n"
    "  --max-iter M       CS_PARAM_MAX_ITER (default: the library's)\n"
    "  --save PREFIX      write PREFIX.x.f64 (n x d float64), PREFIX.truth.i32,\n"
    "                     PREFIX.oracle.i32, PREFIX.meta (n d k) and exit\n"
    "  --load PREFIX      read those files instead of simulating\n";

template <class T>
bool write_raw(const std::string &path, const std::vector<T> &v) {
    FILE *f = std::fopen(path.c_str(), "wb");
    if (!f) return false;
    const bool ok = std::fwrite(v.data(), sizeof(T), v.size(), f) == v.size();
    return std::fclose(f) == 0 && ok;
}

template <class T>
bool read_raw(const std::string &path, std::vector<T> &v) {
    FILE *f = std::fopen(path.c_str(), "rb");
    if (!f) return false;
    const bool ok = std::fread(v.data(), sizeof(T), v.size(), f) == v.size();
    std::fclose(f);
    return ok;
}

}  // namespace

int main(int argc, char **argv) {
    bench::Args args(argc, argv, kUsage);
    cs::sim::MixtureSpec spec;
    spec.n = static_cast<int64_t>(args.num("n", 10000));
    spec.d = static_cast<int32_t>(args.num("d", 50));
    spec.k = static_cast<int32_t>(args.num("k", 5));
    spec.delta = args.num("delta", 5.0);
    spec.sigma = args.num("sigma", 1.0);
    spec.seed = static_cast<uint64_t>(args.num("seed", 1));
    const std::string methods = args.str("methods", "lloyd");
    const int threads = static_cast<int>(args.num("threads", 0));
    const int reps = static_cast<int>(args.num("reps", 1));
    const int n_init = static_cast<int>(args.num("n-init", 1));
    const int max_iter = static_cast<int>(args.num("max-iter", -1));
    const std::string save = args.str("save", ""), load = args.str("load", "");
    args.done();

    cs::sim::Mixture m;
    std::vector<int32_t> oracle;
    double generate_seconds = 0.0;
    if (!load.empty()) {
        FILE *meta = std::fopen((load + ".meta").c_str(), "r");
        long long n = 0;
        int d = 0, k = 0;
        if (!meta || std::fscanf(meta, "%lld %d %d", &n, &d, &k) != 3) {
            std::fprintf(stderr, "error: cannot read %s.meta\n", load.c_str());
            return 1;
        }
        std::fclose(meta);
        m.n = n;
        m.d = d;
        m.k = k;
        m.x.resize(static_cast<std::size_t>(n) * d);
        m.truth.resize(static_cast<std::size_t>(n));
        oracle.resize(static_cast<std::size_t>(n));
        if (!read_raw(load + ".x.f64", m.x) || !read_raw(load + ".truth.i32", m.truth) ||
            !read_raw(load + ".oracle.i32", oracle)) {
            std::fprintf(stderr, "error: cannot read %s.*\n", load.c_str());
            return 1;
        }
    } else {
        const double t0 = bench::now();
        m = cs::sim::simulate_mixture(spec);
        oracle = cs::sim::nearest_centre_labels(m);
        generate_seconds = bench::now() - t0;
    }
    const cs::sim::Misclustering oracle_score =
        cs::sim::misclustering_rate(oracle.data(), m.truth.data(), m.truth.size(), m.k, m.k);
    if (!save.empty()) {
        FILE *meta = std::fopen((save + ".meta").c_str(), "w");
        const bool ok = meta && std::fprintf(meta, "%lld %d %d\n", static_cast<long long>(m.n), m.d, m.k) > 0 &&
                        std::fclose(meta) == 0 && write_raw(save + ".x.f64", m.x) &&
                        write_raw(save + ".truth.i32", m.truth) && write_raw(save + ".oracle.i32", oracle);
        if (!ok) {
            std::fprintf(stderr, "error: cannot write %s.*\n", save.c_str());
            return 1;
        }
        bench::Json()
            .str("bench", "points-save")
            .str("prefix", save)
            .integer("n", m.n)
            .integer("d", m.d)
            .integer("k", m.k)
            .num("oracle_error_rate", oracle_score.rate)
            .print();
        return 0;
    }

    std::size_t pos = 0;
    while (pos <= methods.size()) {
        const std::size_t comma = methods.find(',', pos);
        const std::string method = methods.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        pos = comma == std::string::npos ? methods.size() + 1 : comma + 1;
        cs_model *model = cs_create();
        if (cs_set_param_string(model, "method", method.c_str()) != CS_OK ||
            cs_set_int(model, CS_PARAM_CLASSES, m.k) != CS_OK || cs_set_int(model, CS_PARAM_THREADS, threads) != CS_OK ||
            cs_set_int(model, CS_PARAM_SEED, static_cast<int64_t>(spec.seed)) != CS_OK ||
            cs_set_int(model, CS_PARAM_N_INIT, n_init) != CS_OK ||
            (max_iter >= 0 && cs_set_int(model, CS_PARAM_MAX_ITER, max_iter) != CS_OK)) {
            std::fprintf(stderr, "error: %s\n", cs_last_error(model));
            return 1;
        }
        std::vector<double> seconds;
        for (int r = 0; r < reps; ++r) {
            const double t0 = bench::now();
            const cs_status s = cs_fit_points(model, m.x.data(), static_cast<size_t>(m.n), static_cast<size_t>(m.d), 0);
            seconds.push_back(bench::now() - t0);
            if (s != CS_OK) {
                std::fprintf(stderr, "error: %s: %s\n", cs_status_string(s), cs_last_error(model));
                return 1;
            }
        }
        std::vector<int32_t> labels(static_cast<std::size_t>(m.n));
        int32_t iterations = 0, converged = 0, notes = 0;
        cs_labels(model, labels.data(), labels.size());
        cs_iterations(model, &iterations);
        cs_converged(model, &converged);
        cs_fit_notes(model, &notes);
        const cs::sim::Misclustering score =
            cs::sim::misclustering_rate(labels.data(), m.truth.data(), labels.size(), m.k, m.k);
        const cs::sim::Misclustering versus_oracle =
            cs::sim::misclustering_rate(labels.data(), oracle.data(), labels.size(), m.k, m.k);
        double best = seconds[0];
        for (double s : seconds) best = s < best ? s : best;
        bench::Json()
            .str("bench", "points")
            .str("data", load.empty() ? "simulated" : load)
            .str("method", method)
            .integer("n", m.n)
            .integer("d", m.d)
            .integer("k", m.k)
            .num("delta", spec.delta)
            .integer("seed", static_cast<long long>(spec.seed))
            .num("error_rate", score.rate, "%.6f")
            .num("oracle_error_rate", oracle_score.rate, "%.6f")
            .num("excess_pp", 100.0 * (score.rate - oracle_score.rate), "%.4f")
            .num("disagreement_with_oracle", versus_oracle.rate, "%.6f")
            .integer("iterations", iterations)
            .boolean("converged", converged != 0)
            .integer("notes", notes)
            .integer("threads", threads)
            .integer("n_init", n_init)
            .num("seconds", best, "%.4f")
            .list("seconds_all", seconds, "%.4f")
            .num("generate_seconds", generate_seconds, "%.3f")
            .print();
        cs_destroy(model);
    }
    return 0;
}
