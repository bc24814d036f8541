// SPDX-License-Identifier: MIT
// Templates of mpi_world.hpp.
#pragma once

#include <algorithm>
#include <exception>
#include <new>

#include "common/errors.hpp"

namespace cli {
namespace mpi {

template <class F>
void run_phase(const World &w, int failure_code, F &&phase) {
    int code = 0;
    std::string message;
    try {
        phase();
    } catch (const CliError &e) {
        code = e.exit_code();
        message = e.what();
    } catch (const std::bad_alloc &) {
        code = failure_code;
        message = "out of memory";
    } catch (const std::exception &e) {
        code = failure_code;
        message = e.what();
    }
    agree(w, code, message);
}

template <class Sink>
void gather_to_first(const World &w, const std::string &mine, Sink &&sink) {
    constexpr std::size_t kPiece = std::size_t{1} << 26;  // 64 MB
    if (w.rank != 0) {
        uint64_t size = mine.size();
        MPI_Send(&size, 1, MPI_UINT64_T, 0, 1, w.comm);
        for (std::size_t at = 0; at < mine.size(); at += kPiece)
            MPI_Send(mine.data() + at, static_cast<int>(std::min(kPiece, mine.size() - at)), MPI_BYTE, 0, 2, w.comm);
        return;
    }
    std::exception_ptr failure;
    const auto deliver = [&](const char *data, std::size_t n) {
        if (failure) return;
        try {
            sink(data, n);
        } catch (...) {
            failure = std::current_exception();
        }
    };
    deliver(mine.data(), mine.size());
    std::string piece;
    for (int r = 1; r < w.size; ++r) {
        uint64_t size = 0;
        MPI_Recv(&size, 1, MPI_UINT64_T, r, 1, w.comm, MPI_STATUS_IGNORE);
        for (uint64_t at = 0; at < size; at += kPiece) {
            const std::size_t n = static_cast<std::size_t>(std::min<uint64_t>(kPiece, size - at));
            piece.resize(n);
            MPI_Recv(&piece[0], static_cast<int>(n), MPI_BYTE, r, 2, w.comm, MPI_STATUS_IGNORE);
            deliver(piece.data(), n);
        }
    }
    if (failure) std::rethrow_exception(failure);
}

}  // namespace mpi
}  // namespace cli
