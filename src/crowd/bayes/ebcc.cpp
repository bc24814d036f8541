// SPDX-License-Identifier: MIT
#include "crowd/bayes/ebcc.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "crowd/em/dawid_skene.hpp"
#include "crowd/voting/majority_vote.hpp"
#include "data/item_partitions.hpp"
#include "util/error.hpp"
#include "util/parallel.hpp"
#include "util/rng.hpp"
#include "util/squarem.hpp"
#include "util/special.hpp"

namespace cs {

namespace {

constexpr double kMinusInf = -std::numeric_limits<double>::infinity();

// A 64-bit mix (the splitmix64 finaliser): the seed of item j's subtype split, so that
// the draws depend on (seed, j) only, never on how the items are partitioned.
uint64_t mix64(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

// The tables of one fit, reused every iteration. A label's code (worker i, answer c)
// indexes a row of H = k M values h = l M + m in the count and E log V tables.
//
// Only the A answer classes some label gives have rows (issue 40): an answer nobody
// gives keeps its count at 0 in every q(V_ilm), so its E log V is never read by an item
// update, its part of each Dirichlet's total is the prior's (beta_rest) and its part of
// the KL term -log Gamma(beta_l[c]) (lgamma_rest). With 5 labels and a declared k =
// 1000 the tables shrink 1000 / 3 times, and with every class in use (A = k) nothing
// changes, to the bit.
struct Vb {
    int32_t k = 0, M = 0, H = 0;
    int32_t A = 0;                       // answer classes in use
    std::vector<int32_t> answer_class;   // A: the class of answer slot a, increasing
    std::vector<uint32_t> own_codes;     // per label: worker x A + slot, when A < k
    const uint32_t *codes = nullptr;     // the labels' rows: own_codes, or the data's codes
    std::vector<double> beta_rest;       // k: sum of beta_l[c] over the answers not in use
    std::vector<double> lgamma_rest;     // k: minus sum of log Gamma(beta_l[c]) over them
    std::vector<double> beta_norm;       // k: log Gamma(sum_c beta_l[c]) - sum_c log Gamma(beta_l[c])
    int64_t table = 0;               // n_workers x A x H doubles
    std::vector<ItemRange> parts;    // fixed item partitions (item_partitions.hpp)
    std::vector<double> counts;      // per partition: table, sum of r over labels
    std::vector<double> total;       // the partitions' counts summed (last parameter update)
    std::vector<double> h_sums;      // per partition: H, sum of r over items
    std::vector<double> h_total;     // H, summed (last parameter update)
    std::vector<double> elog_v;      // table: E log V_ilm[c] at [code][h]
    std::vector<double> elog_prior;  // H: E log tau_l + E log pi_lm
    std::vector<double> beta;        // k x k: the Dirichlet parameters of row l
    std::vector<double> worker_kl;   // n_workers: sum_lm KL(q(V_ilm) || p(V_ilm))
    std::vector<double> part_bound;  // per partition: sum_j log sum_h exp(s_jh)
    double kl = 0.0;                 // KL(q(parameters) || prior), all of it
    double alpha = 1.0, eta0 = 0.1;  // class concentration; a_pi / M per subtype
    bool uniform_prior = false;      // prior = uniform: tau fixed at 1/k, no Dirichlet
    int threads = 1;
    // Polled inside the O(workers x k^2 x M) loops (issue 40): at k = 1000 one of them
    // takes seconds, and an iteration runs several.
    const Progress *progress = nullptr;
    void poll(int64_t work) const {
        if (progress != nullptr) progress->poll(work);
    }

    Vb(const CrowdData &d, const FitOptions &o, int32_t subtypes) : k(d.k), M(subtypes), H(d.k * subtypes) {
        set_answer_classes(d);
        // The count tables are n_workers x A x H doubles; refuse sizes no machine has
        // before the products could overflow.
        const double doubles = static_cast<double>(d.n_workers) * A * static_cast<double>(H);
        if (doubles > 0x1p38)
            throw Error(CS_ERR_OUT_OF_MEMORY, "ebcc/bcc: the worker tables would need " +
                                                  std::to_string(doubles * 8.0 / 0x1p30) +
                                                  " GiB (workers x answers in use x k x subtypes doubles)");
        table = static_cast<int64_t>(d.n_workers) * A * H;
        parts = partition_items(d, table);
        counts.assign(parts.size() * static_cast<std::size_t>(table), 0.0);
        total.assign(static_cast<std::size_t>(table), 0.0);
        h_sums.assign(parts.size() * static_cast<std::size_t>(H), 0.0);
        h_total.assign(static_cast<std::size_t>(H), 0.0);
        elog_v.assign(static_cast<std::size_t>(table), 0.0);
        elog_prior.assign(static_cast<std::size_t>(H), 0.0);
        beta.assign(static_cast<std::size_t>(k) * k, o.confusion_off_diagonal);
        for (int32_t l = 0; l < k; ++l) beta[static_cast<std::size_t>(l) * k + l] = o.confusion_diagonal;
        set_prior_constants();
        worker_kl.assign(static_cast<std::size_t>(d.n_workers), 0.0);
        part_bound.assign(parts.size(), 0.0);
        alpha = o.class_concentration;
        uniform_prior = o.prior == CS_PRIOR_UNIFORM;
        eta0 = o.subtype_concentration / M;
        threads = threads_for(o.threads, static_cast<int64_t>(d.n_labels()));
    }

    int64_t n_parts() const { return static_cast<int64_t>(parts.size()); }

    // The answer classes in use, and the labels' rows in the tables of those.
    void set_answer_classes(const CrowdData &d) {
        const std::vector<char> used = answer_classes_in_use(d);
        const uint64_t codes_total = static_cast<uint64_t>(d.n_labels());
        std::vector<int32_t> slot(static_cast<std::size_t>(k), -1);
        for (int32_t c = 0; c < k; ++c)
            if (used[c]) {
                slot[c] = static_cast<int32_t>(answer_class.size());
                answer_class.push_back(c);
            }
        A = static_cast<int32_t>(answer_class.size());
        if (A == k) {
            codes = d.item_code.data();
            return;
        }
        own_codes.resize(static_cast<std::size_t>(codes_total));
        for (uint64_t t = 0; t < codes_total; ++t) {
            const uint32_t code = d.item_code[t];
            own_codes[t] = static_cast<uint32_t>(code / static_cast<uint32_t>(k)) * static_cast<uint32_t>(A) +
                           static_cast<uint32_t>(slot[code % static_cast<uint32_t>(k)]);
        }
        codes = own_codes.data();
    }

    // The constants of each row's Dirichlet: its normaliser, and the parts of its total
    // and of its KL term that the answers not in use contribute (0 when all are in use).
    void set_prior_constants() {
        beta_norm.assign(static_cast<std::size_t>(k), 0.0);
        beta_rest.assign(static_cast<std::size_t>(k), 0.0);
        lgamma_rest.assign(static_cast<std::size_t>(k), 0.0);
        std::vector<char> in_use(static_cast<std::size_t>(k), 0);
        for (int32_t c : answer_class) in_use[c] = 1;
        for (int32_t l = 0; l < k; ++l) {
            double b0 = 0.0, lg = 0.0, rest = 0.0, lg_rest = 0.0;
            for (int32_t c = 0; c < k; ++c) {
                const double b = beta[static_cast<std::size_t>(l) * k + c];
                b0 += b;
                lg += log_gamma(b);
                if (!in_use[c]) {
                    rest += b;
                    lg_rest -= log_gamma(b);
                }
            }
            beta_norm[l] = log_gamma(b0) - lg;
            beta_rest[l] = rest;
            lgamma_rest[l] = lg_rest;
        }
    }
};

template <class F>
void for_each_part(const Vb &vb, F &&f) {
#pragma omp parallel for schedule(dynamic, 1) num_threads(vb.threads) if (vb.n_parts() > 1)
    for (int64_t p = 0; p < vb.n_parts(); ++p) f(p);
}

// Add one item's responsibilities into the count rows of its labels and the item sums.
inline void scatter_item(const CrowdData &d, const Vb &vb, int64_t j, const double *r, double *counts,
                         double *h_sum) {
    const int32_t H = vb.H;
    for (int64_t p = d.item_start[j]; p < d.item_start[j + 1]; ++p) {
        double *row = counts + static_cast<int64_t>(vb.codes[p]) * H;
        for (int32_t h = 0; h < H; ++h) row[h] += r[h];
    }
    for (int32_t h = 0; h < H; ++h) h_sum[h] += r[h];
}

// The counts of the starting responsibilities, and their class marginals into q.
// An item's class posterior from its subtype shares r (k x M): the sum of each class's
// shares, at most 1 (M rounded shares can add up to 1 + 1 ulp), and exactly one-hot for
// a gold item, as every method's gold rows are (its shares sum to 1 - 1 ulp).
inline void class_posterior(const double *r, int32_t k, int32_t M, int32_t gold, double *qj) {
    for (int32_t l = 0; l < k; ++l) {
        double ql = 0.0;
        for (int32_t m = 0; m < M; ++m) ql += r[l * M + m];
        qj[l] = std::min(ql, 1.0);
    }
    if (gold >= 0)
        for (int32_t l = 0; l < k; ++l) qj[l] = l == gold ? 1.0 : 0.0;
}

void scatter_start(const CrowdData &d, Vb &vb, const FitOptions &o, const std::vector<double> *start,
                   std::vector<double> &q) {
    const int32_t k = vb.k, M = vb.M, H = vb.H;
    const std::vector<double> vote = start == nullptr ? soft_majority_vote(d) : std::vector<double>();
    for_each_part(vb, [&](int64_t p) {
        double *counts = vb.counts.data() + p * vb.table;
        std::fill(counts, counts + vb.table, 0.0);
        std::vector<double> r(static_cast<std::size_t>(H)), h_sum(static_cast<std::size_t>(H), 0.0);
        for (int64_t j = vb.parts[p].first; j < vb.parts[p].last; ++j) {
            double *qj = q.data() + j * k;
            if (start != nullptr) {
                std::copy(start->data() + j * H, start->data() + (j + 1) * H, r.data());
            } else {
                Rng rng(mix64(o.seed ^ mix64(static_cast<uint64_t>(j))));
                for (int32_t l = 0; l < k; ++l) {
                    const double share = vote[static_cast<std::size_t>(j * k + l)];
                    double *rl = r.data() + static_cast<std::ptrdiff_t>(l) * M;
                    if (M == 1) {
                        rl[0] = share;
                        continue;
                    }
                    // A Dirichlet(1, ..., 1) split: normalised standard exponentials, from
                    // uniforms in (0, 1) (so every draw is positive and finite).
                    double sum = 0.0;
                    for (int32_t m = 0; m < M; ++m) {
                        const double u = (static_cast<double>(rng.next() >> 11) + 0.5) * 0x1.0p-53;
                        rl[m] = -std::log(u);
                        sum += rl[m];
                    }
                    for (int32_t m = 0; m < M; ++m) rl[m] = share * (rl[m] / sum);
                }
            }
            class_posterior(r.data(), k, M, d.gold_of(static_cast<int32_t>(j)), qj);
            scatter_item(d, vb, j, r.data(), counts, h_sum.data());
        }
        std::copy(h_sum.begin(), h_sum.end(), vb.h_sums.begin() + p * H);
    });
}

// KL(Dir(a) || Dir(b)) given log Gamma(sum b) - sum log Gamma(b) = `log_norm_b` and the
// expectations E log x = psi(a) - psi(sum a) in `elog` (n entries).
double dirichlet_kl(const double *a, const double *b, double log_norm_b, const double *elog, int32_t n) {
    double a0 = 0.0, kl = 0.0;
    for (int32_t c = 0; c < n; ++c) {
        a0 += a[c];
        kl += (a[c] - b[c]) * elog[c] - log_gamma(a[c]);
    }
    return kl + log_gamma(a0) - log_norm_b;
}

// The same over the n entries of a that differ from the prior b, given the total a0 of
// all entries and `rest` = minus the sum of log Gamma over the others (each equal to its
// b, so its (a - b) E log term is 0). With rest = 0 and a0 their sum, dirichlet_kl.
double dirichlet_kl(const double *a, const double *b, double log_norm_b, const double *elog, int32_t n, double a0,
                    double rest) {
    double kl = 0.0;
    for (int32_t c = 0; c < n; ++c) kl += (a[c] - b[c]) * elog[c] - log_gamma(a[c]);
    return (kl + rest) + log_gamma(a0) - log_norm_b;
}

// The parameter update from the counts of the last item pass: the Dirichlets of every
// V_ilm, tau and pi_l, their E log, and the KL term of the bound.
// The counts of the last item pass, summed in partition order, into vb.total, vb.h_total.
void sum_counts(Vb &vb) {
    const int32_t H = vb.H;
    sum_tables(vb.counts.data(), vb.table, vb.n_parts(), vb.total.data(), vb.threads);
    for (int32_t h = 0; h < H; ++h) {
        double s = 0.0;
        for (int64_t p = 0; p < vb.n_parts(); ++p) s += vb.h_sums[static_cast<std::size_t>(p * H + h)];
        vb.h_total[h] = s;
    }
}

// The Dirichlets of every V_ilm, tau and pi_l from the counts in vb.total and
// vb.h_total, their E log, and the KL term of the bound.
void set_parameters(const CrowdData &d, Vb &vb) {
    const int32_t k = vb.k, M = vb.M, H = vb.H, A = vb.A;
    // The rows (worker i, true class l) in blocks of about Progress::kPollWork table
    // entries, with a cancellation poll between blocks, outside the parallel region (at
    // k = 1000 one worker's rows are 10^7 entries, seconds of digamma). Each (i, l, m)
    // keeps its KL term, summed per worker afterwards in the order of a plain loop, so
    // the blocks and the threads change nothing in the results.
    const int64_t rows = static_cast<int64_t>(d.n_workers) * k, per_row = static_cast<int64_t>(M) * A;
    std::vector<double> row_kl(static_cast<std::size_t>(d.n_workers) * static_cast<std::size_t>(H));
    const int64_t block = std::max<int64_t>(Progress::kPollWork / std::max<int64_t>(per_row, 1), 1);
    for (int64_t first = 0; first < rows; first += block) {
        const int64_t end = std::min(rows, first + block);
#pragma omp parallel num_threads(vb.threads) if (end - first > 256 && vb.threads > 1)
        {
            std::vector<double> a(static_cast<std::size_t>(A)), b(static_cast<std::size_t>(A)),
                e(static_cast<std::size_t>(A));
#pragma omp for schedule(static)
            for (int64_t row = first; row < end; ++row) {
                const int64_t i = row / k;
                const int32_t l = static_cast<int32_t>(row % k);
                const int64_t base = i * A * H;  // answer slot s of worker i: row base + s H
                for (int32_t s = 0; s < A; ++s) b[s] = vb.beta[static_cast<std::size_t>(l) * k + vb.answer_class[s]];
                for (int32_t m = 0; m < M; ++m) {
                    const int32_t h = l * M + m;
                    double a0 = 0.0;
                    for (int32_t s = 0; s < A; ++s) {
                        a[s] = b[s] + vb.total[base + s * H + h];
                        a0 += a[s];
                    }
                    a0 += vb.beta_rest[l];
                    const double psi0 = digamma(a0);
                    for (int32_t s = 0; s < A; ++s) {
                        e[s] = digamma(a[s]) - psi0;
                        vb.elog_v[base + s * H + h] = e[s];
                    }
                    row_kl[static_cast<std::size_t>(i * H + h)] =
                        dirichlet_kl(a.data(), b.data(), vb.beta_norm[l], e.data(), A, a0, vb.lgamma_rest[l]);
                }
            }
        }
        vb.poll((end - first) * per_row);
    }
    for (int32_t i = 0; i < d.n_workers; ++i) {
        double kl = 0.0;
        for (int32_t h = 0; h < H; ++h) kl += row_kl[static_cast<std::size_t>(i) * H + h];
        vb.worker_kl[i] = kl;
    }
    double kl = 0.0;
    for (int32_t i = 0; i < d.n_workers; ++i) kl += vb.worker_kl[i];  // in worker order: deterministic

    // Class proportions tau ~ Dir(nu) and subtype weights pi_l ~ Dir(eta_l).
    std::vector<double> nu(static_cast<std::size_t>(k)), prior_nu(static_cast<std::size_t>(k), vb.alpha),
        elog_tau(static_cast<std::size_t>(k));
    double nu0 = 0.0;
    for (int32_t l = 0; l < k; ++l) {
        double s = vb.alpha;
        for (int32_t m = 0; m < M; ++m) s += vb.h_total[l * M + m];
        nu[l] = s;
        nu0 += s;
    }
    if (vb.uniform_prior) {  // a fixed tau = 1/k: E log tau is log(1/k), and no KL term
        for (int32_t l = 0; l < k; ++l) elog_tau[l] = -std::log(static_cast<double>(k));
    } else {
        const double psi_nu0 = digamma(nu0);
        for (int32_t l = 0; l < k; ++l) elog_tau[l] = digamma(nu[l]) - psi_nu0;
        kl += dirichlet_kl(nu.data(), prior_nu.data(), log_gamma(k * vb.alpha) - k * log_gamma(vb.alpha),
                           elog_tau.data(), k);
    }
    std::vector<double> eta(static_cast<std::size_t>(M)), prior_eta(static_cast<std::size_t>(M), vb.eta0),
        elog_pi(static_cast<std::size_t>(M));
    const double eta_norm = log_gamma(M * vb.eta0) - M * log_gamma(vb.eta0);
    for (int32_t l = 0; l < k; ++l) {
        double e0 = 0.0;
        for (int32_t m = 0; m < M; ++m) {
            eta[m] = vb.eta0 + vb.h_total[l * M + m];
            e0 += eta[m];
        }
        const double psi_e0 = digamma(e0);
        // With one subtype E log pi = 0 and the KL term is 0 exactly: bcc's bound.
        for (int32_t m = 0; m < M; ++m) elog_pi[m] = M == 1 ? 0.0 : digamma(eta[m]) - psi_e0;
        if (M > 1) kl += dirichlet_kl(eta.data(), prior_eta.data(), eta_norm, elog_pi.data(), M);
        for (int32_t m = 0; m < M; ++m) vb.elog_prior[l * M + m] = elog_tau[l] + elog_pi[m];
    }
    vb.kl = kl;
}

void update_parameters(const CrowdData &d, Vb &vb) {
    sum_counts(vb);
    set_parameters(d, vb);
}

// SQUAREM (Varadhan and Roland 2008, SqS3, the SQUAREM package's adaptive step bound; as
// the Dawid-Skene EM's and mace's accel = squarem) on the counts, extrapolated on the
// logarithms of the Dirichlet parameters they define (beta_l[c] + count for each V row,
// a_pi / M + count for each subtype weight), so every extrapolated point is a valid
// q(V) q(pi) q(tau). For the counts a, b = F(a), c = F(b): alpha from ||r|| / ||v|| in
// [-alpha_max, -1] (-1: c itself); returns alpha and the point in out_total, out_h
// (`logs` is scratch space kept by the caller between cycles).
double extrapolate_counts(const Vb &vb, const std::vector<double> *a, const std::vector<double> *b,
                          const std::vector<double> *c, double alpha_max, std::vector<double> &out_total,
                          std::vector<double> &out_h, std::vector<double> &logs) {
    const int32_t k = vb.k, H = vb.H;
    // The prior parameter under entry e of the table ([worker][answer slot][h], l = h /
    // M) or of h.
    auto prior_of = [&](int64_t e) {
        const int64_t h = e % H, cls = vb.answer_class[static_cast<std::size_t>((e / H) % vb.A)], l = h / vb.M;
        return vb.beta[static_cast<std::size_t>(l * k + cls)];
    };
    // The logarithms of a, b and c are taken once per cycle (kept in `logs`, 3 per
    // parameter, table entries first), for the step length and for the step.
    logs.resize(3 * static_cast<std::size_t>(vb.table + H));
    double r2 = 0.0, v2 = 0.0;
    std::size_t at = 0;
    for (int part = 0; part < 2; ++part) {
        const int64_t n = part == 0 ? vb.table : H;
        for (int64_t e = 0; e < n; ++e, at += 3) {
            const double p0 = part == 0 ? prior_of(e) : vb.eta0;
            const double la = std::log(p0 + a[part][e]), lb = std::log(p0 + b[part][e]), lc = std::log(p0 + c[part][e]);
            logs[at] = la;
            logs[at + 1] = lb;
            logs[at + 2] = lc;
            const double r = lb - la, v = lc - 2.0 * lb + la;
            r2 += r * r;
            v2 += v * v;
            if ((e & 0xFFFF) == 0xFFFF) vb.poll(0x10000);
        }
    }
    const double alpha = squarem_step_length(r2, v2, alpha_max);
    if (!(alpha < -1.0)) return -1.0;
    at = 0;
    for (int part = 0; part < 2; ++part) {
        std::vector<double> &out = part == 0 ? out_total : out_h;
        out = c[part];
        const int64_t n = part == 0 ? vb.table : H;
        for (int64_t e = 0; e < n; ++e, at += 3) {
            const double p0 = part == 0 ? prior_of(e) : vb.eta0;
            const double la = logs[at], lb = logs[at + 1], lc = logs[at + 2];
            const double x = std::exp(squarem_log_point(la, lb - la, lc - 2.0 * lb + la, alpha));
            if (x > 0.0 && std::isfinite(x)) out[e] = x - p0;
            if ((e & 0xFFFF) == 0xFFFF) vb.poll(0x10000);
        }
    }
    // The class proportions' Dirichlet, alpha + sum_m count_lm, must stay positive too.
    for (int32_t l = 0; l < k; ++l) {
        double nu = vb.alpha;
        for (int32_t m = 0; m < vb.M; ++m) nu += out_h[static_cast<std::size_t>(l * vb.M + m)];
        if (!(nu > 0.0)) return -1.0;
    }
    return alpha;
}

// The item update of partition p: responsibilities from the current E log tables,
// their class marginals into q, their counts for the next parameter update, and the
// partition's part of the bound. HC > 0 fixes H at compile time (the common sizes:
// bcc for k = 2..5, ebcc's default M = 10 for k = 2..5), so the loops over h unroll;
// HC = 0 reads H at run time.
template <int HC>
void item_range(const CrowdData &d, Vb &vb, int64_t p, double *q) {
    const int32_t k = vb.k, M = vb.M, H = HC > 0 ? HC : vb.H;
    double *counts = vb.counts.data() + p * vb.table;
    std::fill(counts, counts + vb.table, 0.0);
    double stack_s[HC > 0 ? HC : 1], stack_sum[HC > 0 ? HC : 1];
    std::vector<double> heap(HC > 0 ? 0 : 2 * static_cast<std::size_t>(H));
    double *s = HC > 0 ? stack_s : heap.data();
    double *h_sum = HC > 0 ? stack_sum : heap.data() + H;
    for (int32_t h = 0; h < H; ++h) h_sum[h] = 0.0;
    const double *elog_v = vb.elog_v.data(), *elog_prior = vb.elog_prior.data();
    // As in the Dawid-Skene E-step, the log of each item's normaliser (between 1 and H)
    // is taken once per batch of items, on the product of the normalisers.
    double bound = 0.0, product = 1.0;
    constexpr double kFlush = 1e250;
    for (int64_t j = vb.parts[p].first; j < vb.parts[p].last; ++j) {
        for (int32_t h = 0; h < H; ++h) s[h] = elog_prior[h];
        for (int64_t t = d.item_start[j]; t < d.item_start[j + 1]; ++t) {
            const double *row = elog_v + static_cast<int64_t>(vb.codes[t]) * H;
            for (int32_t h = 0; h < H; ++h) s[h] += row[h];
        }
        const int32_t gold = d.gold_of(static_cast<int32_t>(j));
        if (gold >= 0)  // pinned to its class; its subtype stays free
            for (int32_t h = 0; h < H; ++h)
                if (h / M != gold) s[h] = kMinusInf;
        int32_t best = 0;
        for (int32_t h = 1; h < H; ++h)
            if (s[h] > s[best]) best = h;
        const double top = s[best];  // finite: every E log is
        double sum = 0.0;
        for (int32_t h = 0; h < H; ++h) {
            s[h] = h == best ? 1.0 : std::exp(s[h] - top);
            sum += s[h];
        }
        for (int32_t h = 0; h < H; ++h) s[h] /= sum;
        bound += top;
        if (product > kFlush / sum) {
            bound += std::log(product);
            product = 1.0;
        }
        product *= sum;
        class_posterior(s, k, M, gold, q + j * k);
        for (int64_t t = d.item_start[j]; t < d.item_start[j + 1]; ++t) {
            double *row = counts + static_cast<int64_t>(vb.codes[t]) * H;
            for (int32_t h = 0; h < H; ++h) row[h] += s[h];
        }
        for (int32_t h = 0; h < H; ++h) h_sum[h] += s[h];
    }
    vb.part_bound[p] = bound + std::log(product);
    std::copy(h_sum, h_sum + H, vb.h_sums.begin() + p * H);
}

// The item update of every partition; returns the evidence lower bound at (the new
// responsibilities, the current parameters).
double item_pass(const CrowdData &d, Vb &vb, std::vector<double> &q) {
    for_each_part(vb, [&](int64_t p) {
        switch (vb.H) {
            case 2: item_range<2>(d, vb, p, q.data()); break;
            case 3: item_range<3>(d, vb, p, q.data()); break;
            case 4: item_range<4>(d, vb, p, q.data()); break;
            case 5: item_range<5>(d, vb, p, q.data()); break;
            case 20: item_range<20>(d, vb, p, q.data()); break;
            case 30: item_range<30>(d, vb, p, q.data()); break;
            case 40: item_range<40>(d, vb, p, q.data()); break;
            case 50: item_range<50>(d, vb, p, q.data()); break;
            default: item_range<0>(d, vb, p, q.data()); break;
        }
    });
    double bound = 0.0;
    for (int64_t p = 0; p < vb.n_parts(); ++p) bound += vb.part_bound[p];  // in partition order
    return bound - vb.kl;
}

// The results of the parameters of the last update: posterior means of the class
// proportions and of each worker's confusion matrix, sum_m E[pi_lm] E[V_ilm].
void write_parameters(const CrowdData &d, const Vb &vb, FitResult &out) {
    const int32_t k = vb.k, M = vb.M, H = vb.H;
    const int64_t kk = static_cast<int64_t>(k) * k;
    out.prior.assign(static_cast<std::size_t>(k), 0.0);
    std::vector<double> weight(static_cast<std::size_t>(H));  // E[pi_lm]
    double nu0 = 0.0;
    for (int32_t l = 0; l < k; ++l) {
        double nl = vb.alpha, e0 = 0.0;
        for (int32_t m = 0; m < M; ++m) {
            nl += vb.h_total[l * M + m];
            e0 += vb.eta0 + vb.h_total[l * M + m];
        }
        for (int32_t m = 0; m < M; ++m) weight[l * M + m] = (vb.eta0 + vb.h_total[l * M + m]) / e0;
        out.prior[l] = nl;
        nu0 += nl;
    }
    for (int32_t l = 0; l < k; ++l) out.prior[l] = vb.uniform_prior ? 1.0 / k : out.prior[l] / nu0;
    out.confusion.assign(static_cast<std::size_t>(d.n_workers * kk), 0.0);
    // The count of answer c in row h of worker i: 0 for an answer not in use.
    std::vector<int32_t> slot(static_cast<std::size_t>(k), -1);
    for (int32_t s = 0; s < vb.A; ++s) slot[vb.answer_class[s]] = s;
    for (int32_t i = 0; i < d.n_workers; ++i) {
        const int64_t base = static_cast<int64_t>(i) * vb.A * H;
        const auto count = [&](int32_t c, int32_t h) { return slot[c] < 0 ? 0.0 : vb.total[base + slot[c] * H + h]; };
        double *pi = out.confusion.data() + i * kk;
        for (int32_t l = 0; l < k; ++l) {
            for (int32_t m = 0; m < M; ++m) {
                const int32_t h = l * M + m;
                double a0 = 0.0;
                for (int32_t c = 0; c < k; ++c) a0 += vb.beta[l * k + c] + count(c, h);
                for (int32_t c = 0; c < k; ++c) pi[l * k + c] += weight[h] * (vb.beta[l * k + c] + count(c, h)) / a0;
            }
            vb.poll(2 * static_cast<int64_t>(M) * k);
        }
    }
}

}  // namespace

bool fit_subtype_vb(const CrowdData &data, const FitOptions &options, const Progress &progress,
                    int32_t subtypes, FitResult &out, const std::vector<double> *start) {
    if (subtypes < 1) throw Error(CS_ERR_INVALID_ARGUMENT, "ebcc: subtypes must be >= 1");
    Vb vb(data, options, subtypes);
    vb.progress = &progress;
    if (start != nullptr && start->size() != static_cast<std::size_t>(data.n_items) * vb.H)
        throw Error(CS_ERR_INVALID_ARGUMENT, "ebcc: the start must hold n_items x k x subtypes values");
    std::vector<double> q(static_cast<std::size_t>(data.n_items) * data.k);
    out.trace.clear();
    out.has_log_likelihood = true;  // the trace holds the ELBO (cs_log_likelihood documents it)

    scatter_start(data, vb, options, start, q);
    update_parameters(data, vb);
    bool cancelled = progress.cancelled(0, 0.0);
    bool converged = false;
    int32_t rounds = 0;
    // A kept round: its bound into the trace, tested against `against`.
    auto record = [&](double bound, double against, bool test) {
        converged = test && options.tol > 0.0 &&
                    (bound == against || std::fabs(bound - against) < options.tol * std::fabs(against));
        out.trace.push_back(bound);
        ++rounds;
        cancelled = progress.cancelled(rounds, bound);
        return converged || cancelled || rounds >= options.max_iter;
    };
    if (!cancelled && options.max_iter > 0) {
        bool done = record(item_pass(data, vb, q), 0.0, false);  // the first round, from the start
        const bool squarem = options.accel == CS_ACCEL_SQUAREM;
        std::vector<double> a[2], b[2], c[2], trial_total, trial_h, logs;
        double alpha_max = 1.0;  // the SQUAREM package's step.max0
        while (!done) {
            const double at_a = out.trace.back();
            if (squarem) {
                a[0] = vb.total;
                a[1] = vb.h_total;
            }
            update_parameters(data, vb);  // b = F(a)
            const double at_b = item_pass(data, vb, q);
            done = record(at_b, at_a, true);  // a plain round from a: plain VB's rule
            if (done || !squarem) continue;
            b[0] = vb.total;
            b[1] = vb.h_total;
            sum_counts(vb);  // c = F(b)
            c[0] = vb.total;
            c[1] = vb.h_total;
            const double alpha = extrapolate_counts(vb, a, b, c, alpha_max, trial_total, trial_h, logs);
            bool rejected = false;
            if (alpha < -1.0) {
                vb.total.swap(trial_total);
                vb.h_total.swap(trial_h);
                set_parameters(data, vb);
                const double at_trial = item_pass(data, vb, q);
                rejected = !(at_trial >= at_b);
                if (!rejected) done = record(at_trial, at_a, true);
            }
            if (alpha >= -1.0 || rejected) {  // the plain step c (after a rejection, an uncounted pass)
                vb.total = c[0];
                vb.h_total = c[1];
                set_parameters(data, vb);
                done = record(item_pass(data, vb, q), at_a, true);
            }
            alpha_max = squarem_next_bound(alpha_max, alpha, rejected);
        }
    }
    // The parameters are those of the last item pass (its counts wait for an update
    // that does not come), so posteriors and parameters belong together.
    write_parameters(data, vb, out);
    out.posteriors = std::move(q);
    out.labels = argmax_labels(out.posteriors, data.n_items, data.k);
    out.iterations = rounds;
    out.converged = converged;
    if (!converged && !cancelled && options.max_iter > 0 && options.tol > 0.0) {
        out.notes |= CS_NOTE_MAX_ITER_REACHED;
        out.note_message += "variational Bayes stopped at max_iter = " + std::to_string(options.max_iter) +
                            " iterations before the relative change of the evidence lower bound fell below tol. ";
    }
    if (cancelled) out.notes |= CS_NOTE_CANCELLED;
    return cancelled;
}

bool fit_ebcc(const CrowdData &data, const FitOptions &options, const Progress &progress, FitResult &out) {
    return fit_subtype_vb(data, options, progress, options.subtypes, out);
}

}  // namespace cs
