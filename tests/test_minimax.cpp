// SPDX-License-Identifier: MIT
// minimax-entropy, ordinal-minimax and ordinal-ds (issue 36), and the posterior grades:
// hand-computed cases, the optimality of the fit checked independently of the code
// under test (eq. 5 recomputed here, the gradient of F by finite differences), K = 2
// where the ordinal and categorical models coincide, degenerate inputs, and recovery on
// crowds simulated from the ordered-logit model.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "support/cmocka_cpp.hpp"
#include "support/fit_helpers.hpp"
#include "crowd/minimax/minimax_entropy.hpp"
#include "crowd/minimax/minimax_model.hpp"
#include "crowd/minimax/ordinal_ds.hpp"
#include "crowd/voting/majority_vote.hpp"
#include "data/crowd_data.hpp"
#include "util/rng.hpp"

namespace {

cs::CrowdData build(const test::Triples &t, int32_t classes = 0, int32_t items = 0) {
    cs::FitOptions o;
    o.classes = classes;
    o.items = items;
    return cs::CrowdData::build(t.item.data(), t.worker.data(), t.label.data(), t.size(), o);
}

// A small noisy crowd: 6 items, 4 workers, k classes; worker 3 answers at random.
test::Triples small_crowd(int32_t k) {
    test::Triples t;
    const int32_t truth[] = {0, 1, 1, 0, 1, 0};
    cs::Rng rng(7);
    for (int32_t j = 0; j < 6; ++j)
        for (int32_t i = 0; i < 4; ++i) {
            int32_t x = truth[j] % k;
            if (i == 3 || rng.uniform() < 0.2) x = static_cast<int32_t>(rng.below(static_cast<uint64_t>(k)));
            t.add(j, i, x);
        }
    return t;
}

// Eq. 5 written out here: log P(x | c) of each label under the fitted parameters, with
// the ordinal map of eq. 11 (sigma(c, x) = sum_s theta_s[2 [c >= s] + [x >= s]]).
double log_p(const cs::MinimaxSpec &spec, const std::vector<double> &params, int32_t n_workers, int32_t i, int32_t j,
             int32_t c, int32_t x) {
    const int32_t k = spec.k, b = spec.block();
    const double *w = params.data() + static_cast<std::size_t>(i) * b;
    const double *v = params.data() + static_cast<std::size_t>(n_workers + j) * b;
    auto logit = [&](int32_t y) {
        if (!spec.ordinal) return w[c * k + y] + v[c * k + y];
        double s = 0.0;
        for (int32_t r = 1; r < k; ++r) {
            const int32_t idx = (r - 1) * 4 + 2 * (c >= r) + (y >= r);
            s += w[idx] + v[idx];
        }
        return s;
    };
    double z = 0.0;
    for (int32_t y = 0; y < k; ++y) z += std::exp(logit(y));
    return logit(x) - std::log(z);
}

// F of the header comment (penalised marginal log-likelihood, uniform prior).
double objective(const cs::CrowdData &data, const cs::MinimaxSpec &spec, const std::vector<double> &params,
                 std::vector<double> *q = nullptr) {
    const int32_t k = data.k, b = spec.block();
    double f = 0.0;
    for (int32_t j = 0; j < data.n_items; ++j) {
        std::vector<double> a(static_cast<std::size_t>(k), 0.0);
        for (int64_t p = data.item_start[j]; p < data.item_start[j + 1]; ++p)
            for (int32_t c = 0; c < k; ++c)
                a[c] += log_p(spec, params, data.n_workers, data.worker_of(p), j, c, data.label_of(p));
        const double top = *std::max_element(a.begin(), a.end());
        double z = 0.0;
        for (double v : a) z += std::exp(v - top);
        if (data.item_start[j + 1] > data.item_start[j]) f += top + std::log(z) - std::log(static_cast<double>(k));
        if (q)
            for (int32_t c = 0; c < k; ++c) (*q)[static_cast<std::size_t>(j) * k + c] = std::exp(a[c] - top) / z;
    }
    for (std::size_t e = 0; e < params.size(); ++e) {
        const double weight = static_cast<int64_t>(e) < static_cast<int64_t>(data.n_workers) * b ? spec.alpha : spec.beta;
        f -= 0.5 * weight * params[e] * params[e];
    }
    return f;
}

// tol = 0: neither stopping rule (relative change, posteriors' movement) applies, so
// L-BFGS runs until no descent is left at machine precision (or max_iter).
cs::MinimaxFit fit_model(const cs::CrowdData &data, bool ordinal, double gamma, int32_t max_iter = 2000) {
    cs::FitOptions o;
    o.max_iter = max_iter;
    o.tol = 0.0;
    return cs::fit_minimax_model(data, cs::minimax_spec(data, ordinal, gamma), o, cs::Progress(),
                                 cs::soft_majority_vote(data));
}

// The fit is a stationary point of F (central differences, every parameter), its trace
// ends at F, and its posteriors are Bayes' rule under eq. 5, all recomputed here.
void check_optimality(bool ordinal, int32_t k) {
    const cs::CrowdData data = build(small_crowd(k), k);
    const cs::MinimaxSpec spec = cs::minimax_spec(data, ordinal, 0.5);
    const cs::MinimaxFit fit = fit_model(data, ordinal, 0.5);
    assert_true(fit.converged);
    std::vector<double> q(fit.posteriors.size());
    const double f = objective(data, spec, fit.params, &q);
    assert_near(fit.trace.back(), f, 1e-9 * std::fabs(f));
    for (std::size_t e = 0; e < q.size(); ++e) assert_near(fit.posteriors[e], q[e], 1e-10);
    for (std::size_t t = 1; t < fit.trace.size(); ++t) assert_true(fit.trace[t] >= fit.trace[t - 1] - 1e-12);
    std::vector<double> x = fit.params;
    const double h = 1e-5;
    double worst = 0.0;
    for (std::size_t e = 0; e < x.size(); ++e) {
        const double keep = x[e];
        x[e] = keep + h;
        const double up = objective(data, spec, x);
        x[e] = keep - h;
        const double down = objective(data, spec, x);
        x[e] = keep;
        worst = std::max(worst, std::fabs((up - down) / (2 * h)));
    }
    assert_true(worst < 1e-4);
}

void categorical_fit_is_stationary(void **) {
    check_optimality(false, 2);
    check_optimality(false, 3);
}

void ordinal_fit_is_stationary(void **) { check_optimality(true, 4); }

// One label (worker 0 says 0 on item 0), k = 2, gamma = 1: alpha = 4 and, with one item
// and one worker, beta = 4. The start (Algorithm 1's first M-step with the item matrices
// at 0) from the vote q = (1, 0) moves only row 0 of sigma (row 1 has no weight, so the
// penalty keeps it 0): by symmetry sigma(0,0) = -sigma(0,1) = a, and the stationarity
// condition 4a = P(1 | 0) gives the logit gap d = 2a = P(1 | 0) / 2 = 1 / (2 (1 + e^d)),
// d = 0.2223 (solved below by bisection). After the start alone (max_iter = 0)
// P(0 | 0) = 1 / (1 + e^-d), P(0 | 1) = 1/2, so q_0 = P(0|0) / (P(0|0) + 1/2). The full fit
// maximises log((P(0|0) + P(0|1)) / 2) minus the penalties, symmetric in the two rows with
// a concave sigmoid: the optimum gives both rows the same gap and the posterior (1/2, 1/2).
void one_label_by_hand(void **) {
    double lo = 0.0, hi = 1.0;
    for (int it = 0; it < 100; ++it) {
        const double mid = 0.5 * (lo + hi);
        (mid < 0.5 / (1.0 + std::exp(mid)) ? lo : hi) = mid;
    }
    const double d = 0.5 * (lo + hi);
    assert_near(d, 0.2223, 1e-4);
    test::Triples t;
    t.add(0, 0, 0);
    const cs::CrowdData data = build(t, 2);
    const cs::MinimaxFit start = fit_model(data, false, 1.0, 0);
    const double p00 = 1.0 / (1.0 + std::exp(-d));
    assert_near(start.posteriors[0], p00 / (p00 + 0.5), 1e-6);
    assert_int_equal(start.iterations, 0);
    assert_false(start.converged);
    const cs::MinimaxFit full = fit_model(data, false, 1.0);
    assert_near(full.posteriors[0], 0.5, 1e-6);
    assert_near(full.posteriors[1], 0.5, 1e-6);
}

// For k = 2 the ordinal model is the categorical one (four parameters, one per cell).
void two_classes_ordinal_is_categorical(void **) {
    const cs::CrowdData data = build(small_crowd(2), 2);
    const cs::MinimaxFit a = fit_model(data, false, 1.0), b = fit_model(data, true, 1.0);
    for (std::size_t e = 0; e < a.posteriors.size(); ++e) assert_near(a.posteriors[e], b.posteriors[e], 1e-6);
    assert_near(a.trace.back(), b.trace.back(), 1e-8 * std::fabs(a.trace.back()));
}

// Cross-validation: one finite score per candidate, the same for the same seed, and the
// chosen gamma is the best-scoring candidate.
void cross_validation(void **) {
    const cs::CrowdData data = build(small_crowd(3), 3);
    cs::FitOptions o;
    o.seed = 3;
    const std::vector<double> s = cs::minimax_cv_scores(data, o, false, 5);
    assert_int_equal(s.size(), 5);
    for (double v : s) assert_true(std::isfinite(v) && v < 0.0);
    assert_true(s == cs::minimax_cv_scores(data, o, false, 5));
    const double g = cs::minimax_gamma(data, o, false);
    const std::size_t best = static_cast<std::size_t>(std::max_element(s.begin(), s.end()) - s.begin());
    assert_near(g, cs::minimax_gamma_grid()[best], 0.0);
    o.gamma = 3.0;
    assert_near(cs::minimax_gamma(data, o, false), 3.0, 0.0);
    // Too few labels to hold any out: the documented default.
    test::Triples one;
    one.add(0, 0, 1);
    o.gamma = 0.0;
    assert_near(cs::minimax_gamma(build(one, 2), o, false), cs::kMinimaxDefaultGamma, 0.0);
}

// The ordered-logit row by hand: b = 0, s = 1, t_1 = 1/2 (k = 2): P(0 | 0) = F(1/2) =
// 0.6224593, P(0 | 1) = F(-1/2) = 0.3775407; with b = 1 the worker grades one higher:
// P(0 | 0) = F(-1/2).
void ordered_logit_by_hand(void **) {
    double row[2];
    cs::ordered_logit_row(0, 0.0, 1.0, {0.5}, row);
    assert_near(row[0], 0.6224593312, 1e-9);
    assert_near(row[1], 0.3775406688, 1e-9);
    cs::ordered_logit_row(1, 0.0, 1.0, {0.5}, row);
    assert_near(row[0], 0.3775406688, 1e-9);
    cs::ordered_logit_row(0, 1.0, 1.0, {0.5}, row);
    assert_near(row[0], 0.3775406688, 1e-9);
    // k = 3, c = 1, b = 0, s = 1/2, t = (1/2, 3/2): F(-1) = 0.2689414, then
    // F(1) - F(-1) = 0.4621172, 1 - F(1) = 0.2689414.
    double row3[3];
    cs::ordered_logit_row(1, 0.0, 0.5, {0.5, 1.5}, row3);
    assert_near(row3[0], 0.2689414214, 1e-9);
    assert_near(row3[1], 0.4621171573, 1e-9);
    assert_near(row3[2], 0.2689414214, 1e-9);
}

// An ordered-logit crowd: 60 workers with biases in [-0.8, 0.8] and noises in
// [0.25, 1], 2000 items of 5 grades, 10 workers each.
struct OrdinalCrowd {
    test::Triples labels;
    std::vector<int32_t> truth;
    std::vector<double> bias, noise;
};

OrdinalCrowd ordinal_crowd(uint64_t seed) {
    OrdinalCrowd o;
    const int32_t k = 5, m = 60, n = 2000, per_item = 10;
    cs::Rng rng(seed);
    for (int32_t i = 0; i < m; ++i) {
        o.bias.push_back(-0.8 + 1.6 * rng.uniform());
        o.noise.push_back(0.25 + 0.75 * rng.uniform());
    }
    for (int32_t j = 0; j < n; ++j) {
        const int32_t c = static_cast<int32_t>(rng.below(k));
        o.truth.push_back(c);
        std::vector<int32_t> who(static_cast<std::size_t>(m));
        for (int32_t i = 0; i < m; ++i) who[i] = i;
        for (int32_t r = 0; r < per_item; ++r) {  // a partial Fisher-Yates: 10 distinct workers
            const int32_t pick = r + static_cast<int32_t>(rng.below(static_cast<uint64_t>(m - r)));
            std::swap(who[r], who[pick]);
            const int32_t i = who[r];
            const double u = std::max(1e-12, std::min(1.0 - 1e-12, rng.uniform()));
            const double y = c + o.bias[i] + o.noise[i] * std::log(u / (1.0 - u));  // logistic noise
            int32_t x = 0;
            while (x < k - 1 && y > x + 0.5) ++x;
            o.labels.add(j, i, x);
        }
    }
    return o;
}

double error_of(const std::vector<int32_t> &labels, const std::vector<int32_t> &truth, bool absolute) {
    double e = 0.0;
    for (std::size_t j = 0; j < truth.size(); ++j)
        e += absolute ? std::abs(labels[j] - truth[j]) : (labels[j] != truth[j]);
    return e / static_cast<double>(truth.size());
}

// ordinal-ds recovers each worker's bias and noise, and both ordinal methods beat the
// majority vote in error rate and absolute error.
void ordinal_recovery(void **) {
    const OrdinalCrowd o = ordinal_crowd(11);
    const cs::CrowdData data = build(o.labels, 5);
    cs::FitOptions options;
    options.method = CS_METHOD_ORDINAL_DS;
    cs::FitResult r;
    r.n_items = data.n_items;
    r.n_workers = data.n_workers;
    r.k = data.k;
    cs::OrdinalScale scale;
    cs::fit_ordinal_ds_scale(data, options, cs::Progress(), r, &scale);
    // About 333 labels a worker: the standard error of a bias is about 0.1 for the
    // noisiest workers (s = 1, five grades censor the scale), so the largest of 60 errors
    // reaches 3-4 of them; the means are the sharp check.
    double bias_max = 0.0, noise_max = 0.0, bias_mean = 0.0, noise_mean = 0.0;
    for (std::size_t i = 0; i < o.bias.size(); ++i) {
        const double db = std::fabs(scale.bias[i] - o.bias[i]), ds = std::fabs(scale.noise[i] / o.noise[i] - 1.0);
        bias_max = std::max(bias_max, db);
        noise_max = std::max(noise_max, ds);
        bias_mean += db / static_cast<double>(o.bias.size());
        noise_mean += ds / static_cast<double>(o.bias.size());
    }
    print_message("ordinal-ds recovery: |b - b_true| mean %.3f, largest %.3f; |s / s_true - 1| mean %.3f, largest %.3f\n",
                  bias_mean, bias_max, noise_mean, noise_max);
    assert_true(bias_mean < 0.1 && bias_max < 0.5);
    assert_true(noise_mean < 0.08 && noise_max < 0.3);
    for (std::size_t l = 0; l < scale.thresholds.size(); ++l) assert_near(scale.thresholds[l], l + 0.5, 0.1);
    for (std::size_t t = 1; t < r.trace.size(); ++t) assert_true(r.trace[t] >= r.trace[t - 1] - 1e-9 * std::fabs(r.trace[t]));

    test::Model mv = test::make_model("mv");
    assert_int_equal(test::fit(mv.get(), o.labels), CS_OK);
    const std::vector<int32_t> vote = test::labels(mv.get());
    const double mv_error = error_of(vote, o.truth, false), mv_abs = error_of(vote, o.truth, true);
    const double ds_error = error_of(r.labels, o.truth, false), ds_abs = error_of(r.labels, o.truth, true);
    test::Model om = test::make_model("ordinal-minimax");
    cs_set_double(om.get(), CS_PARAM_GAMMA, 1.0);
    assert_int_equal(test::fit(om.get(), o.labels), CS_OK);
    const std::vector<int32_t> mm = test::labels(om.get());
    const double mm_error = error_of(mm, o.truth, false), mm_abs = error_of(mm, o.truth, true);
    print_message("error / absolute error: mv %.4f / %.4f, ordinal-ds %.4f / %.4f, ordinal-minimax %.4f / %.4f\n",
                  mv_error, mv_abs, ds_error, ds_abs, mm_error, mm_abs);
    assert_true(ds_error < mv_error - 0.03 && ds_abs < mv_abs - 0.03);
    assert_true(mm_error < mv_error && mm_abs < mv_abs);
}

// The grades of the public API, by hand: mv on item 0 = votes (0, 1, 1) of k = 3 gives
// q = (1/3, 2/3, 0): median grade 1, mean 2/3; item 1 = votes (2, 0): q = (1/2, 0, 1/2):
// the cumulative posterior reaches 1/2 at grade 0, mean 1.
void grades_by_hand(void **) {
    test::Triples t;
    t.add(0, 0, 0);
    t.add(0, 1, 1);
    t.add(0, 2, 1);
    t.add(1, 0, 2);
    t.add(1, 1, 0);
    test::Model m = test::make_model("mv");
    assert_int_equal(test::fit(m.get(), t), CS_OK);
    int32_t median[2];
    double mean[2];
    assert_int_equal(cs_median_grades(m.get(), median, 2), CS_ERR_INVALID_ARGUMENT);  // unordered classes
    assert_int_equal(cs_set_int(m.get(), CS_PARAM_ORDINAL, 1), CS_OK);
    assert_int_equal(test::fit(m.get(), t), CS_OK);
    assert_int_equal(cs_median_grades(m.get(), median, 1), CS_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(cs_median_grades(m.get(), nullptr, 2), CS_ERR_NULL_POINTER);
    assert_int_equal(cs_median_grades(m.get(), median, 2), CS_OK);
    assert_int_equal(cs_mean_grades(m.get(), mean, 2), CS_OK);
    assert_int_equal(median[0], 1);
    assert_near(mean[0], 2.0 / 3.0, 1e-15);
    assert_int_equal(median[1], 0);
    assert_near(mean[1], 1.0, 1e-15);
    // The ordinal methods give grades without the parameter.
    test::Model o = test::make_model("ordinal-ds");
    assert_int_equal(test::fit(o.get(), t), CS_OK);
    assert_int_equal(cs_median_grades(o.get(), median, 2), CS_OK);
    assert_int_equal(cs_mean_grades(o.get(), mean, 2), CS_OK);
    assert_true(mean[0] >= 0.0 && mean[0] <= 2.0);
    test::Model fresh = test::make_model("ordinal-ds");
    assert_int_equal(cs_mean_grades(fresh.get(), mean, 2), CS_ERR_NOT_FITTED);
}

// Degenerate inputs through the public API for each new method: one worker; a class
// nobody chose (k = 4 declared, labels 0 and 1); unanimous items; items without labels
// (items = 6 declared, 2..5 unlabelled). Every output finite, rows summing to 1,
// unlabelled items at the class prior (uniform for the minimax models), labels the argmax.
void degenerate_inputs(void **) {
    for (const char *method : {"minimax-entropy", "ordinal-minimax", "ordinal-ds"}) {
        test::Triples one_worker;
        one_worker.add(0, 0, 0);
        one_worker.add(1, 0, 1);
        test::Triples unanimous;
        for (int32_t i = 0; i < 3; ++i) {
            unanimous.add(0, i, 1);
            unanimous.add(1, i, 0);
        }
        struct Case {
            const test::Triples *t;
            int32_t classes, items;
        };
        const Case cases[] = {{&one_worker, 0, 0}, {&one_worker, 4, 6}, {&unanimous, 0, 0}, {&unanimous, 3, 4}};
        for (const Case &c : cases) {
            test::Model m = test::make_model(method);
            cs_set_int(m.get(), CS_PARAM_CLASSES, c.classes);
            cs_set_int(m.get(), CS_PARAM_ITEMS, c.items);
            assert_int_equal(test::fit(m.get(), *c.t), CS_OK);
            std::size_t n = 0, k = 0;
            cs_n_items(m.get(), &n);
            cs_n_classes(m.get(), &k);
            const std::vector<double> q = test::posteriors(m.get()), pi = test::confusion(m.get());
            const std::vector<int32_t> labels = test::labels(m.get());
            std::vector<double> prior(k);
            assert_int_equal(cs_class_prior(m.get(), prior.data(), k), CS_OK);
            if (std::string(method) != "ordinal-ds")  // the minimax models' prior is uniform
                for (double w : prior) assert_near(w, 1.0 / k, 1e-15);
            for (std::size_t j = 0; j < n; ++j) {
                double sum = 0.0;
                for (std::size_t l = 0; l < k; ++l) {
                    assert_true(std::isfinite(q[j * k + l]));
                    sum += q[j * k + l];
                    if (j >= 2) assert_near(q[j * k + l], prior[l], 1e-12);  // no labels: the class prior
                }
                assert_near(sum, 1.0, 1e-12);
                assert_true(q[j * k + labels[j]] >= *std::max_element(q.begin() + j * k, q.begin() + (j + 1) * k));
            }
            for (double v : pi) assert_true(std::isfinite(v) && v >= 0.0 && v <= 1.0);
            double ll = 0.0;
            assert_int_equal(cs_log_likelihood(m.get(), &ll), CS_OK);
            assert_true(std::isfinite(ll));
            // A unanimous crowd keeps its classes (for the minimax methods through the
            // degenerate-maximum fallback: on six labels the penalties make every class
            // explain them alike). Not asserted for ordinal-minimax with classes nobody
            // chose: on six labels its tied rows put an item between the grades.
            const bool skip = std::string(method) == "ordinal-minimax" && c.classes > 2;
            if (c.t == &unanimous && !skip) {
                assert_int_equal(labels[0], 1);
                assert_int_equal(labels[1], 0);
            }
        }
    }
}

// Workers' confusion matrices for two classes from hand-set parameters, where the pass
// for K = 2 takes P(1 | c) = o / (1 + o) from the product of the worker's and the item's
// odds, and from the logit difference d when that product leaves 1e+-100 (or is not a
// number: e^800 times e^-790 is infinity times 0 in doubles). Matrices (rows c = 0, 1;
// columns x = 0, 1): worker 0 [0, -300; 0, 2], worker 1 [0, -300; 0, 800], item 0
// [0, 0.5; 0, -790], item 1 [0, 400; 0, -1]. Labels: worker 0 on items 0 and 1, worker 1
// on item 0. So worker 0 has d = -299.5 and 100 (row 0), -788 and 1 (row 1), worker 1
// d = -299.5 (row 0) and 10 (row 1); each confusion row is the mean over the worker's
// labels of (1 - P(1 | c), P(1 | c)), P(1 | c) = 1 / (1 + e^-d).
void two_class_confusion_by_hand(void **) {
    test::Triples t;
    t.add(0, 0, 0);
    t.add(1, 0, 1);
    t.add(0, 1, 1);
    const cs::CrowdData data = build(t, 2);
    const cs::MinimaxSpec spec = cs::minimax_spec(data, false, 1.0);
    const std::vector<double> params = {0, -300, 0, 2,    0, -300, 0, 800,  // workers
                                        0, 0.5,  0, -790, 0, 400,  0, -1};  // items
    const std::vector<double> pi = cs::minimax_confusion(data, spec, params, 1);
    auto logistic = [](double d) { return 1.0 / (1.0 + std::exp(-d)); };
    assert_int_equal(pi.size(), 8);
    // Worker 1: e^-299.5 / (1 + e^-299.5) to full relative precision, and d = 10.
    assert_near(pi[5] / std::exp(-299.5), 1.0, 1e-12);
    assert_near(pi[4], 1.0, 1e-15);
    assert_near(pi[7], logistic(10.0), 1e-15);
    assert_near(pi[6], 1.0 - logistic(10.0), 1e-15);
    // Worker 0: row 0 the mean of e^-299.5 and 1 - e^-100 (odds e^-300 times e^400).
    assert_near(pi[1], 0.5, 1e-15);
    assert_near(pi[0], 0.5, 1e-15);
    assert_near(pi[3], 0.5 * logistic(1.0), 1e-15);
    assert_near(pi[2], 0.5 * (2.0 - logistic(1.0)), 1e-15);
    for (double v : pi) assert_true(std::isfinite(v));
}

}  // namespace

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(categorical_fit_is_stationary), cmocka_unit_test(ordinal_fit_is_stationary),
        cmocka_unit_test(one_label_by_hand),            cmocka_unit_test(two_classes_ordinal_is_categorical),
        cmocka_unit_test(cross_validation),             cmocka_unit_test(ordered_logit_by_hand),
        cmocka_unit_test(ordinal_recovery),             cmocka_unit_test(grades_by_hand),
        cmocka_unit_test(degenerate_inputs),            cmocka_unit_test(two_class_confusion_by_hand),
    };
    return cmocka_run_group_tests_name("minimax", tests, nullptr, nullptr);
}
