// SPDX-License-Identifier: MIT
// Tags (cs_fit_tags; issue 37): crowd-kit's BinaryRelevance example (its unit-test
// fixture: t1 -> {house, tree}, t2 -> {car} under MajorityVote, DawidSkene, Wawa and
// GLAD), the majority vote's probabilities by hand, tag sets at thresholds, recovery on
// simulated tag crowds (correlated tags, spammers, workers who tick too little or never),
// degenerate inputs (empty sets, a tag nobody ticks, one worker), errors, determinism.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "support/cmocka_cpp.hpp"
#include "crowdspec/crowdspec.h"
#include "sim/answer_sim.hpp"

namespace {

struct TagAnswers {
    std::vector<int32_t> item, worker, tag;
    std::vector<int64_t> start{0};
    int32_t n_tags = 0;
    void add(int32_t i, int32_t w, std::vector<int32_t> tags) {
        item.push_back(i);
        worker.push_back(w);
        tag.insert(tag.end(), tags.begin(), tags.end());
        start.push_back(static_cast<int64_t>(tag.size()));
    }
    std::size_t size() const { return item.size(); }
};

// crowd-kit's example. Tags in sorted order: car 0, grass 1, house 2, human 3, train 4,
// tree 5. t1 (item 0): w1 {house, tree}, w2 {house}, w3 {house, tree, grass};
// t2 (item 1): w1 {car}, w2 {car, human}, w3 {train}.
TagAnswers crowdkit_example() {
    TagAnswers a;
    a.add(0, 0, {2, 5});
    a.add(0, 1, {2});
    a.add(0, 2, {2, 5, 1});
    a.add(1, 0, {0});
    a.add(1, 1, {0, 3});
    a.add(1, 2, {4});
    return a;
}

struct TagFit {
    std::size_t n = 0, m = 0, T = 0;
    std::vector<double> p, sens, spec;
    std::vector<int32_t> member;
    int32_t notes = 0;
};

TagFit fit(const char *method, const TagAnswers &a, const std::vector<std::pair<const char *, const char *>> &params = {},
           int32_t n_tags = 0) {
    cs_model *model = cs_create();
    if (method) assert_int_equal(cs_set_param_string(model, "method", method), CS_OK);
    for (const auto &kv : params) assert_int_equal(cs_set_param_string(model, kv.first, kv.second), CS_OK);
    const cs_status s = cs_fit_tags(model, a.item.data(), a.worker.data(), a.start.data(), a.tag.data(), a.size(),
                                    n_tags ? n_tags : a.n_tags);
    if (s != CS_OK) print_error("cs_fit_tags(%s): %s\n", method ? method : "default", cs_last_error(model));
    assert_int_equal(s, CS_OK);
    TagFit f;
    assert_int_equal(cs_n_items(model, &f.n), CS_OK);
    assert_int_equal(cs_n_workers(model, &f.m), CS_OK);
    assert_int_equal(cs_n_tags(model, &f.T), CS_OK);
    f.p.resize(f.n * f.T);
    f.member.resize(f.n * f.T);
    f.sens.resize(f.m * f.T);
    f.spec.resize(f.m * f.T);
    assert_int_equal(cs_tag_probabilities(model, f.p.data(), f.p.size()), CS_OK);
    assert_int_equal(cs_tag_sets(model, nullptr, 0, f.member.data(), f.member.size()), CS_OK);
    assert_int_equal(cs_tag_workers(model, f.sens.data(), f.spec.data(), f.sens.size()), CS_OK);
    cs_fit_notes(model, &f.notes);
    for (double v : f.p) assert_true(v >= 0.0 && v <= 1.0);
    for (double v : f.sens) assert_true(v >= 0.0 && v <= 1.0);
    for (double v : f.spec) assert_true(v >= 0.0 && v <= 1.0);
    cs_destroy(model);
    return f;
}

std::vector<int32_t> set_of(const TagFit &f, std::size_t j) {
    std::vector<int32_t> s;
    for (std::size_t g = 0; g < f.T; ++g)
        if (f.member[j * f.T + g]) s.push_back(static_cast<int32_t>(g));
    return s;
}

void test_crowdkit_example(void **) {
    // Majority vote per tag: the vote shares, by hand.
    const TagFit mv = fit("mv", crowdkit_example());
    assert_int_equal(mv.T, 6);
    const double expected[2][6] = {{0, 1.0 / 3, 1, 0, 0, 2.0 / 3}, {2.0 / 3, 0, 0, 1.0 / 3, 1.0 / 3, 0}};
    for (int j = 0; j < 2; ++j)
        for (int g = 0; g < 6; ++g) assert_near(mv.p[j * 6 + g], expected[j][g], 1e-12);
    // crowd-kit's expected sets for each base aggregator it tests (ours of the same name).
    for (const char *method : {"mv", "ds", "wawa", "glad", "auto", "tag-pooled"}) {
        const TagFit f = fit(method, crowdkit_example());
        const std::vector<int32_t> t1 = set_of(f, 0), t2 = set_of(f, 1);
        print_message("%s: t1 has %zu tags, t2 %zu\n", method, t1.size(), t2.size());
        assert_true((t1 == std::vector<int32_t>{2, 5}));
        assert_true((t2 == std::vector<int32_t>{0}));
    }
}

void test_thresholds(void **) {
    cs_model *model = cs_create();
    cs_set_param_string(model, "method", "mv");
    const TagAnswers a = crowdkit_example();
    assert_int_equal(cs_fit_tags(model, a.item.data(), a.worker.data(), a.start.data(), a.tag.data(), a.size(), 0),
                     CS_OK);
    std::vector<int32_t> member(12);
    const double low = 0.3;
    assert_int_equal(cs_tag_sets(model, &low, 1, member.data(), member.size()), CS_OK);
    // At 0.3: item 0 gets grass (1/3) too; item 1 human and train.
    const int32_t want_low[12] = {0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0};
    for (int e = 0; e < 12; ++e) assert_int_equal(member[e], want_low[e]);
    const double per_tag[6] = {0.9, 0.0, 0.5, 0.5, 0.5, 0.5};  // car needs 0.9; grass always
    assert_int_equal(cs_tag_sets(model, per_tag, 6, member.data(), member.size()), CS_OK);
    const int32_t want_per[12] = {0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 0, 0};
    for (int e = 0; e < 12; ++e) assert_int_equal(member[e], want_per[e]);
    assert_int_equal(cs_tag_sets(model, per_tag, 5, member.data(), member.size()), CS_ERR_INVALID_ARGUMENT);
    const double bad = 1.5;
    assert_int_equal(cs_tag_sets(model, &bad, 1, member.data(), member.size()), CS_ERR_INVALID_ARGUMENT);
    assert_int_equal(cs_tag_sets(model, nullptr, 0, member.data(), 11), CS_ERR_BUFFER_TOO_SMALL);
    cs_destroy(model);
}

TagAnswers answers_of(const cs::sim::TagCrowd &c) {
    TagAnswers a;
    a.item = c.item;
    a.worker = c.worker;
    a.tag = c.tag;
    a.start = c.tag_start;
    a.n_tags = c.n_tags;
    return a;
}

double hamming(const TagFit &f, const cs::sim::TagCrowd &c) {
    std::size_t wrong = 0;
    for (std::size_t e = 0; e < f.member.size(); ++e) wrong += f.member[e] != c.truth[e];
    return static_cast<double>(wrong) / static_cast<double>(f.member.size());
}

void test_simulated_recovery(void **) {
    cs::sim::TagsSpec spec;
    spec.n_items = 2000;
    spec.n_workers = 60;
    spec.answers_per_item = 5;
    spec.seed = 17;
    const cs::sim::TagCrowd c = cs::sim::simulate_tags(spec);
    const TagAnswers a = answers_of(c);
    const TagFit mv = fit("mv", a), ds = fit("ds", a), aut = fit("auto", a), pooled = fit("tag-pooled", a);
    const double h_mv = hamming(mv, c), h_ds = hamming(ds, c), h_auto = hamming(aut, c), h_pool = hamming(pooled, c);
    print_message("Hamming loss: mv %.4f ds %.4f auto %.4f tag-pooled %.4f\n", h_mv, h_ds, h_auto, h_pool);
    assert_true(h_ds < h_mv && h_auto < h_mv && h_pool < h_mv);
    assert_true(h_pool < 0.06);
    // The workers who never tick: sensitivity near 0 on every tag; spammers' specificity
    // and sensitivity sum near 1 (uninformative); good workers' sensitivity near truth.
    for (int32_t w = 0; w < c.n_workers; ++w) {
        double informative = 0.0;  // sensitivity + specificity - 1 over the tags
        for (int32_t g = 0; g < c.n_tags; ++g) {
            const std::size_t at = static_cast<std::size_t>(w) * c.n_tags + g;
            if (c.type[w] == 3) assert_true(pooled.sens[at] < 0.1 && pooled.spec[at] > 0.95);
            if (c.type[w] == 0) assert_near(pooled.sens[at], c.sensitivity[at], 0.2);
            informative += (pooled.sens[at] + pooled.spec[at] - 1.0) / c.n_tags;
        }
        if (c.type[w] == 2) assert_near(informative, 0.0, 0.15);  // a spammer's tick says nothing
        if (c.type[w] == 0) assert_true(informative > 0.5);
    }
}

void test_degenerate(void **) {
    for (const char *method : {"mv", "ds", "auto", "tag-pooled"}) {
        // Every answer an empty set, n_tags given: probability 0 everywhere.
        TagAnswers empty;
        empty.add(0, 0, {});
        empty.add(0, 1, {});
        empty.add(1, 0, {});
        TagFit f = fit(method, empty, {}, 3);
        assert_int_equal(f.T, 3);
        for (double v : f.p) assert_true(v < 0.05);
        // A tag nobody ticked (tag 2 of 3), one worker.
        TagAnswers solo;
        solo.add(0, 0, {0});
        solo.add(1, 0, {1});
        solo.add(2, 0, {0, 1});
        f = fit(method, solo, {}, 3);
        for (std::size_t j = 0; j < 3; ++j) assert_true(f.p[j * 3 + 2] < 0.05);
        // Items without answers (items = 4).
        f = fit(method, crowdkit_example(), {{"items", "4"}});
        assert_true(f.notes & CS_NOTE_UNLABELED_ITEMS);
        // Repeated tags within an answer count once.
        TagAnswers repeat;
        repeat.add(0, 0, {1, 1, 1});
        repeat.add(0, 1, {1});
        repeat.add(1, 0, {0});
        f = fit(method, repeat);
        assert_true(f.member[0 * 2 + 1] == 1);
    }
}

void test_errors(void **) {
    cs_model *m = cs_create();
    TagAnswers a = crowdkit_example();
    assert_int_equal(cs_fit_tags(m, a.item.data(), a.worker.data(), nullptr, a.tag.data(), a.size(), 0),
                     CS_ERR_NULL_POINTER);
    assert_int_equal(cs_fit_tags(m, a.item.data(), a.worker.data(), a.start.data(), a.tag.data(), 0, 0),
                     CS_ERR_EMPTY_INPUT);
    assert_int_equal(cs_fit_tags(m, a.item.data(), a.worker.data(), a.start.data(), a.tag.data(), a.size(), 5),
                     CS_ERR_INVALID_LABEL);
    assert_non_null(std::strstr(cs_last_error(m), "tag 5"));
    assert_int_equal(cs_fit_tags(m, a.item.data(), a.worker.data(), a.start.data(), a.tag.data(), a.size(), -1),
                     CS_ERR_INVALID_ARGUMENT);
    TagAnswers bad = a;
    bad.start[2] = 1;  // decreasing
    assert_int_equal(cs_fit_tags(m, bad.item.data(), bad.worker.data(), bad.start.data(), bad.tag.data(), bad.size(), 0),
                     CS_ERR_INVALID_ARGUMENT);
    TagAnswers none;
    none.add(0, 0, {});
    assert_int_equal(cs_fit_tags(m, none.item.data(), none.worker.data(), none.start.data(), none.tag.data(), 1, 0),
                     CS_ERR_EMPTY_INPUT);
    TagAnswers dup = a;
    dup.add(0, 1, {5});
    assert_int_equal(cs_fit_tags(m, dup.item.data(), dup.worker.data(), dup.start.data(), dup.tag.data(), dup.size(), 0),
                     CS_ERR_DUPLICATE);
    // Methods that take neither tags nor crowds.
    cs_set_param_string(m, "method", "gaussian");
    assert_int_equal(cs_fit_tags(m, a.item.data(), a.worker.data(), a.start.data(), a.tag.data(), a.size(), 0),
                     CS_ERR_WRONG_INPUT_KIND);
    cs_set_param_string(m, "method", "lloyd");
    assert_int_equal(cs_fit_tags(m, a.item.data(), a.worker.data(), a.start.data(), a.tag.data(), a.size(), 0),
                     CS_ERR_WRONG_INPUT_KIND);
    // tag-pooled does not take crowd labels.
    cs_set_param_string(m, "method", "tag-pooled");
    const int32_t item[2] = {0, 1}, worker[2] = {0, 0}, label[2] = {0, 1};
    assert_int_equal(cs_fit(m, item, worker, label, 2), CS_ERR_WRONG_INPUT_KIND);
    double v[4];
    assert_int_equal(cs_number_estimates(m, v, v, 4), CS_ERR_NOT_FITTED);
    assert_int_equal(cs_method_input(CS_METHOD_TAG_POOLED), CS_INPUT_TAGS);
    assert_int_equal(cs_method_input(CS_METHOD_CATD), CS_INPUT_NUMBERS);
    cs_destroy(m);
}

void test_determinism(void **) {
    cs::sim::TagsSpec spec;
    spec.n_items = 30000;  // 150,000 answers: above the one-thread limit
    spec.n_tags = 4;
    spec.seed = 23;
    const TagAnswers a = answers_of(cs::sim::simulate_tags(spec));
    for (const char *method : {"tag-pooled", "ds", "mv"}) {
        const TagFit one = fit(method, a, {{"threads", "1"}});
        const TagFit two = fit(method, a, {{"threads", "2"}});
        const TagFit eight = fit(method, a, {{"threads", "8"}});
        assert_memory_equal(one.p.data(), two.p.data(), one.p.size() * sizeof(double));
        assert_memory_equal(one.p.data(), eight.p.data(), one.p.size() * sizeof(double));
        assert_memory_equal(one.sens.data(), eight.sens.data(), one.sens.size() * sizeof(double));
    }
    // Reversed answer order.
    TagAnswers r;
    for (std::size_t t = a.size(); t-- > 0;)
        r.add(a.item[t], a.worker[t], std::vector<int32_t>(a.tag.begin() + a.start[t], a.tag.begin() + a.start[t + 1]));
    r.n_tags = a.n_tags;
    const TagFit f = fit("tag-pooled", a), g = fit("tag-pooled", r);
    assert_memory_equal(f.p.data(), g.p.data(), f.p.size() * sizeof(double));
}

}  // namespace

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_crowdkit_example), cmocka_unit_test(test_thresholds),
        cmocka_unit_test(test_simulated_recovery), cmocka_unit_test(test_degenerate),
        cmocka_unit_test(test_errors),           cmocka_unit_test(test_determinism),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
