// SPDX-License-Identifier: MIT
// The iteration loop every comparison method shares: a monotone map (bt's MM sweep,
// noisy-bt's and crowd-bt's EM round) run to convergence, accelerated by SQUAREM
// (Varadhan and Roland 2008, util/squarem.hpp) on the unconstrained parameters (log
// strengths, log nu, logits of the worker probabilities) with the monotone safeguard:
// an extrapolated point whose log posterior (after one plain step from it) is below the
// cycle's start is discarded for the two plain steps, so the trace never decreases and
// the fixed points are the plain map's. The plain steps' own end is evaluated only when
// it is kept: a kept cycle costs three evaluations (each a pass over the comparisons),
// not four. (Comparing with the plain steps' end, as before, kept the same
// extrapolations at 10^6 comparisons: 89, 24 and 6 cycles either way.) With
// ::CS_ACCEL_NONE an iteration is one plain step.
//
// Convergence: the log posterior's relative change at most `tol`, or (score_tol > 0) no
// score moved by more than score_tol of its smallest possible standard error,
// max_i |delta s_i| scale_i <= score_tol with scale_i = sqrt(n_i / 4 + lambda / 2)
// (score_scales(), bt_steps.hpp): a change far below a score's uncertainty changes no
// conclusion drawn from it, and this rule needs no knowledge of the log posterior's
// size, which grows with the data (docs/defaults.md, "score_tol").
//
// A Model provides:
//   std::vector<double> params() const;          the current parameters, unconstrained
//   void set_params(const std::vector<double> &); the inverse
//   double evaluate();   the log posterior at the current parameters; prepares advance()
//                        (the worker models' E-step)
//   bool prepare();      what evaluate() prepares for advance(), without the log
//                        posterior where that saves work (the worker models' logarithm
//                        per answer); false when it is not finite. SQUAREM needs no log
//                        posterior at x1 nor at the extrapolated point (two of a kept
//                        cycle's three passes)
//   void advance();      one plain step from the evaluated parameters (M-step / MM sweep)
//   double expand(double objective);   after each iteration, from the evaluated
//                        parameters whose log posterior is `objective`: a step of the
//                        model's own (crowd-bt's Newton step, worker_models.cpp) that
//                        leaves the model evaluated at a log posterior >= objective and
//                        returns it; `return objective;` for none
//   const std::vector<double> &score_scale() const;   scale_i of the first params()
//                        (the scores s_i) for the score_tol rule
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/fit_options.hpp"
#include "core/fit_result.hpp"
#include "util/progress.hpp"
#include "util/squarem.hpp"

namespace cs {

/// Runs `model` from its current parameters; fills out.trace (the start, then each
/// iteration), iterations and converged. Returns true when the progress callback
/// cancelled the fit (the model then holds the last completed iteration, evaluated).
template <class Model>
bool run_fit_loop(Model &model, const FitOptions &options, const Progress &progress, FitResult &out) {
    double objective = model.evaluate();
    out.trace.push_back(objective);
    out.iterations = 0;
    if (progress.cancelled(0, objective)) return true;
    double step_bound = 1.0;  // SQUAREM's adaptive bound on -alpha
    const bool accelerate = options.accel == CS_ACCEL_SQUAREM;
    const bool watch_scores = options.score_tol > 0.0;
    std::vector<double> before;
    for (int32_t t = 1; t <= options.max_iter; ++t) {
        double next;
        if (!accelerate) {
            if (watch_scores) before = model.params();
            model.advance();
            next = model.evaluate();
        } else {
            const std::vector<double> x0 = model.params();
            if (watch_scores) before = x0;
            model.advance();
            const std::vector<double> x1 = model.params();
            model.prepare();
            model.advance();
            const std::vector<double> x2 = model.params();  // not evaluated unless it is kept
            double r2 = 0.0, v2 = 0.0;
            for (std::size_t k = 0; k < x0.size(); ++k) {
                const double r = x1[k] - x0[k], v = x2[k] - 2.0 * x1[k] + x0[k];
                r2 += r * r;
                v2 += v * v;
            }
            bool kept = false;
            if (v2 > 0.0) {
                const double alpha = squarem_step_length(r2, v2, step_bound);
                std::vector<double> x(x0.size());
                bool finite = true;
                for (std::size_t k = 0; k < x0.size(); ++k) {
                    x[k] = squarem_log_point(x0[k], x1[k] - x0[k], x2[k] - 2.0 * x1[k] + x0[k], alpha);
                    finite = finite && std::isfinite(x[k]);
                }
                if (finite) {
                    model.set_params(x);
                    if (model.prepare()) {
                        model.advance();  // one plain step from the extrapolated point
                        const double stabilised = model.evaluate();
                        if (std::isfinite(stabilised) && stabilised >= objective) {
                            next = stabilised;
                            kept = true;
                        }
                    }
                }
                step_bound = squarem_next_bound(step_bound, alpha, !kept);
            }
            if (!kept) {
                // Two plain steps, which never lower the log posterior.
                model.set_params(x2);
                next = model.evaluate();
            }
        }
        // The model's own step along a direction EM is slow in (crowd-bt), kept only
        // when it does not lower the log posterior; the others return `next`.
        next = model.expand(next);
        const double previous = objective;
        objective = next;
        out.trace.push_back(objective);
        out.iterations = t;
        if (progress.cancelled(t, objective)) return true;
        bool settled = false;
        if (watch_scores) {
            const std::vector<double> now = model.params();
            const std::vector<double> &scale = model.score_scale();
            double largest = 0.0;
            for (std::size_t i = 0; i < scale.size(); ++i) largest = std::max(largest, std::fabs(now[i] - before[i]) * scale[i]);
            settled = largest <= options.score_tol;
        }
        if (settled ||
            (options.tol > 0.0 && std::fabs(objective - previous) <= options.tol * (1.0 + std::fabs(objective)))) {
            out.converged = true;
            break;
        }
    }
    return false;
}

}  // namespace cs
