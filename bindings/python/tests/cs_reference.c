/* SPDX-License-Identifier: MIT */
/* The C side of test_c_api.py: fit triples read from a file through the C API and
 * print every result at full precision.
 * usage: cs_reference TRIPLES OUT METHOD [NAME VALUE]...   TRIPLES: "item worker label" lines */
#include <crowdspec/crowdspec.h>
#include <stdio.h>
#include <stdlib.h>

static int fail(cs_model *m, const char *what, cs_status s) {
    fprintf(stderr, "%s: %s: %s\n", what, cs_status_string(s), cs_last_error(m));
    cs_destroy(m);
    return 1;
}

int main(int argc, char **argv) {
    if (argc < 4 || argc % 2) { fprintf(stderr, "usage\n"); return 2; }
    FILE *in = fopen(argv[1], "r");
    if (!in) return 2;
    size_t n = 0, cap = 1024;
    int32_t *it = malloc(cap * 4), *wk = malloc(cap * 4), *lb = malloc(cap * 4);
    int a, b, c;
    while (fscanf(in, "%d %d %d", &a, &b, &c) == 3) {
        if (n == cap) {
            cap *= 2;
            it = realloc(it, cap * 4); wk = realloc(wk, cap * 4); lb = realloc(lb, cap * 4);
        }
        it[n] = a; wk[n] = b; lb[n] = c; n++;
    }
    fclose(in);
    cs_model *m = cs_create();
    cs_status s = cs_set_param_string(m, "method", argv[3]);
    if (s) return fail(m, "method", s);
    for (int i = 4; i + 1 < argc; i += 2)
        if ((s = cs_set_param_string(m, argv[i], argv[i + 1]))) return fail(m, argv[i], s);
    if ((s = cs_fit(m, it, wk, lb, n))) return fail(m, "cs_fit", s);
    size_t ni, nw, k, nt;
    cs_n_items(m, &ni); cs_n_workers(m, &nw); cs_n_classes(m, &k); cs_trace_length(m, &nt);
    int32_t *labels = malloc(ni * 4);
    double *post = malloc(ni * k * 8), *conf = malloc(nw * k * k * 8), *prior = malloc(k * 8);
    double *trace = malloc((nt + 1) * 8);
    cs_labels(m, labels, ni); cs_posteriors(m, post, ni * k);
    cs_confusion(m, conf, nw * k * k); cs_class_prior(m, prior, k); cs_trace(m, trace, nt);
    int32_t iters, conv;
    double ll;
    cs_iterations(m, &iters); cs_converged(m, &conv); cs_log_likelihood(m, &ll);
    FILE *out = fopen(argv[2], "w");
    fprintf(out, "%zu %zu %zu %zu %d %d %.17g\n", ni, nw, k, nt, iters, conv, ll);
    for (size_t j = 0; j < ni; j++) fprintf(out, "%d\n", labels[j]);
    for (size_t j = 0; j < ni * k; j++) fprintf(out, "%.17g\n", post[j]);
    for (size_t j = 0; j < nw * k * k; j++) fprintf(out, "%.17g\n", conf[j]);
    for (size_t j = 0; j < k; j++) fprintf(out, "%.17g\n", prior[j]);
    for (size_t j = 0; j < nt; j++) fprintf(out, "%.17g\n", trace[j]);
    fclose(out);
    cs_destroy(m);
    free(it); free(wk); free(lb); free(labels); free(post); free(conf); free(prior); free(trace);
    return 0;
}
