#pragma once
// Test and benchmark matrices. Every generator gives the same global matrix for any
// grid and blocking: entries are functions of (seed, global row, global column)
// (prescribed_spectrum: equal up to rounding, it is built by distributed QR + GEMM).
#include <cstdint>
#include <vector>

#include "tseig/export.hpp"
#include "tseig/matrix.hpp"

namespace tseig::generate {

/// Random symmetric/Hermitian: entries uniform in [-1, 1] (real and imaginary parts),
/// real diagonal.
template <class T>
TSEIG_API void random_hermitian(DistMatrix<T>& A, std::uint64_t seed);

/// Random Hermitian positive definite, well conditioned for every N: off-diagonal
/// entries uniform in [-1, 1]/(2N) (real and imaginary parts), diagonal uniform in [1, 2].
/// Diagonally dominant, so by Gershgorin its eigenvalues lie in [0.29, 2.71] (κ < 10).
template <class T>
TSEIG_API void random_positive_definite(DistMatrix<T>& A, std::uint64_t seed);

/// Random general (non-symmetric) matrix, entries uniform in [-1, 1].
template <class T>
TSEIG_API void random_general(DistMatrix<T>& A, std::uint64_t seed);

/// Q·diag(eigenvalues)·Qᴴ with Q a random unitary (QR of a random matrix). Collective.
template <class T>
TSEIG_API void prescribed_spectrum(DistMatrix<T>& A, const std::vector<real_t<T>>& eigenvalues,
                                   std::uint64_t seed);

/// 1D Laplacian tridiag(-1, 2, -1); eigenvalues 2 - 2cos(kπ/(N+1)).
template <class T>
TSEIG_API void laplacian_1d(DistMatrix<T>& A);

/// Frank matrix, symmetric form A(i,j) = N - max(i,j) (0-based); eigenvalues
/// 1 / (2(1 - cos((2k-1)π/(2N+1)))), k = 1..N.
template <class T>
TSEIG_API void frank(DistMatrix<T>& A);

/// Eigenvalues in `nclusters` tight clusters spread over [-1, 1], wrapped by
/// prescribed_spectrum: cluster centres are evenly spaced from -1 to 1 (0 for one
/// cluster) and members lie at random within ±spread of their centre (spread is
/// relative to the spectrum's half-width 1). Returns the eigenvalues used (ascending).
template <class T>
TSEIG_API std::vector<real_t<T>> clustered(DistMatrix<T>& A, int nclusters, real_t<T> spread,
                                           std::uint64_t seed);

/// Exact eigenvalues (ascending) of laplacian_1d / frank of order n.
TSEIG_API std::vector<double> laplacian_1d_eigenvalues(int n);
TSEIG_API std::vector<double> frank_eigenvalues(int n);

}  // namespace tseig::generate
