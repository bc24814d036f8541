// SPDX-License-Identifier: MIT
// Opt-D&S and the other methods on simulated Dawid-Skene crowds with known truth:
// error near the Bayes (oracle) error, confusion matrices recovered, documented
// fallbacks on singular data, and determinism.
#include <cmath>
#include <cstring>
#include <vector>

#include "support/cmocka_cpp.hpp"
#include "support/fit_helpers.hpp"
#include "sim/crowd_sim.hpp"

namespace {

struct Scored {
    double error = 0;         // fraction of items misclassified
    double confusion_mae = 0; // mean |pi_hat - pi| over all worker x true x observed entries
};

cs::sim::Crowd standard_crowd() {
    cs::sim::CrowdSpec spec;  // 10% experts, 65% normal, 20% spammers, 5% adversaries
    spec.n_items = 5000;
    spec.n_workers = 50;
    spec.k = 3;
    spec.labels_per_item = 10;
    spec.seed = 1;
    return cs::sim::simulate_crowd(spec);
}

double error_of(const std::vector<int32_t> &labels, const cs::sim::Crowd &crowd) {
    std::size_t wrong = 0;
    for (int32_t j = 0; j < crowd.n_items; ++j) wrong += labels[j] != crowd.truth[j];
    return static_cast<double>(wrong) / crowd.n_items;
}

double mae_of(const std::vector<double> &pi, const cs::sim::Crowd &crowd) {
    double sum = 0;
    for (std::size_t e = 0; e < pi.size(); ++e) sum += std::fabs(pi[e] - crowd.confusion[e]);
    return sum / pi.size();
}

// The best confusion estimate possible: the M-step with the true labels.
double oracle_mae(const cs::sim::Crowd &crowd) {
    const int32_t k = crowd.k;
    std::vector<double> counts(crowd.confusion.size(), 0.0);
    for (std::size_t t = 0; t < crowd.item.size(); ++t)
        counts[(crowd.worker[t] * k + crowd.truth[crowd.item[t]]) * k + crowd.label[t]] += 1;
    for (std::size_t row = 0; row < counts.size(); row += k) {
        double s = 0;
        for (int32_t c = 0; c < k; ++c) s += counts[row + c];
        for (int32_t c = 0; c < k; ++c) counts[row + c] = s > 0 ? counts[row + c] / s : 1.0 / k;
    }
    return mae_of(counts, crowd);
}

Scored run(const char *method, const cs::sim::Crowd &crowd, int32_t max_iter = 1000,
           int32_t *notes = nullptr) {
    auto m = test::make_model(method);
    cs_set_int(m.get(), CS_PARAM_MAX_ITER, max_iter);
    assert_int_equal(cs_fit(m.get(), crowd.item.data(), crowd.worker.data(), crowd.label.data(),
                            crowd.item.size()), CS_OK);
    if (notes) cs_fit_notes(m.get(), notes);
    return {error_of(test::labels(m.get()), crowd), mae_of(test::confusion(m.get()), crowd)};
}

}  // namespace

// Error near the oracle Bayes error (true confusion matrices known): the paper's
// Theorem 2 says Opt-D&S labels like the oracle once n and m are large enough. At
// n = 5000 the standard error of an error rate near 2.5 % is 0.22 pp, so we allow
// 0.5 pp above the oracle. Confusion matrices: each worker labels ~1000 items
// (~330 per class), so even the M-step with the TRUE labels has a mean absolute
// error of ~0.017; EM with estimated labels may exceed it by at most 25 %.
static void test_opt_ds_recovers_truth_and_confusion(void **) {
    const auto crowd = standard_crowd();
    const std::vector<double> uniform(3, 1.0 / 3);
    const double oracle_error = error_of(cs::sim::oracle_labels(crowd, uniform), crowd);
    const double best_mae = oracle_mae(crowd);
    print_message("oracle error %.4f, oracle M-step MAE %.4f\n", oracle_error, best_mae);

    int32_t notes = -1;
    const Scored opt = run("opt-ds", crowd, 1000, &notes);
    print_message("opt-ds error %.4f MAE %.4f\n", opt.error, opt.confusion_mae);
    assert_int_equal(notes, 0);
    assert_true(opt.error <= oracle_error + 0.005);
    assert_true(opt.confusion_mae <= 1.25 * best_mae);

    // Stage 1 alone (Theorem 1): already a good estimate of every confusion matrix
    // -- within 0.05 on average, 3x the oracle's sampling error.
    const Scored stage1 = run("opt-ds", crowd, 0, &notes);
    print_message("opt-ds stage 1 error %.4f MAE %.4f\n", stage1.error, stage1.confusion_mae);
    assert_int_equal(notes, 0);
    assert_true(stage1.confusion_mae <= 0.05);

    // Majority vote is far worse on this crowd (spammers, adversaries); ds and
    // crowd-lloyd land near the oracle too.
    const Scored mv = run("mv", crowd);
    const Scored ds = run("ds", crowd);
    const Scored lloyd = run("crowd-lloyd", crowd);
    print_message("mv %.4f ds %.4f crowd-lloyd %.4f\n", mv.error, ds.error, lloyd.error);
    assert_true(mv.error > oracle_error + 0.02);
    assert_true(ds.error <= oracle_error + 0.005);
    assert_true(lloyd.error <= oracle_error + 0.01);
}

// Binary and five-class crowds too.
static void test_opt_ds_other_k(void **) {
    for (int32_t k : {2, 5}) {
        cs::sim::CrowdSpec spec;
        spec.n_items = 4000;
        spec.n_workers = 40;
        spec.k = k;
        spec.labels_per_item = 8;
        spec.seed = 5;
        const auto crowd = cs::sim::simulate_crowd(spec);
        const std::vector<double> uniform(k, 1.0 / k);
        const double oracle_error = error_of(cs::sim::oracle_labels(crowd, uniform), crowd);
        const Scored opt = run("opt-ds", crowd);
        print_message("k=%d oracle %.4f opt-ds %.4f MAE %.4f (oracle M-step %.4f)\n", k,
                      oracle_error, opt.error, opt.confusion_mae, oracle_mae(crowd));
        assert_true(opt.error <= oracle_error + 0.005);
        assert_true(opt.confusion_mae <= 1.25 * oracle_mae(crowd));
    }
}

// Fewer than 3 workers: no three groups, so every worker falls back to the MV-D&S
// start -- and then Opt-D&S is exactly MV-D&S, round by round.
static void test_fallback_with_two_workers_equals_ds(void **) {
    test::Triples t;
    for (int32_t j = 0; j < 40; ++j) {
        t.add(j, 0, j % 2);
        t.add(j, 1, (j % 5 == 0) ? 1 - j % 2 : j % 2);
    }
    auto opt = test::make_model("opt-ds");
    auto ds = test::make_model("ds");
    assert_int_equal(test::fit(opt.get(), t), CS_OK);
    assert_int_equal(test::fit(ds.get(), t), CS_OK);
    int32_t notes = 0;
    cs_fit_notes(opt.get(), &notes);
    assert_true(notes & CS_NOTE_SPECTRAL_FALLBACK);
    assert_non_null(strstr(cs_last_error(opt.get()), "fewer than 3 workers"));
    const auto a = test::trace(opt.get()), b = test::trace(ds.get());
    assert_int_equal(a.size(), b.size());
    for (std::size_t r = 0; r < a.size(); ++r) assert_near(a[r], b[r], 0);
    assert_memory_equal(test::posteriors(opt.get()).data(), test::posteriors(ds.get()).data(),
                        sizeof(double) * 80);
}

// Groups that never label the same items give singular cross moments: the
// spectral stage must fall back (reported), never return NaN.
static void test_fallback_on_singular_moments(void **) {
    test::Triples t;
    for (int32_t i = 0; i < 3; ++i)
        for (int32_t j = 10 * i; j < 10 * i + 10; ++j) t.add(j, i, j % 2);
    auto m = test::make_model("opt-ds");
    assert_int_equal(test::fit(m.get(), t), CS_OK);
    int32_t notes = 0;
    cs_fit_notes(m.get(), &notes);
    assert_true(notes & CS_NOTE_SPECTRAL_FALLBACK);
    assert_non_null(strstr(cs_last_error(m.get()), "singular"));
    for (double v : test::posteriors(m.get())) assert_true(std::isfinite(v));
    for (double v : test::confusion(m.get())) assert_true(std::isfinite(v));
}

// Same seed, same output; and the thread count never changes a bit of it. The crowds
// have 150,000 labels: fits below 10^5 labels run on one thread whatever is asked.
// k = 3 takes the compile-time kernels, k = 7 the general ones (moments, E-step).
static void test_deterministic_across_threads(void **) {
    for (int32_t k : {3, 7}) {
        cs::sim::CrowdSpec spec;
        spec.n_items = 15000;
        spec.n_workers = 200;
        spec.k = k;
        spec.labels_per_item = 10;
        spec.seed = 4;
        const auto crowd = cs::sim::simulate_crowd(spec);
        const std::vector<const char *> methods =
            k == 3 ? std::vector<const char *>{"mv", "ds", "opt-ds", "crowd-lloyd", "kos", "ghosh-svd",
                                               "eigen-ratio", "kos-mp"}
                   : std::vector<const char *>{"ds", "opt-ds"};
        for (const char *method : methods) {
            std::vector<double> first;
            std::vector<double> first_trace;
            for (int threads : {1, 2, 3}) {
                auto m = test::make_model(method);
                cs_set_int(m.get(), CS_PARAM_THREADS, threads);
                cs_set_int(m.get(), CS_PARAM_SEED, 99);
                assert_int_equal(cs_fit(m.get(), crowd.item.data(), crowd.worker.data(),
                                        crowd.label.data(), crowd.item.size()), CS_OK);
                const auto q = test::posteriors(m.get());
                const auto tr = test::trace(m.get());
                if (first.empty()) {
                    first = q;
                    first_trace = tr;
                    continue;
                }
                assert_int_equal(tr.size(), first_trace.size());
                assert_memory_equal(q.data(), first.data(), q.size() * sizeof(double));
                assert_memory_equal(tr.data(), first_trace.data(), tr.size() * sizeof(double));
            }
        }
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_opt_ds_recovers_truth_and_confusion),
        cmocka_unit_test(test_opt_ds_other_k),
        cmocka_unit_test(test_fallback_with_two_workers_equals_ds),
        cmocka_unit_test(test_fallback_on_singular_moments),
        cmocka_unit_test(test_deterministic_across_threads),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
