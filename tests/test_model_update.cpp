// SPDX-License-Identifier: MIT
// Issue 34 meets issue 38: a classifier's probabilities in saved models, incremental
// updates (cs_set_model_probs before cs_update) and predictions
// (cs_predict_model_probs). Simulated crowds with known truth and a classifier that
// calls every item of one class by another; the full fit with the classifier is the
// reference the updates are held to.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "support/cmocka_cpp.hpp"
#include "support/fit_helpers.hpp"
#include "support/model_sim.hpp"
#include "support/splitmix.hpp"
#include "support/update_helpers.hpp"

namespace {

void set(cs_model *m, const char *name, const char *value) {
    assert_int_equal(cs_set_param_string(m, name, value), CS_OK);
}

void ok(cs_model *m, cs_status s, const char *what) {
    if (s != CS_OK) print_error("%s: %s (%s)\n", what, cs_status_string(s), cs_last_error(m));
    assert_int_equal(s, CS_OK);
}

std::vector<double> model_confusion(const cs_model *m, int32_t k) {
    std::vector<double> pi(static_cast<std::size_t>(k) * k);
    assert_int_equal(cs_model_confusion(m, pi.data(), pi.size()), CS_OK);
    return pi;
}

// The classifier's rows of the listed items (in their order).
struct Rows {
    std::vector<int32_t> item;
    std::vector<double> probs;
};

Rows rows_of(const test::Sim &s, const std::vector<int32_t> &items) {
    Rows r;
    for (int32_t j : items) {
        r.item.push_back(j);
        r.probs.insert(r.probs.end(), s.probs.begin() + j * s.k, s.probs.begin() + (j + 1) * s.k);
    }
    return r;
}

void set_rows(cs_model *m, const Rows &r, int32_t k) {
    ok(m, cs_set_model_probs(m, r.item.data(), r.probs.data(), r.item.size(), k), "cs_set_model_probs");
}

// The full fit of every label with the classifier: the reference.
test::Model full_fit(const test::Sim &s, const char *method) {
    test::Model m = test::make_model(method);
    ok(m.get(), cs_set_model_probs(m.get(), nullptr, s.probs.data(), s.n_items, s.k), "cs_set_model_probs");
    ok(m.get(), test::fit(m.get(), s.crowd), "full fit");
    return m;
}

// Replays the crowd's labels in 10 batches (seeded random order). Each item's classifier
// row arrives with the batch of its first label: the handle holds the rows of every item
// seen so far (rows of earlier batches are unchanged, so they change nothing), set before
// the first fit (`from_start`) or first before the second batch (the classifier joins a
// model saved without one). Returns the final handle.
test::Model replay(const test::Sim &s, const char *method, bool from_start, const char *update_refit) {
    std::vector<std::size_t> order(s.crowd.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    test::SplitMix rng{34};
    for (std::size_t e = order.size(); e > 1; --e) std::swap(order[e - 1], order[rng.below(static_cast<int32_t>(e))]);
    test::Model m = test::make_model(method);
    set(m.get(), "update_refit", update_refit);
    std::vector<uint8_t> seen(static_cast<std::size_t>(s.n_items), 0);
    std::vector<int32_t> seen_items;
    const std::size_t n = order.size();
    for (int b = 0; b < 10; ++b) {
        const test::Triples batch = test::slice(s.crowd, order, n * b / 10, n * (b + 1) / 10);
        for (int32_t j : batch.item)
            if (!seen[static_cast<std::size_t>(j)]++) seen_items.push_back(j);
        if (b == 0) {
            // The first fit knows only items up to the largest it has a label for.
            const int32_t items = *std::max_element(batch.item.begin(), batch.item.end()) + 1;
            if (from_start) set_rows(m.get(), rows_of(s, seen_items), s.k);
            set(m.get(), "items", std::to_string(items).c_str());
            ok(m.get(), test::fit(m.get(), batch), "first fit");
            // A saved and loaded copy goes on: the classifier travels in the file.
            const std::vector<uint8_t> bytes = test::saved(m.get());
            test::Model copy = test::loaded(bytes);
            set(copy.get(), "update_refit", update_refit);
            m = std::move(copy);
            continue;
        }
        std::vector<int32_t> sorted = seen_items;
        std::sort(sorted.begin(), sorted.end());
        set_rows(m.get(), rows_of(s, sorted), s.k);
        ok(m.get(), test::update(m.get(), batch), "cs_update");
    }
    return m;
}

// One replay, printed; returns its error less the full fit's and pi_M[bad][bad - 1].
struct Replayed {
    double error, difference, agreement, pi_wrong;
};

Replayed replay_against(const test::Sim &s, const char *method, test::Model &full, bool from_start,
                        const char *update_refit) {
    test::Model m = replay(s, method, from_start, update_refit);
    std::size_t n_items = 0;
    assert_int_equal(cs_n_items(m.get(), &n_items), CS_OK);
    assert_int_equal(n_items, static_cast<std::size_t>(s.n_items));
    const int32_t k = s.k, bad = k - 1;
    const std::vector<double> pi = model_confusion(m.get(), k);
    const std::vector<int32_t> labels = test::labels(m.get()), labels_full = test::labels(full.get());
    Replayed r{};
    r.error = test::error_rate(labels, s.truth);
    r.difference = r.error - test::error_rate(labels_full, s.truth);
    int32_t agree = 0;
    for (std::size_t j = 0; j < labels.size(); ++j) agree += labels[j] == labels_full[j];
    r.agreement = static_cast<double>(agree) / s.n_items;
    r.pi_wrong = pi[static_cast<std::size_t>(bad * k + bad - 1)];
    print_message("  %s, classifier %s, update_refit %s: error %.4f (%+.2f pp), agreement %.2f %%, "
                  "pi_M[%d][%d] %.3f\n",
                  method, from_start ? "from the first fit" : "from the first update", update_refit, r.error,
                  100.0 * r.difference, 100.0 * r.agreement, bad, bad - 1, r.pi_wrong);
    for (int32_t t = 0; t < bad; ++t) assert_true(pi[static_cast<std::size_t>(t * k + t)] > 0.8);  // right elsewhere
    return r;
}

// The replay: a classifier right 90 % of the time except on its last class,
// which it calls by the one before with confidence 0.9, on a crowd of 5 labels an item
// from workers right 70 % of the time, k = 3. After 10 batches of updates the
// classifier's matrix shows its error as the full fit's does, and the error is within
// 0.3 points of the full fit with the classifier: with the automatic refits
// (update_refit = 2, the default) for auto and ds, and for auto also without any
// (update_refit = 0: every batch after the first incremental), whether the classifier
// comes with the first fit or joins at the first update. Measured and printed, not held
// to the target (docs/incremental.md): ds without refits, and a sparser crowd (3 labels
// an item, workers right 65 %), where incremental EM stays in the basin of the first
// tenth's fit -- which the classifier, then the main evidence for most items, shapes.
void replay_with_a_wrong_classifier(void **) {
    const test::Sim s = test::simulate_with_model(3000, 3, 5, 0.7, 0.9, 2, 11);
    struct Case {
        const char *method;
        bool from_start;
        const char *refit;
        bool held;  // to the 0.3 pp target
    };
    const Case cases[] = {{"auto", true, "2", true},  {"auto", true, "0", true}, {"auto", false, "0", true},
                          {"auto", false, "2", true}, {"ds", true, "2", true},   {"ds", false, "2", true},
                          {"ds", true, "0", false}};
    for (const char *method : {"auto", "ds"}) {
        test::Model full = full_fit(s, method);
        const std::vector<double> pi_full = model_confusion(full.get(), 3);
        const double e_full = test::error_rate(test::labels(full.get()), s.truth);
        test::Model crowd = test::make_model(method);
        ok(crowd.get(), test::fit(crowd.get(), s.crowd), "crowd fit");
        const double e_crowd = test::error_rate(test::labels(crowd.get()), s.truth);
        print_message("%s: full fit with the classifier %.4f, crowd alone %.4f; pi_M[2][1] %.3f\n", method, e_full,
                      e_crowd, pi_full[2 * 3 + 1]);
        assert_true(pi_full[2 * 3 + 1] > 0.8);
        assert_true(e_full < e_crowd - 0.03);  // the classifier helps: the replay has something to keep
        for (const Case &c : cases) {
            if (std::strcmp(c.method, method) != 0) continue;
            const Replayed r = replay_against(s, method, full, c.from_start, c.refit);
            if (!c.held) continue;
            assert_true(r.pi_wrong > 0.8);                // the direction of its error
            assert_true(std::fabs(r.difference) <= 0.003);  // within 0.3 pp
        }
    }
    // The sparser crowd, printed only.
    const test::Sim sparse = test::simulate_with_model(3000, 3, 3, 0.65, 0.9, 2, 11);
    for (const char *method : {"auto", "ds"}) {
        test::Model full = full_fit(sparse, method);
        print_message("sparse crowd, %s: full fit %.4f\n", method,
                      test::error_rate(test::labels(full.get()), sparse.truth));
        for (const char *refit : {"2", "0"}) replay_against(sparse, method, full, true, refit);
    }
}

// Save and load keep the classifier -- its rows and its matrix -- bit for bit: the loaded
// model's matrix is the fit's, saving it again gives the same bytes, and the file is of
// format version 2; a model without a classifier is still written in version 1.
void save_load_keeps_the_classifier(void **) {
    const test::Sim s = test::simulate_with_model(600, 3, 3, 0.7, 0.9, 2, 5);
    test::Model m = full_fit(s, "auto");
    const std::vector<double> pi = model_confusion(m.get(), 3);
    const std::vector<double> q = test::posteriors(m.get());
    const std::vector<uint8_t> bytes = test::saved(m.get());
    uint32_t version = 0;
    std::memcpy(&version, bytes.data() + 8, 4);
    assert_int_equal(version, 2);
    test::Model back = test::loaded(bytes);
    const std::vector<double> pi_back = model_confusion(back.get(), 3);
    assert_memory_equal(pi.data(), pi_back.data(), pi.size() * sizeof(double));
    const std::vector<double> q_back = test::posteriors(back.get());
    assert_memory_equal(q.data(), q_back.data(), q.size() * sizeof(double));
    const std::vector<uint8_t> again = test::saved(back.get());
    assert_int_equal(again.size(), bytes.size());
    assert_memory_equal(again.data(), bytes.data(), bytes.size());

    // An update of the loaded copy and of the model give the same bytes, classifier included.
    test::Triples more;
    for (int32_t j = 0; j < 40; ++j) more.add(600 + j, j % 30, j % 3);
    std::vector<int32_t> new_items(40);
    std::iota(new_items.begin(), new_items.end(), 600);
    test::Sim extra = test::simulate_with_model(640, 3, 1, 0.7, 0.9, 2, 6);
    const Rows rows = rows_of(extra, new_items);
    set_rows(m.get(), rows, 3);
    set_rows(back.get(), rows, 3);
    ok(m.get(), test::update(m.get(), more), "update");
    ok(back.get(), test::update(back.get(), more), "update of the copy");
    const std::vector<uint8_t> a = test::saved(m.get()), b = test::saved(back.get());
    assert_int_equal(a.size(), b.size());
    assert_memory_equal(a.data(), b.data(), a.size());
    assert_true(model_confusion(m.get(), 3) != pi);  // the update moved pi_M: the bytes carry it
    test::Model reloaded = test::loaded(a);
    const std::vector<double> pi_a = model_confusion(m.get(), 3), pi_r = model_confusion(reloaded.get(), 3);
    assert_memory_equal(pi_a.data(), pi_r.data(), pi_a.size() * sizeof(double));

    test::Model plain = test::make_model("auto");
    ok(plain.get(), test::fit(plain.get(), s.crowd), "fit without a classifier");
    const std::vector<uint8_t> v1 = test::saved(plain.get());
    std::memcpy(&version, v1.data() + 8, 4);
    assert_int_equal(version, 1);
    test::Model plain_back = test::loaded(v1);
    assert_int_equal(cs_model_confusion(plain_back.get(), nullptr, 0), CS_ERR_NOT_FITTED);
}

// Predicting the fit's own labels with its own classifier rows gives the fit's
// posteriors (1e-12): one E-step at the fit's parameters, pi_M included, is where EM
// stopped. Without the rows it does not (the classifier moved them), and the same holds
// for a loaded model. Row order and item order of the rows do not matter.
void predict_with_rows_is_the_fit(void **) {
    const test::Sim s = test::simulate_with_model(600, 3, 3, 0.7, 0.9, 2, 9);
    for (const char *method : {"ds", "auto"}) {
        test::Model fit = full_fit(s, method);
        const std::vector<double> q = test::posteriors(fit.get());
        const std::vector<uint8_t> bytes = test::saved(fit.get());
        std::vector<int32_t> items(static_cast<std::size_t>(s.n_items));
        std::iota(items.rbegin(), items.rend(), 0);  // the rows in reverse order
        const Rows rows = rows_of(s, items);
        for (int use_loaded = 0; use_loaded < 2; ++use_loaded) {
            test::Model m = use_loaded ? test::loaded(bytes) : std::move(fit);
            ok(m.get(), cs_predict_model_probs(m.get(), s.crowd.item.data(), s.crowd.worker.data(),
                                               s.crowd.label.data(), s.crowd.size(), rows.item.data(),
                                               rows.probs.data(), rows.item.size()),
               "cs_predict_model_probs");
            const std::vector<double> p = test::posteriors(m.get());
            assert_int_equal(p.size(), q.size());
            double worst = 0.0;
            for (std::size_t e = 0; e < q.size(); ++e) worst = std::max(worst, std::fabs(p[e] - q[e]));
            print_message("%s (%s): largest difference from the fit's posteriors %.2e\n", method,
                          use_loaded ? "loaded" : "fitted handle", worst);
            assert_true(worst <= 1e-12);
            // The results keep pi_M: a second prediction with the rows is the same again.
            ok(m.get(), cs_predict_model_probs(m.get(), s.crowd.item.data(), s.crowd.worker.data(),
                                               s.crowd.label.data(), s.crowd.size(), rows.item.data(),
                                               rows.probs.data(), rows.item.size()),
               "second prediction");
            const std::vector<double> p2 = test::posteriors(m.get());
            assert_memory_equal(p2.data(), p.data(), p.size() * sizeof(double));
            // Without the rows the classifier's evidence is missing.
            ok(m.get(), cs_predict(m.get(), s.crowd.item.data(), s.crowd.worker.data(), s.crowd.label.data(),
                                   s.crowd.size()),
               "cs_predict");
            const std::vector<double> p0 = test::posteriors(m.get());
            double moved = 0.0;
            for (std::size_t e = 0; e < q.size(); ++e) moved = std::max(moved, std::fabs(p0[e] - q[e]));
            assert_true(moved > 0.1);
        }
    }
}

// An update with no labels applies the classifier's changed rows only: rows equal to the
// model's change nothing (the same bytes), a changed row moves its item.
void rows_alone_update_their_items(void **) {
    const test::Sim s = test::simulate_with_model(300, 3, 3, 0.7, 0.9, -1, 4);
    test::Model m = full_fit(s, "ds");
    const std::vector<uint8_t> before = test::saved(m.get());
    ok(m.get(), cs_update(m.get(), nullptr, nullptr, nullptr, 0), "update with the fit's rows");
    const std::vector<uint8_t> same = test::saved(m.get());
    assert_int_equal(same.size(), before.size());
    assert_memory_equal(same.data(), before.data(), before.size());
    // Item 0 (class 0) now gets a confident "class 1" from the classifier.
    const std::vector<double> q = test::posteriors(m.get());
    const int32_t item0 = 0;
    const double flip[] = {0.01, 0.98, 0.01};
    ok(m.get(), cs_set_model_probs(m.get(), &item0, flip, 1, 3), "one row");
    ok(m.get(), cs_update(m.get(), nullptr, nullptr, nullptr, 0), "update with one changed row");
    const std::vector<double> q2 = test::posteriors(m.get());
    print_message("item 0: p(class 1) %.4f -> %.4f\n", q[1], q2[1]);
    assert_true(q2[1] > q[1] + 0.05);
}

// Errors, named: rows of unknown items, bad rows, rows of another k, a fit without a
// classifier matrix, a method that takes no model input. A failed call leaves the model.
void errors_are_named(void **) {
    const test::Sim s = test::simulate_with_model(200, 3, 3, 0.7, 0.9, -1, 8);
    test::Model m = full_fit(s, "ds");
    const std::vector<uint8_t> before = test::saved(m.get());
    const double row[] = {0.2, 0.3, 0.5};
    const double row2[] = {0.2, 0.8};

    // cs_update: a row beyond the model's items after the batch.
    const int32_t far = 250;
    ok(m.get(), cs_set_model_probs(m.get(), &far, row, 1, 3), "set");
    const int32_t it = 200, wk = 0, lb = 1;
    assert_int_equal(cs_update(m.get(), &it, &wk, &lb, 1), CS_ERR_INVALID_ID);
    assert_non_null(std::strstr(cs_last_error(m.get()), "row 0 is for item 250"));
    // ... of another k.
    const int32_t zero = 0;
    ok(m.get(), cs_set_model_probs(m.get(), &zero, row2, 1, 2), "set k = 2");
    assert_int_equal(cs_update(m.get(), &it, &wk, &lb, 1), CS_ERR_INVALID_ARGUMENT);
    assert_non_null(std::strstr(cs_last_error(m.get()), "2 classes, the saved model 3"));
    const std::vector<uint8_t> after = test::saved(m.get());
    assert_memory_equal(after.data(), before.data(), before.size());  // unchanged
    // A row for a new item of the batch is fine.
    ok(m.get(), cs_set_model_probs(m.get(), &it, row, 1, 3), "set");
    ok(m.get(), cs_update(m.get(), &it, &wk, &lb, 1), "update with a new item's row");

    // cs_predict_model_probs: a row beyond the batch's items, a bad row.
    const int32_t items[] = {0, 1}, workers[] = {0, 1}, labels[] = {0, 1};
    const int32_t two = 2;
    assert_int_equal(cs_predict_model_probs(m.get(), items, workers, labels, 2, &two, row, 1), CS_ERR_INVALID_ID);
    assert_non_null(std::strstr(cs_last_error(m.get()), "not an item of the batch"));
    const double negative[] = {0.2, -0.3, 0.5};
    assert_int_equal(cs_predict_model_probs(m.get(), items, workers, labels, 2, &zero, negative, 1),
                     CS_ERR_INVALID_ARGUMENT);
    assert_non_null(std::strstr(cs_last_error(m.get()), "row 0 (item 0)"));
    assert_int_equal(cs_predict_model_probs(m.get(), items, workers, labels, 2, &zero, nullptr, 1),
                     CS_ERR_NULL_POINTER);

    // A fit without the classifier has no pi_M to predict with.
    test::Model plain = test::make_model("ds");
    ok(plain.get(), test::fit(plain.get(), s.crowd), "fit");
    assert_int_equal(cs_predict_model_probs(plain.get(), items, workers, labels, 2, &zero, row, 1),
                     CS_ERR_INVALID_ARGUMENT);
    assert_non_null(std::strstr(cs_last_error(plain.get()), "confusion matrix of a fit that had them"));
    // A method that takes no model input: refused at its fit, and its results have no pi_M.
    test::Model glad = test::make_model("glad");
    ok(glad.get(), cs_set_model_probs(glad.get(), nullptr, s.probs.data(), s.n_items, 3), "set");
    assert_int_equal(test::fit(glad.get(), s.crowd), CS_ERR_INVALID_ARGUMENT);
    assert_non_null(std::strstr(cs_last_error(glad.get()), "does not take model probabilities"));
    ok(glad.get(), cs_set_model_probs(glad.get(), nullptr, nullptr, 0, 0), "clear");
    ok(glad.get(), test::fit(glad.get(), s.crowd), "glad fit");
    const cs_status st = cs_predict_model_probs(glad.get(), items, workers, labels, 2, &zero, row, 1);
    assert_true(st == CS_ERR_INVALID_ARGUMENT || st == CS_ERR_NOT_FITTED);
    // Before any fit.
    test::Model none = test::make_model("ds");
    assert_int_equal(cs_predict_model_probs(none.get(), items, workers, labels, 2, &zero, row, 1), CS_ERR_NOT_FITTED);
}

}  // namespace

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(replay_with_a_wrong_classifier),
        cmocka_unit_test(save_load_keeps_the_classifier),
        cmocka_unit_test(predict_with_rows_is_the_fit),
        cmocka_unit_test(rows_alone_update_their_items),
        cmocka_unit_test(errors_are_named),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
