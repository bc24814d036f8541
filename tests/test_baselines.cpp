// SPDX-License-Identifier: MIT
// The baselines of the Opt-D&S paper -- kos, kos-mp, ghosh-svd, eigen-ratio -- and the
// one-coin EM methods (ALGORITHMS.md, "Baselines of the Opt-D&S paper"; crowdspec.h,
// enum cs_method): the split matrices' block products against dense ones, the split encoding and
// tie rule, recovery on simulated one-coin crowds, sign conventions and k > 2 splits on
// hand-checked examples, ties, degenerate inputs, max_iter = 0, cancellation and
// thread-count independence.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "support/cmocka_cpp.hpp"
#include "support/fit_helpers.hpp"

#include "crowd/spectral/binary_splits.hpp"
#include "data/crowd_data.hpp"
#include "linalg/sparse_matrix.hpp"
#include "sim/crowd_sim.hpp"
#include "util/rng.hpp"

namespace {

const char *const kSpectral[] = {"kos", "kos-mp", "ghosh-svd", "eigen-ratio"};
const char *const kAll[] = {"kos", "kos-mp", "ghosh-svd", "eigen-ratio", "one-coin-ds",
                            "class-one-coin-ds"};

test::Triples from_crowd(const cs::sim::Crowd &crowd) {
    test::Triples t;
    t.item = crowd.item;
    t.worker = crowd.worker;
    t.label = crowd.label;
    return t;
}

double error_rate(const std::vector<int32_t> &a, const std::vector<int32_t> &b) {
    std::size_t wrong = 0;
    for (std::size_t j = 0; j < a.size(); ++j) wrong += a[j] != b[j];
    return static_cast<double>(wrong) / static_cast<double>(a.size());
}

// Fit, require CS_OK and well-formed results (finite, one-hot or uniform posteriors for
// the spectral methods, rows summing to 1), and return the labels.
std::vector<int32_t> fit_labels(const char *method, const test::Triples &t, int32_t classes = 0,
                                int32_t *notes = nullptr) {
    auto m = test::make_model(method);
    if (classes > 0) assert_int_equal(cs_set_int(m.get(), CS_PARAM_CLASSES, classes), CS_OK);
    const cs_status status = test::fit(m.get(), t);
    if (status != CS_OK) {
        print_error("%s: %s: %s\n", method, cs_status_string(status), cs_last_error(m.get()));
        fail();
    }
    std::size_t k = 0;
    cs_n_classes(m.get(), &k);
    const std::vector<double> post = test::posteriors(m.get());
    const bool spectral = std::string(method) != "one-coin-ds" && std::string(method) != "class-one-coin-ds";
    for (std::size_t j = 0; j * k < post.size(); ++j) {
        double sum = 0.0;
        for (std::size_t l = 0; l < k; ++l) {
            const double p = post[j * k + l];
            assert_true(std::isfinite(p));
            if (spectral) assert_true(p == 0.0 || p == 1.0 || p == 1.0 / static_cast<double>(k));
            sum += p;
        }
        assert_near(sum, 1.0, 1e-12);
    }
    for (double c : test::confusion(m.get())) assert_true(std::isfinite(c) && c >= 0.0 && c <= 1.0);
    double ll = 1.0;
    assert_int_equal(cs_log_likelihood(m.get(), &ll), CS_OK);
    assert_true(std::isfinite(ll));
    if (notes) assert_int_equal(cs_fit_notes(m.get(), notes), CS_OK);
    return test::labels(m.get());
}

void expect_labels(const char *method, const std::vector<int32_t> &got,
                   const std::vector<int32_t> &want) {
    if (got != want) {
        std::string g, w;
        for (int32_t v : got) g += std::to_string(v) + " ";
        for (int32_t v : want) w += std::to_string(v) + " ";
        print_error("%s: labels [%s], expected [%s]\n", method, g.c_str(), w.c_str());
        fail();
    }
}

}  // namespace

// The split matrices' products (read in place from the labels by item; the transposed
// one scatters by item ranges) against the dense +1/-1 matrix, on a small random crowd,
// for 1 and 2 threads; and the row ranges behind the scatter.
static void split_matrix_products_match_dense(void **) {
    cs::sim::CrowdSpec spec;
    spec.n_items = 60;
    spec.n_workers = 9;
    spec.k = 3;
    spec.labels_per_item = 4;
    const cs::sim::Crowd crowd = cs::sim::simulate_crowd(spec);
    const int64_t n = crowd.n_items, m = crowd.n_workers, L = static_cast<int64_t>(crowd.item.size());
    const cs::CrowdData data = cs::CrowdData::build(crowd.item.data(), crowd.worker.data(),
                                                    crowd.label.data(), crowd.item.size(),
                                                    cs::FitOptions{});
    for (int32_t split = 0; split < 2; ++split) {
        const cs::SplitMatrix o = cs::split_matrix(data, split);
        std::vector<double> dense(n * m, 0.0);
        for (int64_t t = 0; t < L; ++t)
            dense[crowd.item[t] * m + crowd.worker[t]] = crowd.label[t] > split ? 1.0 : -1.0;
        const int32_t p = 3;  // 240 labels, tables of 9 x 3: 8 item ranges
        assert_int_equal(cs::row_ranges(data.item_start.data(), n, m * p).size(), 9);
        cs::Rng rng(3);
        std::vector<double> x(m * p), xt(n * p);
        for (double &v : x) v = rng.normal();
        for (double &v : xt) v = rng.normal();
        std::vector<double> y1(n * p), y2(n * p), yt1(m * p), yt2(m * p);
        o.multiply(x.data(), y1.data(), p, 1);
        o.multiply(x.data(), y2.data(), p, 2);
        o.multiply_transpose(xt.data(), yt1.data(), p, 1);
        o.multiply_transpose(xt.data(), yt2.data(), p, 2);
        assert_true(y1 == y2);
        assert_true(yt1 == yt2);
        for (int64_t j = 0; j < n; ++j)
            for (int32_t c = 0; c < p; ++c) {
                double want = 0.0;
                for (int64_t i = 0; i < m; ++i) want += dense[j * m + i] * x[i * p + c];
                assert_near(y1[j * p + c], want, 1e-12);
            }
        for (int64_t i = 0; i < m; ++i)
            for (int32_t c = 0; c < p; ++c) {
                double want = 0.0;
                for (int64_t j = 0; j < n; ++j) want += dense[j * m + i] * xt[j * p + c];
                assert_near(yt1[i * p + c], want, 1e-12);
            }
        const std::vector<int64_t> rows = cs::split_row_sums(data, split);
        for (int64_t j = 0; j < n; ++j) {
            double want = 0.0;
            for (int64_t i = 0; i < m; ++i) want += dense[j * m + i];
            assert_true(static_cast<double>(rows[j]) == want);
        }
    }
    // Row ranges: consecutive, covering, at most 64, at least 1, about equal entries.
    std::vector<int64_t> start(1001);
    for (int64_t r = 0; r <= 1000; ++r) start[r] = 3 * r;
    const std::vector<int64_t> b = cs::row_ranges(start.data(), 1000, 10);
    assert_int_equal(b.size(), 65);
    assert_int_equal(b.front(), 0);
    assert_int_equal(b.back(), 1000);
    for (std::size_t i = 1; i < b.size(); ++i) assert_true(b[i] - b[i - 1] >= 15 && b[i] - b[i - 1] <= 16);
    assert_int_equal(cs::row_ranges(start.data(), 1000, 1 << 20).size(), 2);
}

// The split code, the tie rule and the combination into classes (binary_splits.hpp).
static void split_encoding_ties_and_combination(void **) {
    // Split s: +1 iff label > s.
    assert_int_equal(cs::split_sign(0, 0), -1);
    assert_int_equal(cs::split_sign(1, 0), 1);
    assert_int_equal(cs::split_sign(1, 1), -1);
    assert_int_equal(cs::split_sign(2, 1), 1);
    // |score| <= 1e-9 * max |score| is a tie; all-zero scores all tie.
    const std::vector<int8_t> t = cs::tie_signs({1e-12, -1.9e-9, 0.0, 0.5, -2.0, 2.1e-9});
    const std::vector<int8_t> want = {0, 0, 0, 1, -1, 1};
    assert_true(t == want);
    const std::vector<int8_t> zero = cs::tie_signs({0.0, 0.0});
    assert_true(zero == std::vector<int8_t>({0, 0}));
    // k = 3 (two splits per item): the first split with -1, else class 2; a tie (0)
    // defers to the next split, so (0, 0) and (+1, 0) are class 2, (0, -1) class 1,
    // and (-1, +1) class 0 (the first -1 decides even when a later split disagrees).
    const std::vector<int8_t> signs = {-1, -1, +1, -1, +1, +1, 0, -1, 0, 0, +1, 0, -1, +1};
    const std::vector<int32_t> classes = cs::combine_splits(signs, 7, 3);
    assert_true(classes == std::vector<int32_t>({0, 1, 2, 1, 2, 2, 0}));
    // k = 2: a tie gives class 1.
    assert_true(cs::combine_splits({-1, 0, 1}, 3, 2) == std::vector<int32_t>({0, 1, 1}));
}

// Every method recovers the truth on simulated one-coin crowds of good workers (k = 2
// and k = 3): error within 1 point (k = 2) or 3.5 points (k = 3) of the Bayes-optimal
// oracle.
static void recovery_on_one_coin_crowds(void **) {
    for (int32_t k : {2, 3}) {
        cs::sim::CrowdSpec spec;
        spec.n_items = 1500;
        spec.n_workers = 40;
        spec.k = k;
        spec.labels_per_item = 7;
        spec.expert = 0.3;
        spec.normal = 0.7;
        spec.spammer = 0.0;
        spec.adversary = 0.0;
        spec.one_coin = true;
        spec.seed = 11;
        const cs::sim::Crowd crowd = cs::sim::simulate_crowd(spec);
        const std::vector<double> uniform(static_cast<std::size_t>(k), 1.0 / k);
        const double oracle = error_rate(cs::sim::oracle_labels(crowd, uniform), crowd.truth);
        const test::Triples t = from_crowd(crowd);
        for (const char *method : kAll) {
            const double err = error_rate(fit_labels(method, t), crowd.truth);
            print_message("k = %d  %-18s error %.4f (oracle %.4f)\n", k, method, err, oracle);
            // Split methods see one binary question at a time, so with k = 3 they lose a
            // little to the oracle (kos most: 3.7 % against 0.9 % here).
            assert_true(err <= oracle + (k == 2 ? 0.01 : 0.035));
        }
    }
}

// Sign conventions on a hand-made rank-one crowd: items 0-3 with truth 0, 1, 0, 1;
// workers 0 and 1 are right, worker 2 is always wrong. O = a b^T with a = (-1, 1, -1, 1)
// and b = (1, 1, -1): every method's orientation rule (v's non-negative mass for kos,
// agreement with O 1 for ghosh-svd and eigen-ratio, the positive start for kos-mp)
// follows the two agreeing workers, whatever the seed (the solver's sign), and swapping
// the label names swaps the answer.
static void sign_conventions_on_a_hand_made_crowd(void **) {
    test::Triples t, swapped;
    const int32_t truth[4] = {0, 1, 0, 1};
    for (int32_t j = 0; j < 4; ++j)
        for (int32_t i = 0; i < 3; ++i) {
            const int32_t label = i < 2 ? truth[j] : 1 - truth[j];
            t.add(j, i, label);
            swapped.add(j, i, 1 - label);
        }
    for (const char *method : kSpectral)
        for (int64_t seed : {0, 1, 12345}) {
            auto m = test::make_model(method);
            assert_int_equal(cs_set_int(m.get(), CS_PARAM_SEED, seed), CS_OK);
            assert_int_equal(test::fit(m.get(), t), CS_OK);
            expect_labels(method, test::labels(m.get()), {0, 1, 0, 1});
            int32_t converged = 0;
            assert_int_equal(cs_converged(m.get(), &converged), CS_OK);
            assert_int_equal(converged, 1);
            assert_int_equal(test::fit(m.get(), swapped), CS_OK);
            expect_labels(method, test::labels(m.get()), {1, 0, 1, 0});
        }
    // The plug-in confusion of the hard labels: workers 0 and 1 perfect, worker 2 flipped.
    auto m = test::make_model("ghosh-svd");
    assert_int_equal(test::fit(m.get(), t), CS_OK);
    const std::vector<double> pi = test::confusion(m.get());
    const double want[12] = {1, 0, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0};
    for (int e = 0; e < 12; ++e) assert_near(pi[e], want[e], 0.0);
}

// k = 3 by hand: six items with truth 0, 1, 2, 0, 1, 2 labelled by workers 0-3, who are
// right, and worker 4, who says 2 on item 0 and 0 on item 2. Split 0 (label > 0) and
// split 1 (label > 1) each have four agreeing workers per item, so every method's split
// signs are the truth's: split 0 = (-, +, +, -, +, +), split 1 = (-, -, +, -, -, +),
// giving classes 0, 1, 2, 0, 1, 2.
static void three_classes_by_two_splits(void **) {
    test::Triples t;
    const int32_t truth[6] = {0, 1, 2, 0, 1, 2};
    for (int32_t j = 0; j < 6; ++j)
        for (int32_t i = 0; i < 5; ++i) {
            int32_t label = truth[j];
            if (i == 4 && j == 0) label = 2;
            if (i == 4 && j == 2) label = 0;
            t.add(j, i, label);
        }
    for (const char *method : kAll) expect_labels(method, fit_labels(method, t), {0, 1, 2, 0, 1, 2});
}

// Ties. Workers A = 0 and B = 1 are mirror images: they agree on items 0-3 and disagree
// on items 4 and 5 in opposite directions, so the top singular vector weighs them
// equally and items 4 and 5 score exactly 0 (a tie). k = 2: a tie is not -1, so it
// gives class 1 (majority vote would give class 0). k = 3 (A: 0, B: 1 on item 4 and
// the reverse on item 5): the tie in split 0 defers to split 1, where both workers say
// -1, so items 4 and 5 get class 1.
static void ties_defer_to_the_next_split(void **) {
    test::Triples two, three;
    const int32_t a2[6] = {1, 1, 0, 0, 1, 0}, b2[6] = {1, 1, 0, 0, 0, 1};
    const int32_t a3[6] = {2, 2, 0, 0, 0, 1}, b3[6] = {2, 2, 0, 0, 1, 0};
    for (int32_t j = 0; j < 6; ++j) {
        two.add(j, 0, a2[j]);
        two.add(j, 1, b2[j]);
        three.add(j, 0, a3[j]);
        three.add(j, 1, b3[j]);
    }
    for (const char *method : {"kos", "ghosh-svd", "eigen-ratio"}) {
        expect_labels(method, fit_labels(method, two), {1, 1, 0, 0, 1, 1});
        expect_labels(method, fit_labels(method, three), {2, 2, 0, 0, 1, 1});
    }
    expect_labels("mv", test::labels([&] {
                      auto m = test::make_model("mv");
                      test::fit(m.get(), two);
                      return m;
                  }().get()),
                  {1, 1, 0, 0, 0, 0});
}

// Degenerate inputs give a defined answer, never NaN: a single worker (every method
// returns its labels; kos-mp's messages vanish and it takes the majority sign with
// CS_NOTE_SPECTRAL_FALLBACK), and all labels equal with k = 2 declared (every method
// returns that label; kos's centred matrix is zero when every worker labelled every
// item, and it falls back likewise).
static void degenerate_inputs_are_defined(void **) {
    test::Triples single;
    const int32_t said[5] = {0, 1, 1, 0, 1};
    for (int32_t j = 0; j < 5; ++j) single.add(j, 0, said[j]);
    for (const char *method : kAll) {
        int32_t notes = 0;
        expect_labels(method, fit_labels(method, single, 0, &notes), {0, 1, 1, 0, 1});
        if (std::string(method) == "kos-mp") assert_true((notes & CS_NOTE_SPECTRAL_FALLBACK) != 0);
    }
    for (int32_t value : {0, 1}) {
        test::Triples same;
        for (int32_t j = 0; j < 4; ++j)
            for (int32_t i = 0; i < 3; ++i) same.add(j, i, value);
        const std::vector<int32_t> want(4, value);
        for (const char *method : kAll) {
            int32_t notes = 0;
            expect_labels(method, fit_labels(method, same, 2, &notes), want);
            if (std::string(method) == "kos") {
                assert_true((notes & CS_NOTE_SPECTRAL_FALLBACK) != 0);
                auto m = test::make_model("kos");
                cs_set_int(m.get(), CS_PARAM_CLASSES, 2);
                test::fit(m.get(), same);
                assert_non_null(std::strstr(cs_last_error(m.get()), "majority sign"));
            }
        }
    }
    // A sparse unanimous crowd (not everyone labels everything): defined, finite.
    test::Triples sparse;
    for (int32_t j = 0; j < 12; ++j)
        for (int32_t r = 0; r < 2; ++r) sparse.add(j, (j + r * 5) % 7, 1);
    for (const char *method : kAll) fit_labels(method, sparse, 2);
}

// Gold items get their gold class and items without labels a uniform posterior (label
// 0, CS_NOTE_UNLABELED_ITEMS); the other items are unaffected.
static void gold_and_unlabelled_items(void **) {
    test::Triples t;
    const int32_t truth[4] = {0, 1, 0, 1};
    for (int32_t j = 0; j < 4; ++j)
        for (int32_t i = 0; i < 3; ++i) t.add(j, i, i < 2 ? truth[j] : 1 - truth[j]);
    const int32_t gold_item[1] = {0}, gold_label[1] = {1};
    for (const char *method : kSpectral) {
        auto m = test::make_model(method);
        assert_int_equal(cs_set_int(m.get(), CS_PARAM_ITEMS, 6), CS_OK);
        assert_int_equal(cs_set_gold(m.get(), gold_item, gold_label, 1), CS_OK);
        assert_int_equal(test::fit(m.get(), t), CS_OK);
        expect_labels(method, test::labels(m.get()), {1, 1, 0, 1, 0, 0});
        const std::vector<double> post = test::posteriors(m.get());
        for (int e = 8; e < 12; ++e) assert_true(post[e] == 0.5);
        int32_t notes = 0;
        cs_fit_notes(m.get(), &notes);
        assert_true((notes & CS_NOTE_UNLABELED_ITEMS) != 0);
    }
}

// max_iter = 0: no iteration; each split takes its majority sign (ties 0: class 1 for
// k = 2); iterations 0, trace empty, not converged, no note.
static void max_iter_zero_gives_the_majority_sign(void **) {
    test::Triples t;
    const int32_t labels[4][3] = {{0, 0, 1}, {1, 1, 0}, {0, 1, 1}, {1, 0, 0}};
    for (int32_t j = 0; j < 4; ++j)
        for (int32_t i = 0; i < 3; ++i) t.add(j, i, labels[j][i]);
    for (const char *method : kSpectral) {
        auto m = test::make_model(method);
        assert_int_equal(cs_set_int(m.get(), CS_PARAM_MAX_ITER, 0), CS_OK);
        assert_int_equal(test::fit(m.get(), t), CS_OK);
        expect_labels(method, test::labels(m.get()), {0, 1, 1, 0});
        int32_t iterations = -1, converged = -1, notes = -1;
        cs_iterations(m.get(), &iterations);
        cs_converged(m.get(), &converged);
        cs_fit_notes(m.get(), &notes);
        assert_int_equal(iterations, 0);
        assert_int_equal(converged, 0);
        assert_int_equal(notes, 0);
        assert_int_equal(test::trace(m.get()).size(), 0);
    }
}

namespace {
int32_t stop_at_3(void *user, int32_t iteration, double objective) {
    ++*static_cast<int *>(user);
    assert_true(objective == 0.0);
    return iteration == 3;
}
}  // namespace

// Cancelling mid-solver keeps a complete fit of the last iterate: CS_ERR_CANCELLED,
// 3 iterations, 3 trace entries of 0, the cancelled note; one progress call per block
// product (or round) plus the initial one. A full fit counts the same way.
static void cancellation_and_iteration_counting(void **) {
    cs::sim::CrowdSpec spec;
    spec.n_items = 300;
    spec.n_workers = 20;
    spec.k = 3;
    spec.labels_per_item = 5;
    spec.one_coin = true;
    const test::Triples t = from_crowd(cs::sim::simulate_crowd(spec));
    for (const char *method : kSpectral) {
        auto m = test::make_model(method);
        int calls = 0;
        cs_set_progress(m.get(), stop_at_3, &calls);
        assert_int_equal(test::fit(m.get(), t), CS_ERR_CANCELLED);
        assert_int_equal(calls, 4);
        int32_t iterations = 0, notes = 0, converged = 1;
        cs_iterations(m.get(), &iterations);
        cs_fit_notes(m.get(), &notes);
        cs_converged(m.get(), &converged);
        assert_int_equal(iterations, 3);
        assert_true((notes & CS_NOTE_CANCELLED) != 0);
        assert_int_equal(converged, 0);
        assert_true(test::trace(m.get()) == std::vector<double>(3, 0.0));
        const std::vector<int32_t> labels = test::labels(m.get());
        assert_int_equal(labels.size(), 300);
        for (int32_t l : labels) assert_true(l >= 0 && l < 3);

        cs_set_progress(m.get(), nullptr, nullptr);
        assert_int_equal(test::fit(m.get(), t), CS_OK);
        cs_iterations(m.get(), &iterations);
        cs_converged(m.get(), &converged);
        assert_true(iterations > 3);
        assert_int_equal(converged, 1);
        assert_int_equal(test::trace(m.get()).size(), static_cast<std::size_t>(iterations));
    }
}

// Results are bit-identical for 1 and 2 threads and for repeated fits.
static void thread_count_does_not_change_results(void **) {
    cs::sim::CrowdSpec spec;
    spec.n_items = 5000;
    spec.n_workers = 60;
    spec.k = 3;
    spec.labels_per_item = 5;
    const test::Triples t = from_crowd(cs::sim::simulate_crowd(spec));
    for (const char *method : kSpectral) {
        std::vector<int32_t> reference;
        int32_t reference_iterations = 0;
        for (int32_t threads : {1, 2, 2}) {
            auto m = test::make_model(method);
            cs_set_int(m.get(), CS_PARAM_THREADS, threads);
            assert_int_equal(test::fit(m.get(), t), CS_OK);
            int32_t iterations = 0;
            cs_iterations(m.get(), &iterations);
            if (reference.empty()) {
                reference = test::labels(m.get());
                reference_iterations = iterations;
            } else {
                assert_true(test::labels(m.get()) == reference);
                assert_int_equal(iterations, reference_iterations);
            }
        }
    }
}

// one-coin-ds and class-one-coin-ds are ds with the confusion model fixed: they ignore
// CS_PARAM_CONFUSION and equal ds with that model, bit for bit.
static void one_coin_methods_fix_the_confusion_model(void **) {
    cs::sim::CrowdSpec spec;
    spec.n_items = 400;
    spec.n_workers = 15;
    spec.k = 3;
    const test::Triples t = from_crowd(cs::sim::simulate_crowd(spec));
    const struct {
        const char *method, *model;
    } pairs[] = {{"one-coin-ds", "one-coin"}, {"class-one-coin-ds", "class-one-coin"}};
    for (const auto &p : pairs) {
        auto ds = test::make_model("ds");
        cs_set_param_string(ds.get(), "confusion", p.model);
        assert_int_equal(test::fit(ds.get(), t), CS_OK);
        auto named = test::make_model(p.method);
        cs_set_param_string(named.get(), "confusion", "full");  // overridden
        assert_int_equal(test::fit(named.get(), t), CS_OK);
        assert_true(test::posteriors(named.get()) == test::posteriors(ds.get()));
        assert_true(test::confusion(named.get()) == test::confusion(ds.get()));
        assert_true(test::trace(named.get()) == test::trace(ds.get()));
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(split_matrix_products_match_dense),
        cmocka_unit_test(split_encoding_ties_and_combination),
        cmocka_unit_test(recovery_on_one_coin_crowds),
        cmocka_unit_test(sign_conventions_on_a_hand_made_crowd),
        cmocka_unit_test(three_classes_by_two_splits),
        cmocka_unit_test(ties_defer_to_the_next_split),
        cmocka_unit_test(degenerate_inputs_are_defined),
        cmocka_unit_test(gold_and_unlabelled_items),
        cmocka_unit_test(max_iter_zero_gives_the_majority_sign),
        cmocka_unit_test(cancellation_and_iteration_counting),
        cmocka_unit_test(thread_count_does_not_change_results),
        cmocka_unit_test(one_coin_methods_fix_the_confusion_model),
    };
    return cmocka_run_group_tests_name("baselines", tests, nullptr, nullptr);
}
