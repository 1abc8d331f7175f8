// KPM: spectral bounds contain the spectrum, eigenvalue counts agree with a dense solve
// within the stochastic error, moments do not depend on the rank count, and the density
// of states integrates to the order.
#include <gtest/gtest.h>

#include <algorithm>
#include <numbers>

#include "sparse_reference.hpp"
#include "test_util.hpp"
#include "tseig/sparse/generators.hpp"
#include "tseig/sparse/kpm.hpp"

namespace tseig::sparse::test {
namespace {

/// Index k in [from, to) with the widest gap w[k] − w[k−1]: a cut KPM can resolve.
int widest_gap(const std::vector<double>& w, int from, int to) {
  int best = from;
  for (int k = from; k < to; ++k)
    if (w[k] - w[k - 1] > w[best] - w[best - 1]) best = k;
  return best;
}

/// KPM count between two well-separated cuts of the spectrum against the exact count.
template <class T>
void expect_count_matches(const Matrix<T>& a) {
  const std::vector<double> w = dense_spectrum(a);
  const int n = static_cast<int>(w.size());
  const int k1 = widest_gap(w, n / 6, n / 2), k2 = widest_gap(w, n / 2 + 1, 5 * n / 6);
  const double lower = (w[k1 - 1] + w[k1]) / 2, upper = (w[k2 - 1] + w[k2]) / 2;
  KpmOptions options;
  options.moments = 400;
  options.vectors = 32;
  const KpmMoments m = kpm_moments(a, options);
  EXPECT_LE(m.bounds.lower, w.front());
  EXPECT_GE(m.bounds.upper, w.back());
  const EigenvalueCount c = eigenvalue_count(m, lower, upper);
  // 4 standard errors cover the stochastic part; the damping kernel's width at the
  // cuts (resolution ≈ π·half_width/M, smaller than the gaps here) adds little.
  EXPECT_NEAR(c.count, k2 - k1, 4 * c.error + 0.1) << "error " << c.error;
  EXPECT_GT(c.error, 0);
}

template <class T>
class SparseKpm : public ::testing::Test {};
TYPED_TEST_SUITE(SparseKpm, tseig::test::ScalarTypes);

TYPED_TEST(SparseKpm, CountsMatchDenseSolve) {
  using T = TypeParam;
  expect_count_matches(laplacian_2d_periodic<T>(MPI_COMM_WORLD, 9, 7));
  expect_count_matches(graphene<T>(MPI_COMM_WORLD, 6, 5));
  expect_count_matches(laplacian_3d<T>(MPI_COMM_WORLD, 4, 5, 3));
  if constexpr (is_complex_v<T>) {
    TopologicalInsulator model;
    model.nx = model.ny = 3;
    model.nz = 2;
    model.disorder = 2;
    expect_count_matches(topological_insulator<T>(MPI_COMM_WORLD, model));
  }
}

// Two-site matrices whose ±1 vectors are eigenvectors (graphene's cell: spectrum
// {−3, 3}; the 1 × 1 × 2 Laplacian: {5, 7}): the Lanczos bounds must hold both ends (a
// ±1 start vector broke down at once and gave [3, 3], then NaN counts).
TEST(SparseKpm, BoundsOfTwoSiteMatricesHoldTheSpectrum) {
  using T = double;
  for (const Matrix<T>& a :
       {graphene<T>(MPI_COMM_WORLD, 1, 1), laplacian_3d<T>(MPI_COMM_WORLD, 1, 1, 2)}) {
    const std::vector<double> w = dense_spectrum(a);
    for (std::uint64_t seed : {1, 2, 3, 4}) {
      const SpectralBounds b = spectral_bounds(a, 20, 0.01, seed);
      EXPECT_LE(b.lower, w.front() - 1e-3) << "seed " << seed;
      EXPECT_GE(b.upper, w.back() + 1e-3) << "seed " << seed;
    }
    const EigenvalueCount c = eigenvalue_count(kpm_moments(a, KpmOptions{}), -100, 100);
    EXPECT_NEAR(c.count, 2, 1e-9);
  }
}

/// s·tridiag(off, 1, off) of order n.
template <class T>
Matrix<T> scaled_tridiagonal(std::int64_t n, double s, double off) {
  return tridiagonal_matrix<T>(
      MPI_COMM_WORLD, n, [&](std::int64_t) { return static_cast<real_t<T>>(s); }, T(s * off));
}

// A multiple of the identity: Lanczos's bounds are one point up to rounding (3I in
// complex double: 1.8e-15 wide, which rescaled the rounding noise to order one and gave
// moments of 1e47 and a count of −3e18). All 500 eigenvalues lie in [c − 1, c + 1].
TYPED_TEST(SparseKpm, MultipleOfTheIdentity) {
  using T = TypeParam;
  for (double c : {3.0, 0.1, -7.3})
    for (std::uint64_t seed : {1, 3, 4, 5}) {
      KpmOptions options;
      options.seed = seed;
      const KpmMoments m = kpm_moments(scaled_tridiagonal<T>(500, c, 0), options);
      const std::size_t r = static_cast<std::size_t>(options.vectors);  // μ_m ≤ μ_0 per vector
      for (std::size_t k = 0; k < m.per_vector.size(); ++k)
        ASSERT_LE(std::abs(m.per_vector[k]), 1.01 * m.per_vector[k % r]) << c << " seed " << seed;
      const EigenvalueCount count = eigenvalue_count(m, c - 1, c + 1);
      EXPECT_NEAR(count.count, 500, 1e-3 * 500) << c << " seed " << seed;
    }
}

// Norms beyond what sums of squares hold: an error naming the range on every rank, not
// bounds of one point (β underflowed to 0 at 1e-200, and every eigenvalue was counted in
// [0, 0.1·s]) nor "the operator produced NaN or Inf" (β overflowed at 1e160).
TEST(SparseKpm, NormsOutsideTheRangeAreRefused) {
  using T = double;
  for (double s : {1e-200, 1e-145, 1e160}) {
    const Matrix<T> a = scaled_tridiagonal<T>(200, s, -0.5);
    try {
      kpm_moments(a, KpmOptions{});
      ADD_FAILURE() << s << ": no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::invalid_argument) << e.what();
      EXPECT_NE(std::string(e.what()).find("scale the matrix"), std::string::npos) << e.what();
    }
  }
  const KpmMoments m = kpm_moments(scaled_tridiagonal<T>(200, 1e-130, -0.5), KpmOptions{});
  EXPECT_NEAR(eigenvalue_count(m, -1e-129, 1e-129).count, 200, 1e-6);
}

TEST(SparseKpm, BadOptionsAreNamed) {
  const Matrix<double> a = laplacian_3d<double>(MPI_COMM_WORLD, 4, 4, 4);
  KpmOptions o;
  o.moments = 1;
  Error e = tseig::test::error_of([&] { kpm_moments(a, o); });
  EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
  EXPECT_NE(std::string(e.what()).find("kpm_moments: need moments >= 2, not 1"), std::string::npos)
      << e.what();
  o.moments = 8;
  o.vectors = 0;
  e = tseig::test::error_of([&] { kpm_moments(a, o); });
  EXPECT_NE(std::string(e.what()).find("need vectors >= 1, not 0"), std::string::npos) << e.what();
}

TEST(SparseKpm, MomentsDoNotDependOnRankCount) {
  using T = std::complex<double>;
  TopologicalInsulator model;
  model.nx = model.ny = 4;
  model.nz = 3;
  model.disorder = 1;
  KpmOptions options;
  options.moments = 64;
  options.vectors = 4;
  const KpmMoments all = kpm_moments(topological_insulator<T>(MPI_COMM_WORLD, model), options);
  const KpmMoments one = kpm_moments(topological_insulator<T>(MPI_COMM_SELF, model), options);
  EXPECT_NEAR(all.center, one.center, 1e-12);
  EXPECT_NEAR(all.half_width, one.half_width, 1e-12);
  ASSERT_EQ(all.per_vector.size(), one.per_vector.size());
  for (std::size_t k = 0; k < all.per_vector.size(); ++k)
    EXPECT_NEAR(all.per_vector[k], one.per_vector[k],
                1e-10 * static_cast<double>(all.per_vector[0]));
}

TEST(SparseKpm, DensityIntegratesToOrderAndDampingStartsAtOne) {
  const auto a = laplacian_3d<double>(MPI_COMM_WORLD, 6, 5, 4);
  KpmOptions options;
  options.moments = 128;
  const KpmMoments m = kpm_moments(a, options);
  EXPECT_NEAR(m.mean[0], static_cast<double>(a.rows()), 1e-9);  // ±1 entries: ⟨r|r⟩ = n
  // Gauss–Chebyshev quadrature on the DOS nodes is exact for these polynomials.
  const int points = 256;
  const DensityOfStates dos = density_of_states(m, points);
  double integral = 0;
  for (int p = 0; p < points; ++p) {
    const double x = (dos.energy[p] - m.center) / m.half_width;
    integral += dos.density[p] * m.half_width * std::sqrt(1 - x * x) * std::numbers::pi / points;
  }
  EXPECT_NEAR(integral, static_cast<double>(a.rows()), 1e-8 * static_cast<double>(a.rows()));
  EXPECT_TRUE(std::is_sorted(dos.energy.begin(), dos.energy.end()));
  const std::vector<double> g = jackson_damping(128);
  EXPECT_NEAR(g[0], 1.0, 1e-14);
  for (std::size_t k = 1; k < g.size(); ++k) EXPECT_LT(g[k], g[k - 1]);
}

}  // namespace
}  // namespace tseig::sparse::test
