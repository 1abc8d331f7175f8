#pragma once
// The check that a sparse matrix handed to an eigensolver is Hermitian.
#include <string>

#include "tseig/sparse/matrix.hpp"

namespace tseig::sparse {

/// Collective: Error(not_hermitian) on every rank, naming `who` and the first position
/// (0-based), when some entry a(i, j) differs from conj(a(j, i)) by more than
/// √ε·max|a| (the dense solvers' bound; a missing entry is 0). The verdict is kept with
/// the matrix's storage, so a matrix is checked once however often it is solved.
template <class T>
void require_hermitian(const Matrix<T>& a, const std::string& who);

}  // namespace tseig::sparse
