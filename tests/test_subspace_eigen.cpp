// SPDX-License-Identifier: MIT
// Block subspace iteration (src/linalg/subspace_eigen): eigenpairs of largest
// |eigenvalue| against known answers, the sign convention, and determinism.
#include <algorithm>
#include <cmath>
#include <vector>

#include "linalg/cblas_lapacke.hpp"

#include "support/cmocka_cpp.hpp"
#include "linalg/subspace_eigen.hpp"

// A diagonal operator with eigenvalues 10, -9, 5, 3, then 1/(i+1): the top three by
// |value| are 10, -9, 5, with the unit vectors e0, e1, e2.
static void test_diagonal_operator(void **) {
    const int64_t n = 200;
    std::vector<double> diag(n);
    for (int64_t i = 0; i < n; ++i) diag[i] = 1.0 / (i + 1);
    diag[0] = 10;
    diag[1] = -9;
    diag[2] = 5;
    diag[3] = 3;
    cs::BlockOperator apply = [&](const double *x, double *y, int32_t p) {
        for (int64_t i = 0; i < n; ++i)
            for (int32_t c = 0; c < p; ++c) y[i * p + c] = diag[i] * x[i * p + c];
    };
    cs::EigenOptions options;
    options.k = 3;
    cs::Rng rng(5);
    const cs::EigenResult r = cs::top_eigenpairs(n, apply, options, rng);
    assert_true(r.converged);
    assert_near(r.values[0], 10, 1e-9);
    assert_near(r.values[1], -9, 1e-9);
    assert_near(r.values[2], 5, 1e-9);
    for (int c = 0; c < 3; ++c)
        for (int64_t i = 0; i < n; ++i) assert_near(r.vectors[i * 3 + c], i == c ? 1.0 : 0.0, 1e-8);
}

// A random sparse symmetric matrix against LAPACK's dense dsyev.
static void test_sparse_matrix_against_dense(void **) {
    const int n = 120;
    cs::Rng rng(17);
    std::vector<double> dense(static_cast<std::size_t>(n) * n, 0.0);
    for (int e = 0; e < 600; ++e) {
        const int i = static_cast<int>(rng.below(n)), j = static_cast<int>(rng.below(n));
        const double v = rng.uniform() - 0.3;
        dense[i * n + j] += v;
        if (i != j) dense[j * n + i] += v;
    }
    cs::BlockOperator apply = [&](const double *x, double *y, int32_t p) {
        std::fill(y, y + static_cast<std::size_t>(n) * p, 0.0);
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) {
                const double a = dense[i * n + j];
                if (a == 0) continue;
                for (int32_t c = 0; c < p; ++c) y[i * p + c] += a * x[j * p + c];
            }
    };
    cs::EigenOptions options;
    options.k = 4;
    cs::Rng start(1);
    const cs::EigenResult r = cs::top_eigenpairs(n, apply, options, start);
    assert_true(r.converged);

    std::vector<double> a = dense, w(n);
    assert_int_equal(LAPACKE_dsyev(LAPACK_ROW_MAJOR, 'V', 'U', n, a.data(), n, w.data()), 0);
    std::vector<int> order(n);
    for (int i = 0; i < n; ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](int x, int y) { return std::fabs(w[x]) > std::fabs(w[y]); });
    for (int c = 0; c < 4; ++c) {
        assert_near(r.values[c], w[order[c]], 1e-8 * std::fabs(w[order[0]]));
        // Same vector up to sign; ours has its largest entry positive.
        double dot = 0, top = 0;
        for (int i = 0; i < n; ++i) {
            dot += r.vectors[i * 4 + c] * a[i * n + order[c]];
            if (std::fabs(r.vectors[i * 4 + c]) > std::fabs(top)) top = r.vectors[i * 4 + c];
        }
        assert_near(std::fabs(dot), 1.0, 1e-8);
        assert_true(top > 0);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_diagonal_operator),
        cmocka_unit_test(test_sparse_matrix_against_dense),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
