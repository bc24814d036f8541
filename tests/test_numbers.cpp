// SPDX-License-Identifier: MIT
// Numeric answers (cs_fit_numbers, methods 400-409; issue 37): hand-computed cases for
// every method on one small crowd, recovery on simulated crowds with biased, noisy and
// adversarial workers and with outliers, degenerate inputs (one answer, one worker,
// equal answers, items without answers, duplicates, non-finite values), errors, and
// determinism over answer order and thread counts.
//
// The small crowd H (3 items, 3 workers): item 0: w0 1, w1 2, w2 6; item 1: w0 4;
// item 2: w1 3, w2 5. Worked out by hand:
// - means 3, 4, 4; sample variances 7 and 2 (item 1 has one answer); pooled within-item
//   variance (14 + 2) / (2 + 1) = 16/3, so se = sqrt(7/3), sqrt(16/3), sqrt(2/2).
// - medians 2, 4, 4.
// - gaussian without bias and prior (Raykar's (R2), (R1)), one round from the means:
//   sigma^2 = (4 + 0) / 2 = 2, (1 + 1) / 2 = 1, (9 + 1) / 2 = 5; mu_0 = (1/2 + 2 + 6/5) /
//   (1/2 + 1 + 1/5) = 3.7 / 1.7, mu_2 = (3 + 5/5) / 1.2; se_0 = 1.7^(-1/2).
// - catd, one round from the medians: S_w = 1, 1, 17 with N_w = 2 each, so the weights
//   are q, q, q/17 (q = chi2_{0.025}(2) = -2 ln 0.975), mu_0 = (1 + 2 + 6/17) / (2 + 1/17)
//   = 57/35, mu_2 = (3 + 5/17) / (1 + 1/17) = 56/18.
// - crh, one round from the medians: item deviations sqrt(14/3), 0 (skipped), 1; L_w =
//   1/sqrt(14/3), 1, 16/sqrt(14/3) + 1; w = -log(L_w / sum L); weighted means.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "support/cmocka_cpp.hpp"
#include "crowdspec/crowdspec.h"
#include "numeric/chi_square.hpp"
#include "sim/answer_sim.hpp"

namespace {

struct Answers {
    std::vector<int32_t> item, worker;
    std::vector<double> value;
    void add(int32_t i, int32_t w, double x) {
        item.push_back(i);
        worker.push_back(w);
        value.push_back(x);
    }
};

Answers crowd_h() {
    Answers a;
    a.add(0, 0, 1); a.add(0, 1, 2); a.add(0, 2, 6);
    a.add(1, 0, 4);
    a.add(2, 1, 3); a.add(2, 2, 5);
    return a;
}

struct Fit {
    std::vector<double> value, se, bias, noise;
    int32_t notes = 0, iterations = 0, converged = 0;
};

cs_model *model_with(const char *method, const std::vector<std::pair<const char *, const char *>> &params) {
    cs_model *m = cs_create();
    assert_non_null(m);
    if (method != nullptr) assert_int_equal(cs_set_param_string(m, "method", method), CS_OK);
    for (const auto &p : params) assert_int_equal(cs_set_param_string(m, p.first, p.second), CS_OK);
    return m;
}

Fit fit(const char *method, const Answers &a, const std::vector<std::pair<const char *, const char *>> &params = {}) {
    cs_model *m = model_with(method, params);
    const cs_status s = cs_fit_numbers(m, a.item.data(), a.worker.data(), a.value.data(), a.value.size());
    if (s != CS_OK) print_error("cs_fit_numbers(%s): %s\n", method ? method : "default", cs_last_error(m));
    assert_int_equal(s, CS_OK);
    size_t n = 0, w = 0;
    assert_int_equal(cs_n_items(m, &n), CS_OK);
    assert_int_equal(cs_n_workers(m, &w), CS_OK);
    Fit f;
    f.value.resize(n);
    f.se.resize(n);
    f.bias.resize(w);
    f.noise.resize(w);
    assert_int_equal(cs_number_estimates(m, f.value.data(), f.se.data(), n), CS_OK);
    assert_int_equal(cs_number_workers(m, f.bias.data(), f.noise.data(), w), CS_OK);
    cs_fit_notes(m, &f.notes);
    cs_iterations(m, &f.iterations);
    cs_converged(m, &f.converged);
    for (double v : f.value) assert_true(std::isfinite(v));
    for (double v : f.se) assert_true(std::isfinite(v) && v >= 0.0);
    for (double v : f.bias) assert_true(std::isfinite(v));
    for (double v : f.noise) assert_true(std::isfinite(v) && v >= 0.0);
    cs_destroy(m);
    return f;
}

void test_mean_median_by_hand(void **) {
    const Fit mean = fit("mean", crowd_h());
    assert_near(mean.value[0], 3.0, 1e-12);
    assert_near(mean.value[1], 4.0, 1e-12);
    assert_near(mean.value[2], 4.0, 1e-12);
    assert_near(mean.se[0], std::sqrt(7.0 / 3.0), 1e-12);
    assert_near(mean.se[1], std::sqrt(16.0 / 3.0), 1e-12);
    assert_near(mean.se[2], 1.0, 1e-12);
    // Residual statistics of the mean: w0 residuals -2, 0 -> bias -1, noise 1.
    assert_near(mean.bias[0], -1.0, 1e-12);
    assert_near(mean.noise[0], 1.0, 1e-12);
    const Fit median = fit("median", crowd_h());
    assert_near(median.value[0], 2.0, 1e-12);
    assert_near(median.value[2], 4.0, 1e-12);
    assert_near(median.se[0], std::sqrt(std::acos(-1.0) / 2.0) * std::sqrt(7.0 / 3.0), 1e-12);
    // Trimmed mean: f = 0.34 drops one answer at each end of item 0 (floor(1.02) = 1).
    const Fit trimmed = fit("trimmed-mean", crowd_h(), {{"trim_fraction", "0.34"}});
    assert_near(trimmed.value[0], 2.0, 1e-12);
    assert_near(trimmed.se[0], 0.0, 1e-12);  // winsorized 2, 2, 2
    assert_near(trimmed.value[2], 4.0, 1e-12);
    const Fit untrimmed = fit("trimmed-mean", crowd_h());  // f = 0.2 drops nothing of 3
    assert_near(untrimmed.value[0], 3.0, 1e-12);
}

void test_gaussian_one_round(void **) {
    const Fit g = fit("gaussian", crowd_h(),
                      {{"max_iter", "1"}, {"worker_bias", "off"}, {"variance_prior", "0"}});
    assert_near(g.value[0], 3.7 / 1.7, 1e-12);
    assert_near(g.value[1], 4.0, 1e-12);
    assert_near(g.value[2], 4.0 / 1.2, 1e-12);
    assert_near(g.se[0], 1.0 / std::sqrt(1.7), 1e-12);
    assert_near(g.noise[0], std::sqrt(2.0), 1e-12);
    assert_near(g.noise[2], std::sqrt(5.0), 1e-12);
    assert_near(g.bias[1], 0.0, 0.0);
    assert_int_equal(g.iterations, 1);
}

void test_catd_crh_one_round(void **) {
    const Fit c = fit("catd", crowd_h(), {{"max_iter", "1"}});
    assert_near(c.value[0], 57.0 / 35.0, 1e-9);
    assert_near(c.value[1], 4.0, 1e-12);
    assert_near(c.value[2], 56.0 / 18.0, 1e-9);
    const double s = std::sqrt(14.0 / 3.0);
    const double L[3] = {1.0 / s, 1.0, 16.0 / s + 1.0};
    const double total = L[0] + L[1] + L[2];
    double w[3];
    for (int i = 0; i < 3; ++i) w[i] = -std::log(L[i] / total);
    const Fit r = fit("crh", crowd_h(), {{"max_iter", "1"}});
    assert_near(r.value[0], (w[0] * 1 + w[1] * 2 + w[2] * 6) / (w[0] + w[1] + w[2]), 1e-12);
    assert_near(r.value[2], (w[1] * 3 + w[2] * 5) / (w[1] + w[2]), 1e-12);
}

// The chi-square quantiles CATD uses, against tabulated values (R's qchisq).
void test_catd_quantiles(void **) {
    assert_near(cs::chi_square_quantile(0.025, 1), 0.0009820691, 1e-9);
    assert_near(cs::chi_square_quantile(0.025, 2), -2.0 * std::log(0.975), 1e-11);
    assert_near(cs::chi_square_quantile(0.025, 10), 3.246972780, 1e-8);
    assert_near(cs::chi_square_quantile(0.975, 10), 20.48317735, 1e-7);
    assert_near(cs::chi_square_quantile(0.025, 140), 109.1369, 1e-3);
    assert_near(cs::regularized_gamma_p(1.0, 2.0), 1.0 - std::exp(-2.0), 1e-14);
}

// Simulated crowds: the worker models beat the baselines when workers are biased,
// noisy and adversarial, and find the biased workers' biases.
double mae(const std::vector<double> &est, const std::vector<double> &truth) {
    double s = 0.0;
    for (std::size_t j = 0; j < truth.size(); ++j) s += std::fabs(est[j] - truth[j]);
    return s / static_cast<double>(truth.size());
}

Answers answers_of(const cs::sim::NumericCrowd &c) {
    Answers a;
    a.item = c.item;
    a.worker = c.worker;
    a.value = c.value;
    return a;
}

void test_simulated_recovery(void **) {
    cs::sim::NumbersSpec spec;
    spec.n_items = 3000;
    spec.n_workers = 40;
    spec.answers_per_item = 6;
    spec.seed = 7;
    const cs::sim::NumericCrowd c = cs::sim::simulate_numbers(spec);
    const Answers a = answers_of(c);
    const double m_mean = mae(fit("mean", a).value, c.truth);
    const double m_median = mae(fit("median", a).value, c.truth);
    const Fit g = fit("gaussian", a);
    const double m_gauss = mae(g.value, c.truth);
    const double m_t = mae(fit("student-t", a).value, c.truth);
    const double m_catd = mae(fit("catd", a).value, c.truth);
    const double m_crh = mae(fit("crh", a).value, c.truth);
    print_message("MAE mean %.3f median %.3f gaussian %.3f student-t %.3f catd %.3f crh %.3f\n", m_mean, m_median,
                  m_gauss, m_t, m_catd, m_crh);
    // Good workers have noise 3: the best possible MAE with ~3 good answers of 6 is about
    // 3 * 0.8 / sqrt(3) = 1.4. The worker models must get near it, the baselines cannot.
    assert_true(m_gauss < 2.0);
    assert_true(m_t < 2.0);
    assert_true(m_gauss < 0.5 * m_mean);
    assert_true(m_catd < m_mean && m_crh < m_mean);
    // Biases: the biased workers' estimated bias within 1 of the truth (up to the gauge:
    // the answer-weighted mean bias is 0).
    double gauge = 0.0, count = 0.0;
    for (std::size_t w = 0; w < c.bias.size(); ++w)
        if (c.type[w] != 3) {
            gauge += c.bias[w];
            count += 1.0;
        }
    for (std::size_t w = 0; w < c.bias.size(); ++w)
        if (c.type[w] == 1) assert_near(g.bias[w], c.bias[w], 1.5);
    // Noise: a noisy worker's estimated noise far above a good one's.
    for (std::size_t w = 0; w < c.bias.size(); ++w) {
        if (c.type[w] == 0) assert_true(g.noise[w] < 5.0);
        if (c.type[w] == 2) assert_true(g.noise[w] > 10.0);
    }
    double signed_error = 0.0;
    for (std::size_t j = 0; j < c.truth.size(); ++j) signed_error += g.value[j] - c.truth[j];
    print_message("mean signed error %.3f, mean true bias of non-adversaries %.3f\n",
                  signed_error / c.truth.size(), gauge / count);
    // The model knows the biases only up to a common shift (it assumes the average worker
    // unbiased; these workers' biases average 1.1): the estimates carry that offset. Up to
    // it, the standard errors are calibrated: about 68 % of the estimates within one se.
    const double offset = signed_error / c.truth.size();
    assert_near(offset, gauge / count, 0.5);
    int inside = 0;
    double shifted = 0.0;
    for (std::size_t j = 0; j < c.truth.size(); ++j) {
        inside += std::fabs(g.value[j] - offset - c.truth[j]) <= g.se[j];
        shifted += std::fabs(g.value[j] - offset - c.truth[j]);
    }
    const double coverage = inside / static_cast<double>(c.truth.size());
    print_message("gaussian up to the offset: MAE %.3f, one-se coverage %.3f\n", shifted / c.truth.size(), coverage);
    assert_true(coverage > 0.6 && coverage < 0.8);
}

// Outliers: 5 % wild answers. student-t keeps its accuracy; the mean and the gaussian
// model are pulled.
void test_outliers(void **) {
    cs::sim::NumbersSpec spec;
    spec.n_items = 3000;
    spec.n_workers = 40;
    spec.answers_per_item = 6;
    spec.good = 1.0;
    spec.biased = spec.noisy = spec.adversarial = 0.0;
    spec.outlier_rate = 0.05;
    spec.seed = 11;
    const cs::sim::NumericCrowd c = cs::sim::simulate_numbers(spec);
    const Answers a = answers_of(c);
    const double m_mean = mae(fit("mean", a).value, c.truth);
    const double m_gauss = mae(fit("gaussian", a).value, c.truth);
    const double m_t = mae(fit("student-t", a).value, c.truth);
    const double m_median = mae(fit("median", a).value, c.truth);
    print_message("outliers: MAE mean %.3f median %.3f gaussian %.3f student-t %.3f\n", m_mean, m_median, m_gauss, m_t);
    assert_true(m_t < 0.6 * m_gauss);
    assert_true(m_t < m_median);
    assert_true(m_t < 2.0);
}

void test_degenerate(void **) {
    for (const char *method : {"mean", "median", "gaussian", "catd", "crh", "student-t", "trimmed-mean"}) {
        // One answer.
        Answers one;
        one.add(0, 0, 5.0);
        Fit f = fit(method, one);
        assert_near(f.value[0], 5.0, 1e-12);
        // One worker on three items.
        Answers solo;
        solo.add(0, 0, 1.0); solo.add(1, 0, 2.0); solo.add(2, 0, 4.0);
        f = fit(method, solo);
        assert_near(f.value[2], 4.0, 1e-9);
        // Every answer equal.
        Answers same;
        for (int j = 0; j < 4; ++j)
            for (int w = 0; w < 3; ++w) same.add(j, w, 7.5);
        f = fit(method, same);
        for (double v : f.value) assert_near(v, 7.5, 1e-9);
        // An item without answers (items = 3): the mean of all answers, the note.
        f = fit(method, crowd_h(), {{"items", "4"}});
        assert_near(f.value[3], 21.0 / 6.0, 1e-12);
        assert_true(f.notes & CS_NOTE_UNLABELED_ITEMS);
        // Huge but finite values.
        Answers big;
        big.add(0, 0, 1e100); big.add(0, 1, -1e100); big.add(1, 0, 1e99); big.add(1, 1, 0.0);
        f = fit(method, big);
        (void)f;
    }
}

void test_errors(void **) {
    cs_model *m = cs_create();
    const Answers a = crowd_h();
    assert_int_equal(cs_fit_numbers(nullptr, a.item.data(), a.worker.data(), a.value.data(), 6), CS_ERR_NULL_HANDLE);
    assert_int_equal(cs_fit_numbers(m, nullptr, a.worker.data(), a.value.data(), 6), CS_ERR_NULL_POINTER);
    assert_int_equal(cs_fit_numbers(m, a.item.data(), a.worker.data(), a.value.data(), 0), CS_ERR_EMPTY_INPUT);
    Answers bad = a;
    bad.value[4] = std::nan("");
    assert_int_equal(cs_fit_numbers(m, bad.item.data(), bad.worker.data(), bad.value.data(), 6), CS_ERR_NON_FINITE);
    assert_non_null(std::strstr(cs_last_error(m), "answer index 4"));
    bad = a;
    bad.value[1] = 1e101;
    assert_int_equal(cs_fit_numbers(m, bad.item.data(), bad.worker.data(), bad.value.data(), 6), CS_ERR_NON_FINITE);
    bad = a;
    bad.worker[2] = -1;
    assert_int_equal(cs_fit_numbers(m, bad.item.data(), bad.worker.data(), bad.value.data(), 6), CS_ERR_INVALID_ID);
    Answers dup = a;
    dup.add(0, 1, 9.0);
    assert_int_equal(cs_fit_numbers(m, dup.item.data(), dup.worker.data(), dup.value.data(), 7), CS_ERR_DUPLICATE);
    assert_non_null(std::strstr(cs_last_error(m), "indices 1 and 6"));
    assert_int_equal(cs_set_param_string(m, "duplicates", "last"), CS_OK);
    assert_int_equal(cs_set_param_string(m, "method", "mean"), CS_OK);
    assert_int_equal(cs_fit_numbers(m, dup.item.data(), dup.worker.data(), dup.value.data(), 7), CS_OK);
    double v[3], se[3];
    assert_int_equal(cs_number_estimates(m, v, se, 3), CS_OK);
    assert_near(v[0], (1.0 + 9.0 + 6.0) / 3.0, 1e-12);
    assert_int_equal(cs_number_estimates(m, v, se, 2), CS_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(cs_n_tags(m, nullptr), CS_ERR_NULL_POINTER);
    size_t nt = 0;
    assert_int_equal(cs_n_tags(m, &nt), CS_ERR_WRONG_INPUT_KIND);
    // A crowd method does not take numbers.
    assert_int_equal(cs_set_param_string(m, "method", "ds"), CS_OK);
    assert_int_equal(cs_fit_numbers(m, a.item.data(), a.worker.data(), a.value.data(), 6), CS_ERR_WRONG_INPUT_KIND);
    assert_int_equal(cs_number_estimates(m, v, se, 3), CS_ERR_NOT_FITTED);
    // Parameter ranges.
    assert_int_equal(cs_set_param_string(m, "t_dof", "0.1"), CS_ERR_PARAM_RANGE);
    assert_int_equal(cs_set_param_string(m, "catd_alpha", "0.7"), CS_ERR_PARAM_RANGE);
    assert_int_equal(cs_set_param_string(m, "trim_fraction", "0.5"), CS_ERR_PARAM_RANGE);
    cs_destroy(m);
}

// The default (auto) is student-t; the result does not depend on the order of the
// answers or on the thread count.
void test_default_and_determinism(void **) {
    cs::sim::NumbersSpec spec;
    spec.n_items = 40000;  // 240,000 answers: above the one-thread limit
    spec.answers_per_item = 6;
    spec.seed = 3;
    const cs::sim::NumericCrowd c = cs::sim::simulate_numbers(spec);
    Answers a = answers_of(c);
    for (const char *method : {"gaussian", "student-t", "catd", "crh"}) {
        const Fit one = fit(method, a, {{"threads", "1"}});
        const Fit four = fit(method, a, {{"threads", "4"}});
        assert_memory_equal(one.value.data(), four.value.data(), one.value.size() * sizeof(double));
        assert_memory_equal(one.noise.data(), four.noise.data(), one.noise.size() * sizeof(double));
    }
    const Fit def = fit(nullptr, a);
    const Fit robust = fit("student-t", a);
    assert_memory_equal(def.value.data(), robust.value.data(), def.value.size() * sizeof(double));
    const Fit gauss = fit("gaussian", a);
    // Reversed order of the answers.
    Answers r;
    for (std::size_t t = a.value.size(); t-- > 0;) r.add(a.item[t], a.worker[t], a.value[t]);
    const Fit rev = fit("gaussian", r);
    assert_memory_equal(rev.value.data(), gauss.value.data(), gauss.value.size() * sizeof(double));
}

int32_t cancel_at_two(void *, int32_t iteration, double) { return iteration >= 2 ? 1 : 0; }

void test_cancel(void **) {
    cs::sim::NumbersSpec spec;
    spec.seed = 5;
    const Answers a = answers_of(cs::sim::simulate_numbers(spec));
    cs_model *m = model_with("gaussian", {{"tol", "0"}});
    cs_set_progress(m, cancel_at_two, nullptr);
    assert_int_equal(cs_fit_numbers(m, a.item.data(), a.worker.data(), a.value.data(), a.value.size()),
                     CS_ERR_CANCELLED);
    int32_t it = 0, conv = 1;
    cs_iterations(m, &it);
    cs_converged(m, &conv);
    assert_int_equal(it, 2);
    assert_int_equal(conv, 0);
    std::vector<double> v(2000);
    assert_int_equal(cs_number_estimates(m, v.data(), nullptr, v.size()), CS_OK);
    cs_destroy(m);
}

}  // namespace

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mean_median_by_hand), cmocka_unit_test(test_gaussian_one_round),
        cmocka_unit_test(test_catd_crh_one_round),  cmocka_unit_test(test_catd_quantiles),
        cmocka_unit_test(test_simulated_recovery),  cmocka_unit_test(test_outliers),
        cmocka_unit_test(test_degenerate),          cmocka_unit_test(test_errors),
        cmocka_unit_test(test_default_and_determinism), cmocka_unit_test(test_cancel),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
