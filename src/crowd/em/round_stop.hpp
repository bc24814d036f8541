// SPDX-License-Identifier: MIT
// The early stop of an update's rounds of incremental EM (crowd/em/incremental.cpp):
// whether later rounds can change no label of the items the update works on.
#pragma once

#include <algorithm>
#include <limits>

namespace cs {

/// Fed each round's largest posterior change (`moved`, from the second round on: the
/// first round's change is the new labels' arrival, not EM's convergence) and the
/// smallest gap between an item's largest and second largest posterior (`margin`, 0 at
/// an exact tie), says when no label can change any more.
///
/// Near its fixed point EM is linear: each round moves the posteriors by the last move
/// times the rate rho of its slowest direction, so all later rounds together move an
/// entry by at most moved rho / (1 - rho). rho is taken as the larger of the last two
/// ratios of moves, and the bound is doubled for a rate that still drifts; a label
/// cannot change while every item's margin exceeds twice that (two entries moving towards
/// each other). The rule is used only where that picture holds: the largest move below
/// kSmallMove, a rate of at most kFastRate, and the last two rates within a factor of 2
/// of each other. Far from the fixed point EM can slow down and speed up again (on the
/// face crowd's 10-batch replay an update's moves fell 0.233, 0.172, 0.079, 0.030 and
/// then grew back to 0.116, moving a label), and an exact tie never passes; those
/// updates run on to the stop on the moves alone (kSettled in incremental.cpp).
class RoundStop {
public:
    static constexpr double kSmallMove = 1e-3;  // largest posterior change of a settling round
    static constexpr double kFastRate = 0.25;   // largest rate taken as linear convergence

    /// The margin above which no item's label can change after the round that moved
    /// `moved` (twice what later rounds may move an entry, doubled), or infinity where
    /// the linear picture does not hold yet. Call once a round.
    double safe_margin(double moved) {
        const double rate = previous_ > 0.0 ? moved / previous_ : 1.0;
        const double rho = std::max(rate, previous_rate_);
        const bool steady = rate <= 2.0 * previous_rate_ && previous_rate_ <= 2.0 * rate;
        previous_ = moved;
        previous_rate_ = rate;
        if (!(moved <= kSmallMove && rho <= kFastRate && steady)) return std::numeric_limits<double>::infinity();
        const double later = 2.0 * moved * rho / (1.0 - rho);  // what later rounds may move, doubled
        return 2.0 * later;
    }

    /// Whether the rounds can stop after the one that moved `moved` and left `margin`.
    bool settled(double moved, double margin) { return margin > safe_margin(moved); }

private:
    double previous_ = 0.0;       // the last round's largest move (0: none yet)
    double previous_rate_ = 1.0;  // the last ratio of two rounds' moves (1: none yet)
};

}  // namespace cs
