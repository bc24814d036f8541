/* SPDX-License-Identifier: MIT */
/* graph.c -- find the 2 communities of a small graph with CommuLloyd after a
 * spectral initialisation (method "commu-lloyd").
 *
 * Build against an installed crowdspec:
 *     cc graph.c $(pkg-config --cflags --libs crowdspec) -o graph
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

enum { N_NODES = 10, N_EDGES = 21 };

int main(void) {
    /* An undirected edge list: edge t joins u[t] and v[t]. Nodes 0-4 are all linked to
     * each other (10 edges), so are nodes 5-9 (10 edges), and one edge, 4-5, joins the
     * two groups. */
    static const int32_t u[N_EDGES] = {0, 0, 0, 0, 1, 1, 1, 2, 2, 3,
                                       5, 5, 5, 5, 6, 6, 6, 7, 7, 8, 4};
    static const int32_t v[N_EDGES] = {1, 2, 3, 4, 2, 3, 4, 3, 4, 4,
                                       6, 7, 8, 9, 7, 8, 9, 8, 9, 9, 5};
    int32_t community[N_NODES];
    double within, between;
    size_t i;

    cs_model *model = cs_create();
    if (model == NULL) {
        fprintf(stderr, "cs_create: out of memory\n");
        return EXIT_FAILURE;
    }
    CHECK(cs_set_int(model, CS_PARAM_METHOD, CS_METHOD_COMMU_LLOYD));
    CHECK(cs_set_int(model, CS_PARAM_CLASSES, 2)); /* the number of communities */
    CHECK(cs_fit_graph(model, N_NODES, u, v, N_EDGES));

    CHECK(cs_labels(model, community, N_NODES));
    /* The edge densities under the communities found: the share of node pairs inside
     * a community that are linked, and of pairs across communities. */
    CHECK(cs_graph_densities(model, &within, &between));

    printf("node  community\n");
    for (i = 0; i < N_NODES; ++i) printf("%4zu  %9d\n", i, (int)community[i]);
    printf("within-community density %.4f, between-community density %.4f\n", within,
           between);

    cs_destroy(model);
    return EXIT_SUCCESS;
}
