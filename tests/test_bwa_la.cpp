// SPDX-License-Identifier: MIT
// bwa, la and la-onepass: hand-computed cases, degenerate inputs (one worker,
// unanimous items, a class nobody chose, items without labels, gold), the stopping rule,
// the parameters, determinism over seeds and thread counts, finite outputs; the exact
// code split (util/fixed_divisor.hpp) both use, through the internal header.
//
// The expected numbers come from tests/reference/bwa_la_reference.py
// (`/usr/bin/python3 tests/reference/bwa_la_reference.py hand`), a numpy implementation
// written from the equations of docs/algorithms.md (dense per-class arrays and
// np.bincount for BWA, a dict of each item's labels for LA), not from the C++ code; the
// first BWA iteration of case A and LA on case C are also worked out by hand below.
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "support/cmocka_cpp.hpp"
#include "support/crowd_invariants.hpp"
#include "support/fit_helpers.hpp"
#include "util/fixed_divisor.hpp"

namespace {

// Case A (k = 2): item 0: w0 -> 0, w1 -> 0, w2 -> 1; item 1: w0, w1, w2 -> 1;
// item 2: w0 -> 0, w1 -> 1.
test::Triples case_a() {
    test::Triples t;
    t.add(0, 0, 0); t.add(0, 1, 0); t.add(0, 2, 1);
    t.add(1, 0, 1); t.add(1, 1, 1); t.add(1, 2, 1);
    t.add(2, 0, 0); t.add(2, 1, 1);
    return t;
}

// Case B (k = 3, 4 items, item 3 without labels): item 0: w0 -> 0, w1 -> 0, w2 -> 2;
// item 1: w1 -> 1, w3 -> 1; item 2: w0 -> 2, w1 -> 2, w2 -> 0, w3 -> 1.
test::Triples case_b() {
    test::Triples t;
    t.add(0, 0, 0); t.add(0, 1, 0); t.add(0, 2, 2);
    t.add(1, 1, 1); t.add(1, 3, 1);
    t.add(2, 0, 2); t.add(2, 1, 2); t.add(2, 2, 0); t.add(2, 3, 1);
    return t;
}

// Case C (k = 2): item 0: w0 -> 0, w1 -> 1; item 1: w0 -> 0, w1 -> 1, w2 -> 1;
// item 2: w1 -> 1, w2 -> 0. LA's first pass depends on the order of items 0 and 1.
test::Triples case_c() {
    test::Triples t;
    t.add(0, 0, 0); t.add(0, 1, 1);
    t.add(1, 0, 0); t.add(1, 1, 1); t.add(1, 2, 1);
    t.add(2, 1, 1); t.add(2, 2, 0);
    return t;
}

void set(cs_model *m, const char *name, const char *value) {
    assert_int_equal(cs_set_param_string(m, name, value), CS_OK);
}

test::Model fitted(const char *method, const test::Triples &t,
                   const std::vector<std::pair<const char *, const char *>> &params = {}) {
    test::Model m = test::make_model(method);
    for (const auto &[name, value] : params) set(m.get(), name, value);
    const cs_status s = test::fit(m.get(), t);
    if (s != CS_OK) print_error("%s: %s\n", method, cs_last_error(m.get()));
    assert_int_equal(s, CS_OK);
    return m;
}

void assert_all_near(const std::vector<double> &actual, const std::vector<double> &expected, double tol) {
    assert_int_equal(actual.size(), expected.size());
    for (std::size_t e = 0; e < actual.size(); ++e) assert_near(actual[e], expected[e], tol);
}

using test::iterations;
using test::notes;

int32_t converged(const cs_model *m) {
    int32_t c = -1;
    cs_converged(m, &c);
    return c;
}

std::vector<double> prior(const cs_model *m) {
    std::size_t k = 0;
    cs_n_classes(m, &k);
    std::vector<double> p(k);
    cs_class_prior(m, p.data(), p.size());
    return p;
}

// Every invariant of a crowd fit (support/crowd_invariants.hpp), with the gold set given.
void assert_valid(const cs_model *m, int32_t method, const std::vector<int32_t> &gold_item = {},
                  const std::vector<int32_t> &gold_label = {}) {
    const std::string e = test::check_crowd_fit(m, method, false, gold_item, gold_label);
    if (!e.empty()) print_error("%s\n", e.c_str());
    assert_true(e.empty());
}

}  // namespace

// ---- bwa -----------------------------------------------------------------------------

// One iteration on case A, class 0 by hand: z0 = (2/3, 0, 1/2); sum n z0 (1 - z0) =
// 2/3 + 1/2 = 7/6; adj = 2; b = 15 * 2 * (7/6) / 8 = 4.375; mu = 7/18; squared errors
// w0: 1/9 + 0 + 1/4 = 13/36, w1: 13/36, w2: 4/9; v = 18 / (4.375 + 13/36) = 3.800586,
// 3.800586, 17 / (4.375 + 4/9) = 3.527378; z_00 = (7/18 + 2 * 3.800586) / (1 + 2 *
// 3.800586 + 3.527378) = 0.658781. With k = 2 the class-1 problem mirrors class 0, so
// the scores of an item sum to 1 and are its posterior.
static void bwa_one_iteration_by_hand(void **) {
    auto m = fitted("bwa", case_a(), {{"max_iter", "1"}});
    assert_all_near(test::posteriors(m.get()),
                    {0.6587812683514482, 0.34121873164855177, 0.03206392120292206, 0.9679360787970779,
                     0.4870818653634883, 0.5129181346365117},
                    1e-12);
    assert_int_equal(iterations(m.get()), 1);
    assert_int_equal(converged(m.get()), 0);
    assert_true(notes(m.get()) & CS_NOTE_MAX_ITER_REACHED);
    assert_valid(m.get(), CS_METHOD_BWA);
    auto two = fitted("bwa", case_a(), {{"max_iter", "2"}});
    assert_all_near(test::posteriors(two.get()),
                    {0.658423134761946, 0.3415768652380539, 0.0323826681936466, 0.9676173318063533,
                     0.4862997820294095, 0.5137002179705905},
                    1e-12);
    // The item scores decide: item 2 (one 0, one 1) goes to class 1.
    assert_true(test::labels(two.get()) == std::vector<int32_t>({0, 1, 1}));
}

// The authors' stopping rule (tol = 1e-3, atol 1e-8) stops case A after 3 iterations in
// each class; the defaults (tol = 1e-10) run to the fixed point.
static void bwa_stopping_rule(void **) {
    auto authors = fitted("bwa", case_a(), {{"tol", "1e-3"}, {"max_iter", "500"}});
    assert_int_equal(iterations(authors.get()), 3);
    assert_int_equal(converged(authors.get()), 1);
    assert_int_equal(notes(authors.get()) & CS_NOTE_MAX_ITER_REACHED, 0);
    assert_all_near(test::posteriors(authors.get()),
                    {0.6583698544620067, 0.3416301455379933, 0.03236040251811372, 0.9676395974818863,
                     0.48619448183539077, 0.5138055181646094},
                    1e-12);
    auto fixed = fitted("bwa", case_a());
    assert_int_equal(converged(fixed.get()), 1);
    assert_true(iterations(fixed.get()) > 3);
    assert_int_equal(test::trace(fixed.get()).size(), static_cast<std::size_t>(iterations(fixed.get())));
    assert_all_near(test::posteriors(fixed.get()),
                    {0.6583583285116894, 0.34164167148712943, 0.03235441395315899, 0.9676455860462522,
                     0.48617420965535113, 0.5138257903427763},
                    1e-7);
    // tol = 0 runs exactly max_iter iterations, and says nothing about it.
    auto exact = fitted("bwa", case_a(), {{"tol", "0"}, {"max_iter", "40"}});
    assert_int_equal(iterations(exact.get()), 40);
    assert_int_equal(notes(exact.get()) & CS_NOTE_MAX_ITER_REACHED, 0);
    // max_iter = 0: the soft majority vote.
    auto start = fitted("bwa", case_a(), {{"max_iter", "0"}});
    assert_int_equal(iterations(start.get()), 0);
    assert_all_near(test::posteriors(start.get()), {2.0 / 3, 1.0 / 3, 0, 1, 0.5, 0.5}, 1e-15);
}

// The hyperparameters by name: a_v = 2, lambda = 0.5, no prior correction (adj = 1).
static void bwa_hyperparameters(void **) {
    auto m = fitted("bwa", case_a(),
                    {{"max_iter", "1"}, {"bwa_strength", "2"}, {"bwa_item_precision", "0.5"},
                     {"bwa_prior_correction", "off"}});
    assert_all_near(test::posteriors(m.get()),
                    {0.7299445824374283, 0.2700554175625717, 0.0091489872993986, 0.9908510127006015,
                     0.49648808189494137, 0.5035119181050587},
                    1e-12);
    test::Model bad(cs_create());
    assert_int_equal(cs_set_param_string(bad.get(), "bwa_strength", "0"), CS_ERR_PARAM_RANGE);
    assert_int_equal(cs_set_param_string(bad.get(), "bwa_item_precision", "-1"), CS_ERR_PARAM_RANGE);
    assert_int_equal(cs_set_param_string(bad.get(), "bwa_prior_correction", "2"), CS_ERR_PARAM_RANGE);
    assert_int_equal(cs_set_param_string(bad.get(), "bwa_prior_correction", "maybe"), CS_ERR_INVALID_ARGUMENT);
    double v = 0.0;
    assert_int_equal(cs_get_double(bad.get(), CS_PARAM_BWA_STRENGTH, &v), CS_OK);
    assert_true(v == 15.0);
    assert_int_equal(cs_get_double(bad.get(), CS_PARAM_BWA_ITEM_PRECISION, &v), CS_OK);
    assert_true(v == 1.0);
    int64_t on = -1;
    assert_int_equal(cs_get_int(bad.get(), CS_PARAM_BWA_PRIOR_CORRECTION, &on), CS_OK);
    assert_int_equal(on, 1);
}

// Case B: k = 3, so the one-vs-rest scores of an item do not sum to 1 and are normalised;
// item 3 has no labels and gets the class prior, the mean scores of the labelled items
// normalised.
static void bwa_three_classes_and_an_unlabelled_item(void **) {
    const double z[3][3] = {{0.6541098813126245, 0.0255421837783628, 0.31248988694095126},
                            {0.04733205893090999, 0.9453001063403238, 0.0501665027595253},
                            {0.230770535762345, 0.23119475988814864, 0.4868970647012489}};
    std::vector<double> expected, mean(3, 0.0);
    for (const auto &row : z) {
        const double s = row[0] + row[1] + row[2];
        for (int c = 0; c < 3; ++c) {
            expected.push_back(row[c] / s);
            mean[c] += row[c] / 3.0;
        }
    }
    const double s = mean[0] + mean[1] + mean[2];
    for (double &x : mean) x /= s;
    expected.insert(expected.end(), mean.begin(), mean.end());
    auto m = test::make_model("bwa");
    set(m.get(), "max_iter", "1");
    set(m.get(), "items", "4");
    assert_int_equal(test::fit(m.get(), case_b()), CS_OK);
    assert_all_near(test::posteriors(m.get()), expected, 1e-12);
    assert_all_near(prior(m.get()), mean, 1e-12);
    assert_true(notes(m.get()) & CS_NOTE_UNLABELED_ITEMS);
    // Item 3 takes the prior's largest class, 1 (mean scores 0.311, 0.401, 0.283).
    assert_true(test::labels(m.get()) == std::vector<int32_t>({0, 1, 2, 1}));
    assert_valid(m.get(), CS_METHOD_BWA);
    // prior = uniform: the reported prior and the unlabelled item's row are 1/k; the
    // labelled items are unchanged (the iterations do not use it).
    auto flat = test::make_model("bwa");
    set(flat.get(), "max_iter", "1");
    set(flat.get(), "items", "4");
    set(flat.get(), "prior", "uniform");
    assert_int_equal(test::fit(flat.get(), case_b()), CS_OK);
    std::vector<double> uniform_expected(expected.begin(), expected.begin() + 9);
    uniform_expected.insert(uniform_expected.end(), 3, 1.0 / 3);
    assert_all_near(test::posteriors(flat.get()), uniform_expected, 1e-12);
    assert_all_near(prior(flat.get()), {1.0 / 3, 1.0 / 3, 1.0 / 3}, 0.0);
    // The fixed point (the reference run to a relative change of 1e-12).
    auto fixed = test::make_model("bwa");
    set(fixed.get(), "items", "4");
    assert_int_equal(test::fit(fixed.get(), case_b()), CS_OK);
    const double zf[3][3] = {{0.6551125602816675, 0.02438557430515493, 0.3129597365813706},
                             {0.04822242026918739, 0.9434621680611194, 0.05125622478255945},
                             {0.23093029211743957, 0.22840392018587233, 0.48755601749813426}};
    const std::vector<double> q = test::posteriors(fixed.get());
    for (int j = 0; j < 3; ++j) {
        const double sj = zf[j][0] + zf[j][1] + zf[j][2];
        for (int c = 0; c < 3; ++c) assert_near(q[j * 3 + c], zf[j][c] / sj, 1e-7);
    }
}

// Every item unanimous: no class has any disagreement (b = 0 for all, where B3 would
// divide by zero), so every class keeps the soft majority vote, without an iteration.
static void bwa_unanimous_items_keep_the_vote(void **) {
    test::Triples t;
    t.add(0, 0, 1); t.add(0, 1, 1); t.add(0, 2, 1);
    t.add(1, 0, 0); t.add(1, 2, 0);
    t.add(2, 1, 2); t.add(2, 2, 2);
    auto m = fitted("bwa", t);
    assert_all_near(test::posteriors(m.get()), {0, 1, 0, 1, 0, 0, 0, 0, 1}, 0.0);
    assert_int_equal(iterations(m.get()), 0);
    assert_int_equal(converged(m.get()), 1);
    assert_valid(m.get(), CS_METHOD_BWA);
    // One class without disagreement among others that have some: class 2 (chosen only
    // by unanimous item 2) keeps its shares (item 2: 1, the others 0) while 0 and 1
    // iterate; item 2's scores for them are then above 0 (shrunk towards mu), so its
    // normalised row is not one-hot, but class 2 is 0 on every other item.
    t.add(3, 0, 0); t.add(3, 1, 1);
    auto mixed = fitted("bwa", t);
    const std::vector<double> q = test::posteriors(mixed.get());
    assert_true(q[2] == 0.0 && q[5] == 0.0 && q[11] == 0.0);
    assert_true(q[8] > 0.5 && q[8] < 1.0);
    assert_true(iterations(mixed.get()) > 0);
    assert_true(test::labels(mixed.get())[2] == 2);
    assert_valid(mixed.get(), CS_METHOD_BWA);
}

// A class nobody chose (k = 4 declared, labels 0..2) scores 0 everywhere and is never
// predicted; one worker alone (every item has one label: no disagreement) is its vote.
static void bwa_unchosen_class_and_one_worker(void **) {
    auto m = fitted("bwa", case_b(), {{"classes", "4"}});
    const std::vector<double> q = test::posteriors(m.get());
    for (std::size_t j = 0; j < 3; ++j) assert_true(q[j * 4 + 3] == 0.0);
    assert_valid(m.get(), CS_METHOD_BWA);
    test::Triples one;
    one.add(0, 0, 1); one.add(1, 0, 0); one.add(2, 0, 1); one.add(3, 0, 2);
    auto alone = fitted("bwa", one);
    assert_true(test::labels(alone.get()) == std::vector<int32_t>({1, 0, 1, 2}));
    assert_int_equal(iterations(alone.get()), 0);
    assert_valid(alone.get(), CS_METHOD_BWA);
}

// Gold items keep their class through every iteration and score the workers.
static void bwa_gold_is_pinned(void **) {
    const std::vector<int32_t> gi = {2}, gl = {0};
    auto m = test::make_model("bwa");
    assert_int_equal(cs_set_gold(m.get(), gi.data(), gl.data(), gi.size()), CS_OK);
    assert_int_equal(test::fit(m.get(), case_a()), CS_OK);
    assert_valid(m.get(), CS_METHOD_BWA, gi, gl);
    // Worker 1 said 1 on the gold-0 item 2, so it weighs less than worker 0 on item 0.
    const std::vector<double> q = test::posteriors(m.get());
    auto plain = fitted("bwa", case_a());
    assert_true(q[0] > test::posteriors(plain.get())[0]);
}

// ---- la and la-onepass -------------------------------------------------------------

// Case C in item order, by hand. Abilities start at (2 - 1 + 0) / (2 + 2 - 2 + 0) = 1/2.
// Item 0: 0 (w0, 1/2) against 1 (w1, 1/2): a tie, class 0; w0 -> 2/3, w1 -> 1/3.
// Item 1: 0 (2/3) against 1 (1/3 + 1/2 = 5/6): class 1, shares (4/9, 5/9); w0 -> 2/4,
// w1 -> 2/4, w2 -> 2/3. Item 2: 1 (w1, 1/2) against 0 (w2, 2/3): class 0, shares (4/7,
// 3/7); w1 -> 2/5, w2 -> 3/4. Final abilities (1/2, 2/5, 3/4).
// Two-pass weights 2a - 1 = (0, -1/5, 1/2): item 0: 0 against -1/5, no positive sum:
// class 0 alone; item 1: 0 against 3/10: class 1; item 2: -1/5 against 1/2: class 0.
static void la_by_hand_in_item_order(void **) {
    auto one = fitted("la-onepass", case_c(), {{"la_order", "items"}});
    assert_true(test::labels(one.get()) == std::vector<int32_t>({0, 1, 0}));
    assert_all_near(test::posteriors(one.get()), {0.5, 0.5, 4.0 / 9, 5.0 / 9, 4.0 / 7, 3.0 / 7}, 1e-15);
    const std::vector<double> conf = test::confusion(one.get());
    const double ability[3] = {0.5, 0.4, 0.75};
    for (int w = 0; w < 3; ++w) {  // one-coin: the ability on the diagonal
        assert_near(conf[w * 4 + 0], ability[w], 1e-15);
        assert_near(conf[w * 4 + 1], 1.0 - ability[w], 1e-15);
    }
    assert_int_equal(iterations(one.get()), 1);
    assert_int_equal(converged(one.get()), 1);
    assert_valid(one.get(), CS_METHOD_LA_ONEPASS);
    auto two = fitted("la", case_c(), {{"la_order", "items"}});
    assert_true(test::labels(two.get()) == std::vector<int32_t>({0, 1, 0}));
    assert_all_near(test::posteriors(two.get()), {1, 0, 0, 1, 1, 0}, 0.0);
    assert_int_equal(iterations(two.get()), 2);
    assert_valid(two.get(), CS_METHOD_LA);
}

// The reference's case B (k = 3, item 3 without labels): abilities (3/4, 4/5, 1/4, 1/2)
// in any order here; the unlabelled item gets the uniform posterior.
static void la_three_classes(void **) {
    for (const char *method : {"la", "la-onepass"}) {
        for (const char *order : {"items", "random"}) {
            auto m = test::make_model(method);
            set(m.get(), "la_order", order);
            set(m.get(), "items", "4");
            assert_int_equal(test::fit(m.get(), case_b()), CS_OK);
            assert_true(test::labels(m.get()) == std::vector<int32_t>({0, 1, 2, 0}));
            const std::vector<double> q = test::posteriors(m.get());
            for (int c = 0; c < 3; ++c) assert_near(q[9 + c], 1.0 / 3, 1e-15);
            const std::vector<double> conf = test::confusion(m.get());
            const double ability[4] = {0.75, 0.8, 0.25, 0.5};
            for (int w = 0; w < 4; ++w) assert_near(conf[w * 9], ability[w], 1e-15);
            assert_true(notes(m.get()) & CS_NOTE_UNLABELED_ITEMS);
            assert_valid(m.get(), std::string(method) == "la" ? CS_METHOD_LA : CS_METHOD_LA_ONEPASS);
        }
    }
}

// The random order comes from the seed: the same seed gives the same fit, and over
// seeds case C's first pass meets every outcome the reference gives for the six orders
// of its items: (0, 1, 0) with abilities (1/2, 2/5, 3/4) when item 0 comes before item 1;
// (1, 1, 1), abilities (1/4, 4/5, 1/2), for the order 1, 0, 2; (1, 1, 0), abilities
// (1/4, 3/5, 3/4), for 1, 2, 0 and 2, 1, 0.
static void la_order_from_the_seed(void **) {
    const std::map<std::vector<int32_t>, std::vector<double>> reference = {
        {{0, 1, 0}, {0.5, 0.4, 0.75}}, {{1, 1, 1}, {0.25, 0.8, 0.5}}, {{1, 1, 0}, {0.25, 0.6, 0.75}}};
    std::set<std::vector<int32_t>> outcomes;
    for (int seed = 0; seed < 40; ++seed) {
        const std::string s = std::to_string(seed);
        auto a = fitted("la-onepass", case_c(), {{"seed", s.c_str()}});
        auto b = fitted("la-onepass", case_c(), {{"seed", s.c_str()}});
        assert_true(test::labels(a.get()) == test::labels(b.get()));
        assert_true(test::posteriors(a.get()) == test::posteriors(b.get()));
        const std::vector<int32_t> y = test::labels(a.get());
        assert_true(reference.count(y) == 1);
        const std::vector<double> conf = test::confusion(a.get());
        for (int w = 0; w < 3; ++w) assert_near(conf[w * 4], reference.at(y)[w], 1e-15);
        outcomes.insert(y);
    }
    assert_int_equal(outcomes.size(), 3);
}

// Unanimous items, one worker, a class nobody chose, gold, and the Beta prior's bounds.
static void la_degenerate_inputs(void **) {
    for (const char *method : {"la", "la-onepass"}) {
        const int32_t id = std::string(method) == "la" ? CS_METHOD_LA : CS_METHOD_LA_ONEPASS;
        test::Triples unanimous;
        unanimous.add(0, 0, 2); unanimous.add(0, 1, 2);
        unanimous.add(1, 0, 0); unanimous.add(1, 1, 0); unanimous.add(1, 2, 0);
        auto u = fitted(method, unanimous, {{"classes", "4"}});
        assert_true(test::labels(u.get()) == std::vector<int32_t>({2, 0}));
        assert_valid(u.get(), id);
        test::Triples one;
        one.add(0, 0, 1); one.add(1, 0, 0); one.add(2, 0, 1);
        auto alone = fitted(method, one);
        assert_true(test::labels(alone.get()) == std::vector<int32_t>({1, 0, 1}));
        assert_valid(alone.get(), id);
        const std::vector<int32_t> gi = {0}, gl = {1};
        auto g = test::make_model(method);
        assert_int_equal(cs_set_gold(g.get(), gi.data(), gl.data(), gi.size()), CS_OK);
        set(g.get(), "la_order", "items");
        assert_int_equal(test::fit(g.get(), case_c()), CS_OK);
        assert_valid(g.get(), id, gi, gl);
        // A flat prior: a worker without labels has ability 1/2, and one who never
        // agreed has ability 0 (weight -1 in the second pass); outputs stay finite.
        auto flat = fitted(method, case_c(), {{"la_alpha", "1"}, {"la_beta", "1"}});
        assert_valid(flat.get(), id);
    }
    test::Model bad(cs_create());
    assert_int_equal(cs_set_param_string(bad.get(), "la_alpha", "0.5"), CS_ERR_PARAM_RANGE);
    assert_int_equal(cs_set_param_string(bad.get(), "la_beta", "0"), CS_ERR_PARAM_RANGE);
    assert_int_equal(cs_set_param_string(bad.get(), "la_order", "sorted"), CS_ERR_INVALID_ARGUMENT);
}

// ---- shared ------------------------------------------------------------------------

// A random crowd above the one-thread threshold (100,000 labels): the fit is the same on
// one thread and on three, and twice in a row.
static void same_fit_for_any_thread_count(void **) {
    test::SplitMix rng(7);
    test::Triples t;
    const int32_t n = 26000, m = 40, k = 3;
    for (int32_t j = 0; j < n; ++j) {
        const int32_t truth = rng.below(k);
        for (int32_t r = 0; r < 4 + rng.below(2); ++r) {
            const int32_t w = rng.below(m);
            bool seen = false;
            for (std::size_t p = t.size() - static_cast<std::size_t>(r); p < t.size(); ++p)
                seen = seen || t.worker[p] == w;
            if (seen) continue;
            t.add(j, w, rng.chance(0.3 + 0.6 * (w % 5) / 4.0) ? truth : rng.below(k));
        }
    }
    assert_true(t.size() > 100000);
    for (const char *method : {"bwa", "la", "la-onepass"}) {
        auto one = fitted(method, t, {{"threads", "1"}});
        auto three = fitted(method, t, {{"threads", "3"}});
        auto again = fitted(method, t, {{"threads", "3"}});
        assert_true(test::posteriors(one.get()) == test::posteriors(three.get()));
        assert_true(test::posteriors(three.get()) == test::posteriors(again.get()));
        assert_true(test::confusion(one.get()) == test::confusion(three.get()));
        int32_t id = -1;
        assert_int_equal(cs_method_from_name(method, &id), CS_OK);
        assert_valid(three.get(), id);
    }
}

// The label-code split both methods use instead of an integer division: exact for every
// divisor and every 32-bit value, around each multiple of the divisor and at the top.
static void fixed_divisor_is_exact(void **) {
    const uint32_t divisors[] = {1, 2, 3, 5, 7, 10, 97, 1000, 10000, 65537, 2147483647u, 4294967291u};
    test::SplitMix rng(11);
    for (const uint32_t k : divisors) {
        const cs::FixedDivisor div(k);
        std::vector<uint32_t> values = {0, 1, k - 1, k, 4294967295u, 4294967294u};
        for (int r = 0; r < 2000; ++r) {
            const uint64_t multiple = (rng.next() % (4294967296ull / k + 1)) * k;
            for (int64_t delta = -1; delta <= 1; ++delta)
                if (static_cast<int64_t>(multiple) + delta >= 0 && multiple + delta <= 4294967295ull)
                    values.push_back(static_cast<uint32_t>(multiple + delta));
            values.push_back(static_cast<uint32_t>(rng.next()));
        }
        for (const uint32_t v : values) {
            assert_int_equal(div.quotient(v), v / k);
            uint32_t row = 0;
            int32_t label = -1;
            div.split(v, row, label);
            assert_int_equal(row, v / k * k);
            assert_int_equal(label, static_cast<int32_t>(v % k));
        }
    }
}

static void registered_with_pinned_ids(void **) {
    const struct {
        const char *name;
        int32_t id;
    } rows[] = {{"bwa", CS_METHOD_BWA}, {"la", CS_METHOD_LA}, {"la-onepass", CS_METHOD_LA_ONEPASS}};
    assert_int_equal(CS_METHOD_BWA, 18);
    assert_int_equal(CS_METHOD_LA, 19);
    assert_int_equal(CS_METHOD_LA_ONEPASS, 20);
    for (const auto &row : rows) {
        int32_t id = -1;
        assert_int_equal(cs_method_from_name(row.name, &id), CS_OK);
        assert_int_equal(id, row.id);
        assert_int_equal(cs_method_input(row.id), CS_INPUT_CROWD);
        assert_non_null(cs_method_summary(row.id));
    }
    assert_int_equal(CS_PARAM_BWA_STRENGTH, 610);
    assert_int_equal(CS_PARAM_LA_ORDER, 615);
    int32_t p = -1;
    assert_int_equal(cs_param_from_name("la_order", &p), CS_OK);
    assert_int_equal(p, CS_PARAM_LA_ORDER);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bwa_one_iteration_by_hand),
        cmocka_unit_test(bwa_stopping_rule),
        cmocka_unit_test(bwa_hyperparameters),
        cmocka_unit_test(bwa_three_classes_and_an_unlabelled_item),
        cmocka_unit_test(bwa_unanimous_items_keep_the_vote),
        cmocka_unit_test(bwa_unchosen_class_and_one_worker),
        cmocka_unit_test(bwa_gold_is_pinned),
        cmocka_unit_test(la_by_hand_in_item_order),
        cmocka_unit_test(la_three_classes),
        cmocka_unit_test(la_order_from_the_seed),
        cmocka_unit_test(la_degenerate_inputs),
        cmocka_unit_test(same_fit_for_any_thread_count),
        cmocka_unit_test(fixed_divisor_is_exact),
        cmocka_unit_test(registered_with_pinned_ids),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
