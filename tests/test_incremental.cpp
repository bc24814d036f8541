// SPDX-License-Identifier: MIT
// Saved models and incremental updates (issue 38): cs_save / cs_load round trips
// (file and buffer, user data, parameters), refusal of truncated, corrupt and future
// files, cs_update on hand-checkable cases (a new item's posterior is the E-step at the
// old parameters; errors leave the model as it was; duplicates; growth), cs_refit
// against cs_fit of the union, and the replay of the shared and development crowds in
// 10 batches against a full fit (skipped visibly without the data).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "support/cmocka_cpp.hpp"
#include "support/fit_helpers.hpp"
#include "support/splitmix.hpp"
#include "support/update_helpers.hpp"
#include "util/byte_io.hpp"

// The call returns `expected` and cs_last_error() names `word`.
#define CS_ASSERT_FAIL(model, expr, expected, word)                                                  \
    do {                                                                                             \
        const cs_status s_ = (expr);                                                                 \
        if (s_ != (expected) || std::strstr(cs_last_error(model), (word)) == nullptr) {              \
            print_error("%s: %s (%s), expected %s and \"%s\"\n", #expr, cs_status_string(s_),        \
                        cs_last_error(model), cs_status_string(expected), (word));                   \
            fail();                                                                                  \
        }                                                                                            \
    } while (0)

namespace {

using Rng = test::SplitMix;

using test::loaded;
using test::saved;
using test::simulate;
using test::slice;
using test::update;

// ---- saving and loading

// Everything the getters return survives a round trip through a buffer and a file, and
// so do the parameters, the gold and the user data; a prediction with the loaded model
// is the prediction with the fitted one.
static void test_round_trip(void **) {
    const test::Triples t = simulate(400, 30, 3, 5, 7);
    test::Model m = test::make_model("auto");
    cs_set_param_string(m.get(), "smoothing_strength", "2.5");
    const int32_t gold_item[2] = {3, 9}, gold_label[2] = {1, 2};
    assert_int_equal(cs_set_gold(m.get(), gold_item, gold_label, 2), CS_OK);
    assert_int_equal(test::fit(m.get(), t), CS_OK);
    const char user[] = "names\0and more";
    assert_int_equal(cs_set_user_data(m.get(), user, sizeof user), CS_OK);
    const std::vector<uint8_t> bytes = saved(m.get());

    const std::string path = "test_incremental_model.csm";
    assert_int_equal(cs_save(m.get(), path.c_str()), CS_OK);
    test::Model from_file(cs_create());
    assert_int_equal(cs_load(from_file.get(), path.c_str()), CS_OK);
    std::remove(path.c_str());
    test::Model from_buffer = loaded(bytes);
    for (cs_model *l : {from_file.get(), from_buffer.get()}) {
        assert_true(test::labels(l) == test::labels(m.get()));
        assert_true(test::posteriors(l) == test::posteriors(m.get()));
        assert_true(test::confusion(l) == test::confusion(m.get()));
        assert_true(test::trace(l) == test::trace(m.get()));
        assert_int_equal(test::iterations(l), test::iterations(m.get()));
        assert_int_equal(test::notes(l), test::notes(m.get()));
        double t0 = 0, t1 = 0, e0 = 0, e1 = 0;
        int32_t s0 = 0, s1 = 0;
        cs_calibration(m.get(), &t0, &e0, &s0);
        cs_calibration(l, &t1, &e1, &s1);
        assert_true(t0 == t1 && e0 == e1 && s0 == s1);
        double strength = 0;
        cs_get_double(l, CS_PARAM_SMOOTHING_STRENGTH, &strength);
        assert_true(strength == 2.5);
        int64_t method = 0;
        cs_get_int(l, CS_PARAM_METHOD, &method);
        assert_int_equal(method, CS_METHOD_AUTO);
        char back[sizeof user] = {0};
        std::size_t n = 0;
        assert_int_equal(cs_user_data(l, back, sizeof back, &n), CS_OK);
        assert_int_equal(n, sizeof user);
        assert_memory_equal(back, user, sizeof user);
        // Saving the loaded model gives the same bytes.
        assert_true(saved(l) == bytes);
    }
    // Prediction of a new batch: the same as with the fitted handle.
    const test::Triples batch = simulate(50, 30, 3, 4, 8);
    test::Model again = loaded(bytes);
    assert_int_equal(cs_predict(m.get(), batch.item.data(), batch.worker.data(), batch.label.data(), batch.size()), CS_OK);
    assert_int_equal(cs_predict(again.get(), batch.item.data(), batch.worker.data(), batch.label.data(), batch.size()),
                     CS_OK);
    assert_true(test::posteriors(m.get()) == test::posteriors(again.get()));
}

// The header's payload length and checksum made right again after an edit
// (docs/saved-models.md, "Checksum"), so that the edit reaches the section checks.
void reseal(std::vector<uint8_t> &bytes) {
    const uint64_t payload = bytes.size() - 32;
    const uint64_t sum = cs::checksum64(bytes.data() + 32, payload);
    for (int b = 0; b < 8; ++b) {
        bytes[16 + b] = static_cast<uint8_t>(payload >> (8 * b));
        bytes[24 + b] = static_cast<uint8_t>(sum >> (8 * b));
    }
}

// Truncated, corrupt and future files are refused with their status, and the handle
// keeps what it had.
static void test_refusals(void **) {
    const test::Triples t = simulate(200, 20, 2, 5, 9);
    test::Model m = test::make_model("ds");
    assert_int_equal(test::fit(m.get(), t), CS_OK);
    const std::vector<uint8_t> bytes = saved(m.get());
    test::Model target = test::make_model("ds");
    assert_int_equal(test::fit(target.get(), t), CS_OK);
    const std::vector<double> before = test::posteriors(target.get());

    for (std::size_t n : {std::size_t{0}, std::size_t{7}, std::size_t{31}, bytes.size() / 2, bytes.size() - 1}) {
        CS_ASSERT_FAIL(target.get(), cs_load_buffer(target.get(), bytes.data(), n), CS_ERR_CORRUPT_MODEL, "corrupt");
        assert_true(test::posteriors(target.get()) == before);
    }
    std::vector<uint8_t> flipped = bytes;
    flipped[bytes.size() / 2] ^= 0x10;
    CS_ASSERT_FAIL(target.get(), cs_load_buffer(target.get(), flipped.data(), flipped.size()), CS_ERR_CORRUPT_MODEL,
                   "checksum");
    std::vector<uint8_t> magic = bytes;
    magic[1] = 'X';
    CS_ASSERT_FAIL(target.get(), cs_load_buffer(target.get(), magic.data(), magic.size()), CS_ERR_CORRUPT_MODEL,
                   "magic");
    std::vector<uint8_t> future = bytes;
    future[8] = CS_MODEL_FORMAT_VERSION + 1;
    CS_ASSERT_FAIL(target.get(), cs_load_buffer(target.get(), future.data(), future.size()), CS_ERR_MODEL_VERSION,
                   "saved in format version 3; this library");
    std::vector<uint8_t> longer = bytes;
    longer.push_back(0);
    CS_ASSERT_FAIL(target.get(), cs_load_buffer(target.get(), longer.data(), longer.size()), CS_ERR_CORRUPT_MODEL,
                   "after the end");
    assert_true(test::posteriors(target.get()) == before);
    // Behind a correct checksum: item 0's end (the second item start of section LABL)
    // far beyond the labels, the last start still n_labels (fuzz_load found the reader
    // walking past the label codes on such a file).
    std::vector<uint8_t> starts = bytes;
    const std::size_t labl = static_cast<std::size_t>(
        std::search(starts.begin(), starts.end(), std::begin("LABL"), std::end("LABL") - 1) - starts.begin());
    assert_true(labl + 32 <= starts.size());
    for (int b = 0; b < 8; ++b) starts[labl + 24 + b] = static_cast<uint8_t>(uint64_t{1} << 40 >> (8 * b));
    reseal(starts);
    CS_ASSERT_FAIL(target.get(), cs_load_buffer(target.get(), starts.data(), starts.size()), CS_ERR_CORRUPT_MODEL,
                   "pass the labels");
    assert_true(test::posteriors(target.get()) == before);
    CS_ASSERT_FAIL(target.get(), cs_load(target.get(), "no/such/model.csm"), CS_ERR_INVALID_ARGUMENT, "cannot open");

    // What cannot be saved: no fit, another method, labels not kept.
    test::Model empty(cs_create());
    std::size_t n = 0;
    assert_int_equal(cs_save_buffer(empty.get(), nullptr, 0, &n), CS_ERR_NOT_FITTED);
    test::Model glad = test::make_model("glad");
    assert_int_equal(test::fit(glad.get(), t), CS_OK);
    CS_ASSERT_FAIL(glad.get(), cs_save_buffer(glad.get(), nullptr, 0, &n), CS_ERR_INVALID_ARGUMENT, "Dawid-Skene");
    test::Model unkept = test::make_model("ds");
    cs_set_int(unkept.get(), CS_PARAM_KEEP_LABELS, 0);
    assert_int_equal(test::fit(unkept.get(), t), CS_OK);
    CS_ASSERT_FAIL(unkept.get(), cs_save_buffer(unkept.get(), nullptr, 0, &n), CS_ERR_INVALID_ARGUMENT, "keep_labels");
    std::vector<uint8_t> small(10);
    assert_int_equal(cs_save_buffer(m.get(), small.data(), small.size(), &n), CS_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(n, bytes.size());
}

// ---- updates

// A new item labelled by known workers, with one round and no rotation: its posterior
// is the E-step at the model's parameters, which cs_predict computes for the same
// labels. The old items keep their posteriors (nothing touched or revisited them).
static void test_new_item_is_the_e_step(void **) {
    const test::Triples t = simulate(300, 20, 3, 5, 11);
    test::Model m = test::make_model("ds");
    cs_set_param_string(m.get(), "calibration", "none");
    cs_set_int(m.get(), CS_PARAM_UPDATE_ROUNDS, 1);
    cs_set_double(m.get(), CS_PARAM_UPDATE_SWEEP, 0.0);
    assert_int_equal(test::fit(m.get(), t), CS_OK);
    const std::vector<double> old_q = test::posteriors(m.get());
    test::Model predictor = loaded(saved(m.get()));
    test::Triples batch;
    batch.add(0, 2, 1);
    batch.add(0, 5, 1);
    batch.add(0, 9, 0);
    assert_int_equal(cs_predict(predictor.get(), batch.item.data(), batch.worker.data(), batch.label.data(), 3), CS_OK);
    const std::vector<double> expected = test::posteriors(predictor.get());
    for (test::Triples *b : {&batch}) std::fill(b->item.begin(), b->item.end(), 300);
    assert_int_equal(update(m.get(), batch), CS_OK);
    std::size_t n = 0;
    cs_n_items(m.get(), &n);
    assert_int_equal(n, 301);
    const std::vector<double> q = test::posteriors(m.get());
    for (int l = 0; l < 3; ++l) assert_near(q[300 * 3 + l], expected[l], 1e-12);
    // The state's posteriors of the old items are the fit's up to the E-step's rounding.
    for (std::size_t e = 0; e < old_q.size(); ++e) assert_near(q[e], old_q[e], 1e-12);
    int32_t notes = 0;
    cs_fit_notes(m.get(), &notes);
    assert_true((notes & CS_NOTE_INCREMENTAL) != 0);
}

// Invalid labels and rejected duplicates fail with their status and leave the model as
// it was; first and last keep one label; new workers and skipped items grow the model.
static void test_update_errors_and_growth(void **) {
    const test::Triples t = simulate(100, 10, 2, 4, 12);
    test::Model m = test::make_model("auto");
    assert_int_equal(test::fit(m.get(), t), CS_OK);
    const std::vector<uint8_t> before = saved(m.get());
    const int32_t item[2] = {5, 5}, worker[2] = {3, 3}, bad_label[2] = {0, 2}, label[2] = {0, 1};
    CS_ASSERT_FAIL(m.get(), cs_update(m.get(), item, worker, bad_label, 2), CS_ERR_INVALID_LABEL, "label 2");
    assert_true(saved(m.get()) == before);
    CS_ASSERT_FAIL(m.get(), cs_update(m.get(), item, worker, label, 2), CS_ERR_DUPLICATE, "twice");
    assert_true(saved(m.get()) == before);
    // (item 5, worker t.worker of item 5's first label) is a label the model has.
    const int32_t held_item = t.item[20], held_worker = t.worker[20], held_label = 1 - t.label[20];
    CS_ASSERT_FAIL(m.get(), cs_update(m.get(), &held_item, &held_worker, &held_label, 1), CS_ERR_DUPLICATE,
                   "the model has");
    assert_true(saved(m.get()) == before);
    const int32_t negative = -1;
    CS_ASSERT_FAIL(m.get(), cs_update(m.get(), &negative, worker, label, 1), CS_ERR_INVALID_ID, "item id -1");
    assert_int_equal(cs_update(m.get(), nullptr, nullptr, nullptr, 0), CS_OK);
    assert_true(saved(m.get()) == before);

    cs_set_param_string(m.get(), "duplicates", "first");
    assert_int_equal(cs_update(m.get(), &held_item, &held_worker, &held_label, 1), CS_OK);  // keeps the old label
    cs_set_param_string(m.get(), "duplicates", "last");
    assert_int_equal(cs_update(m.get(), &held_item, &held_worker, &held_label, 1), CS_OK);  // replaces it
    // A new worker (id 14) on a new item 120: items 100 .. 119 have no labels.
    const int32_t new_item[3] = {120, 120, 120}, new_worker[3] = {14, 0, 1}, new_label[3] = {1, 1, 1};
    assert_int_equal(cs_update(m.get(), new_item, new_worker, new_label, 3), CS_OK);
    std::size_t items = 0, workers = 0;
    cs_n_items(m.get(), &items);
    cs_n_workers(m.get(), &workers);
    assert_int_equal(items, 121);
    assert_int_equal(workers, 15);
    const std::vector<double> q = test::posteriors(m.get());
    const std::vector<double> confusion = test::confusion(m.get());
    for (double v : q) assert_true(std::isfinite(v) && v >= 0.0 && v <= 1.0);
    for (double v : confusion) assert_true(std::isfinite(v) && v >= 0.0 && v <= 1.0);
    int32_t notes = 0;
    cs_fit_notes(m.get(), &notes);
    assert_true((notes & CS_NOTE_UNLABELED_ITEMS) != 0);
    assert_true(test::labels(m.get())[120] == 1);
    // The updated model saves and loads, and its refit is cs_fit of the union.
    test::Model again = loaded(saved(m.get()));
    assert_true(test::posteriors(again.get()) == q);
}

// cs_refit is cs_fit of every label the model holds, bit for bit.
static void test_refit_is_the_full_fit(void **) {
    const test::Triples t = simulate(500, 25, 3, 5, 13);
    std::vector<std::size_t> order(t.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    test::Model m = test::make_model("auto");
    assert_int_equal(test::fit(m.get(), slice(t, order, 0, 1500)), CS_OK);
    assert_int_equal(update(m.get(), slice(t, order, 1500, t.size())), CS_OK);
    assert_int_equal(cs_refit(m.get()), CS_OK);
    test::Model full = test::make_model("auto");
    assert_int_equal(test::fit(full.get(), t), CS_OK);
    assert_true(test::posteriors(m.get()) == test::posteriors(full.get()));
    assert_true(test::confusion(m.get()) == test::confusion(full.get()));
    int32_t notes = 0;
    cs_fit_notes(m.get(), &notes);
    assert_true((notes & CS_NOTE_INCREMENTAL) == 0);
    test::Model fresh(cs_create());
    assert_int_equal(cs_refit(fresh.get()), CS_ERR_NOT_FITTED);
}

// An update that would work on half the labels or more (update_refit_work, the default
// 0.5) is a full refit: cs_fit of the union bit for bit, without CS_NOTE_INCREMENTAL; a
// small one stays incremental, and so does a large one with update_refit_work = 0 or the
// automatic refits off (update_refit = 0). The refit merges the batch as an incremental
// update does: with replaced labels (duplicates = last) it is cs_refit after the
// incremental update, and cs_fit of the labels with the replacements made by hand.
bool incremental(cs_model *m) {
    int32_t notes = 0;
    cs_fit_notes(m, &notes);
    return (notes & CS_NOTE_INCREMENTAL) != 0;
}

static void test_large_updates_refit(void **) {
    const test::Triples t = simulate(1000, 30, 3, 5, 17);  // 5,000 labels
    std::vector<std::size_t> order(t.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    Rng rng{5};
    for (std::size_t e = order.size(); e > 1; --e) std::swap(order[e - 1], order[rng.next() % e]);
    const test::Triples first = slice(t, order, 0, 4000), small = slice(t, order, 4000, 4050),
                        large = slice(t, order, 4050, 4800), all = slice(t, order, 0, 4800);
    test::Model full = test::make_model("auto");
    assert_int_equal(test::fit(full.get(), all), CS_OK);

    // 50 new labels touch at most 50 items of 5 labels: 250 + 4 x 50 revisited < 2,025.
    test::Model m = test::make_model("auto");
    assert_int_equal(test::fit(m.get(), first), CS_OK);
    assert_int_equal(update(m.get(), small), CS_OK);
    assert_true(incremental(m.get()));
    // 750 more: 4 x 750 revisited alone is more than half of 4,800.
    assert_int_equal(update(m.get(), large), CS_OK);
    assert_false(incremental(m.get()));
    assert_true(test::posteriors(m.get()) == test::posteriors(full.get()));
    assert_true(test::confusion(m.get()) == test::confusion(full.get()));

    for (const char *off : {"update_refit_work", "update_refit"}) {
        test::Model kept = test::make_model("auto");
        assert_int_equal(cs_set_param_string(kept.get(), off, "0"), CS_OK);
        assert_int_equal(test::fit(kept.get(), first), CS_OK);
        assert_int_equal(update(kept.get(), slice(t, order, 4000, 4800)), CS_OK);
        assert_true(incremental(kept.get()));
    }

    // Both batches in one, with 200 of the first labels relabelled (c -> c + 1 mod 3).
    test::Triples relabelled = slice(t, order, 4000, 4800), by_hand = all;
    for (std::size_t e = 0; e < 200; ++e) {
        const std::size_t at = order[e * 20];
        relabelled.add(t.item[at], t.worker[at], (t.label[at] + 1) % 3);
        by_hand.label[e * 20] = (t.label[at] + 1) % 3;
    }
    test::Model refitted = test::make_model("auto"), merged = test::make_model("auto");
    cs_set_param_string(merged.get(), "update_refit_work", "0");
    for (cs_model *x : {refitted.get(), merged.get()}) {
        cs_set_param_string(x, "duplicates", "last");
        assert_int_equal(test::fit(x, first), CS_OK);
        assert_int_equal(update(x, relabelled), CS_OK);
    }
    assert_false(incremental(refitted.get()));
    assert_int_equal(cs_refit(merged.get()), CS_OK);
    test::Model hand = test::make_model("auto");
    assert_int_equal(test::fit(hand.get(), by_hand), CS_OK);
    assert_true(test::posteriors(refitted.get()) == test::posteriors(merged.get()));
    assert_true(test::posteriors(refitted.get()) == test::posteriors(hand.get()));
    assert_true(test::posteriors(refitted.get()) != test::posteriors(full.get()));
}

// ---- the replay of real crowds

struct Replay {
    double agreement = 0, error_full = 0, error_updated = 0;
    int refits = 0;  // updates that refitted in full (no CS_NOTE_INCREMENTAL after them)
};

// The labels in a fixed random order (seeded), the first tenth fitted, the other nine
// added by cs_update one tenth at a time; compared with one fit of every label.
// `refit_work`: the update_refit_work the updates run with ("0": incremental EM unless
// the labels double), or null for the default.
Replay replay(const test::Dataset &d, const char *method, const char *refit_work) {
    const test::Triples &t = d.labels;
    std::vector<std::size_t> order(t.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    Rng rng{38};
    for (std::size_t e = order.size(); e > 1; --e) std::swap(order[e - 1], order[rng.next() % e]);
    const int32_t n_items = *std::max_element(t.item.begin(), t.item.end()) + 1;
    test::Model m = test::make_model(method);
    cs_set_int(m.get(), CS_PARAM_ITEMS, n_items);  // the same item rows as the full fit
    if (refit_work != nullptr) assert_int_equal(cs_set_param_string(m.get(), "update_refit_work", refit_work), CS_OK);
    Replay r;
    for (int batch = 0; batch < 10; ++batch) {
        const test::Triples part = slice(t, order, t.size() * batch / 10, t.size() * (batch + 1) / 10);
        const cs_status s = batch == 0 ? test::fit(m.get(), part) : update(m.get(), part);
        if (s != CS_OK) print_error("batch %d: %s\n", batch, cs_last_error(m.get()));
        assert_int_equal(s, CS_OK);
        r.refits += batch > 0 && !incremental(m.get());
    }
    test::Model full = test::make_model(method);
    assert_int_equal(test::fit(full.get(), t), CS_OK);
    const std::vector<int32_t> a = test::labels(m.get()), b = test::labels(full.get());
    assert_int_equal(a.size(), b.size());
    std::size_t same = 0;
    for (std::size_t j = 0; j < a.size(); ++j) same += a[j] == b[j];
    r.agreement = 100.0 * static_cast<double>(same) / static_cast<double>(a.size());
    r.error_full = 100.0 * test::error_rate(b, d.truth);
    r.error_updated = 100.0 * test::error_rate(a, d.truth);
    return r;
}

static void test_replay_of_real_crowds(void **) {
    const char *sets[] = {"bluebird", "rte", "trec", "dog", "web", "../datasets-dev/adult2", "../datasets-dev/bm",
                          "../datasets-dev/face", "../datasets-dev/fact", "../datasets-dev/hitspam_cf",
                          "../datasets-dev/labelme", "../datasets-dev/mill", "../datasets-dev/ms",
                          "../datasets-dev/possent", "../datasets-dev/product"};
    int found = 0, met = 0, met_incremental = 0;
    bool ok = true;
    std::printf("| set | method | updates | labels agree | error, full fit | error, 10 batches | difference |\n");
    std::printf("|---|---|---|---|---|---|---|\n");
    for (const char *set : sets) {
        const test::Dataset d = test::load_dataset(set);
        if (!d.found) continue;
        ++found;
        for (const char *method : {"auto", "ds"}) {
            for (const char *refit_work : {static_cast<const char *>(nullptr), "0"}) {
                // ds by default: refits like auto's (its rows would repeat the full fit's).
                if (refit_work == nullptr && std::string(method) != "auto") continue;
                const Replay r = replay(d, method, refit_work);
                char updates[64];
                std::snprintf(updates, sizeof updates, "%s: %d of 9 refits",
                              refit_work == nullptr ? "default" : "update_refit_work 0", r.refits);
                std::printf("| %s | %s | %s | %.2f %% | %.2f %% | %.2f %% | %+.2f pp |\n", set, method, updates,
                            r.agreement, r.error_full, r.error_updated, r.error_updated - r.error_full);
                if (std::string(method) != "auto") continue;
                const bool target = r.agreement >= 99.5 && std::fabs(r.error_updated - r.error_full) <= 0.3;
                if (refit_work == nullptr) {
                    // The defaults: the target, 99.5 % and 0.3 pp, on every crowd.
                    met += target;
                } else {
                    // Incremental EM alone meets it on 10 of the 15 crowds (docs/incremental.md
                    // has the table and why the other five -- trec, web, labelme, mill, ms --
                    // fall short). This bound guards those figures against regressions.
                    ok = ok && r.agreement >= 97.0 && std::fabs(r.error_updated - r.error_full) <= 1.0;
                    met_incremental += target;
                }
            }
        }
    }
    if (found == 0) {
        std::printf("SKIPPED: the shared datasets were not found under %s\n", CS_DATASETS_DIR);
        skip();
    }
    std::printf("auto: the 99.5 %% / 0.3 pp target met on %d of %d crowds (incremental EM alone: %d)\n", met, found,
                met_incremental);
    assert_true(ok);
    assert_int_equal(met, found);
    if (found == 15) assert_true(met_incremental >= 10);
}

}  // namespace

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_new_item_is_the_e_step),
        cmocka_unit_test(test_update_errors_and_growth),
        cmocka_unit_test(test_refit_is_the_full_fit),
        cmocka_unit_test(test_large_updates_refit),
        cmocka_unit_test(test_replay_of_real_crowds),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
