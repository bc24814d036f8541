/* SPDX-License-Identifier: MIT */
/*
 * cs_fit_mpi against cs_fit: run under mpirun with any number of processes.
 *
 *   test_mpi_fit simulated          simulated crowds (k = 3 and k = 7, items without
 *                                   labels among the ids), every supported method, three
 *                                   ways of sharding the items (hashed, uneven, one
 *                                   process without items), gold, warm starts,
 *                                   thread counts differing by process; and every
 *                                   error path: each must end on every process, with
 *                                   the same status
 *   test_mpi_fit datasets DIR       ds and opt-ds on the shared real data sets
 *                                   (exit 77 when DIR is missing)
 *
 * The reference is cs_fit of the union on process 0 (broadcast to the others). A
 * distributed fit must give the same iteration count, the same hard labels, and
 * posteriors, confusion matrices and prior within 1e-10 (with one process: identical
 * bits). Each process checks its own items; the worst differences are printed.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crowdspec/crowdspec_mpi.h"

#define SKIP 77
static const double kTol = 1e-10;

static int rank_, size_;
static int failures;

#define CHECK(cond, ...)                                                         \
    do {                                                                         \
        if (!(cond)) {                                                           \
            ++failures;                                                          \
            fprintf(stderr, "[process %d] %s:%d: ", rank_, __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__);                                        \
            fputc('\n', stderr);                                                 \
        }                                                                        \
    } while (0)

static void *xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (p == NULL) {
        fprintf(stderr, "out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return p;
}

static uint64_t mix64(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* ------------------------------------------------------------------------------ */
/* Label sets.                                                                     */

typedef struct {
    int32_t *item, *worker, *label;
    int32_t *truth; /* per item id, -1 unknown (simulated sets only) */
    size_t n;
    int32_t n_items, k;
    const char *name;
} Labels;

static void labels_free(Labels *s) {
    free(s->item);
    free(s->worker);
    free(s->label);
    free(s->truth);
}

/* A crowd of n_items ids (every 97th id has no labels), m workers of four kinds
 * (experts 0.85 correct, fair 0.6, spammers uniform, adversaries shifting the class),
 * `per_item` distinct workers per item, classes drawn from a skewed prior. The same on
 * every process. */
static Labels simulate(int32_t n_items, int32_t m, int32_t k, int32_t per_item, uint64_t seed) {
    Labels s;
    memset(&s, 0, sizeof s);
    s.name = k == 3 ? "simulated k=3" : "simulated k=7";
    s.n_items = n_items;
    s.k = k;
    size_t cap = (size_t)n_items * (size_t)per_item;
    s.item = xmalloc(cap * sizeof(int32_t));
    s.worker = xmalloc(cap * sizeof(int32_t));
    s.label = xmalloc(cap * sizeof(int32_t));
    s.truth = xmalloc((size_t)n_items * sizeof(int32_t));
    uint64_t state = seed;
#define NEXT() (state = mix64(state))
#define UNIFORM() ((double)(NEXT() >> 11) * (1.0 / 9007199254740992.0))
    int32_t *chosen = xmalloc((size_t)m * sizeof(int32_t));
    for (int32_t j = 0; j < n_items; ++j) {
        const double u = UNIFORM();
        int32_t y = 0;
        double acc = 0.0;
        for (y = 0; y < k - 1; ++y) { /* prior proportional to k - l */
            acc += (double)(k - y) / (k * (k + 1) / 2.0);
            if (u < acc) break;
        }
        s.truth[j] = y;
        if (j % 97 == 5) continue; /* an item nobody labelled */
        for (int32_t i = 0; i < m; ++i) chosen[i] = 0;
        for (int32_t r = 0; r < per_item; ++r) {
            int32_t w = (int32_t)(NEXT() % (uint64_t)m);
            while (chosen[w]) w = (w + 1) % m;
            chosen[w] = 1;
            int32_t c;
            const double v = UNIFORM();
            switch (w % 4) {
                case 0: c = v < 0.85 ? y : (int32_t)(NEXT() % (uint64_t)k); break;
                case 1: c = v < 0.6 ? y : (int32_t)(NEXT() % (uint64_t)k); break;
                case 2: c = (int32_t)(NEXT() % (uint64_t)k); break;
                default: c = v < 0.7 ? (y + 1) % k : y; break;
            }
            s.item[s.n] = j;
            s.worker[s.n] = w;
            s.label[s.n] = c;
            ++s.n;
        }
    }
#undef NEXT
#undef UNIFORM
    free(chosen);
    /* Shuffle the order of the labels: the input order is not by item. */
    uint64_t st = seed ^ 0xABCDEFull;
    for (size_t t = s.n; t > 1; --t) {
        st = mix64(st);
        const size_t u = (size_t)(st % t);
        int32_t a;
        a = s.item[t - 1], s.item[t - 1] = s.item[u], s.item[u] = a;
        a = s.worker[t - 1], s.worker[t - 1] = s.worker[u], s.worker[u] = a;
        a = s.label[t - 1], s.label[t - 1] = s.label[u], s.label[u] = a;
    }
    return s;
}

/* `item worker label` lines, 1-based ids kept as they are (so ids 0 have no labels),
 * labels made 0-based. Returns 0 when the file cannot be read. */
static int read_dataset(const char *dir, const char *stem, Labels *s) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s_crowd.txt", dir, stem);
    FILE *f = fopen(path, "r");
    if (f == NULL) return 0;
    memset(s, 0, sizeof *s);
    s->name = stem;
    size_t cap = 1024;
    s->item = xmalloc(cap * sizeof(int32_t));
    s->worker = xmalloc(cap * sizeof(int32_t));
    s->label = xmalloc(cap * sizeof(int32_t));
    long a, b, c;
    while (fscanf(f, "%ld %ld %ld", &a, &b, &c) == 3) {
        if (s->n == cap) {
            cap *= 2;
            s->item = realloc(s->item, cap * sizeof(int32_t));
            s->worker = realloc(s->worker, cap * sizeof(int32_t));
            s->label = realloc(s->label, cap * sizeof(int32_t));
            if (!s->item || !s->worker || !s->label) MPI_Abort(MPI_COMM_WORLD, 2);
        }
        s->item[s->n] = (int32_t)a;
        s->worker[s->n] = (int32_t)b;
        s->label[s->n] = (int32_t)(c - 1);
        if (a + 1 > s->n_items) s->n_items = (int32_t)(a + 1);
        if (c > s->k) s->k = (int32_t)c;
        ++s->n;
    }
    fclose(f);
    return s->n > 0;
}

/* ------------------------------------------------------------------------------ */
/* Shards: which process holds item j.                                             */

typedef enum { SHARD_HASH, SHARD_UNEVEN, SHARD_EMPTY_LAST, SHARD_BLOCKS } Sharding;
static const char *sharding_name[] = {"hashed", "uneven", "last process empty", "blocks"};

static int owner(int32_t j, int32_t n_items, Sharding how) {
    const uint64_t h = mix64((uint64_t)j * 0x51ull + 7);
    switch (how) {
        case SHARD_HASH: return (int)(h % (uint64_t)size_);
        case SHARD_UNEVEN: { /* process r gets about ((r+1)/P)^(1/3) - (r/P)^(1/3) */
            const double u = (double)(h >> 11) * (1.0 / 9007199254740992.0);
            int r = (int)(size_ * u * u * u);
            return r < size_ ? r : size_ - 1;
        }
        case SHARD_EMPTY_LAST: return size_ == 1 ? 0 : (int)(h % (uint64_t)(size_ - 1));
        default: return (int)((int64_t)j * size_ / n_items);
    }
}

/* This process's labels. */
static Labels local_part(const Labels *all, Sharding how) {
    Labels s;
    memset(&s, 0, sizeof s);
    s.item = xmalloc(all->n * sizeof(int32_t));
    s.worker = xmalloc(all->n * sizeof(int32_t));
    s.label = xmalloc(all->n * sizeof(int32_t));
    for (size_t t = 0; t < all->n; ++t) {
        if (owner(all->item[t], all->n_items, how) != rank_) continue;
        s.item[s.n] = all->item[t];
        s.worker[s.n] = all->worker[t];
        s.label[s.n] = all->label[t];
        ++s.n;
    }
    s.n_items = all->n_items;
    s.k = all->k;
    return s;
}

/* ------------------------------------------------------------------------------ */
/* A fit's results.                                                                */

typedef struct {
    cs_status status;
    size_t n_items, n_workers, k, trace_length;
    int32_t iterations, converged, notes;
    int32_t *labels;
    double *posteriors, *confusion, *prior, *trace;
} Fit;

static void fit_free(Fit *f) {
    free(f->labels);
    free(f->posteriors);
    free(f->confusion);
    free(f->prior);
    free(f->trace);
    memset(f, 0, sizeof *f);
}

static void fetch(const cs_model *model, Fit *f) {
    cs_n_items(model, &f->n_items);
    cs_n_workers(model, &f->n_workers);
    cs_n_classes(model, &f->k);
    cs_iterations(model, &f->iterations);
    cs_converged(model, &f->converged);
    cs_fit_notes(model, &f->notes);
    cs_trace_length(model, &f->trace_length);
    f->labels = xmalloc(f->n_items * sizeof(int32_t));
    f->posteriors = xmalloc(f->n_items * f->k * sizeof(double));
    f->confusion = xmalloc(f->n_workers * f->k * f->k * sizeof(double));
    f->prior = xmalloc(f->k * sizeof(double));
    f->trace = xmalloc(f->trace_length * sizeof(double));
    cs_labels(model, f->labels, f->n_items);
    cs_posteriors(model, f->posteriors, f->n_items * f->k);
    cs_confusion(model, f->confusion, f->n_workers * f->k * f->k);
    cs_class_prior(model, f->prior, f->k);
    cs_trace(model, f->trace, f->trace_length);
}

/* Process 0's fit, sent to every process. */
static void broadcast_fit(Fit *f) {
    int64_t head[9] = {f->status, (int64_t)f->n_items, (int64_t)f->n_workers, (int64_t)f->k,
                       (int64_t)f->trace_length, f->iterations, f->converged, f->notes, 0};
    MPI_Bcast(head, 9, MPI_INT64_T, 0, MPI_COMM_WORLD);
    if (rank_ != 0) {
        f->status = (cs_status)head[0];
        f->n_items = (size_t)head[1];
        f->n_workers = (size_t)head[2];
        f->k = (size_t)head[3];
        f->trace_length = (size_t)head[4];
        f->iterations = (int32_t)head[5];
        f->converged = (int32_t)head[6];
        f->notes = (int32_t)head[7];
        f->labels = xmalloc(f->n_items * sizeof(int32_t));
        f->posteriors = xmalloc(f->n_items * f->k * sizeof(double));
        f->confusion = xmalloc(f->n_workers * f->k * f->k * sizeof(double));
        f->prior = xmalloc(f->k * sizeof(double));
        f->trace = xmalloc(f->trace_length * sizeof(double));
    }
    MPI_Bcast(f->labels, (int)f->n_items, MPI_INT32_T, 0, MPI_COMM_WORLD);
    MPI_Bcast(f->posteriors, (int)(f->n_items * f->k), MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Bcast(f->confusion, (int)(f->n_workers * f->k * f->k), MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Bcast(f->prior, (int)f->k, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Bcast(f->trace, (int)f->trace_length, MPI_DOUBLE, 0, MPI_COMM_WORLD);
}

/* ------------------------------------------------------------------------------ */
/* One comparison.                                                                 */

typedef struct {
    int32_t method;
    int gold;        /* pin the items j % 11 == 3 to their simulated truth */
    int warm;        /* start from given matrices */
    int vary_threads;
    const char *extra_name, *extra_value; /* one more parameter, or NULL */
} Setup;

static cs_model *make_model(const Setup *setup, int32_t k, int32_t m, int distributed) {
    cs_model *model = cs_create();
    cs_set_int(model, CS_PARAM_METHOD, setup->method);
    cs_set_int(model, CS_PARAM_THREADS, distributed && setup->vary_threads ? 1 + rank_ % 2 : 1);
    if (setup->extra_name) cs_set_param_string(model, setup->extra_name, setup->extra_value);
    if (setup->warm) {
        /* Every worker right 60 % of the time, except worker 3 unknown (zeros). */
        const size_t kk = (size_t)k * (size_t)k;
        double *pi = xmalloc((size_t)m * kk * sizeof(double));
        for (int32_t i = 0; i < m; ++i)
            for (int32_t l = 0; l < k; ++l)
                for (int32_t c = 0; c < k; ++c)
                    pi[(size_t)i * kk + (size_t)l * k + c] = i == 3 ? 0.0 : l == c ? 0.6 : 0.4 / (k - 1);
        CHECK(cs_set_initial_confusion(model, pi, (size_t)m * kk) == CS_OK, "set initial confusion");
        free(pi);
    }
    return model;
}

/* Gold of the items j % 11 == 3 among `items` (NULL: all ids of the set). */
static void set_gold(cs_model *model, const Labels *all, int only_mine, Sharding how) {
    int32_t *gi = xmalloc((size_t)all->n_items * sizeof(int32_t));
    int32_t *gl = xmalloc((size_t)all->n_items * sizeof(int32_t));
    size_t n = 0;
    for (int32_t j = 3; j < all->n_items; j += 11) {
        if (only_mine && owner(j, all->n_items, how) != rank_) continue;
        gi[n] = j;
        gl[n] = all->truth[j];
        ++n;
    }
    CHECK(cs_set_gold(model, gi, gl, n) == CS_OK, "set gold");
    free(gi);
    free(gl);
}

static double max_abs_diff(const double *a, const double *b, size_t n) {
    double worst = 0.0;
    for (size_t e = 0; e < n; ++e) {
        const double d = fabs(a[e] - b[e]);
        if (d > worst || d != d) worst = d != d ? INFINITY : d;
    }
    return worst;
}

static void compare(const Labels *all, const Setup *setup, Sharding how) {
    const char *method = cs_method_name(setup->method);
    int32_t m = 0;
    for (size_t t = 0; t < all->n; ++t)
        if (all->worker[t] + 1 > m) m = all->worker[t] + 1;
    MPI_Allreduce(MPI_IN_PLACE, &m, 1, MPI_INT32_T, MPI_MAX, MPI_COMM_WORLD);

    Fit ref;
    memset(&ref, 0, sizeof ref);
    if (rank_ == 0) {
        cs_model *model = make_model(setup, all->k, m, 0);
        if (setup->gold) set_gold(model, all, 0, how);
        ref.status = cs_fit(model, all->item, all->worker, all->label, all->n);
        if (ref.status == CS_OK) fetch(model, &ref);
        cs_destroy(model);
    }
    broadcast_fit(&ref);
    if (ref.status != CS_OK) {
        CHECK(0, "%s on %s: the single-process fit failed (%s)", method, all->name, cs_status_string(ref.status));
        return;
    }

    Labels mine = local_part(all, how);
    cs_model *model = make_model(setup, all->k, m, 1);
    if (setup->gold) set_gold(model, all, 1, how);
    const int empty = mine.n == 0;
    const cs_status status = empty ? cs_fit_mpi(model, MPI_COMM_WORLD, NULL, NULL, NULL, 0)
                                   : cs_fit_mpi(model, MPI_COMM_WORLD, mine.item, mine.worker, mine.label, mine.n);
    CHECK(status == CS_OK, "%s on %s (%s): cs_fit_mpi returned %s: %s", method, all->name, sharding_name[how],
          cs_status_string(status), cs_last_error(model));
    double worst_q = 0.0, worst_pi = 0.0, worst_prior = 0.0, worst_ll = 0.0;
    long label_flips = 0, near_ties = 0, items_here = 0;
    if (status == CS_OK) {
        Fit got;
        memset(&got, 0, sizeof got);
        fetch(model, &got);
        size_t total = 0;
        cs_mpi_total_items(model, &total);
        CHECK(total == ref.n_items, "total items %zu, expected %zu", total, ref.n_items);
        int32_t *ids = xmalloc(got.n_items * sizeof(int32_t));
        CHECK(cs_mpi_items(model, ids, got.n_items) == CS_OK, "cs_mpi_items");
        CHECK(got.iterations == ref.iterations, "%s on %s (%s): %d iterations, single process %d", method,
              all->name, sharding_name[how], got.iterations, ref.iterations);
        CHECK(got.converged == ref.converged, "converged flag differs");
        CHECK(got.notes == ref.notes, "%s on %s: notes %d, single process %d", method, all->name, got.notes,
              ref.notes);
        CHECK(got.n_workers == ref.n_workers && got.k == ref.k, "sizes differ");
        items_here = (long)got.n_items;
        for (size_t r = 0; r < got.n_items; ++r) {
            CHECK(ids[r] >= 0 && (size_t)ids[r] < ref.n_items && (r == 0 || ids[r] > ids[r - 1]),
                  "item ids not increasing");
            if (ids[r] < 0 || (size_t)ids[r] >= ref.n_items) break;
            const double *q = got.posteriors + r * got.k, *p = ref.posteriors + (size_t)ids[r] * ref.k;
            const double d = max_abs_diff(q, p, got.k);
            if (d > worst_q) worst_q = d;
            if (got.labels[r] != ref.labels[ids[r]]) {
                /* Only a tie within rounding may flip. */
                const double gap = fabs(p[got.labels[r]] - p[ref.labels[ids[r]]]);
                if (gap < 1e-12) ++near_ties;
                else ++label_flips;
            }
        }
        if (got.n_workers == ref.n_workers && got.k == ref.k) {
            worst_pi = max_abs_diff(got.confusion, ref.confusion, got.n_workers * got.k * got.k);
            worst_prior = max_abs_diff(got.prior, ref.prior, got.k);
        }
        if (got.trace_length == ref.trace_length && got.trace_length > 0) {
            const double a = got.trace[got.trace_length - 1], b = ref.trace[ref.trace_length - 1];
            worst_ll = fabs(a - b) / fmax(1.0, fabs(b));
        }
        if (size_ == 1) { /* one process: the same computation, bit for bit */
            CHECK(got.n_items == ref.n_items &&
                      memcmp(got.posteriors, ref.posteriors, got.n_items * got.k * sizeof(double)) == 0 &&
                      memcmp(got.confusion, ref.confusion, got.n_workers * got.k * got.k * sizeof(double)) == 0 &&
                      got.trace_length == ref.trace_length &&
                      memcmp(got.trace, ref.trace, got.trace_length * sizeof(double)) == 0,
                  "%s on %s: one process is not bit-identical to cs_fit", method, all->name);
        }
        free(ids);
        fit_free(&got);
    }
    double worst[4] = {worst_q, worst_pi, worst_prior, worst_ll};
    long counts[3] = {label_flips, near_ties, items_here};
    MPI_Allreduce(MPI_IN_PLACE, worst, 4, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, counts, 3, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    CHECK(counts[0] == 0, "%s on %s: %ld hard labels differ", method, all->name, counts[0]);
    CHECK(worst[0] <= kTol && worst[1] <= kTol && worst[2] <= kTol && worst[3] <= 1e-12,
          "%s on %s: differences %.3g %.3g %.3g %.3g above tolerance", method, all->name, worst[0], worst[1],
          worst[2], worst[3]);
    CHECK(status != CS_OK || counts[2] == (long)ref.n_items, "items over the processes %ld, expected %zu",
          counts[2], ref.n_items);
    char variant[64];
    snprintf(variant, sizeof variant, "%s%s%s%s%s", method, setup->gold ? " gold" : "", setup->warm ? " warm" : "",
             setup->vary_threads ? " threads" : "", setup->extra_name ? " +param" : "");
    if (rank_ == 0)
        printf("%-14s %-18s %-19s %d proc: %3d iterations (same), labels %s%s, max |dq| %.1e, |dpi| %.1e, "
               "|dw| %.1e, rel |dL| %.1e\n",
               all->name, variant, sharding_name[how], size_, ref.iterations,
               counts[0] == 0 ? "identical" : "DIFFER", counts[1] ? " (ties within rounding flipped)" : "",
               worst[0], worst[1], worst[2], worst[3]);
    cs_destroy(model);
    labels_free(&mine);
    fit_free(&ref);
}

/* ------------------------------------------------------------------------------ */
/* Error paths: every process must return (no hang), with the expected status.     */

static int32_t cancel_at_3(void *user, int32_t iteration, double objective) {
    (void)user;
    (void)objective;
    return iteration >= 3;
}

/* Every process's status must be `expected`; `words` must appear in the message. */
static void expect_everywhere(const char *what, cs_model *model, cs_status got, cs_status expected,
                              const char *word) {
    CHECK(got == expected, "%s: %s (%s), expected %s", what, cs_status_string(got), cs_last_error(model),
          cs_status_string(expected));
    CHECK(word == NULL || strstr(cs_last_error(model), word) != NULL, "%s: message '%s' lacks '%s'", what,
          cs_last_error(model), word);
    int32_t statuses[2] = {got, -got};
    MPI_Allreduce(MPI_IN_PLACE, statuses, 2, MPI_INT32_T, MPI_MAX, MPI_COMM_WORLD);
    CHECK(statuses[0] == -statuses[1], "%s: the processes returned different statuses", what);
    if (rank_ == 0) printf("error path: %-58s -> %s on every process\n", what, cs_status_string(expected));
}

static void error_paths(const Labels *all) {
    Labels mine = local_part(all, SHARD_HASH);
    const int last = size_ - 1;
    char text[256];

    /* Invalid input on the last process only. */
    {
        cs_model *model = cs_create();
        const int32_t kept = mine.n > 0 ? mine.item[0] : 0;
        if (rank_ == last && mine.n > 0) mine.item[0] = -5;
        const cs_status s = cs_fit_mpi(model, MPI_COMM_WORLD, mine.item, mine.worker, mine.label, mine.n);
        if (mine.n > 0) mine.item[0] = kept;
        snprintf(text, sizeof text, "process %d: item id -5", last);
        expect_everywhere("negative item id on the last process", model, s, CS_ERR_INVALID_ID,
                          rank_ == last ? "item id -5 at label index 0 is negative" : size_ > 1 ? text : NULL);
        /* The handle stays usable: the same data without the bad id. */
        Labels again = local_part(all, SHARD_HASH);
        CHECK(cs_fit_mpi(model, MPI_COMM_WORLD, again.item, again.worker, again.label, again.n) == CS_OK,
              "refit after a failure: %s", cs_last_error(model));
        labels_free(&again);
        cs_destroy(model);
    }
    /* A duplicate label on process 0 only (duplicates = reject). */
    {
        cs_model *model = cs_create();
        Labels dup = local_part(all, SHARD_HASH);
        if (rank_ == 0 && dup.n > 1) {
            dup.item[1] = dup.item[0];
            dup.worker[1] = dup.worker[0];
        }
        const cs_status s = cs_fit_mpi(model, MPI_COMM_WORLD, dup.item, dup.worker, dup.label, dup.n);
        expect_everywhere("a duplicate label on process 0", model, s, CS_ERR_DUPLICATE, "twice");
        labels_free(&dup);
        cs_destroy(model);
    }
    /* An item on two processes. */
    if (size_ > 1) {
        cs_model *model = cs_create();
        Labels both = local_part(all, SHARD_HASH);
        /* Every process also takes item 0's first label. */
        both.item[both.n] = all->item[0];
        both.worker[both.n] = all->worker[0];
        both.label[both.n] = all->label[0];
        const size_t n = owner(all->item[0], all->n_items, SHARD_HASH) == rank_ ? both.n : both.n + 1;
        const cs_status s = cs_fit_mpi(model, MPI_COMM_WORLD, both.item, both.worker, both.label, n);
        expect_everywhere("an item held by two processes", model, s, CS_ERR_INVALID_ARGUMENT, "more than one process");
        labels_free(&both);
        cs_destroy(model);
    }
    /* A parameter set differently on one process. */
    {
        cs_model *model = cs_create();
        if (rank_ == last) cs_set_double(model, CS_PARAM_TOL, 1e-6);
        const cs_status s = cs_fit_mpi(model, MPI_COMM_WORLD, mine.item, mine.worker, mine.label, mine.n);
        expect_everywhere("tol different on the last process", model, s,
                          size_ > 1 ? CS_ERR_INVALID_ARGUMENT : CS_OK, size_ > 1 ? "'tol'" : NULL);
        cs_destroy(model);
    }
    /* Unsupported methods. */
    {
        cs_model *model = cs_create();
        cs_set_int(model, CS_PARAM_METHOD, CS_METHOD_KOS);
        cs_status s = cs_fit_mpi(model, MPI_COMM_WORLD, mine.item, mine.worker, mine.label, mine.n);
        expect_everywhere("method kos", model, s, CS_ERR_INVALID_ARGUMENT, "cannot be fitted across processes");
        cs_set_int(model, CS_PARAM_METHOD, CS_METHOD_LLOYD);
        s = cs_fit_mpi(model, MPI_COMM_WORLD, mine.item, mine.worker, mine.label, mine.n);
        expect_everywhere("method lloyd (points)", model, s, CS_ERR_WRONG_INPUT_KIND, "lloyd");
        CHECK(cs_mpi_supports(CS_METHOD_OPT_DS) == 1 && cs_mpi_supports(CS_METHOD_DS) == 1 &&
                  cs_mpi_supports(CS_METHOD_MV) == 1 && cs_mpi_supports(CS_METHOD_KOS) == 0 &&
                  cs_mpi_supports(CS_METHOD_CROWD_LLOYD) == 0,
              "cs_mpi_supports");
        cs_destroy(model);
    }
    /* No labels anywhere. */
    {
        cs_model *model = cs_create();
        const cs_status s = cs_fit_mpi(model, MPI_COMM_WORLD, NULL, NULL, NULL, 0);
        expect_everywhere("no labels on any process", model, s, CS_ERR_EMPTY_INPUT, "no labels");
        cs_destroy(model);
    }
    /* The last process's callback cancels after iteration 3: all stop there, results kept. */
    {
        cs_model *model = cs_create();
        cs_set_int(model, CS_PARAM_METHOD, CS_METHOD_DS);
        if (rank_ == last) cs_set_progress(model, cancel_at_3, NULL);
        const cs_status s = cs_fit_mpi(model, MPI_COMM_WORLD, mine.item, mine.worker, mine.label, mine.n);
        expect_everywhere("cancelled by the last process's callback", model, s, CS_ERR_CANCELLED, "iteration 3");
        int32_t it = -1;
        CHECK(cs_iterations(model, &it) == CS_OK && it == 3, "cancelled fit: %d iterations kept", it);
        cs_destroy(model);
    }
    /* Bad calls that fail on each process alone (no communication). */
    {
        cs_model *model = cs_create();
        int32_t id = 0;
        size_t n = 0;
        CHECK(cs_mpi_items(model, &id, 1) == CS_ERR_NOT_FITTED, "cs_mpi_items before a fit");
        CHECK(cs_mpi_total_items(model, &n) == CS_ERR_NOT_FITTED, "cs_mpi_total_items before a fit");
        CHECK(cs_fit_mpi(model, MPI_COMM_NULL, mine.item, mine.worker, mine.label, mine.n) == CS_ERR_INVALID_ARGUMENT &&
                  strstr(cs_last_error(model), "MPI_COMM_NULL") != NULL,
              "MPI_COMM_NULL: %s", cs_last_error(model));
        CHECK(cs_fit_mpi(NULL, MPI_COMM_WORLD, NULL, NULL, NULL, 0) == CS_ERR_NULL_HANDLE, "NULL handle");
        /* A plain cs_fit afterwards is not a distributed fit. */
        CHECK(cs_fit(model, all->item, all->worker, all->label, all->n) == CS_OK, "cs_fit");
        CHECK(cs_mpi_items(model, &id, 1) == CS_ERR_NOT_FITTED, "cs_mpi_items after cs_fit");
        CHECK(cs_fit_mpi(model, MPI_COMM_WORLD, mine.item, mine.worker, mine.label, mine.n) == CS_OK, "fit");
        size_t mine_items = 0;
        cs_n_items(model, &mine_items);
        if (mine_items > 0)
            CHECK(cs_mpi_items(model, &id, mine_items - 1) == CS_ERR_BUFFER_TOO_SMALL, "too small a buffer");
        CHECK(cs_mpi_items(model, NULL, 10) == CS_ERR_NULL_POINTER, "NULL buffer");
        cs_destroy(model);
    }
    labels_free(&mine);
}

/* ------------------------------------------------------------------------------ */

static int run_simulated(void) {
    Labels a = simulate(3000, 48, 3, 5, 11);
    Labels b = simulate(1200, 30, 7, 6, 12);
    const int32_t methods[] = {CS_METHOD_OPT_DS, CS_METHOD_DS, CS_METHOD_MV, CS_METHOD_ONE_COIN_DS,
                               CS_METHOD_CLASS_ONE_COIN_DS};
    for (size_t i = 0; i < sizeof methods / sizeof methods[0]; ++i) {
        Setup s = {methods[i], 0, 0, 0, NULL, NULL};
        compare(&a, &s, SHARD_HASH);
    }
    Setup opt = {CS_METHOD_OPT_DS, 0, 0, 0, NULL, NULL}, ds = {CS_METHOD_DS, 0, 0, 0, NULL, NULL};
    compare(&a, &opt, SHARD_UNEVEN);
    compare(&a, &ds, SHARD_EMPTY_LAST);
    compare(&a, &opt, SHARD_EMPTY_LAST);
    compare(&b, &opt, SHARD_HASH);
    compare(&b, &ds, SHARD_UNEVEN);
    /* opt-ds's paper variant: reference groups and one start, uniform prior, plain EM. */
    Setup paper = {CS_METHOD_OPT_DS, 0, 0, 0, "starts", "1"};
    compare(&a, &paper, SHARD_BLOCKS);
    Setup plain = {CS_METHOD_DS, 0, 0, 0, "accel", "none"};
    compare(&a, &plain, SHARD_HASH);
    Setup gold = {CS_METHOD_OPT_DS, 1, 0, 0, NULL, NULL};
    compare(&a, &gold, SHARD_UNEVEN);
    Setup warm = {CS_METHOD_DS, 0, 1, 0, NULL, NULL};
    compare(&a, &warm, SHARD_HASH);
    Setup threads = {CS_METHOD_OPT_DS, 0, 0, 1, NULL, NULL};
    compare(&a, &threads, SHARD_HASH);
    error_paths(&a);
    labels_free(&a);
    labels_free(&b);
    return 0;
}

static int run_datasets(const char *dir) {
    const char *stems[] = {"bluebird", "rte", "dog", "web", "trec"};
    int found = 0;
    for (size_t i = 0; i < sizeof stems / sizeof stems[0]; ++i) {
        Labels s;
        if (!read_dataset(dir, stems[i], &s)) continue;
        ++found;
        Setup opt = {CS_METHOD_OPT_DS, 0, 0, 0, NULL, NULL}, ds = {CS_METHOD_DS, 0, 0, 0, NULL, NULL};
        compare(&s, &opt, SHARD_HASH);
        compare(&s, &ds, SHARD_HASH);
        if (strcmp(stems[i], "trec") == 0) compare(&s, &opt, SHARD_UNEVEN);
        labels_free(&s);
    }
    return found;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    int code = 0;
    if (argc >= 2 && strcmp(argv[1], "simulated") == 0) {
        run_simulated();
    } else if (argc >= 3 && strcmp(argv[1], "datasets") == 0) {
        if (run_datasets(argv[2]) == 0) {
            if (rank_ == 0) printf("SKIP: no data sets in %s (../shared/datasets)\n", argv[2]);
            code = SKIP;
        }
    } else {
        if (rank_ == 0) fprintf(stderr, "usage: test_mpi_fit simulated | datasets DIR\n");
        code = 2;
    }
    MPI_Allreduce(MPI_IN_PLACE, &failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (failures > 0) {
        if (rank_ == 0) printf("FAILED: %d checks over %d processes\n", failures, size_);
        code = 1;
    }
    MPI_Finalize();
    return code;
}
