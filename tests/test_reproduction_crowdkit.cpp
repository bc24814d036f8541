// SPDX-License-Identifier: MIT
// wawa, zbs, glad, mace and m-msr on the five shared sets (../shared/datasets) against
// crowd-kit 1.4.1 with its defaults (datasets/README.md, "crowd-kit 1.4.1 on these sets";
// issue 13). Each of our error rates is pinned (to 0.01 pp: a regression check of the
// library's defaults) and must be within 1 pp of crowd-kit's, or lower than crowd-kit's
// (a difference docs/defaults.md explains by a stated choice), except the one listed
// below with its reason. Skipped, with a visible message, without the data sets.
#include <cmath>
#include <cstdio>
#include <string>

#include "support/cmocka_cpp.hpp"
#include "support/fit_helpers.hpp"

namespace {

struct Row {
    const char *method;
    double crowdkit[5];  // bluebird, rte, trec, dog, web (% error)
    double ours[5];      // this library's defaults
};

const char *const kSets[5] = {"bluebird", "rte", "trec", "dog", "web"};

const Row kRows[] = {
    {"wawa", {24.07, 7.88, 35.43, 17.10, 18.32}, {24.07, 7.88, 35.43, 17.10, 18.32}},
    {"zbs", {24.07, 7.88, 35.47, 16.98, 17.38}, {24.07, 7.88, 35.47, 16.98, 17.38}},
    {"glad", {27.78, 7.50, 42.07, 16.60, 17.87}, {27.78, 7.50, 42.15, 16.60, 17.72}},
    {"mace", {27.78, 8.50, 29.14, 16.48, 18.85}, {13.89, 7.38, 29.10, 16.98, 16.13}},
    {"m-msr", {28.70, 14.25, 41.58, 17.22, 31.66}, {28.70, 9.25, 34.68, 17.60, 32.68}},
};

}  // namespace

static void crowdkit_family_reproduces(void **) {
    std::printf("%-6s %-9s %8s %8s\n", "method", "set", "ours", "ck-1.4.1");
    for (int s = 0; s < 5; ++s) {
        const test::Dataset d = test::load_dataset(kSets[s]);
        if (!d.found) {
            print_message("SKIPPED: %s not found under %s\n", kSets[s], CS_DATASETS_DIR);
            continue;
        }
        for (const Row &row : kRows) {
            auto m = test::make_model(row.method);
            assert_int_equal(test::fit(m.get(), d.labels), CS_OK);
            const double err = 100.0 * test::error_rate(test::labels(m.get()), d.truth);
            std::printf("%-6s %-9s %8.2f %8.2f\n", row.method, kSets[s], err, row.crowdkit[s]);
            assert_near(err, row.ours[s], 0.006);
            // M-MSR on web: 1.02 pp above crowd-kit (docs/defaults.md, "m-msr").
            const bool explained = std::string(row.method) == "m-msr" && s == 4;
            if (!explained) assert_true(err <= row.crowdkit[s] + 1.0);
        }
    }
}

int main(void) {
    if (!test::load_dataset("bluebird").found) {
        std::printf("SKIPPED: the crowd-kit reproduction needs ../shared/datasets beside the "
                    "project (looked in %s)\n", CS_DATASETS_DIR);
        return 77;
    }
    const struct CMUnitTest tests[] = {cmocka_unit_test(crowdkit_family_reproduces)};
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
