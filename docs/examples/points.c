/* SPDX-License-Identifier: MIT */
/* points.c -- cluster 12 points of the plane into 3 groups with Lloyd's algorithm
 * after a spectral initialisation (method "lloyd").
 *
 * Build against an installed crowdspec:
 *     cc points.c $(pkg-config --cflags --libs crowdspec) -o points
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

enum { N_POINTS = 12, DIM = 2, K = 3 };

int main(void) {
    /* An n x d matrix, row-major: point i is (x[2 i], x[2 i + 1]). Three groups of four
     * points, around (0, 0), (10, 0) and (0, 10), each point 0.5 away from its group's
     * centre, so every group's mean is its centre exactly. */
    static const double x[N_POINTS * DIM] = {
        0.5,  0.0,   -0.5, 0.0,   0.0,  0.5,   0.0,  -0.5,  /* around (0, 0) */
        10.5, 0.0,   9.5,  0.0,   10.0, 0.5,   10.0, -0.5,  /* around (10, 0) */
        0.5,  10.0,  -0.5, 10.0,  0.0,  10.5,  0.0,  9.5    /* around (0, 10) */
    };
    int32_t labels[N_POINTS];
    double centres[K * DIM];
    size_t i;

    cs_model *model = cs_create();
    if (model == NULL) {
        fprintf(stderr, "cs_create: out of memory\n");
        return EXIT_FAILURE;
    }
    /* Points need a points method and the number of clusters (there are no labels to
     * infer k from). Methods and parameters can also be set by name. */
    CHECK(cs_set_param_string(model, "method", "lloyd"));
    CHECK(cs_set_int(model, CS_PARAM_CLASSES, K));
    CHECK(cs_fit_points(model, x, N_POINTS, DIM, 0)); /* ld 0: rows are DIM apart */

    CHECK(cs_labels(model, labels, N_POINTS));
    CHECK(cs_centres(model, centres, K * DIM)); /* k x d, the mean of each cluster */

    printf("point  x      y      cluster  centre of its cluster\n");
    for (i = 0; i < N_POINTS; ++i) {
        const double *c = centres + (size_t)labels[i] * DIM;
        printf("%5zu  %5.1f  %5.1f  %7d  (%.1f, %.1f)\n", i, x[i * DIM], x[i * DIM + 1],
               (int)labels[i], c[0], c[1]);
    }

    cs_destroy(model);
    return EXIT_SUCCESS;
}
