#pragma once
#include <string>
// Input validation and triangle completion before a solve.
#include "tseig/eigensolver.hpp"

namespace tseig::dense {

/// Collective. Throws Error(not_finite) naming `what` and the first position if the part
/// of A named by `triangle` holds NaN or Inf.
template <class T>
void require_finite(const DistMatrix<T>& A, Triangle triangle, const std::string& what);

/// Collective. Throws Error(not_finite) if the part of A named by `triangle` holds NaN
/// or Inf, and (Triangle::full) Error(not_hermitian) if max|A − Aᴴ| > √ε·max|A|; the
/// messages name the matrix as `what` ("A", "S").
template <class T>
void check_input(const DistMatrix<T>& A, Triangle triangle, const std::string& what);

/// Collective. Makes the lower triangle of A valid: for Triangle::upper it is filled
/// from the upper one (A(i,j) = conj(A(j,i)), i > j); otherwise nothing to do.
template <class T>
void make_lower_valid(DistMatrix<T>& A, Triangle triangle);

/// Collective; A in the working layout. Fills the strictly upper triangle from the lower
/// one (A(i,j) = conj(A(j,i)), i < j), so that A is stored as a full Hermitian matrix.
template <class T>
void fill_upper_from_lower(DistMatrix<T>& A);

}  // namespace tseig::dense
