// SPDX-License-Identifier: MIT
// Small dense matrices (k x k in practice): products, inversion with a condition
// check, SVD and pseudo-inverse. Row-major throughout. Direct loops for the small
// sizes (square products up to 6 x 6, inverse up to 16 x 16, SVD up to 8 x 8: as fast
// as the library calls or faster), CBLAS and LAPACKE beyond.
#pragma once

#include <cstdint>
#include <vector>

namespace cs {

struct Matrix {
    int32_t rows = 0;
    int32_t cols = 0;
    std::vector<double> a;  // rows x cols, row-major

    Matrix() = default;
    Matrix(int32_t r, int32_t c, double fill = 0.0)
        : rows(r), cols(c), a(static_cast<std::size_t>(r) * c, fill) {}

    static Matrix identity(int32_t n);

    double &operator()(int32_t i, int32_t j) { return a[static_cast<std::size_t>(i) * cols + j]; }
    double operator()(int32_t i, int32_t j) const {
        return a[static_cast<std::size_t>(i) * cols + j];
    }
};

/// op(A) op(B) with op = transpose when the flag is set (a loop for square operands up
/// to 6 x 6, cblas_dgemm otherwise).
Matrix multiply(const Matrix &a, const Matrix &b, bool transpose_a = false,
                bool transpose_b = false);

Matrix transpose(const Matrix &a);

/// Whether every entry is finite.
bool all_finite(const Matrix &a);

/// Invert a square matrix in place (LU with partial pivoting). Returns false, leaving
/// `a` unspecified, when it is singular or its reciprocal 1-norm condition number is
/// below min_rcond: computed exactly from the inverse up to 16 x 16, estimated by
/// dgecon (dgetrf/dgetri) beyond. Throws std::bad_alloc when LAPACKE cannot allocate.
bool invert(Matrix &a, double min_rcond);

/// Thin singular value decomposition a = u diag(s) vt, s descending: one-sided Jacobi
/// up to 8 rows and columns, dgesvd beyond (the signs of matching singular vectors may differ
/// between the two). Throws std::bad_alloc when LAPACKE cannot allocate.
struct Svd {
    Matrix u;
    std::vector<double> s;
    Matrix vt;
};
bool svd(const Matrix &a, Svd &out);

/// Moore-Penrose pseudo-inverse through the SVD; singular values below
/// max(rows, cols) * eps * s_max count as zero.
bool pseudo_inverse(const Matrix &a, Matrix &out);

}  // namespace cs
