// SPDX-License-Identifier: MIT
// "bt": Bradley-Terry by the MM algorithm of Hunter (2004), with Davidson's (1970) ties
// and the virtual-item prior of Chen et al. (2013) (docs/algorithms.md, "bt").
#include <algorithm>
#include <cmath>

#include "ranking/bt_steps.hpp"
#include "ranking/fit_loop.hpp"
#include "ranking/pair_chunks.hpp"
#include "ranking/run_comparisons.hpp"
#include "util/simd_pair.hpp"

namespace cs {

namespace {

// c_p of the observed information of s at (pi, nu): for one comparison the Davidson
// outcome is an exponential family in (s_lo, s_hi) with statistic (1, 0), (0, 1) or
// (1/2, 1/2), so -d2 log P is its covariance, whatever was observed (bt.md B16):
// n (m_lo m_hi - p_t / 4), m = p + p_t / 2; n p_lo p_hi without ties.
std::vector<double> bt_curvature(const ComparisonData &data, const PairTotals &n, double nu,
                                 const std::vector<double> &pi) {
    const uint32_t *count = n.count();
    std::vector<double> c(static_cast<std::size_t>(data.n_pairs()));
    for (std::size_t p = 0; p < c.size(); ++p) {
        const double a = pi[static_cast<std::size_t>(data.pair_lo[p])], b = pi[static_cast<std::size_t>(data.pair_hi[p])];
#if defined(CS_HAVE_PAIR)
        if (nu == 0.0) {
            // Without ties p_tie = 0: n p_lo p_hi, p_lo and p_hi divided at once.
            const double d = a + b;
            const Pair p_lo_hi = Pair{a, b} / Pair{d, d};
            c[p] = count[p] * std::max(0.0, p_lo_hi[0] * p_lo_hi[1]);
            continue;
        }
#endif
        const double root = nu * std::sqrt(a * b), d = a + b + root;
        const double p_lo = a / d, p_hi = b / d, p_tie = root / d;
        const double m_lo = p_lo + 0.5 * p_tie, m_hi = p_hi + 0.5 * p_tie;
        c[p] = count[p] * std::max(0.0, m_lo * m_hi - 0.25 * p_tie);
    }
    return c;
}

}  // namespace

namespace {

// bt as a fit_loop.hpp Model. evaluate() is one pass over the pairs at the current
// scores that gives the log posterior and, in the same pass, the sums the MM sweep needs
// (pair_chunks.hpp); advance() is then the sweep's O(items) update, the optimal shift
// and Davidson's nu step.
class BtModel {
public:
    BtModel(const ComparisonData &data, int32_t ties, const PairTotals &n, double lambda, Team &team)
        : data_(data), n_(n), lambda_(lambda), team_(team), pi_(static_cast<std::size_t>(data.n_items), 1.0),
          wins_(item_wins(data, ties)), scale_(score_scales(data, lambda)),
          chunks_(data.n_pairs(), (n.total_ties() > 0.0 ? 2 : 1) * int64_t{data.n_items}) {
        // nu starts where equal items tie as often as the data do: nu / (2 + nu) = the
        // share of ties.
        if (n.total_ties() > 0.0) {
            const double share = n.total_ties() / static_cast<double>(data.n_comparisons);
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
    double evaluate() { return nu_ > 0.0 ? pass<true, true>() : pass<true, false>(); }
    bool prepare() {
        if (nu_ > 0.0)
            pass<false, true>();
        else
            pass<false, false>();
        return all_finite(sums_);
    }
    // No expansion step (fit_loop.hpp): MM with SQUAREM converges in a few cycles.
    double expand(double objective) { return objective; }
    void advance() {
        const double *second = nu_ > 0.0 ? sums_.data() + pi_.size() : nullptr;
        mm_update(wins_.data(), sums_.data(), second, lambda_, nu_, pi_, next_);
        pi_.swap(next_);
        optimal_shift(data_, pi_, lambda_);
        nu_ = nu_step(data_, n_, nu_, pi_, team_);
    }

    const std::vector<double> &pi() const { return pi_; }
    double nu() const { return nu_; }
    const std::vector<double> &score_scale() const { return scale_; }

private:
    template <bool Objective, bool Ties>
    double pass();

    const ComparisonData &data_;
    const PairTotals &n_;
    double lambda_;
    Team &team_;
    std::vector<double> pi_, next_, wins_, scale_, s_, root_, sums_;
    PairChunks chunks_;
    double nu_ = 0.0;
};

// The log posterior sum_p [low log(pi_lo / D) + high log(pi_hi / D) + tie log(nu
// sqrt(pi_lo pi_hi) / D)] + lambda sum_i [log sigma(s_i) + log sigma(-s_i)], and per
// item first_i = sum_j n_ij / D_ij (then, with ties, second_i = sum_j n_ij sqrt(pi_i
// pi_j) / D_ij) into sums_ for advance(). The wins' terms are per item, sum_i (W_i + T_i
// / 2) s_i + T log nu; the n log D terms go through LogProduct: one logarithm per about
// 400 pairs instead of one per pair. Objective = false: the sums alone (prepare()). Ties =
// nu > 0 (Davidson's terms), a template argument so that the loop tests neither.
template <bool Objective, bool Ties>
double BtModel::pass() {
    const std::size_t n = pi_.size();
    const double nu = nu_, log_nu = Ties ? std::log(nu) : 0.0;
    if (Objective) {  // s only for the log posterior
        s_.resize(n);
        for (std::size_t i = 0; i < n; ++i) s_[i] = std::log(pi_[i]);
    }
    if (Ties) {
        root_.resize(n);
        for (std::size_t i = 0; i < n; ++i) root_[i] = std::sqrt(pi_[i]);
    }
    const int32_t *pair_lo = data_.pair_lo.data(), *pair_hi = data_.pair_hi.data();
    const uint32_t *pair_count = n_.count();
    const double *pi = pi_.data(), *root = root_.data(), *s = s_.data();
    const double log_likelihood = chunks_.run(team_, sums_, [&](int64_t begin, int64_t end, double *table) {
        double *first = table, *second = table + n;
        double sum = 0.0;
        LogProduct log_d_total;
        LowItemSums low_first, low_second;  // first and second of the pairs' lower item
        // One pair's terms, in pair order, given its D and t = n / D.
        const auto add_pair = [&](std::size_t lo, std::size_t hi, double count, double geometric, double d, double t) {
            low_first.move_to(lo, first, nullptr);
            if (Ties) low_second.move_to(lo, second, nullptr);
            if (!Objective) {
                // no log posterior
            } else if (!(d > 0.0 && d <= 1e300)) {
                // Scores beyond exp's range: log D relative to the larger score.
                const double top = std::max(s[lo], s[hi]);
                sum -= count * (top + std::log(std::exp(s[lo] - top) + std::exp(s[hi] - top) +
                                               nu * std::exp(0.5 * (s[lo] + s[hi]) - top)));
            } else if (count == 1.0) {
                log_d_total.add(d);
            } else {
                sum -= count * std::log(d);
            }
            low_first.a += t;
            first[hi] += t;
            if (Ties) {
                low_second.a += t * geometric;
                second[hi] += t * geometric;
            }
        };
        int64_t q = begin;
#if defined(CS_HAVE_PAIR)
        // Two pairs' divisions in one instruction (a division's throughput bounded the
        // pass; each lane is rounded as the scalar one, so the sums are unchanged).
        for (; q + 1 < end; q += 2) {
            const std::size_t p = static_cast<std::size_t>(q);
            const std::size_t lo0 = static_cast<std::size_t>(pair_lo[p]), hi0 = static_cast<std::size_t>(pair_hi[p]);
            const std::size_t lo1 = static_cast<std::size_t>(pair_lo[p + 1]), hi1 = static_cast<std::size_t>(pair_hi[p + 1]);
            const Pair count = {static_cast<double>(pair_count[p]), static_cast<double>(pair_count[p + 1])};
            const Pair geometric = Ties ? Pair{root[lo0] * root[hi0], root[lo1] * root[hi1]} : Pair{0.0, 0.0};
            const Pair d = Ties ? Pair{pi[lo0] + pi[hi0] + nu * geometric[0], pi[lo1] + pi[hi1] + nu * geometric[1]}
                                : Pair{pi[lo0] + pi[hi0], pi[lo1] + pi[hi1]};
            const Pair t = count / d;
            add_pair(lo0, hi0, count[0], geometric[0], d[0], t[0]);
            add_pair(lo1, hi1, count[1], geometric[1], d[1], t[1]);
        }
#endif
        for (; q < end; ++q) {
            const std::size_t p = static_cast<std::size_t>(q);
            const std::size_t lo = static_cast<std::size_t>(pair_lo[p]), hi = static_cast<std::size_t>(pair_hi[p]);
            const double count = pair_count[p];
            const double geometric = Ties ? root[lo] * root[hi] : 0.0;
            const double d = Ties ? pi[lo] + pi[hi] + nu * geometric : pi[lo] + pi[hi];
            add_pair(lo, hi, count, geometric, d, count / d);
        }
        low_first.flush(first, nullptr);
        if (Ties) low_second.flush(second, nullptr);
        return Objective ? sum - log_d_total.total() : 0.0;
    });
    if (!Objective) return 0.0;
    double wins_terms = n_.total_ties() > 0.0 && Ties ? n_.total_ties() * log_nu : 0.0;
    for (std::size_t i = 0; i < n; ++i) wins_terms += wins_[i] * s_[i];
    return log_likelihood + wins_terms + log_prior(s_, lambda_);
}

}  // namespace

void fit_bt(const ComparisonData &data, const FitOptions &options, const Progress &progress, Team &team,
            RankingState &state, FitResult &out) {
    const int32_t ties = options.ties == CS_TIES_AUTO ? CS_TIES_DAVIDSON : options.ties;
    const PairTotals n(data, ties);
    const double lambda = options.comparison_prior;
    if (lambda == 0.0) require_strongly_connected(data, count_weights(data, ties));
    BtModel model(data, ties, n, lambda, team);
    state.cancelled = run_fit_loop(model, options, progress, out);
    state.score.resize(model.pi().size());
    for (std::size_t i = 0; i < model.pi().size(); ++i) state.score[i] = std::log(model.pi()[i]);
    state.curvature = bt_curvature(data, n, model.nu(), model.pi());
    out.estimates.push_back({"tie", 1, 1, {model.nu()}});
}

}  // namespace cs
