// SPDX-License-Identifier: MIT
// MACE. Item j's true class T_j is uniform over the k classes. Worker i labels item j by
// knowing it (probability theta_i: the label is T_j) or by spamming (probability
// 1 - theta_i: the label is drawn from the worker's own distribution xi_i). Priors:
// theta_i ~ Beta(0.5, 0.5), xi_i ~ Dirichlet(10, ..., 10) (the MACE software's
// defaults, which crowd-kit's MACE also uses).
//
// Mean-field variational Bayes, q(T) q(S) q(theta) q(xi): q(theta_i) = Beta(A_i, B_i),
// q(xi_i) = Dirichlet(g_i). With K_i = exp E[log theta_i], S_i = exp E[log(1 - theta_i)],
// X_ic = exp E[log xi_ic] (digammas), one round is
//  - the global update from the expected counts of the current q(T, S):
//      A_i = 0.5 + sum_e r_e,  B_i = 0.5 + sum_e (1 - r_e),  g_ic = 10 + sum_{e: c_e = c} (1 - r_e),
//    r_e the posterior that worker i knew label e;
//  - the local update (E-step): the label e = (i, j, c) has weight S_i X_ic + K_i [c = l]
//    under T_j = l; q(T_j = l) is proportional to the product over j's labels, and
//    r_e = q(T_j = c) K_i / (S_i X_ic + K_i).
// Both updates share one pass over the labels by item: r_e sums, per (worker, label),
// to s_ic sum_{e: (i, c)} q(T_j = c) (s_ic = K_i / (S_i X_ic + K_i), fixed by the globals),
// so the local update gathers sum q(T_j = c) per code into fixed item partitions' tables
// (item_partitions.hpp; the same result for any thread count) and the global update is
// O(workers x k). The digammas are per (worker, class) and round, never per label.
// The trace is the evidence lower bound of the local optimum, ELBO = sum_j log((1/k)
// sum_l prod_e weight_e(l)) - sum_i KL(q(theta_i) || prior) - sum_i KL(q(xi_i) || prior),
// which never decreases. Each start draws a point theta0_i = x / (x + y) and xi0_i
// proportional to (z_1 .. z_k), x, y, z uniform on [1, 2.5] (the range of crowd-kit's
// start), as pseudo-counts: A = 0.5 + n_i theta0, B = 0.5 + n_i (1 - theta0),
// g_ic = 10 + n_i (1 - theta0) xi0_c (n_i the worker's labels). Starts and stopping:
// crowdspec.h (CS_METHOD_MACE, CS_PARAM_STARTS).
#include "crowd/em/mace.hpp"

#include <algorithm>
#include <cmath>
#include <math.h>  // lgamma_r (glibc)
#include <limits>
#include <string>
#include <vector>

#include "crowd/em/dawid_skene.hpp"
#include "data/item_partitions.hpp"
#include "util/parallel.hpp"
#include "util/rng.hpp"
#include "util/squarem.hpp"

namespace cs {

double digamma(double x) {
    double result = 0.0;
    while (x < 10.0) {
        result -= 1.0 / x;
        x += 1.0;
    }
    const double f = 1.0 / (x * x);
    // psi(x) ~ ln x - 1/(2x) - sum B_2n / (2n x^2n)
    result += std::log(x) - 0.5 / x -
              f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f * (1.0 / 132)))));
    return result;
}

namespace {

constexpr double kThetaPrior = 0.5;     // Beta(a, b) on theta, a = b
constexpr double kStrategyPrior = 10.0; // symmetric Dirichlet on xi

struct Globals {
    std::vector<double> a, b;  // n_workers: Beta parameters of q(theta)
    std::vector<double> g;     // n_workers x k: Dirichlet parameters of q(xi)
};

// Per (worker, observed class) tables of one round, from the globals: the log weight of
// a spammed label, log(S_i X_ic); what knowing adds when c is the class considered,
// log(1 + K_i / (S_i X_ic)); and the posterior share of knowing when the label is right,
// K_i / (S_i X_ic + K_i). The passes over the labels then only look entries up.
struct Weights {
    std::vector<double> log_spam, log_gain, know_share;  // n_workers x k
};

// log Gamma without the global state: std::lgamma writes glibc's global `signgam`, a
// data race when several handles fit at once (found by the ThreadSanitizer run of
// tests/test_threads.cpp). lgamma_r is the same function with the sign returned instead,
// so the values do not change. (util/special.hpp has a log-gamma of its own, as ebcc
// uses; switching to it would move mace's numbers in the last bits.)
double lgamma_(double x) {
#if defined(__GLIBC__)
    int sign = 0;
    return ::lgamma_r(x, &sign);
#else
    return std::lgamma(x);
#endif
}

// log B(a, b) and log of the multivariate Beta function, for the KL terms.
double log_beta(double a, double b) { return lgamma_(a) + lgamma_(b) - lgamma_(a + b); }

// The weights of G into w, and the KL terms of the bound, sum_i KL(q(theta_i) || prior) +
// KL(q(xi_i) || prior), returned. Both need the same digammas of a_i, b_i, a_i + b_i, g_ic
// and sum_c g_ic; one pass per worker takes each once (before, the weights and the KL terms
// took them separately: the same values, so the same bits, at half the digammas).
double weights_and_kl(const Globals &G, int32_t k, Weights &w, std::vector<double> &dg) {
    const std::size_t m = G.a.size();
    w.log_spam.resize(m * k);
    w.log_gain.resize(m * k);
    w.know_share.resize(m * k);
    dg.resize(static_cast<std::size_t>(k));
    double kl = 0.0;
    const double a0 = kThetaPrior, g0 = kStrategyPrior;
    const double log_b0 = log_beta(a0, a0);
    const double log_dir0 = k * lgamma_(g0) - lgamma_(k * g0);
    for (std::size_t i = 0; i < m; ++i) {
        const double a = G.a[i], b = G.b[i];
        const double dab = digamma(a + b), da = digamma(a), db = digamma(b);
        const double log_know = da - dab, log_spam = db - dab;
        double total = 0.0;
        for (int32_t c = 0; c < k; ++c) total += G.g[i * k + c];
        const double dt = digamma(total);
        for (int32_t c = 0; c < k; ++c) {
            dg[c] = digamma(G.g[i * k + c]);
            const double ls = log_spam + dg[c] - dt;      // log(S X_ic)
            const double ratio = std::exp(log_know - ls);  // K / (S X_ic)
            w.log_spam[i * k + c] = ls;
            w.log_gain[i * k + c] = std::log1p(ratio);
            w.know_share[i * k + c] = ratio / (1.0 + ratio);
        }
        kl += log_b0 - log_beta(a, b) + (a - a0) * (da - dab) + (b - a0) * (db - dab);
        double sum_lg = 0.0;
        for (int32_t c = 0; c < k; ++c) sum_lg += lgamma_(G.g[i * k + c]);
        double cross = 0.0;
        for (int32_t c = 0; c < k; ++c) cross += (G.g[i * k + c] - g0) * (dg[c] - dt);
        kl += lgamma_(total) - sum_lg + log_dir0 + cross;
    }
    return kl;
}

// The fixed item partitions of one fit and their tables (item_partitions.hpp): each
// partition scatters sum_{labels e with code (i, c)} q(T_j = c) into its own copy of an
// n_workers x k table, and the copies are summed in partition order, so every sum is the
// same for any thread count. A partition only ever writes the codes of its own labels
// (`codes`, each once, ascending), so only those entries are summed and then cleared: the
// other entries of every copy stay 0 and adding them would change no bit (the sums are
// non-negative), so the totals are those of summing whole copies, without clearing and
// reading whole copies every round (14 % of a round on trec, whose partitions touch few
// of the table's entries).
struct Pass {
    std::vector<ItemRange> parts;
    int64_t table = 0;              // n_workers x k
    std::vector<double> copies;     // per partition: table, 0 outside the partition's codes
    std::vector<int64_t> code_start;  // per partition: its first entry in `codes`
    std::vector<uint32_t> codes;    // per partition: the distinct codes of its labels
    std::vector<double> part_sum;   // per partition: its share of sum_j log(...)
    std::vector<double> count;      // table: labels with code (i, c) (exact integers)
    int threads = 1;
};

// The local update of one partition: q(T) into q and, in the same pass over its labels,
// the right-label sums of the next global update into the partition's table; returns the
// partition's share of sum_j log((1/k) sum_l prod_e weight_e(l)). KC > 0 fixes k at
// compile time (k = 2..5: the loops over the classes unroll); KC = 0 reads it.
template <int KC>
double local_range(const CrowdData &data, const Weights &w, const ItemRange &range, double *q,
                   double *sums, int32_t k_runtime) {
    const int32_t k = KC > 0 ? KC : k_runtime;
    const double log_k = std::log(static_cast<double>(k));
    double stack_add[KC > 0 ? KC : 1];
    std::vector<double> heap(KC > 0 ? 0 : static_cast<std::size_t>(k));
    double *add = KC > 0 ? stack_add : heap.data();
    const double *log_spam = w.log_spam.data(), *log_gain = w.log_gain.data();
    // sum_j log z_j is taken once per batch of items, as the log of the product of the
    // z_j (each between 1 and k): one log per ~250 / log10(k) items instead of per item.
    double sum = 0.0, product = 1.0;
    constexpr double kFlush = 1e250;
    for (int32_t j = range.first; j < range.last; ++j) {
        double *qj = q + static_cast<int64_t>(j) * k;
        const int64_t first = data.item_start[j], last = data.item_start[j + 1];
        double base = 0.0;
        for (int32_t l = 0; l < k; ++l) add[l] = 0.0;
        for (int64_t p = first; p < last; ++p) {
            const uint32_t code = data.item_code[p];  // worker * k + label
            base += log_spam[code];
            add[code % static_cast<uint32_t>(k)] += log_gain[code];
        }
        const int32_t gold = data.gold_of(j);
        if (gold >= 0) {
            for (int32_t l = 0; l < k; ++l) qj[l] = l == gold ? 1.0 : 0.0;
            sum += base + add[gold] - log_k;
        } else {
            int32_t best = 0;
            for (int32_t l = 1; l < k; ++l)
                if (add[l] > add[best]) best = l;
            const double top = add[best];
            double z = 0.0;
            for (int32_t l = 0; l < k; ++l) z += (qj[l] = l == best ? 1.0 : std::exp(add[l] - top));
            const double inv = 1.0 / z;
            for (int32_t l = 0; l < k; ++l) qj[l] *= inv;
            sum += base + top - log_k;
            // Flush before the product would pass kFlush (tested by multiplying: a second
            // division per item, kFlush / z, was a tenth of the pass on trec).
            const double grown = product * z;
            if (grown > kFlush) {
                sum += std::log(product);
                product = z;
            } else {
                product = grown;
            }
        }
        for (int64_t p = first; p < last; ++p) {
            const uint32_t code = data.item_code[p];
            sums[code] += qj[code % static_cast<uint32_t>(k)];
        }
    }
    return sum + std::log(product);
}

// Local update of every item: q(T) into q, the summed right-label table into `sums`;
// returns sum_j log((1/k) sum_l prod_e weight_e(l)) (added in partition order).
double local_update(const CrowdData &data, const Weights &w, Pass &pass, std::vector<double> &q,
                    std::vector<double> &sums) {
    const int64_t n_parts = static_cast<int64_t>(pass.parts.size());
#pragma omp parallel for schedule(dynamic, 1) num_threads(pass.threads) if (n_parts > 1)
    for (int64_t p = 0; p < n_parts; ++p) {
        double *table = pass.copies.data() + p * pass.table;  // 0 outside its codes
        const ItemRange &r = pass.parts[p];
        double s;
        switch (data.k) {
            case 2: s = local_range<2>(data, w, r, q.data(), table, 2); break;
            case 3: s = local_range<3>(data, w, r, q.data(), table, 3); break;
            case 4: s = local_range<4>(data, w, r, q.data(), table, 4); break;
            case 5: s = local_range<5>(data, w, r, q.data(), table, 5); break;
            default: s = local_range<0>(data, w, r, q.data(), table, data.k); break;
        }
        pass.part_sum[p] = s;
    }
    // sums = the copies summed in partition order, over the entries each one wrote; the
    // entries read are cleared for the next pass.
    std::fill(sums.begin(), sums.end(), 0.0);
    for (int64_t p = 0; p < n_parts; ++p) {
        double *table = pass.copies.data() + p * pass.table;
        const uint32_t *code = pass.codes.data() + pass.code_start[p];
        const uint32_t *end = pass.codes.data() + pass.code_start[p + 1];
        for (; code < end; ++code) {
            sums[*code] += table[*code];
            table[*code] = 0.0;
        }
    }
    double total = 0.0;
    for (double v : pass.part_sum) total += v;
    return total;
}

// Global update from the expected counts of the last local update: with S_ic the sum of
// q(T_j = c) over worker i's labels c, and s_ic = K_i / (S_i X_ic + K_i) of the weights that
// local update used, sum_e r_e = sum_c s_ic S_ic, so
//   A_i = 0.5 + sum_c s_ic S_ic,  B_i = 0.5 + n_i - (A_i - 0.5),  g_ic = 10 + n_ic - s_ic S_ic.
void global_update(const Pass &pass, const Weights &w, const std::vector<double> &sums, int32_t k, Globals &G) {
    const std::size_t m = G.a.size();
    for (std::size_t i = 0; i < m; ++i) {
        double knew = 0.0, n = 0.0;
        for (int32_t c = 0; c < k; ++c) {
            const std::size_t e = i * k + c;
            const double r = w.know_share[e] * sums[e];
            knew += r;
            n += pass.count[e];
            G.g[e] = kStrategyPrior + (pass.count[e] - r);
        }
        G.a[i] = kThetaPrior + knew;
        G.b[i] = kThetaPrior + (n - knew);
    }
}

Globals random_start(const Pass &pass, int32_t m, int32_t k, Rng &rng) {
    Globals G;
    G.a.resize(static_cast<std::size_t>(m));
    G.b.resize(G.a.size());
    G.g.resize(G.a.size() * k);
    std::vector<double> z(static_cast<std::size_t>(k));
    for (int32_t i = 0; i < m; ++i) {
        const double x = 1.0 + 1.5 * rng.uniform(), y = 1.0 + 1.5 * rng.uniform();
        double total = 0.0;
        for (int32_t c = 0; c < k; ++c) total += (z[c] = 1.0 + 1.5 * rng.uniform());
        double n = 0.0;
        for (int32_t c = 0; c < k; ++c) n += pass.count[static_cast<std::size_t>(i) * k + c];
        const double theta = x / (x + y);
        G.a[i] = kThetaPrior + n * theta;
        G.b[i] = kThetaPrior + n * (1.0 - theta);
        for (int32_t c = 0; c < k; ++c) G.g[static_cast<int64_t>(i) * k + c] = kStrategyPrior + n * (1.0 - theta) * z[c] / total;
    }
    return G;
}

// SQUAREM on the globals (Varadhan and Roland 2008, SqS3 step length, the SQUAREM
// package's adaptive bound, as the Dawid-Skene EM's accel = squarem): on the logarithms
// of every Beta and Dirichlet parameter, so that every extrapolated point is a valid
// q(theta) q(xi). The VB map F (global update from the local update's sums) raises the
// bound L(G) = max over q(T, S) of the ELBO at G, so a cycle from a takes b = F(a), c =
// F(b) and keeps the extrapolated point only when its bound is at least b's.
std::size_t parameter_count(const Globals &G) { return G.a.size() + G.b.size() + G.g.size(); }
double &parameter(Globals &G, std::size_t e) {
    const std::size_t m = G.a.size();
    return e < m ? G.a[e] : e < 2 * m ? G.b[e - m] : G.g[e - 2 * m];
}
double parameter(const Globals &G, std::size_t e) { return parameter(const_cast<Globals &>(G), e); }

// theta(alpha) = log a - 2 alpha r + alpha^2 v per parameter (r = log b - log a, v = log c
// - 2 log b + log a), into out; alpha from ||r|| / ||v|| (SqS3), in [-alpha_max, -1].
// Returns alpha; alpha = -1 means c itself (no extrapolation).
double extrapolate(const Globals &a, const Globals &b, const Globals &c, double alpha_max, Globals &out,
                   std::vector<double> &logs) {
    // The logarithms of a, b and c are taken once (3 per parameter, kept in `logs` for the
    // step itself) instead of once for the step length and again for the step.
    const std::size_t n = parameter_count(a);
    logs.resize(3 * n);
    double r2 = 0.0, v2 = 0.0;
    for (std::size_t e = 0; e < n; ++e) {
        const double la = std::log(parameter(a, e)), lb = std::log(parameter(b, e)), lc = std::log(parameter(c, e));
        logs[3 * e] = la;
        logs[3 * e + 1] = lb;
        logs[3 * e + 2] = lc;
        const double r = lb - la, v = lc - 2.0 * lb + la;
        r2 += r * r;
        v2 += v * v;
    }
    const double alpha = squarem_step_length(r2, v2, alpha_max);
    if (!(alpha < -1.0)) return -1.0;
    out = c;
    for (std::size_t e = 0; e < n; ++e) {
        const double la = logs[3 * e], lb = logs[3 * e + 1], lc = logs[3 * e + 2];
        const double x = std::exp(squarem_log_point(la, lb - la, lc - 2.0 * lb + la, alpha));
        if (x > 0.0 && std::isfinite(x)) parameter(out, e) = x;
    }
    return alpha;
}

// One start's VB run state.
struct Run {
    Globals G;
    Weights w;                 // the weights of G
    std::vector<double> q;     // q(T) under G
    std::vector<double> sums;  // the right-label sums of q (the next global update's input)
    std::vector<double> trace;
    double elbo = 0.0;
    int32_t rounds = 0;
    bool converged = false;
    double alpha_max = 1.0;  // SQUAREM's step bound (the package's step.max0)
};

}  // namespace

bool fit_mace(const CrowdData &data, const FitOptions &options, const Progress &progress, FitResult &out) {
    const int threads = threads_for(options.threads, static_cast<int64_t>(data.n_labels()));
    const int32_t m = data.n_workers, n = data.n_items, k = data.k;
    Pass pass;
    pass.table = static_cast<int64_t>(m) * k;
    pass.parts = partition_items(data, pass.table);
    pass.copies.assign(pass.parts.size() * static_cast<std::size_t>(pass.table), 0.0);
    pass.part_sum.assign(pass.parts.size(), 0.0);
    pass.count.assign(static_cast<std::size_t>(pass.table), 0.0);
    for (uint32_t code : data.item_code) pass.count[code] += 1.0;
    {
        // Each partition's distinct codes, ascending (a mark per code, cleared as read).
        std::vector<char> seen(static_cast<std::size_t>(pass.table), 0);
        pass.code_start.assign(pass.parts.size() + 1, 0);
        for (std::size_t p = 0; p < pass.parts.size(); ++p) {
            const int64_t first = pass.code_start[p];
            for (int64_t e = data.item_start[pass.parts[p].first]; e < data.item_start[pass.parts[p].last]; ++e) {
                const uint32_t code = data.item_code[e];
                if (!seen[code]) {
                    seen[code] = 1;
                    pass.codes.push_back(code);
                }
            }
            std::sort(pass.codes.begin() + first, pass.codes.end());
            for (auto it = pass.codes.begin() + first; it != pass.codes.end(); ++it) seen[*it] = 0;
            pass.code_start[p + 1] = static_cast<int64_t>(pass.codes.size());
        }
    }
    pass.threads = threads;
    // Starts: CS_PARAM_STARTS, 0 = 10 (the MACE software's default number of restarts).
    const int32_t starts = options.starts > 0 ? options.starts : 10;
    // Rounds before only the best start goes on: CS_PARAM_START_ROUNDS, 0 = 20 (on the
    // five shared sets the start ranked first after 20 rounds ends within 0.05 pp of the
    // one ranked first at convergence, at a fifth to a seventh of the cost).
    const int32_t screen = options.start_rounds > 0 ? options.start_rounds : 20;
    Rng rng(options.seed);

    int32_t done = 0;  // rounds reported to the progress callback so far
    bool cancelled = false;
    std::vector<Run> runs(static_cast<std::size_t>(starts));
    std::vector<double> digammas, logs;  // weights_and_kl's and extrapolate's scratch
    // The local update at G into the run's q and sums; returns the bound L(G).
    auto evaluate = [&](Run &run) {
        const double kl = weights_and_kl(run.G, k, run.w, digammas);
        return local_update(data, run.w, pass, run.q, run.sums) - kl;
    };
    // Records a kept round with bound `next`, tested for convergence against `against`.
    auto record = [&](Run &run, double next, double against) {
        ++run.rounds;
        ++done;
        run.trace.push_back(next);
        cancelled = progress.after(0).cancelled(done, next);
        if (options.tol > 0.0 && std::fabs(next - against) <= options.tol * std::fabs(against))
            run.converged = true;
        run.elbo = next;
    };
    const bool squarem = options.accel == CS_ACCEL_SQUAREM;
    Globals from, next_c, trial;  // a, c = F(F(a)) and the extrapolated point of a cycle
    auto advance = [&](Run &run, int32_t limit) {
        // Runs rounds until the ELBO's relative change is below tol, `limit` rounds in all
        // for this start, or cancellation. One pass over the labels per kept round: the
        // global update from the sums of the last local update, then the local update
        // under the new globals, which also gathers the sums of the next round.
        while (run.rounds < limit && !run.converged && !cancelled) {
            const double at_a = run.elbo;
            if (squarem) from = run.G;
            global_update(pass, run.w, run.sums, k, run.G);  // b = F(a)
            const double at_b = evaluate(run);
            record(run, at_b, at_a);  // a plain VB round from a: plain VB's rule
            if (!squarem || run.rounds >= limit || run.converged || cancelled) continue;
            next_c = run.G;
            global_update(pass, run.w, run.sums, k, next_c);  // c = F(b)
            const double alpha = extrapolate(from, run.G, next_c, run.alpha_max, trial, logs);
            bool rejected = false;
            if (alpha < -1.0) {
                std::swap(run.G, trial);  // run.G: the extrapolated point; trial: b
                const double at_trial = evaluate(run);
                rejected = !(at_trial >= at_b);
                if (!rejected) {
                    record(run, at_trial, at_a);
                } else {  // an uncounted pass: fall back to c, the plain step
                    run.G = next_c;
                    record(run, evaluate(run), at_a);
                }
            } else {
                run.G = next_c;
                record(run, evaluate(run), at_a);
            }
            run.alpha_max = squarem_next_bound(run.alpha_max, alpha, rejected);
        }
    };
    for (int32_t s = 0; s < starts; ++s) {
        Run &run = runs[s];
        run.G = random_start(pass, m, k, rng);
        run.q.resize(static_cast<std::size_t>(n) * k);
        run.sums.resize(static_cast<std::size_t>(pass.table));
        run.elbo = evaluate(run);
        if (s == 0) cancelled = progress.cancelled(0, run.elbo);
        if (cancelled) {
            runs.resize(static_cast<std::size_t>(s) + 1);
            break;
        }
        if (options.max_iter == 0) run.converged = true;
    }
    // Each start runs `screen` rounds (all of max_iter when 0); then only the best goes on.
    const int32_t first_limit = screen > 0 ? std::min(screen, options.max_iter) : options.max_iter;
    for (Run &run : runs) {
        if (cancelled) break;
        advance(run, first_limit);
    }
    // The best start: highest ELBO; the earlier start on ties (and whenever the gain is
    // below tol, so that the choice does not flip with rounding).
    std::size_t best = 0;
    for (std::size_t s = 1; s < runs.size(); ++s)
        if (runs[s].elbo > runs[best].elbo + options.tol * std::fabs(runs[best].elbo)) best = s;
    Run &kept = runs[best];
    if (screen > 0) advance(kept, options.max_iter);

    if (cancelled) {
        out.notes |= CS_NOTE_CANCELLED;
    } else if (!kept.converged) {
        note_max_iter(options, out);
    }
    out.converged = kept.converged && !cancelled;
    out.iterations = kept.rounds;
    out.trace = kept.trace;
    out.posteriors = std::move(kept.q);
    out.labels = argmax_labels(out.posteriors, n, k);
    out.prior.assign(static_cast<std::size_t>(k), 1.0 / k);
    // Posterior-mean matrices: theta I + (1 - theta) 1 xi^T.
    const std::size_t kk = static_cast<std::size_t>(k) * k;
    out.confusion.resize(static_cast<std::size_t>(m) * kk);
    // The posterior means themselves too (cs_estimate): theta_i and xi_i.
    std::vector<double> competence(static_cast<std::size_t>(m)), strategy(static_cast<std::size_t>(m) * k);
    for (int32_t i = 0; i < m; ++i) {
        const double theta = kept.G.a[i] / (kept.G.a[i] + kept.G.b[i]);
        competence[static_cast<std::size_t>(i)] = theta;
        double total = 0.0;
        for (int32_t c = 0; c < k; ++c) total += kept.G.g[static_cast<int64_t>(i) * k + c];
        for (int32_t c = 0; c < k; ++c)
            strategy[static_cast<std::size_t>(i) * k + c] = kept.G.g[static_cast<int64_t>(i) * k + c] / total;
        for (int32_t l = 0; l < k; ++l)
            for (int32_t c = 0; c < k; ++c)
                out.confusion[i * kk + static_cast<std::size_t>(l) * k + c] =
                    (1.0 - theta) * kept.G.g[static_cast<int64_t>(i) * k + c] / total + (l == c ? theta : 0.0);
    }
    out.estimates.push_back({"competence", m, 1, std::move(competence)});
    out.estimates.push_back({"strategy", m, k, std::move(strategy)});
    out.has_log_likelihood = true;
    return cancelled;
}

}  // namespace cs
