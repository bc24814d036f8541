/* SPDX-License-Identifier: MIT */
/* Shared helpers of the C API tests (C99, cmocka; usable from C++ tests too).
 *
 * CS_ASSERT_STATUS(expr, status)          the call returns exactly `status`
 * CS_ASSERT_FAIL(model, expr, status, w…)  ... and cs_last_error(model) contains every
 *                                          word w (case-sensitive strstr)
 * cs_fit_or_fail(model, data)              fit a CsData, failing the test on error
 *
 * The hand-made data sets below are small enough to check by hand. */
#ifndef CS_TEST_H
#define CS_TEST_H

#include <setjmp.h> /* cmocka needs these three before cmocka.h */
#include <stdarg.h>
#include <stddef.h>

#ifdef __cplusplus /* cmocka.h (1.1) has no extern "C" of its own */
extern "C" {
#endif
#include <cmocka.h>
#ifdef __cplusplus
}
#endif
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "crowdspec/crowdspec.h"

/* Exit status that ctest reports as "Skipped" (SKIP_RETURN_CODE of cs_add_test). */
#define CS_TEST_SKIP 77

/* ------------------------------------------------------------------------------ */
/* Assertions with useful messages.                                                */

static inline void cs_check_status(cs_status got, cs_status expected, const char *expr,
                                   const char *file, int line) {
    if (got != expected) {
        print_error("%s returned %s (%d), expected %s (%d)\n", expr, cs_status_string(got),
                    (int)got, cs_status_string(expected), (int)expected);
        _fail(file, line);
    }
}

/* `words` is a NULL-terminated list. */
static inline void cs_check_failure(const cs_model *model, cs_status got, cs_status expected,
                                    const char *expr, const char *const *words,
                                    const char *file, int line) {
    const char *message = cs_last_error(model);
    cs_check_status(got, expected, expr, file, line);
    if (message == NULL) {
        print_error("%s: cs_last_error() returned NULL\n", expr);
        _fail(file, line);
    }
    for (; *words != NULL; ++words) {
        if (strstr(message, *words) == NULL) {
            print_error("%s: cs_last_error() = \"%s\" does not mention \"%s\"\n", expr, message,
                        *words);
            _fail(file, line);
        }
    }
}

#define CS_ASSERT_STATUS(expr, expected) \
    cs_check_status((expr), (expected), #expr, __FILE__, __LINE__)

#define CS_ASSERT_OK(expr) CS_ASSERT_STATUS(expr, CS_OK)

/* CS_ASSERT_FAIL(model, call, CS_ERR_..., "word", "word", ...): at least one word. */
#define CS_ASSERT_FAIL(model, expr, expected, ...)                                        \
    do {                                                                                   \
        const char *const cs_words_[] = {__VA_ARGS__, NULL};                               \
        cs_check_failure((model), (expr), (expected), #expr, cs_words_, __FILE__,          \
                         __LINE__);                                                        \
    } while (0)

#if defined(__GNUC__) || defined(__clang__)
#define CS_MAYBE_UNUSED __attribute__((unused))
#else
#define CS_MAYBE_UNUSED
#endif

/* ------------------------------------------------------------------------------ */
/* Hand-made crowd label sets.                                                     */

typedef struct {
    const int32_t *item, *worker, *label;
    size_t n;
} CsData;

/* 4 items x 3 workers, k = 2 (12 labels). Majority vote: 0, 1, 0, 1 with vote
 * shares (2/3, 1/3), (0, 1), (1, 0), (1/3, 2/3). */
CS_MAYBE_UNUSED static const int32_t cs_tiny_item[12] = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3};
CS_MAYBE_UNUSED static const int32_t cs_tiny_worker[12] = {0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2};
CS_MAYBE_UNUSED static const int32_t cs_tiny_label[12] = {0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 1};
CS_MAYBE_UNUSED static const CsData cs_tiny = {cs_tiny_item, cs_tiny_worker, cs_tiny_label, 12};

/* 6 items, 4 workers, k = 3 (18 labels); worker 3 only labels items 4 and 5. */
CS_MAYBE_UNUSED static const int32_t cs_k3_item[18] = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5};
CS_MAYBE_UNUSED static const int32_t cs_k3_worker[18] = {0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 3, 1, 2, 3};
CS_MAYBE_UNUSED static const int32_t cs_k3_label[18] = {0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 1, 2, 2, 2, 2, 1, 2};
CS_MAYBE_UNUSED static const CsData cs_k3 = {cs_k3_item, cs_k3_worker, cs_k3_label, 18};

static inline cs_status cs_fit_data(cs_model *model, const CsData *d) {
    return cs_fit(model, d->item, d->worker, d->label, d->n);
}

#define cs_fit_or_fail(model, data)                                                       \
    do {                                                                                   \
        cs_status s_ = cs_fit_data((model), (data));                                      \
        if (s_ != CS_OK) {                                                                 \
            print_error("cs_fit failed: %s: %s\n", cs_status_string(s_),                 \
                        cs_last_error(model));                                             \
            fail();                                                                        \
        }                                                                                  \
    } while (0)

/* A fresh handle with `method` (a name) set; fails the test if anything goes wrong. */
static inline cs_model *cs_new_model(const char *method) {
    cs_model *m = cs_create();
    assert_non_null(m);
    if (method != NULL) CS_ASSERT_OK(cs_set_param_string(m, "method", method));
    return m;
}

/* cmocka setup/teardown that keep one handle in *state. */
static inline int cs_setup_model(void **state) {
    *state = cs_create();
    return *state == NULL ? -1 : 0;
}

static inline int cs_teardown_model(void **state) {
    cs_destroy((cs_model *)*state);
    return 0;
}

#endif /* CS_TEST_H */
