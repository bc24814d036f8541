// SPDX-License-Identifier: MIT
// The MPI side of crowdspec-mpi: the processes, agreement on failures (every phase
// ends with one, so a problem on one process stops all of them with one message and
// one exit code), and the exchanges of byte buffers the reader and writer use.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cli {
namespace mpi {

struct World {
    MPI_Comm comm = MPI_COMM_WORLD;
    int rank = 0;
    int size = 1;
};

/// After a phase: `code` 0 (this process succeeded) or an exit code with `message`.
/// When any process failed, every process throws CliError with the code and message
/// of the lowest failing process (which is then the one rank 0 prints).
void agree(const World &w, int code, const std::string &message);

/// Runs `phase` on every process and agrees on its outcome: a CliError (or any other
/// exception) on one process becomes the same CliError on all. `failure_code` is the
/// exit code of exceptions that are not CliErrors.
template <class F>
void run_phase(const World &w, int failure_code, F &&phase);

/// Every process sends out[d] (bytes) to process d and receives what each process
/// sent it, concatenated in process order into `in`. Exchanged in rounds of at most
/// 256 MB per pair, so sizes beyond MPI's int counts work.
void all_to_all(const World &w, const std::vector<std::string> &out, std::string &in);

/// Every process's bytes, concatenated in process order, on every process.
std::string all_gather(const World &w, const std::string &mine);

/// Sum / max over the processes.
uint64_t sum(const World &w, uint64_t value);
void sum(const World &w, std::vector<uint64_t> &values);
/// The sum over the processes before this one (0 on process 0).
uint64_t exclusive_sum(const World &w, uint64_t value);

/// Rank 0's string on every process.
void broadcast(const World &w, std::string &text);

/// Rank 0 receives each other process's bytes in process order, in pieces, and hands
/// every piece to `sink` (rank 0's own bytes first). Other processes only send.
/// `sink` may throw: the remaining pieces are still received (and dropped), so no
/// process is left sending, and the exception is rethrown afterwards.
template <class Sink>
void gather_to_first(const World &w, const std::string &mine, Sink &&sink);

}  // namespace mpi
}  // namespace cli

#include "mpi_world_impl.hpp"
