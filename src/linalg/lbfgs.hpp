// SPDX-License-Identifier: MIT
// Limited-memory BFGS (Nocedal and Wright, Numerical Optimization, 2nd ed., Algorithm
// 7.4 and 7.5) with a diagonal preconditioner and a backtracking Armijo line search:
// the smooth, many-parameter problems of the minimax-entropy and ordinal crowd models,
// whose every function evaluation is one pass over the labels.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

namespace cs {

/// f(x) and its gradient: returns f, writes grad (same size as x).
using Objective = std::function<double(const std::vector<double> &x, std::vector<double> &grad)>;

/// What an IterationHook tells the minimiser.
enum class HookAnswer { Continue, Cancel, Converged };

/// Called with f at the start (iteration 0) and after each accepted iteration (1, 2,
/// ...), always right after the evaluation at the accepted point; it may stop the
/// minimisation as a cancel or as converged (a stopping rule of the caller's).
using IterationHook = std::function<HookAnswer(int32_t iteration, double value)>;

struct LbfgsOptions {
    int32_t max_iter = 100;
    /// Stop when |f_prev - f| <= rel_tol * max(|f|, 1) after an iteration (0: never on
    /// this rule).
    double rel_tol = 1e-10;
    int32_t memory = 10;  // curvature pairs kept, 1..64
    /// The preconditioner: the initial inverse Hessian is diag(inverse_scale), rescaled
    /// each iteration by s'y / y' diag(inverse_scale) y. Empty: the identity.
    std::vector<double> inverse_scale;
    /// Only the first `curvature_dims` coordinates get the quasi-Newton curvature (the
    /// pairs s, y are kept for them alone, and the rescaling is theirs); the others step
    /// by -inverse_scale times the gradient, unscaled. For problems whose tail
    /// coordinates have a known, nearly constant curvature (a dominant quadratic
    /// penalty): the pairs then cost nothing there. -1: every coordinate.
    int64_t curvature_dims = -1;
};

struct LbfgsReport {
    int32_t iterations = 0;
    bool converged = false;  // the rel_tol rule met, the hook's rule met, or no descent
                             // left (a stationary point to machine precision)
    bool cancelled = false;  // the hook asked to stop
    double value = 0.0;      // f at the returned x
};

/// Minimise f from x (updated in place to the last accepted point; f never increases
/// from one accepted point to the next). A direction that is not a descent direction
/// (a nonconvex f) restarts from the preconditioned gradient; a curvature pair with
/// s'y <= 1e-12 |s| |y| is not stored. Deterministic: no randomness, fixed order of sums.
LbfgsReport minimize_lbfgs(const Objective &f, std::vector<double> &x, const LbfgsOptions &options,
                           const IterationHook &hook = {});

}  // namespace cs
