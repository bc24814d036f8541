// SPDX-License-Identifier: MIT
#include "crowd/minimax/minimax_model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <cstdlib>

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

// A sum of logarithms kept as a product, moved into a logarithm only when the product
// leaves [1e-100, 1e100]: the items' terms log(sum_c prod_i P(x_ij | c)) then cost a
// logarithm per few dozen items instead of one each. Every factor is in [1e-200, K]
// (each class's product is at least 1e-200, else it was moved into a logarithm), so
// the product never leaves the normal doubles.
class LogSum {
public:
    void add_log_of(double factor) {
        product_ *= factor;
        if (product_ < 1e-100 || product_ > 1e100) {
            logs_ += std::log(product_);
            product_ = 1.0;
        }
    }
    double total() const { return logs_ + std::log(product_); }

private:
    double product_ = 1.0, logs_ = 0.0;
};

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
        if (spec.k == 2) p1_.resize(parts_.size());
        const std::size_t all = static_cast<std::size_t>((static_cast<int64_t>(data.n_workers) + data.n_items) * kk_);
        if (spec.ordinal) expanded_.resize(all);
        if (spec.k == 2)
            odds_.resize(static_cast<std::size_t>((static_cast<int64_t>(data.n_workers) + data.n_items) * 2));
        else
            exp_.resize(all);
    }

    // Matrices of every worker and item from the parameters, and their exponentials
    // shifted by each row's maximum (every entry in (0, 1]): a label's softmax row
    // exp(sigma_i(c, .) + tau_j(c, .)) / Z is then a product of two tables' rows, with no
    // exponential per label. For K = 2, each row's odds instead (binary_pass).
    void set_params(const std::vector<double> &x) {
        const int32_t b = spec_.block();
        const int64_t blocks = static_cast<int64_t>(data_.n_workers) + data_.n_items;
        // The categorical parameters are the matrices themselves (read in place, x must
        // outlive the passes that follow); the ordinal ones are expanded (eq. 11).
        matrices_ = spec_.ordinal ? expanded_.data() : x.data();
        // Blocks of 4096 matrices, each task its own: the same result for any thread count.
        constexpr int64_t kChunk = 4096;
        team_.run(chunk_count(blocks, kChunk), [&](int64_t chunk) {
            for (int64_t block = chunk * kChunk; block < std::min(blocks, (chunk + 1) * kChunk); ++block) {
                if (spec_.ordinal) expand(spec_, x.data() + block * b, expanded_.data() + block * kk_);
                if (spec_.k == 2)
                    odds_rows(matrices_ + block * 4, odds_.data() + block * 2);
                else
                    exp_rows(matrices_ + block * kk_, exp_.data() + block * kk_);
            }
        });
    }

    // Worker i's and item j's matrices and shifted exponential tables.
    const double *sigma(int32_t i) const { return matrices_ + i * kk_; }
    const double *tau(int32_t j) const { return matrices_ + (static_cast<int64_t>(data_.n_workers) + j) * kk_; }
    const double *exp_sigma(int32_t i) const { return exp_.data() + i * kk_; }
    const double *exp_tau(int32_t j) const { return exp_.data() + (static_cast<int64_t>(data_.n_workers) + j) * kk_; }

    // The data term and its gradient at the parameters of set_params. With `fixed`, the
    // M-step's sum_j sum_c Q_jc a_jc for those posteriors; otherwise the marginal
    // sum_j log sum_c (1/K) exp(a_jc), a_jc = sum_i log P(x_ij | c), with the posteriors
    // written to `q` when given. Gradients (of the data term, to be maximised) go to
    // matrix_grad: the workers' K x K blocks, then the items'.
    //
    // Per label and class c: Z' = sum_x' es(c, x') et(c, x') (the shifted tables) and
    // P(x | c) = es(c, x) et(c, x) / Z'. The a_jc are kept as products, moved into a
    // logarithm when they fall below 1e-200 (so an item costs K logarithms, not one per
    // label). A row whose Z' or P(x | c) underflows (logits more than ~690 apart, far
    // beyond what the penalties allow) is computed from the logits instead.
    double data_term(const std::vector<double> *fixed, std::vector<double> *q, std::vector<double> &matrix_grad) {
        // Every entry is written: the workers' by sum_tables, each item's by its pass.
        matrix_grad.resize(static_cast<std::size_t>(table_ + static_cast<int64_t>(data_.n_items) * kk_));
        team_.run(static_cast<int64_t>(parts_.size()), [&](int64_t part) {
            // K known at compile time for the usual class counts: the label codes are
            // then split by a constant (no division instruction) and the loops unroll.
            switch (spec_.k) {
                case 2: part_value_[part] = binary_pass(part, fixed, q, matrix_grad); break;
                case 3: part_value_[part] = part_pass<3>(part, fixed, q, matrix_grad); break;
                case 4: part_value_[part] = part_pass<4>(part, fixed, q, matrix_grad); break;
                case 5: part_value_[part] = part_pass<5>(part, fixed, q, matrix_grad); break;
                default: part_value_[part] = part_pass<0>(part, fixed, q, matrix_grad); break;
            }
        });
        // The per-partition worker tables are small (workers x K^2): summed on this thread.
        sum_tables(copies_.data(), table_, static_cast<int64_t>(parts_.size()), matrix_grad.data(), 1);
        if (spec_.k == 2)  // binary_pass sums column 1 of each worker row alone: column 0 is its negative
            for (int64_t row = 0; row < table_; row += 2) matrix_grad[static_cast<std::size_t>(row)] = -matrix_grad[static_cast<std::size_t>(row + 1)];
        double value = 0.0;
        for (double v : part_value_) value += v;  // in partition order
        return value;
    }

    // One partition of data_term: its items' terms (returned) and gradients. KT = K, or 0
    // for any K (read at run time).
    template <int KT>
    double part_pass(int64_t part, const std::vector<double> *fixed, std::vector<double> *q,
                     std::vector<double> &matrix_grad) {
        constexpr double kTiny = 1e-290, kRescale = 1e-200;
        const int32_t k = KT > 0 ? KT : spec_.k;
        const int64_t kk = static_cast<int64_t>(k) * k;
        const uint32_t code_k = static_cast<uint32_t>(k);
        const int64_t items_at = table_;
        {
            double *workers = copies_.data() + part * table_;
            std::fill(workers, workers + table_, 0.0);
            std::vector<double> inv_z, slow(static_cast<std::size_t>(kk)), logp(static_cast<std::size_t>(k)),
                a_heap(static_cast<std::size_t>(k)), product_heap(static_cast<std::size_t>(k)),
                q_heap(static_cast<std::size_t>(k));
            // With K known, the per-item accumulators live on the stack, where the
            // compiler keeps them in registers (no aliasing with the tables written).
            double a_local[KT > 0 ? KT : 1], product_local[KT > 0 ? KT : 1], q_local[KT > 0 ? KT : 1];
            double *a = KT > 0 ? a_local : a_heap.data(), *product = KT > 0 ? product_local : product_heap.data(),
                   *qj = KT > 0 ? q_local : q_heap.data();
            double value = 0.0;
            LogSum logs;
            for (int32_t j = parts_[part].first; j < parts_[part].last; ++j) {
                const int64_t first = data_.item_start[j], count = data_.item_start[j + 1] - first;
                if (count == 0) {  // no labels: the uniform prior, or a gold item's class
                    std::fill(matrix_grad.begin() + items_at + j * kk, matrix_grad.begin() + items_at + (j + 1) * kk, 0.0);
                    if (q && data_.gold_of(j) >= 0) {
                        double *row = q->data() + static_cast<int64_t>(j) * k;
                        std::fill(row, row + k, 0.0);
                        row[data_.gold_of(j)] = 1.0;
                    }
                    continue;
                }
                const double *et = exp_tau(j);
                inv_z.resize(static_cast<std::size_t>(count * k));
                std::fill(a, a + k, 0.0);
                std::fill(product, product + k, 1.0);
                bool logged = false;  // some of a_jc moved into a[c]
                for (int64_t e = 0; e < count; ++e) {
                    const int64_t p = first + e;
                    const uint32_t code = data_.item_code[p];
                    const int32_t i = static_cast<int32_t>(code / code_k), x = static_cast<int32_t>(code % code_k);
                    const double *es = exp_sigma(i);
                    for (int32_t c = 0; c < k; ++c) {
                        const double *r = es + c * k, *t = et + c * k;
                        double z = 0.0;
                        for (int32_t y = 0; y < k; ++y) z += r[y] * t[y];
                        const double inv = 1.0 / z, px = r[x] * t[x] * inv;
                        if (!(z > kTiny) || !(px > kTiny)) {  // underflow: from the logits
                            label_table(k, sigma(i), tau(j), x, slow.data(), logp.data());
                            a[c] += logp[c];
                            logged = true;
                            inv_z[static_cast<std::size_t>(e * k + c)] = -1.0;
                            continue;
                        }
                        inv_z[static_cast<std::size_t>(e * k + c)] = inv;
                        product[c] *= px;
                        if (product[c] < kRescale) {
                            a[c] += std::log(product[c]);
                            product[c] = 1.0;
                            logged = true;
                        }
                    }
                }
                value += item_term(j, k, product, a, logged, fixed, qj, logs);
                if (q) std::copy(qj, qj + k, q->begin() + static_cast<int64_t>(j) * k);
                // Gradients: w (I(y = x) - P(y | c)) with w = Q_jc, into the worker's
                // and the item's matrices.
                // The item's gradient is summed in a local table when K is known at
                // compile time (no memory round trip per label), the worker's scattered.
                double local[KT > 0 ? KT * KT : 1];
                double *item_grad = KT > 0 ? local : matrix_grad.data() + items_at + j * kk;
                std::fill(item_grad, item_grad + kk, 0.0);
                for (int64_t e = 0; e < count; ++e) {
                    const int64_t p = first + e;
                    const uint32_t code = data_.item_code[p];
                    const int32_t i = static_cast<int32_t>(code / code_k), x = static_cast<int32_t>(code % code_k);
                    const double *es = exp_sigma(i);
                    double *__restrict worker_grad = workers + i * kk;
                    bool slow_done = false;
                    for (int32_t c = 0; c < k; ++c) {
                        const double w = qj[c];
                        if (w == 0.0) continue;
                        const double inv = inv_z[static_cast<std::size_t>(e * k + c)];
                        const double *r = es + c * k, *t = et + c * k;
                        if (inv < 0.0 && !slow_done) {
                            label_table(k, sigma(i), tau(j), x, slow.data(), logp.data());
                            slow_done = true;
                        }
                        const double winv = w * inv;
                        for (int32_t y = 0; y < k; ++y) {
                            const double wpy = inv < 0.0 ? w * slow[c * k + y] : r[y] * t[y] * winv;
                            const double g = (y == x ? w : 0.0) - wpy;
                            worker_grad[c * k + y] += g;
                            item_grad[c * k + y] += g;
                        }
                    }
                }
                if (KT > 0) std::copy(local, local + kk, matrix_grad.data() + items_at + j * kk);
            }
            return value + logs.total();
        }
    }

    // Item j's term of data_term and its posteriors qj, from its class terms a_jc held as
    // a[c] + log product[c] (`logged`: some a[c] is not 0). Returns the term, or, when
    // it is log(sum_c product[c]) - log K, -log K with the sum put into `logs`.
    double item_term(int32_t j, int32_t k, const double *product, double *a, bool logged,
                     const std::vector<double> *fixed, double *qj, LogSum &logs) const {
        const double log_k = std::log(static_cast<double>(k));
        const int32_t gold = data_.gold_of(j);
        if (!logged && !fixed && gold < 0) {
            // No product was rescaled: the posterior is the normalised products.
            double sum = 0.0;
            for (int32_t c = 0; c < k; ++c) sum += product[c];
            for (int32_t c = 0; c < k; ++c) qj[c] = product[c] / sum;
            logs.add_log_of(sum);
            return -log_k;
        }
        for (int32_t c = 0; c < k; ++c) a[c] += std::log(product[c]);
        if (gold >= 0) {
            std::fill(qj, qj + k, 0.0);
            qj[gold] = 1.0;
            return fixed ? a[gold] : a[gold] - log_k;
        }
        if (fixed) {
            const double *given = fixed->data() + static_cast<int64_t>(j) * k;
            std::copy(given, given + k, qj);
            double value = 0.0;
            for (int32_t c = 0; c < k; ++c) value += qj[c] * a[c];
            return value;
        }
        return log_normalise(k, a, qj) - log_k;
    }

    // part_pass for two classes. Each row c of a label's table is a logistic function of
    // the row's logit difference d_c = (sigma_i(c,1) - sigma_i(c,0)) + (tau_j(c,1) -
    // tau_j(c,0)): with the odds o_c = exp(d_c), the product of the worker's and the
    // item's odds tables, P(1 | c) = o_c / (1 + o_c) and P(0 | c) = 1 / (1 + o_c)
    // (eq. 5 with K = 2). The gradient of row c is w (I(x = 1) - P(1 | c)) in column 1 and
    // its negative in column 0, so one number per row is summed (column 0 is filled in
    // after the sums, in data_term). Odds beyond 1e+-100 (logits 230 apart) take the
    // logits instead, so no product of a label's probabilities can underflow.
    double binary_pass(int64_t part, const std::vector<double> *fixed, std::vector<double> *q,
                       std::vector<double> &matrix_grad) {
        constexpr double kRescale = 1e-200;
        const int64_t items_at = table_;
        double *workers = copies_.data() + part * table_;
        std::fill(workers, workers + table_, 0.0);
        std::vector<double> &p1 = p1_[static_cast<std::size_t>(part)];  // P(1 | c) per label and c
        double a[2], product[2], qj[2], value = 0.0;
        LogSum logs;
        for (int32_t j = parts_[part].first; j < parts_[part].last; ++j) {
            const int64_t first = data_.item_start[j], count = data_.item_start[j + 1] - first;
            double *item_grad = matrix_grad.data() + items_at + j * 4;
            if (count == 0) {  // no labels: the uniform prior, or a gold item's class
                std::fill(item_grad, item_grad + 4, 0.0);
                if (q && data_.gold_of(j) >= 0) {
                    double *row = q->data() + static_cast<int64_t>(j) * 2;
                    row[0] = row[1] = 0.0;
                    row[data_.gold_of(j)] = 1.0;
                }
                continue;
            }
            const double *ot = odds_.data() + (static_cast<int64_t>(data_.n_workers) + j) * 2;
            p1.resize(static_cast<std::size_t>(count * 2));
            a[0] = a[1] = 0.0;
            product[0] = product[1] = 1.0;
            bool logged = false;
            for (int64_t e = 0; e < count; ++e) {
                const uint32_t code = data_.item_code[first + e];
                const int32_t i = static_cast<int32_t>(code >> 1), x = static_cast<int32_t>(code & 1u);
                const double *ow = odds_.data() + static_cast<int64_t>(i) * 2;
                for (int32_t c = 0; c < 2; ++c) {
                    const double o = ow[c] * ot[c];
                    if (!(o > kOddsLow && o < kOddsHigh)) {  // from the logit difference
                        const double d = logit_difference(i, j, c);
                        // log P(x | c) = -softplus(-d) for x = 1, -softplus(d) for x = 0.
                        const double u = x ? -d : d;
                        a[c] -= std::max(u, 0.0) + std::log1p(std::exp(-std::fabs(u)));
                        p1[static_cast<std::size_t>(e * 2 + c)] = logistic(d);
                        logged = true;
                        continue;
                    }
                    const double inv = 1.0 / (1.0 + o), p = o * inv;
                    p1[static_cast<std::size_t>(e * 2 + c)] = p;
                    product[c] *= x ? p : inv;
                    if (product[c] < kRescale) {
                        a[c] += std::log(product[c]);
                        product[c] = 1.0;
                        logged = true;
                    }
                }
            }
            value += item_term(j, 2, product, a, logged, fixed, qj, logs);
            if (q) std::copy(qj, qj + 2, q->begin() + static_cast<int64_t>(j) * 2);
            double item_sum[2] = {0.0, 0.0};
            for (int64_t e = 0; e < count; ++e) {
                const uint32_t code = data_.item_code[first + e];
                const int64_t i = static_cast<int64_t>(code >> 1);
                const double hit = static_cast<double>(code & 1u);
                double *__restrict worker_grad = workers + i * 4;
                for (int32_t c = 0; c < 2; ++c) {
                    const double g = qj[c] * (hit - p1[static_cast<std::size_t>(e * 2 + c)]);
                    worker_grad[c * 2 + 1] += g;
                    item_sum[c] += g;
                }
            }
            for (int32_t c = 0; c < 2; ++c) {
                item_grad[c * 2] = -item_sum[c];
                item_grad[c * 2 + 1] = item_sum[c];
            }
        }
        return value + logs.total();
    }

    // K = 2: d_c of worker i on item j, and P(1 | c) = 1 / (1 + exp(-d_c)) without overflow.
    double logit_difference(int32_t i, int32_t j, int32_t c) const {
        const double *s = sigma(i) + c * 2, *t = tau(j) + c * 2;
        return (s[1] - s[0]) + (t[1] - t[0]);
    }
    static double logistic(double d) { return d >= 0.0 ? 1.0 / (1.0 + std::exp(-d)) : std::exp(d) / (1.0 + std::exp(d)); }
    double binary_p1(int32_t i, int32_t j, int32_t c) const {
        const double o = odds_[static_cast<std::size_t>(i) * 2 + c] *
                         odds_[static_cast<std::size_t>(static_cast<int64_t>(data_.n_workers) + j) * 2 + c];
        return o > kOddsLow && o < kOddsHigh ? o / (1.0 + o) : logistic(logit_difference(i, j, c));
    }

    // K = 2: the odds o_c of a label's row within which it is computed from the odds.
    static constexpr double kOddsLow = 1e-100, kOddsHigh = 1e100;

    // Sum over each worker's labels of P_ij(. | c), per worker (worker x true x observed).
    void confusion_sums(std::vector<double> &sums) {
        const int32_t k = spec_.k;
        if (k == 2) {
            binary_confusion_sums(sums);
            return;
        }
        team_.run(static_cast<int64_t>(parts_.size()), [&](int64_t part) {
            double *workers = copies_.data() + part * table_;
            std::fill(workers, workers + table_, 0.0);
            std::vector<double> table(static_cast<std::size_t>(kk_)), logp(static_cast<std::size_t>(k));
            for (int32_t j = parts_[part].first; j < parts_[part].last; ++j)
                for (int64_t p = data_.item_start[j]; p < data_.item_start[j + 1]; ++p) {
                    const int32_t i = data_.worker_of(p);
                    const double *es = exp_sigma(i), *et = exp_tau(j);
                    double *w = workers + i * kk_;
                    for (int32_t c = 0; c < k; ++c) {  // as data_term: products, logits on underflow
                        double z = 0.0;
                        for (int32_t y = 0; y < k; ++y) z += es[c * k + y] * et[c * k + y];
                        if (!(z > 1e-290)) {
                            label_table(k, sigma(i), tau(j), 0, table.data(), logp.data());
                            for (int32_t y = 0; y < k; ++y) w[c * k + y] += table[c * k + y];
                            continue;
                        }
                        for (int32_t y = 0; y < k; ++y) w[c * k + y] += es[c * k + y] * et[c * k + y] / z;
                    }
                }
        });
        sums.assign(static_cast<std::size_t>(table_), 0.0);
        sum_tables(copies_.data(), table_, static_cast<int64_t>(parts_.size()), sums.data(), 1);
    }

    // confusion_sums for K = 2, from the odds: P(1 | c) = o_c / (1 + o_c), or from the
    // logits beyond binary_pass's range of odds.
    void binary_confusion_sums(std::vector<double> &sums) {
        team_.run(static_cast<int64_t>(parts_.size()), [&](int64_t part) {
            double *workers = copies_.data() + part * table_;
            std::fill(workers, workers + table_, 0.0);
            for (int32_t j = parts_[part].first; j < parts_[part].last; ++j)
                for (int64_t p = data_.item_start[j]; p < data_.item_start[j + 1]; ++p) {
                    const int32_t i = data_.worker_of(p);
                    double *w = workers + i * 4;
                    for (int32_t c = 0; c < 2; ++c) {
                        const double p1 = binary_p1(i, j, c);
                        w[c * 2] += 1.0 - p1;
                        w[c * 2 + 1] += p1;
                    }
                }
        });
        sums.assign(static_cast<std::size_t>(table_), 0.0);
        sum_tables(copies_.data(), table_, static_cast<int64_t>(parts_.size()), sums.data(), 1);
    }

    int threads() const { return team_.size(); }

private:
    const CrowdData &data_;
    MinimaxSpec spec_;
    int64_t kk_;
    Team team_;
    std::vector<ItemRange> parts_;
    int64_t table_ = 0;
    std::vector<double> copies_, part_value_;
    std::vector<double> expanded_;       // ordinal: the matrices of eq. 11, workers then items
    std::vector<double> exp_;            // exp(matrix - row maximum), workers then items
    std::vector<double> odds_;           // K = 2: exp(m(c, 1) - m(c, 0)) per row c, workers then items
    std::vector<std::vector<double>> p1_;  // K = 2: per partition, an item's P(1 | c) per label
    const double *matrices_ = nullptr;   // the current matrices (x itself when categorical)

    // The odds exp(m(c, 1) - m(c, 0)) of a 2 x 2 matrix's rows. Beyond the doubles' range
    // they are 0 or infinity, which binary_pass sends to its logit path.
    static void odds_rows(const double *m, double *odds) {
        for (int32_t c = 0; c < 2; ++c) odds[c] = std::exp(m[c * 2 + 1] - m[c * 2]);
    }

    // exp(m - the row's maximum) of one K x K matrix, row by row (the maximum's entry is
    // exactly 1, without an exponential).
    void exp_rows(const double *m, double *e) const {
        const int32_t k = spec_.k;
        for (int32_t c = 0; c < k; ++c) {
            const double *row = m + c * k;
            const int32_t top = static_cast<int32_t>(std::max_element(row, row + k) - row);
            for (int32_t y = 0; y < k; ++y) e[c * k + y] = y == top ? 1.0 : std::exp(row[y] - row[top]);
        }
    }
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
        // The data term's gradient over the parameters: the matrices' own (categorical),
        // or mapped by the transpose of eq. 11 into grad (ordinal).
        if (spec_.ordinal)
            for (int64_t block = 0; block < blocks; ++block)
                gather(spec_, matrix_grad_.data() + block * kk, grad.data() + block * b);
        const double *data_grad = spec_.ordinal ? grad.data() : matrix_grad_.data();
        // Then the penalties' (alpha on the workers' parameters, beta on the items'), in
        // two flat loops over the vector: no per-block choice of the weight.
        const std::size_t workers_end = static_cast<std::size_t>(data_.n_workers) * static_cast<std::size_t>(b);
        double squares[2] = {0.0, 0.0};
        for (int side = 0; side < 2; ++side) {
            const double weight = side == 0 ? spec_.alpha : spec_.beta;
            const std::size_t from = side == 0 ? 0 : workers_end, to = side == 0 ? workers_end : x.size();
            double sum = 0.0;
            for (std::size_t e = from; e < to; ++e) {
                sum += x[e] * x[e];
                grad[e] = weight * x[e] - data_grad[e];
            }
            squares[side] = sum;
        }
        return 0.5 * spec_.alpha * squares[0] + 0.5 * spec_.beta * squares[1] - data_value;
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
        h.insert(h.end(), static_cast<std::size_t>(b), 1.0 / (0.5 * static_cast<double>(per_worker[i]) / rows + spec.alpha + 1e-12));
    for (int32_t j = 0; j < data.n_items; ++j) {
        const double labels = static_cast<double>(data.item_start[j + 1] - data.item_start[j]);
        h.insert(h.end(), static_cast<std::size_t>(b), 1.0 / (0.5 * labels / rows + spec.beta + 1e-12));
    }
    return h;
}

// The first M-step of Algorithm 1 with the item matrices at 0: each worker's
// parameters maximise sum_c sum_x N_i(c, x) log P_i(x | c) - (alpha / 2) |theta_i|^2,
// P_i(. | c) the softmax of row c of sigma_i, N_i(c, x) = sum_j Q_jc I(x_ij = x) from the
// start posteriors Q. The counts take one pass over the labels; the problem (concave,
// workers independent) is then solved by L-BFGS on the counts alone, at no further
// cost in labels. The item matrices start at 0: their penalty beta = alpha n / m is
// large against an item's few labels, and the main phase fits them with the workers.
// h: the main phase's preconditioner (inverse_scale), whose workers' part serves here.
void start_from_counts(const CrowdData &data, const MinimaxSpec &spec, const std::vector<double> &q,
                       const std::vector<double> &h, std::vector<double> &params) {
    constexpr double kTol = 1e-8;
    constexpr int32_t kIterations = 500;
    const int32_t k = spec.k, b = spec.block();
    const int64_t kk = static_cast<int64_t>(k) * k, m = data.n_workers;
    std::vector<double> counts(static_cast<std::size_t>(m * kk), 0.0);
    for (int32_t j = 0; j < data.n_items; ++j) {
        const double *qj = q.data() + static_cast<int64_t>(j) * k;
        for (int64_t p = data.item_start[j]; p < data.item_start[j + 1]; ++p) {
            double *n = counts.data() + data.worker_of(p) * kk + data.label_of(p);
            for (int32_t c = 0; c < k; ++c) n[c * k] += qj[c];
        }
    }
    std::vector<double> matrix(static_cast<std::size_t>(kk)), matrix_grad(static_cast<std::size_t>(kk));
    const Objective f = [&](const std::vector<double> &x, std::vector<double> &grad) {
        grad.resize(x.size());
        double value = 0.0;
        for (int64_t i = 0; i < m; ++i) {
            const double *theta = x.data() + i * b, *n = counts.data() + i * kk;
            expand(spec, theta, matrix.data());
            for (int32_t c = 0; c < k; ++c) {
                const double *row = matrix.data() + c * k;
                double top = row[0], z = 0.0, total = 0.0;
                for (int32_t y = 1; y < k; ++y) top = std::max(top, row[y]);
                for (int32_t y = 0; y < k; ++y) z += std::exp(row[y] - top);
                const double lse = top + std::log(z);
                for (int32_t y = 0; y < k; ++y) total += n[c * k + y];
                for (int32_t y = 0; y < k; ++y) {
                    value -= n[c * k + y] * (row[y] - lse);
                    matrix_grad[c * k + y] = total * std::exp(row[y] - lse) - n[c * k + y];
                }
            }
            double *g = grad.data() + i * b;
            gather(spec, matrix_grad.data(), g);
            for (int32_t e = 0; e < b; ++e) {
                value += 0.5 * spec.alpha * theta[e] * theta[e];
                g[e] += spec.alpha * theta[e];
            }
        }
        return value;
    };
    std::vector<double> x(static_cast<std::size_t>(m * b), 0.0);
    LbfgsOptions options;
    options.max_iter = kIterations;
    options.rel_tol = kTol;
    options.inverse_scale.assign(h.begin(), h.begin() + static_cast<std::ptrdiff_t>(m * b));
    minimize_lbfgs(f, x, options);
    std::copy(x.begin(), x.end(), params.begin());
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
    spec.beta = spec.alpha * static_cast<double>(std::max<int64_t>(items, 1)) /
                static_cast<double>(std::max<int64_t>(workers, 1));
    return spec;
}

MinimaxFit fit_minimax_model(const CrowdData &data, const MinimaxSpec &spec, const FitOptions &options,
                             const Progress &progress, const std::vector<double> &start) {
    // The main phase also stops when no posterior moves by more than this in an
    // iteration: the rule of the authors' code (TOL = 1e-3 on max |Q_new - Q_old|).
    constexpr double kPosteriorTol = 1e-3;
    Passes passes(data, spec, threads_for(options.threads, static_cast<int64_t>(data.n_labels())));
    MinimaxObjective objective(data, spec, passes);
    MinimaxFit fit;
    fit.params.assign(static_cast<std::size_t>((static_cast<int64_t>(data.n_workers) + data.n_items) * spec.block()),
                      0.0);
    LbfgsOptions lbfgs;
    lbfgs.memory = 5;  // as many pairs as 10 gave the same iterations on the shared sets
    lbfgs.inverse_scale = inverse_scale(data, spec);
    // Quasi-Newton curvature for the worker parameters only: an item's parameters have
    // the curvature of their penalty beta plus that of a few labels, which the diagonal
    // preconditioner holds (beta = alpha n / m is large against an item's labels), and
    // the item parameters are most of the vector (n x block), whose L-BFGS passes would
    // otherwise cost as much as the labels' pass.
    lbfgs.curvature_dims = static_cast<int64_t>(data.n_workers) * spec.block();
    start_from_counts(data, spec, start, lbfgs.inverse_scale, fit.params);
    lbfgs.max_iter = options.max_iter;
    lbfgs.rel_tol = options.tol;
    // Every evaluation writes its posteriors: the accepted point's are the last ones
    // written when the hook runs (the line search accepts the point it evaluated last).
    const std::size_t nk = static_cast<std::size_t>(data.n_items) * data.k;
    // Both start uniform: an evaluation writes every labelled item's row (and the gold
    // items'), and the others stay uniform in both, so they can be swapped.
    std::vector<double> q_now(nk, 1.0 / data.k), q_before = q_now;
    const bool q_rule = options.tol > 0.0;
    const LbfgsReport report = minimize_lbfgs(
        [&](const std::vector<double> &x, std::vector<double> &g) { return objective(x, g, nullptr, &q_now); },
        fit.params, lbfgs, [&](int32_t iteration, double value) {
            if (iteration > 0) fit.trace.push_back(-value);
            // The reference code's rule: no posterior moved by more than 1e-3.
            double moved = iteration > 0 ? 0.0 : 1.0;
            for (std::size_t e = 0; iteration > 0 && e < nk; ++e)
                moved = std::max(moved, std::fabs(q_now[e] - q_before[e]));
            q_before.swap(q_now);  // q_before: the accepted point's (x only moves on acceptance)
            if (progress.cancelled(iteration, -value)) return HookAnswer::Cancel;
            return q_rule && moved <= kPosteriorTol ? HookAnswer::Converged : HookAnswer::Continue;
        });
    fit.iterations = report.iterations;
    fit.cancelled = report.cancelled;
    fit.converged = !report.cancelled && report.converged;
    fit.posteriors = std::move(q_before);  // at fit.params: the last accepted point's
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
