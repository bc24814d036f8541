// SPDX-License-Identifier: MIT
// Optimal assignment (linear sum assignment) of a square or n x m matrix: the
// Hungarian algorithm. The library names classes found up to a permutation with it
// (crowd/spectral/class_identification.hpp); the scoring of clusterings (sim/scoring.hpp)
// matches predicted clusters to true classes with it. Header-only (inline) so that
// the internal simulator library and the core library share one definition.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <stdexcept>
#include <vector>

namespace cs {

/// Minimum-cost matching of every row of an n x m cost matrix (row-major, n <= m) to
/// distinct columns: returns column[row]. Hungarian algorithm with potentials (shortest
/// augmenting paths), O(n^2 m). `after_row`, when given, is called after each row with
/// the steps it took (a cancellation poll). Throws std::invalid_argument when cost is
/// not n x m or n > m, and whatever after_row throws.
inline std::vector<int32_t> hungarian_min_cost_rows(const std::vector<double> &cost, int32_t n, int32_t m,
                                                    const std::function<void(int64_t)> &after_row = nullptr) {
    if (n < 0 || m < n || cost.size() != static_cast<std::size_t>(n) * static_cast<std::size_t>(m))
        throw std::invalid_argument("hungarian_min_cost: cost must be n x m with n <= m");
    const double inf = std::numeric_limits<double>::infinity();
    // 1-based rows and columns; column 0 is the virtual start of each augmenting path.
    // row_of[j]: the row matched to column j; u (rows), v (columns): the dual potentials.
    std::vector<double> u(static_cast<std::size_t>(n) + 1, 0.0), v(static_cast<std::size_t>(m) + 1, 0.0),
        slack(v.size());
    std::vector<int32_t> row_of(v.size(), 0), previous(v.size(), 0);
    std::vector<char> visited(v.size());
    const auto a = [&](int32_t i, int32_t j) { return cost[static_cast<std::size_t>(i - 1) * m + (j - 1)]; };
    for (int32_t i = 1; i <= n; ++i) {
        // Grow a tree of tight edges from row i until it reaches a free column.
        row_of[0] = i;
        int32_t j0 = 0;
        std::fill(slack.begin(), slack.end(), inf);
        std::fill(visited.begin(), visited.end(), 0);
        int64_t steps = 0;
        do {
            steps += m;
            visited[j0] = 1;
            const int32_t i0 = row_of[j0];
            double delta = inf;
            int32_t j1 = 0;
            for (int32_t j = 1; j <= m; ++j) {
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
            for (int32_t j = 0; j <= m; ++j) {
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
        if (after_row) after_row(steps);
    }
    std::vector<int32_t> column(static_cast<std::size_t>(n), -1);
    for (int32_t j = 1; j <= m; ++j)
        if (row_of[j] > 0) column[row_of[j] - 1] = j - 1;
    return column;
}

/// Minimum-cost perfect matching of a square n x n cost matrix (row-major): returns
/// column[row]. O(n^3). Throws std::invalid_argument when cost is not n x n.
inline std::vector<int32_t> hungarian_min_cost(const std::vector<double> &cost, int32_t n,
                                               const std::function<void(int64_t)> &after_row = nullptr) {
    if (n < 0 || cost.size() != static_cast<std::size_t>(n) * static_cast<std::size_t>(n))
        throw std::invalid_argument("hungarian_min_cost: cost must be n x n");
    return hungarian_min_cost_rows(cost, n, n, after_row);
}

/// The permutation that maximises sum_l score[l][sigma(l)] (row-major k x k): sigma[l].
/// Columns that are all zero (label classes nobody gave, when the declared k exceeds
/// the classes observed) add nothing to any assignment: only the m other columns are
/// matched, in O(m^2 k) instead of O(k^3) (issue 40: k = 3000 with 5 labels took over a
/// minute), and the estimated classes left over take the free classes -- their own
/// when free, else the lowest free ones, in class order. With every column in use this
/// is the square matching itself.
inline std::vector<int32_t> max_score_assignment(const std::vector<double> &score, int32_t k,
                                                 const std::function<void(int64_t)> &after_row = nullptr) {
    std::vector<int32_t> active;  // label classes with a non-zero score
    for (int32_t c = 0; c < k; ++c)
        for (int32_t l = 0; l < k; ++l)
            if (score[static_cast<std::size_t>(l) * k + c] != 0.0) {
                active.push_back(c);
                break;
            }
    const int32_t m = static_cast<int32_t>(active.size());
    if (m == k) {
        std::vector<double> cost(score.size());
        for (std::size_t e = 0; e < score.size(); ++e) cost[e] = -score[e];
        return hungarian_min_cost(cost, k, after_row);
    }
    // Rows: the active label classes; columns: the estimated classes.
    std::vector<double> cost(static_cast<std::size_t>(m) * k);
    for (int32_t r = 0; r < m; ++r)
        for (int32_t l = 0; l < k; ++l)
            cost[static_cast<std::size_t>(r) * k + l] = -score[static_cast<std::size_t>(l) * k + active[r]];
    const std::vector<int32_t> estimated = hungarian_min_cost_rows(cost, m, k, after_row);
    std::vector<int32_t> sigma(static_cast<std::size_t>(k), -1);
    std::vector<char> taken(static_cast<std::size_t>(k), 0);
    for (int32_t r = 0; r < m; ++r) {
        sigma[estimated[r]] = active[r];
        taken[active[r]] = 1;
    }
    for (int32_t l = 0; l < k; ++l)
        if (sigma[l] < 0 && !taken[l]) {
            sigma[l] = l;
            taken[l] = 1;
        }
    int32_t next = 0;
    for (int32_t l = 0; l < k; ++l) {
        if (sigma[l] >= 0) continue;
        while (taken[next]) ++next;
        sigma[l] = next;
        taken[next] = 1;
    }
    return sigma;
}

}  // namespace cs
