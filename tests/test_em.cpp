// SPDX-License-Identifier: MIT
// Dawid-Skene EM: one round on a hand-computed example, zero confusion entries,
// confusion models, the estimated prior, and the monotone log-likelihood.
#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "support/cmocka_cpp.hpp"
#include "support/fit_helpers.hpp"
#include "sim/crowd_sim.hpp"

// Three items, two workers, k = 2:
//   item 0: w0 -> 0, w1 -> 0;  item 1: w0 -> 1, w1 -> 0;  item 2: w0 -> 1, w1 -> 1.
// Soft MV q = (1,0), (1/2,1/2), (0,1). The M-step (Z-5) gives
//   pi_0 = [[2/3, 1/3], [0, 1]],  pi_1 = [[1, 0], [1/3, 2/3]],
// and the E-step (Z-4) with the uniform prior: item likelihoods 1/2 * (2/3 + 0),
// 1/2 * (1/3 + 1/3), 1/2 * (0 + 2/3), so q = (1,0), (1/2,1/2), (0,1) again and
// LL = 3 log(1/3). Round 2 repeats round 1 exactly, so EM converges at round 2.
static test::Triples tiny() {
    test::Triples t;
    t.add(0, 0, 0); t.add(0, 1, 0);
    t.add(1, 0, 1); t.add(1, 1, 0);
    t.add(2, 0, 1); t.add(2, 1, 1);
    return t;
}

static void test_one_round_by_hand(void **) {
    auto m = test::make_model("ds");
    cs_set_param_string(m.get(), "prior", "uniform");
    cs_set_int(m.get(), CS_PARAM_MAX_ITER, 1);
    assert_int_equal(test::fit(m.get(), tiny()), CS_OK);
    const auto pi = test::confusion(m.get());
    const double expected[8] = {2.0 / 3, 1.0 / 3, 0, 1, 1, 0, 1.0 / 3, 2.0 / 3};
    for (int e = 0; e < 8; ++e) assert_near(pi[e], expected[e], 1e-15);
    const auto q = test::posteriors(m.get());
    const double q_expected[6] = {1, 0, 0.5, 0.5, 0, 1};
    for (int e = 0; e < 6; ++e) assert_near(q[e], q_expected[e], 1e-15);
    const auto tr = test::trace(m.get());
    assert_int_equal(tr.size(), 1);
    assert_near(tr[0], 3 * std::log(1.0 / 3), 1e-14);
    double ll = 0;
    assert_int_equal(cs_log_likelihood(m.get(), &ll), CS_OK);
    assert_near(ll, tr[0], 0);
    int32_t notes = -1;
    cs_fit_notes(m.get(), &notes);
    assert_int_equal(notes, CS_NOTE_MAX_ITER_REACHED);
}

static void test_converges_when_round_repeats(void **) {
    auto m = test::make_model("ds");
    assert_int_equal(test::fit(m.get(), tiny()), CS_OK);
    int32_t iterations = 0, converged = 0, notes = -1;
    cs_iterations(m.get(), &iterations);
    cs_converged(m.get(), &converged);
    cs_fit_notes(m.get(), &notes);
    assert_int_equal(iterations, 2);
    assert_int_equal(converged, 1);
    assert_int_equal(notes, 0);
}

// tol = 0 runs exactly max_iter rounds, even when the likelihood stops moving.
static void test_tol_zero_runs_exactly_max_iter(void **) {
    auto m = test::make_model("ds");
    cs_set_int(m.get(), CS_PARAM_MAX_ITER, 7);
    cs_set_double(m.get(), CS_PARAM_TOL, 0.0);
    assert_int_equal(test::fit(m.get(), tiny()), CS_OK);
    int32_t iterations = 0, converged = 1, notes = -1;
    cs_iterations(m.get(), &iterations);
    cs_converged(m.get(), &converged);
    cs_fit_notes(m.get(), &notes);
    assert_int_equal(iterations, 7);
    assert_int_equal(converged, 0);
    assert_int_equal(notes, 0);
    assert_int_equal(test::trace(m.get()).size(), 7);
}

// One-coin: p = trace / total of the M-step counts. From the soft-MV start worker 0
// has counts [[1, 1/2], [0, 3/2]] -> p = 2.5 / 3; worker 1 [[3/2, 0], [1/2, 1]] -> 2.5 / 3.
// Class-wise: worker 0 rows p = (2/3, 1), worker 1 rows p = (1, 2/3).
static void test_one_coin_models_by_hand(void **) {
    auto m = test::make_model("ds");
    cs_set_int(m.get(), CS_PARAM_MAX_ITER, 1);
    cs_set_param_string(m.get(), "confusion", "one-coin");
    assert_int_equal(test::fit(m.get(), tiny()), CS_OK);
    auto pi = test::confusion(m.get());
    const double p = 2.5 / 3;
    const double one_coin[8] = {p, 1 - p, 1 - p, p, p, 1 - p, 1 - p, p};
    for (int e = 0; e < 8; ++e) assert_near(pi[e], one_coin[e], 1e-15);

    cs_set_param_string(m.get(), "confusion", "class-one-coin");
    assert_int_equal(test::fit(m.get(), tiny()), CS_OK);
    pi = test::confusion(m.get());
    const double class_wise[8] = {2.0 / 3, 1.0 / 3, 0, 1, 1, 0, 1.0 / 3, 2.0 / 3};
    for (int e = 0; e < 8; ++e) assert_near(pi[e], class_wise[e], 1e-15);
}

// With the estimated prior, w is the mean posterior (Z-5).
static void test_estimated_prior_is_mean_posterior(void **) {
    cs::sim::CrowdSpec spec;
    spec.n_items = 600;
    spec.n_workers = 30;
    spec.k = 3;
    spec.class_prior = {0.6, 0.3, 0.1};
    spec.seed = 7;
    const auto crowd = cs::sim::simulate_crowd(spec);
    auto m = test::make_model("ds");
    cs_set_param_string(m.get(), "prior", "estimated");
    cs_set_param_string(m.get(), "calibration", "none");  // the model's own posteriors
    assert_int_equal(cs_fit(m.get(), crowd.item.data(), crowd.worker.data(), crowd.label.data(),
                            crowd.item.size()), CS_OK);
    std::vector<double> w(3);
    assert_int_equal(cs_class_prior(m.get(), w.data(), w.size()), CS_OK);
    // The prior printed is the one the last E-step used, i.e. the mean of the
    // posteriors of the previous round; at convergence the two agree closely.
    const auto q = test::posteriors(m.get());
    for (int l = 0; l < 3; ++l) {
        double mean = 0;
        for (int j = 0; j < spec.n_items; ++j) mean += q[j * 3 + l] / spec.n_items;
        assert_near(w[l], mean, 1e-6);
    }
    // The simulated classes occur 338, 200 and 62 times out of 600.
    assert_near(w[0], 338.0 / 600, 0.05);
    assert_near(w[2], 62.0 / 600, 0.05);
}

// EM never decreases the marginal log-likelihood, for every confusion model and
// both starts (ds, opt-ds), on a simulated crowd with spammers and adversaries.
static void test_log_likelihood_never_decreases(void **) {
    cs::sim::CrowdSpec spec;
    spec.n_items = 1500;
    spec.n_workers = 60;
    spec.k = 4;
    spec.labels_per_item = 4;
    spec.seed = 11;
    const auto crowd = cs::sim::simulate_crowd(spec);
    for (const char *method : {"ds", "opt-ds"})
        for (const char *model : {"full", "one-coin", "class-one-coin"})
            for (const char *prior : {"uniform", "estimated"}) {
                auto m = test::make_model(method);
                cs_set_param_string(m.get(), "confusion", model);
                cs_set_param_string(m.get(), "prior", prior);
                assert_int_equal(cs_fit(m.get(), crowd.item.data(), crowd.worker.data(),
                                        crowd.label.data(), crowd.item.size()), CS_OK);
                const auto tr = test::trace(m.get());
                assert_true(tr.size() >= 2);
                for (std::size_t r = 1; r < tr.size(); ++r) {
                    if (tr[r] < tr[r - 1] - 1e-10 * std::fabs(tr[r - 1])) {
                        print_error("%s/%s/%s: LL decreased at round %zu: %.15g -> %.15g\n", method,
                                    model, prior, r + 1, tr[r - 1], tr[r]);
                        fail();
                    }
                }
            }
}

// Gold labels pin items (semi-supervised EM). On the tiny example with item 1
// known to be class 1, soft MV is (1,0), (0,1), (0,1); the M-step gives
// pi_0 = [[1, 0], [0, 1]] and pi_1 = [[1, 0], [1/2, 1/2]]; the E-step with the
// uniform prior gives q = (1,0), (0,1), (0,1) and LL = log(1/2) + log(1/2 * 1 * 1/2)
// + log(1/2 * 1 * 1/2) = -5 log 2.
static void test_gold_items_are_pinned(void **) {
    auto m = test::make_model("ds");
    cs_set_param_string(m.get(), "prior", "uniform");
    cs_set_int(m.get(), CS_PARAM_MAX_ITER, 1);
    const int32_t gold_item[] = {1}, gold_label[] = {1};
    assert_int_equal(cs_set_gold(m.get(), gold_item, gold_label, 1), CS_OK);
    assert_int_equal(test::fit(m.get(), tiny()), CS_OK);
    const auto pi = test::confusion(m.get());
    const double expected[8] = {1, 0, 0, 1, 1, 0, 0.5, 0.5};
    for (int e = 0; e < 8; ++e) assert_near(pi[e], expected[e], 1e-15);
    const auto q = test::posteriors(m.get());
    const double q_expected[6] = {1, 0, 0, 1, 0, 1};
    for (int e = 0; e < 6; ++e) assert_near(q[e], q_expected[e], 1e-15);
    assert_near(test::trace(m.get())[0], -5 * std::log(2.0), 1e-14);

    // mv and crowd-lloyd return the gold class too; clearing restores the tie.
    for (const char *method : {"mv", "crowd-lloyd", "opt-ds"}) {
        cs_set_param_string(m.get(), "method", method);
        assert_int_equal(test::fit(m.get(), tiny()), CS_OK);
        assert_int_equal(test::labels(m.get())[1], 1);
    }
    assert_int_equal(cs_set_gold(m.get(), nullptr, nullptr, 0), CS_OK);
    cs_set_param_string(m.get(), "method", "mv");
    assert_int_equal(test::fit(m.get(), tiny()), CS_OK);
    assert_int_equal(test::labels(m.get())[1], 0);
}

// Gold on a fifth of the items of a hard crowd (many spammers) helps the others.
static void test_gold_helps_the_other_items(void **) {
    cs::sim::CrowdSpec spec;
    spec.n_items = 2000;
    spec.n_workers = 60;
    spec.k = 3;
    spec.labels_per_item = 3;
    spec.spammer = 0.5;
    spec.seed = 3;
    const auto crowd = cs::sim::simulate_crowd(spec);
    std::vector<int32_t> gold_item, gold_label;
    for (int32_t j = 0; j < spec.n_items; j += 5) {
        gold_item.push_back(j);
        gold_label.push_back(crowd.truth[j]);
    }
    double errors[2];
    for (int with_gold = 0; with_gold < 2; ++with_gold) {
        auto m = test::make_model("ds");
        if (with_gold)
            assert_int_equal(cs_set_gold(m.get(), gold_item.data(), gold_label.data(), gold_item.size()), CS_OK);
        assert_int_equal(cs_fit(m.get(), crowd.item.data(), crowd.worker.data(), crowd.label.data(),
                                crowd.item.size()), CS_OK);
        const auto labels = test::labels(m.get());
        int wrong = 0, scored = 0;
        for (int32_t j = 0; j < spec.n_items; ++j) {
            if (j % 5 == 0) continue;
            ++scored;
            wrong += labels[j] != crowd.truth[j];
        }
        errors[with_gold] = static_cast<double>(wrong) / scored;
    }
    print_message("error on non-gold items: %.4f without gold, %.4f with\n", errors[0], errors[1]);
    assert_true(errors[1] < errors[0]);
}

static void test_gold_errors(void **) {
    auto m = test::make_model("ds");
    const int32_t neg[] = {-1}, one[] = {1}, two[] = {2, 2}, classes[] = {0, 1}, big[] = {7};
    assert_int_equal(cs_set_gold(m.get(), neg, one, 1), CS_ERR_INVALID_ID);
    assert_int_equal(cs_set_gold(m.get(), one, neg, 1), CS_ERR_INVALID_LABEL);
    assert_int_equal(cs_set_gold(m.get(), two, classes, 2), CS_ERR_DUPLICATE);
    assert_non_null(strstr(cs_last_error(m.get()), "gold item 2 has two classes"));
    assert_int_equal(cs_set_gold(m.get(), nullptr, one, 1), CS_ERR_NULL_POINTER);
    // Out of range for the declared sizes: reported at fit time.
    assert_int_equal(cs_set_gold(m.get(), one, big, 1), CS_OK);
    cs_set_int(m.get(), CS_PARAM_CLASSES, 2);
    assert_int_equal(test::fit(m.get(), tiny()), CS_ERR_INVALID_LABEL);
    assert_non_null(strstr(cs_last_error(m.get()), "gold label 7"));
    assert_int_equal(cs_set_gold(m.get(), big, one, 1), CS_OK);
    cs_set_int(m.get(), CS_PARAM_ITEMS, 3);
    assert_int_equal(test::fit(m.get(), tiny()), CS_ERR_INVALID_ID);
    // With n_items inferred, a gold item beyond the labelled ones extends it.
    cs_set_int(m.get(), CS_PARAM_ITEMS, 0);
    assert_int_equal(test::fit(m.get(), tiny()), CS_OK);
    std::size_t n = 0;
    cs_n_items(m.get(), &n);
    assert_int_equal(n, 8);
    assert_int_equal(test::labels(m.get())[7], 1);
}

// A textbook Dawid-Skene EM written out here in plain loops (log space, libm's exp and
// log), independent of the library's kernels: the soft majority vote, then rounds of
// M-step (confusion rows with the pseudo-count `smoothing`, the prior the mean
// posterior) and E-step. With `answered`, a class that no label of an item names is
// impossible for it; gold items are pinned and add the log-likelihood of their class.
struct Textbook {
    const cs::sim::Crowd &c;
    const std::vector<int32_t> &gold;
    double smoothing;
    bool answered;
    std::vector<std::vector<std::size_t>> by_item;

    struct Params {
        std::vector<double> pi;  // worker x true x observed
        std::vector<double> w;   // k
    };

    Textbook(const cs::sim::Crowd &crowd, const std::vector<int32_t> &g, double s, bool a)
        : c(crowd), gold(g), smoothing(s), answered(a), by_item(static_cast<std::size_t>(crowd.n_items)) {
        for (std::size_t p = 0; p < c.item.size(); ++p) by_item[c.item[p]].push_back(p);
    }

    std::vector<double> majority_vote() const {
        const int32_t k = c.k;
        std::vector<double> q(static_cast<std::size_t>(c.n_items) * k, 0.0);
        for (int32_t j = 0; j < c.n_items; ++j) {
            for (std::size_t p : by_item[j]) q[j * k + c.label[p]] += 1.0 / by_item[j].size();
            if (gold[j] >= 0)
                for (int32_t l = 0; l < k; ++l) q[j * k + l] = l == gold[j] ? 1.0 : 0.0;
        }
        return q;
    }

    Params m_step(const std::vector<double> &q) const {
        const int32_t k = c.k, n = c.n_items, m = c.n_workers;
        Params t{std::vector<double>(static_cast<std::size_t>(m) * k * k, smoothing), std::vector<double>(k, 0.0)};
        for (std::size_t p = 0; p < c.item.size(); ++p)
            for (int32_t l = 0; l < k; ++l) t.pi[(c.worker[p] * k + l) * k + c.label[p]] += q[c.item[p] * k + l];
        for (int32_t row = 0; row < m * k; ++row) {
            double mass = 0.0;
            for (int32_t o = 0; o < k; ++o) mass += t.pi[row * k + o];
            for (int32_t o = 0; o < k; ++o) t.pi[row * k + o] = mass > 0.0 ? t.pi[row * k + o] / mass : 1.0 / k;
        }
        for (int32_t j = 0; j < n; ++j)
            for (int32_t l = 0; l < k; ++l) t.w[l] += q[j * k + l] / n;
        return t;
    }

    // The posteriors at t into q; returns the log-likelihood. A non-gold item with
    // every class impossible gets the prior and adds nothing.
    double e_step(const Params &t, std::vector<double> &q) const {
        const int32_t k = c.k;
        double ll = 0.0;
        for (int32_t j = 0; j < c.n_items; ++j) {
            std::vector<double> s(k);
            for (int32_t l = 0; l < k; ++l) {
                s[l] = std::log(t.w[l]);
                for (std::size_t p : by_item[j]) s[l] += std::log(t.pi[(c.worker[p] * k + l) * k + c.label[p]]);
                bool named = !answered;
                for (std::size_t p : by_item[j]) named = named || c.label[p] == l;
                if (!named) s[l] = -INFINITY;
            }
            if (gold[j] >= 0) {  // q stays pinned; an impossible gold class adds nothing
                if (s[gold[j]] != -INFINITY) ll += s[gold[j]];
                continue;
            }
            double top = s[0];
            for (int32_t l = 1; l < k; ++l) top = std::max(top, s[l]);
            if (top == -INFINITY) {
                double mass = 0.0;
                for (int32_t l = 0; l < k; ++l) mass += t.w[l];
                for (int32_t l = 0; l < k; ++l) q[j * k + l] = t.w[l] / mass;
                continue;
            }
            double sum = 0.0;
            for (int32_t l = 0; l < k; ++l) sum += std::exp(s[l] - top);
            for (int32_t l = 0; l < k; ++l) q[j * k + l] = std::exp(s[l] - top) / sum;
            ll += top + std::log(sum);
        }
        return ll;
    }
};

// Plain EM: `rounds` rounds from the majority vote. Returns the last posteriors;
// `trace` gets the log-likelihood of every E-step.
static std::vector<double> textbook_em(const cs::sim::Crowd &c, const std::vector<int32_t> &gold, int rounds,
                                       double smoothing, bool answered, std::vector<double> &trace) {
    const Textbook em(c, gold, smoothing, answered);
    std::vector<double> q = em.majority_vote();
    trace.clear();
    for (int r = 0; r < rounds; ++r) trace.push_back(em.e_step(em.m_step(q), q));
    return q;
}

// SQUAREM as docs/algorithms.md describes the library's (Varadhan and Roland 2008, SqS3,
// on the logarithms of the parameters, with the SQUAREM package's adaptive bound on the
// step), written out from that description: after the first round at a, each cycle
// takes b = F(a) (a kept round), c = F(b), r = log b - log a and v = log c - 2 log b +
// log a over the entries nonzero in all three, alpha = -||r|| / ||v|| within
// [-alpha_max, -1]; if alpha < -1 the point exp(log a - 2 alpha r + alpha^2 v) (c's
// value where that is 0 or not finite, or the entry is unused), rows renormalised, is
// kept when its log-likelihood is at least b's, else c is; the bound is multiplied by 4
// after a kept step at the bound and divided by 4 (not below 1) after a rejected one.
static std::vector<double> textbook_squarem(const cs::sim::Crowd &c, const std::vector<int32_t> &gold, int rounds,
                                            std::vector<double> &trace, int &kept, int &tried) {
    const Textbook em(c, gold, 0.0, c.k >= 3);
    const int32_t k = c.k;
    std::vector<double> q = em.majority_vote();
    Textbook::Params a = em.m_step(q);
    trace.assign(1, em.e_step(a, q));
    double alpha_max = 1.0;
    kept = tried = 0;
    while (static_cast<int>(trace.size()) < rounds) {
        const Textbook::Params b = em.m_step(q);
        const double at_b = em.e_step(b, q);
        trace.push_back(at_b);
        if (static_cast<int>(trace.size()) == rounds) break;
        const Textbook::Params cc = em.m_step(q);
        // The parameters in one list: confusion entries, then the prior.
        const auto flat = [](const Textbook::Params &t) {
            std::vector<double> x = t.pi;
            x.insert(x.end(), t.w.begin(), t.w.end());
            return x;
        };
        const std::vector<double> xa = flat(a), xb = flat(b), xc = flat(cc);
        std::vector<double> r(xa.size(), 0.0), v(xa.size(), 0.0);
        double r2 = 0.0, v2 = 0.0;
        for (std::size_t e = 0; e < xa.size(); ++e) {
            if (xa[e] == 0.0 || xb[e] == 0.0 || xc[e] == 0.0) continue;
            r[e] = std::log(xb[e]) - std::log(xa[e]);
            v[e] = std::log(xc[e]) - 2.0 * std::log(xb[e]) + std::log(xa[e]);
            r2 += r[e] * r[e];
            v2 += v[e] * v[e];
        }
        double alpha = v2 > 0.0 ? -std::sqrt(r2 / v2) : -1.0;
        alpha = std::max(-alpha_max, std::min(-1.0, alpha));
        bool accepted = false, rejected = false;
        std::vector<double> q_trial = q;
        if (alpha < -1.0) {
            ++tried;
            std::vector<double> x = xc;
            for (std::size_t e = 0; e < x.size(); ++e) {
                if (xa[e] == 0.0 || xb[e] == 0.0 || xc[e] == 0.0) continue;
                const double y = std::exp(std::log(xa[e]) - 2.0 * alpha * r[e] + alpha * alpha * v[e]);
                if (y > 0.0 && std::isfinite(y)) x[e] = y;
            }
            for (std::size_t row = 0; row < x.size(); row += k) {  // k x k rows, then the prior
                double sum = 0.0;
                for (int32_t l = 0; l < k; ++l) sum += x[row + l];
                for (int32_t l = 0; l < k; ++l) x[row + l] /= sum;
            }
            Textbook::Params trial{std::vector<double>(x.begin(), x.end() - k), std::vector<double>(x.end() - k, x.end())};
            const double at_trial = em.e_step(trial, q_trial);
            accepted = at_trial >= at_b;
            rejected = !accepted;
            if (accepted) {
                a = trial;
                q = q_trial;
                trace.push_back(at_trial);
                ++kept;
            }
        }
        if (!accepted) {
            a = cc;
            trace.push_back(em.e_step(a, q));
        }
        if (alpha <= -alpha_max) alpha_max = rejected ? std::max(1.0, alpha_max / 4.0) : alpha_max * 4.0;
    }
    return q;
}

// Plain EM: `rounds` E-steps from the parameters `start`, each but the first after an
// M-step. Returns the last posteriors; `trace` gets the log-likelihood of every E-step.
static std::vector<double> textbook_em_from(const cs::sim::Crowd &c, const std::vector<int32_t> &gold, int rounds,
                                            const Textbook::Params &start, std::vector<double> &trace) {
    const Textbook em(c, gold, 0.0, false);
    std::vector<double> q(static_cast<std::size_t>(c.n_items) * c.k, 0.0);
    for (int32_t j = 0; j < c.n_items; ++j)
        if (gold[j] >= 0) q[j * c.k + gold[j]] = 1.0;
    trace.assign(1, em.e_step(start, q));
    while (static_cast<int>(trace.size()) < rounds) trace.push_back(em.e_step(em.m_step(q), q));
    return q;
}

// The largest |x - want| (relative to |want| with `relative`) over equal-length
// vectors; a NaN difference is kept, so that it fails the test.
static double largest_gap(const std::vector<double> &x, const std::vector<double> &want, bool relative) {
    double worst = 0.0;
    for (std::size_t e = 0; e < x.size(); ++e) {
        const double d = std::fabs(x[e] - want[e]) / (relative ? std::fabs(want[e]) : 1.0);
        if (!(d <= worst)) worst = d;
    }
    return worst;
}

// The posteriors and trace of `rounds` ds rounds (tol 0) with the given accel, threads,
// smoothing and gold items; with `start`, from those confusion matrices and prior.
static std::pair<std::vector<double>, std::vector<double>> fit_ds(const cs::sim::Crowd &crowd, const char *accel,
                                                                  int rounds, int threads, double smoothing,
                                                                  const std::vector<int32_t> &gold_item,
                                                                  const std::vector<int32_t> &gold_label,
                                                                  const Textbook::Params *start = nullptr) {
    auto m = test::make_model("ds");
    cs_set_param_string(m.get(), "accel", accel);
    cs_set_param_string(m.get(), "calibration", "none");  // EM's posteriors, as the textbook's
    cs_set_int(m.get(), CS_PARAM_MAX_ITER, rounds);
    cs_set_double(m.get(), CS_PARAM_TOL, 0.0);
    cs_set_int(m.get(), CS_PARAM_THREADS, threads);
    cs_set_double(m.get(), CS_PARAM_SMOOTHING, smoothing);
    if (!gold_item.empty())
        assert_int_equal(cs_set_gold(m.get(), gold_item.data(), gold_label.data(), gold_item.size()), CS_OK);
    if (start != nullptr) {
        assert_int_equal(cs_set_initial_confusion(m.get(), start->pi.data(), start->pi.size()), CS_OK);
        assert_int_equal(cs_set_initial_prior(m.get(), start->w.data(), start->w.size()), CS_OK);
    }
    assert_int_equal(
        cs_fit(m.get(), crowd.item.data(), crowd.worker.data(), crowd.label.data(), crowd.item.size()), CS_OK);
    return {test::posteriors(m.get()), test::trace(m.get())};
}

// The library's kernels (k = 2 from one log ratio per label, k = 3..5 in batches, the
// by-item kernel of many workers, the generic one for k = 6; with k >= 3 and count
// tables of 8 MiB or more -- 60,000 workers at k = 5, 120,000 at k = 3, 32,000 at
// k = 6 -- the counts gathered by code) against the textbook EM:
// posteriors within 1e-12 and every log-likelihood of the trace within 1e-12 relative,
// with and without gold items, smoothed and not, on 1 and 2 threads (bit for bit the
// same); 120,000 labels, above the size at which a fit takes a second thread.
static void test_kernels_match_textbook_em(void **) {
    struct Case {
        int32_t k, workers;
        double smoothing;
        bool gold;
    };
    const Case cases[] = {{2, 200, 0.0, false}, {2, 200, 0.0, true},  {2, 200, 0.5, false},
                          {3, 200, 0.0, false}, {5, 200, 0.0, true},  {2, 40000, 0.0, false},
                          {5, 30000, 0.0, false}, {6, 200, 0.0, false},  {5, 60000, 0.0, false},
                          {3, 120000, 0.0, true}, {6, 32000, 0.0, false}};
    for (const Case &cs_case : cases) {
        cs::sim::CrowdSpec spec;
        spec.n_items = 24000;
        spec.n_workers = cs_case.workers;
        spec.k = cs_case.k;
        spec.labels_per_item = 5;
        spec.seed = 11;
        const auto crowd = cs::sim::simulate_crowd(spec);
        std::vector<int32_t> gold(spec.n_items, -1), gold_item, gold_label;
        if (cs_case.gold)
            for (int32_t j = 0; j < spec.n_items; j += 7) {
                gold[j] = crowd.truth[j];
                gold_item.push_back(j);
                gold_label.push_back(crowd.truth[j]);
            }
        const int rounds = 8;
        const bool answered = cs_case.k >= 3;  // support = auto
        std::vector<double> want_trace;
        const std::vector<double> want = textbook_em(crowd, gold, rounds, cs_case.smoothing, answered, want_trace);
        std::vector<double> first;
        for (int threads : {1, 2}) {
            const auto [q, tr] = fit_ds(crowd, "none", rounds, threads, cs_case.smoothing, gold_item, gold_label);
            assert_int_equal(q.size(), want.size());
            assert_int_equal(tr.size(), want_trace.size());
            const double worst = largest_gap(q, want, false), worst_ll = largest_gap(tr, want_trace, true);
            print_message("k = %d, %d workers, smoothing %g%s, %d thread(s): max |dq| %.2e, max rel dLL %.2e\n",
                          cs_case.k, cs_case.workers, cs_case.smoothing, cs_case.gold ? ", gold" : "", threads, worst,
                          worst_ll);
            assert_true(worst <= 1e-12);
            assert_true(worst_ll <= 1e-12);
            if (threads == 1) first = q;
            else assert_memory_equal(first.data(), q.data(), q.size() * sizeof(double));
        }
    }
}

// The library's SQUAREM (the default accel of ds) against textbook_squarem, round by
// round: the same trace within 1e-11 relative and the same posteriors within 1e-9
// (the extrapolation amplifies the kernels' rounding, about 1e-15, by up to alpha^2),
// at k = 2 (the log ratio kernel), k = 3 and, with 45,000 workers, k = 5 (counts
// gathered by code), on 1 and 2 threads (bit for bit the same). Any step taken from
// logs of another point than a, b or c moves the trace far beyond that.
static void test_squarem_matches_textbook(void **) {
    struct Case {
        int32_t k, workers, items;
    };
    for (const Case cs_case : {Case{2, 200, 24000}, Case{3, 200, 24000}, Case{5, 45000, 100000}}) {
        cs::sim::CrowdSpec spec;
        spec.n_items = cs_case.items;
        spec.n_workers = cs_case.workers;
        spec.k = cs_case.k;
        spec.labels_per_item = 5;
        spec.seed = 12;
        const auto crowd = cs::sim::simulate_crowd(spec);
        const std::vector<int32_t> gold(spec.n_items, -1);
        const int rounds = cs_case.k == 5 ? 40 : 15;
        std::vector<double> want_trace;
        int kept = 0, tried = 0;
        const std::vector<double> want = textbook_squarem(crowd, gold, rounds, want_trace, kept, tried);
        print_message("textbook: %d extrapolations tried, %d kept\n", tried, kept);
        assert_true(kept >= 1);  // the case takes extrapolated steps
        std::vector<double> first;
        for (int threads : {1, 2}) {
            const auto [q, tr] = fit_ds(crowd, "squarem", rounds, threads, 0.0, {}, {});
            assert_int_equal(q.size(), want.size());
            assert_int_equal(tr.size(), want_trace.size());
            const double worst = largest_gap(q, want, false), worst_ll = largest_gap(tr, want_trace, true);
            print_message("squarem k = %d, %d workers, %d thread(s): %d extrapolations kept, max |dq| %.2e, max rel "
                          "dLL %.2e\n",
                          cs_case.k, cs_case.workers, threads, kept, worst, worst_ll);
            assert_true(worst <= 1e-9);
            assert_true(worst_ll <= 1e-11);
            if (threads == 1) first = q;
            else assert_memory_equal(first.data(), q.data(), q.size() * sizeof(double));
        }
    }
}

// k = 2 when some labels have no log ratio: started from confusion matrices with zero
// and tiny entries, the library's k = 2 kernel (which takes the items with such a label
// from their two sums, and the others from one ratio per label) against the textbook
// EM, within 1e-12, on 1 and 2 threads (bit for bit the same). Worker 0 never says 1 of
// a true 0 (log pi[0][1] = -inf: a ratio of -inf), worker 1 never says 0 of a true 1
// (log pi[1][0] = -inf: no ratio), worker 2 says it with probability 1e-50 (log pi[1][0]
// = -115, below the ratios' bound of -100: no ratio); three items get a 1 from worker 0
// and a 0 from worker 1, impossible under both classes (the prior, 0.6 and 0.4, and no
// log-likelihood); every 7th item is gold. All of that is in the first E-step (the
// M-step's counts make every entry positive and above e^-100); the later rounds check
// what follows from it. Workers 1 and 2 give 1 % of the labels, under the share of
// labels without a ratio up to which the kernel runs (2 %). Each of these mutants fails
// it: no log pi[c][1] in an item's share, the impossible items' posterior 1/2, a gold 0
// with a ratio of -inf kept in the ratio kernel, a gold item's share left in.
static void test_ratio_kernel_without_some_ratios(void **) {
    cs::sim::CrowdSpec spec;
    spec.n_items = 24000;
    spec.n_workers = 200;
    spec.k = 2;
    spec.labels_per_item = 5;
    spec.seed = 13;
    cs::sim::Crowd crowd = cs::sim::simulate_crowd(spec);
    int32_t added = 0;
    for (int32_t j = 0; j < crowd.n_items && added < 3; ++j) {
        bool free = true;
        for (std::size_t p = 0; p < crowd.item.size(); ++p)
            free = free && !(crowd.item[p] == j && crowd.worker[p] <= 1);
        if (!free) continue;
        for (const auto &[worker, label] : {std::pair<int32_t, int32_t>{0, 1}, {1, 0}}) {
            crowd.item.push_back(j);
            crowd.worker.push_back(worker);
            crowd.label.push_back(label);
        }
        ++added;
    }
    std::vector<double> start = crowd.confusion;  // worker x true x observed
    start[0 * 4 + 0 * 2 + 0] = 1.0, start[0 * 4 + 0 * 2 + 1] = 0.0;
    start[1 * 4 + 1 * 2 + 0] = 0.0, start[1 * 4 + 1 * 2 + 1] = 1.0;
    start[2 * 4 + 1 * 2 + 0] = 1e-50, start[2 * 4 + 1 * 2 + 1] = 1.0 - 1e-50;
    std::size_t sparse = 0;
    for (std::size_t p = 0; p < crowd.item.size(); ++p) sparse += crowd.worker[p] == 1 || crowd.worker[p] == 2;
    print_message("labels of workers 1 and 2: %.2f %%\n", 100.0 * sparse / crowd.item.size());
    assert_true(sparse < crowd.item.size() / 50);
    std::vector<int32_t> gold(spec.n_items, -1), gold_item, gold_label;
    for (int32_t j = 0; j < spec.n_items; j += 7) {
        gold[j] = crowd.truth[j];
        gold_item.push_back(j);
        gold_label.push_back(crowd.truth[j]);
    }
    const int rounds = 8;
    std::vector<double> want_trace;
    const Textbook::Params t_start{start, {0.6, 0.4}};
    const std::vector<double> want = textbook_em_from(crowd, gold, rounds, t_start, want_trace);
    std::vector<double> first;
    for (int threads : {1, 2}) {
        const auto [q, tr] = fit_ds(crowd, "none", rounds, threads, 0.0, gold_item, gold_label, &t_start);
        assert_int_equal(q.size(), want.size());
        assert_int_equal(tr.size(), want_trace.size());
        const double worst = largest_gap(q, want, false), worst_ll = largest_gap(tr, want_trace, true);
        print_message("%d thread(s): max |dq| %.2e, max rel dLL %.2e\n", threads, worst, worst_ll);
        assert_true(worst <= 1e-12);
        assert_true(worst_ll <= 1e-12);
        if (threads == 1) first = q;
        else assert_memory_equal(first.data(), q.data(), q.size() * sizeof(double));
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_round_by_hand),
        cmocka_unit_test(test_converges_when_round_repeats),
        cmocka_unit_test(test_tol_zero_runs_exactly_max_iter),
        cmocka_unit_test(test_one_coin_models_by_hand),
        cmocka_unit_test(test_estimated_prior_is_mean_posterior),
        cmocka_unit_test(test_log_likelihood_never_decreases),
        cmocka_unit_test(test_gold_items_are_pinned),
        cmocka_unit_test(test_gold_helps_the_other_items),
        cmocka_unit_test(test_gold_errors),
        cmocka_unit_test(test_kernels_match_textbook_em),
        cmocka_unit_test(test_squarem_matches_textbook),
        cmocka_unit_test(test_ratio_kernel_without_some_ratios),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
