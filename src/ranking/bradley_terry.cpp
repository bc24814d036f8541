// SPDX-License-Identifier: MIT
// "bt": Bradley-Terry by the MM algorithm of Hunter (2004), with Davidson's (1970) ties
// and the virtual-item prior of Chen et al. (2013) (docs/algorithms.md, "bt").
#include <algorithm>
#include <cmath>

#include "ranking/bt_steps.hpp"
#include "ranking/fit_loop.hpp"
#include "ranking/run_comparisons.hpp"

namespace cs {

namespace {

// c_p of the observed information of s at (pi, nu): for one comparison the Davidson
// outcome is an exponential family in (s_lo, s_hi) with statistic (1, 0), (0, 1) or
// (1/2, 1/2), so -d2 log P is its covariance, whatever was observed (bt.md B16):
// n (m_lo m_hi - p_t / 4), m = p + p_t / 2; n p_lo p_hi without ties.
std::vector<double> bt_curvature(const ComparisonData &data, const PairWeights &w, double nu,
                                 const std::vector<double> &pi) {
    std::vector<double> c(static_cast<std::size_t>(data.n_pairs()));
    for (std::size_t p = 0; p < c.size(); ++p) {
        const double a = pi[static_cast<std::size_t>(data.pair_lo[p])], b = pi[static_cast<std::size_t>(data.pair_hi[p])];
        const double root = nu * std::sqrt(a * b), d = a + b + root;
        const double p_lo = a / d, p_hi = b / d, p_tie = root / d;
        const double m_lo = p_lo + 0.5 * p_tie, m_hi = p_hi + 0.5 * p_tie;
        c[p] = (w.pair[p].low + w.pair[p].high + w.pair[p].tie) * std::max(0.0, m_lo * m_hi - 0.25 * p_tie);
    }
    return c;
}

}  // namespace

namespace {

// bt as a fit_loop.hpp Model: one MM sweep, the optimal shift and Davidson's nu step.
class BtModel {
public:
    BtModel(const ComparisonData &data, const PairWeights &w, double lambda, Team &team)
        : data_(data), w_(w), lambda_(lambda), team_(team), pi_(static_cast<std::size_t>(data.n_items), 1.0) {
        row_weights(data, w, rows_, team);
        // nu starts where equal items tie as often as the data do: nu / (2 + nu) = the
        // share of ties.
        if (w.total_ties > 0.0) {
            const double share = w.total_ties / static_cast<double>(data.n_comparisons);
            nu_ = share < 1.0 ? std::min(kMaxNu, 2.0 * share / (1.0 - share)) : kMaxNu;
        }
    }

    std::vector<double> params() const {
        std::vector<double> x(pi_.size());
        for (std::size_t i = 0; i < pi_.size(); ++i) x[i] = std::log(pi_[i]);
        if (nu_ > 0.0) x.push_back(std::log(nu_));
        return x;
    }
    void set_params(const std::vector<double> &x) {
        for (std::size_t i = 0; i < pi_.size(); ++i) pi_[i] = std::exp(x[i]);
        if (nu_ > 0.0) nu_ = std::min(kMaxNu, std::exp(x.back()));
    }
    double evaluate() { return bt_log_posterior(data_, w_, lambda_, nu_, pi_, team_); }
    void advance() {
        mm_sweep(data_, rows_, lambda_, nu_, pi_, next_, team_);
        pi_.swap(next_);
        optimal_shift(data_, pi_, lambda_);
        nu_ = nu_step(data_, w_, nu_, pi_, team_);
    }

    const std::vector<double> &pi() const { return pi_; }
    double nu() const { return nu_; }

private:
    const ComparisonData &data_;
    const PairWeights &w_;
    double lambda_;
    Team &team_;
    RowWeights rows_;
    std::vector<double> pi_, next_;
    double nu_ = 0.0;
};

}  // namespace

void fit_bt(const ComparisonData &data, const FitOptions &options, const Progress &progress, Team &team,
            RankingState &state, FitResult &out) {
    const int32_t ties = options.ties == CS_TIES_AUTO ? CS_TIES_DAVIDSON : options.ties;
    const PairWeights w = count_weights(data, ties);
    const double lambda = options.comparison_prior;
    if (lambda == 0.0) require_strongly_connected(data, w);
    BtModel model(data, w, lambda, team);
    state.cancelled = run_fit_loop(model, options, progress, out);
    state.score.resize(model.pi().size());
    for (std::size_t i = 0; i < model.pi().size(); ++i) state.score[i] = std::log(model.pi()[i]);
    state.curvature = bt_curvature(data, w, model.nu(), model.pi());
    out.estimates.push_back({"tie", 1, 1, {model.nu()}});
}

}  // namespace cs
