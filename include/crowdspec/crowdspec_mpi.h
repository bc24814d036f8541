/* SPDX-License-Identifier: MIT */
/**
 * @file crowdspec_mpi.h
 * @brief crowdspec over MPI: one crowd fit across the processes of a communicator
 *        (libcrowdspec_mpi, pkg-config crowdspec-mpi).
 *
 * Each process holds the labels of its own items; cs_fit_mpi() runs the fit of the
 * union of all processes' labels. Every EM round all-reduces what the single-process
 * fit sums over items -- the per-worker count tables (n_workers x k x k doubles), the
 * class mass and the log-likelihood -- and so do the majority-vote start, the Opt-D&S
 * moments and worker groups, and the naming of the spectral classes. Each process ends
 * with the same confusion matrices, class prior and trace, and the posteriors of its
 * own items.
 *
 * The handle is an ordinary ::cs_model from crowdspec.h: set its parameters (the same
 * on every process), call cs_fit_mpi() on every process, then read the results with the
 * usual getters. cs_n_items(), cs_labels() and cs_posteriors() cover this process's
 * items, in increasing global id; cs_mpi_items() gives those ids.
 *
 * @par Exactness
 * With one process the fit is cs_fit() of the same labels, bit for bit. With several,
 * the sums over items are formed in a different order (per process, then across
 * processes), so posteriors, confusion matrices and the log-likelihood agree with the
 * single-process fit to rounding (within 1e-10 on the test suite's crowds), with the
 * same iteration count and the same hard labels except where two classes' posteriors
 * tie within that rounding. Integer sums are exact for any process count: the Opt-D&S
 * moments, the worker label counts and signatures (so the worker groups and starts are
 * the same), the item counts. Any one process count gives the same result on every run,
 * and every process holds bit-identical parameters at every step (the library checks
 * this at the end of the fit).
 *
 * @par Requirements
 * MPI must be initialised (MPI_Init or MPI_Init_thread; with ::CS_PARAM_THREADS other
 * than 1, MPI_THREAD_FUNNELED is enough: only the calling thread communicates). All
 * processes must run the same build of crowdspec on machines that compute floating
 * point alike. libcrowdspec_mpi checks at run time that it runs with the libcrowdspec of
 * its own version.
 */
#ifndef CROWDSPEC_MPI_H
#define CROWDSPEC_MPI_H

#include <mpi.h>

#include "crowdspec.h"

/** @cond INTERNAL */
#if defined(_WIN32) && !defined(CS_STATIC)
#  if defined(CS_BUILDING_MPI_LIBRARY)
#    define CS_MPI_API __declspec(dllexport)
#  else
#    define CS_MPI_API __declspec(dllimport)
#  endif
#elif defined(__GNUC__) || defined(__clang__)
#  define CS_MPI_API __attribute__((visibility("default")))
#else
#  define CS_MPI_API
#endif
/** @endcond */

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief Fit crowd labels spread over the processes of `comm`, each process holding the
 *        labels of its own items. Collective: every process of `comm` calls it.
 *
 * Every label of an item must be on one process (the one that holds the item); item
 * ids are global, 0 .. n_items - 1 of the whole problem, and worker ids and labels are
 * the same on every process. n_items, n_workers and k are ::CS_PARAM_ITEMS,
 * ::CS_PARAM_WORKERS and ::CS_PARAM_CLASSES when set, else the largest id (label) + 1
 * over all processes. Item ids that no process has labels for are items without
 * labels, as in cs_fit(): they are held by process 0 (their posterior is the prior).
 * A process may have no labels at all (n_local = 0; the arrays may then be NULL).
 *
 * Gold (cs_set_gold()) is per process: each handle carries the gold classes of its own
 * items (an item with a gold class and no labels is held by the process that gives the
 * gold). Every other setting -- parameters except ::CS_PARAM_THREADS, and the warm start
 * of cs_set_initial_confusion() / cs_set_initial_prior() -- must be the same on every
 * process, or the fit fails on all of them with ::CS_ERR_INVALID_ARGUMENT naming the
 * setting. The progress callback (cs_set_progress()) of each process is called at every
 * iteration; the fit stops (::CS_ERR_CANCELLED, on every process, results kept) when
 * any process's callback asks.
 *
 * Methods: ::CS_METHOD_MV, ::CS_METHOD_DS, ::CS_METHOD_OPT_DS, ::CS_METHOD_ONE_COIN_DS
 * and ::CS_METHOD_CLASS_ONE_COIN_DS, with every confusion model, prior, support and
 * acceleration option (see cs_mpi_supports()). Any other crowd method is
 * ::CS_ERR_INVALID_ARGUMENT; a points or graph method ::CS_ERR_WRONG_INPUT_KIND.
 *
 * When a process fails (invalid input there, out of memory), every process returns an
 * error: the failing process its own status and message, the others the status of the
 * lowest failing process and its message prefixed by "process N: ". No process is left
 * waiting. A failure of MPI itself is ::CS_ERR_INTERNAL with MPI's message.
 *
 * The library communicates on a duplicate of `comm` (MPI_Comm_dup), so the fit never
 * mixes with the caller's messages; the arrays are only read.
 *
 * @param model The handle (one per process).
 * @param comm The communicator of the processes taking part.
 * @param item Global item ids of this process's labels, each >= 0 (and < ::CS_PARAM_ITEMS
 *        when set).
 * @param worker Worker ids, each >= 0.
 * @param label Labels, each in [0, k).
 * @param n_local Number of triples on this process (0 allowed).
 * @return ::CS_OK; ::CS_ERR_NULL_HANDLE; ::CS_ERR_NULL_POINTER (n_local > 0 and an array
 *         is NULL); ::CS_ERR_EMPTY_INPUT (no labels on any process); ::CS_ERR_INVALID_ID;
 *         ::CS_ERR_INVALID_LABEL; ::CS_ERR_TOO_FEW_CLASSES; ::CS_ERR_DUPLICATE;
 *         ::CS_ERR_INVALID_ARGUMENT (an item on two processes, settings that differ
 *         between processes, an unsupported method, MPI not initialised, a library
 *         version mismatch); ::CS_ERR_WRONG_INPUT_KIND; ::CS_ERR_CANCELLED;
 *         ::CS_ERR_OUT_OF_MEMORY; ::CS_ERR_INTERNAL (MPI failed). cs_last_error()
 *         explains.
 */
CS_MPI_API cs_status cs_fit_mpi(cs_model *model, MPI_Comm comm, const int32_t *item,
                                const int32_t *worker, const int32_t *label, size_t n_local);

/**
 * @brief The global ids of this process's items after cs_fit_mpi(): entry j is the id
 *        of row j of cs_labels() and cs_posteriors(), in increasing order.
 * @param model The handle.
 * @param[out] items Receives cs_n_items() ids.
 * @param capacity Capacity of `items` in elements.
 * @return ::CS_OK; ::CS_ERR_NULL_HANDLE; ::CS_ERR_NULL_POINTER; ::CS_ERR_NOT_FITTED (the
 *         last fit was not a cs_fit_mpi() fit); ::CS_ERR_BUFFER_TOO_SMALL.
 */
CS_MPI_API cs_status cs_mpi_items(const cs_model *model, int32_t *items, size_t capacity);

/**
 * @brief The number of items of the whole problem after cs_fit_mpi() (the sum over the
 *        processes of cs_n_items()).
 * @param model The handle.
 * @param[out] n Receives the count.
 * @return ::CS_OK; ::CS_ERR_NULL_HANDLE; ::CS_ERR_NULL_POINTER; ::CS_ERR_NOT_FITTED.
 */
CS_MPI_API cs_status cs_mpi_total_items(const cs_model *model, size_t *n);

/**
 * @brief Whether cs_fit_mpi() fits a method.
 * @param method A ::cs_method.
 * @return 1 for ::CS_METHOD_MV, ::CS_METHOD_DS, ::CS_METHOD_OPT_DS,
 *         ::CS_METHOD_ONE_COIN_DS and ::CS_METHOD_CLASS_ONE_COIN_DS; 0 otherwise.
 */
CS_MPI_API int32_t cs_mpi_supports(int32_t method);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* CROWDSPEC_MPI_H */
