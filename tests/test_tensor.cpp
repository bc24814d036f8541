// SPDX-License-Identifier: MIT
// The robust tensor power method and the small dense helpers, on inputs with a
// known answer (internal API).
#include <cmath>
#include <vector>

#include "support/cmocka_cpp.hpp"
#include "linalg/dense.hpp"
#include "linalg/tensor.hpp"
#include "util/rng.hpp"

// T = sum_h lambda_h v_h (x) v_h (x) v_h with orthonormal v_h (the columns of a
// rotation) and lambda = (3, 2, 1): the method must return the pairs in decreasing
// order of lambda, each to near machine precision (odd order: the sign is fixed).
static void test_recovers_orthogonal_decomposition(void **) {
    const double c = std::cos(0.7), s = std::sin(0.7), c2 = std::cos(-0.4), s2 = std::sin(-0.4);
    // Rotation about z by 0.7, then about x by -0.4: an orthonormal basis.
    const double rz[3][3] = {{c, -s, 0}, {s, c, 0}, {0, 0, 1}};
    const double rx[3][3] = {{1, 0, 0}, {0, c2, -s2}, {0, s2, c2}};
    double basis[3][3] = {};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            for (int t = 0; t < 3; ++t) basis[i][j] += rx[i][t] * rz[t][j];
    const double lambda[3] = {3.0, 2.0, 1.0};
    cs::Tensor3 tensor(3);
    for (int h = 0; h < 3; ++h)
        for (int a = 0; a < 3; ++a)
            for (int b = 0; b < 3; ++b)
                for (int d = 0; d < 3; ++d)
                    tensor(a, b, d) += lambda[h] * basis[a][h] * basis[b][h] * basis[d][h];

    cs::Rng rng(42);
    std::vector<cs::TensorEigenpair> pairs;
    assert_true(cs::robust_tensor_power(tensor, 100, 100, rng, pairs));
    assert_int_equal(pairs.size(), 3);
    for (int h = 0; h < 3; ++h) {
        assert_near(pairs[h].lambda, lambda[h], 1e-10);
        for (int a = 0; a < 3; ++a) assert_near(pairs[h].v[a], basis[a][h], 1e-8);
    }
}

// A zero tensor has no decomposition: the method reports failure, no NaN.
static void test_zero_tensor_is_degenerate(void **) {
    cs::Rng rng(1);
    std::vector<cs::TensorEigenpair> pairs;
    assert_false(cs::robust_tensor_power(cs::Tensor3(2), 10, 10, rng, pairs));
}

// The method stops a start early once an iterate repeats one of the last 16 bit for
// bit (a fixed point or a short cycle). That must give exactly what running every
// step gives: compare, bit for bit, with a plain transcription of the method that
// always runs all the steps, on random symmetric and non-symmetric tensors of
// k = 2..6 (noisy ones converge slowly; some starts never settle).
static void test_early_stop_changes_no_bit(void **) {
    for (int32_t k = 2; k <= 6; ++k) {
        for (uint64_t seed : {1u, 2u, 3u}) {
            cs::Rng make(seed * 100 + static_cast<uint64_t>(k));
            cs::Tensor3 tensor(k);
            for (double &x : tensor.t) x = make.uniform() - (seed == 3 ? 0.5 : 0.2);
            for (int32_t iterations : {1, 2, 7, 100}) {
                cs::Rng rng(7), reference_rng(7);
                std::vector<cs::TensorEigenpair> pairs;
                assert_true(cs::robust_tensor_power(tensor, 20, iterations, rng, pairs));

                // The reference: every start runs all `iterations` steps.
                cs::Tensor3 t = tensor;
                std::vector<double> v(static_cast<std::size_t>(k)), next;
                auto normalise = [](std::vector<double> &x) {
                    double norm = 0.0;
                    for (double e : x) norm += e * e;
                    norm = std::sqrt(norm);
                    for (double &e : x) e /= norm;
                };
                for (int32_t h = 0; h < k; ++h) {
                    double best_lambda = -INFINITY;
                    std::vector<double> best;
                    for (int s = 0; s < 20; ++s) {
                        for (double &x : v) x = reference_rng.uniform() - 0.5;
                        normalise(v);
                        for (int32_t it = 0; it < iterations; ++it) {
                            cs::contract_two(t, v, next);
                            normalise(next);
                            v.swap(next);
                        }
                        const double lambda = cs::contract_three(t, v);
                        if (lambda > best_lambda) {
                            best_lambda = lambda;
                            best = v;
                        }
                    }
                    assert_memory_equal(&pairs[h].lambda, &best_lambda, sizeof(double));
                    assert_memory_equal(pairs[h].v.data(), best.data(), best.size() * sizeof(double));
                    for (int32_t a = 0; a < k; ++a)
                        for (int32_t b = 0; b < k; ++b)
                            for (int32_t c = 0; c < k; ++c)
                                t(a, b, c) -= best_lambda * best[a] * best[b] * best[c];
                }
            }
        }
    }
}

// T(A, B, C) against the definition, entry by entry.
static void test_multilinear_matches_definition(void **) {
    cs::Rng rng(3);
    cs::Tensor3 t(2);
    for (double &v : t.t) v = rng.uniform() - 0.5;
    cs::Matrix a(2, 2), b(2, 2), c(2, 2);
    for (double &v : a.a) v = rng.uniform();
    for (double &v : b.a) v = rng.uniform();
    for (double &v : c.a) v = rng.uniform();
    const cs::Tensor3 r = cs::multilinear(t, a, b, c);
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
            for (int l = 0; l < 2; ++l) {
                double expected = 0;
                for (int x = 0; x < 2; ++x)
                    for (int y = 0; y < 2; ++y)
                        for (int z = 0; z < 2; ++z) expected += t(x, y, z) * a(x, i) * b(y, j) * c(z, l);
                assert_near(r(i, j, l), expected, 1e-15);
            }
}

static void test_invert_and_pseudo_inverse(void **) {
    cs::Matrix m(2, 2);
    m.a = {4, 7, 2, 6};  // det 10
    cs::Matrix inv = m;
    assert_true(cs::invert(inv, 1e-12));
    const double expected[4] = {0.6, -0.7, -0.2, 0.4};
    for (int e = 0; e < 4; ++e) assert_near(inv.a[e], expected[e], 1e-15);

    cs::Matrix singular(2, 2);
    singular.a = {1, 2, 2, 4};
    cs::Matrix copy = singular;
    assert_false(cs::invert(copy, 1e-12));
    // Pseudo-inverse of the rank-one [1 2; 2 4] = (1/25) [1 2; 2 4].
    cs::Matrix pinv;
    assert_true(cs::pseudo_inverse(singular, pinv));
    for (int e = 0; e < 4; ++e) assert_near(pinv.a[e], singular.a[e] / 25.0, 1e-14);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_recovers_orthogonal_decomposition),
        cmocka_unit_test(test_zero_tensor_is_degenerate),
        cmocka_unit_test(test_early_stop_changes_no_bit),
        cmocka_unit_test(test_multilinear_matches_definition),
        cmocka_unit_test(test_invert_and_pseudo_inverse),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
