/* SPDX-License-Identifier: MIT */
/* The functions added in 0.2 on cases worked out by hand: the crowd measures
 * (cs_agreement, cs_uncertainty, cs_consistency, cs_accuracy_on_aggregates, with
 * crowd-kit's documented examples among them), cs_intern_strings, cs_intern_integers, and the
 * method-specific estimates of glad and mace (cs_estimate) against the model
 * equations that tie them to cs_confusion(). */
#include <stdlib.h>

#include "cs_test.h"

static const double kNan = NAN;

/* crowd-kit's alpha_krippendorff examples: X {Yes, Yes}, Y {No, No} gives 1; adding
 * Z {Yes, No} gives 4/9: o = [[2, 1], [1, 2]], n = 6, D_o = 2/6, D_e = (36 - 18) / 30. */
static void agreement_crowdkit_examples(void **state) {
    cs_model *m = (cs_model *)*state;
    const int32_t item[6] = {0, 0, 1, 1, 2, 2}, label[6] = {1, 1, 0, 0, 1, 0};
    double alpha = kNan, o[4];
    CS_ASSERT_OK(cs_agreement(m, item, label, 4, &alpha, NULL, 0));
    assert_true(alpha == 1.0);
    CS_ASSERT_OK(cs_agreement(m, item, label, 6, &alpha, o, 4));
    assert_true(fabs(alpha - 4.0 / 9.0) < 1e-15);
    assert_true(o[0] == 2.0 && o[1] == 1.0 && o[2] == 1.0 && o[3] == 2.0);
    CS_ASSERT_FAIL(m, cs_agreement(m, item, label, 6, &alpha, o, 3), CS_ERR_BUFFER_TOO_SMALL, "coincidence");
    /* One value everywhere: 1 (NLTK's rule); no item with two labels: undefined. */
    const int32_t same[4] = {1, 1, 1, 1};
    CS_ASSERT_OK(cs_agreement(m, item, same, 4, &alpha, NULL, 0));
    assert_true(alpha == 1.0);
    const int32_t singles[2] = {0, 1}, two[2] = {0, 1};
    CS_ASSERT_OK(cs_agreement(m, singles, two, 2, &alpha, NULL, 0));
    assert_true(isnan(alpha));
    const int32_t bad[2] = {0, -1};
    CS_ASSERT_FAIL(m, cs_agreement(m, item, bad, 2, &alpha, NULL, 0), CS_ERR_INVALID_LABEL, "label -1", "index 1");
    CS_ASSERT_FAIL(m, cs_agreement(m, item, label, 0, &alpha, NULL, 0), CS_ERR_EMPTY_INPUT, "no labels");
}

/* crowd-kit's uncertainty examples (skills 1): {Yes, Yes} -> 0, {Yes, No, Maybe} ->
 * log 3; by task X {Yes, No} -> log 2, Y {Yes, Yes} -> 0; by worker A {Yes, Yes} -> 0,
 * B {No, Yes} -> log 2. */
static void uncertainty_crowdkit_examples(void **state) {
    cs_model *m = (cs_model *)*state;
    const int32_t item3[3] = {0, 0, 0}, worker3[3] = {0, 1, 2}, label3[3] = {2, 0, 1};
    double v[3];
    CS_ASSERT_OK(cs_uncertainty(m, item3, worker3, label3, 3, NULL, 0, CS_BY_ITEM, v, 1));
    assert_true(fabs(v[0] - log(3.0)) < 1e-15);
    const int32_t item[4] = {0, 0, 1, 1}, worker[4] = {0, 1, 0, 1}, label[4] = {1, 0, 1, 1};
    const double ones[2] = {1.0, 1.0};
    CS_ASSERT_OK(cs_uncertainty(m, item, worker, label, 4, ones, 2, CS_BY_ITEM, v, 2));
    assert_true(fabs(v[0] - log(2.0)) < 1e-15 && v[1] == 0.0);
    CS_ASSERT_OK(cs_uncertainty(m, item, worker, label, 4, ones, 2, CS_BY_WORKER, v, 2));
    assert_true(v[0] == 0.0 && fabs(v[1] - log(2.0)) < 1e-15);
    CS_ASSERT_FAIL(m, cs_uncertainty(m, item, worker, label, 4, ones, 2, 2, v, 2), CS_ERR_INVALID_ARGUMENT, "by");
    const double bad[2] = {1.0, 1.5};
    CS_ASSERT_FAIL(m, cs_uncertainty(m, item, worker, label, 4, bad, 2, CS_BY_ITEM, v, 2), CS_ERR_INVALID_ARGUMENT,
                   "worker 1", "[0, 1]");
    CS_ASSERT_FAIL(m, cs_uncertainty(m, item, worker, label, 4, ones, 1, CS_BY_ITEM, v, 2), CS_ERR_INVALID_ARGUMENT,
                   "n_skills");
}

/* Skills weigh the labels: K = 3 classes given (item 1 has class 2). Item 0: worker 0
 * (skill 0.8) says 0, worker 1 (skill 0.5) says 1. Weights: class 0: 0.8 + 0.5/2 =
 * 1.05, class 1: 0.5 + 0.2/2 = 0.6, class 2 (absent): 0.2/2 + 0.5/2 = 0.35; they sum to
 * the 2 labels. Item 2 has no label: NaN. */
static void uncertainty_weighted(void **state) {
    cs_model *m = (cs_model *)*state;
    const int32_t item[3] = {0, 0, 1}, worker[3] = {0, 1, 1}, label[3] = {0, 1, 2};
    const int32_t item_gap[3] = {0, 0, 2};
    const double skill[2] = {0.8, 0.5};
    double v[3];
    CS_ASSERT_OK(cs_uncertainty(m, item, worker, label, 3, skill, 2, CS_BY_ITEM, v, 2));
    const double p[3] = {1.05 / 2, 0.6 / 2, 0.35 / 2};
    const double h = -(p[0] * log(p[0]) + p[1] * log(p[1]) + p[2] * log(p[2]));
    assert_true(fabs(v[0] - h) < 1e-14);
    /* Item 1: one label, class 2 by skill 0.5: weights (0.25, 0.25, 0.5), H = 1.5 log 2. */
    assert_true(fabs(v[1] - 1.5 * log(2.0)) < 1e-15);
    CS_ASSERT_OK(cs_uncertainty(m, item_gap, worker, label, 3, skill, 2, CS_BY_ITEM, v, 3));
    assert_true(isnan(v[1]));
}

/* Consistency, K = 2: item 0 has worker 0 (skill 0.9) saying 0 and worker 1 (skill 0.6)
 * saying 1: P(0) = 0.9 x 0.4 = 0.36, P(1) = 0.1 x 0.6 = 0.06, so 6/7 for aggregate 0
 * and 1/7 for aggregate 1. Item 1: two workers of skill 1 disagree: every P is 0, the
 * value is 0 (crowd-kit's rule). */
static void consistency_hand(void **state) {
    cs_model *m = (cs_model *)*state;
    const int32_t item[4] = {0, 0, 1, 1}, worker[4] = {0, 1, 2, 3}, label[4] = {0, 1, 0, 1};
    const double skill[4] = {0.9, 0.6, 1.0, 1.0};
    const int32_t agg0[2] = {0, 0}, agg1[2] = {1, -1};
    double v[2];
    CS_ASSERT_OK(cs_consistency(m, item, worker, label, 4, skill, 4, agg0, 2, v, 2));
    assert_true(fabs(v[0] - 6.0 / 7.0) < 1e-15 && v[1] == 0.0);
    CS_ASSERT_OK(cs_consistency(m, item, worker, label, 4, skill, 4, agg1, 2, v, 2));
    assert_true(fabs(v[0] - 1.0 / 7.0) < 1e-15 && isnan(v[1]));
    const int32_t agg_bad[2] = {2, 0};
    CS_ASSERT_FAIL(m, cs_consistency(m, item, worker, label, 4, skill, 4, agg_bad, 2, v, 2), CS_ERR_INVALID_LABEL,
                   "item 0");
    CS_ASSERT_FAIL(m, cs_consistency(m, item, worker, label, 4, NULL, 0, agg0, 2, v, 2), CS_ERR_NULL_POINTER, "skill");
    /* K = 3: item 0's one label, 0 by skill 0.9, has P = (0.9, 0.05, 0.05) over the
     * three classes (the sum is 1): 0.05 for the aggregate 2 that none of its labels
     * has, 0.9 for 0. Item 1: skill-1 workers say 1 and 2: every P is 0 -> 0. */
    const int32_t item3[3] = {0, 1, 1}, worker3[3] = {0, 2, 3}, label3[3] = {0, 1, 2};
    const int32_t agg2[2] = {2, 1}, agg0_only[2] = {0, -1};
    CS_ASSERT_OK(cs_consistency(m, item3, worker3, label3, 3, skill, 4, agg2, 2, v, 2));
    assert_true(fabs(v[0] - 0.05) < 1e-15 && v[1] == 0.0);
    CS_ASSERT_OK(cs_consistency(m, item3, worker3, label3, 3, skill, 4, agg0_only, 2, v, 2));
    assert_true(fabs(v[0] - 0.9) < 1e-15 && isnan(v[1]));
}

/* Long items: 2000 labels of skill 0.7, all class 0, against 1 of class 1 by skill
 * 0.7. The plain product underflows (0.7^2000 ~ 1e-310 is subnormal; with 0.3 factors
 * 0); in log space the value is 1 / (1 + (0.3/0.7)^1999), i.e. 1.0 in double. */
static void consistency_no_underflow(void **state) {
    cs_model *m = (cs_model *)*state;
    enum { N = 2001 };
    static int32_t item[N], worker[N], label[N];
    static double skill[N];
    for (int t = 0; t < N; ++t) {
        item[t] = 0;
        worker[t] = t;
        label[t] = t == N - 1 ? 1 : 0;
        skill[t] = 0.7;
    }
    const int32_t agg[1] = {0};
    double v = kNan;
    CS_ASSERT_OK(cs_consistency(m, item, worker, label, N, skill, N, agg, 1, &v, 1));
    assert_true(v == 1.0);
}

/* Accuracy on aggregates: aggregates (0, 1, none); worker 0 labels 0, 1, 1 (2 of 2 right,
 * the third item has no aggregate), worker 1 labels 1, 1 (1 of 2), worker 2 only item 2
 * (NaN). Overall 3 / 4. */
static void accuracy_hand(void **state) {
    cs_model *m = (cs_model *)*state;
    const int32_t item[6] = {0, 1, 2, 0, 1, 2}, worker[6] = {0, 0, 0, 1, 1, 2}, label[6] = {0, 1, 1, 1, 1, 0};
    const int32_t agg[3] = {0, 1, -1};
    double v[3], overall = kNan;
    CS_ASSERT_OK(cs_accuracy_on_aggregates(m, item, worker, label, 6, agg, 3, v, 3, &overall));
    assert_true(v[0] == 1.0 && v[1] == 0.5 && isnan(v[2]) && overall == 0.75);
    CS_ASSERT_OK(cs_accuracy_on_aggregates(m, item, worker, label, 6, agg, 3, NULL, 0, &overall));
    assert_true(overall == 0.75);
    CS_ASSERT_FAIL(m, cs_accuracy_on_aggregates(m, item, worker, label, 6, agg, 2, v, 3, &overall),
                   CS_ERR_INVALID_ARGUMENT, "n_aggregate");
}

/* cs_intern_strings: "b", "a", "b", "c" -> sorted codes 1 0 1 2 (first 1 0 3), in order
 * of appearance 0 1 0 2 (first 0 1 3); both input layouts. */
static void intern_small(void **state) {
    cs_model *m = (cs_model *)*state;
    const char joined[] = "b\0a\0b\0c";
    const int64_t offsets[5] = {0, 1, 2, 3, 4};
    int32_t codes[6];
    int64_t first[6];
    size_t d = 0;
    CS_ASSERT_OK(cs_intern_strings(m, joined, 7, NULL, 4, 1, codes, first, &d));
    assert_int_equal(d, 3);
    assert_true(codes[0] == 1 && codes[1] == 0 && codes[2] == 1 && codes[3] == 2);
    assert_true(first[0] == 1 && first[1] == 0 && first[2] == 3);
    CS_ASSERT_OK(cs_intern_strings(m, "babc", 4, offsets, 4, 0, codes, first, &d));
    assert_int_equal(d, 3);
    assert_true(codes[0] == 0 && codes[1] == 1 && codes[2] == 0 && codes[3] == 2);
    assert_true(first[0] == 0 && first[1] == 1 && first[2] == 3);
    /* Byte order = code point order: "z" < "é" (C3 A9) < "\xF0\x9F\x98\x80"; a prefix
     * first; a string with a NUL byte through offsets; the empty string first. */
    const char text[] = "\xc3\xa9" "z" "za" "a\0b" "" "\xf0\x9f\x98\x80";
    const int64_t off[7] = {0, 2, 3, 5, 8, 8, 12};
    CS_ASSERT_OK(cs_intern_strings(m, text, 12, off, 6, 1, codes, first, &d));
    assert_int_equal(d, 6);
    /* strings: é z za a\0b "" emoji -> order "" a\0b z za é emoji */
    int32_t expect[6] = {4, 2, 3, 1, 0, 5};
    for (int t = 0; t < 6; ++t) assert_int_equal(codes[t], expect[t]);
    CS_ASSERT_FAIL(m, cs_intern_strings(m, joined, 7, NULL, 3, 1, codes, first, &d), CS_ERR_INVALID_ARGUMENT,
                   "NUL");
    CS_ASSERT_FAIL(m, cs_intern_strings(m, joined, 7, NULL, 5, 1, codes, first, &d), CS_ERR_INVALID_ARGUMENT,
                   "fewer");
    const int64_t backwards[3] = {0, 2, 1};
    CS_ASSERT_FAIL(m, cs_intern_strings(m, "abc", 3, backwards, 2, 1, codes, first, &d), CS_ERR_INVALID_ARGUMENT,
                   "string 1");
    CS_ASSERT_FAIL(m, cs_intern_strings(m, "abc", 3, offsets, 0, 1, codes, first, &d), CS_ERR_EMPTY_INPUT, "no strings");
    /* One empty string is n = 1 with an empty text. */
    CS_ASSERT_OK(cs_intern_strings(m, NULL, 0, NULL, 1, 1, codes, first, &d));
    assert_true(d == 1 && codes[0] == 0 && first[0] == 0);
}

/* The sort compares the first 16 bytes as two integers, then the strings: ids that
 * share 16 bytes and differ after them, a string and the same with NUL bytes after it
 * (equal 16-byte keys), bytes above 0x7f (unsigned), lengths 7 to 17. Strings, in
 * input order: 0 "task00000000000002" 1 "task00000000000001" 2 "ab" 3 "ab\0" 4 "ab\0\0"
 * 5 "\xff" 6 "\x7f" 7 "task00000000000001x" 8 "task0000" 9 "ab" -> byte order:
 * ab (2, 9), ab\0 (3), ab\0\0 (4), task0000 (8), ...01 (1), ...01x (7), ...02 (0),
 * \x7f (6), \xff (5). */
static void intern_long_prefixes(void **state) {
    cs_model *m = (cs_model *)*state;
    const char text[] = "task00000000000002" "task00000000000001" "ab" "ab\0" "ab\0\0" "\xff" "\x7f"
                        "task00000000000001x" "task0000" "ab";
    const int64_t off[11] = {0, 18, 36, 38, 41, 45, 46, 47, 66, 74, 76};
    int32_t codes[10];
    int64_t first[10];
    size_t d = 0;
    CS_ASSERT_OK(cs_intern_strings(m, text, 76, off, 10, 1, codes, first, &d));
    assert_int_equal(d, 9);
    const int32_t expect[10] = {6, 4, 0, 1, 2, 8, 7, 5, 3, 0};
    for (int t = 0; t < 10; ++t) assert_int_equal(codes[t], expect[t]);
    const int64_t expect_first[9] = {2, 3, 4, 8, 1, 7, 0, 6, 5};
    for (int c = 0; c < 9; ++c) assert_int_equal(first[c], expect_first[c]);
}

static int compare_strings(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Many strings (the table grows several times): 200,000 draws of "id<r>" with r among
 * 30,000 values; the codes must be the ranks of the strings under strcmp, and each
 * first[c] must name a string of code c that none before it has. */
static void intern_many(void **state) {
    cs_model *m = (cs_model *)*state;
    enum { N = 200000, R = 30000 };
    char *text = malloc((size_t)N * 12);
    int64_t *off = malloc(sizeof(int64_t) * (N + 1));
    int32_t *codes = malloc(sizeof(int32_t) * N);
    int64_t *first = malloc(sizeof(int64_t) * N);
    char **names = malloc(sizeof(char *) * R);
    char(*storage)[12] = malloc((size_t)R * 12);
    assert_true(text && off && codes && first && names && storage);
    size_t used = 0;
    unsigned x = 12345u;
    int32_t *draw = malloc(sizeof(int32_t) * N);
    assert_non_null(draw);
    for (int t = 0; t < N; ++t) {
        x = x * 1103515245u + 12345u;
        draw[t] = (int32_t)((x >> 8) % R);
        off[t] = (int64_t)used;
        used += (size_t)sprintf(text + used, "id%d", draw[t]);
    }
    off[N] = (int64_t)used;
    size_t d = 0;
    CS_ASSERT_OK(cs_intern_strings(m, text, used, off, N, 1, codes, first, &d));
    /* Expected ranks: sort the distinct drawn names. */
    int32_t *present = calloc(R, sizeof(int32_t));
    assert_non_null(present);
    for (int t = 0; t < N; ++t) present[draw[t]] = 1;
    size_t distinct = 0;
    for (int r = 0; r < R; ++r)
        if (present[r]) {
            sprintf(storage[distinct], "id%d", r);
            names[distinct] = storage[distinct];
            ++distinct;
        }
    assert_int_equal(d, distinct);
    qsort(names, distinct, sizeof(char *), compare_strings);
    for (int t = 0; t < N; ++t) {
        char buf[12];
        sprintf(buf, "id%d", draw[t]);
        assert_string_equal(names[codes[t]], buf);
    }
    for (size_t c = 0; c < d; ++c) {
        const int64_t f = first[c];
        assert_int_equal(codes[f], (int32_t)c);
        for (int64_t t = 0; t < f; ++t) assert_true(codes[t] != (int32_t)c);
        if (c > 200) break; /* the quadratic check on a prefix of the codes is enough */
    }
    free(present);
    free(draw);
    free(storage);
    free(names);
    free(first);
    free(codes);
    free(off);
    free(text);
}

/* cs_intern_integers by hand: keys 5 -3 5 9 -3 2^40 INT64_MIN INT64_MAX. In order of
 * appearance: 0 1 0 2 1 3 4 5 (first 0 1 3 5 6 7); sorted (INT64_MIN < -3 < 5 < 9 < 2^40 <
 * INT64_MAX): 2 1 2 3 1 4 0 5 (first 6 1 0 3 5 7). The span of these keys overflows int64:
 * they are ranked by sorting. */
static void intern_integers_small(void **state) {
    cs_model *m = (cs_model *)*state;
    const int64_t keys[8] = {5, -3, 5, 9, -3, (int64_t)1 << 40, INT64_MIN, INT64_MAX};
    int32_t codes[8];
    int64_t first[8];
    size_t d = 0;
    CS_ASSERT_OK(cs_intern_integers(m, keys, 8, 0, codes, first, &d));
    assert_int_equal(d, 6);
    const int32_t seen[8] = {0, 1, 0, 2, 1, 3, 4, 5}, ranked[8] = {2, 1, 2, 3, 1, 4, 0, 5};
    const int64_t seen_first[6] = {0, 1, 3, 5, 6, 7}, ranked_first[6] = {6, 1, 0, 3, 5, 7};
    for (int t = 0; t < 8; ++t) assert_int_equal(codes[t], seen[t]);
    for (int c = 0; c < 6; ++c) assert_int_equal(first[c], seen_first[c]);
    CS_ASSERT_OK(cs_intern_integers(m, keys, 8, 1, codes, first, &d));
    assert_int_equal(d, 6);
    for (int t = 0; t < 8; ++t) assert_int_equal(codes[t], ranked[t]);
    for (int c = 0; c < 6; ++c) assert_int_equal(first[c], ranked_first[c]);
    /* Keys of a small span (ranked through a table by value): 7 4 7 6 -> 2 0 2 1. */
    const int64_t near[4] = {7, 4, 7, 6};
    CS_ASSERT_OK(cs_intern_integers(m, near, 4, 1, codes, first, &d));
    assert_true(d == 3 && codes[0] == 2 && codes[1] == 0 && codes[2] == 2 && codes[3] == 1);
    assert_true(first[0] == 1 && first[1] == 3 && first[2] == 0);
    CS_ASSERT_FAIL(m, cs_intern_integers(m, keys, 0, 1, codes, first, &d), CS_ERR_EMPTY_INPUT, "no keys");
    CS_ASSERT_FAIL(m, cs_intern_integers(m, NULL, 8, 1, codes, first, &d), CS_ERR_NULL_POINTER, "keys");
    CS_ASSERT_FAIL(m, cs_intern_integers(m, keys, 8, 1, codes, NULL, &d), CS_ERR_NULL_POINTER, "first");
}

static int compare_int64(const void *a, const void *b) {
    const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The codes of n keys against a reference computed here: the sorted distinct keys (qsort)
 * and a binary search per row give each row's rank (sorted codes); walking the rows and
 * numbering ranks as they first appear gives the codes in order of appearance. first[c]
 * must be the first row of code c. */
static void check_interned_integers(cs_model *m, const int64_t *keys, size_t n) {
    int64_t *distinct = malloc(sizeof(int64_t) * n);
    int32_t *rank = malloc(sizeof(int32_t) * n), *seen = malloc(sizeof(int32_t) * n);
    int32_t *codes = malloc(sizeof(int32_t) * n);
    int64_t *first = malloc(sizeof(int64_t) * n);
    assert_true(distinct && rank && seen && codes && first);
    memcpy(distinct, keys, sizeof(int64_t) * n);
    qsort(distinct, n, sizeof(int64_t), compare_int64);
    size_t d = 0;
    for (size_t t = 0; t < n; ++t)
        if (t == 0 || distinct[t] != distinct[d - 1]) distinct[d++] = distinct[t];
    for (size_t t = 0; t < n; ++t) {
        const int64_t *at = bsearch(&keys[t], distinct, d, sizeof(int64_t), compare_int64);
        rank[t] = (int32_t)(at - distinct);
    }
    int32_t *order = malloc(sizeof(int32_t) * d), next = 0;
    assert_non_null(order);
    for (size_t r = 0; r < d; ++r) order[r] = -1;
    for (size_t t = 0; t < n; ++t) {
        if (order[rank[t]] < 0) order[rank[t]] = next++;
        seen[t] = order[rank[t]];
    }
    for (int sorted = 0; sorted <= 1; ++sorted) {
        size_t got = 0;
        CS_ASSERT_OK(cs_intern_integers(m, keys, n, sorted, codes, first, &got));
        assert_int_equal(got, d);
        const int32_t *want = sorted ? rank : seen;
        for (size_t t = 0; t < n; ++t)
            if (codes[t] != want[t]) fail_msg("sorted %d: row %zu has code %d, not %d", sorted, t, codes[t], want[t]);
        for (size_t c = 0; c < d; ++c) {
            const int64_t f = first[c];
            assert_true(f >= 0 && (size_t)f < n && codes[f] == (int32_t)c);
            assert_true(f == 0 || codes[f - 1] != (int32_t)c || keys[f - 1] != keys[f]);
        }
        /* each first row is the earliest: the codes' first rows, ordered by code in
         * order of appearance, rise */
        if (!sorted)
            for (size_t c = 1; c < d; ++c) assert_true(first[c] > first[c - 1]);
    }
    free(order);
    free(first);
    free(codes);
    free(seen);
    free(rank);
    free(distinct);
}

/* Many keys, in the shapes a binding hands over: object addresses (multiples of 64)
 * grouped in runs of 1-19 rows with a run now and then out of address order (coded run
 * by run, the table reserved at once); 400,000 draws over 60,000 addresses (row by row,
 * the table growing beyond the cache, ranked by sorting); 0/1 labels in short runs and
 * ids 0-999 drawn at random (row by row in a small table, ranked through a table by
 * value). */
static void intern_integers_many(void **state) {
    cs_model *m = (cs_model *)*state;
    enum { N = 400000 };
    int64_t *keys = malloc(sizeof(int64_t) * N);
    assert_non_null(keys);
    unsigned x = 2024u;
#define NEXT() (x = x * 1103515245u + 12345u, (x >> 8))
    const int64_t base = (int64_t)0x7f3a00000000;
    size_t t = 0;
    for (int64_t run = 0; t < N; ++run) {
        const int64_t object = NEXT() % 50 == 0 ? run - (int64_t)(NEXT() % 100) : run; /* some behind */
        for (unsigned len = 1 + NEXT() % 19; len > 0 && t < N; --len) keys[t++] = base + 64 * (object < 0 ? 0 : object);
    }
    check_interned_integers(m, keys, N);
    for (t = 0; t < N; ++t) keys[t] = base + 64 * (int64_t)(NEXT() % 60000);
    check_interned_integers(m, keys, N);
    for (t = 0; t < N; ++t) keys[t] = (t / 3 + (NEXT() & 1)) & 1;
    check_interned_integers(m, keys, N);
    for (t = 0; t < N; ++t) keys[t] = (int64_t)(NEXT() % 1000) - 500;
    check_interned_integers(m, keys, N);
#undef NEXT
    free(keys);
}

static double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

/* glad: cs_confusion's diagonal is each worker's mean of sigma(alpha_i beta_j) over its
 * items (glad.cpp): the estimates must reproduce it. */
static void glad_estimates(void **state) {
    (void)state;
    cs_model *m = cs_new_model("glad");
    cs_fit_or_fail(m, &cs_k3);
    size_t rows = 0, cols = 0;
    CS_ASSERT_OK(cs_estimate(m, "ability", NULL, 0, &rows, &cols));
    assert_true(rows == 4 && cols == 1);
    double alpha[4], beta[6], confusion[4 * 9];
    CS_ASSERT_OK(cs_estimate(m, "ability", alpha, 4, NULL, NULL));
    CS_ASSERT_OK(cs_estimate(m, "inverse_difficulty", beta, 6, &rows, &cols));
    assert_true(rows == 6 && cols == 1);
    CS_ASSERT_OK(cs_confusion(m, confusion, 36));
    for (int i = 0; i < 4; ++i) {
        double sum = 0.0;
        int count = 0;
        for (int t = 0; t < 18; ++t)
            if (cs_k3_worker[t] == i) {
                sum += sigmoid(alpha[i] * beta[cs_k3_item[t]]);
                ++count;
            }
        assert_true(fabs(confusion[i * 9] - sum / count) < 1e-12);
    }
    for (int j = 0; j < 6; ++j) assert_true(beta[j] > 0.0);
    CS_ASSERT_FAIL(m, cs_estimate(m, "ability", alpha, 3, NULL, NULL), CS_ERR_BUFFER_TOO_SMALL, "values");
    CS_ASSERT_FAIL(m, cs_estimate(m, "skill", alpha, 4, NULL, NULL), CS_ERR_INVALID_ARGUMENT, "\"ability\"",
                   "\"inverse_difficulty\"");
    cs_destroy(m);
}

/* mace: cs_confusion is theta_i I + (1 - theta_i) 1 xi_i^T, entry by entry. */
static void mace_estimates(void **state) {
    (void)state;
    cs_model *m = cs_new_model("mace");
    cs_fit_or_fail(m, &cs_k3);
    double theta[4], xi[12], confusion[36];
    size_t rows = 0, cols = 0;
    CS_ASSERT_OK(cs_estimate(m, "competence", theta, 4, &rows, &cols));
    assert_true(rows == 4 && cols == 1);
    CS_ASSERT_OK(cs_estimate(m, "strategy", xi, 12, &rows, &cols));
    assert_true(rows == 4 && cols == 3);
    CS_ASSERT_OK(cs_confusion(m, confusion, 36));
    for (int i = 0; i < 4; ++i) {
        assert_true(theta[i] > 0.0 && theta[i] < 1.0);
        assert_true(fabs(xi[i * 3] + xi[i * 3 + 1] + xi[i * 3 + 2] - 1.0) < 1e-12);
        for (int l = 0; l < 3; ++l)
            for (int c = 0; c < 3; ++c)
                assert_true(fabs(confusion[i * 9 + l * 3 + c] - ((1.0 - theta[i]) * xi[i * 3 + c] + (l == c ? theta[i] : 0.0))) <
                            1e-12);
    }
    cs_destroy(m);
    m = cs_new_model("ds");
    CS_ASSERT_FAIL(m, cs_estimate(m, "competence", theta, 4, NULL, NULL), CS_ERR_NOT_FITTED, "no fit");
    cs_fit_or_fail(m, &cs_k3);
    CS_ASSERT_FAIL(m, cs_estimate(m, "competence", theta, 4, NULL, NULL), CS_ERR_INVALID_ARGUMENT, "has none");
    CS_ASSERT_FAIL(m, cs_estimate(m, NULL, theta, 4, NULL, NULL), CS_ERR_NULL_POINTER, "name");
    cs_destroy(m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(agreement_crowdkit_examples, cs_setup_model, cs_teardown_model),
        cmocka_unit_test_setup_teardown(uncertainty_crowdkit_examples, cs_setup_model, cs_teardown_model),
        cmocka_unit_test_setup_teardown(uncertainty_weighted, cs_setup_model, cs_teardown_model),
        cmocka_unit_test_setup_teardown(consistency_hand, cs_setup_model, cs_teardown_model),
        cmocka_unit_test_setup_teardown(consistency_no_underflow, cs_setup_model, cs_teardown_model),
        cmocka_unit_test_setup_teardown(accuracy_hand, cs_setup_model, cs_teardown_model),
        cmocka_unit_test_setup_teardown(intern_small, cs_setup_model, cs_teardown_model),
        cmocka_unit_test_setup_teardown(intern_many, cs_setup_model, cs_teardown_model),
        cmocka_unit_test_setup_teardown(intern_long_prefixes, cs_setup_model, cs_teardown_model),
        cmocka_unit_test_setup_teardown(intern_integers_small, cs_setup_model, cs_teardown_model),
        cmocka_unit_test_setup_teardown(intern_integers_many, cs_setup_model, cs_teardown_model),
        cmocka_unit_test(glad_estimates),
        cmocka_unit_test(mace_estimates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
