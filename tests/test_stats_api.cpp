// SPDX-License-Identifier: MIT
// The public sufficient-statistics API (issue 38): statistics of disjoint shards add up
// to the statistics of their union; the M-step from them is the single-process M-step
// (a hand-checked case); and cs_fit_stats driven by shards of a crowd gives the labels
// of cs_fit and its posteriors (calibration none) within 1e-10, for ds and auto, k = 2
// and k = 3.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "support/cmocka_cpp.hpp"
#include "support/fit_helpers.hpp"
#include "support/splitmix.hpp"

namespace {

using Rng = test::SplitMix;

test::Triples simulate(int32_t items, int32_t workers, int32_t k, int32_t per_item, uint64_t seed) {
    Rng rng{seed};
    std::vector<double> accuracy(static_cast<std::size_t>(workers));
    for (double &a : accuracy) a = 0.5 + 0.45 * rng.uniform();
    test::Triples t;
    for (int32_t j = 0; j < items; ++j) {
        const int32_t y = rng.below(k), first = rng.below(workers);
        for (int32_t r = 0; r < per_item; ++r) {
            const int32_t w = (first + r * 5) % workers;
            t.add(j, w, rng.uniform() < accuracy[w] ? y : (y + 1 + rng.below(k - 1)) % k);
        }
    }
    return t;
}

// Shards of a crowd: item j to shard j mod n, numbered j / n within it.
struct Shards {
    std::vector<test::Model> models;
    std::vector<std::vector<int32_t>> items;  // global id of each local item
    std::size_t n_workers = 0, k = 0, stats = 0;
};

Shards make_shards(const test::Triples &t, int n, const char *method, std::size_t n_workers, std::size_t k) {
    Shards s;
    s.n_workers = n_workers;
    s.k = k;
    s.stats = cs_stats_length(n_workers, k);
    const int32_t n_items = *std::max_element(t.item.begin(), t.item.end()) + 1;
    for (int r = 0; r < n; ++r) {
        test::Triples part;
        std::vector<int32_t> ids;
        for (int32_t j = r; j < n_items; j += n) ids.push_back(j);
        for (std::size_t e = 0; e < t.size(); ++e)
            if (t.item[e] % n == r) part.add(t.item[e] / n, t.worker[e], t.label[e]);
        test::Model m = test::make_model(method);
        assert_int_equal(cs_shard_labels(m.get(), part.item.data(), part.worker.data(), part.label.data(), part.size(),
                                         ids.size(), n_workers, k),
                         CS_OK);
        s.models.push_back(std::move(m));
        s.items.push_back(ids);
    }
    return s;
}

int32_t engine_e_step(void *user, const double *confusion, const double *prior, double *stats) {
    auto *s = static_cast<Shards *>(user);
    std::vector<double> part(s->stats);
    std::fill(stats, stats + s->stats, 0.0);
    for (test::Model &m : s->models) {
        if (cs_shard_e_step(m.get(), confusion, prior, part.data(), part.size()) != CS_OK) return 1;
        for (std::size_t e = 0; e < s->stats; ++e) stats[e] += part[e];
    }
    return 0;
}

// The statistics of two shards add up to those of the whole crowd as one shard, and the
// M-step from hand-made statistics is the hand-computed one.
static void test_statistics_add_up(void **) {
    const test::Triples t = simulate(60, 6, 2, 4, 3);
    Shards whole = make_shards(t, 1, "ds", 6, 2), halves = make_shards(t, 2, "ds", 6, 2);
    std::vector<double> one(whole.stats), sum(whole.stats, 0.0), part(whole.stats);
    assert_int_equal(cs_shard_start(whole.models[0].get(), one.data(), one.size()), CS_OK);
    for (test::Model &m : halves.models) {
        assert_int_equal(cs_shard_start(m.get(), part.data(), part.size()), CS_OK);
        for (std::size_t e = 0; e < part.size(); ++e) sum[e] += part[e];
    }
    for (std::size_t e = 0; e < one.size(); ++e) assert_near(sum[e], one[e], 1e-12);
    // Class mass of the start: 60 items' vote shares sum to 60; every label counted once.
    assert_near(one[24] + one[25], 60.0, 1e-12);
    double labels = 0;
    for (std::size_t e = 0; e < 24; ++e) labels += one[e];
    assert_near(labels, 240.0, 1e-12);

    // One worker, k = 2: counts (observed x true) [[3, 1], [1, 5]] -> pi[true][observed]
    // = row true 0: (3, 1) / 4, row true 1: (1, 5) / 6; class mass (4, 6) of 10 items.
    test::Model m = test::make_model("ds");
    const double stats[8] = {3, 1, 1, 5, 4, 6, -12.5, 0};
    double confusion[4], prior[2];
    assert_int_equal(cs_m_step(m.get(), stats, 8, 10, 1, 2, confusion, 4, prior, 2), CS_OK);
    assert_near(confusion[0], 0.75, 1e-15);
    assert_near(confusion[1], 0.25, 1e-15);
    assert_near(confusion[2], 1.0 / 6.0, 1e-15);
    assert_near(confusion[3], 5.0 / 6.0, 1e-15);
    assert_near(prior[0], 0.4, 1e-15);
    assert_near(prior[1], 0.6, 1e-15);
    const double negative[8] = {3, -1, 1, 5, 4, 6, 0, 0};
    assert_int_equal(cs_m_step(m.get(), negative, 8, 10, 1, 2, confusion, 4, prior, 2), CS_ERR_INVALID_ARGUMENT);
    assert_int_equal(cs_m_step(m.get(), stats, 7, 10, 1, 2, confusion, 4, prior, 2), CS_ERR_INVALID_ARGUMENT);
    test::Model glad = test::make_model("glad");
    assert_int_equal(cs_m_step(glad.get(), stats, 8, 10, 1, 2, confusion, 4, prior, 2), CS_ERR_INVALID_ARGUMENT);
}

// cs_fit_stats on 3 shards = cs_fit of the crowd (calibration none).
static void test_fit_from_statistics(void **) {
    struct Case {
        const char *method;
        int32_t k, workers;
    };
    for (const Case c : {Case{"ds", 2, 30}, Case{"auto", 2, 30}, Case{"auto", 3, 40}, Case{"ds", 3, 40}}) {
        const test::Triples t = simulate(900, c.workers, c.k, 5, 17 + static_cast<uint64_t>(c.k));
        Shards shards = make_shards(t, 3, c.method, static_cast<std::size_t>(c.workers), static_cast<std::size_t>(c.k));
        std::vector<double> start(shards.stats, 0.0), part(shards.stats);
        for (test::Model &m : shards.models) {
            assert_int_equal(cs_shard_start(m.get(), part.data(), part.size()), CS_OK);
            for (std::size_t e = 0; e < part.size(); ++e) start[e] += part[e];
        }
        test::Model driver = test::make_model(c.method);
        const cs_status s = cs_fit_stats(driver.get(), 900, static_cast<std::size_t>(c.workers),
                                         static_cast<std::size_t>(c.k), start.data(), start.size(), engine_e_step, &shards);
        if (s != CS_OK) print_error("cs_fit_stats: %s\n", cs_last_error(driver.get()));
        assert_int_equal(s, CS_OK);
        const std::vector<double> confusion = test::confusion(driver.get());
        std::vector<double> prior(static_cast<std::size_t>(c.k));
        assert_int_equal(cs_class_prior(driver.get(), prior.data(), prior.size()), CS_OK);

        test::Model single = test::make_model(c.method);
        cs_set_param_string(single.get(), "calibration", "none");
        assert_int_equal(test::fit(single.get(), t), CS_OK);
        assert_int_equal(test::iterations(driver.get()), test::iterations(single.get()));
        const std::vector<double> q = test::posteriors(single.get());
        const std::vector<int32_t> labels = test::labels(single.get());
        double worst = 0;
        for (std::size_t e = 0; e < confusion.size(); ++e)
            worst = std::max(worst, std::fabs(confusion[e] - test::confusion(single.get())[e]));
        for (std::size_t r = 0; r < shards.models.size(); ++r) {
            cs_model *m = shards.models[r].get();
            std::vector<double> stats(shards.stats);
            assert_int_equal(cs_shard_e_step(m, confusion.data(), prior.data(), stats.data(), stats.size()), CS_OK);
            const std::vector<double> local = test::posteriors(m);
            const std::vector<int32_t> local_labels = test::labels(m);
            for (std::size_t j = 0; j < shards.items[r].size(); ++j) {
                const int32_t g = shards.items[r][j];
                assert_int_equal(local_labels[j], labels[static_cast<std::size_t>(g)]);
                for (int32_t l = 0; l < c.k; ++l)
                    worst = std::max(worst, std::fabs(local[j * c.k + l] - q[static_cast<std::size_t>(g) * c.k + l]));
            }
        }
        std::printf("%s k = %d: %d rounds, largest difference from cs_fit %.2e\n", c.method, c.k,
                    test::iterations(driver.get()), worst);
        assert_true(worst <= 1e-10);
    }
}

}  // namespace

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_statistics_add_up),
        cmocka_unit_test(test_fit_from_statistics),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
