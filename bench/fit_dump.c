/* SPDX-License-Identifier: MIT */
/* fit_dump: fit one crowd file through the public C API and print everything a fit
 * returns that a kernel change could move: the iteration count, the log-likelihood,
 * then one line per item with its label and posteriors at full precision (%.17g).
 * bench/check_em_change.sh compiles this file against two builds of the library and
 * compares their outputs (labels equal, posteriors within a tolerance).
 *
 * Usage: fit_dump METHOD THREADS FILE [NAME=VALUE ...]
 * FILE: whitespace-separated `item worker label` integer lines (the shared datasets'
 * layout, the output of `crowdspec simulate`); ids and labels are renumbered densely
 * in order of value. NAME=VALUE pairs go to cs_set_param_string. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crowdspec/crowdspec.h"

typedef struct {
    long *v;
    size_t n, cap;
} Longs;

static void push(Longs *a, long x) {
    if (a->n == a->cap) {
        a->cap = a->cap ? 2 * a->cap : 1024;
        a->v = (long *)realloc(a->v, a->cap * sizeof *a->v);
        if (a->v == NULL) {
            fprintf(stderr, "fit_dump: out of memory\n");
            exit(1);
        }
    }
    a->v[a->n++] = x;
}

static int cmp_long(const void *a, const void *b) {
    const long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* Replace every value by its rank among the distinct values; returns their count. */
static size_t renumber(const Longs *a, int32_t *out) {
    long *sorted = (long *)malloc(a->n * sizeof *sorted);
    size_t i, distinct = 0;
    if (sorted == NULL) exit(1);
    memcpy(sorted, a->v, a->n * sizeof *sorted);
    qsort(sorted, a->n, sizeof *sorted, cmp_long);
    for (i = 0; i < a->n; ++i)
        if (i == 0 || sorted[i] != sorted[distinct - 1]) sorted[distinct++] = sorted[i];
    for (i = 0; i < a->n; ++i) {
        const long *hit = (const long *)bsearch(&a->v[i], sorted, distinct, sizeof *sorted, cmp_long);
        out[i] = (int32_t)(hit - sorted);
    }
    free(sorted);
    return distinct;
}

int main(int argc, char **argv) {
    Longs item = {0}, worker = {0}, label = {0};
    long a, b, c;
    FILE *in;
    int32_t *ii, *ww, *ll, *labels, iterations = 0;
    size_t n, n_items, k, j, l;
    double *post, loglik = 0.0;
    cs_model *m;
    int arg;
    if (argc < 4) {
        fprintf(stderr, "usage: fit_dump METHOD THREADS FILE [NAME=VALUE ...]\n");
        return 2;
    }
    in = fopen(argv[3], "r");
    if (in == NULL) {
        perror(argv[3]);
        return 1;
    }
    while (fscanf(in, "%ld %ld %ld", &a, &b, &c) == 3) {
        push(&item, a);
        push(&worker, b);
        push(&label, c);
    }
    fclose(in);
    n = item.n;
    ii = (int32_t *)malloc(n * sizeof *ii);
    ww = (int32_t *)malloc(n * sizeof *ww);
    ll = (int32_t *)malloc(n * sizeof *ll);
    if (n == 0 || ii == NULL || ww == NULL || ll == NULL) return 1;
    n_items = renumber(&item, ii);
    renumber(&worker, ww);
    renumber(&label, ll);

    m = cs_create();
    if (m == NULL || cs_set_param_string(m, "method", argv[1]) != CS_OK ||
        cs_set_int(m, CS_PARAM_THREADS, atoi(argv[2])) != CS_OK) {
        fprintf(stderr, "fit_dump: %s\n", m ? cs_last_error(m) : "no model");
        return 1;
    }
    for (arg = 4; arg < argc; ++arg) {
        char name[64];
        const char *eq = strchr(argv[arg], '=');
        if (eq == NULL || (size_t)(eq - argv[arg]) >= sizeof name) return 2;
        memcpy(name, argv[arg], (size_t)(eq - argv[arg]));
        name[eq - argv[arg]] = '\0';
        if (cs_set_param_string(m, name, eq + 1) != CS_OK) {
            fprintf(stderr, "fit_dump: %s\n", cs_last_error(m));
            return 1;
        }
    }
    if (cs_fit(m, ii, ww, ll, n) != CS_OK || cs_n_classes(m, &k) != CS_OK) {
        fprintf(stderr, "fit_dump: %s\n", cs_last_error(m));
        return 1;
    }
    labels = (int32_t *)malloc(n_items * sizeof *labels);
    post = (double *)malloc(n_items * k * sizeof *post);
    if (labels == NULL || post == NULL) return 1;
    cs_labels(m, labels, n_items);
    cs_posteriors(m, post, n_items * k);
    cs_iterations(m, &iterations);
    cs_log_likelihood(m, &loglik);
    printf("iterations %d\nloglik %.17g\n", (int)iterations, loglik);
    for (j = 0; j < n_items; ++j) {
        printf("%d", (int)labels[j]);
        for (l = 0; l < k; ++l) printf(" %.17g", post[j * k + l]);
        printf("\n");
    }
    cs_destroy(m);
    free(ii);
    free(ww);
    free(ll);
    free(labels);
    free(post);
    free(item.v);
    free(worker.v);
    free(label.v);
    return 0;
}
