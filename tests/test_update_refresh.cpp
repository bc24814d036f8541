// SPDX-License-Identifier: MIT
// The results of an incremental update (issue 38, docs/incremental.md): cs_update
// recomputes in place only the rows of the items it worked on (and the tied ones) when
// the other rows cannot have changed. These tests hold every update to the whole
// refresh, cs::results_from_state of the model's state (posteriors within 1e-12, labels
// and notes equal), on simulated crowds and on the shared and development crowds added
// in batches (some of their updates refresh tied rows); and an update of a model
// to the same update of its saved and loaded copy (the same bytes after); and one round
// of the update's incremental EM (ds::e_step_settle, removal and E-step fused) to the
// reference it replaced, remove-then-add with e_step_items. Linked statically: it reads
// the handle's state and calls the kernels.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "api/model.hpp"
#include "crowd/em/round_stop.hpp"
#include "crowd/em/ds_steps.hpp"
#include "crowd/em/incremental.hpp"
#include "support/cmocka_cpp.hpp"
#include "support/fit_helpers.hpp"
#include "support/model_sim.hpp"
#include "support/splitmix.hpp"
#include "support/update_helpers.hpp"

namespace {

using Rng = test::SplitMix;

// The labels in a seeded random order.
std::vector<std::size_t> shuffled(std::size_t n, uint64_t seed) {
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    Rng rng{seed};
    for (std::size_t e = n; e > 1; --e) std::swap(order[e - 1], order[rng.next() % e]);
    return order;
}

// A model whose updates stay incremental however much of the labels they work on
// (update_refit_work 0; the doubling refits of update_refit stay on): these tests are
// about the incremental path's results.
test::Model incremental_model(const char *method) {
    test::Model m = test::make_model(method);
    assert_int_equal(cs_set_param_string(m.get(), "update_refit_work", "0"), CS_OK);
    return m;
}

struct Refreshes {
    int in_place = 0, whole = 0, refits = 0, with_ties = 0;  // with_ties: in place with tied rows
    double largest_difference = 0.0;
};

// The model's results (after an update) against the whole refresh of its state.
void expect_whole_refresh(cs_model *m, Refreshes &count) {
    if (!m->state) {  // the labels doubled: the update ended with a full refit (update_refit)
        ++count.refits;
        return;
    }
    const cs::UpdateState &s = *m->state;
    const cs::FitResult &got = *m->fit;
    cs::FitOptions options = m->fit_params->fit_options();
    cs::FitResult whole;
    cs::results_from_state(s, options, whole);
    assert_int_equal(got.posteriors.size(), whole.posteriors.size());
    for (std::size_t e = 0; e < whole.posteriors.size(); ++e) {
        const double d = std::fabs(got.posteriors[e] - whole.posteriors[e]);
        count.largest_difference = std::max(count.largest_difference, d);
        if (!(d <= 1e-12)) {
            print_error("posterior %zu: %.17g in place, %.17g whole\n", e, got.posteriors[e], whole.posteriors[e]);
            fail();
        }
    }
    assert_true(got.labels == whole.labels);
    assert_int_equal(got.notes, whole.notes);
    assert_true(got.note_message == whole.note_message);
    assert_true(got.confusion == whole.confusion);
    assert_true(got.prior == whole.prior);
    assert_true(got.model_confusion == whole.model_confusion);
    assert_true(got.temperature == whole.temperature);
    if (s.refreshed_rows < s.data.n_items) {
        ++count.in_place;
        count.with_ties += s.n_tied > 0;
    } else {
        ++count.whole;
    }
}

// Fit of the first part of the labels, then updates of `batches` equal parts, each
// checked against the whole refresh.
Refreshes replay(const test::Triples &t, const char *method, int batches, double first_share,
                 double recalibrate = -1.0, uint64_t seed = 38) {
    const std::vector<std::size_t> order = shuffled(t.size(), seed);
    test::Model m = incremental_model(method);
    if (recalibrate >= 0.0) cs_set_double(m.get(), CS_PARAM_UPDATE_RECALIBRATE, recalibrate);
    const std::size_t first = static_cast<std::size_t>(first_share * static_cast<double>(t.size()));
    assert_int_equal(test::fit(m.get(), test::slice(t, order, 0, first)), CS_OK);
    Refreshes count;
    for (int b = 0; b < batches; ++b) {
        const std::size_t from = first + (t.size() - first) * b / batches;
        const std::size_t to = first + (t.size() - first) * (b + 1) / batches;
        const cs_status s = test::update(m.get(), test::slice(t, order, from, to));
        if (s != CS_OK) print_error("batch %d: %s\n", b, cs_last_error(m.get()));
        assert_int_equal(s, CS_OK);
        expect_whole_refresh(m.get(), count);
    }
    return count;
}

// Simulated crowds: auto (calibrated by held-out labels) with the calibration kept
// (update_recalibrate high: every update in place) and with the default refits of the
// calibration (whole refreshes among them), ds without calibration; labels in random
// order and, for new items, item after item.
static void test_in_place_is_the_whole_refresh(void **) {
    const test::Triples t = test::simulate(2000, 40, 3, 5, 21);
    const Refreshes kept = replay(t, "auto", 8, 0.8, 1e6);
    assert_int_equal(kept.in_place, 8);
    const Refreshes recalibrated = replay(t, "auto", 8, 0.5);
    assert_true(recalibrated.whole > 0);  // the calibration refitted: every row changes
    const Refreshes ds = replay(t, "ds", 8, 0.8);
    assert_true(ds.in_place > 0);
    // New items (the labels item after item): a batch touches only the new items.
    test::Model m = incremental_model("auto");
    cs_set_double(m.get(), CS_PARAM_UPDATE_RECALIBRATE, 1e6);
    const std::vector<std::size_t> in_order = [&] {
        std::vector<std::size_t> o(t.size());
        std::iota(o.begin(), o.end(), std::size_t{0});
        return o;
    }();
    assert_int_equal(test::fit(m.get(), test::slice(t, in_order, 0, 8000)), CS_OK);
    Refreshes items;
    for (std::size_t from = 8000; from < t.size(); from += 500) {
        assert_int_equal(test::update(m.get(), test::slice(t, in_order, from, std::min(t.size(), from + 500))), CS_OK);
        expect_whole_refresh(m.get(), items);
    }
    assert_int_equal(items.in_place, 4);
    assert_true(m->state->refreshed_rows < 2000);
    std::printf("largest difference to the whole refresh: %.3g (auto), %.3g (ds), %.3g (new items)\n",
                kept.largest_difference, ds.largest_difference, items.largest_difference);
}

// With a classifier's probabilities (issue 34): every row set before the first fit and
// left on the handle, so each update applies them (unchanged: no extra work) and its
// E-steps carry the classifier's terms; auto with the calibration kept, ds, and auto
// uncalibrated, every update held to the whole refresh (which reads the same table
// through the state). A tempered fit's rows all move when pi_M does (the calibration
// leaves the classifier's terms at the current pi_M untempered), so such updates
// refresh every row; at T = 1 they refresh in place.
static void test_with_a_classifier(void **) {
    const test::Sim s = test::simulate_with_model(2000, 3, 4, 0.7, 0.9, 2, 23);
    const std::vector<std::size_t> order = shuffled(s.crowd.size(), 7);
    for (const char *method : {"auto", "ds", "auto uncalibrated"}) {
        const bool uncalibrated = std::strcmp(method, "auto uncalibrated") == 0;
        test::Model m = incremental_model(uncalibrated ? "auto" : method);
        if (uncalibrated) cs_set_param_string(m.get(), "calibration", "none");
        cs_set_double(m.get(), CS_PARAM_UPDATE_RECALIBRATE, 1e6);
        cs_set_int(m.get(), CS_PARAM_ITEMS, s.n_items);
        assert_int_equal(cs_set_model_probs(m.get(), nullptr, s.probs.data(), s.n_items, s.k), CS_OK);
        const std::size_t first = s.crowd.size() * 8 / 10;
        assert_int_equal(test::fit(m.get(), test::slice(s.crowd, order, 0, first)), CS_OK);
        Refreshes count;
        for (int b = 0; b < 8; ++b) {
            const std::size_t from = first + (s.crowd.size() - first) * b / 8;
            const std::size_t to = first + (s.crowd.size() - first) * (b + 1) / 8;
            assert_int_equal(test::update(m.get(), test::slice(s.crowd, order, from, to)), CS_OK);
            assert_false(m->state->model_table.empty());
            expect_whole_refresh(m.get(), count);
        }
        std::printf("%s with a classifier (T = %.3f): %d updates in place, %d whole; largest difference %.3g\n",
                    method, m->state->temperature, count.in_place, count.whole, count.largest_difference);
        if (m->state->temperature == 1.0) assert_true(count.in_place > 0);
        else assert_int_equal(count.in_place, 0);
        if (uncalibrated) assert_true(m->state->temperature == 1.0);
    }
}

// The same update of a model and of its saved and loaded copy: the same results and
// the same saved bytes after, for a chain of updates (the loaded copy rebuilds the
// derived tables -- tie flags, answer sets, label counts -- from the file).
static void test_loaded_copy_updates_alike(void **) {
    const test::Triples t = test::simulate(1500, 30, 3, 4, 22);
    const std::vector<std::size_t> order = shuffled(t.size(), 5);
    for (const char *method : {"auto", "ds"}) {
        test::Model m = incremental_model(method);
        assert_int_equal(test::fit(m.get(), test::slice(t, order, 0, 4000)), CS_OK);
        for (std::size_t from = 4000; from < t.size(); from += 500) {
            const std::vector<uint8_t> before = test::saved(m.get());
            test::Model copy = test::loaded(before);
            const test::Triples batch = test::slice(t, order, from, std::min(t.size(), from + 500));
            assert_int_equal(test::update(m.get(), batch), CS_OK);
            assert_int_equal(test::update(copy.get(), batch), CS_OK);
            assert_true(test::posteriors(m.get()) == test::posteriors(copy.get()));
            assert_true(test::labels(m.get()) == test::labels(copy.get()));
            assert_true(test::saved(m.get()) == test::saved(copy.get()));
        }
    }
}

// The saved bytes of an auto model fitted on `first` and updated with `batch` under the
// duplicate policy.
std::vector<uint8_t> saved_after_update(const test::Triples &first, const test::Triples &batch, int32_t policy) {
    test::Model m = incremental_model("auto");
    cs_set_int(m.get(), CS_PARAM_DUPLICATES, policy);
    assert_int_equal(test::fit(m.get(), first), CS_OK);
    assert_int_equal(test::update(m.get(), batch), CS_OK);
    return test::saved(m.get());
}

// One batch in three orders -- sorted by item and worker, grouped by item with each
// item's workers reversed (the path that orders each item's labels alone), and shuffled
// -- gives the same model: the same saved bytes after the update. Some labels of the
// batch replace the model's own (duplicates = last), the rest are new items.
static void test_batch_order_does_not_matter(void **) {
    const test::Triples t = test::simulate(1200, 30, 3, 5, 23);
    std::vector<std::size_t> in_order(t.size());
    std::iota(in_order.begin(), in_order.end(), std::size_t{0});
    const test::Triples first = test::slice(t, in_order, 0, 5000);
    // the batch: the remaining items (new) and second labels for some old items' workers
    test::Triples sorted;
    for (int32_t j = 0; j < 1200; ++j) {
        std::vector<std::pair<int32_t, int32_t>> labels;  // (worker, label)
        for (std::size_t e = 0; e < t.size(); ++e)
            if (t.item[e] == j && (e >= 5000 || e % 37 == 0)) labels.emplace_back(t.worker[e], (t.label[e] + 1) % 3);
        std::sort(labels.begin(), labels.end());
        for (const auto &[w, c] : labels) sorted.add(j, w, c);
    }
    test::Triples grouped;
    for (std::size_t a = 0; a < sorted.size();) {
        std::size_t b = a;
        while (b < sorted.size() && sorted.item[b] == sorted.item[a]) ++b;
        for (std::size_t e = b; e > a; --e) grouped.add(sorted.item[e - 1], sorted.worker[e - 1], sorted.label[e - 1]);
        a = b;
    }
    assert_true(grouped.item == sorted.item && grouped.worker != sorted.worker);
    const test::Triples shuffled_batch = test::slice(sorted, shuffled(sorted.size(), 9), 0, sorted.size());
    const std::vector<uint8_t> after = saved_after_update(first, sorted, CS_DUPLICATES_KEEP_LAST);
    assert_true(saved_after_update(first, grouped, CS_DUPLICATES_KEEP_LAST) == after);
    assert_true(saved_after_update(first, shuffled_batch, CS_DUPLICATES_KEEP_LAST) == after);
}

// Two labels of one worker on one new item in a batch out of order (the radix sort's
// path in checked_labels): the duplicate policy keeps the later one (last) or the
// earlier (first) in input order, as the same batch with the other label left out.
static void test_batch_duplicates_keep_input_order(void **) {
    const test::Triples t = test::simulate(400, 20, 3, 5, 31);
    for (int32_t policy : {CS_DUPLICATES_KEEP_LAST, CS_DUPLICATES_KEEP_FIRST}) {
        test::Triples both, kept;
        // items 402, 400 and 401 (new), worker 3 twice on item 400: label 0, then 2
        both.add(402, 1, 1);
        both.add(400, 3, 0);
        both.add(401, 7, 2);
        both.add(400, 3, 2);
        kept.add(400, 3, policy == CS_DUPLICATES_KEEP_LAST ? 2 : 0);
        kept.add(401, 7, 2);
        kept.add(402, 1, 1);
        assert_true(saved_after_update(t, both, policy) == saved_after_update(t, kept, policy));
    }
}

// The shared and development crowds (test_incremental's), half their labels fitted and
// the rest added in 9 batches, every update held to the whole refresh: real crowds
// have tied posteriors and some fits are degenerate. Skips visibly without the data.
static void test_real_crowds_in_place(void **) {
    const char *sets[] = {"bluebird", "rte", "trec", "dog", "web", "../datasets-dev/adult2", "../datasets-dev/bm",
                          "../datasets-dev/face", "../datasets-dev/fact", "../datasets-dev/hitspam_cf",
                          "../datasets-dev/labelme", "../datasets-dev/mill", "../datasets-dev/ms",
                          "../datasets-dev/possent", "../datasets-dev/product"};
    int found = 0, in_place = 0, whole = 0, with_ties = 0;
    double largest = 0.0;
    for (const char *set : sets) {
        const test::Dataset d = test::load_dataset(set);
        if (!d.found) continue;
        ++found;
        for (const char *method : {"auto", "ds"}) {
            // The calibration kept (else every update past 10 % growth refits it and
            // refreshes every row), half the labels fitted, the rest in 9 batches.
            const Refreshes r = replay(d.labels, method, 9, 0.5, 1e6);
            in_place += r.in_place;
            whole += r.whole;
            with_ties += r.with_ties;
            largest = std::max(largest, r.largest_difference);
        }
    }
    if (found == 0) {
        std::printf("SKIPPED: the shared datasets were not found under %s\n", CS_DATASETS_DIR);
        skip();
    }
    std::printf("%d crowds: %d updates refreshed in place (%d of them with tied rows), %d whole; largest "
                "difference %.3g\n", found, in_place, with_ties, whole, largest);
    assert_true(in_place > 0);
    if (found == 15) assert_true(with_ties > 0);  // the tied rows' path ran
}

// One round of e_step_settle against the reference it replaced: each item's old share
// taken out of the sums (clamped at 0), then e_step_items. Random parameters, old
// posteriors and base counts; k = 2, 3, 5 (kernels specialised on k) and 7 (generic);
// every eleventh item gold; a classifier's terms at k = 3 and 7; a third of the count rows
// hold the round's items alone.
// Posteriors and impossible flags must be identical (the same sums in the same order),
// the counts and class mass equal to 1e-12 relative (rounding apart: q_new - q_old is
// added at once, and the clamp at 0 then sees the sum, not the removal alone; with the
// old share in the count the two differ by rounding only), each item's term and the total
// log-likelihood equal to the reference's, `moved` the largest posterior change, and
// `margin` the smallest gap between an item's two largest posteriors (gold and impossible
// items left out).
static void test_settle_round_is_remove_then_add(void **) {
    for (int32_t k : {2, 3, 5, 7}) {
        for (bool shares_in_sums : {true, false}) {
            const test::Triples t = test::simulate(300, 40, k, 6, 77 + static_cast<uint64_t>(k));
            cs::FitOptions options;
            cs::CrowdData d = cs::CrowdData::build(t.item.data(), t.worker.data(), t.label.data(), t.size(), options);
            d.gold.assign(static_cast<std::size_t>(d.n_items), -1);
            for (int32_t j = 0; j < d.n_items; j += 11) d.gold[static_cast<std::size_t>(j)] = j % k;
            Rng rng{1000 + static_cast<uint64_t>(k)};
            const std::size_t codes = static_cast<std::size_t>(d.n_workers) * k, kk = static_cast<std::size_t>(k);
            std::vector<double> log_pi(codes * kk), log_prior(kk), prior(kk), q_old(d.n_items * kk),
                counts(codes * kk), mass(kk);
            for (double &x : log_pi) x = std::log(0.05 + rng.uniform());
            double total = 0.0;
            for (std::size_t l = 0; l < kk; ++l) total += prior[l] = 0.2 + rng.uniform();
            for (std::size_t l = 0; l < kk; ++l) log_prior[l] = std::log(prior[l] /= total);
            for (std::size_t j = 0; j < static_cast<std::size_t>(d.n_items); ++j) {
                double row = 0.0;
                for (std::size_t l = 0; l < kk; ++l) row += q_old[j * kk + l] = rng.uniform();
                for (std::size_t l = 0; l < kk; ++l) q_old[j * kk + l] /= row;
            }
            // base counts (other items' shares); none for every third code, whose count is
            // then the working items' alone and falls to a rounding hair at their removal
            for (std::size_t e = 0; e < counts.size(); ++e) counts[e] = (e / kk) % 3 == 0 ? 0.0 : 3.0 * rng.uniform();
            for (double &x : mass) x = 50.0 * rng.uniform();
            if (shares_in_sums)  // the old shares are in the sums
                for (int32_t j = 0; j < d.n_items; ++j) {
                    for (int64_t p = d.item_start[j]; p < d.item_start[j + 1]; ++p)
                        for (std::size_t l = 0; l < kk; ++l)
                            counts[d.item_code[p] * kk + l] += q_old[j * kk + l];
                    for (std::size_t l = 0; l < kk; ++l) mass[l] += q_old[j * kk + l];
                }
            // the reference: remove (as incremental.cpp's remove_items), then e_step_items
            std::vector<double> q_ref = q_old, counts_ref = counts, mass_ref = mass, item_ll(d.n_items);
            std::vector<uint8_t> impossible_ref(d.n_items);
            if (shares_in_sums)
                for (int32_t j = 0; j < d.n_items; ++j) {
                    for (int64_t p = d.item_start[j]; p < d.item_start[j + 1]; ++p)
                        for (std::size_t l = 0; l < kk; ++l) {
                            double &c = counts_ref[d.item_code[p] * kk + l];
                            c = std::max(0.0, c - q_old[j * kk + l]);
                        }
                    for (std::size_t l = 0; l < kk; ++l) mass_ref[l] = std::max(0.0, mass_ref[l] - q_old[j * kk + l]);
                }
            std::vector<int32_t> all(static_cast<std::size_t>(d.n_items));
            std::iota(all.begin(), all.end(), 0);
            // a classifier's per-item terms at k = 3 and 7 (model_worker.hpp), none otherwise
            std::vector<double> terms;
            if (k % 2 == 1)
                for (int32_t e = 0; e < d.n_items * k; ++e) terms.push_back(std::log(0.05 + rng.uniform()));
            const double *item_terms = terms.empty() ? nullptr : terms.data();
            cs::ds::e_step_items(d, all.data(), all.size(), log_pi.data(), log_prior.data(), prior.data(), nullptr,
                                 q_ref.data(), item_ll.data(), impossible_ref.data(), counts_ref.data(),
                                 mass_ref.data(), item_terms);
            // the fused round
            std::vector<double> q = q_old, top(d.n_items), sum(d.n_items);
            std::vector<uint8_t> impossible(d.n_items);
            double moved = -1.0, margin = -1.0;
            const double ll = cs::ds::e_step_settle(d, d.n_items, log_pi.data(), log_prior.data(), prior.data(),
                                                    nullptr, shares_in_sums, q.data(), top.data(), sum.data(),
                                                    impossible.data(), counts.data(), mass.data(), moved, margin,
                                                    item_terms);
            double largest = 0.0, ll_ref = 0.0;
            for (std::size_t e = 0; e < q.size(); ++e) {
                assert_true(q[e] == q_ref[e]);
                largest = std::max(largest, std::fabs(q[e] - q_old[e]));
            }
            assert_true(moved == largest);
            assert_true(largest > 0.01);  // the posteriors did move
            double closest = std::numeric_limits<double>::infinity();
            for (int32_t j = 0; j < d.n_items; ++j) {
                if (d.gold[static_cast<std::size_t>(j)] >= 0 || impossible_ref[j] != 0) continue;
                std::vector<double> row(q_ref.begin() + j * k, q_ref.begin() + (j + 1) * k);
                std::sort(row.rbegin(), row.rend());
                closest = std::min(closest, row[0] - row[1]);
            }
            assert_true(margin == closest);
            assert_true(closest > 0.0 && closest < 0.01);  // some item is near a tie
            for (std::size_t e = 0; e < counts.size(); ++e)
                assert_true(std::fabs(counts[e] - counts_ref[e]) <= 1e-12 * std::max(1.0, counts_ref[e]));
            for (std::size_t l = 0; l < kk; ++l)
                assert_true(std::fabs(mass[l] - mass_ref[l]) <= 1e-12 * std::max(1.0, mass_ref[l]));
            for (int32_t j = 0; j < d.n_items; ++j) {
                assert_int_equal(impossible[j], impossible_ref[j]);
                const double term = cs::ds::item_log_likelihood(d, j, top[j], sum[j], impossible[j] != 0);
                assert_true(std::fabs(term - item_ll[j]) <= 1e-12 * std::max(1.0, std::fabs(item_ll[j])));
                ll_ref += item_ll[j];
            }
            assert_true(std::fabs(ll - ll_ref) <= 1e-10 * std::fabs(ll_ref));
        }
    }
}

// The state's sums against its labels at its posteriors: code c's count row the sum of
// q_j over the labels (j, c), the class mass the sum of every q_j. Incremental rounds
// move each working item's share in place; none may be lost or counted twice.
void expect_sums_of_state(const cs::UpdateState &s) {
    const int32_t k = s.data.k;
    std::vector<double> counts(s.counts.size(), 0.0), mass(static_cast<std::size_t>(k), 0.0);
    for (int32_t j = 0; j < s.data.n_items; ++j) {
        const double *q = s.q.data() + static_cast<std::size_t>(j) * k;
        for (int64_t p = s.data.item_start[j]; p < s.data.item_start[j + 1]; ++p)
            for (int32_t l = 0; l < k; ++l) counts[s.data.item_code[p] * static_cast<std::size_t>(k) + l] += q[l];
        for (int32_t l = 0; l < k; ++l) mass[static_cast<std::size_t>(l)] += q[l];
    }
    for (std::size_t e = 0; e < counts.size(); ++e)
        assert_true(std::fabs(s.counts[e] - counts[e]) <= 1e-9 * std::max(1.0, counts[e]));
    for (int32_t l = 0; l < k; ++l)
        assert_true(std::fabs(s.class_mass[static_cast<std::size_t>(l)] - mass[static_cast<std::size_t>(l)]) <=
                    1e-9 * mass[static_cast<std::size_t>(l)]);
}

// The narrowed rounds (settle_near_ties, incremental.cpp): once the rounds converge
// linearly, the items still near a tie go on alone. They need many working items for
// one to sit that near a tie (the 10^7-label bench: 2 of 135,577): on 10^6 labels (10^5
// items, 2,000 workers) replayed in batches of 1 % in random order one update of ten
// takes them (none on 2 x 10^4 items or 100 workers). After every update the state's
// sums must be those of its labels at its posteriors and its results the whole refresh.
static void test_narrowed_rounds_keep_the_sums(void **) {
    const test::Triples t = test::simulate(100000, 2000, 3, 10, 43);
    const std::vector<std::size_t> order = shuffled(t.size(), 38);
    test::Model m = incremental_model("auto");
    const std::size_t first = t.size() * 9 / 10;
    assert_int_equal(test::fit(m.get(), test::slice(t, order, 0, first)), CS_OK);
    Refreshes count;
    int narrowed = 0;
    for (int b = 0; b < 10; ++b) {
        const std::size_t from = first + (t.size() - first) * b / 10, to = first + (t.size() - first) * (b + 1) / 10;
        assert_int_equal(test::update(m.get(), test::slice(t, order, from, to)), CS_OK);
        assert_non_null(m.get()->state.get());
        if (m.get()->state->narrowed_items > 0) {
            ++narrowed;
            print_message("update %d: rounds narrowed to %lld items\n", b,
                          static_cast<long long>(m.get()->state->narrowed_items));
        }
        expect_sums_of_state(*m.get()->state);
        expect_whole_refresh(m.get(), count);
    }
    print_message("updates with narrowed rounds: %d of 10\n", narrowed);
    assert_true(narrowed > 0);
}

// The early stop of an update's rounds (crowd/em/round_stop.hpp) on sequences of moves.
static void test_round_stop(void **) {
    // The 10^7-label bench's update (1 % new labels in random order): moves 0.0244,
    // 0.00161, 1.89e-4, 2.19e-5 after the first round, the closest item 2.03e-5 from a
    // tie. After the third, later rounds may move an entry by 2 x 1.89e-4 x 0.117 / 0.883
    // = 5.0e-5 (doubled: 1.0e-4 > 2.03e-5), after the fourth by 5.8e-6 (1.16e-5 < 2.03e-5).
    {
        cs::RoundStop stop;
        const double moves[] = {0.0244, 0.00161, 1.89e-4, 2.19e-5};
        const bool expected[] = {false, false, false, true};
        for (int r = 0; r < 4; ++r) assert_true(stop.settled(moves[r], 2.03e-5) == expected[r]);
    }
    // The same moves through safe_margin, the gap the narrowed rounds compare each item's
    // with: infinite until the rate is steady, then 1.0055e-4 and 1.1651e-5 (by hand:
    // rho = 1.89e-4 / 1.61e-3 = 0.11739, 4 x 1.89e-4 x rho / (1 - rho)).
    {
        cs::RoundStop stop;
        const double inf = std::numeric_limits<double>::infinity();
        assert_true(stop.safe_margin(0.0244) == inf);
        assert_true(stop.safe_margin(0.00161) == inf);
        assert_true(std::fabs(stop.safe_margin(1.89e-4) - 1.0055e-4) < 1e-8);
        assert_true(std::fabs(stop.safe_margin(2.19e-5) - 1.1651e-5) < 1e-9);
    }
    // An exact tie never lets the rounds stop on the rule.
    {
        cs::RoundStop stop;
        for (double m = 0.0244; m > 1e-12; m *= 0.12) assert_false(stop.settled(m, 0.0));
    }
    // The face crowd's update that slowed down and sped up again: moves too large and a
    // rate too slow to be read as linear convergence, whatever the margin.
    {
        cs::RoundStop stop;
        for (double m : {0.233, 0.172, 0.079, 0.030, 0.027}) assert_false(stop.settled(m, 0.103));
    }
    // At a steady rate of 1/5 the doubled bound is 4 moved (1/5) / (4/5) = moved: the rule
    // stops at the first round whose move is below the margin, and not before.
    {
        cs::RoundStop stop;
        double m = 1e-3;
        int stopped = -1;
        for (int r = 0; r < 12 && stopped < 0; ++r, m *= 0.2)
            if (stop.settled(m, 1e-6)) stopped = r;
        assert_int_equal(stopped, 5);  // 1e-3 x 0.2^5 = 3.2e-7 < 1e-6 < 1.6e-6
    }
    // A rate that jumps by more than a factor of 2 (0.05, then 0.2) is not steady.
    {
        cs::RoundStop stop;
        assert_false(stop.settled(1e-3, 1.0));
        assert_false(stop.settled(5e-5, 1.0));    // rate 0.05 (the first: rho taken as 1)
        assert_false(stop.settled(1e-5, 1.0));    // rate 0.2 after 0.05: a jump of 4x
        assert_true(stop.settled(2e-6, 1.0));     // 0.2 again: steady, far from any tie
    }
}

}  // namespace

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_in_place_is_the_whole_refresh),
        cmocka_unit_test(test_loaded_copy_updates_alike),
        cmocka_unit_test(test_with_a_classifier),
        cmocka_unit_test(test_real_crowds_in_place),
        cmocka_unit_test(test_settle_round_is_remove_then_add),
        cmocka_unit_test(test_round_stop),
        cmocka_unit_test(test_narrowed_rounds_keep_the_sums),
        cmocka_unit_test(test_batch_order_does_not_matter),
        cmocka_unit_test(test_batch_duplicates_keep_input_order),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
