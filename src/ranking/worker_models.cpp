// SPDX-License-Identifier: MIT
// The two models with a parameter per worker, fitted by the same generalised EM
// (docs/algorithms.md, "noisy-bt" and "crowd-bt"): each answer is a mixture of
// "Bradley-Terry on the true scores" and a noise branch; the E-step gives each answer's
// responsibility rho of the BT branch, the worker parameters have closed-form MAP
// updates, and the scores take one MM sweep of the Bradley-Terry problem whose wins are
// the responsibilities (bt_steps.hpp). Every step raises the log posterior.
//
// - crowd-bt (Chen et al. 2013, crowd_bt.md C1-C6): P(stated order) = eta q + (1 - eta)
//   (1 - q), q = sigma(s_winner - s_loser); the noise branch is the reversed truth, so
//   an answer gives rho of a win to its stated winner and 1 - rho to the other item.
// - noisy-bt (crowd-kit's NoisyBradleyTerry, noisy_bt.md N1): P(answer) = skill q +
//   (1 - skill) coin, coin = bias if the answer is "left" else 1 - bias; the coin says
//   nothing about the items, so an answer gives rho of a win to its winner and counts
//   rho towards the pair.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "ranking/bt_steps.hpp"
#include "ranking/fit_loop.hpp"
#include "ranking/pair_chunks.hpp"
#include "ranking/run_comparisons.hpp"
#include "util/error.hpp"

namespace cs {

namespace {

constexpr double kTinyProbability = 1e-300;
constexpr int kStartSweeps = 5;
// crowd-bt's Newton step (expand()): the largest change of the scores' scale c it
// makes, and the share of the distance to 0 or 1 an eta may cover in one step (the
// quadratic model is trusted only near the current point; an eta whose MAP is the
// boundary gets there geometrically, not by a step past it).
constexpr double kMaxScaleStep = 0.5;
constexpr double kBoundaryShare = 0.5;
// crowd-bt's M-step: MM sweeps of the scores after the first (docs/defaults.md,
// "crowd-bt's rounds").
constexpr int kExtraSweeps = 3;

// logit(p), p kept 1e-15 away from 0 and 1 (crowd-bt's eta of a worker without answers
// is exactly 1), so that SQUAREM's extrapolation stays finite.
double logit(double p) {
    p = std::min(1.0 - 1e-15, std::max(1e-15, p));
    return std::log(p / (1.0 - p));
}

class WorkerEm {
public:
    WorkerEm(const ComparisonData &data, const FitOptions &options, Team &team, bool noisy)
        : data_(data), options_(options), team_(team), noisy_(noisy), lambda_(options.comparison_prior) {
        ties_ = options.ties == CS_TIES_AUTO ? CS_TIES_IGNORE : options.ties;
        if (ties_ == CS_TIES_DAVIDSON)
            throw Error(CS_ERR_INVALID_ARGUMENT, std::string(noisy ? "noisy-bt" : "crowd-bt") +
                                                     " has no Davidson tie model: set ties to half or ignore "
                                                     "(auto ignores ties)");
        const std::size_t workers = static_cast<std::size_t>(data.n_workers);
        reliability_.assign(workers, 0.8);  // better than chance: breaks crowd-bt's flip symmetry
        if (noisy_) bias_.assign(workers, 0.5);
        scale_ = score_scales(data, lambda_);
        // Each worker's answers other than ties (fixed): the M-step's denominators.
        answers_.assign(workers, 0.0);
        for (std::size_t c = 0; c < data.worker.size(); ++c)
            if ((data.outcome[c] & kOutcomeMask) != kTie) answers_[static_cast<std::size_t>(data.worker[c])] += 1.0;
        if (!noisy_) {
            // crowd-bt's answers per pair, as the E-step counts them towards the MM
            // sweep (ties: half a win each way with ties = half, else none).
            const PairWeights counts = count_weights(data, ties_);
            pair_count_.resize(counts.pair.size());
            for (std::size_t p = 0; p < counts.pair.size(); ++p)
                pair_count_[p] = counts.pair[p].low + counts.pair[p].high + counts.pair[p].tie;
        }
    }

    void start_scores() {
        // Towards the bt scores (ties as configured, the same prior), from which EM
        // starts: kStartSweeps MM sweeps. EM's own M-step is the same sweep, so sweeps
        // here only pay while they cost less than an EM round; measured at 10^6
        // comparisons, 50 sweeps (the earlier cap) took 0.15 CPU s and left noisy-bt 24
        // and crowd-bt 44 SQUAREM cycles, 5 sweeps 20 and 42 (docs/defaults.md).
        const PairWeights counts = count_weights(data_, ties_);
        if (lambda_ == 0.0) require_strongly_connected(data_, counts);
        const std::vector<double> wins = item_wins(data_, ties_);
        const std::size_t n = static_cast<std::size_t>(data_.n_items);
        pi_.assign(n, 1.0);
        std::vector<double> next, first;
        PairChunks chunks(data_.n_pairs(), data_.n_items);
        for (int sweep = 0; sweep < kStartSweeps; ++sweep) {
            chunks.run(team_, first, [&](int64_t begin, int64_t end, double *table) {
                for (int64_t q = begin; q < end; ++q) {
                    const std::size_t p = static_cast<std::size_t>(q);
                    const std::size_t lo = static_cast<std::size_t>(data_.pair_lo[p]), hi = static_cast<std::size_t>(data_.pair_hi[p]);
                    const double t = (counts.pair[p].low + counts.pair[p].high) / (pi_[lo] + pi_[hi]);
                    table[lo] += t;
                    table[hi] += t;
                }
                return 0.0;
            });
            mm_update(wins.data(), first.data(), nullptr, lambda_, 0.0, pi_, next);
            optimal_shift(data_, next, lambda_);
            double change = 0.0;
            for (std::size_t i = 0; i < n; ++i) change = std::max(change, std::fabs(std::log(next[i] / pi_[i])));
            pi_.swap(next);
            if (change < 1e-6) break;
        }
    }

    // The fit_loop.hpp Model interface: parameters as log strengths and logits.
    std::vector<double> params() const {
        std::vector<double> x;
        x.reserve(pi_.size() + reliability_.size() + bias_.size());
        for (double v : pi_) x.push_back(std::log(v));
        for (double v : reliability_) x.push_back(logit(v));
        for (double v : bias_) x.push_back(logit(v));
        return x;
    }
    void set_params(const std::vector<double> &x) {
        std::size_t k = 0;
        for (double &v : pi_) v = std::exp(x[k++]);
        for (double &v : reliability_) v = sigmoid(x[k++]);
        for (double &v : bias_) v = sigmoid(x[k++]);
    }
    double evaluate() { return e_step(true); }
    bool prepare() {
        e_step(false);
        return all_finite(sums_);
    }
    void advance() { m_step(); }

    // crowd-bt's extra step (fit_loop.hpp): one Newton step of the log posterior itself
    // in the scores' scale c (s -> c s) and every worker's eta. EM converges slowly
    // along the scores' spread against the etas: a wider spread with etas nearer 1/2
    // explains the answers almost as well, and with Beta(4, 1) a worker the scores
    // explain well has the MAP eta = 1 (231 of the 1000 workers of the 10^5-comparison
    // bench file), which EM approaches only by a constant factor of 1 - eta per round.
    // The gradient and the Hessian (the etas' block diagonal, plus the scale's row)
    // are sums the last E-step made (no extra pass); the arrow-shaped system is solved
    // in O(workers). The step is cut to |dc| <= 0.5 and to half of each eta's distance
    // to 0 or 1, and kept when the log posterior at the new point (one E-step, which the
    // next cycle needs anyway) is not below `objective`; otherwise the model is put back
    // as it was. An ECME-style step (Liu and Rubin 1994): it raises the observed log
    // posterior, and fixed points of EM are stationary in these coordinates too, so it
    // changes where the fit goes no more than SQUAREM does, only how fast. noisy-bt: no
    // step. Returns the log posterior the model is left evaluated at.
    double expand(double objective) {
        if (noisy_) return objective;
        const std::size_t n = pi_.size(), workers = reliability_.size();
        const double *gradient = sums_.data() + 2 * n + workers;  // after wins, first, bt_mass
        const double *curvature = gradient + workers, *cross = curvature + workers;
        double g_c = cross[workers], h_cc = cross[workers + 1];
        // The score prior lambda sum_i log sigma(c s_i) + log sigma(-c s_i).
        for (std::size_t i = 0; i < n; ++i) {
            const double si = s_[i], p = sigmoid(si);
            g_c += lambda_ * si * (1.0 - 2.0 * p);
            h_cc -= 2.0 * lambda_ * si * si * p * (1.0 - p);
        }
        // Each eta's Beta(alpha, beta) prior, then the Schur complement of the etas' block:
        // (h_cc - sum_w u_w^2 / h_w) dc = -(g_c - sum_w u_w g_w / h_w), and d eta_w =
        // -(g_w + u_w dc) / h_w.
        const double a = options_.crowd_bt_alpha - 1.0, b = options_.crowd_bt_beta - 1.0;
        std::vector<double> g(workers), h(workers);
        std::vector<char> bound(workers, 0);
        double schur = h_cc, rhs = -g_c;
        for (std::size_t w = 0; w < workers; ++w) {
            const double eta = reliability_[w];
            g[w] = gradient[w];
            h[w] = curvature[w];
            if (a != 0.0) {
                g[w] += a / eta;
                h[w] -= a / (eta * eta);
            }
            if (b != 0.0) {
                g[w] -= b / (1.0 - eta);
                h[w] -= b / ((1.0 - eta) * (1.0 - eta));
            }
            if (!(h[w] < 0.0)) return objective;  // not concave here: no Newton step
            // An eta whose own step already goes past its share of the way to 0 or 1
            // (its MAP at or near the boundary) moves by that share alone, and is left
            // out of the scale's system.
            const double own = -g[w] / h[w];
            bound[w] = own > kBoundaryShare * (1.0 - eta) || own < -kBoundaryShare * eta;
            if (bound[w]) continue;
            schur -= cross[w] * cross[w] / h[w];
            rhs += cross[w] * g[w] / h[w];
        }
        if (!(schur < 0.0) || !std::isfinite(schur + rhs)) return objective;
        const double step_c = std::max(-kMaxScaleStep, std::min(kMaxScaleStep, rhs / schur));
        const std::vector<double> pi = pi_, reliability = reliability_, sums = sums_;
        for (std::size_t w = 0; w < workers; ++w) {
            const double eta = reliability_[w];
            const double step = -(g[w] + (bound[w] ? 0.0 : cross[w] * step_c)) / h[w];
            reliability_[w] = eta + std::max(-kBoundaryShare * eta, std::min(kBoundaryShare * (1.0 - eta), step));
        }
        for (std::size_t i = 0; i < n; ++i) pi_[i] = std::exp((1.0 + step_c) * s_[i]);
        const double moved = e_step(true);
        if (std::isfinite(moved) && moved >= objective) return moved;
        pi_ = pi;
        reliability_ = reliability;
        sums_ = sums;
        for (std::size_t i = 0; i < n; ++i) s_[i] = std::log(pi_[i]);
        return objective;
    }

    // E-step at the current parameters: the log posterior (returned) and, in the same
    // pass over the pairs, the sums the M-step needs (sums_): per item the
    // responsibilities' wins and the MM sweep's sum_j n_ij / (pi_i + pi_j), per worker
    // the mass of its BT branch and (noisy-bt) of its coin saying "left".
    // With objective = false only the sums (fit_loop.hpp's prepare()): no logarithms.
    double e_step(bool objective) {
        const std::size_t n = pi_.size();
        s_.resize(n);
        for (std::size_t i = 0; i < n; ++i) s_[i] = std::log(pi_[i]);
        const double log_likelihood = chunks_.run(team_, sums_, [&](int64_t begin, int64_t end, double *table) {
            LogProduct log_p;
            LowItemSums low_item;  // wins and first of the pairs' lower item
            double sum = 0.0;
            for (int64_t q = begin; q < end; ++q) {
                const std::size_t p = static_cast<std::size_t>(q);
                if (noisy_)
                    sum += objective ? e_step_pair<true, true>(p, table, log_p, low_item)
                                     : e_step_pair<true, false>(p, table, log_p, low_item);
                else
                    sum += objective ? e_step_pair<false, true>(p, table, log_p, low_item)
                                     : e_step_pair<false, false>(p, table, log_p, low_item);
            }
            low_item.flush(table, table + n);
            return sum + log_p.total();
        });
        if (!objective) return 0.0;
        return log_likelihood + log_prior(s_, lambda_) + worker_log_prior();
    }

    // M-step: worker parameters in closed form, then one MM sweep of the scores, both
    // from the sums of the E-step.
    void m_step() {
        const std::size_t n = pi_.size(), workers = reliability_.size();
        const double *bt_mass = sums_.data() + 2 * n, *coin_left = bt_mass + workers;
        for (std::size_t w = 0; w < workers; ++w) update_worker(w, bt_mass[w], noisy_ ? coin_left[w] : 0.0);
        std::vector<double> next;
        mm_update(sums_.data(), sums_.data() + n, nullptr, lambda_, 0.0, pi_, next);
        optimal_shift(data_, next, lambda_);
        pi_.swap(next);
        if (noisy_) return;
        // crowd-bt: kExtraSweeps more MM sweeps of the same Bradley-Terry problem (the
        // responsibilities' wins fixed; every answer counts once towards its pair,
        // rho to one item and 1 - rho to the other), each a pass over the pairs
        // without the answers. Each raises the E-step's expected log posterior, so the
        // round is still a generalised EM step with the same fixed points; nearer the
        // M-step's own maximum, the rounds and expand()'s Newton step converge in
        // fewer cycles (docs/defaults.md, "crowd-bt's rounds").
        std::vector<double> first;
        for (int sweep = 0; sweep < kExtraSweeps; ++sweep) {
            sweep_chunks_.run(team_, first, [&](int64_t begin, int64_t end, double *table) {
                LowItemSums low_first;
                for (int64_t q = begin; q < end; ++q) {
                    const std::size_t p = static_cast<std::size_t>(q);
                    const std::size_t lo = static_cast<std::size_t>(data_.pair_lo[p]), hi = static_cast<std::size_t>(data_.pair_hi[p]);
                    low_first.move_to(lo, table, nullptr);
                    const double t = pair_count_[p] / (pi_[lo] + pi_[hi]);
                    low_first.a += t;
                    table[hi] += t;
                }
                low_first.flush(table, nullptr);
                return 0.0;
            });
            mm_update(sums_.data(), first.data(), nullptr, lambda_, 0.0, pi_, next);
            optimal_shift(data_, next, lambda_);
            pi_.swap(next);
        }
    }

    // Per pair, the observed information of d = s_lo - s_hi, -d2 log P / dd2 summed over
    // the pair's answers at the current parameters, negative sums counted as 0.
    std::vector<double> curvature() const {
        std::vector<double> c(static_cast<std::size_t>(data_.n_pairs()), 0.0);
        for (std::size_t p = 0; p < c.size(); ++p) {
            const double d = std::log(pi_[static_cast<std::size_t>(data_.pair_lo[p])]) -
                             std::log(pi_[static_cast<std::size_t>(data_.pair_hi[p])]);
            double sum = 0.0;
            for (int64_t k = data_.pair_start[p]; k < data_.pair_start[p + 1]; ++k) {
                const std::size_t c_index = static_cast<std::size_t>(k);
                const uint8_t outcome = data_.outcome[c_index] & kOutcomeMask;
                if (outcome == kTie) {
                    if (ties_ == CS_TIES_HALF) sum += sigmoid(d) * sigmoid(-d);
                    continue;
                }
                const bool low_won = outcome == kLowWon;
                const double q = sigmoid(low_won ? d : -d);
                const std::size_t w = static_cast<std::size_t>(data_.worker[c_index]);
                // P = g q + h with P' = g q (1 - q), P'' = g q (1 - q)(1 - 2q); the
                // information is (P'^2 - P P'') / P^2.
                double g, h;
                if (noisy_) {
                    const bool winner_left = low_won == ((data_.outcome[c_index] & kLowOnLeft) != 0);
                    g = reliability_[w];
                    h = (1.0 - g) * (winner_left ? bias_[w] : 1.0 - bias_[w]);
                } else {
                    g = 2.0 * reliability_[w] - 1.0;
                    h = 1.0 - reliability_[w];
                }
                const double P = std::max(kTinyProbability, g * q + h), slope = g * q * (1.0 - q);
                sum += (slope * slope - P * slope * (1.0 - 2.0 * q)) / (P * P);
            }
            c[p] = std::max(0.0, sum);
        }
        return c;
    }

    const std::vector<double> &pi() const { return pi_; }
    const std::vector<double> &score_scale() const { return scale_; }
    const std::vector<double> &reliability() const { return reliability_; }
    const std::vector<double> &bias() const { return bias_; }

private:
    // One pair's answers (eq. of the file's header): adds each answer's probability to
    // log_p and its responsibility rho to the tables of the E-step (layout: wins,
    // first, bt_mass, coin_left); returns the ties' log-likelihood (ties = half).
    template <bool Noisy, bool Objective>
    double e_step_pair(std::size_t p, double *table, LogProduct &log_p, LowItemSums &low_item) const {
        const std::size_t n = pi_.size(), workers = reliability_.size();
        double *wins = table, *first = table + n, *bt_mass = table + 2 * n, *coin_left = bt_mass + workers;
        const std::size_t lo = static_cast<std::size_t>(data_.pair_lo[p]), hi = static_cast<std::size_t>(data_.pair_hi[p]);
        low_item.move_to(lo, wins, first);
        // P(lo beats hi), P(hi beats lo) under BT from the strengths: no exp per pair.
        const double total = pi_[lo] + pi_[hi], inverse = 1.0 / total;
        double q_low, q_high;
        if (total > 0.0 && total <= 1e300) {
            q_low = pi_[lo] * inverse;
            q_high = pi_[hi] * inverse;
        } else {
            q_low = sigmoid(s_[lo] - s_[hi]);
            q_high = sigmoid(s_[hi] - s_[lo]);
        }
        // Selections by the outcome index small arrays rather than branch: who won is a
        // coin flip to the branch predictor (a mispredicted branch per answer cost more
        // than the rest of the answer's arithmetic).
        const double q_of[2] = {q_high, q_low};  // [low won]: P(stated winner beats the other)
        double side[2] = {0.0, 0.0};             // [0] hi's wins, [1] lo's wins
        double tie_log_likelihood = 0.0;
        // crowd-bt's Newton sums (expand()): the stated winner's score lead delta =
        // +-(s_lo - s_hi), and q (1 - q), the same for either outcome.
        const double lead_of[2] = {Objective && !Noisy ? s_[hi] - s_[lo] : 0.0, Objective && !Noisy ? s_[lo] - s_[hi] : 0.0};
        const double spread = q_low * q_high;
        double scale_gradient = 0.0, scale_curvature = 0.0;
        double *worker_gradient = bt_mass + workers, *worker_curvature = worker_gradient + workers,
               *cross_curvature = worker_curvature + workers;
        for (int64_t k = data_.pair_start[p]; k < data_.pair_start[p + 1]; ++k) {
            const std::size_t c = static_cast<std::size_t>(k);
            const uint8_t outcome = data_.outcome[c] & kOutcomeMask;
            if (outcome == kTie) {
                if (ties_ == CS_TIES_HALF) {
                    side[0] += 0.5;
                    side[1] += 0.5;
                    if (Objective) {
                        tie_log_likelihood += 0.5 * (log_sigmoid(s_[lo] - s_[hi]) + log_sigmoid(s_[hi] - s_[lo]));
                        // Its derivatives in c: d (q_hi - q_lo) / 2 and -d^2 q_lo q_hi, d = s_lo - s_hi.
                        scale_gradient += 0.5 * lead_of[1] * (q_high - q_low);
                        scale_curvature -= lead_of[1] * lead_of[1] * spread;
                    }
                }
                continue;
            }
            const int low_won = outcome == kLowWon;
            const double q = q_of[low_won];
            const std::size_t w = static_cast<std::size_t>(data_.worker[c]);
            const double r = reliability_[w];
            const double bt_branch = r * q;
            double noise_branch, rho;
            if (Noisy) {
                const int winner_left = low_won == ((data_.outcome[c] & kLowOnLeft) != 0);
                const double coin[2] = {1.0 - bias_[w], bias_[w]};  // [winner is left]
                noise_branch = (1.0 - r) * coin[winner_left];
                const double P = bt_branch + noise_branch;
                rho = P > 0.0 ? bt_branch / P : 0.5;
                if (Objective) log_p.add_probability(std::min(1.0, std::max(P, kTinyProbability)));
                // noisy-bt's coin branch says nothing about the items: rho of a win to
                // the stated winner only; the coin's mass for the worker's bias.
                side[low_won] += rho;
                const double left_share[2] = {0.0, 1.0 - rho};
                coin_left[w] += left_share[winner_left];
            } else {
                noise_branch = (1.0 - r) * q_of[1 - low_won];
                const double P = bt_branch + noise_branch;
                rho = P > 0.0 ? bt_branch / P : 0.5;
                if (Objective) {
                    log_p.add_probability(std::min(1.0, std::max(P, kTinyProbability)));
                    // Derivatives of log P in c (s -> c s, at c = 1) and in eta_w: P = 1/2 +
                    // a (q - 1/2), a = 2 eta - 1, so P_c = a q (1 - q) delta, P_cc = P_c
                    // delta (1 - 2 q), P_eta = 2 q - 1, P_eta,eta = 0, P_c,eta = 2 q (1 - q) delta.
                    const double inverse_p = 1.0 / std::max(P, kTinyProbability);
                    const double delta = lead_of[low_won];
                    const double p_c = (2.0 * r - 1.0) * spread * delta * inverse_p, p_eta = (2.0 * q - 1.0) * inverse_p;
                    scale_gradient += p_c;
                    scale_curvature += p_c * delta * (1.0 - 2.0 * q) - p_c * p_c;
                    worker_gradient[w] += p_eta;
                    worker_curvature[w] -= p_eta * p_eta;
                    cross_curvature[w] += 2.0 * spread * delta * inverse_p - p_c * p_eta;
                }
                // crowd-bt: the reversed branch is a win of the other item.
                side[low_won] += rho;
                side[1 - low_won] += 1.0 - rho;
            }
            bt_mass[w] += rho;
        }
        if (Objective && !Noisy) {
            cross_curvature[workers] += scale_gradient;
            cross_curvature[workers + 1] += scale_curvature;
        }
        const double t = (side[0] + side[1]) * inverse;
        low_item.a += side[1];
        low_item.b += t;
        wins[hi] += side[0];
        first[hi] += t;
        return tie_log_likelihood;
    }

    // The closed-form MAPs of worker w from its BT-branch mass and (noisy-bt) the mass
    // of its coin saying "left".
    void update_worker(std::size_t w, double bt_mass, double coin_left) {
        const double answers = answers_[w];
        if (noisy_) {
            // Beta(2, 2) MAPs (one pseudo-answer each way): never exactly 0 or 1.
            reliability_[w] = (1.0 + bt_mass) / (2.0 + answers);
            bias_[w] = (1.0 + coin_left) / (2.0 + (answers - bt_mass));
        } else {
            // Beta(alpha_0, beta_0) MAP (crowd_bt.md C5).
            const double a = options_.crowd_bt_alpha - 1.0, b = options_.crowd_bt_beta - 1.0;
            const double denominator = a + b + answers;
            reliability_[w] = denominator > 0.0 ? (a + bt_mass) / denominator : 0.5;
        }
    }

    double worker_log_prior() const {
        double sum = 0.0;
        const auto log_of = [](double x) { return std::log(std::max(x, kTinyProbability)); };
        for (std::size_t w = 0; w < reliability_.size(); ++w) {
            if (noisy_) {
                sum += log_of(reliability_[w]) + log_of(1.0 - reliability_[w]) + log_of(bias_[w]) +
                       log_of(1.0 - bias_[w]);
            } else {
                const double a = options_.crowd_bt_alpha - 1.0, b = options_.crowd_bt_beta - 1.0;
                if (a > 0.0) sum += a * log_of(reliability_[w]);
                if (b > 0.0) sum += b * log_of(1.0 - reliability_[w]);
            }
        }
        return sum;
    }

    const ComparisonData &data_;
    const FitOptions &options_;
    Team &team_;
    bool noisy_;
    double lambda_;
    int32_t ties_ = CS_TIES_IGNORE;
    std::vector<double> pi_, s_, reliability_, bias_, answers_, sums_, scale_;
    // E-step tables: per item wins and first, per worker bt_mass and (noisy-bt) coin_left.
    PairChunks chunks_{data_.n_pairs(),
                       2 * int64_t{data_.n_items} + (noisy_ ? 2 : 4) * int64_t{data_.n_workers} + (noisy_ ? 0 : 2)};
    // crowd-bt's extra MM sweeps: the answers of each pair and the sweeps' tables.
    std::vector<double> pair_count_;
    PairChunks sweep_chunks_{noisy_ ? 0 : data_.n_pairs(), int64_t{data_.n_items}};
};

void fit_worker_model(const ComparisonData &data, const FitOptions &options, const Progress &progress, Team &team,
                      bool noisy, RankingState &state, FitResult &out) {
    WorkerEm em(data, options, team, noisy);
    em.start_scores();
    state.cancelled = run_fit_loop(em, options, progress, out);
    state.score.resize(em.pi().size());
    for (std::size_t i = 0; i < em.pi().size(); ++i) state.score[i] = std::log(em.pi()[i]);
    state.curvature = em.curvature();
    out.reliability = em.reliability();
    if (noisy) out.estimates.push_back({"bias", data.n_workers, 1, em.bias()});
}

}  // namespace

void fit_noisy_bt(const ComparisonData &data, const FitOptions &options, const Progress &progress, Team &team,
                  RankingState &state, FitResult &out) {
    fit_worker_model(data, options, progress, team, true, state, out);
}

void fit_crowd_bt(const ComparisonData &data, const FitOptions &options, const Progress &progress, Team &team,
                  RankingState &state, FitResult &out) {
    fit_worker_model(data, options, progress, team, false, state, out);
}

}  // namespace cs
