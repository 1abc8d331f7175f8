#pragma once
// The checks behind tseig/validation.hpp on operands already in the working layout, so that
// Eigensolver can hand over the copy of A it keeps instead of copying it again.
#include <vector>

#include "tseig/validation.hpp"

namespace tseig::dense {

/// The whole Hermitian matrix, from the part `triangle` names, as a new matrix in the
/// working layout with nb×nb blocks. Collective.
template <class T>
DistMatrix<T> full_working_copy(const DistMatrix<T>& A, Triangle triangle, int nb);

/// Collective. The checks of tseig/validation.hpp. A and S (null: standard problem) are
/// whole Hermitian matrices in the working layout with the same blocks; A is consumed
/// (it becomes the count check's work matrix). Z (null: eigenvalues only) is N × ≥ nev
/// over the same processes, any layout. tolerance > 0. lowest: w starts at the lowest
/// eigenvalue (else the count is not checked). Arguments are not checked.
template <class T>
ValidationReport validate(DistMatrix<T> A, const DistMatrix<T>* S, const std::vector<real_t<T>>& w,
                          const DistMatrix<T>* Z, double tolerance, bool lowest);

}  // namespace tseig::dense
