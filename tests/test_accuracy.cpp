// Accuracy measures against cases whose answer is known in closed form.
#include <cmath>
#include <limits>
#include <numbers>

#include "test_util.hpp"

namespace tseig {
namespace {

template <class T>
class Accuracy : public ::testing::Test {};
TYPED_TEST_SUITE(Accuracy, test::ScalarTypes);

constexpr int kN = 13;

// diag(d)·scale with d_i = i - 4 (so ‖A‖₁ = 8·scale, and one eigenvalue is zero).
template <class R>
R diagonal_value(int i, R scale = 1) {
  return static_cast<R>(i - 4) * scale;
}

template <class T>
DistMatrix<T> diagonal(const Grid& g, int nb, real_t<T> scale = 1) {
  DistMatrix<T> A(g, kN, kN, nb);
  A.fill([=](int i, int j) { return i == j ? T(diagonal_value(i, scale)) : T(0); });
  return A;
}

template <class T>
std::vector<real_t<T>> diagonal_eigenvalues(int nev, real_t<T> scale = 1) {
  std::vector<real_t<T>> w(nev);
  for (int i = 0; i < nev; ++i) w[i] = diagonal_value(i, scale);
  return w;
}

// Powers of two near overflow and underflow: exact scaling, and squares of the
// residual entries would leave the range if they were not scaled first.
template <class R>
std::vector<R> norm_scales() {
  using limits = std::numeric_limits<R>;
  return {R(1), std::ldexp(R(1), limits::max_exponent - 20),
          std::ldexp(R(1), limits::min_exponent + 20)};
}

template <class T>
void set_identity(DistMatrix<T>& Z) {
  Z.fill([](int i, int j) { return i == j ? T(1) : T(0); });
}

// A perturbation of modulus 1e-3 (complex phase for complex types).
template <class T>
T delta() {
  if constexpr (is_complex_v<T>)
    return T(6e-4, 8e-4);
  else
    return T(1e-3);
}

TYPED_TEST(Accuracy, ExactEigenpairsGiveZero) {
  using T = TypeParam;
  for (const Grid& g : test::test_grids()) {
    DistMatrix<T> A = diagonal<T>(g, 4);
    DistMatrix<T> Z(g, kN, kN, 4);
    set_identity(Z);
    EXPECT_LE(accuracy::residual(A, diagonal_eigenvalues<T>(kN), Z), test::eps<T>());
    EXPECT_LE(accuracy::orthogonality(Z, kN), test::eps<T>());
  }
}

TYPED_TEST(Accuracy, PerturbedEigenvectorGivesTheExpectedValues) {
  using T = TypeParam;
  // Z = I + δ·(e_p + e_r)e_qᵀ: A z_q − λ_q z_q = δ((d_p − d_q)e_p + (d_r − d_q)e_r), and
  // ZᴴZ − I has entries δ, conj(δ) and 2|δ|², so the max is |δ|. Rows p and r are
  // neighbours: with nb = 1 they live on different process rows, so the column norm
  // needs the sum over the process column.
  const int p = 11, r = 12, q = 2;
  const double d = std::abs(delta<T>());
  const double dp = diagonal_value<double>(p) - diagonal_value<double>(q);
  const double dr = diagonal_value<double>(r) - diagonal_value<double>(q);
  const double expected_residual = d * std::sqrt(dp * dp + dr * dr) / (kN * 8.0);
  for (const Grid& g : test::test_grids())
    for (int nb : {1, 4}) {
      DistMatrix<T> Z(g, kN, kN, nb);
      set_identity(Z);
      for (int i : {p, r})
        if (Z.is_local(i, q)) Z.local(Z.local_row(i), Z.local_col(q)) = delta<T>();
      double orth = accuracy::orthogonality(Z, kN);
      EXPECT_NEAR(orth, d, 10 * test::eps<T>() * d);
      EXPECT_LE(accuracy::orthogonality(Z, q), test::eps<T>());
      for (real_t<T> scale : norm_scales<real_t<T>>()) {
        DistMatrix<T> A = diagonal<T>(g, nb, scale);
        double res = accuracy::residual(A, diagonal_eigenvalues<T>(kN, scale), Z);
        EXPECT_NEAR(res, expected_residual, 10 * test::eps<T>() * expected_residual)
            << "scale " << scale;
        // Only the first nev columns count: column q is then left out.
        EXPECT_LE(accuracy::residual(A, diagonal_eigenvalues<T>(q, scale), Z), test::eps<T>());
      }
    }
}

// H = σ·diag(d), S = σ·I (so λ_i = d_i) and Z = (I + δ(e_p + e_r)e_qᵀ)/√σ, S-normalized
// but for column q: its residual ‖(H − λ_q S)z_q‖ / ((‖H‖₁ + |λ_q|‖S‖₁)‖z_q‖) is
// |δ|·√(dp² + dr²) / ((8 + |d_q|)·√(1 + 2|δ|²)), the other columns' 0, for any σ. Near
// overflow z's entries are so small that the residual's squares would underflow.
TYPED_TEST(Accuracy, GeneralizedResidualOfScaledProblems) {
  using T = TypeParam;
  using R = real_t<T>;
  using limits = std::numeric_limits<R>;
  const int p = 11, r = 12, q = 2;
  const double d = std::abs(delta<T>());
  const double dp = diagonal_value<double>(p) - diagonal_value<double>(q);
  const double dr = diagonal_value<double>(r) - diagonal_value<double>(q);
  const double dq = std::abs(diagonal_value<double>(q));
  const double expected = d * std::sqrt(dp * dp + dr * dr) / ((8 + dq) * std::sqrt(1 + 2 * d * d));
  // Even powers of two, so that 1/√σ is exact.
  for (int e : {0, limits::max_exponent - 6, limits::min_exponent + 1}) {
    const R sigma = std::ldexp(R(1), e), root = std::ldexp(R(1), -e / 2);
    for (const Grid& g : test::test_grids()) {
      DistMatrix<T> H = diagonal<T>(g, 1, sigma), S(g, kN, kN, 1), Z(g, kN, kN, 1);
      S.fill([=](int i, int j) { return i == j ? T(sigma) : T(0); });
      Z.fill([=](int i, int j) {
        if (i == j) return T(root);
        return j == q && (i == p || i == r) ? delta<T>() * root : T(0);
      });
      const double res = accuracy::generalized_residual(H, S, diagonal_eigenvalues<T>(kN), Z);
      EXPECT_NEAR(res, expected, 10 * test::eps<T>() * expected) << "σ = 2^" << e;
    }
  }
}

TYPED_TEST(Accuracy, WrongEigenvalueIsSeen) {
  using T = TypeParam;
  Grid g = test::test_grids().front();
  DistMatrix<T> A = diagonal<T>(g, 3);
  DistMatrix<T> Z(g, kN, kN, 3);
  set_identity(Z);
  auto w = diagonal_eigenvalues<T>(kN);
  w[7] += real_t<T>(0.5);
  EXPECT_NEAR(accuracy::residual(A, w, Z), 0.5 / (kN * 8.0), 10 * test::eps<T>());
}

TYPED_TEST(Accuracy, ZWithOtherBlockingOrGrid) {
  using T = TypeParam;
  const int p = 0, q = 9;
  const double expected_residual = std::abs(delta<T>()) * 9 / (kN * 8.0);
  auto grids = test::test_grids();
  for (const Grid& ga : grids)
    for (const Grid& gz : grids) {
      DistMatrix<T> A = diagonal<T>(ga, 4);
      // Non-square blocks, shifted source, and more columns than eigenvalues.
      DistMatrix<T> Z(gz, kN, kN + 3, 3, 2, gz.nprow() - 1, gz.npcol() - 1);
      Z.fill([](int i, int j) { return i == j ? T(1) : (j >= kN ? T(7) : T(0)); });
      if (Z.is_local(p, q)) Z.local(Z.local_row(p), Z.local_col(q)) = delta<T>();
      EXPECT_NEAR(accuracy::residual(A, diagonal_eigenvalues<T>(kN), Z), expected_residual,
                  10 * test::eps<T>() * expected_residual)
          << test::shape_name(ga) << " / " << test::shape_name(gz);
    }
}

TYPED_TEST(Accuracy, LaplacianEigenvectorsAreAccurate) {
  using T = TypeParam;
  using R = real_t<T>;
  const int n = 40, nev = 10;
  // Exact eigenpairs: λ_k = 2 − 2cos(kπ/(n+1)), z_k(i) = √(2/(n+1))·sin((i+1)kπ/(n+1)).
  auto exact = generate::laplacian_1d_eigenvalues(n);
  std::vector<R> w(exact.begin(), exact.begin() + nev);
  for (const Grid& g : test::test_grids()) {
    DistMatrix<T> A(g, n, n, 8);
    generate::laplacian_1d(A);
    DistMatrix<T> Z(g, n, nev, 8);
    Z.fill([&](int i, int j) {
      double theta = (i + 1) * (j + 1) * std::numbers::pi / (n + 1);
      return T(static_cast<R>(std::sqrt(2.0 / (n + 1)) * std::sin(theta)));
    });
    EXPECT_LE(accuracy::residual(A, w, Z), test::accuracy_tolerance<T>(n));
    EXPECT_LE(accuracy::orthogonality(Z, nev), test::accuracy_tolerance<T>(n));
    // Swapping two eigenvalues must be visible.
    std::swap(w[0], w[5]);
    EXPECT_GT(accuracy::residual(A, w, Z), 1e-4);
    std::swap(w[0], w[5]);
  }
}

TYPED_TEST(Accuracy, DegenerateSizes) {
  using T = TypeParam;
  for (const Grid& g : test::test_grids()) {
    // N = 0 and nev = 0.
    DistMatrix<T> A0(g, 0, 0, 2), Z0(g, 0, 0, 2);
    EXPECT_EQ(accuracy::residual(A0, {}, Z0), 0);
    EXPECT_EQ(accuracy::orthogonality(Z0, 0), 0);
    // A = 0: no division by a zero norm; the residual is then unscaled (max |λ|).
    DistMatrix<T> A(g, 3, 3, 1), Z(g, 3, 3, 1);
    set_identity(Z);
    EXPECT_EQ(accuracy::residual(A, std::vector<real_t<T>>(3, 0), Z), 0);
    EXPECT_EQ(accuracy::residual(A, std::vector<real_t<T>>{0, 2, 0}, Z), 2);
  }
}

TYPED_TEST(Accuracy, NaNIsNotHidden) {
  using T = TypeParam;
  for (const Grid& g : test::test_grids()) {
    DistMatrix<T> A = diagonal<T>(g, 4), Z(g, kN, kN, 4);
    set_identity(Z);
    // On one rank only, so a global max that drops NaNs would miss it.
    const int i = kN - 1;
    if (Z.is_local(i, i))
      Z.local(Z.local_row(i), Z.local_col(i)) = std::numeric_limits<real_t<T>>::quiet_NaN();
    EXPECT_TRUE(std::isnan(accuracy::residual(A, diagonal_eigenvalues<T>(kN), Z)));
    EXPECT_TRUE(std::isnan(accuracy::orthogonality(Z, kN)));
  }
}

TYPED_TEST(Accuracy, InconsistentSizesAreRejectedEverywhere) {
  using T = TypeParam;
  Grid g = test::test_grids().front();
  DistMatrix<T> A = diagonal<T>(g, 4), Z(g, kN, 3, 4), Zshort(g, kN - 1, kN, 4);
  auto expect_invalid = [](auto&& f) {
    try {
      f();
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::invalid_argument) << e.what();
    }
  };
  expect_invalid([&] { accuracy::residual(A, diagonal_eigenvalues<T>(4), Z); });
  expect_invalid([&] { accuracy::residual(A, diagonal_eigenvalues<T>(2), Zshort); });
  expect_invalid([&] { accuracy::orthogonality(Z, 4); });
}

TEST(EigenvalueError, RelativeToTheLargestReference) {
  std::vector<double> ref{-4, 1, 2}, w{-4, 1.5, 2};
  EXPECT_DOUBLE_EQ(accuracy::eigenvalue_error(w, ref), 0.5 / 4);
  // Only min(size) values are compared; the scale still comes from all of ref.
  EXPECT_DOUBLE_EQ(accuracy::eigenvalue_error(std::vector<double>{-3}, ref), 1.0 / 4);
  EXPECT_EQ(accuracy::eigenvalue_error(std::vector<float>{0}, std::vector<float>{0}), 0.0f);
  EXPECT_TRUE(
      std::isnan(accuracy::eigenvalue_error(std::vector<float>{1, NAN}, std::vector<float>{1, 2})));
}

}  // namespace
}  // namespace tseig
