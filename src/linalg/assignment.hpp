// SPDX-License-Identifier: MIT
// Optimal assignment (linear sum assignment) of a small square matrix: the
// Hungarian algorithm. The library names classes found up to a permutation with it
// (crowd/spectral/class_identification.hpp); the scoring of clusterings (sim/scoring.hpp)
// matches predicted clusters to true classes with it. Header-only (inline) so that
// the internal simulator library and the core library share one definition.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

namespace cs {

/// Minimum-cost perfect matching of a square n x n cost matrix (row-major): returns
/// column[row]. Hungarian algorithm with potentials (shortest augmenting paths), O(n^3).
/// Throws std::invalid_argument when cost is not n x n.
inline std::vector<int32_t> hungarian_min_cost(const std::vector<double> &cost, int32_t n) {
    if (n < 0 || cost.size() != static_cast<std::size_t>(n) * static_cast<std::size_t>(n))
        throw std::invalid_argument("hungarian_min_cost: cost must be n x n");
    const double inf = std::numeric_limits<double>::infinity();
    // 1-based rows and columns; column 0 is the virtual start of each augmenting path.
    // row_of[j]: the row matched to column j; u, v: the dual potentials.
    std::vector<double> u(static_cast<std::size_t>(n) + 1, 0.0), v(u.size(), 0.0), slack(u.size());
    std::vector<int32_t> row_of(u.size(), 0), previous(u.size(), 0);
    std::vector<char> visited(u.size());
    const auto a = [&](int32_t i, int32_t j) { return cost[static_cast<std::size_t>(i - 1) * n + (j - 1)]; };
    for (int32_t i = 1; i <= n; ++i) {
        // Grow a tree of tight edges from row i until it reaches a free column.
        row_of[0] = i;
        int32_t j0 = 0;
        std::fill(slack.begin(), slack.end(), inf);
        std::fill(visited.begin(), visited.end(), 0);
        do {
            visited[j0] = 1;
            const int32_t i0 = row_of[j0];
            double delta = inf;
            int32_t j1 = 0;
            for (int32_t j = 1; j <= n; ++j) {
                if (visited[j]) continue;
                const double reduced = a(i0, j) - u[i0] - v[j];
                if (reduced < slack[j]) {
                    slack[j] = reduced;
                    previous[j] = j0;
                }
                if (slack[j] < delta) {
                    delta = slack[j];
                    j1 = j;
                }
            }
            for (int32_t j = 0; j <= n; ++j) {
                if (visited[j]) {
                    u[row_of[j]] += delta;
                    v[j] -= delta;
                } else {
                    slack[j] -= delta;
                }
            }
            j0 = j1;
        } while (row_of[j0] != 0);
        // Flip the augmenting path back to the start.
        do {
            const int32_t j1 = previous[j0];
            row_of[j0] = row_of[j1];
            j0 = j1;
        } while (j0 != 0);
    }
    std::vector<int32_t> column(static_cast<std::size_t>(n), -1);
    for (int32_t j = 1; j <= n; ++j)
        if (row_of[j] > 0) column[row_of[j] - 1] = j - 1;
    return column;
}

/// The permutation that maximises sum_l score[l][sigma(l)] (row-major k x k): sigma[l].
inline std::vector<int32_t> max_score_assignment(const std::vector<double> &score, int32_t k) {
    std::vector<double> cost(score.size());
    for (std::size_t e = 0; e < score.size(); ++e) cost[e] = -score[e];
    return hungarian_min_cost(cost, k);
}

}  // namespace cs
