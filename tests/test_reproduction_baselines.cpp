// SPDX-License-Identifier: MIT
// The baselines of the Opt-D&S paper on the five real datasets of ../shared/datasets
// (see its README.md): kos, ghosh-svd and eigen-ratio within 1 pp of the reference
// values (the authors' code under Octave for bluebird, rte, dog and web; the paper's
// Table 2 for trec, where no reference run exists). kos-mp, one-coin-ds and
// class-one-coin-ds have no reference value: their error rates are printed, and
// checked only to be finite and deterministic. Skipped, with a visible message, when
// the datasets are not there.
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "support/cmocka_cpp.hpp"
#include "support/fit_helpers.hpp"

namespace {

// NaN: no reference value to check.
struct Reference {
    const char *stem;
    double kos, ghosh_svd, eigen_ratio;  // % error
};

// datasets/README.md, "Reference error rates": KOS ref, Ghosh-SVD ref, EigenRatio ref
// (trec: the paper's values).
const Reference kReferences[] = {
    {"bluebird", 11.11, 27.78, 27.78},
    {"rte", 39.75, 49.13, 9.00},
    // trec: the paper's EigenRatio 43.96 is not reproducible from the published code
    // and data: a dense LAPACK run of the reference formula gives 38.73 %, as we do
    // (see the note in src/crowd/eigen_ratio.cpp); kos and ghosh-svd are checked.
    {"trec", 51.96, 42.99, NAN},
    {"dog", 31.72, 19.58, 17.22},
    {"web", 42.93, 6.78, 24.84},
};

double percent_error(cs_model *m, const test::Dataset &d) {
    return 100.0 * test::error_rate(test::labels(m), d.truth);
}

}  // namespace

static void baselines_match_the_reference(void **) {
    int found = 0;
    for (const Reference &ref : kReferences) {
        const test::Dataset d = test::load_dataset(ref.stem);
        if (!d.found) {
            print_message("SKIPPED: %s not found under %s\n", ref.stem, CS_DATASETS_DIR);
            continue;
        }
        ++found;
        std::map<std::string, double> err;
        for (const char *method : {"kos", "ghosh-svd", "eigen-ratio", "kos-mp", "one-coin-ds",
                                   "class-one-coin-ds"}) {
            auto m = test::make_model(method);
            // The reference code's sign rules; the vote-named default is printed below.
            cs_set_param_string(m.get(), "identify", "reference");
            assert_int_equal(test::fit(m.get(), d.labels), CS_OK);
            err[method] = percent_error(m.get(), d);
            assert_true(std::isfinite(err[method]));
            int32_t converged = 0;
            cs_converged(m.get(), &converged);
            assert_int_equal(converged, 1);
            auto named = test::make_model(method);
            assert_int_equal(test::fit(named.get(), d.labels), CS_OK);
            err[std::string(method) + "/vote"] = percent_error(named.get(), d);
        }
        print_message("%-8s named by the vote: kos %.2f  ghosh-svd %.2f  eigen-ratio %.2f  kos-mp %.2f\n",
                      ref.stem, err["kos/vote"], err["ghosh-svd/vote"], err["eigen-ratio/vote"],
                      err["kos-mp/vote"]);
        print_message("%-8s kos %.2f  ghosh-svd %.2f  eigen-ratio %.2f  kos-mp %.2f  "
                      "one-coin-ds %.2f  class-one-coin-ds %.2f\n",
                      ref.stem, err["kos"], err["ghosh-svd"], err["eigen-ratio"], err["kos-mp"],
                      err["one-coin-ds"], err["class-one-coin-ds"]);
        assert_near(err["kos"], ref.kos, 1.0);
        assert_near(err["ghosh-svd"], ref.ghosh_svd, 1.0);
        if (!std::isnan(ref.eigen_ratio)) assert_near(err["eigen-ratio"], ref.eigen_ratio, 1.0);
    }
    if (found == 0) skip();
}

// The same fit twice (same seed) gives the same labels; another seed starts the
// eigensolver and the messages elsewhere but converges to the same labels.
static void seeds_do_not_change_the_labels(void **) {
    const test::Dataset d = test::load_dataset("web");
    if (!d.found) skip();
    for (const char *method : {"kos", "ghosh-svd", "eigen-ratio", "kos-mp"}) {
        std::vector<int32_t> reference;
        for (int64_t seed : {0, 0, 99}) {
            auto m = test::make_model(method);
            cs_set_int(m.get(), CS_PARAM_SEED, seed);
            assert_int_equal(test::fit(m.get(), d.labels), CS_OK);
            if (reference.empty())
                reference = test::labels(m.get());
            else
                assert_true(test::labels(m.get()) == reference);
        }
    }
}

int main(void) {
    if (!test::load_dataset("bluebird").found) {
        std::printf("SKIPPED: the real-data reproduction of the baselines needs "
                    "../shared/datasets beside the project (looked in %s)\n", CS_DATASETS_DIR);
        return 77;  // ctest reports "Skipped" (SKIP_RETURN_CODE)
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(baselines_match_the_reference),
        cmocka_unit_test(seeds_do_not_change_the_labels),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
