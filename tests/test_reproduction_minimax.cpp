// SPDX-License-Identifier: MIT
// minimax-entropy and ordinal-minimax on web (../shared/datasets) against Zhou, Liu,
// Platt and Meek (ICML 2014) Table 2: error 0.111 and 0.104, mean absolute error 0.131
// and 0.118, with gamma by 5-fold likelihood cross-validation. Ours must be within the
// spec's tolerance (+0.5 pp of error, +0.005 of absolute error), the default gamma = 1/4 must be what the cross-validation picks
// (the same labels with gamma = 0), and the figures are pinned to 0.01 pp as a
// regression check (docs/defaults.md). ordinal-ds is pinned too. Skipped, with a
// visible message, without the data sets.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "support/cmocka_cpp.hpp"
#include "support/fit_helpers.hpp"

namespace {

double mean_absolute_error(const std::vector<int32_t> &labels, const std::map<int32_t, int32_t> &truth) {
    double sum = 0.0;
    std::size_t n = 0;
    for (const auto &[j, y] : truth) {
        if (j >= static_cast<int32_t>(labels.size())) continue;
        sum += std::abs(labels[static_cast<std::size_t>(j)] - y);
        ++n;
    }
    return sum / static_cast<double>(n);
}

struct Row {
    const char *method;
    double paper_error, paper_mae;  // [Z14] Table 2 (NAN: not in the paper)
    double ours_error, ours_mae;    // this library's defaults, % and grades
};

const Row kRows[] = {
    {"minimax-entropy", 11.1, 0.131, 11.08, 0.1308},
    {"ordinal-minimax", 10.4, 0.118, 10.33, 0.1172},
    {"ordinal-ds", NAN, NAN, 18.47, 0.2066},
};

void web_reproduces_the_paper(void **) {
    const test::Dataset d = test::load_dataset("web");
    for (const Row &row : kRows) {
        auto m = test::make_model(row.method);
        assert_int_equal(test::fit(m.get(), d.labels), CS_OK);
        const std::vector<int32_t> labels = test::labels(m.get());
        const double err = 100.0 * test::error_rate(labels, d.truth), mae = mean_absolute_error(labels, d.truth);
        std::printf("%-16s error %.2f %% (paper %.1f), mean absolute error %.4f (paper %.3f)\n", row.method, err,
                    row.paper_error, mae, row.paper_mae);
        assert_near(err, row.ours_error, 0.006);
        assert_near(mae, row.ours_mae, 0.00006);
        if (!std::isnan(row.paper_error)) {
            assert_true(err <= row.paper_error + 0.5);
            assert_true(mae <= row.paper_mae + 0.005);
            // gamma = 0: the paper's 5-fold cross-validation, which picks 1/4 here.
            auto cv = test::make_model(row.method);
            assert_int_equal(cs_set_double(cv.get(), CS_PARAM_GAMMA, 0.0), CS_OK);
            assert_int_equal(test::fit(cv.get(), d.labels), CS_OK);
            assert_true(test::labels(cv.get()) == labels);
        }
    }
}

}  // namespace

int main(void) {
    if (!test::load_dataset("web").found) {
        std::printf("SKIPPED: the web reproduction needs ../shared/datasets beside the project (looked in %s)\n",
                    CS_DATASETS_DIR);
        return 77;
    }
    const struct CMUnitTest tests[] = {cmocka_unit_test(web_reproduces_the_paper)};
    return cmocka_run_group_tests_name("reproduction_minimax", tests, nullptr, nullptr);
}
