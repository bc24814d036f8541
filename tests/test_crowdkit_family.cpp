// SPDX-License-Identifier: MIT
// wawa, zbs, glad, mace and m-msr (issue 13): one hand-checked round of each on a toy
// crowd, recovery on crowds simulated from each model's own generative process, the
// degenerate inputs (one worker, unanimous labels, unused classes), determinism for a
// seed and any thread count, and the digamma function MACE's variational updates use.
#include <algorithm>
#include <cmath>
#include <vector>

#include "crowd/em/mace.hpp"
#include "sim/crowd_sim.hpp"
#include "support/cmocka_cpp.hpp"
#include "support/fit_helpers.hpp"
#include "util/rng.hpp"

namespace {

// The toy crowd of tests/support/crowdkit_family_reference.py: 10 items, 4 workers, k = 3.
const int32_t kToy[][3] = {
    {0, 0, 0}, {0, 1, 0}, {0, 2, 1}, {0, 3, 0}, {1, 0, 1}, {1, 1, 1}, {1, 2, 1}, {2, 0, 2}, {2, 1, 0},
    {2, 2, 2}, {2, 3, 2}, {3, 0, 0}, {3, 2, 2}, {3, 3, 0}, {4, 0, 1}, {4, 1, 1}, {4, 3, 2}, {5, 1, 2},
    {5, 2, 2}, {5, 3, 2}, {6, 0, 0}, {6, 1, 1}, {6, 2, 0}, {6, 3, 0}, {7, 0, 2}, {7, 2, 1}, {7, 3, 2},
    {8, 1, 0}, {8, 2, 0}, {9, 0, 1}, {9, 1, 2}, {9, 2, 1}, {9, 3, 1},
};

test::Triples toy() {
    test::Triples t;
    for (const auto &row : kToy) t.add(row[0], row[1], row[2]);
    return t;
}

// Constants printed by `/usr/bin/python3 tests/support/crowdkit_family_reference.py`: an
// independent numpy/scipy implementation of the specifications (not of this code).
static const double kWawaPosteriors[30] = {
    0.78947368421052633, 0.21052631578947367, 0,
    0, 1, 0,
    0.19736842105263158, 0, 0.80263157894736836,
    0.73770491803278693, 0, 0.26229508196721313,
    0, 0.65000000000000002, 0.34999999999999998,
    0, 0, 1,
    0.80263157894736836, 0.19736842105263158, 0,
    0, 0.26229508196721313, 0.73770491803278693,
    1, 0, 0,
    0, 0.80263157894736836, 0.19736842105263158
};
static const double kZbsPosteriors3[30] = {
    0.78947368421052633, 0.21052631578947367, 0,
    0, 1, 0,
    0.19736842105263158, 0, 0.80263157894736836,
    0.73770491803278693, 0, 0.26229508196721313,
    0, 0.65000000000000002, 0.34999999999999998,
    0, 0, 1,
    0.80263157894736836, 0.19736842105263158, 0,
    0, 0.26229508196721313, 0.73770491803278693,
    1, 0, 0,
    0, 0.80263157894736836, 0.19736842105263158
};
static const double kZbsSkills3[4] = {
    1, 0.625, 0.66666666666666663,
    0.875
};
static const double kGladPosteriors0[30] = {
    0.99887674045205943, 0.0010873824324747433, 3.5877115465853203e-05,
    3.5914880153294128e-05, 0.99992817023969327, 3.5914880153294128e-05,
    0.0010873824324747414, 3.5877115465853135e-05, 0.99887674045205943,
    0.9670407157236619, 0.0010527255698133645, 0.031906558706524861,
    0.0010527255698133656, 0.9670407157236619, 0.031906558706524889,
    3.5914880153294135e-05, 3.5914880153294135e-05, 0.99992817023969349,
    0.99887674045205943, 0.0010873824324747414, 3.5877115465853135e-05,
    0.0010527255698133643, 0.031906558706524854, 0.96704071572366168,
    0.99782751950983717, 0.0010862402450814912, 0.0010862402450814912,
    3.5877115465853135e-05, 0.99887674045205943, 0.0010873824324747414
};
static const double kGladObjective0[1] = {
    -36.867537215160567
};
static const double kGladPosteriors1[30] = {
    0.99728282731034223, 0.0022485306761044614, 0.0004686420135533722,
    0.00011250764534517786, 0.99977498470930948, 0.00011250764534517786,
    0.00052992974908557975, 0.00013471703329418443, 0.99933535321762024,
    0.98043921692724745, 0.0038014641858945407, 0.015759318886858165,
    0.029231754081619356, 0.82801326839071154, 0.14275497752766914,
    0.00071052536758782784, 0.00071052536758782784, 0.99857894926482438,
    0.99933535321762001, 0.00052992974908557965, 0.00013471703329418438,
    0.0038014641858945433, 0.015759318886858175, 0.98043921692724723,
    0.94748355767201042, 0.02625822116399491, 0.02625822116399491,
    0.00013471703329418438, 0.99933535321762001, 0.00052992974908557965
};
static const double kGladObjective1[1] = {
    -29.750826661230828
};
static const double kMaceElbo0[1] = {
    -39.251548137274781
};
static const double kMacePosteriors1[30] = {
    0.95691221836533236, 0.034567612983725814, 0.0085201686509418419,
    0.0094151168197617874, 0.98116976636047648, 0.0094151168197617874,
    0.036030604932625908, 0.0085801593928543623, 0.95538923567451972,
    0.83391122403006979, 0.031179712669573829, 0.13490906330035626,
    0.032444858578601916, 0.83338010862742773, 0.13417503279397042,
    0.012728287527725889, 0.012728287527725889, 0.97454342494454826,
    0.95949034137718725, 0.032695464567210376, 0.0078141940556023526,
    0.032476320902995189, 0.13176134629517267, 0.8357623328018321,
    0.90601069907568599, 0.046994650462156999, 0.046994650462156999,
    0.008197126304636447, 0.95672784762279484, 0.035075026072568724
};
static const double kMaceElbo1[1] = {
    -37.672752460029237
};
static const double kMmsrPosteriors1[30] = {
    0.95558238066291623, 0.034890416538039662, 0.0095272027990442442,
    0.014823838075551172, 0.97035232384889758, 0.014823838075551172,
    0.01518302301720088, 0.0063595787838434349, 0.97845739819895561,
    0.90011194266172323, 0.021425141501669704, 0.078462915836607125,
    0.040840158054187822, 0.72998755723905662, 0.22917228470675563,
    0.019584031838769531, 0.019584031838769531, 0.960831936322461,
    0.97845739819895583, 0.015183023017200883, 0.0063595787838434358,
    0.021425141501669704, 0.078462915836607125, 0.90011194266172323,
    0.81383580891075835, 0.093082095544620741, 0.093082095544620741,
    0.0063595787838434358, 0.97845739819895583, 0.015183023017200883
};
static const double kMmsrAccuracy1[4] = {
    0.78918148932210797, 0.54415184401122529, 0.64677971223993913,
    0.73723779085589136
};

void expect_all(const std::vector<double> &got, const double *want, std::size_t n, double tol, const char *what) {
    assert_int_equal(got.size(), n);
    for (std::size_t i = 0; i < n; ++i) {
        if (!(std::fabs(got[i] - want[i]) <= tol)) {
            print_error("%s[%zu] = %.17g, expected %.17g\n", what, i, got[i], want[i]);
            fail();
        }
    }
}

test::Model fitted(const char *method, const test::Triples &t,
                   std::initializer_list<std::pair<const char *, const char *>> params = {}) {
    test::Model m = test::make_model(method);
    for (const auto &p : params) assert_int_equal(cs_set_param_string(m.get(), p.first, p.second), CS_OK);
    const cs_status s = test::fit(m.get(), t);
    if (s != CS_OK) {
        print_error("%s: %s\n", method, cs_last_error(m.get()));
        fail();
    }
    return m;
}

std::vector<double> trace_of(cs_model *m) {
    std::size_t n = 0;
    cs_trace_length(m, &n);
    std::vector<double> t(n);
    cs_trace(m, t.data(), n);
    return t;
}

std::vector<double> confusion_of(cs_model *m) {
    std::size_t w = 0, k = 0;
    cs_n_workers(m, &w);
    cs_n_classes(m, &k);
    std::vector<double> c(w * k * k);
    cs_confusion(m, c.data(), c.size());
    return c;
}

// Every output finite, rows that sum to 1.
void check_well_formed(cs_model *m, const char *what) {
    std::size_t n = 0, w = 0, k = 0;
    cs_n_items(m, &n);
    cs_n_workers(m, &w);
    cs_n_classes(m, &k);
    const std::vector<double> q = test::posteriors(m), c = confusion_of(m), t = trace_of(m);
    std::vector<double> prior(k);
    cs_class_prior(m, prior.data(), k);
    double ll = NAN;
    cs_log_likelihood(m, &ll);
    bool ok = std::isfinite(ll);
    for (double v : t) ok = ok && std::isfinite(v);
    for (std::size_t r = 0; r < n + w * k + 1; ++r) {
        const double *row = r < n ? &q[r * k] : r < n + w * k ? &c[(r - n) * k] : prior.data();
        double sum = 0.0;
        for (std::size_t l = 0; l < k; ++l) {
            ok = ok && std::isfinite(row[l]) && row[l] >= 0.0 && row[l] <= 1.0;
            sum += row[l];
        }
        ok = ok && std::fabs(sum - 1.0) < 1e-9;
    }
    if (!ok) {
        print_error("%s: an output is not finite or a row does not sum to 1\n", what);
        fail();
    }
}

const char *const kMethods[] = {"wawa", "zbs", "glad", "mace", "m-msr"};

}  // namespace

// --- one round by hand ---------------------------------------------------------------

static void wawa_one_round(void **) {
    auto m = fitted("wawa", toy());
    expect_all(test::posteriors(m.get()), kWawaPosteriors, 30, 1e-15, "wawa posteriors");
    int32_t it = 0;
    cs_iterations(m.get(), &it);
    assert_int_equal(it, 1);
    // max_iter = 0 is the plain majority vote.
    auto mv = fitted("mv", toy());
    auto w0 = fitted("wawa", toy(), {{"max_iter", "0"}});
    assert_true(test::posteriors(w0.get()) == test::posteriors(mv.get()));
}

static void zbs_three_rounds(void **) {
    auto m = fitted("zbs", toy(), {{"max_iter", "3"}, {"tol", "0"}});
    expect_all(test::posteriors(m.get()), kZbsPosteriors3, 30, 1e-15, "zbs posteriors");
    // Its one-coin matrices carry the skills on the diagonal.
    const std::vector<double> c = confusion_of(m.get());
    for (int i = 0; i < 4; ++i) assert_near(c[i * 9], kZbsSkills3[i], 1e-15);
    // At the default tol it stops once no skill moves: here after round 2 (round 1 sets
    // the agreements, round 2 finds the same vote).
    auto d = fitted("zbs", toy());
    int32_t it = 0, converged = 0;
    cs_iterations(d.get(), &it);
    cs_converged(d.get(), &converged);
    assert_int_equal(it, 2);
    assert_int_equal(converged, 1);
}

static void glad_start_and_one_round(void **) {
    auto m0 = fitted("glad", toy(), {{"max_iter", "0"}});
    expect_all(test::posteriors(m0.get()), kGladPosteriors0, 30, 1e-13, "glad posteriors at the start");
    auto m1 = fitted("glad", toy(), {{"max_iter", "1"}, {"tol", "0"}});
    expect_all(test::posteriors(m1.get()), kGladPosteriors1, 30, 1e-12, "glad posteriors after one round");
    const std::vector<double> t = trace_of(m1.get());
    assert_int_equal(t.size(), 1);
    assert_near(t[0], kGladObjective1[0], 1e-10);
    assert_true(t[0] > kGladObjective0[0]);  // generalised EM climbs
    // The objective never decreases over a longer run.
    auto m = fitted("glad", toy(), {{"max_iter", "50"}, {"tol", "0"}});
    const std::vector<double> long_trace = trace_of(m.get());
    for (std::size_t r = 1; r < long_trace.size(); ++r) assert_true(long_trace[r] >= long_trace[r - 1] - 1e-12);
}

static void mace_start_and_one_round(void **) {
    int32_t calls = 0;
    double start = NAN;
    struct Seen {
        int32_t *calls;
        double *start;
    } seen{&calls, &start};
    auto record = [](void *user, int32_t iteration, double objective) -> int32_t {
        auto *s = static_cast<Seen *>(user);
        if (iteration == 0) *s->start = objective;
        ++*s->calls;
        return 0;
    };
    test::Model m = test::make_model("mace");
    cs_set_param_string(m.get(), "starts", "1");
    cs_set_param_string(m.get(), "max_iter", "1");
    cs_set_param_string(m.get(), "tol", "0");
    cs_set_progress(m.get(), record, &seen);
    assert_int_equal(test::fit(m.get(), toy()), CS_OK);
    assert_int_equal(calls, 2);
    assert_near(start, kMaceElbo0[0], 1e-11);  // the ELBO of the seeded start
    expect_all(test::posteriors(m.get()), kMacePosteriors1, 30, 1e-12, "mace posteriors after one round");
    const std::vector<double> t = trace_of(m.get());
    assert_int_equal(t.size(), 1);
    assert_near(t[0], kMaceElbo1[0], 1e-11);
    // VB never lowers its bound.
    auto run = fitted("mace", toy(), {{"starts", "1"}, {"max_iter", "100"}, {"tol", "0"}});
    const std::vector<double> long_trace = trace_of(run.get());
    for (std::size_t r = 1; r < long_trace.size(); ++r) assert_true(long_trace[r] >= long_trace[r - 1] - 1e-12);
}

static void m_msr_one_round(void **) {
    auto m = fitted("m-msr", toy(), {{"max_iter", "1"}, {"tol", "0"}});
    expect_all(test::posteriors(m.get()), kMmsrPosteriors1, 30, 1e-12, "m-msr posteriors");
    const std::vector<double> c = confusion_of(m.get());
    for (int i = 0; i < 4; ++i) assert_near(c[i * 9], kMmsrAccuracy1[i], 1e-13);
}

static void digamma_values(void **) {
    // scipy.special.digamma at 0.5, 1, 2.5, 10 and 123.4.
    assert_near(cs::digamma(0.5), -1.9635100260214235, 1e-13);
    assert_near(cs::digamma(1.0), -0.57721566490153287, 1e-13);
    assert_near(cs::digamma(2.5), 0.70315664064524319, 1e-13);
    assert_near(cs::digamma(10.0), 2.2517525890667209, 1e-13);
    assert_near(cs::digamma(123.4), 4.8113737751162775, 1e-13);
}

// --- recovery on each model's own data ----------------------------------------------

namespace {

double error_of(cs_model *m, const std::vector<int32_t> &truth) {
    const std::vector<int32_t> got = test::labels(m);
    std::size_t wrong = 0;
    for (std::size_t j = 0; j < truth.size(); ++j) wrong += got[j] != truth[j];
    return static_cast<double>(wrong) / static_cast<double>(truth.size());
}

double correlation(const std::vector<double> &a, const std::vector<double> &b) {
    double ma = 0, mb = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        ma += a[i];
        mb += b[i];
    }
    ma /= a.size();
    mb /= b.size();
    double sab = 0, saa = 0, sbb = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        sab += (a[i] - ma) * (b[i] - mb);
        saa += (a[i] - ma) * (a[i] - ma);
        sbb += (b[i] - mb) * (b[i] - mb);
    }
    return sab / std::sqrt(saa * sbb);
}

// `per_item` distinct workers of `m` for each item, drawn by the generator.
std::vector<int32_t> draw_workers(cs::Rng &rng, int32_t m, int32_t per_item) {
    std::vector<int32_t> chosen;
    while (static_cast<int32_t>(chosen.size()) < per_item) {
        const int32_t w = static_cast<int32_t>(rng.uniform() * m);
        if (std::find(chosen.begin(), chosen.end(), w) == chosen.end()) chosen.push_back(w);
    }
    return chosen;
}

int32_t draw_class(cs::Rng &rng, int32_t k) { return std::min(k - 1, static_cast<int32_t>(rng.uniform() * k)); }

}  // namespace

// GLAD's generative process: abilities N(1, 1) (some workers below 0: worse than
// chance), log inverse difficulties N(0.5, 0.7), wrong labels uniform over the rest.
static void glad_recovers_glad_data(void **) {
    const int32_t n = 3000, m = 60, k = 3, per_item = 5;
    cs::Rng rng(11);
    std::vector<double> alpha(m), beta(n);
    for (double &a : alpha) a = 1.0 + rng.normal();
    for (double &b : beta) b = std::exp(0.5 + 0.7 * rng.normal());
    test::Triples t;
    std::vector<int32_t> truth(n);
    std::vector<double> right_sum(m, 0.0), count(m, 0.0);
    for (int32_t j = 0; j < n; ++j) {
        truth[j] = draw_class(rng, k);
        for (int32_t w : draw_workers(rng, m, per_item)) {
            const double s = 1.0 / (1.0 + std::exp(-alpha[w] * beta[j]));
            right_sum[w] += s;
            count[w] += 1.0;
            int32_t c = truth[j];
            if (rng.uniform() >= s) c = (truth[j] + 1 + draw_class(rng, k - 1)) % k;
            t.add(j, w, c);
        }
    }
    auto glad = fitted("glad", t);
    auto mv = fitted("mv", t);
    const double e_glad = error_of(glad.get(), truth), e_mv = error_of(mv.get(), truth);
    print_message("glad data: glad %.4f, mv %.4f\n", e_glad, e_mv);
    assert_true(e_glad < e_mv - 0.02);
    // Each worker's estimated accuracy follows its true mean sigma(alpha beta).
    const std::vector<double> c = confusion_of(glad.get());
    std::vector<double> est(m), want(m);
    for (int32_t i = 0; i < m; ++i) {
        est[i] = c[static_cast<std::size_t>(i) * k * k];
        want[i] = right_sum[i] / count[i];
    }
    assert_true(correlation(est, want) > 0.95);
    check_well_formed(glad.get(), "glad");
}

// MACE's generative process: each worker knows the answer with probability theta_i
// (a third are spammers, theta 0.05-0.2, who mostly answer class 0) or draws a label
// from its own distribution xi_i.
test::Triples mace_data(std::vector<int32_t> &truth, std::vector<double> &theta, int32_t &k_out) {
    const int32_t n = 2000, m = 50, k = 4, per_item = 5;
    cs::Rng rng(12);
    k_out = k;
    theta.assign(m, 0.0);
    std::vector<double> xi(static_cast<std::size_t>(m) * k);
    for (int32_t i = 0; i < m; ++i) {
        const bool spammer = i % 3 == 0;
        theta[i] = spammer ? 0.05 + 0.15 * rng.uniform() : 0.5 + 0.45 * rng.uniform();
        double total = 0.0;
        for (int32_t c = 0; c < k; ++c) total += (xi[i * k + c] = (spammer && c == 0 ? 6.0 : 0.5) + rng.uniform());
        for (int32_t c = 0; c < k; ++c) xi[i * k + c] /= total;
    }
    test::Triples t;
    truth.assign(n, 0);
    for (int32_t j = 0; j < n; ++j) {
        truth[j] = draw_class(rng, k);
        for (int32_t w : draw_workers(rng, m, per_item)) {
            int32_t c = truth[j];
            if (rng.uniform() >= theta[w]) {
                double u = rng.uniform();
                c = k - 1;
                for (int32_t l = 0; l < k; ++l) {
                    if (u < xi[w * k + l]) {
                        c = l;
                        break;
                    }
                    u -= xi[w * k + l];
                }
            }
            t.add(j, w, c);
        }
    }
    return t;
}

static void mace_recovers_mace_data(void **) {
    std::vector<int32_t> truth;
    std::vector<double> theta;
    int32_t k = 0;
    const test::Triples t = mace_data(truth, theta, k);
    const int32_t m = static_cast<int32_t>(theta.size());
    auto mace = fitted("mace", t);
    auto mv = fitted("mv", t);
    const double e_mace = error_of(mace.get(), truth), e_mv = error_of(mv.get(), truth);
    print_message("mace data: mace %.4f, mv %.4f\n", e_mace, e_mv);
    assert_true(e_mace < e_mv - 0.03);
    // theta_i = pi_i[1][1] - pi_i[0][1] under MACE's matrices.
    const std::vector<double> c = confusion_of(mace.get());
    std::vector<double> est(m);
    for (int32_t i = 0; i < m; ++i) est[i] = c[i * k * k + 1 * k + 1] - c[i * k * k + 0 * k + 1];
    assert_true(correlation(est, theta) > 0.95);
    check_well_formed(mace.get(), "mace");
}

// SQUAREM on mace's variational rounds (the default accel) ends at the bound plain VB
// (accel = none) converges to, with the same labels, in fewer rounds; every kept round
// raises the bound.
static void mace_squarem_reaches_plain_bound(void **) {
    std::vector<int32_t> truth;
    std::vector<double> theta;
    int32_t k = 0;
    const test::Triples t = mace_data(truth, theta, k);
    auto plain = fitted("mace", t, {{"starts", "1"}, {"accel", "none"}, {"tol", "1e-13"}, {"max_iter", "5000"}});
    auto fast = fitted("mace", t, {{"starts", "1"}, {"accel", "squarem"}, {"tol", "1e-13"}, {"max_iter", "5000"}});
    const std::vector<double> tp = trace_of(plain.get()), tf = trace_of(fast.get());
    print_message("mace rounds: plain %zu, squarem %zu; bounds %.10f %.10f\n", tp.size(), tf.size(), tp.back(),
                  tf.back());
    assert_true(tf.size() * 2 < tp.size());
    assert_true(std::fabs(tf.back() - tp.back()) <= 1e-8 * std::fabs(tp.back()));
    for (std::size_t r = 1; r < tf.size(); ++r) assert_true(tf[r] >= tf[r - 1]);
    assert_true(test::labels(plain.get()) == test::labels(fast.get()));
}

// One-coin workers, a fifth of them adversarial (accuracy 0.05-0.2): M-MSR's signed
// skills turn the adversaries' votes around; wawa and zbs, whose weights are >= 0,
// still improve on the plain vote when spammers are many.
static void one_coin_recovery(void **) {
    cs::sim::CrowdSpec spec;
    spec.n_items = 2000;
    spec.n_workers = 80;
    spec.k = 2;
    spec.labels_per_item = 9;
    spec.expert = 0.2;
    spec.normal = 0.6;
    spec.spammer = 0.0;
    spec.adversary = 0.2;
    spec.one_coin = true;
    spec.seed = 5;
    const cs::sim::Crowd adv = cs::sim::simulate_crowd(spec);
    test::Triples t;
    for (std::size_t e = 0; e < adv.item.size(); ++e) t.add(adv.item[e], adv.worker[e], adv.label[e]);
    auto msr = fitted("m-msr", t);
    auto mv = fitted("mv", t);
    const double e_msr = error_of(msr.get(), adv.truth), e_mv = error_of(mv.get(), adv.truth);
    print_message("adversarial one-coin: m-msr %.4f, mv %.4f\n", e_msr, e_mv);
    assert_true(e_msr < 0.5 * e_mv);
    // Its accuracies track the true ones (adversaries below 1/2).
    const std::vector<double> c = confusion_of(msr.get());
    std::vector<double> est(adv.n_workers), want(adv.n_workers);
    for (int32_t i = 0; i < adv.n_workers; ++i) {
        est[i] = c[static_cast<std::size_t>(i) * 4];
        want[i] = adv.confusion[static_cast<std::size_t>(i) * 4];
    }
    assert_true(correlation(est, want) > 0.95);
    check_well_formed(msr.get(), "m-msr");

    spec.adversary = 0.0;
    spec.spammer = 0.5;
    spec.normal = 0.3;
    spec.k = 3;
    const cs::sim::Crowd sp = cs::sim::simulate_crowd(spec);
    test::Triples s;
    for (std::size_t e = 0; e < sp.item.size(); ++e) s.add(sp.item[e], sp.worker[e], sp.label[e]);
    auto mv2 = fitted("mv", s);
    const double e_mv2 = error_of(mv2.get(), sp.truth);
    for (const char *method : {"wawa", "zbs"}) {
        auto fit = fitted(method, s);
        const double e = error_of(fit.get(), sp.truth);
        print_message("spammy one-coin: %s %.4f, mv %.4f\n", method, e, e_mv2);
        assert_true(e < e_mv2);
        check_well_formed(fit.get(), method);
    }
}

// --- degenerate inputs ---------------------------------------------------------------

static void one_worker(void **) {
    // One worker: every method returns its labels (nothing contradicts them).
    test::Triples t;
    const int32_t said[] = {0, 2, 1, 1, 0, 2};
    for (int32_t j = 0; j < 6; ++j) t.add(j, 0, said[j]);
    for (const char *method : kMethods) {
        auto m = fitted(method, t);
        check_well_formed(m.get(), method);
        const std::vector<int32_t> got = test::labels(m.get());
        for (int32_t j = 0; j < 6; ++j) assert_int_equal(got[j], said[j]);
    }
}

static void unanimous_labels_and_unused_classes(void **) {
    // Three workers who always agree; classes = 5 while only 0..2 occur.
    test::Triples t;
    for (int32_t j = 0; j < 9; ++j)
        for (int32_t i = 0; i < 3; ++i) t.add(j, i, j % 3);
    for (const char *method : kMethods) {
        auto m = fitted(method, t, {{"classes", "5"}});
        check_well_formed(m.get(), method);
        const std::vector<int32_t> got = test::labels(m.get());
        for (int32_t j = 0; j < 9; ++j) assert_int_equal(got[j], j % 3);
        // No item leans towards a class nobody gave.
        const std::vector<double> q = test::posteriors(m.get());
        for (int32_t j = 0; j < 9; ++j) assert_true(q[j * 5 + 3] < 0.01 && q[j * 5 + 4] < 0.01);
    }
    // Items without labels (items = 12): the class prior, finite.
    for (const char *method : kMethods) {
        auto m = fitted(method, t, {{"items", "12"}});
        check_well_formed(m.get(), method);
        int32_t notes = 0;
        cs_fit_notes(m.get(), &notes);
        assert_true((notes & CS_NOTE_UNLABELED_ITEMS) != 0);
    }
}

// --- determinism ---------------------------------------------------------------------

static void deterministic_for_any_thread_count(void **) {
    cs::sim::CrowdSpec spec;  // 120,000 labels: above the one-thread threshold
    spec.n_items = 12000;
    spec.n_workers = 300;
    spec.k = 3;
    spec.labels_per_item = 10;
    spec.seed = 9;
    const cs::sim::Crowd crowd = cs::sim::simulate_crowd(spec);
    test::Triples t;
    for (std::size_t e = 0; e < crowd.item.size(); ++e) t.add(crowd.item[e], crowd.worker[e], crowd.label[e]);
    for (const char *method : kMethods) {
        auto one = fitted(method, t, {{"threads", "1"}, {"max_iter", "30"}});
        auto two = fitted(method, t, {{"threads", "2"}, {"max_iter", "30"}});
        auto again = fitted(method, t, {{"threads", "2"}, {"max_iter", "30"}});
        assert_true(test::posteriors(one.get()) == test::posteriors(two.get()));
        assert_true(test::posteriors(two.get()) == test::posteriors(again.get()));
        assert_true(confusion_of(one.get()) == confusion_of(two.get()));
        assert_true(trace_of(one.get()) == trace_of(two.get()));
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(wawa_one_round),
        cmocka_unit_test(zbs_three_rounds),
        cmocka_unit_test(glad_start_and_one_round),
        cmocka_unit_test(mace_start_and_one_round),
        cmocka_unit_test(m_msr_one_round),
        cmocka_unit_test(digamma_values),
        cmocka_unit_test(glad_recovers_glad_data),
        cmocka_unit_test(mace_recovers_mace_data),
        cmocka_unit_test(mace_squarem_reaches_plain_bound),
        cmocka_unit_test(one_coin_recovery),
        cmocka_unit_test(one_worker),
        cmocka_unit_test(unanimous_labels_and_unused_classes),
        cmocka_unit_test(deterministic_for_any_thread_count),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
