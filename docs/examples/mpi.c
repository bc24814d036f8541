/* SPDX-License-Identifier: MIT */
/* mpi.c -- one crowd fit across the processes of an MPI job (cs_fit_mpi).
 *
 * The 5 items and 20 labels of basic.c, each process holding the labels of its own
 * items (item j is on process j % size). Every process ends with the same workers and
 * the posteriors of its items -- the fit of all 20 labels.
 *
 * Build against an installed crowdspec built with -DCS_MPI=ON, then run:
 *     mpicc mpi.c $(pkg-config --cflags --libs crowdspec-mpi) -o mpi_example
 *     mpiexec -n 2 ./mpi_example
 */
#include <stdio.h>
#include <stdlib.h>

#include <crowdspec/crowdspec_mpi.h>

enum { N_LABELS = 20, N_CLASSES = 3, N_WORKERS = 4 };

static int failed(cs_model *model, const char *call, cs_status status) {
    fprintf(stderr, "%s: %s: %s\n", call, cs_status_string(status), cs_last_error(model));
    return 1;
}

int main(int argc, char **argv) {
    static const int32_t item[N_LABELS] = {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4};
    static const int32_t worker[N_LABELS] = {0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3};
    static const int32_t label[N_LABELS] = {1, 1, 1, 1, 2, 2, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 1};
    int32_t my_item[N_LABELS], my_worker[N_LABELS], my_label[N_LABELS];
    int32_t ids[N_LABELS], labels[N_LABELS];
    double posteriors[N_LABELS * N_CLASSES], confusion[N_WORKERS * N_CLASSES * N_CLASSES];
    size_t n = 0, n_items = 0, total = 0, t, j;
    int rank, size, r, bad = 0;
    cs_status status;
    cs_model *model;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* This process's labels: those of its own items. */
    for (t = 0; t < N_LABELS; ++t)
        if (item[t] % size == rank) {
            my_item[n] = item[t]; /* global item ids */
            my_worker[n] = worker[t];
            my_label[n] = label[t];
            ++n;
        }

    model = cs_create(); /* the same parameters on every process: here the defaults */
    if (model == NULL) MPI_Abort(MPI_COMM_WORLD, 1);
    /* Collective: every process calls it; on an error anywhere all of them fail. */
    status = cs_fit_mpi(model, MPI_COMM_WORLD, my_item, my_worker, my_label, n);
    if (status != CS_OK) bad = failed(model, "cs_fit_mpi", status);
    if (!bad && (status = cs_n_items(model, &n_items)) != CS_OK) bad = failed(model, "cs_n_items", status);
    if (!bad && (status = cs_mpi_total_items(model, &total)) != CS_OK) bad = failed(model, "cs_mpi_total_items", status);
    if (!bad && n_items > 0) {
        /* Rows of this process's items, in increasing global id; cs_mpi_items names them. */
        if ((status = cs_mpi_items(model, ids, N_LABELS)) != CS_OK) bad = failed(model, "cs_mpi_items", status);
        else if ((status = cs_labels(model, labels, N_LABELS)) != CS_OK) bad = failed(model, "cs_labels", status);
        else if ((status = cs_posteriors(model, posteriors, N_LABELS * N_CLASSES)) != CS_OK)
            bad = failed(model, "cs_posteriors", status);
    }
    /* The workers are the same on every process. */
    if (!bad && (status = cs_confusion(model, confusion, N_WORKERS * N_CLASSES * N_CLASSES)) != CS_OK)
        bad = failed(model, "cs_confusion", status);

    /* Print process by process. */
    for (r = 0; r < size; ++r) {
        MPI_Barrier(MPI_COMM_WORLD);
        if (r != rank || bad) continue;
        if (rank == 0) printf("%zu items over %d processes\nprocess  item  label  posterior\n", total, size);
        for (j = 0; j < n_items; ++j)
            printf("%7d  %4d  %5d  %.3f %.3f %.3f\n", rank, (int)ids[j], (int)labels[j], posteriors[j * N_CLASSES],
                   posteriors[j * N_CLASSES + 1], posteriors[j * N_CLASSES + 2]);
        fflush(stdout);
    }
    cs_destroy(model);
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Finalize();
    return bad ? EXIT_FAILURE : EXIT_SUCCESS;
}
