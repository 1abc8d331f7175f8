#pragma once
// Helpers shared by the MPI test programs.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "tseig/tseig.hpp"

namespace tseig::test {

/// Process-grid shapes exercised at the current MPI_COMM_WORLD size:
/// 1 → 1×1; 2 → 1×2, 2×1; 4 → 2×2, 1×4; other P → square-ish and 1×P.
std::vector<std::pair<int, int>> grid_shapes();

/// Grids over MPI_COMM_WORLD for every shape of grid_shapes().
std::vector<Grid> test_grids();

/// Unit roundoff of the real type of T.
template <class T>
double eps() {
  return std::numeric_limits<real_t<T>>::epsilon();
}

/// Tolerance for residual/orthogonality of an order-n problem: c·√n·ε·(small constant).
template <class T>
double accuracy_tolerance(int n) {
  return 50.0 * std::sqrt(static_cast<double>(std::max(n, 1))) * eps<T>();
}

/// Eigenvalues (ascending) of the full column-major n×n Hermitian matrix by LAPACK.
template <class T>
std::vector<real_t<T>> lapack_eigenvalues(std::vector<T> full, int n);

/// {1, n/fraction, n} without repeats or values below 1: the nev of a test sweep.
std::vector<int> nev_values(int n, int fraction);

/// Runs f, which must throw tseig::Error (for a collective call: on every rank), and
/// returns it; no exception is a test failure.
Error error_of(const std::function<void()>& f);

/// "1x2" etc. for messages.
std::string shape_name(const Grid& g);

/// The four scalar types as a typed-test list.
using ScalarTypes = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;

}  // namespace tseig::test
