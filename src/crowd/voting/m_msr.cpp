// SPDX-License-Identifier: MIT
// M-MSR, after Ma and Olshevsky, "Adversarial crowdsourcing through robust rank-one
// matrix completion" (NeurIPS 2020). Under the one-coin model with accuracies p_i and
// skills s_i = (k p_i - 1) / (k - 1), two workers agree on an item with probability
// (1 + (k - 1) s_i s_i') / k, so the rescaled agreement rate
//     C_ii' = (k a_ii' / n_ii' - 1) / (k - 1)   (a agreements on n shared items)
// has expectation s_i s_i': a rank-one matrix observed on the worker pairs that share an
// item. Steps:
//  1. The pairs, as compressed rows by worker (never a dense workers x workers matrix).
//  2. |s| from |C| by the modified mean-subsequence-reduced iteration: alternately
//     v_i <- trimmed mean over neighbours i' of |C_ii'| / u_i', and u_i likewise from v,
//     where the trimming drops the F largest values above the current value and the F
//     smallest below it (all of them on a side with fewer than F), F = max(0,
//     floor(d_min / 2) - 1), d_min the smallest number of neighbours of a worker who has
//     any. A value is floored at 1 / sqrt(n) (n labelled items), so no ratio is
//     infinite. Stops when ||u v^T - u' v'^T||_F <= tol ||u v^T||_F (computed from the
//     differences in O(workers)) or at max_iter rounds.
//  3. Signs: s_i s_i' has the sign of C_ii', so the signs are a 2-colouring of the
//     signed pair graph (the paper's bipartition of the graph whose positive edges are
//     subdivided). It is read from the top eigenvector of D^-1/2 S D^-1/2 + I (S the
//     signs of C on the pairs, D the degrees), by power iteration normalised in each
//     connected component; each component is oriented so that at least half of its
//     workers are positive (the method's premise that most workers beat chance).
//  4. s_i = sign_i sqrt(u_i v_i), clipped to [-1/(k-1) + 1/sqrt(n), 1 - 1/sqrt(n)];
//     p_i = ((k - 1) s_i + 1) / k; the posterior of item j is the one-coin posterior
//     under a uniform prior, q_jl proportional to exp(sum of w_i over labels l),
//     w_i = log((k - 1) p_i / (1 - p_i)): its argmax is the weighted majority vote.
//     A worker who shares no item with anyone gets the smallest positive skill
//     1 / sqrt(n): nothing is known of it, and its label decides only the items it alone
//     labelled.
#include "crowd/voting/m_msr.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "crowd/em/dawid_skene.hpp"
#include "crowd/voting/weighted_vote.hpp"
#include "data/worker_index.hpp"
#include "util/parallel.hpp"
#include "util/rng.hpp"

namespace cs {

namespace {

// Worker pairs that share an item, symmetric, in compressed rows by worker (i itself
// excluded): row i is entries start[i] .. start[i + 1] - 1 in order of first appearance
// over i's items; c = the rescaled agreement rate C_ii'.
struct PairGraph {
    std::vector<int64_t> start;
    std::vector<int32_t> other;
    std::vector<double> c;
    int64_t degree(int32_t i) const { return start[i + 1] - start[i]; }
};

PairGraph pair_graph(const CrowdData &data, const WorkerIndex &by_worker, int threads) {
    const int32_t m = data.n_workers, k = data.k;
    std::vector<std::vector<int32_t>> row_other(static_cast<std::size_t>(m));
    std::vector<std::vector<int32_t>> row_shared(static_cast<std::size_t>(m)), row_agree(static_cast<std::size_t>(m));
#pragma omp parallel num_threads(threads)
    {
        std::vector<int32_t> slot(static_cast<std::size_t>(m), -1);
#pragma omp for schedule(dynamic, 16)
        for (int32_t i = 0; i < m; ++i) {
            std::vector<int32_t> &other = row_other[i], &shared = row_shared[i], &agree = row_agree[i];
            for (int64_t e = by_worker.start[i]; e < by_worker.start[i + 1]; ++e) {
                const int32_t j = by_worker.item[e];
                const int32_t mine = data.label_of(by_worker.position[e]);
                for (int64_t q = data.item_start[j]; q < data.item_start[j + 1]; ++q) {
                    const int32_t o = data.worker_of(q);
                    if (o == i) continue;
                    if (slot[o] < 0) {
                        slot[o] = static_cast<int32_t>(other.size());
                        other.push_back(o);
                        shared.push_back(0);
                        agree.push_back(0);
                    }
                    ++shared[slot[o]];
                    agree[slot[o]] += data.label_of(q) == mine;
                }
            }
            for (int32_t o : other) slot[o] = -1;
        }
    }
    PairGraph g;
    g.start.assign(static_cast<std::size_t>(m) + 1, 0);
    for (int32_t i = 0; i < m; ++i) g.start[i + 1] = g.start[i] + static_cast<int64_t>(row_other[i].size());
    g.other.resize(static_cast<std::size_t>(g.start[m]));
    g.c.resize(static_cast<std::size_t>(g.start[m]));
    for (int32_t i = 0; i < m; ++i) {
        for (std::size_t e = 0; e < row_other[i].size(); ++e) {
            const int64_t at = g.start[i] + static_cast<int64_t>(e);
            g.other[at] = row_other[i][e];
            const double rate = static_cast<double>(row_agree[i][e]) / static_cast<double>(row_shared[i][e]);
            g.c[at] = (k * rate - 1.0) / (k - 1);
        }
        std::vector<int32_t>().swap(row_other[i]);
        std::vector<int32_t>().swap(row_shared[i]);
        std::vector<int32_t>().swap(row_agree[i]);
    }
    return g;
}

// The MSR rule: the mean of `y` after dropping, on each side of `own`, its F most
// extreme values (every value on a side holding fewer than F). `y` is reordered in place
// (two selections, O(size)). Returns `own` when nothing is left.
double trimmed_mean(std::vector<double> &y, double own, int64_t f) {
    const int64_t n = static_cast<int64_t>(y.size());
    int64_t below = 0, above = 0;  // values < own, > own
    for (double v : y) {
        below += v < own;
        above += v > own;
    }
    const int64_t first = std::min(below, f);
    const int64_t last = n - std::min(above, f);
    if (first >= last) return own;
    if (first > 0) std::nth_element(y.begin(), y.begin() + first, y.end());
    if (last < n) std::nth_element(y.begin() + first, y.begin() + last, y.end());
    double sum = 0.0;
    for (int64_t t = first; t < last; ++t) sum += y[t];
    return sum / static_cast<double>(last - first);
}

// One half-round: target_i <- trimmed mean over neighbours of |C| / source.
void msr_update(const PairGraph &g, const std::vector<double> &source, std::vector<double> &target, int64_t f,
                double floor_value, int threads) {
    const int32_t m = static_cast<int32_t>(target.size());
#pragma omp parallel num_threads(threads)
    {
        std::vector<double> y;
#pragma omp for schedule(dynamic, 16)
        for (int32_t i = 0; i < m; ++i) {
            if (g.degree(i) == 0) continue;
            y.clear();
            for (int64_t e = g.start[i]; e < g.start[i + 1]; ++e) y.push_back(std::fabs(g.c[e]) / source[g.other[e]]);
            target[i] = std::max(floor_value, trimmed_mean(y, target[i], f));
        }
    }
}

double dot(const std::vector<double> &a, const std::vector<double> &b) {
    double s = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
    return s;
}

// Connected components of the pair graph (union-find; component = smallest member).
std::vector<int32_t> components(const PairGraph &g, int32_t m) {
    std::vector<int32_t> parent(static_cast<std::size_t>(m));
    std::iota(parent.begin(), parent.end(), 0);
    auto find = [&](int32_t x) {
        while (parent[x] != x) x = parent[x] = parent[parent[x]];
        return x;
    };
    for (int32_t i = 0; i < m; ++i)
        for (int64_t e = g.start[i]; e < g.start[i + 1]; ++e) {
            const int32_t a = find(i), b = find(g.other[e]);
            if (a != b) parent[std::max(a, b)] = std::min(a, b);
        }
    for (int32_t i = 0; i < m; ++i) parent[i] = find(i);
    return parent;
}

// Step 3: the sign of each worker's skill (+1 or -1; +1 for a worker without pairs).
std::vector<double> skill_signs(const PairGraph &g, int32_t m, Rng &rng, int threads) {
    const std::vector<int32_t> comp = components(g, m);
    std::vector<double> scale(static_cast<std::size_t>(m), 0.0), x(static_cast<std::size_t>(m)), y(x.size());
    for (int32_t i = 0; i < m; ++i) {
        const int64_t d = g.degree(i);
        scale[i] = d > 0 ? 1.0 / std::sqrt(static_cast<double>(d)) : 0.0;
        x[i] = std::sqrt(static_cast<double>(d)) * (0.5 + rng.uniform());
    }
    std::vector<double> norm(static_cast<std::size_t>(m), 0.0);
    auto normalise = [&](std::vector<double> &v) {
        std::fill(norm.begin(), norm.end(), 0.0);
        for (int32_t i = 0; i < m; ++i) norm[comp[i]] = std::max(norm[comp[i]], std::fabs(v[i]));
        for (int32_t i = 0; i < m; ++i)
            if (norm[comp[i]] > 0.0) v[i] /= norm[comp[i]];
    };
    normalise(x);
    // Power iteration on D^-1/2 S D^-1/2 + I (eigenvalues in [0, 2]); it stops when no
    // entry moves by more than 1e-9 (each component scaled to max |x| = 1).
    constexpr int kMaxProducts = 10000;
    for (int it = 0; it < kMaxProducts; ++it) {
#pragma omp parallel for schedule(dynamic, 64) num_threads(threads)
        for (int32_t i = 0; i < m; ++i) {
            double sum = 0.0;
            for (int64_t e = g.start[i]; e < g.start[i + 1]; ++e) {
                const double s = g.c[e] > 0.0 ? 1.0 : g.c[e] < 0.0 ? -1.0 : 0.0;
                sum += s * scale[g.other[e]] * x[g.other[e]];
            }
            y[i] = x[i] + scale[i] * sum;
        }
        normalise(y);
        double moved = 0.0;
        for (int32_t i = 0; i < m; ++i) moved = std::max(moved, std::fabs(y[i] - x[i]));
        x.swap(y);
        if (moved <= 1e-9) break;
    }
    std::vector<double> sign(static_cast<std::size_t>(m));
    std::vector<int64_t> vote(static_cast<std::size_t>(m), 0);
    for (int32_t i = 0; i < m; ++i) {
        sign[i] = x[i] < 0.0 ? -1.0 : 1.0;
        if (g.degree(i) > 0) vote[comp[i]] += sign[i] > 0 ? 1 : -1;
    }
    for (int32_t i = 0; i < m; ++i)
        if (vote[comp[i]] < 0) sign[i] = -sign[i];
    return sign;
}

}  // namespace

bool fit_m_msr(const CrowdData &data, const FitOptions &options, const Progress &progress, FitResult &out) {
    const int threads = threads_for(options.threads, static_cast<int64_t>(data.n_labels()));
    const int32_t m = data.n_workers, k = data.k;
    const WorkerIndex by_worker = WorkerIndex::build(data);
    const PairGraph g = pair_graph(data, by_worker, threads);
    int64_t labelled = 0;
    for (int32_t j = 0; j < data.n_items; ++j) labelled += data.item_start[j + 1] > data.item_start[j];
    const double floor_value = 1.0 / std::sqrt(static_cast<double>(std::max<int64_t>(labelled, 1)));

    int64_t min_degree = 0;
    for (int32_t i = 0; i < m; ++i)
        if (g.degree(i) > 0 && (min_degree == 0 || g.degree(i) < min_degree)) min_degree = g.degree(i);
    const int64_t f = std::max<int64_t>(0, min_degree / 2 - 1);

    Rng rng(options.seed);
    std::vector<double> u(static_cast<std::size_t>(m)), v(u.size());
    for (int32_t i = 0; i < m; ++i) u[i] = v[i] = std::max(floor_value, rng.uniform());

    bool cancelled = progress.cancelled(0, 0.0);
    out.converged = false;
    out.iterations = 0;
    if (!cancelled && options.max_iter == 0) out.converged = true;
    for (int32_t r = 1; r <= options.max_iter && !cancelled; ++r) {
        const std::vector<double> u_old = u, v_old = v;
        msr_update(g, u, v, f, floor_value, threads);
        msr_update(g, v, u, f, floor_value, threads);
        std::vector<double> du(u.size()), dv(v.size());
        for (int32_t i = 0; i < m; ++i) {
            du[i] = u[i] - u_old[i];
            dv[i] = v[i] - v_old[i];
        }
        // ||du v^T + u_old dv^T||_F^2, from the differences themselves (no cancellation).
        const double change2 = dot(du, du) * dot(v, v) + dot(u_old, u_old) * dot(dv, dv) + 2.0 * dot(du, u_old) * dot(v, dv);
        const double size2 = dot(u, u) * dot(v, v);
        out.iterations = r;
        out.trace.push_back(0.0);
        cancelled = progress.cancelled(r, 0.0);
        if (options.tol > 0.0 && std::sqrt(std::max(0.0, change2)) <= options.tol * std::sqrt(size2)) {
            out.converged = !cancelled;
            break;
        }
    }
    if (cancelled) {
        out.notes |= CS_NOTE_CANCELLED;
    } else if (!out.converged && options.tol > 0.0 && options.max_iter > 0) {
        out.notes |= CS_NOTE_MAX_ITER_REACHED;
        out.note_message += "m-msr stopped at max_iter = " + std::to_string(options.max_iter) +
                            " rounds before the rank-one fit changed by less than tol. ";
    }

    const std::vector<double> sign = skill_signs(g, m, rng, threads);
    const double low = -1.0 / (k - 1) + floor_value, high = 1.0 - floor_value;
    std::vector<double> accuracy(static_cast<std::size_t>(m)), weight(accuracy.size());
    for (int32_t i = 0; i < m; ++i) {
        double s = g.degree(i) > 0 ? sign[i] * std::sqrt(u[i] * v[i]) : floor_value;
        s = std::min(high, std::max(low, s));
        if (!(s >= low)) s = low;  // (never: u, v >= floor_value > 0)
        const double p = ((k - 1) * s + 1.0) / k;
        accuracy[i] = p;
        weight[i] = std::log((k - 1) * p / (1.0 - p));
    }
    // The one-coin posterior under a uniform prior (log space, then normalised).
    const int32_t n = data.n_items;
    out.posteriors.assign(static_cast<std::size_t>(n) * k, 0.0);
#pragma omp parallel for schedule(static, 4096) num_threads(threads)
    for (int32_t j = 0; j < n; ++j) {
        double *qj = out.posteriors.data() + static_cast<int64_t>(j) * k;
        if (data.gold_of(j) >= 0) {
            qj[data.gold_of(j)] = 1.0;
            continue;
        }
        for (int64_t p = data.item_start[j]; p < data.item_start[j + 1]; ++p)
            qj[data.label_of(p)] += weight[data.worker_of(p)];
        const double top = *std::max_element(qj, qj + k);
        double total = 0.0;
        for (int32_t l = 0; l < k; ++l) total += (qj[l] = std::exp(qj[l] - top));
        for (int32_t l = 0; l < k; ++l) qj[l] /= total;
    }
    out.labels = argmax_labels(out.posteriors, n, k);
    std::vector<int64_t> labels_per_worker(static_cast<std::size_t>(m));
    for (int32_t i = 0; i < m; ++i) labels_per_worker[static_cast<std::size_t>(i)] = by_worker.count(i);
    out.confusion = one_coin_confusion(accuracy, labels_per_worker, k);
    out.prior = posterior_mean_prior(out.posteriors, n, k, options);
    out.has_log_likelihood = false;
    return cancelled;
}

}  // namespace cs
