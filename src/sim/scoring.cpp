// SPDX-License-Identifier: MIT
#include "sim/scoring.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace cs {
namespace sim {

Misclustering misclustering_rate(const int32_t *predicted, const int32_t *truth, std::size_t n,
                                 int32_t k_pred, int32_t k_true) {
    if (k_pred < 1 || k_true < 1) throw std::invalid_argument("misclustering_rate: k must be >= 1");
    const int32_t m = std::max(k_pred, k_true);
    // Contingency table, padded to m x m.
    std::vector<int64_t> table(static_cast<std::size_t>(m) * m, 0);
    Misclustering out;
    for (std::size_t i = 0; i < n; ++i) {
        if (predicted[i] < 0 || truth[i] < 0) continue;
        if (predicted[i] >= k_pred || truth[i] >= k_true)
            throw std::invalid_argument("misclustering_rate: a label is out of range");
        ++table[static_cast<std::size_t>(predicted[i]) * m + truth[i]];
        ++out.scored;
    }
    // Maximise the matched count = minimise its negation.
    std::vector<double> cost(table.size());
    for (std::size_t e = 0; e < table.size(); ++e) cost[e] = -static_cast<double>(table[e]);
    const std::vector<int32_t> column = hungarian_min_cost(cost, m);
    int64_t matched = 0;
    out.mapping.assign(static_cast<std::size_t>(k_pred), -1);
    for (int32_t g = 0; g < k_pred; ++g) {
        const int32_t c = column[g];
        if (c >= 0 && c < k_true) {
            out.mapping[g] = c;
            matched += table[static_cast<std::size_t>(g) * m + c];
        }
    }
    out.errors = out.scored - matched;
    out.rate = out.scored > 0 ? static_cast<double>(out.errors) / static_cast<double>(out.scored) : 0.0;
    return out;
}

}  // namespace sim
}  // namespace cs
