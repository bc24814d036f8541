// SPDX-License-Identifier: MIT
#include "crowd/spectral/spectral_init.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "crowd/em/confusion_model.hpp"
#include "data/crowd_shard.hpp"
#include "data/item_partitions.hpp"
#include "linalg/dense.hpp"
#include "linalg/tensor.hpp"
#include "util/parallel.hpp"
#include "util/per_class.hpp"

namespace cs {

namespace {

constexpr int kGroups = 3;
// Moment matrices with a reciprocal condition number below this are treated as
// singular: their inverse would amplify sampling noise by more than 1e12.
constexpr double kMinRcond = 1e-12;

// Empirical moments of the group aggregates Z_gj (Z-1, summed as in the reference
// code) over all n items, scaled by 1/n.
struct GroupMoments {
    std::array<std::array<Matrix, kGroups>, kGroups> second;  // S_xy = (1/n) sum Z_x Z_y^T (x != y)
    Tensor3 third;                                            // (1/n) sum Z_0 (x) Z_1 (x) Z_2
    std::vector<Matrix> worker_cross;  // per worker i: (1/n) sum_j z_ij Z_alt(i),j^T (Z-3)
};

// The per-worker part of one item (Z-3): Z_alt of each group from the stacked
// aggregates z, then each label's row of `cross` (its code's) gets its group's Z_alt.
template <int K>
inline void add_cross_moments(const uint32_t *codes, int64_t begin, int64_t end, const uint8_t *group,
                              int32_t k_runtime, const double *z, double *__restrict alt,
                              double *__restrict cross) {
    const int32_t k = K > 0 ? K : k_runtime;
    for (int32_t d = 0; d < k; ++d) {
        alt[d] = z[k + d] + z[2 * k + d];
        alt[k + d] = z[2 * k + d] + z[d];
        alt[2 * k + d] = z[d] + z[k + d];
    }
    for (int64_t p = begin; p < end; ++p) {
        const uint32_t code = codes[p];
        const double *a = alt + group[code] * k;
        double *row = cross + static_cast<int64_t>(code) * k;
        for (int32_t d = 0; d < k; ++d) row[d] += a[d];
    }
}

// Add the moments of the items in range r into one table:
// - `third` [c][a][b]: the third moment of (Z_0, Z_1, Z_2), stored with group 2's
//   label first so that an item adds z_2c times the k x k product z_0 z_1^T to one
//   contiguous block per class c;
// - `s01` [a][b]: the cross moment S_01 of groups 0 and 1;
// - `cross` [code][d]: per label code w * k + c, worker w's label c times Z_alt, the
//   sum of the aggregates of the two groups other than w's (Z-3).
// The other group cross moments follow exactly from these (compute_moments), so an
// item costs one k x k outer product and k vectorised k x k block updates, and each
// label k additions. K fixes k at compile time (the common small cases, k <= 5):
// the item's aggregates then live in local arrays that the compiler keeps apart from
// the tables, and the products vectorise.
template <int K>
void accumulate_moments(const CrowdData &data, ItemRange r, const uint8_t *group,
                        const uint32_t *slot, double *__restrict third, double *__restrict s01,
                        double *__restrict cross) {
    static_assert(K > 0, "the small-k kernel needs k at compile time");
    constexpr int32_t k = K, kk = K * K;
    // Z_0, Z_1, Z_2 stacked, for two items: item j + 1's labels are counted before item
    // j's products read its counts, so those reads never wait on the counting stores
    // just issued (perf showed the products stalled on them: 8 % of the pass at k = 5,
    // 29 % at k = 2). Then Z_alt of each group, and z_0 z_1^T.
    double z_pair[2][kGroups * K] = {}, alt[kGroups * K], outer[kk];
    const uint32_t *codes = data.item_code.data();
    const int64_t *start = data.item_start.data();
    auto count_labels = [&](int64_t j, double *z) {
        for (int64_t p = start[j]; p < start[j + 1]; ++p) z[slot[codes[p]]] += 1.0;
    };
    if (r.first < r.last) count_labels(r.first, z_pair[0]);
    for (int64_t j = r.first; j < r.last; ++j) {
        double *z = z_pair[(j - r.first) & 1];
        if (j + 1 < r.last) count_labels(j + 1, z_pair[(j + 1 - r.first) & 1]);
        const int64_t begin = start[j], end = start[j + 1];
        if (begin == end) continue;  // its counts are all zero
        for (int32_t a = 0; a < k; ++a)
            for (int32_t b = 0; b < k; ++b) outer[a * k + b] = z[a] * z[k + b];
        for (int32_t e = 0; e < kk; ++e) s01[e] += outer[e];
        // The third moment adds z_2c z_0 z_1^T for every class c. Which classes are
        // present in group 2 varies from item to item, so a branch on z_2c != 0
        // mispredicts about once an item; the branch-free dense update is faster
        // (k = 5: 0.075 -> 0.065 s, k = 3: 0.043 -> 0.034 s, k = 2: 0.026 -> 0.022 s per
        // 10^7 labels) -- except at k = 4, where GCC 12 keeps the whole 64-entry table in
        // registers across items and shuffles it (0.062 -> 0.097 s), so k = 4 keeps the
        // branch. Either way the sums are the same: zero products add nothing to exact
        // integer sums.
        constexpr bool kSkipAbsent = K == 4;
        for (int32_t c = 0; c < k; ++c) {
            const double w = z[2 * k + c];
            if (kSkipAbsent && w == 0.0) continue;
            double *block = third + c * kk;
            for (int32_t e = 0; e < kk; ++e) block[e] += w * outer[e];
        }
        add_cross_moments<K>(codes, begin, end, group, k, z, alt, cross);
        for (int32_t e = 0; e < kGroups * k; ++e) z[e] = 0.0;
    }
}

// The same sums for any k, read from the data: the products run over the labels
// present in each group rather than over all k^2 / k^3 entries, which for larger k
// is far less work than the dense products above.
void accumulate_moments_sparse(const CrowdData &data, ItemRange r, const uint8_t *group,
                               const uint32_t *slot, double *__restrict third,
                               double *__restrict s01, double *__restrict cross) {
    const int32_t k = data.k;
    const int64_t kk = static_cast<int64_t>(k) * k;
    std::vector<double> z(static_cast<std::size_t>(kGroups) * k, 0.0), alt(z.size());
    std::vector<int32_t> present(z.size());  // per group, its distinct labels
    int32_t n_present[kGroups];
    for (int64_t j = r.first; j < r.last; ++j) {
        const int64_t begin = data.item_start[j], end = data.item_start[j + 1];
        if (begin == end) continue;
        for (int g = 0; g < kGroups; ++g) n_present[g] = 0;
        for (int64_t p = begin; p < end; ++p) {
            const uint32_t code = data.item_code[p], at = slot[code];
            const int g = group[code];
            if (z[at] == 0.0) present[g * k + n_present[g]++] = static_cast<int32_t>(at) - g * k;
            z[at] += 1.0;
        }
        for (int32_t u = 0; u < n_present[0]; ++u) {
            const int32_t a = present[u];
            for (int32_t v = 0; v < n_present[1]; ++v) {
                const int32_t b = present[k + v];
                const double ab = z[a] * z[k + b];
                s01[a * k + b] += ab;
                for (int32_t w = 0; w < n_present[2]; ++w) {
                    const int32_t c = present[2 * k + w];
                    third[c * kk + a * k + b] += ab * z[2 * k + c];
                }
            }
        }
        add_cross_moments<0>(data.item_code.data(), begin, end, group, k, z.data(), alt.data(), cross);
        for (int g = 0; g < kGroups; ++g)  // back to all zeros for the next item
            for (int32_t u = 0; u < n_present[g]; ++u) z[g * k + present[g * k + u]] = 0.0;
    }
}

// One pass over the items, one table per thread. Every entry of every table is a sum
// of integer counts below 2^53, so it is exact, and so is the total: the moments are
// the same whatever the thread count and whichever thread takes which items (which is
// why these tables, unlike the EM's, need no fixed partitions).
GroupMoments compute_moments(const CrowdData &data, const std::vector<uint8_t> &worker_group,
                             int threads) {
    const int32_t k = data.k;
    const int64_t kk = static_cast<int64_t>(k) * k;
    const int64_t n_codes = static_cast<int64_t>(data.n_workers) * k;
    const int64_t third_size = kk * k, cross_size = n_codes * k;
    const int64_t table = third_size + kk + cross_size;
    // A copy of the table per thread, only while the labels outnumber its entries; the
    // items in 16 chunks per thread, taken dynamically, so that a thread the machine
    // slows down (a shared VM's cores are not always equal) takes fewer of them.
    const int64_t labels = static_cast<int64_t>(data.n_labels());
    const int team = static_cast<int>(std::min<int64_t>(threads, std::max<int64_t>(1, labels / table)));
    const std::vector<ItemRange> chunks = split_items(data, team > 1 ? 16 * team : 1);
    const int64_t n_chunks = static_cast<int64_t>(chunks.size());
    std::vector<double> tables(static_cast<std::size_t>(team * table), 0.0);

    // For each label code w * k + c: worker w's group g, and the position g * k + c of
    // the label in the item's stacked (Z_0, Z_1, Z_2) -- looked up rather than divided
    // per label.
    std::vector<uint8_t> group(static_cast<std::size_t>(n_codes));
    std::vector<uint32_t> slot(static_cast<std::size_t>(n_codes));
    for (int64_t code = 0; code < n_codes; ++code) {
        group[code] = worker_group[code / k];
        slot[code] = static_cast<uint32_t>(group[code] * k + code % k);
    }

#pragma omp parallel num_threads(team) if (team > 1)
    {
        double *third = tables.data() + current_thread() * table;
        double *s01 = third + third_size;
        double *cross = s01 + kk;
#pragma omp for schedule(dynamic, 1)
        for (int64_t chunk = 0; chunk < n_chunks; ++chunk) {
            with_classes(k, [&](auto kc) {
                constexpr int K = decltype(kc)::value;
                if constexpr (K > 0)
                    accumulate_moments<K>(data, chunks[chunk], group.data(), slot.data(), third, s01,
                                          cross);
                else
                    accumulate_moments_sparse(data, chunks[chunk], group.data(), slot.data(), third,
                                              s01, cross);
            });
        }
    }
    std::vector<double> total(static_cast<std::size_t>(table));
    sum_tables(tables.data(), table, team, total.data(), threads);
    // A distributed fit: the moments of all processes' items (integer sums: exact).
    sum_over_shards(data, total.data(), total.size());
    const double *s01 = total.data() + third_size;
    const double *cross = s01 + kk;

    // E_g = sum over the workers of group g of their cross moments = S_ga + S_gb for the
    // two other groups a, b. With S_01 known: S_02 = E_0 - S_01, S_12 = E_1 - S_01^T.
    // Integer sums and differences below 2^53: exact.
    std::array<Matrix, kGroups> e;
    for (Matrix &m : e) m = Matrix(k, k);
    for (int64_t code = 0; code < n_codes; ++code) {
        const int32_t c = static_cast<int32_t>(code % k);
        for (int32_t d = 0; d < k; ++d) e[group[code]](c, d) += cross[code * k + d];
    }
    const double inv_n = 1.0 / static_cast<double>(total_items(data));
    GroupMoments mom;
    for (auto &row : mom.second)
        for (Matrix &m : row) m = Matrix(k, k);  // S_xx stays unused
    for (int32_t c = 0; c < k; ++c)
        for (int32_t d = 0; d < k; ++d) {
            const double v01 = s01[c * k + d];
            mom.second[0][1](c, d) = v01 * inv_n;
            mom.second[0][2](c, d) = (e[0](c, d) - v01) * inv_n;
            mom.second[1][2](c, d) = (e[1](c, d) - s01[d * k + c]) * inv_n;
        }
    mom.second[1][0] = transpose(mom.second[0][1]);
    mom.second[2][0] = transpose(mom.second[0][2]);
    mom.second[2][1] = transpose(mom.second[1][2]);
    mom.worker_cross.assign(static_cast<std::size_t>(data.n_workers), Matrix(k, k));
    for (int32_t i = 0; i < data.n_workers; ++i)
        for (int64_t e2 = 0; e2 < kk; ++e2)
            mom.worker_cross[i].a[e2] = cross[static_cast<int64_t>(i) * kk + e2] * inv_n;
    mom.third = Tensor3(k);
    for (int32_t a = 0; a < k; ++a)
        for (int32_t b = 0; b < k; ++b)
            for (int32_t c = 0; c < k; ++c)
                mom.third(a, b, c) = total[c * kk + a * k + b] * inv_n;
    return mom;
}

// The raw third moment with its modes ordered as groups (a, b, c).
Tensor3 permuted_third(const Tensor3 &t012, int a, int b, int c) {
    const int32_t k = t012.k;
    Tensor3 out(k);
    std::array<int32_t, kGroups> index{};
    for (int32_t x = 0; x < k; ++x)
        for (int32_t y = 0; y < k; ++y)
            for (int32_t z = 0; z < k; ++z) {
                index[a] = x;
                index[b] = y;
                index[c] = z;
                out(x, y, z) = t012(index[0], index[1], index[2]);
            }
    return out;
}

// Estimate of group c's aggregated confusion matrix C_c (columns = true classes, in
// the group-sum scale) and of the class weights W, from the other groups a and b
// (Z-2a .. Z-2d, tensor decomposition, column matching).
struct GroupEstimate {
    bool ok = false;
    Matrix columns;             // k x k: column l = E[Z_cj | y_j = l]
    std::vector<double> weight; // k
    std::string problem;
};

// The problem of group c when the cross moment of the other groups a and b is singular.
std::string singular_cross_moment(int a, int b, int c) {
    return "group " + std::to_string(c) + ": the cross moment of groups " + std::to_string(a) + " and " +
           std::to_string(b) + " is singular";
}

GroupEstimate estimate_group(const GroupMoments &mom, int a, int b, int c, const FitOptions &options,
                             Rng &rng, const Progress &progress) {
    const TensorPoll poll = [&](int64_t work) { progress.poll(work); };
    const int32_t k = mom.third.k;
    GroupEstimate est;
    const std::string name = "group " + std::to_string(c);

    // (Z-2a, Z-2b): Z'_a = S_cb S_ab^{-1} Z_a and Z'_b = S_ca S_ba^{-1} Z_b.
    Matrix inv_ab = mom.second[a][b], inv_ba = mom.second[b][a];
    if (!invert(inv_ab, kMinRcond) || !invert(inv_ba, kMinRcond)) {
        est.problem = singular_cross_moment(a, b, c);
        return est;
    }
    const Matrix ta = multiply(mom.second[c][b], inv_ab);
    const Matrix tb = multiply(mom.second[c][a], inv_ba);
    // (Z-2c) M2 = T_a S_ab T_b^T;  (Z-2d) M3 = R_abc(T_a^T, T_b^T, I).
    const Matrix m2 = multiply(multiply(ta, mom.second[a][b]), tb, false, true);
    const Tensor3 m3 = multilinear(permuted_third(mom.third, a, b, c), transpose(ta),
                                   transpose(tb), Matrix::identity(k), poll);

    // Whitening: M2 = U S V^T, Q = U S^{-1/2}.
    Svd d;
    if (!svd(m2, d) || !(d.s.back() > kMinRcond * d.s.front())) {
        est.problem = name + ": the second moment M2 is singular, it cannot be whitened";
        return est;
    }
    Matrix q(k, k);
    for (int32_t x = 0; x < k; ++x)
        for (int32_t h = 0; h < k; ++h) q(x, h) = d.u(x, h) / std::sqrt(d.s[h]);
    Matrix q_t_pinv;
    if (!pseudo_inverse(transpose(q), q_t_pinv)) {
        est.problem = name + ": the whitening matrix has no pseudo-inverse";
        return est;
    }

    std::vector<TensorEigenpair> pairs;
    if (!robust_tensor_power(multilinear(m3, q, q, q, poll), options.power_starts, options.power_iters,
                             rng, pairs, poll)) {
        est.problem = name + ": the whitened third moment is degenerate";
        return est;
    }

    est.columns = Matrix(k, k);
    est.weight.assign(static_cast<std::size_t>(k), 0.0);
    std::vector<char> taken(static_cast<std::size_t>(k), 0);
    for (const TensorEigenpair &pair : pairs) {
        if (!(pair.lambda > 0.0)) {
            est.problem = name + ": a tensor eigenvalue is not positive";
            return est;
        }
        // mu_h = lambda (Q^T)^+ v_h; w_h = 1 / lambda^2.
        std::vector<double> mu(static_cast<std::size_t>(k), 0.0);
        for (int32_t x = 0; x < k; ++x)
            for (int32_t h = 0; h < k; ++h) mu[x] += pair.lambda * q_t_pinv(x, h) * pair.v[h];
        // Column matching: the class at which mu_h is largest; if that slot is
        // taken, the first empty slot (the reference code's rule).
        int32_t slot = static_cast<int32_t>(std::max_element(mu.begin(), mu.end()) - mu.begin());
        if (taken[slot]) slot = static_cast<int32_t>(std::find(taken.begin(), taken.end(), 0) - taken.begin());
        taken[slot] = 1;
        for (int32_t x = 0; x < k; ++x) est.columns(x, slot) = mu[x];
        est.weight[slot] = 1.0 / (pair.lambda * pair.lambda);
    }
    if (!all_finite(est.columns)) {
        est.problem = name + ": non-finite confusion estimate";
        return est;
    }
    est.ok = true;
    return est;
}

}  // namespace

SpectralEstimate spectral_confusion(const CrowdData &data, const std::vector<uint8_t> &worker_group,
                                    const FitOptions &options, Rng &rng, const Progress &progress) {
    const int32_t k = data.k, m = data.n_workers;
    const int64_t kk = static_cast<int64_t>(k) * k;
    SpectralEstimate out;
    out.confusion.assign(static_cast<std::size_t>(m) * kk, 0.0);
    out.valid.assign(static_cast<std::size_t>(m), 0);
    out.prior.assign(static_cast<std::size_t>(k), 1.0 / k);
    if (m < kGroups) {
        out.problem = "fewer than 3 workers: the spectral stage needs three worker groups";
        return out;
    }

    // (a, b, c) in {(2,3,1), (3,1,2), (1,2,3)} of the paper, 0-based.
    const int triples[kGroups][3] = {{1, 2, 0}, {2, 0, 1}, {0, 1, 2}};
    // A class no label names (a declared k above the classes in use, of every process)
    // leaves a zero row and column in every cross moment S_ab: each group finds its
    // cross moment singular, and the fit starts from the majority vote. Said at once,
    // with the same words, instead of after building the k^3 third moment (8 GB at k =
    // 1000; issue 40).
    std::vector<char> in_use = answer_classes_in_use(data);
    std::vector<double> used(in_use.begin(), in_use.end());
    sum_over_shards(data, used.data(), used.size());
    if (std::find(used.begin(), used.end(), 0.0) != used.end()) {
        for (int g = 0; g < kGroups; ++g) {
            const int *t = triples[g];  // the triple whose third group is g
            out.problem += (g == 0 ? "" : "; ") + singular_cross_moment(t[0], t[1], t[2]);
        }
        return out;
    }
    const GroupMoments mom =
        compute_moments(data, worker_group, threads_for(options.threads, static_cast<int64_t>(data.n_labels())));
    std::array<GroupEstimate, kGroups> group;
    for (const auto &t : triples) group[t[2]] = estimate_group(mom, t[0], t[1], t[2], options, rng, progress);

    // Per worker i of group g, with the two other groups a, b together (Z-3, as in the
    // reference code): C_i = [(1/n) sum_j z_ij Z_alt,j^T] [diag(W_alt) C_alt^T]^{-1},
    // C_alt = C_a + C_b, W_alt = (W_a + W_b) / 2.
    std::array<Matrix, kGroups> solve;  // [diag(W_alt) C_alt^T]^{-1} of each group g
    std::array<bool, kGroups> usable{};
    for (int g = 0; g < kGroups; ++g) {
        const int a = (g + 1) % kGroups, b = (g + 2) % kGroups;
        if (!group[a].ok || !group[b].ok) continue;
        Matrix dmat(k, k);
        for (int32_t l = 0; l < k; ++l) {
            const double w = 0.5 * (group[a].weight[l] + group[b].weight[l]);
            for (int32_t x = 0; x < k; ++x)
                dmat(l, x) = w * (group[a].columns(x, l) + group[b].columns(x, l));
        }
        usable[g] = invert(dmat, kMinRcond);
        if (usable[g]) solve[g] = std::move(dmat);
        else if (out.problem.empty())
            out.problem = "the weighted confusion of the groups other than " + std::to_string(g) +
                          " is singular";
    }
    for (int g = 0; g < kGroups; ++g)
        if (!group[g].ok) out.problem += (out.problem.empty() ? "" : "; ") + group[g].problem;

    std::vector<double> counts(static_cast<std::size_t>(kk));
    for (int32_t i = 0; i < m; ++i) {
        const int g = worker_group[i];
        if (!usable[g]) continue;
        const Matrix ci = multiply(mom.worker_cross[i], solve[g]);  // observed x true
        if (!all_finite(ci)) continue;
        // Floor at delta, then the confusion model and normalisation of each true
        // class (a column of C_i, a row of pi_i).
        for (int32_t l = 0; l < k; ++l)
            for (int32_t c = 0; c < k; ++c) counts[l * k + c] = std::max(ci(c, l), options.delta);
        apply_confusion_model(counts.data(), k, options.confusion);
        std::copy(counts.begin(), counts.end(), out.confusion.begin() + i * kk);
        out.valid[i] = 1;
    }

    if (group[0].ok && group[1].ok && group[2].ok) {
        double total = 0.0;
        for (int32_t l = 0; l < k; ++l) {
            out.prior[l] = (group[0].weight[l] + group[1].weight[l] + group[2].weight[l]) / 3.0;
            total += out.prior[l];
        }
        out.prior_valid = std::isfinite(total) && total > 0.0;
        if (out.prior_valid)
            for (double &w : out.prior) w /= total;
        else
            std::fill(out.prior.begin(), out.prior.end(), 1.0 / k);
    }
    return out;
}

}  // namespace cs
