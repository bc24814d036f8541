// SPDX-License-Identifier: MIT
// The small dense helpers (linalg/dense): the direct loops used for small matrices
// (square products up to 6 x 6, inverse up to 16 x 16, SVD up to 8 x 8; issue 12, item 3) and
// the library calls beyond, each checked against CBLAS / LAPACKE called here directly
// (an independent computation) and against the defining identities.
#include <algorithm>
#include <cmath>
#include <vector>

#include <cblas.h>
#include <lapacke.h>

#include "support/cmocka_cpp.hpp"
#include "linalg/dense.hpp"
#include "util/rng.hpp"

namespace {

cs::Matrix random_matrix(int32_t r, int32_t c, cs::Rng &rng, double diagonal = 0.0) {
    cs::Matrix m(r, c);
    for (double &v : m.a) v = rng.uniform() - 0.5;
    for (int32_t i = 0; i < std::min(r, c); ++i) m(i, i) += diagonal;
    return m;
}

double max_abs(const cs::Matrix &m) {
    double top = 0.0;
    for (double v : m.a) top = std::max(top, std::fabs(v));
    return top;
}

// Every size the loops cover and a few beyond, square and (for the SVD) rectangular.
const int32_t kSizes[] = {1, 2, 3, 4, 5, 6, 7, 8, 12, 17, 24, 25, 31};

}  // namespace

// multiply() against cblas_dgemm, all four transpose combinations, to 1e-14 relative.
static void products_match_dgemm(void **) {
    cs::Rng rng(1);
    for (int32_t n : kSizes)
        for (int t = 0; t < 4; ++t) {
            const bool ta = t & 1, tb = t & 2;
            const cs::Matrix a = random_matrix(n, n, rng), b = random_matrix(n, n, rng);
            const cs::Matrix c = cs::multiply(a, b, ta, tb);
            std::vector<double> ref(static_cast<std::size_t>(n) * n);
            cblas_dgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, n, n, n,
                        1.0, a.a.data(), n, b.a.data(), n, 0.0, ref.data(), n);
            for (std::size_t e = 0; e < ref.size(); ++e) assert_near(c.a[e], ref[e], 1e-14 * n);
        }
    // Rectangular operands go to dgemm: (2 x 3) (3 x 4).
    const cs::Matrix a = random_matrix(2, 3, rng), b = random_matrix(3, 4, rng);
    const cs::Matrix c = cs::multiply(a, b);
    assert_int_equal(c.rows, 2);
    assert_int_equal(c.cols, 4);
    for (int32_t i = 0; i < 2; ++i)
        for (int32_t j = 0; j < 4; ++j) {
            double s = 0.0;
            for (int32_t p = 0; p < 3; ++p) s += a(i, p) * b(p, j);
            assert_near(c(i, j), s, 1e-15);
        }
}

// invert(): a a^-1 = I to 1e-12, the same inverse as dgetrf + dgetri, and the
// condition test: a matrix with rcond about 1e-14 (diag(1, 1e-14) rotated) is refused
// at min_rcond 1e-12, accepted at 1e-16; a singular one is refused.
static void inverse_matches_lapack(void **) {
    cs::Rng rng(2);
    for (int32_t n : kSizes) {
        const cs::Matrix a = random_matrix(n, n, rng, 1.0);
        cs::Matrix inv = a;
        assert_true(cs::invert(inv, 1e-12));
        const cs::Matrix id = cs::multiply(a, inv);
        for (int32_t i = 0; i < n; ++i)
            for (int32_t j = 0; j < n; ++j) assert_near(id(i, j), i == j ? 1.0 : 0.0, 1e-12);
        std::vector<double> ref = a.a;
        std::vector<lapack_int> piv(static_cast<std::size_t>(n));
        assert_int_equal(LAPACKE_dgetrf(LAPACK_ROW_MAJOR, n, n, ref.data(), n, piv.data()), 0);
        assert_int_equal(LAPACKE_dgetri(LAPACK_ROW_MAJOR, n, ref.data(), n, piv.data()), 0);
        for (std::size_t e = 0; e < ref.size(); ++e) assert_near(inv.a[e], ref[e], 1e-12 * max_abs(inv));
    }
    for (int32_t n : {3, 30}) {  // the loop and the LAPACK path
        cs::Matrix q = random_matrix(n, n, rng, 1.0), r;
        cs::Svd d;
        assert_true(cs::svd(q, d));  // orthonormal U, V of a random matrix
        cs::Matrix ill(n, n);
        for (int32_t i = 0; i < n; ++i)
            for (int32_t j = 0; j < n; ++j)
                for (int32_t h = 0; h < n; ++h)
                    ill(i, j) += d.u(i, h) * (h == n - 1 ? 1e-14 : 1.0) * d.vt(h, j);
        cs::Matrix copy = ill;
        assert_false(cs::invert(copy, 1e-12));
        copy = ill;
        assert_true(cs::invert(copy, 1e-16));
        cs::Matrix zero(n, n);
        assert_false(cs::invert(zero, 1e-12));
    }
}

// svd(): a = u diag(s) vt to 1e-13, u and v orthonormal, s descending and equal to
// dgesvd's to 1e-13 relative; rank-deficient and rectangular inputs included.
static void svd_matches_lapack(void **) {
    cs::Rng rng(3);
    for (int32_t m : kSizes)
        for (int32_t shape = 0; shape < 4; ++shape) {
            const int32_t n = shape == 1 ? std::max(1, m - 1) : shape == 2 ? m + 2 : m;
            cs::Matrix a = random_matrix(m, n, rng);
            if (shape == 3 && m >= 2)  // rank m - 1: the last row repeats the first
                for (int32_t j = 0; j < n; ++j) a(m - 1, j) = a(0, j);
            cs::Svd d;
            if (!cs::svd(a, d)) fail_msg("svd failed for %d x %d, shape %d", m, n, shape);
            const int32_t r = std::min(m, n);
            assert_int_equal(d.s.size(), r);
            for (int32_t h = 1; h < r; ++h) assert_true(d.s[h] <= d.s[h - 1]);
            for (int32_t i = 0; i < m; ++i)
                for (int32_t j = 0; j < n; ++j) {
                    double v = 0.0;
                    for (int32_t h = 0; h < r; ++h) v += d.u(i, h) * d.s[h] * d.vt(h, j);
                    assert_near(v, a(i, j), 1e-13 * (1 + d.s[0]));
                }
            for (int32_t g = 0; g < r; ++g)
                for (int32_t h = 0; h < r; ++h) {
                    double uu = 0.0, vv = 0.0;
                    for (int32_t i = 0; i < m; ++i) uu += d.u(i, g) * d.u(i, h);
                    for (int32_t j = 0; j < n; ++j) vv += d.vt(g, j) * d.vt(h, j);
                    assert_near(uu, g == h ? 1.0 : 0.0, 1e-12);
                    assert_near(vv, g == h ? 1.0 : 0.0, 1e-12);
                }
            std::vector<double> work = a.a, s(static_cast<std::size_t>(r)), u(static_cast<std::size_t>(m) * r),
                                vt(static_cast<std::size_t>(r) * n), superb(static_cast<std::size_t>(std::max(1, r)));
            assert_int_equal(LAPACKE_dgesvd(LAPACK_ROW_MAJOR, 'S', 'S', m, n, work.data(), n, s.data(), u.data(), r,
                                            vt.data(), n, superb.data()),
                             0);
            for (int32_t h = 0; h < r; ++h) assert_near(d.s[h], s[h], 1e-13 * (1 + s[0]));
        }
    // Non-finite input is refused.
    cs::Matrix bad(2, 2);
    bad.a = {1.0, NAN, 0.0, 1.0};
    cs::Svd d;
    assert_false(cs::svd(bad, d));
}

// pseudo_inverse() on the small path: the four Penrose conditions for a rank-2 4 x 4.
static void pseudo_inverse_penrose(void **) {
    cs::Rng rng(4);
    const cs::Matrix x = random_matrix(4, 2, rng), y = random_matrix(2, 4, rng);
    const cs::Matrix a = cs::multiply(x, y);  // 4 x 2 times 2 x 4: rank 2
    cs::Matrix p;
    assert_true(cs::pseudo_inverse(a, p));
    const cs::Matrix apa = cs::multiply(cs::multiply(a, p), a), pap = cs::multiply(cs::multiply(p, a), p);
    const cs::Matrix ap = cs::multiply(a, p), pa = cs::multiply(p, a);
    for (int32_t i = 0; i < 4; ++i)
        for (int32_t j = 0; j < 4; ++j) {
            assert_near(apa(i, j), a(i, j), 1e-12);
            assert_near(pap(i, j), p(i, j), 1e-12 * (1 + max_abs(p)));
            assert_near(ap(i, j), ap(j, i), 1e-12);
            assert_near(pa(i, j), pa(j, i), 1e-12);
        }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(products_match_dgemm),
        cmocka_unit_test(inverse_matches_lapack),
        cmocka_unit_test(svd_matches_lapack),
        cmocka_unit_test(pseudo_inverse_penrose),
    };
    return cmocka_run_group_tests_name("dense", tests, nullptr, nullptr);
}
