// SPDX-License-Identifier: MIT
// bench_mpi: one crowd fit spread over MPI processes (cs_fit_mpi) against the same fit
// in one process (cs_fit), on a simulated crowd that every process generates for its
// own items only (item j is on process j mod P; no process holds the whole crowd).
//
//   mpiexec -n 4 build/bench/bench_mpi --items 10000000 --per-item 10 --workers 2000 --k 3
//   build/bench/bench_mpi --plain 1 ...     (cs_fit, no MPI calls in the fit)
//
// Prints one JSON line (process 0): the wall time of the fit, the median time of one
// EM round (from the progress callback's timestamps; each round is one E-step pass and
// one M-step whose count tables are all-reduced), and the share of the round that the
// processes spent inside MPI collectives (timed by interposing on the MPI calls the
// library makes, PMPI; it includes waiting for the slowest process). Runs ds with plain
// EM (--accel none) for a fixed number of rounds (--rounds, tol 0) by default, so that
// every round does the same work; --method opt-ds for a whole default fit.
#include <mpi.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "crowdspec/crowdspec_mpi.h"

// ---------------------------------------------------------------------------------
// Time inside MPI collectives (the calls libcrowdspec_mpi makes), via the profiling
// interface: these definitions take the place of libmpi's for the library.

static double g_mpi_seconds = 0.0;

extern "C" {
int MPI_Allreduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c) {
    const double t0 = PMPI_Wtime();
    const int rc = PMPI_Allreduce(s, r, n, t, op, c);
    g_mpi_seconds += PMPI_Wtime() - t0;
    return rc;
}
int MPI_Reduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm c) {
    const double t0 = PMPI_Wtime();
    const int rc = PMPI_Reduce(s, r, n, t, op, root, c);
    g_mpi_seconds += PMPI_Wtime() - t0;
    return rc;
}
int MPI_Bcast(void *b, int n, MPI_Datatype t, int root, MPI_Comm c) {
    const double t0 = PMPI_Wtime();
    const int rc = PMPI_Bcast(b, n, t, root, c);
    g_mpi_seconds += PMPI_Wtime() - t0;
    return rc;
}
int MPI_Reduce_scatter_block(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c) {
    const double t0 = PMPI_Wtime();
    const int rc = PMPI_Reduce_scatter_block(s, r, n, t, op, c);
    g_mpi_seconds += PMPI_Wtime() - t0;
    return rc;
}
int MPI_Allgather(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt, MPI_Comm c) {
    const double t0 = PMPI_Wtime();
    const int rc = PMPI_Allgather(s, sn, st, r, rn, rt, c);
    g_mpi_seconds += PMPI_Wtime() - t0;
    return rc;
}
}

namespace {

uint64_t mix(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}
double unit(uint64_t h) { return static_cast<double>(h >> 11) * (1.0 / 9007199254740992.0); }

struct Labels {
    std::vector<int32_t> item, worker, label;
};

// Items j = first, first + step, ... < n: each labelled by `per_item` distinct workers
// (drawn by hash), worker w right with probability 0.55 + 0.4 * u_w (u_w uniform; one
// in ten workers a spammer), otherwise a uniform other class; classes skewed 3:2:1...
Labels simulate(int64_t n, int64_t first, int64_t step, int32_t per_item, int32_t m, int32_t k, uint64_t seed) {
    Labels s;
    const std::size_t reserve = static_cast<std::size_t>((n - first + step - 1) / step * per_item);
    s.item.reserve(reserve);
    s.worker.reserve(reserve);
    s.label.reserve(reserve);
    std::vector<int32_t> chosen;
    for (int64_t j = first; j < n; j += step) {
        uint64_t h = mix(seed ^ mix(static_cast<uint64_t>(j)));
        const int32_t y = static_cast<int32_t>(unit(h) < 0.5 ? 0 : static_cast<int32_t>((h >> 7) % static_cast<uint64_t>(k)));
        chosen.clear();
        while (static_cast<int32_t>(chosen.size()) < per_item) {
            h = mix(h);
            const int32_t w = static_cast<int32_t>(h % static_cast<uint64_t>(m));
            if (std::find(chosen.begin(), chosen.end(), w) != chosen.end()) continue;
            chosen.push_back(w);
            const uint64_t wh = mix(seed + 17 + static_cast<uint64_t>(w));
            const double accuracy = w % 10 == 9 ? 1.0 / k : 0.55 + 0.4 * unit(wh);
            h = mix(h);
            int32_t c = y;
            if (unit(h) >= accuracy) c = static_cast<int32_t>((y + 1 + (h >> 20) % static_cast<uint64_t>(k - 1)) % static_cast<uint64_t>(k));
            s.item.push_back(static_cast<int32_t>(j));
            s.worker.push_back(w);
            s.label.push_back(c);
        }
    }
    return s;
}

struct Clock {
    std::vector<double> at;     // wall time at each iteration's report
    std::vector<double> in_mpi; // g_mpi_seconds then
};

int32_t on_iteration(void *user, int32_t, double) {
    auto *c = static_cast<Clock *>(user);
    c->at.push_back(PMPI_Wtime());
    c->in_mpi.push_back(g_mpi_seconds);
    return 0;
}

double median(std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    const std::size_t h = v.size() / 2;
    return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

}  // namespace

int main(int argc, char **argv) {
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    bench::Args args(argc, argv,
                     "bench_mpi [--items N] [--per-item L] [--workers M] [--k K] [--rounds R] [--threads T]\n"
                     "          [--method ds|opt-ds|...] [--accel none|squarem] [--plain 0|1] [--seed S]\n");
    const int64_t n = static_cast<int64_t>(args.num("items", 1e6));
    const int32_t per_item = static_cast<int32_t>(args.num("per-item", 10));
    const int32_t m = static_cast<int32_t>(args.num("workers", 2000));
    const int32_t k = static_cast<int32_t>(args.num("k", 3));
    const int32_t rounds = static_cast<int32_t>(args.num("rounds", 12));
    const int32_t threads = static_cast<int32_t>(args.num("threads", 1));
    const std::string method = args.str("method", "ds");
    const std::string accel = args.str("accel", method == "ds" ? "none" : "squarem");
    const bool plain = args.num("plain", 0) != 0;
    const uint64_t seed = static_cast<uint64_t>(args.num("seed", 1));
    args.done();
    if (plain && size != 1) {
        if (rank == 0) std::fprintf(stderr, "bench_mpi: --plain 1 is one process\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    double t0 = PMPI_Wtime();
    const Labels mine = simulate(n, rank, size, per_item, m, k, seed);
    const double generate = PMPI_Wtime() - t0;

    cs_model *model = cs_create();
    cs_set_param_string(model, "method", method.c_str());
    cs_set_param_string(model, "accel", accel.c_str());
    cs_set_int(model, CS_PARAM_THREADS, threads);
    cs_set_int(model, CS_PARAM_ITEMS, n);
    cs_set_int(model, CS_PARAM_WORKERS, m);
    cs_set_int(model, CS_PARAM_CLASSES, k);
    if (method == "ds") {
        cs_set_int(model, CS_PARAM_MAX_ITER, rounds);
        cs_set_double(model, CS_PARAM_TOL, 0.0);
    }
    Clock clock;
    cs_set_progress(model, on_iteration, &clock);
    MPI_Barrier(MPI_COMM_WORLD);
    g_mpi_seconds = 0.0;
    t0 = PMPI_Wtime();
    const cs_status status = plain ? cs_fit(model, mine.item.data(), mine.worker.data(), mine.label.data(), mine.item.size())
                                   : cs_fit_mpi(model, MPI_COMM_WORLD, mine.item.data(), mine.worker.data(),
                                                mine.label.data(), mine.item.size());
    const double fit = PMPI_Wtime() - t0;
    const double mpi_total = g_mpi_seconds;
    if (status != CS_OK) {
        std::fprintf(stderr, "process %d: %s: %s\n", rank, cs_status_string(status), cs_last_error(model));
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int32_t iterations = 0;
    double ll = 0.0;
    cs_iterations(model, &iterations);
    cs_log_likelihood(model, &ll);

    // Round times and their MPI share, from the reports of rounds 2.. (round 1 follows
    // the start, whose cost differs).
    std::vector<double> round, share;
    for (std::size_t r = 2; r < clock.at.size(); ++r) {
        const double dt = clock.at[r] - clock.at[r - 1];
        round.push_back(dt);
        share.push_back(dt > 0 ? (clock.in_mpi[r] - clock.in_mpi[r - 1]) / dt : 0.0);
    }
    double mine_stats[3] = {median(round), median(share), mpi_total / fit};
    std::vector<double> all(3 * static_cast<std::size_t>(size));
    PMPI_Gather(mine_stats, 3, MPI_DOUBLE, all.data(), 3, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    struct rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    long peak_kb = usage.ru_maxrss, peak_max = 0;
    PMPI_Reduce(&peak_kb, &peak_max, 1, MPI_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        std::vector<double> shares, rounds_v, fit_shares;
        for (int r = 0; r < size; ++r) {
            rounds_v.push_back(all[3 * r]);
            shares.push_back(all[3 * r + 1]);
            fit_shares.push_back(all[3 * r + 2]);
        }
        const double kk = static_cast<double>(k) * k;
        std::printf("{\"processes\":%d,\"plain\":%s,\"threads\":%d,\"method\":\"%s\",\"accel\":\"%s\",\"items\":%lld,"
                    "\"labels\":%lld,\"workers\":%d,\"k\":%d,\"iterations\":%d,\"log_likelihood\":%.12g,"
                    "\"generate_s\":%.3f,\"fit_s\":%.3f,\"round_s_median\":%.4f,\"mpi_share_of_round_median\":%.3f,"
                    "\"mpi_share_of_round_max_process\":%.3f,\"mpi_share_of_fit\":%.3f,"
                    "\"allreduced_bytes_per_round\":%.0f,\"peak_rss_mb_max_process\":%.0f}\n",
                    size, plain ? "true" : "false", threads, method.c_str(), accel.c_str(), static_cast<long long>(n),
                    static_cast<long long>(n) * per_item, m, k, iterations, ll, generate, fit, median(rounds_v),
                    median(shares), *std::max_element(shares.begin(), shares.end()), median(fit_shares),
                    (static_cast<double>(m) * kk + k) * 8.0, static_cast<double>(peak_max) / 1024.0);
    }
    cs_destroy(model);
    MPI_Finalize();
    return 0;
}
