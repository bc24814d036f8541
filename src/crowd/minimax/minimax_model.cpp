// SPDX-License-Identifier: MIT
#include "crowd/minimax/minimax_model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "data/item_partitions.hpp"
#include "linalg/lbfgs.hpp"
#include "util/parallel.hpp"

namespace cs {

namespace {

// Ordinal parameter of reference grade s (1..K-1) and region r = 2 [c >= s] + [x >= s].
inline int32_t ordinal_index(int32_t s, int32_t c, int32_t x) {
    return (s - 1) * 4 + 2 * (c >= s ? 1 : 0) + (x >= s ? 1 : 0);
}

// The K x K matrix of a block of parameters (eq. 11 for the ordinal model; the block
// itself for the categorical one).
void expand(const MinimaxSpec &spec, const double *theta, double *matrix) {
    const int32_t k = spec.k;
    if (!spec.ordinal) {
        std::copy(theta, theta + k * k, matrix);
        return;
    }
    for (int32_t c = 0; c < k; ++c)
        for (int32_t x = 0; x < k; ++x) {
            double v = 0.0;
            for (int32_t s = 1; s < k; ++s) v += theta[ordinal_index(s, c, x)];
            matrix[c * k + x] = v;
        }
}

// The transpose of expand: the gradient of a block from the gradient of its matrix.
void gather(const MinimaxSpec &spec, const double *matrix_grad, double *theta_grad) {
    const int32_t k = spec.k;
    if (!spec.ordinal) {
        std::copy(matrix_grad, matrix_grad + k * k, theta_grad);
        return;
    }
    std::fill(theta_grad, theta_grad + spec.block(), 0.0);
    for (int32_t c = 0; c < k; ++c)
        for (int32_t x = 0; x < k; ++x)
            for (int32_t s = 1; s < k; ++s) theta_grad[ordinal_index(s, c, x)] += matrix_grad[c * k + x];
}

// One label's softmax table: p[c * K + x'] = P(x' | c) and logp[c] = log P(x | c) for its
// label x, from the worker's and the item's matrices.
inline void label_table(int32_t k, const double *sigma, const double *tau, int32_t x, double *p, double *logp) {
    for (int32_t c = 0; c < k; ++c) {
        const double *s = sigma + c * k, *t = tau + c * k;
        double *row = p + c * k;
        double top = -std::numeric_limits<double>::infinity();
        for (int32_t y = 0; y < k; ++y) top = std::max(top, row[y] = s[y] + t[y]);
        double z = 0.0;
        for (int32_t y = 0; y < k; ++y) z += (row[y] = std::exp(row[y] - top));
        const double inv = 1.0 / z;
        for (int32_t y = 0; y < k; ++y) row[y] *= inv;
        logp[c] = (s[x] + t[x]) - top - std::log(z);
    }
}

// log sum_c exp(a_c) and the normalised exp(a_c - max) into q.
inline double log_normalise(int32_t k, const double *a, double *q) {
    double top = -std::numeric_limits<double>::infinity();
    for (int32_t c = 0; c < k; ++c) top = std::max(top, a[c]);
    double z = 0.0;
    for (int32_t c = 0; c < k; ++c) z += (q[c] = std::exp(a[c] - top));
    for (int32_t c = 0; c < k; ++c) q[c] /= z;
    return top + std::log(z);
}

// The passes of a fit: fixed item partitions (their per-worker tables summed in
// partition order, so every result is the same for any thread count) and the matrices.
class Passes {
public:
    Passes(const CrowdData &data, const MinimaxSpec &spec, int threads)
        : data_(data), spec_(spec), kk_(static_cast<int64_t>(spec.k) * spec.k), team_(threads) {
        parts_ = partition_items(data, static_cast<int64_t>(data.n_workers) * kk_);
        table_ = static_cast<int64_t>(data.n_workers) * kk_;
        copies_.assign(parts_.size() * static_cast<std::size_t>(table_), 0.0);
        part_value_.assign(parts_.size(), 0.0);
        sigma_.resize(static_cast<std::size_t>(table_));
        tau_.resize(static_cast<std::size_t>(data.n_items) * kk_);
    }

    // Matrices of every worker and item from the parameters.
    void set_params(const std::vector<double> &x) {
        const int32_t b = spec_.block();
        for (int32_t i = 0; i < data_.n_workers; ++i)
            expand(spec_, x.data() + static_cast<int64_t>(i) * b, sigma_.data() + i * kk_);
        const int64_t items_at = static_cast<int64_t>(data_.n_workers) * b;
        for (int32_t j = 0; j < data_.n_items; ++j)
            expand(spec_, x.data() + items_at + static_cast<int64_t>(j) * b, tau_.data() + j * kk_);
    }

    const double *sigma(int32_t i) const { return sigma_.data() + i * kk_; }
    const double *tau(int32_t j) const { return tau_.data() + j * kk_; }

    // The data term and its gradient at the parameters of set_params. With `fixed`, the
    // M-step's sum_j sum_c Q_jc a_jc for those posteriors; otherwise the marginal
    // sum_j log sum_c (1/K) exp(a_jc), a_jc = sum_i log P(x_ij | c), with the posteriors
    // written to `q` when given. Gradients (of the data term, to be maximised) go to
    // matrix_grad: the workers' K x K blocks, then the items'.
    double data_term(const std::vector<double> *fixed, std::vector<double> *q, std::vector<double> &matrix_grad) {
        const int32_t k = spec_.k;
        const double log_k = std::log(static_cast<double>(k));
        const int64_t items_at = table_;
        matrix_grad.assign(static_cast<std::size_t>(items_at + static_cast<int64_t>(data_.n_items) * kk_), 0.0);
        team_.run(static_cast<int64_t>(parts_.size()), [&](int64_t part) {
            double *workers = copies_.data() + part * table_;
            std::fill(workers, workers + table_, 0.0);
            std::vector<double> tables, logp(static_cast<std::size_t>(k)), a(static_cast<std::size_t>(k)),
                qj(static_cast<std::size_t>(k));
            double value = 0.0;
            for (int32_t j = parts_[part].first; j < parts_[part].last; ++j) {
                const int64_t first = data_.item_start[j], count = data_.item_start[j + 1] - first;
                if (count == 0) continue;
                tables.resize(static_cast<std::size_t>(count * kk_));
                std::fill(a.begin(), a.end(), 0.0);
                for (int64_t e = 0; e < count; ++e) {
                    const int64_t p = first + e;
                    label_table(k, sigma(data_.worker_of(p)), tau(j), data_.label_of(p), tables.data() + e * kk_,
                                logp.data());
                    for (int32_t c = 0; c < k; ++c) a[c] += logp[c];
                }
                const int32_t gold = data_.gold_of(j);
                if (gold >= 0) {
                    std::fill(qj.begin(), qj.end(), 0.0);
                    qj[gold] = 1.0;
                    value += fixed ? a[gold] : a[gold] - log_k;
                } else if (fixed) {
                    const double *given = fixed->data() + static_cast<int64_t>(j) * k;
                    std::copy(given, given + k, qj.begin());
                    for (int32_t c = 0; c < k; ++c) value += qj[c] * a[c];
                } else {
                    value += log_normalise(k, a.data(), qj.data()) - log_k;
                }
                if (q) std::copy(qj.begin(), qj.end(), q->begin() + static_cast<int64_t>(j) * k);
                double *item_grad = matrix_grad.data() + items_at + j * kk_;
                for (int64_t e = 0; e < count; ++e) {
                    const int64_t p = first + e;
                    const int32_t x = data_.label_of(p);
                    double *worker_grad = workers + data_.worker_of(p) * kk_;
                    const double *t = tables.data() + e * kk_;
                    for (int32_t c = 0; c < k; ++c) {
                        const double w = qj[c];
                        if (w == 0.0) continue;
                        for (int32_t y = 0; y < k; ++y) {
                            const double g = (y == x ? w : 0.0) - w * t[c * k + y];
                            worker_grad[c * k + y] += g;
                            item_grad[c * k + y] += g;
                        }
                    }
                }
            }
            part_value_[part] = value;
        });
        sum_tables(copies_.data(), table_, static_cast<int64_t>(parts_.size()), matrix_grad.data(), team_.size());
        double value = 0.0;
        for (double v : part_value_) value += v;  // in partition order
        return value;
    }

    // Sum over each worker's labels of P_ij(. | c), and the labels' count, per worker.
    void confusion_sums(std::vector<double> &sums) {
        const int32_t k = spec_.k;
        team_.run(static_cast<int64_t>(parts_.size()), [&](int64_t part) {
            double *workers = copies_.data() + part * table_;
            std::fill(workers, workers + table_, 0.0);
            std::vector<double> table(static_cast<std::size_t>(kk_)), logp(static_cast<std::size_t>(k));
            for (int32_t j = parts_[part].first; j < parts_[part].last; ++j)
                for (int64_t p = data_.item_start[j]; p < data_.item_start[j + 1]; ++p) {
                    label_table(k, sigma(data_.worker_of(p)), tau(j), data_.label_of(p), table.data(), logp.data());
                    double *w = workers + data_.worker_of(p) * kk_;
                    for (int64_t e = 0; e < kk_; ++e) w[e] += table[e];
                }
        });
        sums.assign(static_cast<std::size_t>(table_), 0.0);
        sum_tables(copies_.data(), table_, static_cast<int64_t>(parts_.size()), sums.data(), team_.size());
    }

    int threads() const { return team_.size(); }

private:
    const CrowdData &data_;
    MinimaxSpec spec_;
    int64_t kk_;
    Team team_;
    std::vector<ItemRange> parts_;
    int64_t table_ = 0;
    std::vector<double> copies_, part_value_, sigma_, tau_;
};

std::vector<int64_t> labels_per_worker(const CrowdData &data) {
    std::vector<int64_t> count(static_cast<std::size_t>(data.n_workers), 0);
    for (uint32_t code : data.item_code) ++count[code / static_cast<uint32_t>(data.k)];
    return count;
}

// The objective to minimise: minus the data term plus the penalties, over the flat
// parameter vector (workers' blocks, then items').
class MinimaxObjective {
public:
    MinimaxObjective(const CrowdData &data, const MinimaxSpec &spec, Passes &passes)
        : data_(data), spec_(spec), passes_(passes) {}

    double operator()(const std::vector<double> &x, std::vector<double> &grad, const std::vector<double> *fixed,
                      std::vector<double> *q) {
        passes_.set_params(x);
        const double data_value = passes_.data_term(fixed, q, matrix_grad_);
        const int32_t b = spec_.block();
        const int64_t kk = static_cast<int64_t>(spec_.k) * spec_.k;
        const int64_t blocks = static_cast<int64_t>(data_.n_workers) + data_.n_items;
        grad.resize(x.size());
        double penalty = 0.0;
        for (int64_t block = 0; block < blocks; ++block) {
            const double weight = block < data_.n_workers ? spec_.alpha : spec_.beta;
            double *g = grad.data() + block * b;
            gather(spec_, matrix_grad_.data() + block * kk, g);
            const double *theta = x.data() + block * b;
            for (int32_t e = 0; e < b; ++e) {
                penalty += 0.5 * weight * theta[e] * theta[e];
                g[e] = weight * theta[e] - g[e];
            }
        }
        return penalty - data_value;
    }

private:
    const CrowdData &data_;
    MinimaxSpec spec_;
    Passes &passes_;
    std::vector<double> matrix_grad_;
};

// The preconditioner: about the inverse curvature of each parameter, the softmax's (at
// most 1/2 per label in each of its rows) times the labels that touch it, plus the
// penalty. Only its relative sizes matter (L-BFGS rescales it).
std::vector<double> inverse_scale(const CrowdData &data, const MinimaxSpec &spec) {
    const int32_t b = spec.block();
    const std::vector<int64_t> per_worker = labels_per_worker(data);
    const double rows = spec.ordinal ? 2.0 : static_cast<double>(spec.k);  // rows a parameter spans
    std::vector<double> h;
    h.reserve(static_cast<std::size_t>((static_cast<int64_t>(data.n_workers) + data.n_items) * b));
    for (int32_t i = 0; i < data.n_workers; ++i)
        h.insert(h.end(), static_cast<std::size_t>(b), 1.0 / (0.5 * per_worker[i] / rows + spec.alpha + 1e-12));
    for (int32_t j = 0; j < data.n_items; ++j) {
        const double labels = static_cast<double>(data.item_start[j + 1] - data.item_start[j]);
        h.insert(h.end(), static_cast<std::size_t>(b), 1.0 / (0.5 * labels / rows + spec.beta + 1e-12));
    }
    return h;
}

}  // namespace

MinimaxSpec minimax_spec(const CrowdData &data, bool ordinal, double gamma) {
    MinimaxSpec spec;
    spec.k = data.k;
    spec.ordinal = ordinal;
    const std::vector<int64_t> per_worker = labels_per_worker(data);
    int64_t workers = 0, items = 0;
    for (int64_t c : per_worker) workers += c > 0;
    for (int32_t j = 0; j < data.n_items; ++j) items += data.item_start[j + 1] > data.item_start[j];
    spec.alpha = gamma * static_cast<double>(data.k) * data.k;
    spec.beta = spec.alpha * static_cast<double>(std::max<int64_t>(items, 1)) / std::max<int64_t>(workers, 1);
    return spec;
}

MinimaxFit fit_minimax_model(const CrowdData &data, const MinimaxSpec &spec, const FitOptions &options,
                             const Progress &progress, const std::vector<double> &start) {
    // The M-step from the start posteriors need not be exact: the main phase goes on
    // from wherever it ends. 1e-6 relative is far below the start's own noise.
    constexpr double kStartTol = 1e-6;
    constexpr int32_t kStartIterations = 200;
    Passes passes(data, spec, threads_for(options.threads, static_cast<int64_t>(data.n_labels())));
    MinimaxObjective objective(data, spec, passes);
    MinimaxFit fit;
    fit.params.assign(static_cast<std::size_t>((static_cast<int64_t>(data.n_workers) + data.n_items) * spec.block()),
                      0.0);
    LbfgsOptions lbfgs;
    lbfgs.inverse_scale = inverse_scale(data, spec);
    lbfgs.max_iter = kStartIterations;
    lbfgs.rel_tol = kStartTol;
    minimize_lbfgs([&](const std::vector<double> &x, std::vector<double> &g) { return objective(x, g, &start, nullptr); },
                   fit.params, lbfgs);
    lbfgs.max_iter = options.max_iter;
    lbfgs.rel_tol = options.tol;
    const LbfgsReport report = minimize_lbfgs(
        [&](const std::vector<double> &x, std::vector<double> &g) { return objective(x, g, nullptr, nullptr); },
        fit.params, lbfgs, [&](int32_t iteration, double value) {
            if (iteration > 0) fit.trace.push_back(-value);
            return progress.cancelled(iteration, -value);
        });
    fit.iterations = report.iterations;
    fit.cancelled = report.cancelled;
    fit.converged = !report.cancelled && report.converged;
    fit.posteriors.assign(static_cast<std::size_t>(data.n_items) * data.k, 1.0 / data.k);
    std::vector<double> grad;
    objective(fit.params, grad, nullptr, &fit.posteriors);
    return fit;
}

double heldout_log_likelihood(const CrowdData &held, const MinimaxSpec &spec, const MinimaxFit &fit, int32_t threads) {
    Passes passes(held, spec, threads_for(threads, static_cast<int64_t>(held.n_labels())));
    passes.set_params(fit.params);
    const int32_t k = spec.k;
    std::vector<double> table(static_cast<std::size_t>(k) * k), logp(static_cast<std::size_t>(k)),
        a(static_cast<std::size_t>(k)), q(static_cast<std::size_t>(k));
    double total = 0.0;
    for (int32_t j = 0; j < held.n_items; ++j) {
        if (held.item_start[j + 1] == held.item_start[j]) continue;
        const double *prior = fit.posteriors.data() + static_cast<int64_t>(j) * k;
        for (int32_t c = 0; c < k; ++c)
            a[c] = prior[c] > 0.0 ? std::log(prior[c]) : -std::numeric_limits<double>::infinity();
        for (int64_t p = held.item_start[j]; p < held.item_start[j + 1]; ++p) {
            label_table(k, passes.sigma(held.worker_of(p)), passes.tau(j), held.label_of(p), table.data(), logp.data());
            for (int32_t c = 0; c < k; ++c) a[c] += logp[c];
        }
        total += log_normalise(k, a.data(), q.data());
    }
    return total;
}

std::vector<double> minimax_confusion(const CrowdData &data, const MinimaxSpec &spec, const std::vector<double> &params,
                                      int32_t threads) {
    Passes passes(data, spec, threads_for(threads, static_cast<int64_t>(data.n_labels())));
    passes.set_params(params);
    std::vector<double> sums;
    passes.confusion_sums(sums);
    const int32_t k = spec.k;
    const std::vector<int64_t> per_worker = labels_per_worker(data);
    for (int32_t i = 0; i < data.n_workers; ++i)
        for (int64_t e = 0; e < static_cast<int64_t>(k) * k; ++e) {
            double &v = sums[static_cast<std::size_t>(i) * k * k + e];
            v = per_worker[i] > 0 ? v / static_cast<double>(per_worker[i]) : 1.0 / k;
        }
    return sums;
}

}  // namespace cs
