/* SPDX-License-Identifier: MIT */
/* cs_fit_csr: labels grouped by item as packed codes worker * k + label.
 *
 * - hand-computed majority votes (the tiny set of cs_test.h, and duplicates under each
 *   policy);
 * - the same fit as cs_fit on the triples listed item by item, bit for bit (ds, opt-ds,
 *   glad, on the k = 3 set and on a 20,000-label pseudo-random crowd given to cs_fit in
 *   a scrambled order);
 * - the caller's codes are only read: a read-only page works, with and without
 *   dropped duplicates;
 * - every invalid input is a status with a message naming it. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, sysconf */
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cs_test.h"

/* cs_tiny (4 items x 3 workers, k = 2) as CSR. */
static const int64_t tiny_start[5] = {0, 3, 6, 9, 12};
static const uint32_t tiny_code[12] = {0 * 2 + 0, 1 * 2 + 0, 2 * 2 + 1, 0 * 2 + 1, 1 * 2 + 1, 2 * 2 + 1,
                                       0 * 2 + 0, 1 * 2 + 0, 2 * 2 + 0, 0 * 2 + 1, 1 * 2 + 0, 2 * 2 + 1};

static void majority_vote_by_hand(void **state) {
    cs_model *m = (cs_model *)*state;
    int32_t labels[4];
    double post[8];
    const double expected[8] = {2.0 / 3, 1.0 / 3, 0, 1, 1, 0, 1.0 / 3, 2.0 / 3};
    size_t n = 0, j;
    CS_ASSERT_OK(cs_set_param_string(m, "method", "mv"));
    CS_ASSERT_OK(cs_fit_csr(m, 4, tiny_start, tiny_code, 2));
    CS_ASSERT_OK(cs_n_items(m, &n));
    assert_int_equal(n, 4);
    CS_ASSERT_OK(cs_n_workers(m, &n));
    assert_int_equal(n, 3);
    CS_ASSERT_OK(cs_labels(m, labels, 4));
    assert_int_equal(labels[0], 0);
    assert_int_equal(labels[1], 1);
    assert_int_equal(labels[2], 0);
    assert_int_equal(labels[3], 1);
    CS_ASSERT_OK(cs_posteriors(m, post, 8));
    for (j = 0; j < 8; ++j) assert_true(fabs(post[j] - expected[j]) < 1e-15);
}

/* Expands CSR codes into triples, item by item. */
static void to_triples(size_t n_items, const int64_t *start, const uint32_t *code, int32_t k, int32_t *item,
                       int32_t *worker, int32_t *label) {
    size_t j;
    int64_t p;
    for (j = 0; j < n_items; ++j)
        for (p = start[j]; p < start[j + 1]; ++p) {
            item[p] = (int32_t)j;
            worker[p] = (int32_t)(code[p] / (uint32_t)k);
            label[p] = (int32_t)(code[p] % (uint32_t)k);
        }
}

/* Fits both ways with `method` and requires bit-identical labels, posteriors,
 * confusion matrices and log-likelihood. The triples go to cs_fit in the order given
 * by `order` (NULL: item by item); cs_fit sorts them stably by item. */
static void same_as_cs_fit(const char *method, size_t n_items, const int64_t *start, const uint32_t *code,
                           int32_t k, const int32_t *item, const int32_t *worker, const int32_t *label,
                           size_t n_labels) {
    cs_model *a = cs_new_model(method), *b = cs_new_model(method);
    size_t items_a = 0, items_b = 0, workers = 0;
    double ll_a = 0, ll_b = 1;
    double *pa, *pb, *ca, *cb;
    int32_t *la, *lb;
    CS_ASSERT_OK(cs_set_int(a, CS_PARAM_SEED, 7));
    CS_ASSERT_OK(cs_set_int(b, CS_PARAM_SEED, 7));
    CS_ASSERT_OK(cs_fit(a, item, worker, label, n_labels));
    CS_ASSERT_OK(cs_fit_csr(b, n_items, start, code, k));
    CS_ASSERT_OK(cs_n_items(a, &items_a));
    CS_ASSERT_OK(cs_n_items(b, &items_b));
    assert_int_equal(items_a, items_b);
    CS_ASSERT_OK(cs_n_workers(a, &workers));
    pa = malloc(items_a * (size_t)k * sizeof *pa);
    pb = malloc(items_a * (size_t)k * sizeof *pb);
    ca = malloc(workers * (size_t)(k * k) * sizeof *ca);
    cb = malloc(workers * (size_t)(k * k) * sizeof *cb);
    la = malloc(items_a * sizeof *la);
    lb = malloc(items_a * sizeof *lb);
    CS_ASSERT_OK(cs_posteriors(a, pa, items_a * (size_t)k));
    CS_ASSERT_OK(cs_posteriors(b, pb, items_a * (size_t)k));
    CS_ASSERT_OK(cs_confusion(a, ca, workers * (size_t)(k * k)));
    CS_ASSERT_OK(cs_confusion(b, cb, workers * (size_t)(k * k)));
    CS_ASSERT_OK(cs_labels(a, la, items_a));
    CS_ASSERT_OK(cs_labels(b, lb, items_a));
    CS_ASSERT_OK(cs_log_likelihood(a, &ll_a));
    CS_ASSERT_OK(cs_log_likelihood(b, &ll_b));
    assert_memory_equal(la, lb, items_a * sizeof *la);
    assert_memory_equal(pa, pb, items_a * (size_t)k * sizeof *pa);
    assert_memory_equal(ca, cb, workers * (size_t)(k * k) * sizeof *ca);
    assert_memory_equal(&ll_a, &ll_b, sizeof ll_a);
    free(pa), free(pb), free(ca), free(cb), free(la), free(lb);
    cs_destroy(a);
    cs_destroy(b);
}

static void k3_same_as_cs_fit(void **state) {
    /* cs_k3 is listed item by item already. */
    int64_t start[7] = {0, 3, 6, 9, 12, 15, 18};
    uint32_t code[18];
    size_t t;
    (void)state;
    for (t = 0; t < 18; ++t) code[t] = (uint32_t)(cs_k3_worker[t] * 3 + cs_k3_label[t]);
    same_as_cs_fit("ds", 6, start, code, 3, cs_k3_item, cs_k3_worker, cs_k3_label, 18);
    same_as_cs_fit("opt-ds", 6, start, code, 3, cs_k3_item, cs_k3_worker, cs_k3_label, 18);
}

/* A pseudo-random crowd: 2,000 items, 60 workers, k = 3, 10 labels per item (distinct
 * workers), workers right with probability 0.6-0.9. Given to cs_fit in a scrambled
 * order: the library's stable sort by item must recover the CSR order. */
static uint64_t lcg(uint64_t *s) {
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s >> 33;
}

static void random_crowd_same_as_cs_fit(void **state) {
    enum { N = 2000, M = 60, K = 3, R = 10, L = N * R };
    int64_t *start = malloc((N + 1) * sizeof *start);
    uint32_t *code = malloc(L * sizeof *code);
    int32_t *item = malloc(L * sizeof *item), *worker = malloc(L * sizeof *worker), *label = malloc(L * sizeof *label);
    int32_t *si = malloc(L * sizeof *si), *sw = malloc(L * sizeof *sw), *sl = malloc(L * sizeof *sl);
    size_t *perm = malloc(L * sizeof *perm);
    uint64_t s = 12345;
    size_t j, t;
    (void)state;
    start[0] = 0;
    for (j = 0; j < N; ++j) {
        const int32_t truth = (int32_t)(lcg(&s) % K);
        int32_t used[R];
        int r, q;
        for (r = 0; r < R; ++r) {
            int32_t w;
            int fresh;
            do { /* distinct workers per item */
                w = (int32_t)(lcg(&s) % M);
                fresh = 1;
                for (q = 0; q < r; ++q) fresh &= used[q] != w;
            } while (!fresh);
            used[r] = w;
            {
                const double accuracy = 0.6 + 0.3 * (double)w / M;
                const double u = (double)lcg(&s) / 2147483648.0;
                const int32_t l = u < accuracy ? truth : (int32_t)((truth + 1 + lcg(&s) % (K - 1)) % K);
                code[j * R + (size_t)r] = (uint32_t)(w * K + l);
            }
        }
        start[j + 1] = (int64_t)((j + 1) * R);
    }
    to_triples(N, start, code, K, item, worker, label);
    /* Scramble by a random permutation that keeps each item's labels in order: deal
     * the items' labels out in interleaved runs (a merge of the rows). */
    {
        size_t *next = malloc(N * sizeof *next), out = 0;
        for (j = 0; j < N; ++j) next[j] = (size_t)start[j];
        while (out < L) {
            j = (size_t)(lcg(&s) % N);
            while (next[j] == (size_t)start[j + 1]) j = (j + 1) % N;
            perm[out++] = next[j]++;
        }
        free(next);
    }
    for (t = 0; t < L; ++t) {
        si[t] = item[perm[t]];
        sw[t] = worker[perm[t]];
        sl[t] = label[perm[t]];
    }
    same_as_cs_fit("ds", N, start, code, K, si, sw, sl, L);
    same_as_cs_fit("opt-ds", N, start, code, K, si, sw, sl, L);
    same_as_cs_fit("glad", N, start, code, K, si, sw, sl, L);
    free(start), free(code), free(item), free(worker), free(label), free(si), free(sw), free(sl), free(perm);
}

/* Item 0: worker 0 says 0, worker 1 says 0, then worker 0 again says 1. */
static const int64_t dup_start[3] = {0, 3, 5};
static const uint32_t dup_code[5] = {0 * 2 + 0, 1 * 2 + 0, 0 * 2 + 1, 0 * 2 + 1, 1 * 2 + 1};

static void duplicates_by_policy(void **state) {
    cs_model *m = (cs_model *)*state;
    double post[4];
    CS_ASSERT_OK(cs_set_param_string(m, "method", "mv"));
    CS_ASSERT_FAIL(m, cs_fit_csr(m, 2, dup_start, dup_code, 2), CS_ERR_DUPLICATE, "worker 0", "item 0",
                   "positions 0 and 2");
    CS_ASSERT_OK(cs_set_param_string(m, "duplicates", "first"));
    CS_ASSERT_OK(cs_fit_csr(m, 2, dup_start, dup_code, 2));
    CS_ASSERT_OK(cs_posteriors(m, post, 4));
    assert_true(post[0] == 1.0 && post[1] == 0.0); /* votes 0, 0 */
    assert_true(post[2] == 0.0 && post[3] == 1.0);
    CS_ASSERT_OK(cs_set_param_string(m, "duplicates", "last"));
    CS_ASSERT_OK(cs_fit_csr(m, 2, dup_start, dup_code, 2));
    CS_ASSERT_OK(cs_posteriors(m, post, 4));
    assert_true(post[0] == 0.5 && post[1] == 0.5); /* votes 0 (worker 1), 1 (worker 0) */
}

/* The codes on a read-only page: the library must never write them, also when it drops
 * duplicates (it then works on its own copy). */
static void codes_are_only_read(void **state) {
    cs_model *m = (cs_model *)*state;
    const long page = sysconf(_SC_PAGESIZE);
    uint32_t *ro = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    int32_t labels[4];
    assert_true(ro != MAP_FAILED);
    memcpy(ro, dup_code, sizeof dup_code);
    memcpy(ro + 8, tiny_code, sizeof tiny_code);
    assert_int_equal(mprotect(ro, (size_t)page, PROT_READ), 0);
    CS_ASSERT_OK(cs_set_param_string(m, "method", "ds"));
    CS_ASSERT_OK(cs_set_param_string(m, "duplicates", "last")); /* drops one: a private copy */
    CS_ASSERT_OK(cs_fit_csr(m, 2, dup_start, ro, 2));
    CS_ASSERT_OK(cs_labels(m, labels, 2));
    CS_ASSERT_OK(cs_set_param_string(m, "method", "mv"));
    CS_ASSERT_OK(cs_fit_csr(m, 4, tiny_start, ro + 8, 2)); /* used in place */
    CS_ASSERT_OK(cs_labels(m, labels, 4));
    assert_int_equal(labels[0], 0);
    assert_int_equal(labels[3], 1);
    assert_memory_equal(ro, dup_code, sizeof dup_code);
    assert_memory_equal(ro + 8, tiny_code, sizeof tiny_code);
    munmap(ro, (size_t)page);
}

static void declared_counts(void **state) {
    cs_model *m = (cs_model *)*state;
    size_t n = 0;
    double post[6 * 2];
    CS_ASSERT_OK(cs_set_param_string(m, "method", "mv"));
    /* Six items declared, four rows: items 4 and 5 have no labels (prior posterior). */
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_ITEMS, 6));
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_WORKERS, 5));
    CS_ASSERT_OK(cs_fit_csr(m, 4, tiny_start, tiny_code, 2));
    CS_ASSERT_OK(cs_n_items(m, &n));
    assert_int_equal(n, 6);
    CS_ASSERT_OK(cs_n_workers(m, &n));
    assert_int_equal(n, 5);
    CS_ASSERT_OK(cs_posteriors(m, post, 12));
    assert_true(post[2] == 0.0 && post[3] == 1.0);
    /* Fewer items declared than rows. */
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_ITEMS, 3));
    CS_ASSERT_FAIL(m, cs_fit_csr(m, 4, tiny_start, tiny_code, 2), CS_ERR_INVALID_ID, "n_items = 4", "items");
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_ITEMS, 0));
    /* A worker beyond the declared count: code 5 = worker 2, label 1, at position 2. */
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_WORKERS, 2));
    CS_ASSERT_FAIL(m, cs_fit_csr(m, 4, tiny_start, tiny_code, 2), CS_ERR_INVALID_ID, "worker id 2", "code 5",
                   "position 2", "n_workers (2)");
}

static void invalid_arguments(void **state) {
    cs_model *m = (cs_model *)*state;
    const int64_t not_zero[3] = {1, 2, 3}, decreasing[4] = {0, 3, 2, 5}, empty[3] = {0, 0, 0};
    const uint32_t code[5] = {0, 2, 4, 1, 3};
    CS_ASSERT_STATUS(cs_fit_csr(NULL, 4, tiny_start, tiny_code, 2), CS_ERR_NULL_HANDLE);
    CS_ASSERT_FAIL(m, cs_fit_csr(m, 4, NULL, tiny_code, 2), CS_ERR_NULL_POINTER, "item_start");
    CS_ASSERT_FAIL(m, cs_fit_csr(m, 4, tiny_start, NULL, 2), CS_ERR_NULL_POINTER, "code");
    CS_ASSERT_FAIL(m, cs_fit_csr(m, 0, tiny_start, tiny_code, 2), CS_ERR_EMPTY_INPUT, "n_items = 0");
    CS_ASSERT_FAIL(m, cs_fit_csr(m, 2, empty, code, 2), CS_ERR_EMPTY_INPUT, "no labels");
    CS_ASSERT_FAIL(m, cs_fit_csr(m, 2, not_zero, code, 2), CS_ERR_INVALID_ARGUMENT, "item_start[0] = 1");
    CS_ASSERT_FAIL(m, cs_fit_csr(m, 3, decreasing, code, 2), CS_ERR_INVALID_ARGUMENT, "item_start[2] = 2",
                   "item_start[1] = 3");
    CS_ASSERT_FAIL(m, cs_fit_csr(m, 4, tiny_start, tiny_code, 1), CS_ERR_TOO_FEW_CLASSES, "k = 1");
    CS_ASSERT_FAIL(m, cs_fit_csr(m, 4, tiny_start, tiny_code, CS_MAX_CROWD_CLASSES + 1), CS_ERR_TOO_MANY_CLASSES,
                   "k = 10001");
    /* n_workers x k = 2^31 x 2 >= 2^32: code 2^32 - 1 is worker 2^31 - 1 with k = 2. */
    {
        const int64_t one[2] = {0, 1};
        const uint32_t big[1] = {UINT32_MAX};
        CS_ASSERT_FAIL(m, cs_fit_csr(m, 1, one, big, 2), CS_ERR_TOO_LARGE, "n_workers x k = 2147483648 x 2",
                       "2^32");
    }
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_CLASSES, 3));
    CS_ASSERT_FAIL(m, cs_fit_csr(m, 4, tiny_start, tiny_code, 2), CS_ERR_INVALID_ARGUMENT, "k = 2",
                   "'classes' parameter is 3");
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_CLASSES, 2));
    CS_ASSERT_OK(cs_fit_csr(m, 4, tiny_start, tiny_code, 2));
    /* A failed fit leaves no results. */
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_CLASSES, 0));
    CS_ASSERT_STATUS(cs_fit_csr(m, 0, tiny_start, tiny_code, 2), CS_ERR_EMPTY_INPUT);
    {
        size_t n = 0;
        CS_ASSERT_STATUS(cs_n_items(m, &n), CS_ERR_NOT_FITTED);
    }
}

static void gold_applies(void **state) {
    cs_model *m = (cs_model *)*state;
    const int32_t gold_item[1] = {3}, gold_label[1] = {0};
    int32_t labels[4];
    CS_ASSERT_OK(cs_set_param_string(m, "method", "ds"));
    CS_ASSERT_OK(cs_set_gold(m, gold_item, gold_label, 1));
    CS_ASSERT_OK(cs_fit_csr(m, 4, tiny_start, tiny_code, 2));
    CS_ASSERT_OK(cs_labels(m, labels, 4));
    assert_int_equal(labels[3], 0); /* pinned, against its 2-of-3 vote for class 1 */
}

int main(void) {
#define T(f) cmocka_unit_test_setup_teardown(f, cs_setup_model, cs_teardown_model)
    const struct CMUnitTest tests[] = {
        T(majority_vote_by_hand), T(k3_same_as_cs_fit),   T(random_crowd_same_as_cs_fit), T(duplicates_by_policy),
        T(codes_are_only_read),   T(declared_counts),     T(invalid_arguments),           T(gold_applies),
    };
#undef T
    return cmocka_run_group_tests_name("fit_csr", tests, NULL, NULL);
}
