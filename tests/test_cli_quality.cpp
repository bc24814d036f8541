// SPDX-License-Identifier: MIT
// The crowd-quality numbers of `crowdspec report` (tools/report/quality.cpp) on cases worked
// out by hand: Krippendorff's alpha (nominal) and per-class agreement, the worker
// review tags, the order of items to relabel.
#include <cmath>
#include <string>
#include <vector>

#include "report/quality.hpp"
#include "support/cmocka_cpp.hpp"

namespace {

using cli::Agreement;
using cli::nominal_agreement;

// Labels as (item, class) pairs.
struct Pairs {
    std::vector<int32_t> item, label;
    void add(int32_t j, std::initializer_list<int32_t> classes) {
        for (int32_t c : classes) {
            item.push_back(j);
            label.push_back(c);
        }
    }
};

// Classes a = 0, b = 1, c = 2. Items: {a,a,b} {a,b} {b,b,b} {c,c} {a,c} {b}.
// Coincidences o[c][d] = sum over items of n_c n_d / (m - 1) (n_c (n_c - 1) / (m - 1) on
// the diagonal), items with m >= 2 only:
//   {a,a,b}, m = 3: o_aa += 2*1/2 = 1, o_ab = o_ba += 2*1/2 = 1
//   {a,b},   m = 2: o_ab = o_ba += 1
//   {b,b,b}, m = 3: o_bb += 3*2/2 = 3
//   {c,c},   m = 2: o_cc += 2*1/1 = 2
//   {a,c},   m = 2: o_ac = o_ca += 1
//   {b},     m = 1: no pair, left out
// o = [[1, 2, 1], [2, 3, 0], [1, 0, 2]]; n_a = 4, n_b = 5, n_c = 3, n = 12 (= 3+2+3+2+2).
// D_o = (2+1+2+0+1+0) / 12 = 1/2; D_e = (n^2 - sum n_c^2) / (n (n-1)) = (144 - 50) / 132
// = 47/66; alpha = 1 - (1/2) / (47/66) = 1 - 33/47 = 14/47 = 0.297872...
// Per class o_cc / n_c: a 1/4, b 3/5, c 2/3.
void hand_case(void **) {
    Pairs p;
    p.add(0, {0, 0, 1});
    p.add(1, {0, 1});
    p.add(2, {1, 1, 1});
    p.add(3, {2, 2});
    p.add(4, {0, 2});
    p.add(5, {1});
    const Agreement a = nominal_agreement(p.item, p.label, 6, 3);
    const double o[9] = {1, 2, 1, 2, 3, 0, 1, 0, 2};
    for (int e = 0; e < 9; ++e) assert_near(a.coincidence[e], o[e], 1e-12);
    assert_near(a.values[0], 4.0, 1e-12);
    assert_near(a.values[1], 5.0, 1e-12);
    assert_near(a.values[2], 3.0, 1e-12);
    assert_near(a.pairable, 12.0, 1e-12);
    assert_int_equal(a.units, 5);
    assert_near(a.observed, 0.5, 1e-12);
    assert_near(a.expected, 47.0 / 66.0, 1e-12);
    assert_near(a.alpha, 14.0 / 47.0, 1e-12);
    assert_near(a.class_agreement[0], 0.25, 1e-12);
    assert_near(a.class_agreement[1], 0.6, 1e-12);
    assert_near(a.class_agreement[2], 2.0 / 3.0, 1e-12);
}

// The nominal example of Krippendorff, "Computing Krippendorff's Alpha-Reliability"
// (2011): 4 observers, 12 units, values 1..5, '.' = missing:
//   A: 1 2 3 3 2 1 4 1 2 . . .      C: . 3 3 3 2 3 4 2 2 5 1 .
//   B: 1 2 3 3 2 2 4 1 2 5 . 3      D: 1 2 3 3 2 4 4 1 2 5 1 .
// The paper gives alpha = 0.743 (n = 40 pairable values; unit 12 has one value). The
// exact value is 113/152 = 0.7434210526 (checked with exact fractions, enumerating the
// ordered pairs of each unit, independently of this code).
void krippendorff_2011_example(void **) {
    const int A[12] = {1, 2, 3, 3, 2, 1, 4, 1, 2, 0, 0, 0};
    const int B[12] = {1, 2, 3, 3, 2, 2, 4, 1, 2, 5, 0, 3};
    const int C[12] = {0, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, 0};
    const int D[12] = {1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, 0};
    Pairs p;
    for (int u = 0; u < 12; ++u)
        for (const int *coder : {A, B, C, D})
            if (coder[u] != 0) p.add(u, {coder[u] - 1});
    const Agreement a = nominal_agreement(p.item, p.label, 12, 5);
    assert_near(a.pairable, 40.0, 1e-12);
    assert_int_equal(a.units, 11);
    assert_near(a.alpha, 113.0 / 152.0, 1e-12);
    assert_near(std::round(a.alpha * 1000.0) / 1000.0, 0.743, 1e-12);
}

// Perfect agreement is 1; one class everywhere (D_e = 0) is 1 too, NLTK's rule that
// crowd-kit's alpha_krippendorff follows (every label agrees); no item with two labels
// (n = 0) leaves alpha undefined (NaN), never a division by zero.
void edge_cases(void **) {
    Pairs perfect;
    perfect.add(0, {0, 0});
    perfect.add(1, {1, 1, 1});
    assert_near(nominal_agreement(perfect.item, perfect.label, 2, 2).alpha, 1.0, 1e-15);
    Pairs one_class;
    one_class.add(0, {1, 1});
    one_class.add(1, {1, 1});
    const Agreement a = nominal_agreement(one_class.item, one_class.label, 2, 3);
    assert_near(a.alpha, 1.0, 0.0);
    assert_near(a.expected, 0.0, 0.0);
    assert_near(a.class_agreement[1], 1.0, 1e-15);
    assert_true(std::isnan(a.class_agreement[0]));  // no label of class 0
    Pairs singles;
    singles.add(0, {0});
    singles.add(1, {1});
    const Agreement s = nominal_agreement(singles.item, singles.label, 2, 2);
    assert_true(std::isnan(s.alpha) && std::isnan(s.observed));
    assert_int_equal(s.units, 0);
    // Complete disagreement on two classes: o_ab = o_ba = 2, n = 4, D_o = 1,
    // D_e = (16 - 8) / 12 = 2/3, alpha = 1 - 3/2 = -1/2.
    Pairs opposite;
    opposite.add(0, {0, 1});
    opposite.add(1, {1, 0});
    assert_near(nominal_agreement(opposite.item, opposite.label, 2, 2).alpha, -0.5, 1e-15);
}

std::vector<std::string> tags_of(const std::vector<std::size_t> &answers, const std::vector<double> &pi,
                                 double accuracy, const std::vector<std::string> &classes) {
    return cli::review_worker(answers, pi.data(), accuracy, classes, cli::ReviewRules()).tags;
}

// The review tags on hand-made confusion matrices (rows: true class).
void review_tags(void **) {
    const std::vector<std::string> two = {"cat", "dog"}, three = {"a", "b", "c"};
    using Tags = std::vector<std::string>;
    // 19 of 20 labels cat, and cat for true dog 0.9 of the time: a near-constant answer.
    // Accuracy (prior 1/2, 1/2) = (1 + 0.1) / 2 = 0.55 > 1/2: not below chance.
    assert_true(tags_of({19, 1}, {1, 0, 0.9, 0.1}, 0.55, two) == Tags{"spammer"});
    // The same answer counts on a set that is mostly cat, but dog items answered dog:
    // not a spammer.
    assert_true(tags_of({19, 1}, {0.98, 0.02, 0.1, 0.9}, 0.976, two).empty());
    // Both classes swapped: dog for true cat 0.8, cat for true dog 0.7; accuracy
    // (0.2 + 0.3) / 2 = 0.25 < 1/2.
    const cli::WorkerReview swapped =
        cli::review_worker({9, 11}, std::vector<double>{0.2, 0.8, 0.7, 0.3}.data(), 0.25, two, cli::ReviewRules());
    assert_true(swapped.tags == (Tags{"below-chance", "adversary"}));
    assert_true(swapped.reason.find("dog for true cat (0.80), cat for true dog (0.70)") != std::string::npos);
    // Always c, whatever the truth: rows a and b both answer c, the same wrong class,
    // so a spammer and not an adversary; accuracy (0.1 + 0.1 + 1) / 3 = 0.4 > 1/3.
    assert_true(tags_of({1, 1, 18}, {0.1, 0.1, 0.8, 0.1, 0.1, 0.8, 0, 0, 1}, 0.4, three) == Tags{"spammer"});
    // A cyclic relabelling a -> b -> c -> a: adversary, and below chance (0.1 < 1/3).
    assert_true(tags_of({10, 10, 10}, {0.1, 0.8, 0.1, 0.1, 0.1, 0.8, 0.8, 0.1, 0.1}, 0.1, three) ==
                (Tags{"below-chance", "adversary"}));
    // One swapped row is a bias, not an adversary.
    assert_true(tags_of({5, 15}, {0.3, 0.7, 0.0, 1.0}, 0.65, two).empty());
    // Fewer labels than min_labels (10): no tag, whatever the numbers.
    assert_true(tags_of({1, 4}, {0.2, 0.8, 0.7, 0.3}, 0.25, two).empty());
    const cli::WorkerReview few =
        cli::review_worker({1, 4}, std::vector<double>{0.2, 0.8, 0.7, 0.3}.data(), 0.25, two, cli::ReviewRules());
    assert_int_equal(few.top_answer, 1);
    assert_near(few.top_share, 0.8, 1e-15);
    // With an accuracy interval (issue 34) the adversary rule is its upper end below
    // 1/k: the swapped worker above with an interval 0.1 .. 0.45 is one; with 0.15 ..
    // 0.55 (few labels: the data cannot rule out guessing) it is not, whatever pi says.
    const double sure[2] = {0.1, 0.45}, unsure[2] = {0.15, 0.55};
    const std::vector<double> swapped_pi = {0.2, 0.8, 0.7, 0.3};
    const cli::WorkerReview bad = cli::review_worker({9, 11}, swapped_pi.data(), 0.25, two, cli::ReviewRules(), sure);
    assert_true(bad.tags == (Tags{"below-chance", "adversary"}));
    assert_true(bad.reason.find("95% interval 0.100 to 0.450, below 1/2") != std::string::npos);
    assert_true(cli::review_worker({9, 11}, swapped_pi.data(), 0.25, two, cli::ReviewRules(), unsure).tags ==
                Tags{"below-chance"});
    // k = 5 (chance 0.2): 30 % right on 15 labels, interval 0.12 .. 0.56: no tag from it.
    const std::vector<std::string> five = {"a", "b", "c", "d", "e"};
    std::vector<double> flat(25, 0.2);
    const double web_like[2] = {0.12, 0.56};
    assert_true(cli::review_worker({3, 3, 3, 3, 3}, flat.data(), 0.3, five, cli::ReviewRules(), web_like).tags.empty());
}

// Lowest confidence first, ties by fewer labels, then item order; gold items left out.
void relabel(void **) {
    const std::vector<double> confidence = {0.9, 0.5, 0.5, 0.7, 0.5};
    const std::vector<std::size_t> labels = {3, 4, 2, 3, 2};
    const std::vector<bool> gold = {false, false, false, false, true};
    assert_true(cli::relabel_order(confidence, labels, gold, 3) == (std::vector<std::size_t>{2, 1, 3}));
    assert_true(cli::relabel_order(confidence, labels, gold, 10) == (std::vector<std::size_t>{2, 1, 3, 0}));
    assert_true(cli::relabel_order(confidence, labels, {}, 2) == (std::vector<std::size_t>{2, 4}));
    // With label-next scores: the highest score first, ties as before (issue 34).
    const std::vector<double> score = {0.3, 0.0, 0.1, 0.1, 0.4};
    assert_true(cli::relabel_order(confidence, labels, gold, 10, score) == (std::vector<std::size_t>{0, 2, 3, 1}));
    assert_true(cli::relabel_order(confidence, labels, {}, 2, score) == (std::vector<std::size_t>{4, 0}));
}

}  // namespace

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hand_case),  cmocka_unit_test(krippendorff_2011_example), cmocka_unit_test(edge_cases),
        cmocka_unit_test(review_tags), cmocka_unit_test(relabel),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
