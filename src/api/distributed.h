/* SPDX-License-Identifier: MIT */
/*
 * The private interface between libcrowdspec and libcrowdspec_mpi (cs_fit_mpi,
 * include/crowdspec/crowdspec_mpi.h). Not installed and not part of the public API:
 * the functions are exported under the version node CS_PRIVATE (src/crowdspec.map)
 * only so that the MPI library, built from the same sources, can call them, and it
 * checks at run time that it runs with the libcrowdspec of its own version. The core
 * library knows nothing of MPI: a distributed fit gets its sums through the transport
 * below (function pointers), which libcrowdspec_mpi implements with MPI collectives.
 */
#ifndef CROWDSPEC_DISTRIBUTED_H
#define CROWDSPEC_DISTRIBUTED_H

#include "crowdspec/crowdspec.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Layout version of cs_private_transport; bumped with any change to it. */
#define CS_PRIVATE_TRANSPORT_ABI 1

/**
 * Collective operations over the processes of one fit. Every function is called by
 * every process in the same order with the same n; it works in place, returns 0 on
 * success or a non-zero code (explained by error_text), and leaves bit-identical
 * results on every process (a sum formed once and distributed, never summed in a
 * different order on different processes).
 */
typedef struct cs_private_transport {
    uint32_t abi;   /**< CS_PRIVATE_TRANSPORT_ABI */
    int32_t rank;   /**< this process, 0 .. size - 1 */
    int32_t size;   /**< number of processes */
    void *context;  /**< passed to every function */
    int (*max_i64)(void *context, int64_t *values, size_t n);
    int (*sum_f64)(void *context, double *values, size_t n);
    int (*sum_u64)(void *context, uint64_t *values, size_t n); /**< modulo 2^64 */
    int (*broadcast)(void *context, void *bytes, size_t n, int32_t root);
    const char *(*error_text)(void *context, int code); /**< text of a non-zero code */
} cs_private_transport;

/**
 * cs_fit() of the union of every process's labels, each process holding the labels of
 * its own items (global ids): see cs_fit_mpi() in crowdspec_mpi.h for the contract.
 * Collective. On a failure on any process every process returns an error (the
 * processes that did not fail themselves return the status of the lowest process that
 * did, with its message prefixed by "process N: ").
 */
CS_API cs_status cs_private_fit_distributed(cs_model *model, const cs_private_transport *transport,
                                            const int32_t *item, const int32_t *worker,
                                            const int32_t *label, size_t n_local);

/** Global ids of the item rows of the last distributed fit (cs_mpi_items()). */
CS_API cs_status cs_private_item_ids(const cs_model *model, int32_t *ids, size_t capacity);

/** Items of the whole problem of the last distributed fit (cs_mpi_total_items()). */
CS_API cs_status cs_private_total_items(const cs_model *model, size_t *n);

/** Clear the handle's results and make `message` its cs_last_error(); returns status. */
CS_API cs_status cs_private_fail(cs_model *model, cs_status status, const char *message);

/** Whether the distributed fit supports a method (cs_mpi_supports()): 1 or 0. */
CS_API int32_t cs_private_supports(int32_t method);

#ifdef __cplusplus
}
#endif

#endif /* CROWDSPEC_DISTRIBUTED_H */
