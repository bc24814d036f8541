// SPDX-License-Identifier: MIT
// bcc, ebcc and ds with smoothing_center = pooled on the five shared datasets
// (../shared/datasets). bcc, and ebcc from a fixed deterministic subtype split, must
// reproduce the independent numpy reference (tests/reference/vb_reference.py DATASET M,
// run to the same stopping rule, relative bound change below 1e-10): the same errors,
// the same bound to 1e-8 and the same iteration count to within 2 (the last rounds
// change the bound by ~1e-10 relative, where rounding differences between the two
// summation orders can move the stop by a round). The library's own defaults (ebcc's
// seeded random split, pooled ds) are printed as the table of the README; they have
// no outside reference on these sets. Skipped, visibly, when the datasets are absent.
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "support/cmocka_cpp.hpp"
#include "support/fit_helpers.hpp"
#include "crowd/bayes/ebcc.hpp"
#include "data/crowd_data.hpp"

namespace {

struct Reference {
    const char *stem;
    int bcc_errors, bcc_iterations;
    double bcc_bound;
    int ebcc_errors, ebcc_iterations;  // M = 10, fixed split
    double ebcc_bound;
};

// /usr/bin/python3 tests/reference/vb_reference.py STEM 1 (bcc) and STEM 10 (ebcc).
const Reference kReferences[] = {
    {"bluebird", 12, 22, -2079.1669285, 14, 33, -2075.56572954},
    {"rte", 58, 17, -4058.60256236, 58, 44, -4064.37423771},
    {"trec", 671, 55, -37094.679744, 671, 113, -37101.0160744},
    {"dog", 130, 30, -6108.29197943, 130, 53, -6119.57982275},
    {"web", 664, 147, -20103.6118458, 724, 407, -20142.9486011},
};

int errors(const std::vector<int32_t> &labels, const std::map<int32_t, int32_t> &truth) {
    int wrong = 0;
    for (const auto &kv : truth) wrong += labels[kv.first] != kv.second;
    return wrong;
}

// The start of vb_reference.py's fixed_split: the soft vote, class l's share of item j
// split over the M subtypes in proportion to 1 + ((7 j + 3 l + m) mod M).
std::vector<double> fixed_split_start(const cs::CrowdData &d, int32_t M) {
    const int32_t k = d.k;
    std::vector<double> r(static_cast<std::size_t>(d.n_items) * k * M);
    for (int32_t j = 0; j < d.n_items; ++j) {
        std::vector<double> vote(k, 0.0);
        const int64_t n = d.item_start[j + 1] - d.item_start[j];
        for (int64_t p = d.item_start[j]; p < d.item_start[j + 1]; ++p) vote[d.label_of(p)] += 1.0;
        for (int32_t l = 0; l < k; ++l) {
            const double share = n > 0 ? vote[l] / static_cast<double>(n) : 1.0 / k;
            for (int32_t m = 0; m < M; ++m)
                r[(static_cast<std::size_t>(j) * k + l) * M + m] =
                    share * (1.0 + (7 * j + 3 * l + m) % M) / (M * (M + 1) / 2.0);
        }
    }
    return r;
}

}  // namespace

static void test_against_the_numpy_reference(void **) {
    for (const Reference &ref : kReferences) {
        const test::Dataset d = test::load_dataset(ref.stem);
        assert_true(d.found);
        // The reference runs plain coordinate ascent: accel = none.
        auto bcc = test::make_model("bcc");
        assert_int_equal(cs_set_param_string(bcc.get(), "accel", "none"), CS_OK);
        assert_int_equal(test::fit(bcc.get(), d.labels), CS_OK);
        int32_t it = 0;
        double bound = 0;
        cs_iterations(bcc.get(), &it);
        cs_log_likelihood(bcc.get(), &bound);
        const int bcc_wrong = errors(test::labels(bcc.get()), d.truth);

        cs::FitOptions options;
        options.accel = CS_ACCEL_NONE;
        const cs::CrowdData data = cs::CrowdData::build(d.labels.item.data(), d.labels.worker.data(),
                                                        d.labels.label.data(), d.labels.size(), options);
        const std::vector<double> start = fixed_split_start(data, 10);
        cs::FitResult ebcc;
        cs::fit_subtype_vb(data, options, cs::Progress(), 10, ebcc, &start);
        const int ebcc_wrong = errors(ebcc.labels, d.truth);
        print_message("%-8s bcc %d errors, %d iterations, bound %.10g | ebcc (fixed split) %d errors, %d "
                      "iterations, bound %.10g\n", ref.stem, bcc_wrong, it, bound, ebcc_wrong, ebcc.iterations,
                      ebcc.trace.back());
        assert_int_equal(bcc_wrong, ref.bcc_errors);
        assert_true(std::abs(it - ref.bcc_iterations) <= 2);
        assert_near(bound, ref.bcc_bound, 1e-8 * std::fabs(ref.bcc_bound));
        assert_int_equal(ebcc_wrong, ref.ebcc_errors);
        assert_true(std::abs(ebcc.iterations - ref.ebcc_iterations) <= 2);
        assert_near(ebcc.trace.back(), ref.ebcc_bound, 1e-8 * std::fabs(ref.ebcc_bound));

        // SQUAREM (the default accel) from the same starts: the reference's labels and
        // bound (to 1e-8 relative, or higher), in at most as many rounds.
        auto fast_bcc = test::make_model("bcc");
        assert_int_equal(test::fit(fast_bcc.get(), d.labels), CS_OK);
        int32_t fast_it = 0;
        double fast_bound = 0;
        cs_iterations(fast_bcc.get(), &fast_it);
        cs_log_likelihood(fast_bcc.get(), &fast_bound);
        options.accel = CS_ACCEL_SQUAREM;
        cs::FitResult fast_ebcc;
        cs::fit_subtype_vb(data, options, cs::Progress(), 10, fast_ebcc, &start);
        print_message("%-8s squarem: bcc %d errors, %d iterations, bound %.10g | ebcc %d errors, %d iterations, "
                      "bound %.10g\n", ref.stem, errors(test::labels(fast_bcc.get()), d.truth), fast_it, fast_bound,
                      errors(fast_ebcc.labels, d.truth), fast_ebcc.iterations, fast_ebcc.trace.back());
        assert_int_equal(errors(test::labels(fast_bcc.get()), d.truth), ref.bcc_errors);
        assert_true(fast_bound >= ref.bcc_bound - 1e-8 * std::fabs(ref.bcc_bound));
        assert_true(fast_it <= ref.bcc_iterations);
        assert_int_equal(errors(fast_ebcc.labels, d.truth), ref.ebcc_errors);
        assert_true(fast_ebcc.trace.back() >= ref.ebcc_bound - 1e-8 * std::fabs(ref.ebcc_bound));
        assert_true(fast_ebcc.iterations <= ref.ebcc_iterations);
    }
}

// The defaults, for the README's table: every number finite, every fit converged.
static void test_defaults_on_the_five_sets(void **) {
    for (const Reference &ref : kReferences) {
        const test::Dataset d = test::load_dataset(ref.stem);
        std::string line = ref.stem;
        for (const char *method : {"bcc", "ebcc", "ds-pooled"}) {
            const bool pooled = std::string(method) == "ds-pooled";
            auto m = test::make_model(pooled ? "ds" : method);
            if (pooled) cs_set_param_string(m.get(), "smoothing_center", "pooled");
            assert_int_equal(test::fit(m.get(), d.labels), CS_OK);
            int32_t converged = 0, it = 0;
            double objective = NAN;
            cs_converged(m.get(), &converged);
            cs_iterations(m.get(), &it);
            cs_log_likelihood(m.get(), &objective);
            assert_int_equal(converged, 1);
            assert_true(std::isfinite(objective));
            char cell[96];
            std::snprintf(cell, sizeof cell, "  %s %.2f %% (%d iterations)", method,
                          100.0 * test::error_rate(test::labels(m.get()), d.truth), it);
            line += cell;
        }
        print_message("%s\n", line.c_str());
    }
}

int main(void) {
    for (const Reference &ref : kReferences) {
        if (!test::load_dataset(ref.stem).found) {
            std::printf("SKIPPED: %s not found under %s (bcc / ebcc on the real data need "
                        "../shared/datasets beside the project)\n", ref.stem, CS_DATASETS_DIR);
            return 77;  // ctest reports "Skipped" (SKIP_RETURN_CODE)
        }
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_the_numpy_reference),
        cmocka_unit_test(test_defaults_on_the_five_sets),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
