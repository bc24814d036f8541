/* SPDX-License-Identifier: MIT */
/* rank.c -- rank 4 items from pairwise comparisons "which of the two is better?" with
 * Crowd-BT (method "crowd-bt"), which also finds the worker who answers the reverse.
 *
 * Build against an installed crowdspec:
 *     cc rank.c $(pkg-config --cflags --libs crowdspec) -o rank
 */
#include <stdio.h>
#include <stdlib.h>

#include <crowdspec/crowdspec.h>

/* Every crowdspec call that can fail returns a cs_status (CS_OK = 0); on failure,
 * cs_last_error() explains it. */
#define CHECK(call)                                                              \
    do {                                                                         \
        cs_status status_ = (call);                                              \
        if (status_ != CS_OK) {                                                  \
            fprintf(stderr, "%s: %s: %s\n", #call, cs_status_string(status_),    \
                    cs_last_error(model));                                       \
            cs_destroy(model);                                                   \
            return EXIT_FAILURE;                                                 \
        }                                                                        \
    } while (0)

enum { N_ITEMS = 4, N_WORKERS = 3, N_PAIRS = 6, N = N_WORKERS * N_PAIRS };

int main(void) {
    /* The true order is item 0 > 1 > 2 > 3. Each of 3 workers compares the 6 pairs once:
     * worker 0 always prefers the better item, worker 1 too except on the pair (2, 3),
     * and worker 2 always prefers the worse one (an adversary, or a worker who read the
     * question the other way round). */
    static const int32_t pair_a[N_PAIRS] = {0, 0, 0, 1, 1, 2};
    static const int32_t pair_b[N_PAIRS] = {1, 2, 3, 2, 3, 3};
    int32_t worker[N], left[N], right[N], answer[N];
    double score[N_ITEMS], se[N_ITEMS], eta[N_WORKERS];
    int32_t rank[N_ITEMS];
    size_t t = 0, w, p, i;

    for (w = 0; w < N_WORKERS; ++w)
        for (p = 0; p < N_PAIRS; ++p, ++t) {
            /* the better item (the lower id) shown on the left for even t, else right */
            const int better_left = t % 2 == 0;
            const int prefers_better = w == 0 || (w == 1 && p != 5);
            worker[t] = (int32_t)w;
            left[t] = better_left ? pair_a[p] : pair_b[p];
            right[t] = better_left ? pair_b[p] : pair_a[p];
            answer[t] = prefers_better == better_left ? CS_ANSWER_LEFT : CS_ANSWER_RIGHT;
        }

    cs_model *model = cs_create();
    if (model == NULL) {
        fprintf(stderr, "cs_create: out of memory\n");
        return EXIT_FAILURE;
    }
    CHECK(cs_set_int(model, CS_PARAM_METHOD, CS_METHOD_CROWD_BT));
    CHECK(cs_fit_comparisons(model, worker, left, right, answer, N));

    /* Each item's log-strength s (item i beats j with probability
     * 1 / (1 + exp(s_j - s_i))), its standard error and its rank (1 = best); each
     * worker's eta, the chance of stating the true preference. */
    CHECK(cs_scores(model, score, se, rank, N_ITEMS));
    CHECK(cs_worker_reliability(model, eta, N_WORKERS));

    printf("item  rank  score +- 1.96 se\n");
    for (i = 0; i < N_ITEMS; ++i)
        printf("%4zu  %4d  %+.2f +- %.2f\n", i, (int)rank[i], score[i], 1.96 * se[i]);
    printf("worker  eta\n");
    for (w = 0; w < N_WORKERS; ++w)
        printf("%6zu  %.2f%s\n", w, eta[w], eta[w] < 0.5 ? "  (answers the reverse)" : "");

    cs_destroy(model);
    return EXIT_SUCCESS;
}
