// SPDX-License-Identifier: MIT
#include "mpi_world.hpp"

namespace cli {
namespace mpi {

namespace {

constexpr std::size_t kRound = std::size_t{1} << 28;  // bytes per pair and round

int as_int(std::size_t n) { return static_cast<int>(n); }

}  // namespace

void agree(const World &w, int code, const std::string &message) {
    // The lowest failing process: max of size - rank over the failing ones.
    int lowest = code != 0 ? w.size - w.rank : 0;
    MPI_Allreduce(MPI_IN_PLACE, &lowest, 1, MPI_INT, MPI_MAX, w.comm);
    if (lowest == 0) return;
    const int root = w.size - lowest;
    int64_t head[2] = {code, static_cast<int64_t>(message.size())};
    MPI_Bcast(head, 2, MPI_INT64_T, root, w.comm);
    std::string text = w.rank == root ? message : std::string(static_cast<std::size_t>(head[1]), '\0');
    if (head[1] > 0) MPI_Bcast(&text[0], as_int(text.size()), MPI_CHAR, root, w.comm);
    throw CliError(static_cast<int>(head[0]), text);
}

void all_to_all(const World &w, const std::vector<std::string> &out, std::string &in) {
    const std::size_t p = static_cast<std::size_t>(w.size);
    std::vector<uint64_t> send_total(p), recv_total(p);
    for (std::size_t d = 0; d < p; ++d) send_total[d] = out[d].size();
    MPI_Alltoall(send_total.data(), 1, MPI_UINT64_T, recv_total.data(), 1, MPI_UINT64_T, w.comm);
    uint64_t incoming = 0, longest = 0;
    for (std::size_t s = 0; s < p; ++s) {
        incoming += recv_total[s];
        longest = std::max({longest, recv_total[s], send_total[s]});
    }
    MPI_Allreduce(MPI_IN_PLACE, &longest, 1, MPI_UINT64_T, MPI_MAX, w.comm);
    in.assign(static_cast<std::size_t>(incoming), '\0');
    std::vector<std::size_t> recv_base(p, 0);
    for (std::size_t s = 1; s < p; ++s) recv_base[s] = recv_base[s - 1] + static_cast<std::size_t>(recv_total[s - 1]);
    std::vector<int> scount(p), sdispl(p), rcount(p), rdispl(p);
    std::string send, recv;
    for (uint64_t at = 0; at == 0 || at < longest; at += kRound) {
        // Round: bytes [at, at + kRound) of every pair's message.
        std::size_t sn = 0, rn = 0;
        for (std::size_t d = 0; d < p; ++d) {
            const std::size_t s_len = send_total[d] > at ? static_cast<std::size_t>(std::min<uint64_t>(kRound, send_total[d] - at)) : 0;
            const std::size_t r_len = recv_total[d] > at ? static_cast<std::size_t>(std::min<uint64_t>(kRound, recv_total[d] - at)) : 0;
            scount[d] = as_int(s_len);
            sdispl[d] = as_int(sn);
            rcount[d] = as_int(r_len);
            rdispl[d] = as_int(rn);
            sn += s_len;
            rn += r_len;
        }
        send.resize(sn);
        for (std::size_t d = 0; d < p; ++d)
            if (scount[d] > 0) out[d].copy(&send[static_cast<std::size_t>(sdispl[d])], static_cast<std::size_t>(scount[d]), static_cast<std::size_t>(at));
        recv.resize(rn);
        MPI_Alltoallv(send.data(), scount.data(), sdispl.data(), MPI_BYTE, &recv[0], rcount.data(), rdispl.data(),
                      MPI_BYTE, w.comm);
        for (std::size_t s = 0; s < p; ++s)
            if (rcount[s] > 0)
                std::copy(recv.begin() + rdispl[s], recv.begin() + rdispl[s] + rcount[s],
                          in.begin() + static_cast<std::ptrdiff_t>(recv_base[s] + static_cast<std::size_t>(at)));
        if (longest == 0) break;
    }
}

std::string all_gather(const World &w, const std::string &mine) {
    const std::size_t p = static_cast<std::size_t>(w.size);
    uint64_t size = mine.size();
    std::vector<uint64_t> sizes(p);
    MPI_Allgather(&size, 1, MPI_UINT64_T, sizes.data(), 1, MPI_UINT64_T, w.comm);
    std::vector<int> counts(p), displs(p);
    std::size_t total = 0;
    for (std::size_t r = 0; r < p; ++r) {
        counts[r] = as_int(static_cast<std::size_t>(sizes[r]));
        displs[r] = as_int(total);
        total += static_cast<std::size_t>(sizes[r]);
    }
    std::string all(total, '\0');
    MPI_Allgatherv(mine.data(), as_int(mine.size()), MPI_BYTE, &all[0], counts.data(), displs.data(), MPI_BYTE,
                   w.comm);
    return all;
}

uint64_t sum(const World &w, uint64_t value) {
    MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_UINT64_T, MPI_SUM, w.comm);
    return value;
}

void sum(const World &w, std::vector<uint64_t> &values) {
    MPI_Allreduce(MPI_IN_PLACE, values.data(), as_int(values.size()), MPI_UINT64_T, MPI_SUM, w.comm);
}

uint64_t exclusive_sum(const World &w, uint64_t value) {
    uint64_t before = 0;
    MPI_Exscan(&value, &before, 1, MPI_UINT64_T, MPI_SUM, w.comm);
    return w.rank == 0 ? 0 : before;
}

void broadcast(const World &w, std::string &text) {
    uint64_t size = text.size();
    MPI_Bcast(&size, 1, MPI_UINT64_T, 0, w.comm);
    text.resize(static_cast<std::size_t>(size));
    if (size > 0) MPI_Bcast(&text[0], as_int(text.size()), MPI_CHAR, 0, w.comm);
}

}  // namespace mpi
}  // namespace cli
