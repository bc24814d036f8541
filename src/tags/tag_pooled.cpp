// SPDX-License-Identifier: MIT
// The shared-strength tag model. Tag g of item j is z_jg in {0, 1}, P(z_jg = 1) = pi_g;
// worker w ticks g with probability alpha_wg (sensitivity) when z_jg = 1 and 1 - beta_wg
// (beta_wg the specificity) when z_jg = 0, every (answer, tag) independent given z.
// EM, O(answers x tags) per round:
//   E  log odds(z_jg = 1) = logit pi_g + sum_{answers a of j} [ticked ? log(alpha / (1 - beta))
//                                                                   : log((1 - alpha) / beta)]
//   M  counts n_wg[l][c] = sum over w's answers of q_jg (l = 1) or 1 - q_jg (l = 0), c = ticked;
//      the worker's centre C_w[l] = normalise(sum_g n_wg[l] + 2 P[l]), P the crowd's pooled rows
//      (the prior machinery of priors/pooled_prior.hpp, the worker's tags as its "workers");
//      alpha_wg = (n_wg[1][1] + s C_w[1][1]) / (n_wg[1][.] + s), beta_wg likewise with row 0:
//      the MAP estimate under Beta priors of s pseudo-answers centred on the worker's own
//      average over the tags. pi_g = mean q_jg.
// A worker who ticks little has a low centre sensitivity on every tag, so one of its rare
// ticks counts and its silences do not; a tag it answered a few times borrows its other
// tags' rates instead of fitting them from those few answers.
#include "tags/tag_pooled.hpp"

#include <algorithm>
#include <cmath>

#include "priors/pooled_prior.hpp"
#include "util/parallel.hpp"

namespace cs {

namespace {

constexpr double kProbabilityFloor = 1e-9;  // keeps every logarithm finite

double clamp_probability(double p) { return std::min(1.0 - kProbabilityFloor, std::max(kProbabilityFloor, p)); }

struct TagState {
    std::vector<double> q;            // n_items x T posteriors P(z = 1)
    std::vector<double> pi;           // T
    std::vector<double> alpha, beta;  // n_workers x T
};

// Per-tag vote shares (the start), pi from them.
void vote_shares(const TagData &data, TagState &s) {
    const int32_t T = data.n_tags;
    s.q.assign(static_cast<std::size_t>(data.n_items()) * T, 0.0);
    for (int32_t j = 0; j < data.n_items(); ++j) {
        const int64_t b = data.order.item_start[j], e = data.order.item_start[j + 1];
        double *row = s.q.data() + static_cast<std::size_t>(j) * T;
        for (int64_t p = b; p < e; ++p)
            for (int64_t k = data.tag_start[p]; k < data.tag_start[p + 1]; ++k) row[data.tags[k]] += 1.0;
        for (int32_t g = 0; g < T; ++g) row[g] = b == e ? 0.0 : row[g] / static_cast<double>(e - b);
    }
}

void update_prior(const TagData &data, TagState &s) {
    const int32_t T = data.n_tags;
    s.pi.assign(static_cast<std::size_t>(T), 0.0);
    double answered = 0.0;
    for (int32_t j = 0; j < data.n_items(); ++j) {
        if (data.order.item_start[j + 1] == data.order.item_start[j]) continue;
        answered += 1.0;
        for (int32_t g = 0; g < T; ++g) s.pi[g] += s.q[static_cast<std::size_t>(j) * T + g];
    }
    for (double &p : s.pi) p = clamp_probability(answered > 0 ? p / answered : 0.5);
}

// Per worker and tag, how many of its answers ticked the tag (fixed over the fit).
std::vector<double> tick_counts(const TagData &data) {
    const int32_t T = data.n_tags;
    std::vector<double> ticks(static_cast<std::size_t>(data.n_workers()) * T, 0.0);
    for (std::size_t p = 0; p < data.n_answers(); ++p)
        for (int64_t k = data.tag_start[p]; k < data.tag_start[p + 1]; ++k)
            ticks[static_cast<std::size_t>(data.order.worker[p]) * T + data.tags[k]] += 1.0;
    return ticks;
}

// Workspace of the M-step's gathering (data/answer_order.hpp, scatter_by_blocks).
struct Gather {
    std::vector<int32_t> blocks;
    std::vector<double> scratch, sums, ticks;
};

// M-step: the workers' rates from the posteriors.
void m_step(const TagData &data, const FitOptions &options, Team &team, Gather &gather, TagState &s) {
    const AnswerOrder &o = data.order;
    const int32_t T = data.n_tags, m = o.n_workers;
    // Per worker and tag: sum of q over its answers (n1), and over those that ticked (t1),
    // at [w 2T + g] and [w 2T + T + g], gathered in item order.
    scatter_by_blocks(o, gather.blocks, static_cast<std::size_t>(m) * T * 2, team, gather.scratch, gather.sums,
                      [&](int32_t j, int64_t p, double *t) {
                          const double *q = s.q.data() + static_cast<std::size_t>(j) * T;
                          double *acc = t + static_cast<std::size_t>(o.worker[p]) * T * 2;
                          for (int32_t g = 0; g < T; ++g) acc[g] += q[g];
                          for (int64_t k = data.tag_start[p]; k < data.tag_start[p + 1]; ++k)
                              acc[T + data.tags[k]] += q[data.tags[k]];
                      });
    // counts[(w T + g) 4 + c 2 + l]: observed c x true l, as pooled_prior.hpp lays out a table.
    std::vector<double> counts(static_cast<std::size_t>(m) * T * 4, 0.0);
    for (int32_t w = 0; w < m; ++w) {
        const double n = static_cast<double>(o.count(w));
        const double *acc = gather.sums.data() + static_cast<std::size_t>(w) * T * 2;
        for (int32_t g = 0; g < T; ++g) {
            const double n1 = acc[g], t1 = acc[T + g], ticks = gather.ticks[static_cast<std::size_t>(w) * T + g];
            double *c = counts.data() + (static_cast<std::size_t>(w) * T + g) * 4;
            c[1 * 2 + 1] = t1;                           // ticked, true 1
            c[0 * 2 + 1] = n1 - t1;                      // not ticked, true 1
            c[1 * 2 + 0] = ticks - t1;                   // ticked, true 0
            c[0 * 2 + 0] = (n - n1) - (ticks - t1);      // not ticked, true 0
            for (int e = 0; e < 4; ++e) c[e] = std::max(0.0, c[e]);
        }
    }
    // The crowd's pooled rows, as 2 pseudo-labels per true class (table observed x true).
    FitOptions two = options;
    two.smoothing_strength = 2.0;
    std::vector<double> crowd;  // true x observed, each row summing to 2
    pooled_pseudo_counts(counts.data(), m * T, 2, two, crowd);
    const double strength = pooled_strength(options, 2);
    s.alpha.resize(static_cast<std::size_t>(m) * T);
    s.beta.resize(static_cast<std::size_t>(m) * T);
    // Each worker's rates, workers in chunks of 256 over the team (each writes its own).
    const int64_t chunks = (m + 255) / 256;
    team.run(chunks, [&](int64_t chunk) {
        std::vector<double> tables(static_cast<std::size_t>(T + 1) * 4), centre;
        const int32_t last = static_cast<int32_t>(std::min<int64_t>(m, (chunk + 1) * 256));
        for (int32_t w = static_cast<int32_t>(chunk * 256); w < last; ++w) {
            // The worker's tags plus the crowd's table: centre = s normalise(sum of both).
            std::copy_n(counts.data() + static_cast<std::size_t>(w) * T * 4, static_cast<std::size_t>(T) * 4,
                        tables.begin());
            double *extra = tables.data() + static_cast<std::size_t>(T) * 4;
            for (int c = 0; c < 2; ++c)
                for (int l = 0; l < 2; ++l) extra[c * 2 + l] = crowd[static_cast<std::size_t>(l) * 2 + c];
            pooled_pseudo_counts(tables.data(), T + 1, 2, options, centre);  // true x observed, times s
            for (int32_t g = 0; g < T; ++g) {
                const double *c = counts.data() + (static_cast<std::size_t>(w) * T + g) * 4;
                const double pos = c[0 * 2 + 1] + c[1 * 2 + 1], neg = c[0 * 2 + 0] + c[1 * 2 + 0];
                const std::size_t at = static_cast<std::size_t>(w) * T + g;
                s.alpha[at] = clamp_probability((c[1 * 2 + 1] + centre[1 * 2 + 1]) / (pos + strength));
                s.beta[at] = clamp_probability((c[0 * 2 + 0] + centre[0 * 2 + 0]) / (neg + strength));
            }
        }
    });
    update_prior(data, s);
}

// E-step: the posteriors from the rates; returns the log-likelihood (the blocks'
// partial sums added in block order: the same for any thread count).
double e_step(const TagData &data, const std::vector<int32_t> &blocks, Team &team, TagState &s) {
    const AnswerOrder &o = data.order;
    const int32_t T = data.n_tags, m = o.n_workers;
    // Per (worker, tag): the log-likelihoods of "not ticked" and the change a tick makes,
    // under z = 1 and z = 0.
    std::vector<double> silent1(static_cast<std::size_t>(m) * T), silent0(silent1.size()), tick1(silent1.size()),
        tick0(silent1.size());
    for (std::size_t e = 0; e < silent1.size(); ++e) {
        silent1[e] = std::log(1.0 - s.alpha[e]);
        silent0[e] = std::log(s.beta[e]);
        tick1[e] = std::log(s.alpha[e]) - silent1[e];
        tick0[e] = std::log(1.0 - s.beta[e]) - silent0[e];
    }
    std::vector<double> log_pi1(static_cast<std::size_t>(T)), log_pi0(static_cast<std::size_t>(T));
    for (int32_t g = 0; g < T; ++g) {
        log_pi1[g] = std::log(s.pi[g]);
        log_pi0[g] = std::log(1.0 - s.pi[g]);
    }
    std::vector<double> partial(blocks.size() - 1, 0.0);
    team.run(static_cast<int64_t>(blocks.size()) - 1, [&](int64_t block) {
        std::vector<double> a1(static_cast<std::size_t>(T)), a0(static_cast<std::size_t>(T));
        double total = 0.0;
        for (int32_t j = blocks[block]; j < blocks[block + 1]; ++j) {
            std::copy(log_pi1.begin(), log_pi1.end(), a1.begin());
            std::copy(log_pi0.begin(), log_pi0.end(), a0.begin());
            for (int64_t p = o.item_start[j]; p < o.item_start[j + 1]; ++p) {
                const std::size_t base = static_cast<std::size_t>(o.worker[p]) * T;
                const double *s1 = silent1.data() + base, *s0 = silent0.data() + base;
                for (int32_t g = 0; g < T; ++g) {
                    a1[g] += s1[g];
                    a0[g] += s0[g];
                }
                for (int64_t k = data.tag_start[p]; k < data.tag_start[p + 1]; ++k) {
                    a1[data.tags[k]] += tick1[base + data.tags[k]];
                    a0[data.tags[k]] += tick0[base + data.tags[k]];
                }
            }
            double *q = s.q.data() + static_cast<std::size_t>(j) * T;
            const bool answered = o.item_start[j + 1] > o.item_start[j];
            for (int32_t g = 0; g < T; ++g) {
                const double hi = std::max(a1[g], a0[g]);
                const double e1 = std::exp(a1[g] - hi), e0 = std::exp(a0[g] - hi);
                q[g] = e1 / (e1 + e0);
                if (answered) total += hi + std::log(e1 + e0);
            }
        }
        partial[static_cast<std::size_t>(block)] = total;
    });
    double total = 0.0;
    for (double v : partial) total += v;
    return total;
}

}  // namespace

namespace {

double logit(double p) { return std::log(p / (1.0 - p)); }
double logistic(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// The parameters (alpha, beta, pi) as logits, the space SQUAREM extrapolates in.
void to_logits(const TagState &s, std::vector<double> &x) {
    x.clear();
    for (const std::vector<double> *v : {&s.alpha, &s.beta, &s.pi})
        for (double p : *v) x.push_back(logit(p));
}

void from_logits(const std::vector<double> &x, TagState &s) {
    std::size_t e = 0;
    for (std::vector<double> *v : {&s.alpha, &s.beta, &s.pi})
        for (double &p : *v) p = clamp_probability(logistic(x[e++]));
}

}  // namespace

bool fit_tag_pooled(const TagData &data, const FitOptions &options, const Progress &progress, FitResult &out) {
    const int32_t T = data.n_tags;
    Team team(threads_for(options.threads, static_cast<int64_t>(data.n_answers()) * std::max(1, T)));
    Gather gather;
    gather.blocks = data.order.item_blocks(static_cast<std::size_t>(data.n_workers()) * T * 2);
    gather.ticks = tick_counts(data);
    TagState s;
    vote_shares(data, s);
    update_prior(data, s);
    out.iterations = 0;
    out.converged = false;
    out.has_log_likelihood = true;
    bool cancelled = progress.cancelled(0, 0.0);
    double previous = 0.0;
    // One counted round: M-step from the current posteriors, E-step; false when the fit
    // must stop (converged, cancelled, out of rounds).
    const auto round = [&]() {
        m_step(data, options, team, gather, s);
        const double ll = e_step(data, gather.blocks, team, s);
        ++out.iterations;
        out.trace.push_back(ll);
        out.converged = out.iterations > 1 && std::fabs(ll - previous) <= options.tol * std::fabs(previous);
        previous = ll;
        if (progress.cancelled(out.iterations, ll)) {
            cancelled = true;
            out.converged = false;
        }
        return !out.converged && !cancelled && out.iterations < options.max_iter;
    };
    // With accel = squarem (the default), two rounds from the parameters x0 give x1 and
    // x2, extrapolated in logit space to x' = x0 - 2 a r + a^2 v (r = x1 - x0, v = x2 - 2
    // x1 + x0, a = -|r| / |v| <= -1; Varadhan and Roland 2008); x' is kept, with its
    // E-step, when its log-likelihood is at least x2's (the monotone safeguard, as for
    // Dawid-Skene), else the fit goes on from x2. The extra E-step is not counted.
    std::vector<double> x0, x1, x2, jump;
    bool more = options.max_iter > 0 && !cancelled;
    while (more) {
        // The vote-share start has the prior pi but no rates yet: x0 is a parameter
        // vector only once alpha and beta exist (a pi-only x0 made the first
        // extrapolation read past its end).
        const bool from_parameters = !s.alpha.empty();
        to_logits(s, x0);
        if (!(more = round())) break;
        if (options.accel != CS_ACCEL_SQUAREM || !from_parameters) continue;
        to_logits(s, x1);
        if (!(more = round())) break;
        to_logits(s, x2);
        const double ll2 = previous;
        double rr = 0.0, vv = 0.0;
        for (std::size_t e = 0; e < x0.size(); ++e) {
            const double r = x1[e] - x0[e], v = x2[e] - 2.0 * x1[e] + x0[e];
            rr += r * r;
            vv += v * v;
        }
        const double a = vv > 0.0 ? std::min(-1.0, -std::sqrt(rr / vv)) : -1.0;
        if (a == -1.0) continue;  // x' = x2: nothing to try
        jump.resize(x0.size());
        for (std::size_t e = 0; e < x0.size(); ++e) {
            const double r = x1[e] - x0[e], v = x2[e] - 2.0 * x1[e] + x0[e];
            jump[e] = x0[e] - 2.0 * a * r + a * a * v;
        }
        const std::vector<double> q2 = s.q;
        from_logits(jump, s);
        const double ll = e_step(data, gather.blocks, team, s);
        if (std::isfinite(ll) && ll >= ll2) {
            out.trace.back() = ll;  // the extrapolated point stands for the second round
            previous = ll;
        } else {
            from_logits(x2, s);
            s.q = q2;
        }
    }
    if (!out.converged && !cancelled) out.notes |= CS_NOTE_MAX_ITER_REACHED;
    if (s.alpha.empty()) m_step(data, options, team, gather, s);  // max_iter = 0 or cancelled at the start
    out.tag_probabilities = std::move(s.q);
    out.sensitivity = std::move(s.alpha);
    out.specificity = std::move(s.beta);
    return cancelled;
}

}  // namespace cs
