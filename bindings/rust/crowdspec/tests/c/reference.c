/* SPDX-License-Identifier: MIT */
/* The C side of tests/c_api.rs: fits triples through the C API alone and prints every
 * result with 17 significant digits, so that the Rust bindings' results can be compared
 * with the library's own.
 *
 * usage: reference TRIPLES OUT METHOD [NAME VALUE]...
 *   TRIPLES  lines "item worker label" (0-based)
 *   OUT      receives "n_items n_workers k trace_len iterations converged notes loglik",
 *            then one value per line: labels, posteriors, confusion, prior, trace. */
#include <crowdspec/crowdspec.h>
#include <stdio.h>
#include <stdlib.h>

static int fail(cs_model *m, const char *what, cs_status s) {
    fprintf(stderr, "reference: %s: %s: %s\n", what, cs_status_string(s), cs_last_error(m));
    cs_destroy(m);
    return 1;
}

static void *grow(void *p, size_t n) {
    void *q = realloc(p, n ? n : 1);
    if (!q) { fprintf(stderr, "reference: out of memory\n"); exit(1); }
    return q;
}

int main(int argc, char **argv) {
    if (argc < 4 || argc % 2 != 0) {
        fprintf(stderr, "usage: reference TRIPLES OUT METHOD [NAME VALUE]...\n");
        return 2;
    }
    FILE *in = fopen(argv[1], "r");
    if (!in) { perror(argv[1]); return 2; }
    size_t n = 0, cap = 0;
    int32_t *item = NULL, *worker = NULL, *label = NULL;
    long a, b, c;
    while (fscanf(in, "%ld %ld %ld", &a, &b, &c) == 3) {
        if (n == cap) {
            cap = cap ? 2 * cap : 1024;
            item = grow(item, cap * sizeof *item);
            worker = grow(worker, cap * sizeof *worker);
            label = grow(label, cap * sizeof *label);
        }
        item[n] = (int32_t)a; worker[n] = (int32_t)b; label[n] = (int32_t)c; n++;
    }
    fclose(in);

    cs_model *m = cs_create();
    if (!m) { fprintf(stderr, "reference: cs_create failed\n"); return 1; }
    cs_status s = cs_set_param_string(m, "method", argv[3]);
    if (s != CS_OK) return fail(m, "method", s);
    for (int i = 4; i + 1 < argc; i += 2)
        if ((s = cs_set_param_string(m, argv[i], argv[i + 1])) != CS_OK) return fail(m, argv[i], s);
    if ((s = cs_fit(m, item, worker, label, n)) != CS_OK) return fail(m, "cs_fit", s);

    size_t ni, nw, k, nt;
    int32_t iters, conv, notes;
    double ll;
    if ((s = cs_n_items(m, &ni)) || (s = cs_n_workers(m, &nw)) || (s = cs_n_classes(m, &k)) ||
        (s = cs_trace_length(m, &nt)) || (s = cs_iterations(m, &iters)) ||
        (s = cs_converged(m, &conv)) || (s = cs_fit_notes(m, &notes)) ||
        (s = cs_log_likelihood(m, &ll)))
        return fail(m, "sizes", s);
    int32_t *labels = grow(NULL, ni * sizeof *labels);
    double *post = grow(NULL, ni * k * sizeof *post);
    double *conf = grow(NULL, nw * k * k * sizeof *conf);
    double *prior = grow(NULL, k * sizeof *prior);
    double *trace = grow(NULL, nt * sizeof *trace);
    if ((s = cs_labels(m, labels, ni)) || (s = cs_posteriors(m, post, ni * k)) ||
        (s = cs_confusion(m, conf, nw * k * k)) || (s = cs_class_prior(m, prior, k)) ||
        (s = cs_trace(m, trace, nt)))
        return fail(m, "results", s);

    FILE *out = fopen(argv[2], "w");
    if (!out) { perror(argv[2]); return 2; }
    fprintf(out, "%zu %zu %zu %zu %d %d %d %.17g\n", ni, nw, k, nt, (int)iters, (int)conv,
            (int)notes, ll);
    for (size_t j = 0; j < ni; j++) fprintf(out, "%d\n", (int)labels[j]);
    for (size_t j = 0; j < ni * k; j++) fprintf(out, "%.17g\n", post[j]);
    for (size_t j = 0; j < nw * k * k; j++) fprintf(out, "%.17g\n", conf[j]);
    for (size_t j = 0; j < k; j++) fprintf(out, "%.17g\n", prior[j]);
    for (size_t j = 0; j < nt; j++) fprintf(out, "%.17g\n", trace[j]);
    if (fclose(out) != 0) { perror(argv[2]); return 2; }
    cs_destroy(m);
    free(item); free(worker); free(label);
    free(labels); free(post); free(conf); free(prior); free(trace);
    return 0;
}
