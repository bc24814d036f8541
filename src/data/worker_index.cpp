// SPDX-License-Identifier: MIT
#include "data/worker_index.hpp"

namespace cs {

WorkerIndex WorkerIndex::build(const CrowdData &data) {
    const int32_t m = data.n_workers;
    const int64_t labels = static_cast<int64_t>(data.n_labels());
    WorkerIndex w;
    w.start.assign(static_cast<std::size_t>(m) + 1, 0);
    for (int64_t p = 0; p < labels; ++p) ++w.start[data.worker_of(p) + 1];
    for (int32_t i = 0; i < m; ++i) w.start[i + 1] += w.start[i];
    w.position.resize(static_cast<std::size_t>(labels));
    w.item.resize(static_cast<std::size_t>(labels));
    std::vector<int64_t> next(w.start.begin(), w.start.end() - 1);
    for (int32_t j = 0; j < data.n_items; ++j)
        for (int64_t p = data.item_start[j]; p < data.item_start[j + 1]; ++p) {
            const int64_t q = next[data.worker_of(p)]++;
            w.position[q] = p;
            w.item[q] = j;
        }
    return w;
}

}  // namespace cs
