// SPDX-License-Identifier: MIT
// Issue 34: a classifier's probabilities as a soft-labelling Dawid-Skene worker, the
// crowdlab method, the "label next" / "check this label" scores and the worker
// diagnostics. Hand-computed cases (the crowdlab numbers from an independent numpy
// script of the paper's formulas, reproduced in the comment of its test; Beta
// quantiles from scipy.stats.beta.ppf) and simulated crowds with known truth.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "crowd/calibration/calibration.hpp"
#include "crowd/diagnostics/worker_diagnostics.hpp"
#include "crowd/em/dawid_skene.hpp"
#include "crowd/em/model_worker.hpp"
#include "crowd/soft_counts.hpp"
#include "data/crowd_data.hpp"
#include "support/cmocka_cpp.hpp"
#include "support/fit_helpers.hpp"
#include "support/model_sim.hpp"
#include "util/parallel.hpp"
#include "util/simd_quad.hpp"

namespace {

void set(cs_model *m, const char *name, const char *value) {
    assert_int_equal(cs_set_param_string(m, name, value), CS_OK);
}

cs_status fit_with(cs_model *m, const test::Triples &t) {
    const cs_status s = test::fit(m, t);
    if (s != CS_OK) print_error("fit: %s\n", cs_last_error(m));
    return s;
}

using test::error_rate;
using test::model_argmax;
using test::Sim;

constexpr auto simulate = test::simulate_with_model;

// The crowd of a simulation with its classifier's rows attached (they point into s).
cs::CrowdData data_with_model(const Sim &s, const cs::FitOptions &options) {
    cs::CrowdData d = cs::CrowdData::build(s.crowd.item.data(), s.crowd.worker.data(), s.crowd.label.data(),
                                           s.crowd.size(), options);
    d.model_probs = s.probs.data();
    return d;
}

// (a) A model right 90 % of the time on classes 0 and 1 but calling every item of class
// 2 "class 1" with confidence 0.9: EM's confusion matrix of the model shows it (row 2
// puts its mass on column 1), the three workers outvote it on class 2, and the model
// still helps where it is right: the fit beats both the crowd alone and the model alone.
void model_wrong_on_one_class_is_outvoted(void **) {
    const Sim s = simulate(900, 3, 3, 0.65, 0.9, 2, 7);
    for (const char *method : {"ds", "auto"}) {
        test::Model crowd = test::make_model(method);
        assert_int_equal(fit_with(crowd.get(), s.crowd), CS_OK);
        test::Model both = test::make_model(method);
        assert_int_equal(cs_set_model_probs(both.get(), nullptr, s.probs.data(), s.n_items, s.k), CS_OK);
        assert_int_equal(fit_with(both.get(), s.crowd), CS_OK);
        std::vector<double> pi(9);
        assert_int_equal(cs_model_confusion(both.get(), pi.data(), pi.size()), CS_OK);
        assert_true(pi[2 * 3 + 1] > 0.8);  // class 2 -> "1": the matrix shows the model's error
        assert_true(pi[0 * 3 + 0] > 0.8 && pi[1 * 3 + 1] > 0.8);
        const double e_crowd = error_rate(test::labels(crowd.get()), s.truth);
        const double e_model = error_rate(model_argmax(s), s.truth);
        const double e_both = error_rate(test::labels(both.get()), s.truth);
        const double e_both_bad = error_rate(test::labels(both.get()), s.truth, 2);
        const double e_crowd_bad = error_rate(test::labels(crowd.get()), s.truth, 2);
        print_message("%s: crowd %.3f model %.3f both %.3f; class 2: crowd %.3f both %.3f\n", method, e_crowd,
                      e_model, e_both, e_crowd_bad, e_both_bad);
        assert_true(e_both < e_crowd - 0.03);
        assert_true(e_both < e_model - 0.1);
        assert_true(e_both_bad <= e_crowd_bad + 0.05);  // outvoted: about the crowd's error there
        assert_true(e_model > 0.3);                      // (the model alone misses every class-2 item)
    }
}

// The classifier's row objective f_t(pi) = sum_j q_j(t) log L_j(t) + a sum_o log pi[t][o]
// (model_worker.hpp), summed over t: what its M-step maximises for fixed posteriors.
double classifier_objective(const cs::CrowdData &d, const std::vector<double> &q, const std::vector<double> &pi,
                            double a) {
    const int32_t k = d.k;
    double f = 0.0;
    for (int32_t t = 0; t < k; ++t) {
        for (int32_t o = 0; o < k; ++o) f += a * std::log(pi[t * k + o]);
        for (int32_t j = 0; j < d.n_items; ++j) {
            double like = 0.0;
            for (int32_t o = 0; o < k; ++o) like += d.model_probs[j * k + o] * pi[t * k + o];
            f += q[j * k + t] * std::log(like);
        }
    }
    return f;
}

// settle_model_confusion solves the classifier's M-step instead of stepping it once: from
// EM's one step it reaches the fixed point of EM's pass (one more pass moves no entry by
// more than 1e-8) with an objective at least the one step's, by Newton's method for the
// full matrix (k = 2, 3, 5) and by repeated passes for the one-coin models; and a fit
// given a classifier converges in fewer rounds (EM crept towards the classifier's matrix
// by a few per cent a round).
void classifier_matrix_is_solved_not_stepped(void **) {
    for (int32_t k : {2, 3, 5}) {
        for (int32_t confusion : {CS_CONFUSION_FULL, CS_CONFUSION_ONE_COIN, CS_CONFUSION_CLASS_ONE_COIN}) {
            const Sim s = simulate(600, k, 4, 0.7, 0.85, k - 1, 11 + static_cast<uint32_t>(k));
            cs::FitOptions options;
            options.confusion = confusion;
            cs::CrowdData d = data_with_model(s, options);
            // posteriors leaning to the truth, as a fit's would
            std::mt19937 rng(5);
            std::uniform_real_distribution<double> u(0.0, 1.0);
            std::vector<double> q(static_cast<std::size_t>(d.n_items) * k);
            for (int32_t j = 0; j < d.n_items; ++j) {
                double mass = 0.0;
                for (int32_t t = 0; t < k; ++t) mass += q[j * k + t] = u(rng) + (t == s.truth[j] ? 3.0 : 0.0);
                for (int32_t t = 0; t < k; ++t) q[j * k + t] /= mass;
            }
            std::vector<double> counts, one_step, solved, again;
            cs::model_counts(d, q.data(), {}, counts);  // from a uniform pi_M, as a posterior start
            cs::model_m_step(counts, k, options, one_step);
            solved = one_step;
            cs::settle_model_confusion(d, q.data(), options, solved);
            cs::model_counts(d, q.data(), solved, counts);
            cs::model_m_step(counts, k, options, again);
            double moved = 0.0, stepped = 0.0;
            for (std::size_t e = 0; e < again.size(); ++e) {
                moved = std::max(moved, std::fabs(again[e] - solved[e]));
                stepped = std::max(stepped, std::fabs(solved[e] - one_step[e]));
            }
            print_message("k %d, confusion %d: one step moved %.3g short of the fixed point; after solving, one "
                          "more pass moves %.3g\n", k, confusion, stepped, moved);
            assert_true(moved <= 1e-8);
            assert_true(stepped > 1e-3);  // the single step was short of it
            if (confusion == CS_CONFUSION_FULL) {
                const double a = options.smoothing + 1.0 / k;
                assert_true(classifier_objective(d, q, solved, a) >= classifier_objective(d, q, one_step, a));
            }
        }
    }
    const Sim s = simulate(900, 3, 3, 0.65, 0.85, 2, 8);
    for (const char *method : {"ds", "auto"}) {
        test::Model both = test::make_model(method);
        set(both.get(), "calibration", "none");
        assert_int_equal(cs_set_model_probs(both.get(), nullptr, s.probs.data(), s.n_items, s.k), CS_OK);
        assert_int_equal(fit_with(both.get(), s.crowd), CS_OK);
        int32_t rounds = 0;
        assert_int_equal(cs_iterations(both.get(), &rounds), CS_OK);
        print_message("%s with a classifier: %d rounds, error %.3f\n", method, rounds,
                      error_rate(test::labels(both.get()), s.truth));
        assert_true(rounds <= 80);  // 106 (ds) and 116 (auto) with EM's single step; 68 and 34 solved
    }
}

// The classifier's matrix as a converged fit solves it: posteriors that are sure of most
// items (the other classes at 1e-30 .. 1e-13, which the solve leaves out of a row: at
// most 1e-12 of its weight) and unsure of a tenth (weights 0.05 .. 0.5, which it must
// keep). Whatever it leaves out, the result is the fixed point of EM's pass over every
// item to 1e-8 (a screen that left out every weight below 0.5 misses it by 4e-6 at k = 2);
// it is the same bits on one thread and on a team of two, and with the AVX2 sums at
// k = 4 and 5 as with the scalar ones.
void classifier_matrix_of_sure_posteriors(void **) {
    for (int32_t k : {2, 4, 5}) {
        const Sim s = simulate(3000, k, 4, 0.7, 0.85, k - 1, 21 + static_cast<uint32_t>(k));
        cs::FitOptions options;
        cs::CrowdData d = data_with_model(s, options);
        std::mt19937 rng(9);
        std::uniform_real_distribution<double> u(0.0, 1.0);
        std::vector<double> q(static_cast<std::size_t>(d.n_items) * k);
        for (int32_t j = 0; j < d.n_items; ++j) {
            const bool unsure = j % 10 == 0;
            double mass = 0.0;
            for (int32_t t = 0; t < k; ++t) {
                const double tiny = std::pow(10.0, -13.0 - 17.0 * u(rng));
                mass += q[j * k + t] = t == s.truth[j] ? 1.0 : unsure ? 0.05 + 0.45 * u(rng) : tiny;
            }
            for (int32_t t = 0; t < k; ++t) q[j * k + t] /= mass;
        }
        std::vector<double> counts, start, serial, on_team, scalar, again;
        cs::model_counts(d, q.data(), {}, counts);
        cs::model_m_step(counts, k, options, start);
        serial = on_team = scalar = start;
        cs::settle_model_confusion(d, q.data(), options, serial);
        cs::Team team(2);
        cs::settle_model_confusion(d, q.data(), options, on_team, &team);
        cs::FitOptions narrow = options;
        narrow.wide_kernels = false;
        cs::settle_model_confusion(d, q.data(), narrow, scalar);
        cs::model_counts(d, q.data(), serial, counts);
        cs::model_m_step(counts, k, options, again);
        double moved = 0.0;
        for (std::size_t e = 0; e < again.size(); ++e) moved = std::max(moved, std::fabs(again[e] - serial[e]));
        print_message("k %d: one more pass over every item moves %.3g\n", k, moved);
        assert_true(moved <= 1e-8);
        assert_memory_equal(serial.data(), on_team.data(), serial.size() * sizeof(double));
        assert_memory_equal(serial.data(), scalar.data(), serial.size() * sizeof(double));
#if defined(CS_HAVE_QUAD)
        if ((k == 4 || k == 5) && !cs::cpu_has_avx2())
            print_message("k %d: no AVX2 on this processor: the scalar sums against themselves\n", k);
#endif
    }
}

// A classifier's terms go through the same E-step kernels as the labels: at k = 3, 4 and
// 5 the AVX2 kernel gives the SSE2 kernel's fit bit for bit with them (posteriors, both
// confusion matrices, the log-likelihood of every round), on one thread and on two.
// The terms matter (the fits with and without the classifier differ), so a kernel that
// dropped them would fail the tests above; this one fails if the two kernels add them
// differently.
void classifier_terms_same_in_every_kernel(void **) {
    for (int32_t k : {3, 4, 5}) {
        const Sim s = simulate(2000, k, 5, 0.65, 0.8, k - 1, 41 + static_cast<uint32_t>(k));
        cs::FitOptions base;
        base.max_iter = 12;
        base.tol = 0.0;
        cs::CrowdData d = data_with_model(s, base);
        std::vector<cs::FitResult> fits;
        for (bool wide : {true, false})
            for (int threads : {1, 2}) {
                cs::FitOptions options = base;
                options.wide_kernels = wide;
                options.threads = threads;
                cs::FitResult out;
                assert_false(cs::fit_ds(d, options, cs::Progress(), out));
                assert_int_equal(out.iterations, base.max_iter);
                fits.push_back(std::move(out));
            }
        const auto same = [](const std::vector<double> &a, const std::vector<double> &b) {
            return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](double x, double y) {
                       return std::memcmp(&x, &y, sizeof x) == 0;
                   });
        };
        for (std::size_t f = 1; f < fits.size(); ++f) {
            assert_true(same(fits[0].posteriors, fits[f].posteriors));
            assert_true(same(fits[0].confusion, fits[f].confusion));
            assert_true(same(fits[0].model_confusion, fits[f].model_confusion));
            assert_true(same(fits[0].trace, fits[f].trace));
        }
        assert_int_equal(fits[0].model_confusion.size(), static_cast<std::size_t>(k) * k);
#if defined(CS_HAVE_QUAD)
        if (!cs::cpu_has_avx2()) print_message("k %d: no AVX2 on this processor: the SSE2 kernel twice\n", k);
#endif
    }
}

// The soft counts by label code that the calibration adds while it tempers (and the
// diagnostics take): in AVX2 registers at k = 4 and 5 the same bits as the scalar sums
// and as a plain sum over the labels in the same order.
void soft_counts_same_in_registers(void **) {
    for (int32_t k : {4, 5}) {
        const Sim s = simulate(3000, k, 6, 0.7, 0.85, k - 1, 61 + static_cast<uint32_t>(k));
        cs::FitOptions options;
        const cs::CrowdData d = data_with_model(s, options);
        std::mt19937 rng(3);
        std::uniform_real_distribution<double> u(0.0, 1.0);
        std::vector<double> q(static_cast<std::size_t>(d.n_items) * k);
        for (double &x : q) x = u(rng);
        const std::size_t table = static_cast<std::size_t>(d.n_workers) * k * k;
        std::vector<double> wide(table + k, 0.0), narrow(table + k, 0.0), plain(table + k, 0.0);
        const auto add = [&](std::vector<double> &t, bool in_registers) {
            // in two blocks, as the calibration adds them
            const int32_t half = d.n_items / 2;
            if (k == 4) {
                cs::add_soft_counts_of_items<4>(d, 0, half, k, q.data(), t.data(), t.data() + table, in_registers);
                cs::add_soft_counts_of_items<4>(d, half, d.n_items, k, q.data(), t.data(), t.data() + table,
                                                in_registers);
            } else {
                cs::add_soft_counts_of_items<5>(d, 0, half, k, q.data(), t.data(), t.data() + table, in_registers);
                cs::add_soft_counts_of_items<5>(d, half, d.n_items, k, q.data(), t.data(), t.data() + table,
                                                in_registers);
            }
        };
        add(wide, true);
        add(narrow, false);
        assert_memory_equal(wide.data(), narrow.data(), wide.size() * sizeof(double));
        // The plain sum, in the same order (items, then their labels): the same bits too.
        for (int32_t j = 0; j < d.n_items; ++j) {
            for (int32_t t = 0; t < k; ++t) plain[table + t] += q[j * k + t];
            for (int64_t p = d.item_start[j]; p < d.item_start[j + 1]; ++p)
                for (int32_t t = 0; t < k; ++t) plain[static_cast<std::size_t>(d.item_code[p]) * k + t] += q[j * k + t];
        }
        assert_memory_equal(plain.data(), wide.data(), wide.size() * sizeof(double));
#if defined(CS_HAVE_QUAD)
        if (!cs::cpu_has_avx2()) print_message("k %d: no AVX2 on this processor: the scalar sums twice\n", k);
#endif
    }
}

// Uniform model rows carry no information: the posteriors are those of the fit
// without a model (to rounding). A fixed number of rounds: the model's constant term
// log(1/k) per item shifts the log-likelihood, and so where the relative stopping rule
// stops.
void uniform_model_changes_nothing(void **) {
    const Sim s = simulate(300, 3, 3, 0.7, 0.9, -1, 3);
    std::vector<double> flat(static_cast<std::size_t>(s.n_items) * 3, 1.0 / 3);
    test::Model a = test::make_model("ds"), b = test::make_model("ds");
    for (cs_model *m : {a.get(), b.get()}) {
        set(m, "calibration", "none");
        set(m, "tol", "0");
        set(m, "max_iter", "40");
    }
    assert_int_equal(fit_with(a.get(), s.crowd), CS_OK);
    assert_int_equal(cs_set_model_probs(b.get(), nullptr, flat.data(), s.n_items, 3), CS_OK);
    assert_int_equal(fit_with(b.get(), s.crowd), CS_OK);
    const std::vector<double> qa = test::posteriors(a.get()), qb = test::posteriors(b.get());
    for (std::size_t e = 0; e < qa.size(); ++e) assert_near(qb[e], qa[e], 1e-10);
}

// The calibration tempers the crowd's evidence and leaves the classifier's out: each
// calibrated row is softmax((log q - m) / T + m), q the fit's uncalibrated posterior
// and m(t) = log sum_o p(o) pi_M[t][o] its classifier term (model_worker.hpp). On a
// crowd that shares its mistakes (a fifth of the items, where each label is the same
// wrong class with probability 0.6; T > 1) with a classifier independent of them, the
// classifier then overrules the crowd on some items, and the error falls; with equal
// terms (a flat row) the row is tempered bit for bit as without a classifier.
void calibration_leaves_the_classifier_untempered(void **) {
    const int32_t k = 3, n = 1500;
    std::mt19937 rng(41);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    test::Triples crowd;
    std::vector<int32_t> truth(n);
    std::vector<double> probs;
    for (int32_t j = 0; j < n; ++j) {
        const int32_t t = j % k, shared = (t + 1) % k;
        truth[j] = t;
        const bool confusing = j % 5 == 0;
        for (int32_t r = 0; r < 5; ++r) {
            const int32_t w = static_cast<int32_t>((j * 7 + r * 11) % 40);
            int32_t c = t;
            if (confusing && u(rng) < 0.6) c = shared;
            else if (u(rng) > 0.8) c = (t + 1 + static_cast<int32_t>(rng() % (k - 1))) % k;
            crowd.add(j, w, c);
        }
        const int32_t said = u(rng) < 0.85 ? t : (t + 1 + static_cast<int32_t>(rng() % (k - 1))) % k;
        for (int32_t c = 0; c < k; ++c) probs.push_back(c == said ? 0.85 : 0.15 / (k - 1));
    }
    test::Model cal = test::make_model("auto"), raw = test::make_model("auto");
    set(raw.get(), "calibration", "none");
    for (cs_model *m : {cal.get(), raw.get()}) {
        assert_int_equal(cs_set_model_probs(m, nullptr, probs.data(), n, k), CS_OK);
        assert_int_equal(fit_with(m, crowd), CS_OK);
    }
    double temperature = 0.0, mixing = 0.0;
    int32_t source = 0;
    assert_int_equal(cs_calibration(cal.get(), &temperature, &mixing, &source), CS_OK);
    assert_int_equal(source, CS_CALIBRATION_LABELS);
    assert_true(temperature > 1.2);  // the shared mistakes
    std::vector<double> pi(static_cast<std::size_t>(k * k));
    assert_int_equal(cs_model_confusion(raw.get(), pi.data(), pi.size()), CS_OK);
    const std::vector<double> q = test::posteriors(raw.get()), got = test::posteriors(cal.get());
    const std::vector<int32_t> raw_labels = test::labels(raw.get()), labels = test::labels(cal.get());
    int32_t moved = 0;
    for (int32_t j = 0; j < n; ++j) {
        double logit[3], top = -1e300, z = 0.0;
        for (int32_t t = 0; t < k; ++t) {
            double like = 0.0;
            for (int32_t o = 0; o < k; ++o) like += probs[j * k + o] * pi[t * k + o];
            const double m = std::log(like);
            logit[t] = (std::log(q[j * k + t]) - m) / temperature + m;
            top = std::max(top, logit[t]);
        }
        for (double &x : logit) z += std::exp(x - top);
        int32_t best = 0;
        for (int32_t t = 0; t < k; ++t) {
            assert_near(got[j * k + t], std::exp(logit[t] - top) / z, 1e-12);
            if (logit[t] > logit[best]) best = t;
        }
        assert_int_equal(labels[j], best);
        moved += labels[j] != raw_labels[j];
    }
    const double e_raw = error_rate(raw_labels, truth), e_cal = error_rate(labels, truth);
    print_message("T = %.3f: %d labels moved by the classifier, error %.4f -> %.4f\n", temperature, moved, e_raw,
                  e_cal);
    assert_true(moved > 0);
    assert_true(e_cal < e_raw);

    // Equal terms (a flat row, or a classifier that says nothing): the same bits as without.
    const double row[3] = {0.7, 0.2, 0.1}, flat_terms[3] = {-1.25, -1.25, -1.25}, prior[3] = {0.3, 0.3, 0.4};
    double a[3], b[3], scratch[3];
    std::copy(row, row + 3, a);
    std::copy(row, row + 3, b);
    assert_int_equal(cs::calibrate_row(a, 3, 2.5, 0.0, prior, scratch),
                     cs::calibrate_row(b, 3, 2.5, 0.0, prior, scratch, flat_terms));
    assert_memory_equal(a, b, sizeof a);
}

// A gold item keeps its pinned row when the model votes in EM's start: with max_iter = 0
// the start is the result, and the gold item (one label for class 0, gold class 2, the
// model leaning to class 0) was (1 x e_2 + p) / 2 = (0.35, 0.1, 0.55) before the fix
// (fuzz_fit's finding).
void gold_stays_pinned_in_the_models_start(void **) {
    for (int32_t iters : {0, 1}) {
        test::Model m = test::make_model("ds");
        assert_int_equal(cs_set_int(m.get(), CS_PARAM_MAX_ITER, iters), CS_OK);
        assert_int_equal(cs_set_int(m.get(), CS_PARAM_CLASSES, 3), CS_OK);
        const int32_t gold_item = 0, gold_label = 2;
        assert_int_equal(cs_set_gold(m.get(), &gold_item, &gold_label, 1), CS_OK);
        const double row[3] = {0.7, 0.2, 0.1};
        assert_int_equal(cs_set_model_probs(m.get(), nullptr, row, 1, 3), CS_OK);
        test::Triples t;
        t.add(0, 1, 0);
        t.add(1, 0, 1);
        assert_int_equal(fit_with(m.get(), t), CS_OK);
        const std::vector<double> q = test::posteriors(m.get());
        assert_true(q[0] == 0.0 && q[1] == 0.0 && q[2] == 1.0);
        assert_int_equal(test::labels(m.get())[0], 2);
    }
}

// One item, two workers, one label each, the model's own probabilities equal: by
// symmetry every class has the same likelihood, so the single item (prior uniform)
// keeps (1/2, 1/2) under ds (a hand case; the model only breaks it when it leans).
void model_breaks_a_tie(void **) {
    test::Triples t;
    t.add(0, 0, 0);
    t.add(0, 1, 1);
    t.add(1, 0, 0);
    t.add(1, 1, 1);
    const double leaning[] = {0.8, 0.2, 0.8, 0.2};
    test::Model m = test::make_model("ds");
    set(m.get(), "calibration", "none");
    assert_int_equal(cs_set_model_probs(m.get(), nullptr, leaning, 2, 2), CS_OK);
    assert_int_equal(fit_with(m.get(), t), CS_OK);
    const std::vector<int32_t> labels = test::labels(m.get());
    assert_int_equal(labels[0], 0);
    assert_int_equal(labels[1], 0);
}

// Argument checks of cs_set_model_probs and at the fit.
void model_probs_checks(void **) {
    test::Model m = test::make_model("ds");
    const double bad[] = {0.5, -0.1};
    const double zero[] = {0.0, 0.0};
    const double ok[] = {0.3, 0.7, 0.6, 0.4};
    const int32_t items[] = {0, 0};
    const int32_t negative[] = {-1};
    assert_int_equal(cs_set_model_probs(m.get(), nullptr, bad, 1, 2), CS_ERR_INVALID_ARGUMENT);
    assert_int_equal(cs_set_model_probs(m.get(), nullptr, zero, 1, 2), CS_ERR_INVALID_ARGUMENT);
    assert_int_equal(cs_set_model_probs(m.get(), items, ok, 2, 2), CS_ERR_INVALID_ARGUMENT);
    assert_int_equal(cs_set_model_probs(m.get(), negative, ok, 1, 2), CS_ERR_INVALID_ID);
    assert_int_equal(cs_set_model_probs(m.get(), nullptr, nullptr, 1, 2), CS_ERR_NULL_POINTER);
    assert_int_equal(cs_set_model_probs(m.get(), nullptr, ok, 1, 1), CS_ERR_INVALID_ARGUMENT);
    assert_int_equal(cs_set_model_probs(nullptr, nullptr, ok, 1, 2), CS_ERR_NULL_HANDLE);
    test::Triples t;
    t.add(0, 0, 0);
    t.add(0, 1, 0);
    t.add(1, 0, 1);
    t.add(1, 1, 2);
    // k differs from the fit's (3 classes observed).
    assert_int_equal(cs_set_model_probs(m.get(), nullptr, ok, 2, 2), CS_OK);
    assert_int_equal(test::fit(m.get(), t), CS_ERR_INVALID_ARGUMENT);
    // An item beyond the fit's items.
    const double three[] = {0.2, 0.3, 0.5};
    const int32_t far[] = {5};
    assert_int_equal(cs_set_model_probs(m.get(), far, three, 1, 3), CS_OK);
    assert_int_equal(test::fit(m.get(), t), CS_ERR_INVALID_ID);
    // A method that takes none.
    assert_int_equal(cs_set_model_probs(m.get(), nullptr, three, 1, 3), CS_OK);
    set(m.get(), "method", "glad");
    assert_int_equal(test::fit(m.get(), t), CS_ERR_INVALID_ARGUMENT);
    assert_true(std::string(cs_last_error(m.get())).find("model probabilities") != std::string::npos);
    // Cleared: glad fits.
    assert_int_equal(cs_set_model_probs(m.get(), nullptr, nullptr, 0, 0), CS_OK);
    assert_int_equal(test::fit(m.get(), t), CS_OK);
    // crowdlab without a model: the fallback, with its note.
    set(m.get(), "method", "crowdlab");
    assert_int_equal(test::fit(m.get(), t), CS_OK);
    assert_true((test::notes(m.get()) & CS_NOTE_CROWDLAB_FALLBACK) != 0);
}

// crowdlab on a hand case (k = 2; item 0: w0 0, w1 0, w2 1; item 1: w0 1, w1 1;
// item 2: w0 0, w2 0; item 3: w1 1; model (0.7, 0.3), (0.4, 0.6), (0.2, 0.8), (0.9, 0.1)).
// s = (3/4, 2/3, 1/3); consensus (0, 1, 0), E = 1/3; w = (0.25, 1e-6, 1e-6); the model
// misses item 2: E_M = 1/3, w_M = 1e-6 sqrt(2); P = 8/9. By the numpy script
// (docs/algorithms.md's formulas, /tmp reference): p_CR below.
void crowdlab_by_hand(void **) {
    test::Triples t;
    t.add(0, 0, 0); t.add(0, 1, 0); t.add(0, 2, 1);
    t.add(1, 0, 1); t.add(1, 1, 1);
    t.add(2, 0, 0); t.add(2, 2, 0);
    t.add(3, 1, 1);
    const double probs[] = {0.7, 0.3, 0.4, 0.6, 0.2, 0.8, 0.9, 0.1};
    test::Model m = test::make_model("crowdlab");
    assert_int_equal(cs_set_model_probs(m.get(), nullptr, probs, 4, 2), CS_OK);
    assert_int_equal(fit_with(m.get(), t), CS_OK);
    const std::vector<double> expected = {0.8888847093179439, 0.11111529068205629, 0.11111274529766882,
                                          0.8888872547023313, 0.8888849919824823, 0.11111500801751785,
                                          0.5732315230167806, 0.42676847698321935};
    const std::vector<double> q = test::posteriors(m.get());
    for (std::size_t e = 0; e < q.size(); ++e) assert_near(q[e], expected[e], 1e-12);
    const std::vector<int32_t> labels = test::labels(m.get());
    assert_int_equal(labels[0], 0);
    assert_int_equal(labels[1], 1);
    assert_int_equal(labels[2], 0);
    assert_int_equal(labels[3], 0);
    // The spec's symmetric case: one item labelled (0, 1), model (1/2, 1/2) -> (1/2, 1/2).
    test::Triples sym;
    sym.add(0, 0, 0);
    sym.add(0, 1, 1);
    const double half[] = {0.5, 0.5};
    test::Model h = test::make_model("crowdlab");
    assert_int_equal(cs_set_model_probs(h.get(), nullptr, half, 1, 2), CS_OK);
    assert_int_equal(fit_with(h.get(), sym), CS_OK);
    const std::vector<double> qh = test::posteriors(h.get());
    assert_near(qh[0], 0.5, 1e-15);
    assert_near(qh[1], 0.5, 1e-15);
    // Every item with one label: weights 1, P = 1 (the note): item 0 labelled 0 with
    // model (0.8, 0.2): ((0.8, 0.2) + (1, 0)) / 2 = (0.9, 0.1).
    test::Triples single;
    single.add(0, 0, 0);
    single.add(1, 1, 1);
    const double two[] = {0.8, 0.2, 0.5, 0.5};
    assert_int_equal(cs_set_model_probs(h.get(), nullptr, two, 2, 2), CS_OK);
    assert_int_equal(test::fit(h.get(), single), CS_OK);
    assert_true((test::notes(h.get()) & CS_NOTE_CROWDLAB_FALLBACK) != 0);
    const std::vector<double> qs = test::posteriors(h.get());
    assert_near(qs[0], 0.9, 1e-15);
    assert_near(qs[2], 0.25, 1e-15);
    // Cancelled after the first pass: not converged, the note set.
    test::Model c = test::make_model("crowdlab");
    assert_int_equal(cs_set_model_probs(c.get(), nullptr, probs, 4, 2), CS_OK);
    assert_int_equal(cs_set_progress(c.get(), [](void *, int32_t, double) -> int32_t { return 1; }, nullptr), CS_OK);
    assert_int_equal(test::fit(c.get(), t), CS_ERR_CANCELLED);
    assert_true((test::notes(c.get()) & CS_NOTE_CANCELLED) != 0);
}

// The label-next score by hand: k = 2, T = [[0.8, 0.2], [0.3, 0.7]].
// q = (0.6, 0.4): max(0.48, 0.12) + max(0.12, 0.28) - 0.6 = 0.16;
// q = (0.9, 0.1): 0.72 + 0.18 - 0.9 = 0 (no one label can overturn it).
void label_next_by_hand(void **) {
    cs::FitResult fit;
    fit.n_items = 2;
    fit.k = 2;
    fit.posteriors = {0.6, 0.4, 0.9, 0.1};
    fit.typical_confusion = {0.8, 0.2, 0.3, 0.7};
    const std::vector<double> s = cs::label_next_scores(fit);
    assert_near(s[0], 0.16, 1e-15);
    assert_near(s[1], 0.0, 1e-15);
}

// The label-next score of every item equals, bit for bit, the formula's k^2 loop
// (sum_c max(stay, max_t q(t) T[t][c]) - stay, stay = q(top) T[top][c]), whether the
// item is settled by the cheap test or not: random posteriors from confident to tied
// (and rows with zeros) under random typical workers, k = 2..7 (7 takes the run-time-k
// kernel). Many items score exactly 0 and many do not, so both branches are checked;
// rows with exact ties for the largest posterior check that the top class is the first
// largest, as std::max_element finds it (the score depends on which one it is).
void label_next_equals_the_formula(void **) {
    std::mt19937_64 rng(3);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    for (int32_t k = 2; k <= 7; ++k) {
        cs::FitResult fit;
        fit.k = k;
        fit.n_items = 4000;
        fit.typical_confusion.resize(static_cast<std::size_t>(k) * k);
        for (int32_t t = 0; t < k; ++t) {
            double sum = 0.0;
            for (int32_t c = 0; c < k; ++c) sum += fit.typical_confusion[t * k + c] = (t == c ? 3.0 : 0.0) + u(rng);
            for (int32_t c = 0; c < k; ++c) fit.typical_confusion[t * k + c] /= sum;
        }
        fit.posteriors.resize(static_cast<std::size_t>(fit.n_items) * k);
        for (int32_t j = 0; j < fit.n_items; ++j) {
            double *q = fit.posteriors.data() + static_cast<std::size_t>(j) * k;
            const double sharp = std::pow(10.0, 4.0 * u(rng));  // 1 (flat) .. 10^4 (sure)
            double sum = 0.0;
            for (int32_t t = 0; t < k; ++t) sum += q[t] = j % 50 == 0 && t > 0 ? 0.0 : std::pow(u(rng), sharp);
            if (!(sum > 0.0)) q[0] = sum = 1.0;
            for (int32_t t = 0; t < k; ++t) q[t] /= sum;
            // Exact ties for the largest posterior, where the first largest class is the
            // top one: every class at 1/k, or classes 1 and 2 at 0.375 above class 0 at 0.25.
            if (j % 37 == 1)
                for (int32_t t = 0; t < k; ++t) q[t] = 1.0 / k;
            if (j % 37 == 2 && k >= 3)
                for (int32_t t = 0; t < k; ++t) q[t] = t == 0 ? 0.25 : t <= 2 ? 0.375 : 0.0;
        }
        const std::vector<double> scores = cs::label_next_scores(fit);
        int zero = 0;
        for (int32_t j = 0; j < fit.n_items; ++j) {
            const double *q = fit.posteriors.data() + static_cast<std::size_t>(j) * k;
            const double *tm = fit.typical_confusion.data();
            int32_t top = 0;
            for (int32_t t = 1; t < k; ++t) top = q[t] > q[top] ? t : top;
            double gain = 0.0;
            for (int32_t c = 0; c < k; ++c) {
                const double stay = q[top] * tm[top * k + c];
                double best = stay;
                for (int32_t t = 0; t < k; ++t) best = std::max(best, q[t] * tm[t * k + c]);
                gain += best - stay;
            }
            assert_true(scores[static_cast<std::size_t>(j)] == gain);
            zero += gain == 0.0;
        }
        assert_true(zero > 200 && zero < fit.n_items - 200);
    }
}

// Diagnostics by hand through mv, whose posteriors are the vote shares. Beta
// quantiles by scipy.stats.beta.ppf: Beta(8, 4) 0.39025744, 0.89073656; Beta(9, 3)
// 0.48224415, 0.93978227.
void diagnostics_by_hand(void **) {
    assert_near(cs::incomplete_beta(2, 3, 0.5), 11.0 / 16.0, 1e-13);
    assert_near(cs::beta_quantile(1, 1, 0.3), 0.3, 1e-11);
    assert_near(cs::beta_quantile(2, 1, 0.975), std::sqrt(0.975), 1e-11);
    assert_near(cs::beta_quantile(8, 4, 0.025), 0.39025744, 1e-7);
    assert_near(cs::beta_quantile(8, 4, 0.975), 0.89073656, 1e-7);
    // 10 items with three workers; workers 1 and 2 always agree (and so make the vote);
    // worker 0 agrees on items 0..6 and says the other class on 7..9. Items 0..4 are
    // class 0, items 5..9 class 1 by the vote.
    test::Triples t;
    for (int32_t j = 0; j < 10; ++j) {
        const int32_t c = j < 5 ? 0 : 1;
        t.add(j, 1, c);
        t.add(j, 2, c);
        t.add(j, 0, j < 7 ? c : 1 - c);
    }
    test::Model m = test::make_model("mv");
    assert_int_equal(fit_with(m.get(), t), CS_OK);
    std::vector<double> spam(3), acc(3), low(3), high(3);
    std::vector<int32_t> worst(3);
    assert_int_equal(cs_worker_diagnostics(m.get(), spam.data(), worst.data(), acc.data(), low.data(), high.data(), 3),
                     CS_OK);
    // Worker 0's soft hits: 7 items where all three agree (share 1) and 3 where its
    // label has share 1/3: 8 of 10 -> Beta(9, 3).
    assert_near(acc[0], 0.8, 1e-12);
    assert_near(low[0], 0.48224415, 1e-7);
    assert_near(high[0], 0.93978227, 1e-7);
    // Workers 1 and 2: 7 unanimous items (1 each) and 3 at share 2/3: 9 of 10.
    assert_near(acc[1], 0.9, 1e-12);
    // Worker 0's soft counts: true 0 -> (6, 0), true 1 -> (2, 2): worst class 1.
    assert_int_equal(worst[0], 1);
    // The spammer score from mv's own matrices (cs_confusion), k = 2: (a + b - 1)^2.
    const std::vector<double> pi = test::confusion(m.get());
    for (int w = 0; w < 3; ++w) {
        const double a = pi[w * 4 + 0], b = pi[w * 4 + 3];
        assert_near(spam[w], (a + b - 1.0) * (a + b - 1.0), 1e-12);
    }
    // cs_label_wrong: worker 0's label on item 8 (1 - 1 = 0 under mv's one-hot vote...).
    const int32_t item[] = {8, 8};
    const int32_t label[] = {0, 1};
    double wrong[2];
    assert_int_equal(cs_label_wrong(m.get(), item, label, 2, wrong), CS_OK);
    const std::vector<double> q = test::posteriors(m.get());
    assert_near(wrong[0], 1.0 - q[16], 1e-15);
    assert_near(wrong[1], 1.0 - q[17], 1e-15);
    assert_true(wrong[0] > 0.5);  // the vote is 1: worker 0's "0" is the suspect label
    const int32_t bad_item[] = {10};
    assert_int_equal(cs_label_wrong(m.get(), bad_item, label, 1, wrong), CS_ERR_INVALID_ID);
    std::vector<double> next(10);
    assert_int_equal(cs_label_next(m.get(), next.data(), next.size()), CS_OK);
    // k = 3: the spammer score against the pairwise definition, sum over t < u and c of
    // (A[t][c] - A[u][c])^2 / (k (k - 1)), computed here from cs_confusion.
    test::Triples t3;
    const int32_t said[4][6] = {{0, 0, 1, 2, 2, 1}, {0, 1, 1, 2, 0, 1}, {1, 0, 2, 2, 1, 0}, {0, 0, 1, 1, 2, 2}};
    for (int32_t w = 0; w < 4; ++w)
        for (int32_t j = 0; j < 6; ++j) t3.add(j, w, said[w][j]);
    test::Model m3 = test::make_model("mv");
    assert_int_equal(fit_with(m3.get(), t3), CS_OK);
    const std::vector<double> pi3 = test::confusion(m3.get());
    std::vector<double> spam3(4);
    assert_int_equal(cs_worker_diagnostics(m3.get(), spam3.data(), nullptr, nullptr, nullptr, nullptr, 4), CS_OK);
    for (int32_t w = 0; w < 4; ++w) {
        double s = 0.0;
        for (int32_t a = 0; a < 3; ++a)
            for (int32_t b = a + 1; b < 3; ++b)
                for (int32_t c = 0; c < 3; ++c) {
                    const double d = pi3[w * 9 + a * 3 + c] - pi3[w * 9 + b * 3 + c];
                    s += d * d;
                }
        assert_near(spam3[w], s / 6.0, 1e-14);
    }
}

// Spammer score of the fit's own matrices and the adversary interval on a simulated
// crowd: a worker who answers at random scores near 0, a good one near its (alpha +
// beta - 1)^2, and a worker who always gives the wrong class of k = 2 has an accuracy
// interval wholly below 1/2.
void spammers_and_adversaries(void **) {
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    test::Triples t;
    std::vector<int32_t> truth;
    for (int32_t j = 0; j < 400; ++j) {
        const int32_t c = static_cast<int32_t>(rng() % 2);
        truth.push_back(c);
        for (int32_t w = 0; w < 5; ++w) t.add(j, w, u(rng) < 0.85 ? c : 1 - c);  // good workers
        t.add(j, 5, static_cast<int32_t>(rng() % 2));                             // spammer
        if (j < 40) t.add(j, 6, 1 - c);                                           // adversary
    }
    test::Model m = test::make_model("ds");
    assert_int_equal(fit_with(m.get(), t), CS_OK);
    std::vector<double> spam(7), low(7), high(7);
    assert_int_equal(cs_worker_diagnostics(m.get(), spam.data(), nullptr, nullptr, low.data(), high.data(), 7), CS_OK);
    for (int w = 0; w < 5; ++w) assert_near(spam[w], 0.49, 0.08);  // (0.85 + 0.85 - 1)^2
    assert_true(spam[5] < 0.02);
    assert_true(high[6] < 0.5);
    assert_true(low[0] > 0.5);
}

// The Beta quantiles of the accuracy intervals (Halley steps, issue 34 at scale) against
// closed forms: Beta(1, n) has I_x = 1 - (1 - x)^n, so its p-quantile is
// 1 - (1 - p)^(1/n); Beta(n, 1) has I_x = x^n, quantile p^(1/n). Beta(a, a) is
// symmetric (median 1/2, q(p) = 1 - q(1 - p)). And against bisection on the incomplete
// beta function to 1e-12 (how they were found before) for worker-like counts, to 1e-9.
double bisected_quantile(double a, double b, double p) {
    double lo = 0.0, hi = 1.0;
    for (int step = 0; step < 60 && hi - lo > 1e-12; ++step) {
        const double mid = 0.5 * (lo + hi);
        if (cs::incomplete_beta(a, b, mid) < p) lo = mid;
        else hi = mid;
    }
    return 0.5 * (lo + hi);
}

void beta_quantile_closed_forms(void **) {
    for (double n : {1.0, 2.0, 3.5, 10.0, 101.0, 1000.0, 25000.0, 1e6}) {
        for (double p : {0.025, 0.3, 0.5, 0.975}) {
            assert_near(cs::beta_quantile(1.0, n, p), -std::expm1(std::log1p(-p) / n), 1e-12);
            assert_near(cs::beta_quantile(n, 1.0, p), std::exp(std::log(p) / n), 1e-12);
        }
        if (n > 1.0) {
            assert_near(cs::beta_quantile(n, n, 0.5), 0.5, 1e-12);
            assert_near(cs::beta_quantile(n, n, 0.025), 1.0 - cs::beta_quantile(n, n, 0.975), 1e-12);
        }
    }
    // Soft hits h of m labels, the interval's Beta(1 + h, 1 + m - h).
    for (double m : {1.0, 3.0, 12.0, 100.0, 1000.0, 10000.0, 100000.0}) {
        for (double share : {0.0, 0.013, 0.2, 0.5, 0.77, 0.95, 0.999, 1.0}) {
            const double h = share * m;
            for (double p : {0.025, 0.975})
                assert_near(cs::beta_quantile(1.0 + h, 1.0 + m - h, p), bisected_quantile(1.0 + h, 1.0 + m - h, p),
                            1e-9);
        }
    }
}

// The diagnostics pass has two layouts: every soft count (up to 2^22 worker x class x
// class entries, or without fitted matrices) and, for fitted matrices beyond, hits and
// masses only. 1,100 workers at k = 64 (4.5 M entries) takes the second with matrices
// and the first without: both must give the same typical worker, accuracies, intervals
// and worst classes; with uniform fitted matrices every worker is a spammer (score 0).
void diagnostics_pass_layouts_agree(void **) {
    const int32_t k = 64, workers = 1100, items = 3000;
    std::mt19937_64 rng(7);
    std::vector<int32_t> item, worker, label;
    for (int32_t j = 0; j < items; ++j)
        for (int32_t r = 0; r < 3; ++r) {  // three distinct workers an item, all 1,100 in use
            item.push_back(j);
            worker.push_back((j * 7 + r * 389) % workers);
            label.push_back(static_cast<int32_t>(rng() % k));
        }
    cs::FitOptions options;
    options.classes = k;
    const cs::CrowdData data = cs::CrowdData::build(item.data(), worker.data(), label.data(), item.size(), options);
    assert_int_equal(data.n_workers, workers);
    cs::FitResult counts;
    counts.n_items = items;
    counts.n_workers = workers;
    counts.k = k;
    std::uniform_real_distribution<double> u(0.0, 1.0);
    counts.posteriors.resize(static_cast<std::size_t>(items) * k);
    for (int32_t j = 0; j < items; ++j) {
        double *q = counts.posteriors.data() + static_cast<std::size_t>(j) * k;
        double sum = 0.0;
        for (int32_t t = 0; t < k; ++t) sum += q[t] = u(rng) * u(rng);
        for (int32_t t = 0; t < k; ++t) q[t] /= sum;
    }
    cs::FitResult by_worker = counts;
    by_worker.confusion.assign(static_cast<std::size_t>(workers) * k * k, 1.0 / k);
    cs::compute_worker_diagnostics(data, counts);
    cs::compute_worker_diagnostics(data, by_worker);
    assert_int_equal(by_worker.typical_confusion.size(), static_cast<std::size_t>(k) * k);
    assert_int_equal(counts.typical_confusion.size(), by_worker.typical_confusion.size());
    for (std::size_t e = 0; e < counts.typical_confusion.size(); ++e)
        assert_near(counts.typical_confusion[e], by_worker.typical_confusion[e], 1e-13);
    for (int32_t i = 0; i < workers; ++i) {
        assert_near(counts.worker_accuracy[i], by_worker.worker_accuracy[i], 1e-13);
        assert_near(counts.worker_accuracy_low[i], by_worker.worker_accuracy_low[i], 1e-12);
        assert_near(counts.worker_accuracy_high[i], by_worker.worker_accuracy_high[i], 1e-12);
        assert_int_equal(counts.worker_worst_class[i], by_worker.worker_worst_class[i]);
        assert_near(by_worker.worker_spammer[i], 0.0, 1e-15);
        assert_true(counts.worker_spammer[i] > 0.0);
    }
}

// A crowd of `workers` workers of accuracy 0.6-0.9, 5 labels an item; with `shared`,
// 35 % of the items are hard ones where each worker names the same wrong class with
// probability 0.6 (shared mistakes, which make Dawid-Skene's posteriors too sure: the
// held-out temperature then exceeds 1).
test::Triples crowd_for_counts(int32_t items, int32_t workers, int32_t k, bool shared, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::vector<double> accuracy(static_cast<std::size_t>(workers));
    for (double &a : accuracy) a = 0.6 + 0.3 * u(rng);
    const auto below = [&](int32_t n) { return static_cast<int32_t>(rng() % static_cast<uint64_t>(n)); };
    test::Triples t;
    for (int32_t j = 0; j < items; ++j) {
        const int32_t truth = below(k), trap = (truth + 1 + below(k - 1)) % k, first = below(workers);
        const bool hard = shared && u(rng) < 0.35;
        for (int32_t r = 0; r < 5; ++r) {
            const int32_t i = (first + r * 7) % workers;
            int32_t c = truth;
            if (hard && u(rng) < 0.6)
                c = trap;  // a hard item: one wrong answer tempts everyone
            else if (u(rng) > accuracy[static_cast<std::size_t>(i)])
                c = (truth + 1 + below(k - 1)) % k;
            t.add(j, i, c);
        }
    }
    return t;
}

void expect_same_diagnostics(const cs::FitResult &a, const cs::FitResult &b) {
    assert_int_equal(a.typical_confusion.size(), b.typical_confusion.size());
    assert_true(!a.typical_confusion.empty());
    for (std::size_t e = 0; e < a.typical_confusion.size(); ++e)
        assert_near(a.typical_confusion[e], b.typical_confusion[e], 1e-12);
    assert_int_equal(a.worker_accuracy.size(), b.worker_accuracy.size());
    for (std::size_t i = 0; i < a.worker_accuracy.size(); ++i) {
        assert_near(a.worker_accuracy[i], b.worker_accuracy[i], 1e-12);
        assert_near(a.worker_accuracy_low[i], b.worker_accuracy_low[i], 1e-11);
        assert_near(a.worker_accuracy_high[i], b.worker_accuracy_high[i], 1e-11);
        assert_int_equal(a.worker_worst_class[i], b.worker_worst_class[i]);
        assert_near(a.worker_spammer[i], b.worker_spammer[i], 1e-12);
    }
}

// The public fit's worker diagnostics and label-next scores against a pass over its
// final posteriors and matrices (compute_worker_diagnostics without EM's counts).
void expect_diagnostics_of_final_posteriors(const cs::CrowdData &data, const cs_model *m) {
    const int32_t k = data.k;
    cs::FitResult pass_on_final;
    pass_on_final.n_items = data.n_items;
    pass_on_final.n_workers = data.n_workers;
    pass_on_final.k = k;
    pass_on_final.posteriors = test::posteriors(m);
    pass_on_final.confusion = test::confusion(m);
    cs::compute_worker_diagnostics(data, pass_on_final);
    const std::size_t w = static_cast<std::size_t>(data.n_workers);
    std::vector<double> spammer(w), accuracy(w), low(w), high(w);
    std::vector<int32_t> worst(w);
    assert_int_equal(cs_worker_diagnostics(m, spammer.data(), worst.data(), accuracy.data(), low.data(), high.data(), w),
                     CS_OK);
    for (std::size_t i = 0; i < w; ++i) {
        assert_near(accuracy[i], pass_on_final.worker_accuracy[i], 1e-12);
        assert_near(low[i], pass_on_final.worker_accuracy_low[i], 1e-11);
        assert_near(high[i], pass_on_final.worker_accuracy_high[i], 1e-11);
        assert_int_equal(worst[i], pass_on_final.worker_worst_class[i]);
    }
    const std::size_t n = static_cast<std::size_t>(data.n_items);
    std::vector<double> next(n), expected(n);
    assert_int_equal(cs_label_next(m, next.data(), n), CS_OK);
    cs::label_next_scores(pass_on_final, expected.data());
    for (std::size_t j = 0; j < n; ++j) assert_near(next[j], expected[j], 1e-12);
}

// EM's counts of its final posteriors (FitResult::posterior_counts) stand in for the
// passes over the labels of the calibration and the worker diagnostics: both must give
// what the passes give (to rounding: the counts are summed by partition), at k = 2 (the
// ratio kernel), 3 (padded AVX2 rows) and 5. And the public fit must report the
// diagnostics of its final posteriors, as a pass over them computes them: from EM's
// counts when it is not calibrated (T = 1); after tempering with shared mistakes (T > 1)
// EM's counts are stale, and the calibration counts the tempered rows in their place
// (a fit that kept EM's counts fails here, and so does a recount of the rows before
// tempering).
void diagnostics_from_em_counts_match_the_pass(void **) {
    struct Case {
        int32_t k;
        bool shared;
        int32_t calibration;
    };
    const Case cases[] = {{2, false, CS_CALIBRATION_NONE}, {5, false, CS_CALIBRATION_NONE},
                          {2, true, CS_CALIBRATION_AUTO},  {3, true, CS_CALIBRATION_AUTO},
                          {5, true, CS_CALIBRATION_AUTO}};
    for (const auto &[k, shared, calibration] : cases) {
        const test::Triples t = crowd_for_counts(3000, 60, k, shared, 11 + k);
        cs::FitOptions options;
        options.method = CS_METHOD_AUTO;
        options.calibration = calibration;
        const cs::CrowdData data = cs::CrowdData::build(t.item.data(), t.worker.data(), t.label.data(), t.size(), options);
        cs::FitResult em;
        em.n_items = data.n_items;
        em.n_workers = data.n_workers;
        em.k = k;
        assert_false(cs::fit_auto(data, options, cs::Progress(), em));
        assert_int_equal(em.posterior_counts.size(), static_cast<std::size_t>(data.n_workers) * k * k);
        assert_int_equal(em.posterior_class_mass.size(), static_cast<std::size_t>(k));

        cs::FitResult from_counts = em, by_pass = em;
        by_pass.drop_posterior_counts();
        cs::compute_worker_diagnostics(data, from_counts);
        cs::compute_worker_diagnostics(data, by_pass);
        expect_same_diagnostics(from_counts, by_pass);

        cs::FitResult calibrated = em, calibrated_by_pass = em;
        calibrated_by_pass.drop_posterior_counts();
        cs::calibrate_crowd_posteriors(data, cs::em_options(options), calibrated);
        cs::calibrate_crowd_posteriors(data, cs::em_options(options), calibrated_by_pass);
        // Uncalibrated, T = 1 (the public fit below then takes EM's counts); with shared
        // mistakes T > 1 (1.01, 1.42 and 1.93 at k = 2, 3, 5: the counts are dropped).
        if (calibration == CS_CALIBRATION_NONE) assert_true(calibrated.temperature == 1.0);
        else assert_true(calibrated.temperature > 1.0);
        assert_near(calibrated.temperature, calibrated_by_pass.temperature, 1e-10 * calibrated.temperature);
        for (std::size_t e = 0; e < calibrated.posteriors.size(); ++e)
            assert_near(calibrated.posteriors[e], calibrated_by_pass.posteriors[e], 1e-10);
        // Without EM's counts the calibration makes none; with them, when it tempers, it
        // counts the tempered rows: the diagnostics from those counts are a pass's.
        assert_true(calibrated_by_pass.posterior_counts.empty());
        assert_int_equal(calibrated.posterior_counts.size(), static_cast<std::size_t>(data.n_workers) * k * k);
        assert_int_equal(calibrated.posterior_class_mass.size(), static_cast<std::size_t>(k));
        if (calibrated.temperature != 1.0) {
            cs::FitResult recounted = calibrated, tempered_by_pass = calibrated;
            tempered_by_pass.drop_posterior_counts();
            cs::compute_worker_diagnostics(data, recounted);
            cs::compute_worker_diagnostics(data, tempered_by_pass);
            expect_same_diagnostics(recounted, tempered_by_pass);
            for (int32_t t = 0; t < k; ++t) {
                double mass = 0.0;
                for (int32_t j = 0; j < data.n_items; ++j) mass += calibrated.posteriors[static_cast<std::size_t>(j) * k + t];
                assert_near(calibrated.posterior_class_mass[t], mass, 1e-9);
            }
        }

        test::Model m = test::make_model("auto");
        if (calibration == CS_CALIBRATION_NONE) set(m.get(), "calibration", "none");
        assert_int_equal(fit_with(m.get(), t), CS_OK);
        double temperature = 0.0, mixing = 0.0;
        int32_t source = 0;
        assert_int_equal(cs_calibration(m.get(), &temperature, &mixing, &source), CS_OK);
        assert_near(temperature, calibrated.temperature, 1e-10 * temperature);
        expect_diagnostics_of_final_posteriors(data, m.get());
        // The other Dawid-Skene methods on the same crowd, calibrated: opt-ds may rename
        // its classes after EM (identify_final_classes), which must drop the counts too.
        for (const char *method : {"ds", "opt-ds", "one-coin-ds", "class-one-coin-ds"}) {
            test::Model other = test::make_model(method);
            if (calibration == CS_CALIBRATION_NONE) set(other.get(), "calibration", "none");
            assert_int_equal(fit_with(other.get(), t), CS_OK);
            expect_diagnostics_of_final_posteriors(data, other.get());
        }
    }
}

}  // namespace

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(model_wrong_on_one_class_is_outvoted),
        cmocka_unit_test(classifier_matrix_is_solved_not_stepped),
        cmocka_unit_test(classifier_matrix_of_sure_posteriors),
        cmocka_unit_test(classifier_terms_same_in_every_kernel),
        cmocka_unit_test(soft_counts_same_in_registers),
        cmocka_unit_test(uniform_model_changes_nothing),
        cmocka_unit_test(calibration_leaves_the_classifier_untempered),
        cmocka_unit_test(gold_stays_pinned_in_the_models_start),
        cmocka_unit_test(model_breaks_a_tie),
        cmocka_unit_test(model_probs_checks),
        cmocka_unit_test(crowdlab_by_hand),
        cmocka_unit_test(label_next_by_hand),
        cmocka_unit_test(label_next_equals_the_formula),
        cmocka_unit_test(diagnostics_by_hand),
        cmocka_unit_test(beta_quantile_closed_forms),
        cmocka_unit_test(diagnostics_pass_layouts_agree),
        cmocka_unit_test(diagnostics_from_em_counts_match_the_pass),
        cmocka_unit_test(spammers_and_adversaries),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
