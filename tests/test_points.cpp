// SPDX-License-Identifier: MIT
// Points methods (cs_fit_points: lloyd, kmeans++) through the public C API: exact small
// cases, recovery on simulated Gaussian mixtures against the nearest-centre oracle
// (d < n and d > n), bad input with specific statuses, determinism across thread
// counts, progress and cancellation, and the permutation-invariant scoring helper
// (Hungarian algorithm) the command-line program and benchmarks use.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "support/cmocka_cpp.hpp"
#include "cs_test.h"
#include "sim/mixture_sim.hpp"
#include "sim/scoring.hpp"

namespace {

const char *const kPointMethods[] = {"lloyd", "kmeans++"};

struct Fitted {
    std::vector<int32_t> labels;
    std::vector<double> centres, trace;
    int32_t iterations = 0, converged = 0, notes = 0;
};

cs_model *points_model(const char *method, int32_t k, int32_t threads = 0) {
    cs_model *m = cs_new_model(method);
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_CLASSES, k));
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_THREADS, threads));
    return m;
}

Fitted read_fit(const cs_model *m, std::size_t n, std::size_t k, std::size_t d) {
    Fitted f;
    std::size_t n_items = 0, classes = 0, dims = 0, trace_length = 0;
    CS_ASSERT_OK(cs_n_items(m, &n_items));
    CS_ASSERT_OK(cs_n_classes(m, &classes));
    CS_ASSERT_OK(cs_n_dims(m, &dims));
    assert_int_equal(n_items, n);
    assert_int_equal(classes, k);
    assert_int_equal(dims, d);
    f.labels.resize(n);
    f.centres.resize(k * d);
    CS_ASSERT_OK(cs_labels(m, f.labels.data(), n));
    CS_ASSERT_OK(cs_centres(m, f.centres.data(), k * d));
    CS_ASSERT_OK(cs_trace_length(m, &trace_length));
    f.trace.resize(trace_length);
    if (trace_length > 0) CS_ASSERT_OK(cs_trace(m, f.trace.data(), trace_length));
    CS_ASSERT_OK(cs_iterations(m, &f.iterations));
    CS_ASSERT_OK(cs_converged(m, &f.converged));
    CS_ASSERT_OK(cs_fit_notes(m, &f.notes));
    for (int32_t l : f.labels) assert_true(l >= 0 && static_cast<std::size_t>(l) < k);
    for (double c : f.centres) assert_true(std::isfinite(c));
    for (double t : f.trace) assert_true(std::isfinite(t));
    return f;
}

double error_rate(const std::vector<int32_t> &labels, const std::vector<int32_t> &truth, int32_t k) {
    return cs::sim::misclustering_rate(labels.data(), truth.data(), labels.size(), k, k).rate;
}

// Two obvious clusters of three points in the plane.
const double kTwoClusters[12] = {0, 0, 0, 1, 1, 0, 10, 10, 10, 11, 11, 10};

}  // namespace

/* Values are pinned by the header: a change is an ABI break. */
static void new_enum_values_are_pinned(void **) {
    assert_int_equal(CS_METHOD_LLOYD, 100);
    assert_int_equal(CS_METHOD_KMEANS_PP, 101);
    assert_int_equal(CS_METHOD_COMMU_LLOYD, 200);
    assert_int_equal(CS_METHOD_SPEC, 201);
    assert_int_equal(CS_METHOD_SPEC_MLE, 202);
    assert_int_equal(CS_PARAM_N_INIT, 400);
    assert_int_equal(CS_PARAM_TRIM, 401);
    assert_int_equal(CS_ERR_NON_FINITE, -18);
    assert_int_equal(CS_ERR_TOO_MANY_CLASSES, -19);
    assert_int_equal(CS_INPUT_CROWD, 1);
    assert_int_equal(CS_INPUT_POINTS, 2);
    assert_int_equal(CS_INPUT_GRAPH, 3);
    assert_int_equal(CS_NOTE_IGNORED_EDGES, 32);
    assert_int_equal(CS_NOTE_ISOLATED_NODES, 64);
    assert_int_equal(CS_NOTE_EMPTY_CLUSTER, 128);
    assert_int_equal(CS_NOTE_LABEL_CYCLE, 256);
    assert_int_equal(CS_NOTE_EIGEN_NOT_CONVERGED, 512);
    assert_string_equal(cs_method_name(CS_METHOD_LLOYD), "lloyd");
    assert_string_equal(cs_method_name(CS_METHOD_KMEANS_PP), "kmeans++");
    assert_string_equal(cs_param_name(CS_PARAM_N_INIT), "n_init");
    assert_string_equal(cs_param_name(CS_PARAM_TRIM), "trim");
    assert_int_equal(cs_method_input(CS_METHOD_OPT_DS), CS_INPUT_CROWD);
    assert_int_equal(cs_method_input(CS_METHOD_LLOYD), CS_INPUT_POINTS);
    assert_int_equal(cs_method_input(CS_METHOD_KMEANS_PP), CS_INPUT_POINTS);
    assert_int_equal(cs_method_input(CS_METHOD_SPEC), CS_INPUT_GRAPH);
    assert_int_equal(cs_method_input(0), 0);
    assert_int_equal(cs_method_input(999), 0);
    assert_string_equal(cs_status_string(CS_ERR_NON_FINITE), "CS_ERR_NON_FINITE");
    assert_string_equal(cs_status_string(CS_ERR_TOO_MANY_CLASSES), "CS_ERR_TOO_MANY_CLASSES");
    double lower, upper, def;
    int32_t integer;
    CS_ASSERT_OK(cs_param_info(CS_PARAM_N_INIT, &lower, &upper, &def, &integer));
    assert_true(lower == 1 && upper == 10000 && def == 1 && integer == 1);
    CS_ASSERT_OK(cs_param_info(CS_PARAM_TRIM, &lower, &upper, &def, &integer));
    assert_true(lower == 0 && upper == 1e6 && def == 3 && integer == 0);
}

/* Two clusters of three points: exact labels, means, cost 8/3, one-hot posteriors. */
static void two_obvious_clusters(void **) {
    for (const char *method : kPointMethods) {
        cs_model *m = points_model(method, 2);
        CS_ASSERT_OK(cs_fit_points(m, kTwoClusters, 6, 2, 0));
        const Fitted f = read_fit(m, 6, 2, 2);
        assert_int_equal(f.labels[0], f.labels[1]);
        assert_int_equal(f.labels[0], f.labels[2]);
        assert_int_equal(f.labels[3], f.labels[4]);
        assert_int_equal(f.labels[3], f.labels[5]);
        assert_int_not_equal(f.labels[0], f.labels[3]);
        const int32_t a = f.labels[0], b = f.labels[3];
        assert_near(f.centres[a * 2 + 0], 1.0 / 3, 1e-12);
        assert_near(f.centres[a * 2 + 1], 1.0 / 3, 1e-12);
        assert_near(f.centres[b * 2 + 0], 31.0 / 3, 1e-12);
        assert_near(f.centres[b * 2 + 1], 31.0 / 3, 1e-12);
        assert_true(f.converged == 1);
        assert_true(f.iterations >= 1);
        assert_near(f.trace.back(), -8.0 / 3, 1e-9);
        for (std::size_t t = 1; t < f.trace.size(); ++t) assert_true(f.trace[t] >= f.trace[t - 1] - 1e-9);
        double post[12], prior[2];
        CS_ASSERT_OK(cs_posteriors(m, post, 12));
        for (int i = 0; i < 6; ++i) {
            assert_true(post[i * 2 + f.labels[i]] == 1.0);
            assert_true(post[i * 2 + 1 - f.labels[i]] == 0.0);
        }
        CS_ASSERT_OK(cs_class_prior(m, prior, 2));
        assert_near(prior[0], 0.5, 1e-15);
        // Not a graph fit; buffers are checked.
        CS_ASSERT_FAIL(m, cs_graph_densities(m, nullptr, nullptr), CS_ERR_WRONG_INPUT_KIND, "graph");
        double small[3];
        CS_ASSERT_FAIL(m, cs_centres(m, small, 3), CS_ERR_BUFFER_TOO_SMALL, "centres");
        size_t workers = 7;
        CS_ASSERT_OK(cs_n_workers(m, &workers));
        assert_int_equal(workers, 0);
        double ll = 1;
        CS_ASSERT_OK(cs_log_likelihood(m, &ll));
        assert_true(ll == 0.0);
        cs_destroy(m);
    }
}

/* A leading dimension > d reads only the first d columns (NaN elsewhere is never read);
 * a large common offset costs no precision (distances around the mean). */
static void leading_dimension_and_offset(void **) {
    for (const char *method : kPointMethods) {
        double wide[6 * 3];
        for (int i = 0; i < 6; ++i) {
            wide[i * 3 + 0] = kTwoClusters[i * 2] + 1e8;
            wide[i * 3 + 1] = kTwoClusters[i * 2 + 1] - 1e8;
            wide[i * 3 + 2] = std::numeric_limits<double>::quiet_NaN();
        }
        cs_model *m = points_model(method, 2);
        CS_ASSERT_OK(cs_fit_points(m, wide, 6, 2, 3));
        const Fitted f = read_fit(m, 6, 2, 2);
        assert_int_equal(f.labels[0], f.labels[2]);
        assert_int_not_equal(f.labels[0], f.labels[3]);
        const int32_t a = f.labels[0];
        assert_near(f.centres[a * 2 + 0] - 1e8, 1.0 / 3, 1e-6);
        assert_near(f.centres[a * 2 + 1] + 1e8, 1.0 / 3, 1e-6);
        assert_near(f.trace.back(), -8.0 / 3, 1e-6);
        cs_destroy(m);
    }
}

/* Degenerate data: identical points, more clusters than distinct points. Every
 * cluster stays non-empty (re-seeding), nothing is NaN. */
static void duplicates_and_empty_clusters(void **) {
    for (const char *method : kPointMethods) {
        const double same[5 * 2] = {1, 2, 1, 2, 1, 2, 1, 2, 1, 2};
        cs_model *m = points_model(method, 3);
        CS_ASSERT_OK(cs_fit_points(m, same, 5, 2, 0));
        const Fitted f = read_fit(m, 5, 3, 2);
        std::vector<int> size(3, 0);
        for (int32_t l : f.labels) ++size[l];
        for (int s : size) assert_true(s > 0);
        for (int h = 0; h < 3; ++h) {
            assert_near(f.centres[h * 2], 1.0, 1e-12);
            assert_near(f.centres[h * 2 + 1], 2.0, 1e-12);
        }
        cs_destroy(m);
        // k = n: every point its own cluster, cost 0.
        const double three[3] = {0, 5, 9};
        m = points_model(method, 3);
        CS_ASSERT_OK(cs_fit_points(m, three, 3, 1, 1));
        const Fitted g = read_fit(m, 3, 3, 1);
        assert_true(g.labels[0] != g.labels[1] && g.labels[1] != g.labels[2] && g.labels[0] != g.labels[2]);
        assert_near(g.trace.empty() ? 0.0 : g.trace.back(), 0.0, 1e-12);
        cs_destroy(m);
    }
}

/* Recovery: within 0.3 percentage points of the nearest-true-centre oracle for
 * well-separated mixtures (the benchmarks measure 0.05 pp at larger n). */
static void recovers_gaussian_mixture(void **) {
    cs::sim::MixtureSpec spec;
    spec.n = 6000;
    spec.d = 30;
    spec.k = 4;
    spec.delta = 5.0;
    spec.seed = 11;
    const cs::sim::Mixture mix = cs::sim::simulate_mixture(spec);
    const std::vector<int32_t> oracle = cs::sim::nearest_centre_labels(mix);
    const double oracle_error = error_rate(oracle, mix.truth, spec.k);
    assert_true(oracle_error > 0.005 && oracle_error < 0.03);
    for (const char *method : kPointMethods) {
        cs_model *m = points_model(method, spec.k);
        CS_ASSERT_OK(cs_fit_points(m, mix.x.data(), 6000, 30, 0));
        const Fitted f = read_fit(m, 6000, 4, 30);
        const double error = error_rate(f.labels, mix.truth, spec.k);
        if (std::fabs(error - oracle_error) > 0.003)
            fail_msg("%s: error %.4f, oracle %.4f", method, error, oracle_error);
        // The centres are close to the true ones (up to the label permutation).
        const cs::sim::Misclustering map =
            cs::sim::misclustering_rate(f.labels.data(), mix.truth.data(), 6000, 4, 4);
        for (int h = 0; h < 4; ++h) {
            double d2 = 0;
            for (int j = 0; j < 30; ++j) {
                const double diff = f.centres[h * 30 + j] - mix.centres[map.mapping[h] * 30 + j];
                d2 += diff * diff;
            }
            assert_true(std::sqrt(d2) < 0.5);
        }
        cs_destroy(m);
    }
}

/* n above the initialisation's sample (50000 points): k-means++ and Lloyd on a sample
 * of the projection, then Lloyd on all the points, still within 0.1 pp of the oracle. */
static void sampled_initialisation_large_n(void **) {
    cs::sim::MixtureSpec spec;
    spec.n = 80000;
    spec.d = 12;
    spec.k = 6;
    spec.delta = 5.0;
    spec.seed = 21;
    const cs::sim::Mixture mix = cs::sim::simulate_mixture(spec);
    const double oracle_error = error_rate(cs::sim::nearest_centre_labels(mix), mix.truth, 6);
    cs_model *m = points_model("lloyd", 6);
    CS_ASSERT_OK(cs_fit_points(m, mix.x.data(), 80000, 12, 0));
    const Fitted f = read_fit(m, 80000, 6, 12);
    const double error = error_rate(f.labels, mix.truth, 6);
    if (std::fabs(error - oracle_error) > 0.001) fail_msg("error %.5f, oracle %.5f", error, oracle_error);
    assert_int_equal(f.converged, 1);
    cs_destroy(m);
}

/* d > n: the spectral initialisation (block subspace iteration on Y^T Y, d > 512)
 * recovers a mixture that k-means++ on the raw points cannot. */
static void high_dimension_d_greater_than_n(void **) {
    cs::sim::MixtureSpec spec;
    spec.n = 400;
    spec.d = 1500;
    spec.k = 3;
    spec.delta = 8.0;
    spec.seed = 5;
    const cs::sim::Mixture mix = cs::sim::simulate_mixture(spec);
    cs_model *m = points_model("lloyd", 3);
    CS_ASSERT_OK(cs_fit_points(m, mix.x.data(), 400, 1500, 0));
    const Fitted f = read_fit(m, 400, 3, 1500);
    const double error = error_rate(f.labels, mix.truth, 3);
    if (error > 0.03) fail_msg("lloyd, d > n: error %.4f", error);
    assert_true((f.notes & CS_NOTE_EIGEN_NOT_CONVERGED) == 0);
    cs_destroy(m);
}

/* Bad input: each problem has its own status and a message naming it. */
static void bad_points_input(void **) {
    double x[6] = {0, 0, 1, 1, 5, 5};
    cs_model *m = points_model("lloyd", 2);
    x[3] = std::numeric_limits<double>::quiet_NaN();
    CS_ASSERT_FAIL(m, cs_fit_points(m, x, 3, 2, 0), CS_ERR_NON_FINITE, "coordinate 1", "point 1", "NaN");
    x[3] = -std::numeric_limits<double>::infinity();
    CS_ASSERT_FAIL(m, cs_fit_points(m, x, 3, 2, 0), CS_ERR_NON_FINITE, "point 1", "-Inf");
    x[3] = 1e200;
    CS_ASSERT_FAIL(m, cs_fit_points(m, x, 3, 2, 0), CS_ERR_NON_FINITE, "1e100");
    x[3] = 1;
    CS_ASSERT_FAIL(m, cs_fit_points(m, x, 3, 0, 0), CS_ERR_EMPTY_INPUT, "d = 0");
    CS_ASSERT_FAIL(m, cs_fit_points(m, x, 0, 2, 0), CS_ERR_EMPTY_INPUT, "n = 0");
    CS_ASSERT_FAIL(m, cs_fit_points(m, nullptr, 3, 2, 0), CS_ERR_NULL_POINTER, "x");
    CS_ASSERT_FAIL(m, cs_fit_points(m, x, 3, 2, 1), CS_ERR_INVALID_ARGUMENT, "ld = 1");
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_CLASSES, 4));
    CS_ASSERT_FAIL(m, cs_fit_points(m, x, 3, 2, 0), CS_ERR_TOO_MANY_CLASSES, "k = 4", "3 points");
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_CLASSES, 0));
    CS_ASSERT_FAIL(m, cs_fit_points(m, x, 3, 2, 0), CS_ERR_TOO_FEW_CLASSES, "classes");
    // A failed fit leaves no results.
    size_t n = 0;
    CS_ASSERT_STATUS(cs_n_items(m, &n), CS_ERR_NOT_FITTED);
    CS_ASSERT_STATUS(cs_fit_points(nullptr, x, 3, 2, 0), CS_ERR_NULL_HANDLE);
    cs_destroy(m);

    // Wrong input kind, both ways.
    m = cs_new_model("opt-ds");
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_CLASSES, 2));
    CS_ASSERT_FAIL(m, cs_fit_points(m, x, 3, 2, 0), CS_ERR_WRONG_INPUT_KIND, "opt-ds", "points");
    cs_destroy(m);
    m = points_model("kmeans++", 2);
    CS_ASSERT_FAIL(m, cs_fit_data(m, &cs_tiny), CS_ERR_WRONG_INPUT_KIND, "kmeans++", "crowd");
    // A crowd fit has no centres.
    CS_ASSERT_OK(cs_set_param_string(m, "method", "mv"));
    cs_fit_or_fail(m, &cs_tiny);
    double c[4];
    CS_ASSERT_FAIL(m, cs_centres(m, c, 4), CS_ERR_WRONG_INPUT_KIND, "points");
    size_t d = 9;
    CS_ASSERT_OK(cs_n_dims(m, &d));
    assert_int_equal(d, 0);
    cs_destroy(m);
}

/* The same labels, centres and trace bit for bit with 1, 2 or 3 threads (several
 * chunks and dgemm blocks; n above the initialisation's sample size of 50000), for
 * both methods, with restarts. */
static void deterministic_across_threads(void **) {
    cs::sim::MixtureSpec spec;
    spec.n = 60000;
    spec.d = 8;
    spec.k = 5;
    spec.delta = 4.0;
    spec.seed = 3;
    const cs::sim::Mixture mix = cs::sim::simulate_mixture(spec);
    for (const char *method : kPointMethods) {
        Fitted reference;
        for (int32_t threads = 1; threads <= 3; ++threads) {
            cs_model *m = points_model(method, 5, threads);
            CS_ASSERT_OK(cs_set_int(m, CS_PARAM_N_INIT, 2));
            CS_ASSERT_OK(cs_set_int(m, CS_PARAM_SEED, 42));
            CS_ASSERT_OK(cs_fit_points(m, mix.x.data(), 60000, 8, 0));
            const Fitted f = read_fit(m, 60000, 5, 8);
            if (threads == 1) {
                reference = f;
            } else {
                assert_true(f.labels == reference.labels);
                assert_memory_equal(f.centres.data(), reference.centres.data(), f.centres.size() * sizeof(double));
                assert_int_equal(f.trace.size(), reference.trace.size());
                assert_memory_equal(f.trace.data(), reference.trace.data(), f.trace.size() * sizeof(double));
            }
            cs_destroy(m);
        }
    }
}

namespace {
struct Calls {
    int32_t stop_at = -1;
    std::vector<int32_t> iteration;
    std::vector<double> objective;
};
int32_t on_progress(void *user, int32_t iteration, double objective) {
    Calls *c = static_cast<Calls *>(user);
    c->iteration.push_back(iteration);
    c->objective.push_back(objective);
    return iteration == c->stop_at ? 1 : 0;
}
}  // namespace

/* The callback sees 0, 1, ..., iterations with the trace entries; cancelling keeps a
 * complete result; max_iter = 0 stops after the initialisation. */
static void progress_cancel_and_max_iter(void **) {
    cs::sim::MixtureSpec spec;
    spec.n = 3000;
    spec.d = 5;
    spec.k = 3;
    spec.delta = 2.5;  // overlapping: several Lloyd iterations
    spec.seed = 8;
    const cs::sim::Mixture mix = cs::sim::simulate_mixture(spec);
    cs_model *m = points_model("kmeans++", 3);
    Calls calls;
    CS_ASSERT_OK(cs_set_progress(m, on_progress, &calls));
    CS_ASSERT_OK(cs_fit_points(m, mix.x.data(), 3000, 5, 0));
    const Fitted f = read_fit(m, 3000, 3, 5);
    assert_true(f.iterations >= 2);
    assert_int_equal(calls.iteration.size(), static_cast<std::size_t>(f.iterations) + 1);
    for (std::size_t c = 0; c < calls.iteration.size(); ++c) {
        assert_int_equal(calls.iteration[c], static_cast<int32_t>(c));
        if (c > 0) assert_true(calls.objective[c] == f.trace[c - 1]);
    }

    Calls stop;
    stop.stop_at = 1;
    CS_ASSERT_OK(cs_set_progress(m, on_progress, &stop));
    CS_ASSERT_FAIL(m, cs_fit_points(m, mix.x.data(), 3000, 5, 0), CS_ERR_CANCELLED, "cancel");
    const Fitted g = read_fit(m, 3000, 3, 5);
    assert_int_equal(g.iterations, 1);
    assert_true((g.notes & CS_NOTE_CANCELLED) != 0);
    assert_int_equal(g.converged, 0);
    CS_ASSERT_OK(cs_set_progress(m, nullptr, nullptr));

    cs_destroy(m);
    m = points_model("lloyd", 3);
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_MAX_ITER, 0));
    CS_ASSERT_OK(cs_fit_points(m, mix.x.data(), 3000, 5, 0));
    const Fitted h = read_fit(m, 3000, 3, 5);
    assert_int_equal(h.iterations, 0);
    assert_true(h.trace.empty());
    assert_true(error_rate(h.labels, mix.truth, 3) < 0.2);
    cs_destroy(m);
}

/* Hungarian algorithm: hand cases with known optima, including one where taking the
 * best entry first (greedy) is wrong. */
static void hungarian_hand_cases(void **) {
    // Greedy takes the 1 at (0,0) and is left with 100 at (1,1): total 101. Optimal:
    // (0,1) + (1,0) = 2 + 3 = 5.
    const std::vector<int32_t> a = cs::sim::hungarian_min_cost({1, 2, 3, 100}, 2);
    assert_int_equal(a[0], 1);
    assert_int_equal(a[1], 0);
    // The classic 3 x 3 example: optimum 5 (rows -> columns 1, 0, 2: 1 + 2 + 2).
    const std::vector<int32_t> b = cs::sim::hungarian_min_cost({4, 1, 3, 2, 0, 5, 3, 2, 2}, 3);
    const double cost[9] = {4, 1, 3, 2, 0, 5, 3, 2, 2};
    double total = 0;
    for (int r = 0; r < 3; ++r) total += cost[r * 3 + b[r]];
    assert_near(total, 5.0, 0);
    // Negative costs and a 4 x 4 permutation matrix scaled: the identity is optimal.
    std::vector<double> c(16, 0.0);
    for (int r = 0; r < 4; ++r) c[r * 4 + (r + 1) % 4] = -7;
    const std::vector<int32_t> p = cs::sim::hungarian_min_cost(c, 4);
    for (int r = 0; r < 4; ++r) assert_int_equal(p[r], (r + 1) % 4);
}

/* Mis-clustering rate: invariant to relabelling; counts the minimum number of errors. */
static void misclustering_rate_hand_cases(void **) {
    const int32_t truth[8] = {0, 0, 0, 1, 1, 1, 2, 2};
    const int32_t permuted[8] = {2, 2, 2, 0, 0, 0, 1, 1};
    cs::sim::Misclustering s = cs::sim::misclustering_rate(permuted, truth, 8, 3, 3);
    assert_int_equal(s.errors, 0);
    assert_true(s.rate == 0.0);
    assert_int_equal(s.mapping[2], 0);
    assert_int_equal(s.mapping[0], 1);
    assert_int_equal(s.mapping[1], 2);
    // One point moved: 1/8.
    const int32_t one_off[8] = {2, 2, 0, 0, 0, 0, 1, 1};
    s = cs::sim::misclustering_rate(one_off, truth, 8, 3, 3);
    assert_int_equal(s.errors, 1);
    assert_near(s.rate, 0.125, 1e-15);
    // Everything in one cluster: only the largest class can be matched (3 of 8).
    const int32_t lumped[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    s = cs::sim::misclustering_rate(lumped, truth, 8, 1, 3);
    assert_int_equal(s.errors, 5);
    // Negative labels are not scored.
    const int32_t partial_truth[8] = {0, 0, -1, 1, 1, -1, 2, 2};
    s = cs::sim::misclustering_rate(permuted, partial_truth, 8, 3, 3);
    assert_int_equal(s.scored, 6);
    assert_int_equal(s.errors, 0);
}

/* Issue 12, item 2: one huge outlier moves the data mean far from every other point;
 * the norm expansion around that mean then loses every digit of the small distances.
 * The three real clusters {-2 x8}, {10.375, 10, 8.625} and {outlier} must be found
 * with the exact cost 1.698 (= 0.0625 + 0.1406 + ... of the middle cluster), from
 * outliers of 1e3 up to 1e15, for both methods. */
static void one_huge_outlier(void **) {
    for (const char *method : kPointMethods)
        for (double outlier = 1e3; outlier <= 1e15; outlier *= 10) {
            const double x[12] = {-2, -2, -2, -2, -2, -2, -2, -2, 10.375, 10, 8.625, outlier};
            cs_model *m = points_model(method, 3);
            CS_ASSERT_OK(cs_fit_points(m, x, 12, 1, 0));
            const Fitted f = read_fit(m, 12, 3, 1);
            for (int i = 1; i < 8; ++i) assert_int_equal(f.labels[i], f.labels[0]);
            assert_int_equal(f.labels[9], f.labels[8]);
            assert_int_equal(f.labels[10], f.labels[8]);
            assert_true(f.labels[0] != f.labels[8] && f.labels[0] != f.labels[11] &&
                        f.labels[8] != f.labels[11]);
            // Middle cluster mean 29/3; cost sum of its squared deviations.
            const double mid = 29.0 / 3;
            const double cost = (10.375 - mid) * (10.375 - mid) + (10 - mid) * (10 - mid) +
                                (8.625 - mid) * (8.625 - mid);
            assert_near(f.centres[f.labels[0]], -2.0, 1e-12);
            assert_near(f.centres[f.labels[8]], mid, 1e-12);
            assert_true(f.centres[f.labels[11]] == outlier);
            assert_near(f.trace.back(), -cost, 1e-9);
            assert_int_equal(f.converged, 1);
            assert_true(f.iterations < 20);
            for (std::size_t t = 1; t < f.trace.size(); ++t) assert_true(f.trace[t] >= f.trace[t - 1]);
            cs_destroy(m);
        }
}

/* Issue 12, item 6: fewer distinct points than clusters ({0 x6, 1, 5, 9}, k = 5): a
 * re-seeded duplicate of an occupied centre falls back to the lower index and is
 * re-seeded again; that fixed point must count as converged, and the trace must never
 * decrease, also with a large common offset and large coordinates. */
static void fewer_distinct_points_than_k(void **) {
    const double offsets[] = {0.0, 1e6, -1e9};
    const double scales[] = {1.0, 1e7};
    for (const char *method : kPointMethods)
        for (double offset : offsets)
            for (double scale : scales) {
                const double base[9] = {0, 0, 0, 0, 0, 0, 1, 5, 9};
                double x[9];
                for (int i = 0; i < 9; ++i) x[i] = offset + scale * base[i];
                cs_model *m = points_model(method, 5);
                CS_ASSERT_OK(cs_fit_points(m, x, 9, 1, 0));
                const Fitted f = read_fit(m, 9, 5, 1);
                assert_int_equal(f.converged, 1);
                assert_true(f.iterations < 20);
                assert_true((f.notes & CS_NOTE_MAX_ITER_REACHED) == 0);
                for (int i = 1; i < 6; ++i) assert_true(f.centres[f.labels[i]] == offset);
                assert_true(f.labels[6] != f.labels[7] && f.labels[7] != f.labels[8] &&
                            f.labels[6] != f.labels[8]);
                std::vector<int> size(5, 0);
                for (int32_t l : f.labels) ++size[l];
                for (int s : size) assert_true(s > 0);
                assert_true(f.trace.back() == 0.0);
                for (std::size_t t = 1; t < f.trace.size(); ++t) assert_true(f.trace[t] >= f.trace[t - 1]);
                cs_destroy(m);
            }
}

namespace {
struct StopAt {
    int32_t at = -1;  // cancel at this call (counting from 0); -1: never
    int32_t calls = 0;
};
int32_t stop_at(void *user, int32_t, double) {
    StopAt *s = static_cast<StopAt *>(user);
    return s->calls++ == s->at ? 1 : 0;
}
}  // namespace

/* Issue 12, item 12: a cancelled fit reports converged = 0 (cs_converged), wherever the
 * cancel comes: at the start, at the iteration that changed no label, or in a later
 * k-means++ restart after an earlier one converged. */
static void cancelled_fit_is_not_converged(void **) {
    for (const char *method : kPointMethods)
        for (int32_t n_init : {1, 3}) {
            cs_model *m = points_model(method, 2);
            CS_ASSERT_OK(cs_set_int(m, CS_PARAM_N_INIT, n_init));
            StopAt count;
            CS_ASSERT_OK(cs_set_progress(m, stop_at, &count));
            CS_ASSERT_OK(cs_fit_points(m, kTwoClusters, 6, 2, 0));
            assert_int_equal(read_fit(m, 6, 2, 2).converged, 1);
            assert_true(count.calls >= 2);
            for (int32_t at = 0; at < count.calls; ++at) {
                StopAt s;
                s.at = at;
                CS_ASSERT_OK(cs_set_progress(m, stop_at, &s));
                CS_ASSERT_FAIL(m, cs_fit_points(m, kTwoClusters, 6, 2, 0), CS_ERR_CANCELLED, "cancel");
                const Fitted g = read_fit(m, 6, 2, 2);
                assert_true((g.notes & CS_NOTE_CANCELLED) != 0);
                assert_int_equal(g.converged, 0);
            }
            cs_destroy(m);
        }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(new_enum_values_are_pinned),
        cmocka_unit_test(two_obvious_clusters),
        cmocka_unit_test(leading_dimension_and_offset),
        cmocka_unit_test(duplicates_and_empty_clusters),
        cmocka_unit_test(recovers_gaussian_mixture),
        cmocka_unit_test(sampled_initialisation_large_n),
        cmocka_unit_test(high_dimension_d_greater_than_n),
        cmocka_unit_test(bad_points_input),
        cmocka_unit_test(deterministic_across_threads),
        cmocka_unit_test(progress_cancel_and_max_iter),
        cmocka_unit_test(hungarian_hand_cases),
        cmocka_unit_test(misclustering_rate_hand_cases),
        cmocka_unit_test(one_huge_outlier),
        cmocka_unit_test(fewer_distinct_points_than_k),
        cmocka_unit_test(cancelled_fit_is_not_converged),
    };
    return cmocka_run_group_tests_name("points", tests, nullptr, nullptr);
}
