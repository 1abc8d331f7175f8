#pragma once
// Distributed dense building blocks of the generalized eigenproblem (ELPA's cholesky,
// invert_trm and hermitian_multiply), usable on their own. All are collective over the
// grid of their operands and work on any block-cyclic layout; operands with square
// blocks and the first block on process (0, 0) are used in place, others are copied.
#include "tseig/eigensolver.hpp"
#include "tseig/export.hpp"
#include "tseig/matrix.hpp"

namespace tseig {

/// Collective. In-place Cholesky of Hermitian positive definite A; only the `uplo` triangle is
/// read. upper: A = UᴴU, U in the upper triangle; lower: A = L·Lᴴ in the lower. The other triangle
/// is set to zero. Throws Error(not_positive_definite) "leading minor of order k is not positive
/// definite" on every rank; A is then undefined.
template <class T>
TSEIG_API void cholesky(DistMatrix<T>& A, Triangle uplo = Triangle::upper);

/// Collective. In-place inverse of the upper/lower triangular A (other triangle set to zero).
/// Throws Error(numerical_failure) on every rank if a diagonal element is exactly zero.
template <class T>
TSEIG_API void invert_triangular(DistMatrix<T>& A, Triangle uplo = Triangle::upper);

/// Collective. C = Aᴴ·B (ELPA's hermitian_multiply). uplo_a: A is upper or lower triangular (other
/// triangle not read) or full; uplo_c: only that triangle of C must be computed (full: all). ncb:
/// number of columns of B and C to use (-1: all). A is N×N, B and C have N rows and ≥ ncb columns;
/// C must not share storage with A or B. Within the first ncb columns, entries of C outside
/// `uplo_c` are set to zero; later columns of C are left untouched.
template <class T>
TSEIG_API void hermitian_multiply(Triangle uplo_a, Triangle uplo_c, const DistMatrix<T>& A,
                                  const DistMatrix<T>& B, DistMatrix<T>& C, int ncb = -1);

}  // namespace tseig
