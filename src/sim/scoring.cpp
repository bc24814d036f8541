#include "sim/scoring.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace cs {
namespace sim {

std::vector<int32_t> hungarian_min_cost(const std::vector<double> &cost, int32_t n) {
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
