// SPDX-License-Identifier: MIT
// Dawid-Skene's E-step at k = 4 and 5 runs in AVX2 registers where the processor has
// them (crowd/em/ds_kernel_wide.hpp, with each code's rows padded to 8 doubles), and in
// SSE2 pairs elsewhere (ds_kernel_lanes.hpp). Both must give the same bits: whole fits
// (ds and one-coin-ds, plain EM and SQUAREM, gold items, answer sets and none, pooled
// smoothing, 1 and 2 threads, an item count that leaves a partial batch) and lone
// E-steps at parameters with zero entries (impossible classes, items impossible under
// every class, which fall back to the prior). FitOptions::wide_kernels = false forces
// the pair kernels. On a processor without AVX2 both runs take the pair kernels and
// the test is skipped, visibly.
#include <cstdint>
#include <cstring>
#include <vector>

#include "support/cmocka_cpp.hpp"
#include "core/fit_result.hpp"
#include "crowd/em/dawid_skene.hpp"
#include "data/crowd_data.hpp"
#include "sim/crowd_sim.hpp"
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

bool have_avx2() {
#if defined(CS_HAVE_QUAD)
    return cs::cpu_has_avx2();
#else
    return false;
#endif
}

}  // namespace

static void test_wide_fits_equal_pair_fits(void **) {
    if (!have_avx2()) {
        print_message("no AVX2 on this processor: the wide kernel does not run here\n");
        skip();
    }
    struct Case {
        int32_t k, workers, items, method, accel, center, support;
        double smoothing;
        bool gold;
    };
    const Case cases[] = {
        {4, 300, 24001, CS_METHOD_DS, CS_ACCEL_SQUAREM, CS_SMOOTHING_CENTER_UNIFORM, CS_SUPPORT_AUTO, 0.0, true},
        {5, 1000, 24003, CS_METHOD_DS, CS_ACCEL_NONE, CS_SMOOTHING_CENTER_POOLED, CS_SUPPORT_AUTO, 0.5, false},
        {5, 200, 24000, CS_METHOD_DS, CS_ACCEL_SQUAREM, CS_SMOOTHING_CENTER_UNIFORM, CS_SUPPORT_ALL, 0.0, true},
        {4, 2000, 24002, CS_METHOD_ONE_COIN_DS, CS_ACCEL_SQUAREM, CS_SMOOTHING_CENTER_UNIFORM, CS_SUPPORT_AUTO, 0.0,
         false},
        {5, 2500, 30001, CS_METHOD_DS, CS_ACCEL_SQUAREM, CS_SMOOTHING_CENTER_UNIFORM, CS_SUPPORT_AUTO, 0.0, true},
    };
    for (const Case &c : cases) {
        const auto crowd = crowd_of(c.k, c.workers, c.items, 29);
        cs::FitOptions base;
        base.max_iter = 12;
        base.tol = 0.0;
        base.accel = c.accel;
        base.support = c.support;
        base.smoothing = c.smoothing;
        base.smoothing_center = c.center;
        base.smoothing_strength = c.smoothing > 0.0 ? 2.0 : 0.0;
        cs::CrowdData data = cs::CrowdData::build(crowd.item.data(), crowd.worker.data(), crowd.label.data(),
                                                  crowd.item.size(), base);
        if (c.gold) {
            data.gold.assign(static_cast<std::size_t>(data.n_items), -1);
            for (int32_t j = 0; j < data.n_items; j += 9) data.gold[j] = crowd.truth[j];
        }
        std::vector<cs::FitResult> fits;
        for (bool wide : {false, true})
            for (int threads : {1, 2}) {
                cs::FitOptions options = base;
                options.threads = threads;
                options.wide_kernels = wide;
                cs::FitResult out;
                const bool cancelled = c.method == CS_METHOD_DS
                                           ? cs::fit_ds(data, options, cs::Progress(), out)
                                           : cs::fit_one_coin_ds(data, options, cs::Progress(), out);
                assert_false(cancelled);
                assert_int_equal(out.iterations, base.max_iter);
                fits.push_back(std::move(out));
            }
        print_message("k = %d, %d workers, %d items, method %d, accel %d, support %d%s: %zu fits\n", c.k,
                      c.workers, c.items, c.method, c.accel, c.support, c.gold ? ", gold" : "", fits.size());
        for (std::size_t f = 1; f < fits.size(); ++f) {
            assert_true(same_bits(fits[0].posteriors, fits[f].posteriors));
            assert_true(same_bits(fits[0].confusion, fits[f].confusion));
            assert_true(same_bits(fits[0].prior, fits[f].prior));
            assert_true(same_bits(fits[0].trace, fits[f].trace));
            assert_true(same_bits(fits[0].labels, fits[f].labels));
        }
    }
}

// A lone E-step at confusion matrices with zero entries: worker i never gives label
// (i + l) % k to class l, so some classes are impossible for many items and, without
// answer sets, some items for every class (they get the prior and are counted).
static void test_wide_e_step_with_impossible_classes(void **) {
    if (!have_avx2()) {
        print_message("no AVX2 on this processor: the wide kernel does not run here\n");
        skip();
    }
    for (int32_t k : {4, 5}) {
        const auto crowd = crowd_of(k, 50, 20011, 31);
        cs::FitOptions options;
        options.support = CS_SUPPORT_ALL;
        const cs::CrowdData data = cs::CrowdData::build(crowd.item.data(), crowd.worker.data(), crowd.label.data(),
                                                        crowd.item.size(), options);
        cs::DsParams params;
        params.confusion.assign(static_cast<std::size_t>(data.n_workers) * k * k, 0.0);
        for (int32_t i = 0; i < data.n_workers; ++i)
            for (int32_t l = 0; l < k; ++l) {
                double *row = params.confusion.data() + (static_cast<std::size_t>(i) * k + l) * k;
                for (int32_t o = 0; o < k; ++o) row[o] = o == (i + l) % k ? 0.0 : (o == l ? 0.6 : 0.4 / (k - 2));
            }
        params.prior.resize(static_cast<std::size_t>(k));  // w_l proportional to l + 1
        for (int32_t l = 0; l < k; ++l) params.prior[l] = (l + 1) / (k * (k + 1) / 2.0);
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

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wide_fits_equal_pair_fits),
        cmocka_unit_test(test_wide_e_step_with_impossible_classes),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
