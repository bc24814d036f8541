// SPDX-License-Identifier: MIT
// Dawid-Skene's two ways of forming the M-step counts give the same bits. With count
// tables beyond the caches (many workers, k >= 3) the E-step writes only the
// posteriors and the M-step gathers every code's counts from them through the labels
// grouped by code; otherwise the E-step scatters them into per-partition tables
// (crowd/em/ds_e_step.cpp, ds_m_step.cpp). FitOptions::pull_table_bytes picks the way for any crowd,
// so both run here on the same crowds: ds, one-coin-ds and class-one-coin-ds, plain EM
// and SQUAREM, with gold items, smoothing around the pooled matrix, k = 3, 5 (kernels
// fixed at compile time) and 7 (the generic one), on 1 and 2 threads. Posteriors,
// confusion matrices, prior and trace must be equal bit for bit. Also the grouping
// itself against one written out here.
//
// Likewise the E-step at k = 3, 4 and 5, which runs in AVX2 registers where the processor
// has them (crowd/em/ds_kernel_wide.hpp, each code's rows padded to 4 or 8 doubles) and in
// SSE2 pairs elsewhere (ds_kernel_lanes.hpp): FitOptions::wide_kernels = false forces
// the pairs, and both must give the same bits on whole fits (ds and one-coin-ds, plain
// EM and SQUAREM, gold items, answer sets and none, pooled smoothing, 1 and 2 threads,
// item counts that leave a partial batch) and on a lone E-step at parameters with zero
// entries (impossible classes; items impossible under every class, which fall back to
// the prior); and on fits where most item rows have no labels, in runs and at the end,
// some of them gold (the wide kernel copies a batch of such rows instead of computing
// it). Without AVX2 both would take the pairs: those tests are skipped, visibly. The
// k = 2 ratio kernel's copies for such rows (ds_kernel_ratio.hpp, lanes_of_batch) are
// checked in the last test against the same kernel computing every row
// (FitOptions::copy_empty_items = false).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "support/cmocka_cpp.hpp"
#include "core/fit_result.hpp"
#include "crowd/em/dawid_skene.hpp"
#include "data/crowd_data.hpp"
#include "data/labels_by_code.hpp"
#include "sim/crowd_sim.hpp"
#include "util/parallel.hpp"
#include "util/progress.hpp"
#include "util/simd_quad.hpp"

namespace {

cs::sim::Crowd crowd_of(int32_t k, int32_t workers, int32_t items, uint64_t seed) {
    cs::sim::CrowdSpec spec;
    spec.n_items = items;
    spec.n_workers = workers;
    spec.k = k;
    spec.labels_per_item = 5;
    spec.seed = seed;
    return cs::sim::simulate_crowd(spec);
}

template <class T>
bool same_bits(const std::vector<T> &a, const std::vector<T> &b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

// One crowd and fit setting, fitted in two ways (FitsOf) that must agree bit for bit.
struct FitCase {
    int32_t k, workers, items, method, accel, center, support;
    double smoothing;
    bool gold;
};

// The fits of case c (seeded crowd, 12 rounds, tol 0; every ninth item gold with
// c.gold): each of the two ways, way(options, 0) and way(options, 1), on 1 and 2
// threads.
template <class Way>
std::vector<cs::FitResult> fits_of(const FitCase &c, uint64_t seed, Way way) {
    const auto crowd = crowd_of(c.k, c.workers, c.items, seed);
    cs::FitOptions base;
    base.max_iter = 12;
    base.tol = 0.0;
    base.accel = c.accel;
    base.support = c.support;
    base.smoothing = c.smoothing;
    base.smoothing_center = c.center;
    base.smoothing_strength = c.smoothing > 0.0 ? 2.0 : 0.0;
    cs::CrowdData data =
        cs::CrowdData::build(crowd.item.data(), crowd.worker.data(), crowd.label.data(), crowd.item.size(), base);
    if (c.gold) {
        data.gold.assign(static_cast<std::size_t>(data.n_items), -1);
        for (int32_t j = 0; j < data.n_items; j += 9) data.gold[j] = crowd.truth[j];
    }
    std::vector<cs::FitResult> fits;
    for (int which : {0, 1})
        for (int threads : {1, 2}) {
            cs::FitOptions options = base;
            options.threads = threads;
            way(options, which);
            cs::FitResult out;
            const bool cancelled =
                c.method == CS_METHOD_DS            ? cs::fit_ds(data, options, cs::Progress(), out)
                : c.method == CS_METHOD_ONE_COIN_DS ? cs::fit_one_coin_ds(data, options, cs::Progress(), out)
                                                    : cs::fit_class_one_coin_ds(data, options, cs::Progress(), out);
            assert_false(cancelled);
            assert_int_equal(out.iterations, base.max_iter);
            fits.push_back(std::move(out));
        }
    print_message("k = %d, %d workers, %d items, method %d, accel %d, support %d, smoothing %g%s: %zu fits\n", c.k,
                  c.workers, c.items, c.method, c.accel, c.support, c.smoothing, c.gold ? ", gold" : "", fits.size());
    return fits;
}

void assert_same_fits(const std::vector<cs::FitResult> &fits) {
    for (std::size_t f = 1; f < fits.size(); ++f) {
        assert_true(same_bits(fits[0].posteriors, fits[f].posteriors));
        assert_true(same_bits(fits[0].confusion, fits[f].confusion));
        assert_true(same_bits(fits[0].prior, fits[f].prior));
        assert_true(same_bits(fits[0].trace, fits[f].trace));
        assert_true(same_bits(fits[0].labels, fits[f].labels));
    }
}

// Whether this processor runs the AVX2 kernel; if not, says so (the test is skipped).
bool wide_kernel_runs() {
#if defined(CS_HAVE_QUAD)
    if (cs::cpu_has_avx2()) return true;
#endif
    print_message("no AVX2 on this processor: the wide kernel does not run here\n");
    return false;
}

}  // namespace

static void test_labels_by_code_groups_every_label(void **) {
    const auto crowd = crowd_of(4, 300, 60000, 5);  // 300,000 labels: two ranges on 2 threads
    cs::FitOptions options;
    const cs::CrowdData data =
        cs::CrowdData::build(crowd.item.data(), crowd.worker.data(), crowd.label.data(), crowd.item.size(), options);
    // Expected: for each code in turn, the items with a label of that code, in item order.
    const int64_t codes = static_cast<int64_t>(data.n_workers) * data.k;
    std::vector<std::vector<int32_t>> want(static_cast<std::size_t>(codes));
    for (int32_t j = 0; j < data.n_items; ++j)
        for (int64_t p = data.item_start[j]; p < data.item_start[j + 1]; ++p) want[data.item_code[p]].push_back(j);
    for (int threads : {1, 2}) {
        cs::Team team(threads);
        const cs::LabelsByCode got = cs::labels_by_code(data, team);
        assert_int_equal(got.start.size(), codes + 1);
        assert_int_equal(got.item.size(), data.n_labels());
        assert_int_equal(got.start[0], 0);
        for (int64_t c = 0; c < codes; ++c) {
            assert_int_equal(got.start[c + 1] - got.start[c], want[c].size());
            assert_memory_equal(got.item.data() + got.start[c], want[c].data(), want[c].size() * sizeof(int32_t));
        }
    }
}

static void test_gathered_counts_equal_scattered_counts(void **) {
    // 24,000 items, 120,000 labels: a fit of 2 threads takes both.
    const FitCase cases[] = {
        {3, 400, 24000, CS_METHOD_DS, CS_ACCEL_SQUAREM, CS_SMOOTHING_CENTER_UNIFORM, CS_SUPPORT_AUTO, 0.0, false},
        {3, 5000, 24000, CS_METHOD_DS, CS_ACCEL_NONE, CS_SMOOTHING_CENTER_UNIFORM, CS_SUPPORT_AUTO, 0.0, true},
        {5, 400, 24000, CS_METHOD_DS, CS_ACCEL_SQUAREM, CS_SMOOTHING_CENTER_POOLED, CS_SUPPORT_AUTO, 0.5, false},
        {5, 2000, 24000, CS_METHOD_ONE_COIN_DS, CS_ACCEL_SQUAREM, CS_SMOOTHING_CENTER_UNIFORM, CS_SUPPORT_AUTO, 0.0,
         true},
        {5, 2000, 24000, CS_METHOD_CLASS_ONE_COIN_DS, CS_ACCEL_NONE, CS_SMOOTHING_CENTER_UNIFORM, CS_SUPPORT_AUTO, 0.1,
         false},
        {7, 800, 24000, CS_METHOD_DS, CS_ACCEL_SQUAREM, CS_SMOOTHING_CENTER_UNIFORM, CS_SUPPORT_AUTO, 0.0, true},
    };
    for (const FitCase &c : cases)
        assert_same_fits(fits_of(c, 17, [](cs::FitOptions &options, int which) {
            options.pull_table_bytes = which == 0 ? std::numeric_limits<int64_t>::max() : int64_t{0};
        }));
}

// The lone M-step (cs::m_step, a posterior start's counts) gathers as well.
static void test_lone_m_step_gathers_the_same_counts(void **) {
    const auto crowd = crowd_of(4, 3000, 24000, 23);
    cs::FitOptions options;
    const cs::CrowdData data =
        cs::CrowdData::build(crowd.item.data(), crowd.worker.data(), crowd.label.data(), crowd.item.size(), options);
    std::vector<double> q(static_cast<std::size_t>(data.n_items) * data.k);
    for (std::size_t e = 0; e < q.size(); ++e) q[e] = static_cast<double>((e * 2654435761u) % 1000 + 1);
    for (int32_t j = 0; j < data.n_items; ++j) {
        double sum = 0.0;
        for (int32_t l = 0; l < data.k; ++l) sum += q[j * data.k + l];
        for (int32_t l = 0; l < data.k; ++l) q[j * data.k + l] /= sum;
    }
    cs::DsParams scattered, gathered;
    options.pull_table_bytes = std::numeric_limits<int64_t>::max();
    cs::m_step(data, q, options, scattered);
    options.pull_table_bytes = 0;
    cs::m_step(data, q, options, gathered);
    assert_true(same_bits(scattered.confusion, gathered.confusion));
    assert_true(same_bits(scattered.prior, gathered.prior));
}

static void test_wide_fits_equal_pair_fits(void **) {
    if (!wide_kernel_runs()) skip();
    // Item counts that leave partial batches; 2,500 workers at k = 5 is the largest
    // count table the batched kernels take (ds_e_step.cpp).
    const FitCase cases[] = {
        {3, 300, 24001, CS_METHOD_DS, CS_ACCEL_SQUAREM, CS_SMOOTHING_CENTER_UNIFORM, CS_SUPPORT_AUTO, 0.0, true},
        {3, 1000, 24002, CS_METHOD_DS, CS_ACCEL_NONE, CS_SMOOTHING_CENTER_POOLED, CS_SUPPORT_ALL, 0.5, false},
        {3, 3000, 24003, CS_METHOD_CLASS_ONE_COIN_DS, CS_ACCEL_SQUAREM, CS_SMOOTHING_CENTER_UNIFORM, CS_SUPPORT_AUTO,
         0.0, true},
        {4, 300, 24001, CS_METHOD_DS, CS_ACCEL_SQUAREM, CS_SMOOTHING_CENTER_UNIFORM, CS_SUPPORT_AUTO, 0.0, true},
        {5, 1000, 24003, CS_METHOD_DS, CS_ACCEL_NONE, CS_SMOOTHING_CENTER_POOLED, CS_SUPPORT_AUTO, 0.5, false},
        {5, 200, 24000, CS_METHOD_DS, CS_ACCEL_SQUAREM, CS_SMOOTHING_CENTER_UNIFORM, CS_SUPPORT_ALL, 0.0, true},
        {4, 2000, 24002, CS_METHOD_ONE_COIN_DS, CS_ACCEL_SQUAREM, CS_SMOOTHING_CENTER_UNIFORM, CS_SUPPORT_AUTO, 0.0,
         false},
        {5, 2500, 30001, CS_METHOD_DS, CS_ACCEL_SQUAREM, CS_SMOOTHING_CENTER_UNIFORM, CS_SUPPORT_AUTO, 0.0, true},
    };
    for (const FitCase &c : cases)
        assert_same_fits(fits_of(c, 29, [](cs::FitOptions &options, int which) { options.wide_kernels = which == 1; }));
}

// Fits whose item rows include many without labels -- runs of 40 after every 20
// labelled items and 1,000 or 1,001 reserved at the end (CS_PARAM_ITEMS), some of them
// gold -- where the kernels copy the posterior of such rows instead of computing it
// (Workspace::empty_items): the same bits as every row computed.
static void test_fits_with_empty_item_rows(void **) {
    struct Case {
        int32_t k, workers;
        bool wide;
    };
    // Each case fitted with every row computed by the SSE2 kernels (copy_empty_items and
    // wide_kernels false), then with copies: k = 2 in the ratio kernel, without prefetches
    // (300 workers) and with them (25,000: its table beyond 1 MiB); k = 3, 4, 5 in the
    // wide kernel (where AVX2 is) and, with wide false, in the batched pair kernel (300
    // workers) and the one by item (25,000).
    const Case cases[] = {{2, 300, false},  {2, 25000, false}, {3, 300, true},     {4, 300, true},   {5, 300, true},
                          {3, 300, false},  {5, 300, false},   {3, 25000, false},  {5, 25000, false}};
    // Tails of 1,000 and 1,001 empty rows: one of them leaves an odd last batch of empty
    // rows alone, whose pair pass takes the odd-pair lane.
    for (const Case &c : cases)
        for (int32_t tail : {1000, 1001}) {
            const int support = tail == 1000 ? CS_SUPPORT_AUTO : CS_SUPPORT_ALL;
            const int32_t k = c.k;
            if (c.wide && !wide_kernel_runs()) {
                print_message("k = %d, wide: SKIPPED, no AVX2 (both ways would take the SSE2 pairs)\n", k);
                continue;
            }
            auto crowd = crowd_of(k, c.workers, 12001, 37);
            for (int32_t &j : crowd.item) j += (j / 20) * 40;
            cs::FitOptions base;
            base.max_iter = 12;
            base.tol = 0.0;
            base.support = support;
            base.items = *std::max_element(crowd.item.begin(), crowd.item.end()) + 1 + tail;
            cs::CrowdData data = cs::CrowdData::build(crowd.item.data(), crowd.worker.data(), crowd.label.data(),
                                                      crowd.item.size(), base);
            assert_int_equal(data.n_items, base.items);
            data.gold.assign(static_cast<std::size_t>(data.n_items), -1);
            int32_t empty_rows = 0;
            for (int32_t j = 0; j < data.n_items; ++j) {
                const bool empty = data.item_start[j] == data.item_start[j + 1];
                empty_rows += empty;
                if (empty && j % 97 == 0) data.gold[j] = j % k;  // a gold item without labels
                if (!empty && j % 9 == 0) data.gold[j] = crowd.truth[j - (j / 60) * 40];
            }
            assert_true(empty_rows >= 2 * (data.n_items - empty_rows));
            std::vector<cs::FitResult> fits;
            for (bool copies : {false, true})
                for (int threads : {1, 2}) {
                    cs::FitOptions options = base;
                    options.threads = threads;
                    options.copy_empty_items = copies;
                    options.wide_kernels = copies && c.wide;
                    cs::FitResult out;
                    assert_false(cs::fit_ds(data, options, cs::Progress(), out));
                    fits.push_back(std::move(out));
                }
            print_message("k = %d, %d workers%s, support %d: %d of %d item rows without labels\n", k, c.workers,
                          c.wide ? ", wide" : "", support, empty_rows, data.n_items);
            assert_same_fits(fits);
        }
}

// Confusion matrices with zero entries: worker i never gives label (i + l) % k to class
// l (0.6 on the diagonal otherwise, the rest shared; at k = 2 the other entry is 1), and
// a prior proportional to l + 1.
static cs::DsParams params_with_zeros(int32_t n_workers, int32_t k) {
    cs::DsParams params;
    params.confusion.assign(static_cast<std::size_t>(n_workers) * k * k, 0.0);
    for (int32_t i = 0; i < n_workers; ++i)
        for (int32_t l = 0; l < k; ++l) {
            double *row = params.confusion.data() + (static_cast<std::size_t>(i) * k + l) * k;
            for (int32_t o = 0; o < k; ++o)
                row[o] = o == (i + l) % k ? 0.0 : k == 2 ? 1.0 : (o == l ? 0.6 : 0.4 / (k - 2));
        }
    params.prior.resize(static_cast<std::size_t>(k));
    for (int32_t l = 0; l < k; ++l) params.prior[l] = (l + 1) / (k * (k + 1) / 2.0);
    return params;
}

// A lone E-step at confusion matrices with zero entries: worker i never gives label
// (i + l) % k to class l, so some classes are impossible for many items and, without
// answer sets, some items for every class (they get the prior and are counted).
static void test_wide_e_step_with_impossible_classes(void **) {
    if (!wide_kernel_runs()) skip();
    for (int32_t k : {3, 4, 5}) {
        const auto crowd = crowd_of(k, 50, 20011, 31);
        cs::FitOptions options;
        options.support = CS_SUPPORT_ALL;
        const cs::CrowdData data = cs::CrowdData::build(crowd.item.data(), crowd.worker.data(), crowd.label.data(),
                                                        crowd.item.size(), options);
        const cs::DsParams params = params_with_zeros(data.n_workers, k);
        std::vector<double> q_pair, q_wide;
        options.wide_kernels = false;
        const cs::EStep pair = cs::e_step(data, params, options, q_pair);
        options.wide_kernels = true;
        const cs::EStep wide = cs::e_step(data, params, options, q_wide);
        print_message("k = %d: %lld impossible items, log-likelihood %.17g\n", k,
                      static_cast<long long>(wide.impossible_items), wide.log_likelihood);
        assert_true(pair.impossible_items > 0);  // the prior fallback ran
        assert_int_equal(wide.impossible_items, pair.impossible_items);
        assert_memory_equal(&wide.log_likelihood, &pair.log_likelihood, sizeof(double));
        assert_true(same_bits(q_pair, q_wide));
    }
}

// A lone E-step with most item rows empty at the same confusion matrices with zero
// entries (at k = 2 they leave no label a ratio, so the pair kernel takes it, not the
// ratio kernel), in the SSE2 kernels: copies of the empty rows' posterior against every
// row computed, by item (25,000 workers) and in batches (50).
static void test_e_step_copies_with_impossible_classes(void **) {
    for (int32_t k : {2, 3, 5})
        for (int32_t workers : {50, 25000}) {
            auto crowd = crowd_of(k, workers, 20011, 31);
            for (int32_t &j : crowd.item) j += (j / 10) * 30;
            cs::FitOptions options;
            options.support = CS_SUPPORT_ALL;
            options.wide_kernels = false;
            options.items = *std::max_element(crowd.item.begin(), crowd.item.end()) + 1 + 777;
            const cs::CrowdData data = cs::CrowdData::build(crowd.item.data(), crowd.worker.data(),
                                                            crowd.label.data(), crowd.item.size(), options);
            assert_true(data.unlabeled_items() > 2 * (data.n_items - data.unlabeled_items()));
            const cs::DsParams params = params_with_zeros(data.n_workers, k);
            std::vector<double> q_every, q_copies;
            options.copy_empty_items = false;
            const cs::EStep every = cs::e_step(data, params, options, q_every);
            options.copy_empty_items = true;
            const cs::EStep copies = cs::e_step(data, params, options, q_copies);
            print_message("k = %d, %d workers: %d of %d rows empty, %lld impossible items, log-likelihood %.17g\n",
                          k, workers, data.unlabeled_items(), data.n_items,
                          static_cast<long long>(copies.impossible_items), copies.log_likelihood);
            assert_true(every.impossible_items > 0);  // the prior fallback ran
            assert_int_equal(copies.impossible_items, every.impossible_items);
            assert_memory_equal(&copies.log_likelihood, &every.log_likelihood, sizeof(double));
            assert_true(same_bits(q_every, q_copies));
            // An empty row's posterior is the prior (up to the exponentials' rounding).
            const int64_t last = static_cast<int64_t>(data.n_items) - 1;
            for (int32_t l = 0; l < k; ++l) assert_true(std::fabs(q_copies[last * k + l] - params.prior[l]) < 1e-15);
        }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_labels_by_code_groups_every_label),
        cmocka_unit_test(test_gathered_counts_equal_scattered_counts),
        cmocka_unit_test(test_lone_m_step_gathers_the_same_counts),
        cmocka_unit_test(test_wide_fits_equal_pair_fits),
        cmocka_unit_test(test_wide_e_step_with_impossible_classes),
        cmocka_unit_test(test_fits_with_empty_item_rows),
        cmocka_unit_test(test_e_step_copies_with_impossible_classes),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
