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
#include "ranking/run_comparisons.hpp"
#include "util/error.hpp"

namespace cs {

namespace {

constexpr double kTinyProbability = 1e-300;

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
        rho_.assign(static_cast<std::size_t>(data.n_comparisons), 0.0);
        const std::size_t pairs = static_cast<std::size_t>(data.n_pairs());
        weights_.pair.assign(pairs, PairWeights::Weight());
    }

    void start_scores() {
        // The bt scores (ties as configured, the same prior), from which EM starts.
        const PairWeights counts = count_weights(data_, ties_);
        if (lambda_ == 0.0) require_strongly_connected(data_, counts);
        row_weights(data_, counts, rows_, team_);
        pi_.assign(static_cast<std::size_t>(data_.n_items), 1.0);
        std::vector<double> next;
        for (int sweep = 0; sweep < 50; ++sweep) {
            mm_sweep(data_, rows_, lambda_, 0.0, pi_, next, team_);
            optimal_shift(data_, next, lambda_);
            double change = 0.0;
            for (std::size_t i = 0; i < pi_.size(); ++i) change = std::max(change, std::fabs(std::log(next[i] / pi_[i])));
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
    double evaluate() { return e_step(); }
    void advance() { m_step(); }

    // E-step at the current parameters: responsibilities, the BT weights they give, and
    // the log posterior of the current parameters (returned).
    double e_step() {
        s_.resize(pi_.size());
        for (std::size_t i = 0; i < pi_.size(); ++i) s_[i] = std::log(pi_[i]);
        const int64_t pairs = data_.n_pairs();
        std::vector<double> partial(static_cast<std::size_t>((pairs + kPairBlock - 1) / kPairBlock), 0.0);
        for_blocks(team_, pairs, kPairBlock, [&](int64_t begin, int64_t end, int64_t b) {
            double sum = 0.0;
            for (int64_t q = begin; q < end; ++q) sum += e_step_pair(static_cast<std::size_t>(q));
            partial[static_cast<std::size_t>(b)] = sum;
        });
        return sum_in_order(partial) + log_prior(s_, lambda_) + worker_log_prior();
    }

    // M-step: worker parameters in closed form, then one MM sweep of the scores.
    void m_step() {
        const int64_t workers = data_.n_workers;
        for_blocks(team_, workers, kWorkerBlock, [&](int64_t begin, int64_t end, int64_t) {
            for (int64_t w = begin; w < end; ++w) update_worker(static_cast<std::size_t>(w));
        });
        std::vector<double> next;
        row_weights(data_, weights_, rows_, team_);
        mm_sweep(data_, rows_, lambda_, 0.0, pi_, next, team_);
        optimal_shift(data_, next, lambda_);
        pi_.swap(next);
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
    const std::vector<double> &reliability() const { return reliability_; }
    const std::vector<double> &bias() const { return bias_; }

private:
    double e_step_pair(std::size_t p) {
        const double d = s_[static_cast<std::size_t>(data_.pair_lo[p])] - s_[static_cast<std::size_t>(data_.pair_hi[p])];
        const double q_low = sigmoid(d), q_high = sigmoid(-d);  // P(lo beats hi), P(hi beats lo) under BT
        double low = 0.0, high = 0.0, log_likelihood = 0.0;
        for (int64_t k = data_.pair_start[p]; k < data_.pair_start[p + 1]; ++k) {
            const std::size_t c = static_cast<std::size_t>(k);
            const uint8_t outcome = data_.outcome[c] & kOutcomeMask;
            if (outcome == kTie) {
                if (ties_ == CS_TIES_HALF) {
                    low += 0.5;
                    high += 0.5;
                    log_likelihood += 0.5 * (log_sigmoid(d) + log_sigmoid(-d));
                }
                continue;
            }
            const bool low_won = outcome == kLowWon;
            const double q = low_won ? q_low : q_high;  // P(stated winner beats the other) under BT
            const std::size_t w = static_cast<std::size_t>(data_.worker[c]);
            const double r = reliability_[w];
            double bt_branch, noise_branch;
            if (noisy_) {
                const bool winner_left = low_won == ((data_.outcome[c] & kLowOnLeft) != 0);
                bt_branch = r * q;
                noise_branch = (1.0 - r) * (winner_left ? bias_[w] : 1.0 - bias_[w]);
            } else {
                bt_branch = r * q;
                noise_branch = (1.0 - r) * (low_won ? q_high : q_low);
            }
            const double P = bt_branch + noise_branch;
            const double rho = P > 0.0 ? bt_branch / P : 0.5;
            rho_[c] = rho;
            log_likelihood += std::log(std::max(P, kTinyProbability));
            // crowd-bt: the reversed branch is a win of the other item; noisy-bt's coin
            // branch says nothing about the items (it adds to neither side).
            const double other = noisy_ ? 0.0 : 1.0 - rho;
            (low_won ? low : high) += rho;
            (low_won ? high : low) += other;
        }
        weights_.pair[p].low = low;
        weights_.pair[p].high = high;
        return log_likelihood;
    }

    void update_worker(std::size_t w) {
        double answers = 0.0, bt_mass = 0.0, coin_mass = 0.0, coin_left = 0.0;
        for (int64_t k = data_.worker_start[w]; k < data_.worker_start[w + 1]; ++k) {
            const std::size_t c = data_.worker_comparison[static_cast<std::size_t>(k)];
            const uint8_t outcome = data_.outcome[c] & kOutcomeMask;
            if (outcome == kTie) continue;
            answers += 1.0;
            bt_mass += rho_[c];
            if (noisy_) {
                const bool winner_left = (outcome == kLowWon) == ((data_.outcome[c] & kLowOnLeft) != 0);
                coin_mass += 1.0 - rho_[c];
                if (winner_left) coin_left += 1.0 - rho_[c];
            }
        }
        if (noisy_) {
            // Beta(2, 2) MAPs (one pseudo-answer each way): never exactly 0 or 1.
            reliability_[w] = (1.0 + bt_mass) / (2.0 + answers);
            bias_[w] = (1.0 + coin_left) / (2.0 + coin_mass);
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
    std::vector<double> pi_, s_, reliability_, bias_, rho_;
    PairWeights weights_;
    RowWeights rows_;
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
