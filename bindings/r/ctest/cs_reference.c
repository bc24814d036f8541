/* SPDX-License-Identifier: MIT */
/*
 * The C API's side of the R package's agreement tests: read a problem from a text
 * file, fit it through the C API alone, and print every result at full precision
 * (%.17g, which reads back to the same double).
 *
 * usage: cs_reference MODE INPUT OUTPUT METHOD [NAME VALUE]...
 *   MODE crowd:  INPUT has "item worker label" lines, 0-based integers
 *   MODE points: INPUT has "n d", then n rows of d numbers
 *   MODE graph:  INPUT has "n_nodes", then "u v" lines, 0-based node ids
 *   MODE predict: INPUT as for crowd, a batch given to cs_predict instead of cs_fit
 *                (METHOD is then ignored; the matrices come from initial_confusion)
 * Lines starting with '#' are comments. NAME VALUE pairs go to cs_set_param_string,
 * except "gold FILE", a file of "item label" lines given to cs_set_gold, and
 * "initial_confusion FILE" / "initial_prior FILE", files of numbers given to
 * cs_set_initial_confusion / cs_set_initial_prior, and "model_probs FILE", a file of k
 * and then rows "item p_0 .. p_{k-1}" given to cs_set_model_probs.
 *
 * OUTPUT: the line "n_items n_workers k trace_length iterations converged notes
 * log_likelihood", then one value per line: labels (n_items), posteriors (n_items x k
 * row-major), confusion (n_workers x k x k), prior (k), trace, then for points the
 * centres (k x d) and for graphs the two densities (within, between), and when the fit
 * estimated one the classifier's confusion matrix (k x k, cs_model_confusion).
 * Exit status: 0 on success, 1 when a call fails (its status and message on stderr),
 * 2 for a usage or input error.
 */
#include <crowdspec/crowdspec.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    double *v;
    size_t n, cap;
} dvec;

static int push(dvec *a, double x) {
    if (a->n == a->cap) {
        size_t cap = a->cap ? 2 * a->cap : 1024;
        double *v = realloc(a->v, cap * sizeof *v);
        if (!v) return 0;
        a->v = v;
        a->cap = cap;
    }
    a->v[a->n++] = x;
    return 1;
}

/* Every number of a file, comment lines skipped. */
static int read_numbers(const char *path, dvec *out) {
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "cs_reference: cannot open %s\n", path);
        return 0;
    }
    char line[4096];
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') continue;
        char *p = line, *end;
        for (;;) {
            double x = strtod(p, &end);
            if (end == p) break;
            if (!push(out, x)) {
                fclose(f);
                return 0;
            }
            p = end;
        }
    }
    fclose(f);
    return 1;
}

static int32_t *column(const dvec *a, size_t stride, size_t offset, size_t rows) {
    int32_t *c = malloc((rows ? rows : 1) * sizeof *c);
    if (!c) return NULL;
    for (size_t i = 0; i < rows; ++i) c[i] = (int32_t)a->v[i * stride + offset];
    return c;
}

static int fail(cs_model *m, const char *what, cs_status s) {
    fprintf(stderr, "%s: %s: %s\n", what, cs_status_string(s), cs_last_error(m));
    cs_destroy(m);
    return 1;
}

static void print_all(FILE *out, const double *v, size_t n) {
    for (size_t i = 0; i < n; ++i) fprintf(out, "%.17g\n", v[i]);
}

int main(int argc, char **argv) {
    if (argc < 5 || argc % 2 == 0) {
        fprintf(stderr, "usage: cs_reference crowd|points|graph|predict INPUT OUTPUT METHOD "
                        "[NAME VALUE]...\n");
        return 2;
    }
    const char *mode = argv[1];
    dvec in = {0};
    if (!read_numbers(argv[2], &in)) return 2;
    cs_model *m = cs_create();
    if (!m) return 1;
    int rc = 0;
    cs_status s = cs_set_param_string(m, "method", argv[4]);
    if (s) return fail(m, "method", s);
    for (int i = 5; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "gold") == 0) {
            dvec g = {0};
            if (!read_numbers(argv[i + 1], &g) || g.n % 2) return 2;
            int32_t *gi = column(&g, 2, 0, g.n / 2), *gl = column(&g, 2, 1, g.n / 2);
            s = cs_set_gold(m, gi, gl, g.n / 2);
            free(gi);
            free(gl);
            free(g.v);
        } else if (strcmp(argv[i], "initial_confusion") == 0 ||
                   strcmp(argv[i], "initial_prior") == 0) {
            dvec x = {0};
            if (!read_numbers(argv[i + 1], &x)) return 2;
            s = strcmp(argv[i], "initial_prior") == 0 ? cs_set_initial_prior(m, x.v, x.n)
                                                      : cs_set_initial_confusion(m, x.v, x.n);
            free(x.v);
        } else if (strcmp(argv[i], "model_probs") == 0) {
            dvec x = {0};
            if (!read_numbers(argv[i + 1], &x) || x.n < 1) return 2;
            const size_t mk = (size_t)x.v[0], rows = mk ? (x.n - 1) / (mk + 1) : 0;
            if (mk < 1 || (x.n - 1) % (mk + 1)) return 2;
            int32_t *items = column(&x, mk + 1, 1, rows);
            double *probs = malloc((rows * mk + 1) * sizeof *probs);
            if (!items || !probs) return 1;
            for (size_t r = 0; r < rows; ++r)
                for (size_t c = 0; c < mk; ++c) probs[r * mk + c] = x.v[1 + r * (mk + 1) + 1 + c];
            s = cs_set_model_probs(m, items, probs, rows, (int32_t)mk);
            free(items);
            free(probs);
            free(x.v);
        } else {
            s = cs_set_param_string(m, argv[i], argv[i + 1]);
        }
        if (s) return fail(m, argv[i], s);
    }
    size_t d = 0;
    if (strcmp(mode, "crowd") == 0 || strcmp(mode, "predict") == 0) {
        if (in.n % 3) return 2;
        size_t n = in.n / 3;
        int32_t *it = column(&in, 3, 0, n), *wk = column(&in, 3, 1, n), *lb = column(&in, 3, 2, n);
        s = strcmp(mode, "crowd") == 0 ? cs_fit(m, it, wk, lb, n) : cs_predict(m, it, wk, lb, n);
        free(it);
        free(wk);
        free(lb);
    } else if (strcmp(mode, "points") == 0) {
        if (in.n < 2) return 2;
        size_t n = (size_t)in.v[0];
        d = (size_t)in.v[1];
        if (in.n != 2 + n * d) return 2;
        s = cs_fit_points(m, in.v + 2, n, d, d);
    } else if (strcmp(mode, "graph") == 0) {
        if (in.n < 1 || (in.n - 1) % 2) return 2;
        size_t e = (in.n - 1) / 2;
        dvec edges = {in.v + 1, in.n - 1, in.n - 1};
        int32_t *u = column(&edges, 2, 0, e), *v = column(&edges, 2, 1, e);
        s = cs_fit_graph(m, (size_t)in.v[0], u, v, e);
        free(u);
        free(v);
    } else {
        return 2;
    }
    free(in.v);
    if (s) return fail(m, "fit", s);

    size_t ni, nw, k, nt;
    int32_t iters, conv, notes;
    double ll;
    if ((s = cs_n_items(m, &ni)) || (s = cs_n_workers(m, &nw)) || (s = cs_n_classes(m, &k)) ||
        (s = cs_trace_length(m, &nt)) || (s = cs_iterations(m, &iters)) ||
        (s = cs_converged(m, &conv)) || (s = cs_fit_notes(m, &notes)) ||
        (s = cs_log_likelihood(m, &ll)))
        return fail(m, "results", s);
    int32_t *labels = malloc((ni + 1) * sizeof *labels);
    double *post = malloc((ni * k + 1) * sizeof *post);
    double *conf = malloc((nw * k * k + 1) * sizeof *conf);
    double *prior = malloc((k + 1) * sizeof *prior);
    double *trace = malloc((nt + 1) * sizeof *trace);
    double *centres = malloc((k * d + 1) * sizeof *centres);
    double dens[2] = {0, 0};
    double *model_conf = malloc((k * k + 1) * sizeof *model_conf);
    const int has_model_conf = model_conf && cs_model_confusion(m, model_conf, k * k) == CS_OK;
    if (!labels || !post || !conf || !prior || !trace || !centres) return 1;
    if ((s = cs_labels(m, labels, ni)) || (s = cs_posteriors(m, post, ni * k)) ||
        (nw && (s = cs_confusion(m, conf, nw * k * k))) || (s = cs_class_prior(m, prior, k)) ||
        (nt && (s = cs_trace(m, trace, nt))) ||
        (d && (s = cs_centres(m, centres, k * d))) ||
        (strcmp(mode, "graph") == 0 && (s = cs_graph_densities(m, &dens[0], &dens[1]))))
        return fail(m, "results", s);
    FILE *out = fopen(argv[3], "w");
    if (!out) return 2;
    fprintf(out, "%zu %zu %zu %zu %d %d %d %.17g\n", ni, nw, k, nt, iters, conv, notes, ll);
    for (size_t j = 0; j < ni; ++j) fprintf(out, "%d\n", labels[j]);
    print_all(out, post, ni * k);
    print_all(out, conf, nw * k * k);
    print_all(out, prior, k);
    print_all(out, trace, nt);
    print_all(out, centres, k * d);
    if (strcmp(mode, "graph") == 0) print_all(out, dens, 2);
    if (has_model_conf) print_all(out, model_conf, k * k);
    if (fclose(out) != 0) rc = 2;
    free(labels);
    free(post);
    free(conf);
    free(prior);
    free(trace);
    free(centres);
    free(model_conf);
    cs_destroy(m);
    return rc;
}
