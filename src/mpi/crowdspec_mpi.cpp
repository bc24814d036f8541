// SPDX-License-Identifier: MIT
// libcrowdspec_mpi: the MPI transport of a distributed crowd fit. The fit itself is in
// libcrowdspec (src/api/distributed.cpp), which knows nothing of MPI; this library
// gives it four collectives on a private duplicate of the caller's communicator.
#include "crowdspec/crowdspec_mpi.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <new>
#include <vector>

#include "api/distributed.h"

namespace {

struct MpiContext {
    MPI_Comm comm = MPI_COMM_NULL;
    int rank = 0;
    int size = 1;
    char error[MPI_MAX_ERROR_STRING + 64] = {};
};

// MPI counts are int: long arrays go in pieces (2^26 elements, 512 MB of doubles).
constexpr std::size_t kPiece = std::size_t{1} << 26;
// Below this many doubles a sum is reduced onto process 0 and broadcast (latency);
// above, reduced in blocks, one per process, and gathered (bandwidth, as a ring
// all-reduce). Either way each entry is summed once, on one process, and its bytes are
// copied to the others: every process gets the same result, which a plain
// MPI_Allreduce does not promise for floating point.
constexpr std::size_t kSmallSum = 8192;

int max_i64(void *context, int64_t *values, std::size_t n) {
    auto *c = static_cast<MpiContext *>(context);
    for (std::size_t at = 0; at < n; at += kPiece) {
        const int count = static_cast<int>(std::min(kPiece, n - at));
        if (int rc = MPI_Allreduce(MPI_IN_PLACE, values + at, count, MPI_INT64_T, MPI_MAX, c->comm)) return rc;
    }
    return 0;
}

int sum_u64(void *context, uint64_t *values, std::size_t n) {
    auto *c = static_cast<MpiContext *>(context);
    for (std::size_t at = 0; at < n; at += kPiece) {  // integer sums: the same in any order
        const int count = static_cast<int>(std::min(kPiece, n - at));
        if (int rc = MPI_Allreduce(MPI_IN_PLACE, values + at, count, MPI_UINT64_T, MPI_SUM, c->comm)) return rc;
    }
    return 0;
}

int sum_small(MpiContext *c, double *values, int count) {
    if (int rc = MPI_Reduce(c->rank == 0 ? MPI_IN_PLACE : values, values, count, MPI_DOUBLE, MPI_SUM, 0, c->comm))
        return rc;
    return MPI_Bcast(values, count, MPI_DOUBLE, 0, c->comm);
}

int sum_f64(void *context, double *values, std::size_t n) {
    auto *c = static_cast<MpiContext *>(context);
    if (c->size == 1) return 0;
    const std::size_t processes = static_cast<std::size_t>(c->size);
    const std::size_t piece = kPiece / processes * processes;
    std::vector<double> buffer;
    for (std::size_t at = 0; at < n; at += piece) {
        const std::size_t len = std::min(piece, n - at);
        if (len < kSmallSum) {
            if (int rc = sum_small(c, values + at, static_cast<int>(len))) return rc;
            continue;
        }
        // Blocks of `block` entries, process r summing block r, then everyone's blocks
        // gathered; the tail padded with zeros.
        const std::size_t block = (len + processes - 1) / processes;
        try {
            buffer.assign(block * processes, 0.0);
        } catch (const std::bad_alloc &) {
            return MPI_ERR_NO_MEM;
        }
        std::copy(values + at, values + at + len, buffer.begin());
        const int b = static_cast<int>(block);
        if (int rc = MPI_Reduce_scatter_block(MPI_IN_PLACE, buffer.data(), b, MPI_DOUBLE, MPI_SUM, c->comm))
            return rc;
        std::copy(buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(block),
                  buffer.begin() + static_cast<std::ptrdiff_t>(block * static_cast<std::size_t>(c->rank)));
        if (int rc = MPI_Allgather(MPI_IN_PLACE, b, MPI_DOUBLE, buffer.data(), b, MPI_DOUBLE, c->comm)) return rc;
        std::copy(buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(len), values + at);
    }
    return 0;
}

int broadcast(void *context, void *bytes, std::size_t n, int32_t root) {
    auto *c = static_cast<MpiContext *>(context);
    for (std::size_t at = 0; at < n; at += kPiece) {
        const int count = static_cast<int>(std::min(kPiece, n - at));
        if (int rc = MPI_Bcast(static_cast<char *>(bytes) + at, count, MPI_BYTE, root, c->comm)) return rc;
    }
    return 0;
}

const char *error_text(void *context, int code) {
    auto *c = static_cast<MpiContext *>(context);
    char text[MPI_MAX_ERROR_STRING] = {};
    int length = 0;
    if (code == MPI_ERR_NO_MEM || MPI_Error_string(code, text, &length) != MPI_SUCCESS)
        std::snprintf(c->error, sizeof c->error, "MPI error %d", code);
    else
        std::snprintf(c->error, sizeof c->error, "MPI: %s", text);
    return c->error;
}

}  // namespace

extern "C" {

CS_MPI_API cs_status cs_fit_mpi(cs_model *model, MPI_Comm comm, const int32_t *item, const int32_t *worker,
                                const int32_t *label, size_t n_local) {
    if (model == nullptr) return CS_ERR_NULL_HANDLE;
    // The fit is in libcrowdspec, through functions private to this pair of libraries:
    // they must be from the same build.
    if (cs_version_number() != CS_VERSION_NUMBER) {
        char message[160];
        std::snprintf(message, sizeof message,
                      "cs_fit_mpi: libcrowdspec_mpi %d.%d.%d runs with libcrowdspec %s; both must be the same version",
                      CS_VERSION_MAJOR, CS_VERSION_MINOR, CS_VERSION_PATCH, cs_version_string());
        return cs_private_fail(model, CS_ERR_INVALID_ARGUMENT, message);
    }
    int initialised = 0, finalised = 0;
    MPI_Initialized(&initialised);
    MPI_Finalized(&finalised);
    if (!initialised || finalised)
        return cs_private_fail(model, CS_ERR_INVALID_ARGUMENT,
                               finalised ? "cs_fit_mpi: MPI is already finalised"
                                         : "cs_fit_mpi: MPI is not initialised (call MPI_Init first)");
    if (comm == MPI_COMM_NULL)
        return cs_private_fail(model, CS_ERR_INVALID_ARGUMENT, "cs_fit_mpi: the communicator is MPI_COMM_NULL");
    MpiContext context;
    if (int rc = MPI_Comm_dup(comm, &context.comm))
        return cs_private_fail(model, CS_ERR_INTERNAL, error_text(&context, rc));
    MPI_Comm_set_errhandler(context.comm, MPI_ERRORS_RETURN);
    MPI_Comm_rank(context.comm, &context.rank);
    MPI_Comm_size(context.comm, &context.size);
    cs_private_transport transport;
    transport.abi = CS_PRIVATE_TRANSPORT_ABI;
    transport.rank = context.rank;
    transport.size = context.size;
    transport.context = &context;
    transport.max_i64 = max_i64;
    transport.sum_f64 = sum_f64;
    transport.sum_u64 = sum_u64;
    transport.broadcast = broadcast;
    transport.error_text = error_text;
    const cs_status status = cs_private_fit_distributed(model, &transport, item, worker, label, n_local);
    MPI_Comm_free(&context.comm);
    return status;
}

CS_MPI_API cs_status cs_mpi_items(const cs_model *model, int32_t *items, size_t capacity) {
    return cs_private_item_ids(model, items, capacity);
}

CS_MPI_API cs_status cs_mpi_total_items(const cs_model *model, size_t *n) {
    return cs_private_total_items(model, n);
}

CS_MPI_API int32_t cs_mpi_supports(int32_t method) { return cs_private_supports(method); }

}  // extern "C"
