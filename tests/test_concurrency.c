/* SPDX-License-Identifier: MIT */
/* "Distinct handles share no mutable state, so fits on different handles may run
 * concurrently" (crowdspec.h): several threads, each with its own handle, fit every
 * method repeatedly at the same time and must get exactly the single-threaded
 * results. Run under the sanitizer build too. */
#define _POSIX_C_SOURCE 200809L /* pthreads under -std=c99 */

#include "cs_test.h"

#include <pthread.h>

enum { N_THREADS = 4, N_ROUNDS = 5, N_METHODS_MAX = 64, POST = 6 * 3 };

typedef struct {
    int32_t n_methods;
    int32_t method[N_METHODS_MAX];
    double reference[N_METHODS_MAX][POST];
} Shared;

typedef struct {
    const Shared *shared;
    int32_t threads_param; /* CS_PARAM_THREADS of this worker's handle */
    int mismatches, failures;
} Worker;

static int fit_posteriors(cs_model *m, int32_t method, double *post) {
    if (cs_set_int(m, CS_PARAM_METHOD, method) != CS_OK) return 0;
    if (cs_fit_data(m, &cs_k3) != CS_OK) return 0;
    return cs_posteriors(m, post, POST) == CS_OK;
}

static void *run_worker(void *arg) {
    Worker *w = (Worker *)arg;
    cs_model *m = cs_create();
    int round, i;
    if (m == NULL || cs_set_int(m, CS_PARAM_THREADS, w->threads_param) != CS_OK) {
        w->failures++;
        cs_destroy(m);
        return NULL;
    }
    for (round = 0; round < N_ROUNDS; ++round)
        for (i = 0; i < w->shared->n_methods; ++i) {
            double post[POST];
            if (!fit_posteriors(m, w->shared->method[i], post))
                w->failures++;
            else if (memcmp(post, w->shared->reference[i], sizeof post) != 0)
                w->mismatches++;
        }
    cs_destroy(m);
    return NULL;
}

static void concurrent_fits_on_distinct_handles(void **state) {
    Shared shared;
    Worker workers[N_THREADS];
    pthread_t threads[N_THREADS];
    int32_t i;
    (void)state;

    memset(&shared, 0, sizeof shared);
    for (i = 0; i < cs_method_count(); ++i) {
        cs_model *m;
        const int32_t n = shared.n_methods;
        if (cs_method_input(cs_method_at(i)) != CS_INPUT_CROWD) continue; /* crowd data below */
        assert_true(n < N_METHODS_MAX);
        m = cs_create();
        assert_non_null(m);
        shared.method[n] = cs_method_at(i);
        assert_true(fit_posteriors(m, shared.method[n], shared.reference[n]));
        shared.n_methods = n + 1;
        cs_destroy(m);
    }
    for (i = 0; i < N_THREADS; ++i) {
        workers[i].shared = &shared;
        workers[i].threads_param = i % 2 == 0 ? 1 : 2;
        workers[i].mismatches = workers[i].failures = 0;
        assert_int_equal(pthread_create(&threads[i], NULL, run_worker, &workers[i]), 0);
    }
    for (i = 0; i < N_THREADS; ++i) assert_int_equal(pthread_join(threads[i], NULL), 0);
    for (i = 0; i < N_THREADS; ++i) {
        if (workers[i].failures != 0 || workers[i].mismatches != 0)
            fail_msg("thread %d: %d failed fits, %d results differing from the reference", i,
                     workers[i].failures, workers[i].mismatches);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(concurrent_fits_on_distinct_handles),
    };
    return cmocka_run_group_tests_name("concurrency", tests, NULL, NULL);
}
