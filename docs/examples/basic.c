/* SPDX-License-Identifier: MIT */
/* basic.c -- infer the true labels of 5 items from 20 noisy crowd labels.
 *
 * Build against an installed crowdspec:
 *     cc basic.c $(pkg-config --cflags --libs crowdspec) -o basic
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

enum { N_ITEMS = 5, N_CLASSES = 3 };

int main(void) {
    /* The crowd labels as triples: worker[t] gave label[t] to item[t]. Ids and labels
     * are 0-based; 4 workers each label all 5 items with one of 3 classes. */
    static const int32_t item[] = {0, 0, 0, 0,  1, 1, 1, 1,  2, 2, 2, 2,
                                   3, 3, 3, 3,  4, 4, 4, 4};
    static const int32_t worker[] = {0, 1, 2, 3,  0, 1, 2, 3,  0, 1, 2, 3,
                                     0, 1, 2, 3,  0, 1, 2, 3};
    static const int32_t label[] = {1, 1, 1, 1,  2, 2, 2, 1,  0, 0, 0, 0,
                                    0, 0, 0, 0,  1, 1, 0, 1};
    const size_t n_labels = sizeof item / sizeof item[0];
    int32_t labels[N_ITEMS];
    double posteriors[N_ITEMS * N_CLASSES];
    size_t n_items, k, j, c;

    cs_model *model = cs_create(); /* every parameter at its default */
    if (model == NULL) {
        fprintf(stderr, "cs_create: out of memory\n");
        return EXIT_FAILURE;
    }
    /* The default method is auto (Dawid-Skene EM, each worker pulled towards workers of
     * like activity, calibrated posteriors); choose Opt-D&S (spectral initialisation,
     * then Dawid-Skene EM) here, to show how options are set. */
    CHECK(cs_set_int(model, CS_PARAM_METHOD, CS_METHOD_OPT_DS));
    CHECK(cs_fit(model, item, worker, label, n_labels));

    /* The result sizes, then the results, copied into our buffers (the capacity
     * arguments are checked: a short buffer is an error, never an overflow). */
    CHECK(cs_n_items(model, &n_items));
    CHECK(cs_n_classes(model, &k));
    CHECK(cs_labels(model, labels, N_ITEMS));
    CHECK(cs_posteriors(model, posteriors, N_ITEMS * N_CLASSES));

    /* After a successful fit, cs_last_error() holds notes about it, if any. */
    if (cs_last_error(model)[0] != '\0') printf("note: %s\n", cs_last_error(model));

    printf("item  label  posterior\n");
    for (j = 0; j < n_items; ++j) {
        printf("%4zu  %5d ", j, (int)labels[j]);
        for (c = 0; c < k; ++c) printf(" %.3f", posteriors[j * k + c]);
        printf("\n");
    }

    cs_destroy(model);
    return EXIT_SUCCESS;
}
