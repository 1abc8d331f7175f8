// The validator itself (tseig/validation.hpp) on deliberately corrupted results: a
// perturbed eigenvector, a wrong eigenvalue, a dropped eigenpair (a missed eigenvalue)
// and, without eigenvectors, a dropped lowest eigenvalue and a shifted spectrum; each is
// flagged, and require_passed raises Error(accuracy) on every rank.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <limits>
#include <string>
#include <vector>

#include "test_util.hpp"
#include "tseig/validation.hpp"

namespace tseig::test {
namespace {

template <class T>
class ValidatorTest : public ::testing::Test {};
TYPED_TEST_SUITE(ValidatorTest, ScalarTypes);

constexpr int kN = 48;
constexpr int kNb = 6;
constexpr int kNev = 12;

// Eigenvalues 1..N spread over [-1, 1]: gaps of 2/(N-1), so a missed eigenvalue is far
// from every returned one.
template <class R>
std::vector<R> even_spectrum() {
  std::vector<R> d(kN);
  for (int i = 0; i < kN; ++i) d[i] = R(-1) + R(2) * i / (kN - 1);
  return d;
}

// The whole of Z on every rank, column-major.
template <class T>
std::vector<T> everywhere(const DistMatrix<T>& Z) {
  std::vector<T> full = Z.gather(0);
  full.resize(static_cast<std::size_t>(Z.m()) * Z.n());
  MPI_Bcast(full.data(), static_cast<int>(full.size() * sizeof(T)), MPI_BYTE, 0, Z.grid().comm());
  return full;
}

// Z's columns `keep`, in that order, as a new N × keep.size() matrix.
template <class T>
DistMatrix<T> columns(const DistMatrix<T>& Z, const std::vector<int>& keep) {
  const std::vector<T> full = everywhere(Z);
  DistMatrix<T> out(Z.grid(), Z.m(), static_cast<int>(keep.size()), kNb);
  out.fill([&](int i, int j) { return full[i + static_cast<std::size_t>(keep[j]) * Z.m()]; });
  return out;
}

// A with a known spectrum and its exact-to-rounding lowest kNev + 1 eigenpairs.
template <class T>
struct Solved {
  DistMatrix<T> A, Z;
  std::vector<real_t<T>> w;
  Solved(const Grid& g, std::uint64_t seed) : A(g, kN, kN, kNb), Z(g, kN, kNev + 1, kNb) {
    generate::prescribed_spectrum(A, even_spectrum<real_t<T>>(), seed);
    DistMatrix<T> work = A.clone();
    EigensolverOptions o;
    o.nev = kNev + 1;
    w = Eigensolver<T>(o).eigenvectors(work, Z);
  }
  std::vector<real_t<T>> lowest(int k) const { return {w.begin(), w.begin() + k}; }
};

std::vector<int> first(int k) {
  std::vector<int> v(k);
  for (int i = 0; i < k; ++i) v[i] = i;
  return v;
}

void expect_raises(const Grid& g, const ValidationReport& r) {
  const Error e = error_of([&] { require_passed(g.comm(), r); });
  EXPECT_EQ(e.code(), ErrorCode::accuracy);
  EXPECT_NE(std::string(e.what()).find(r.summary()), std::string::npos) << e.what();
}

TYPED_TEST(ValidatorTest, CorrectResultPasses) {
  using T = TypeParam;
  for (const Grid& g : test_grids()) {
    Solved<T> s(g, 1);
    const ValidationReport r = validate_eigenpairs(s.A, s.lowest(kNev), s.Z, {});
    EXPECT_TRUE(r.passed()) << r.summary();
    EXPECT_NO_THROW(require_passed(g.comm(), r));
    const ValidationReport v = validate_eigenvalues(s.A, s.lowest(kNev), {});
    EXPECT_TRUE(v.passed()) << v.summary();
  }
}

TYPED_TEST(ValidatorTest, PerturbedEigenvectorIsFlagged) {
  using T = TypeParam;
  for (const Grid& g : test_grids()) {
    Solved<T> s(g, 2);
    const double tol = default_validation_tolerance<T>(kN);
    // Column 3 scaled by 1 + 10τ: still an eigenvector, but (ZᴴZ)₃₃ − 1 ≈ 20τ.
    DistMatrix<T> Z = columns(s.Z, first(kNev));
    Z.fill([&, Y = Z.clone()](int i, int j) {
      const T z = Y.local(Y.local_row(i), Y.local_col(j));
      return j == 3 ? z * T(1 + 10 * tol) : z;
    });
    const ValidationReport r = validate_eigenpairs(s.A, s.lowest(kNev), Z, {});
    EXPECT_GT(r.orthogonality, 10 * tol) << r.summary();
    EXPECT_FALSE(r.passed());
    expect_raises(g, r);
  }
}

TYPED_TEST(ValidatorTest, WrongEigenvalueIsFlagged) {
  using T = TypeParam;
  for (const Grid& g : test_grids()) {
    Solved<T> s(g, 3);
    const double tol = default_validation_tolerance<T>(kN);
    std::vector<real_t<T>> w = s.lowest(kNev);
    // residual = |shift| / (N‖A‖₁) ≥ 10τ, as ‖A‖₁ ≤ √N ‖A‖₂ = √N.
    w[5] += static_cast<real_t<T>>(10 * tol * kN * std::sqrt(double(kN)));
    const ValidationReport r = validate_eigenpairs(s.A, w, columns(s.Z, first(kNev)), {});
    EXPECT_GT(r.residual, 5 * tol) << r.summary();
    EXPECT_FALSE(r.passed());
    expect_raises(g, r);
  }
}

TYPED_TEST(ValidatorTest, DroppedEigenpairIsAMissedEigenvalue) {
  using T = TypeParam;
  for (const Grid& g : test_grids())
    for (int dropped : {0, 4, kNev - 1}) {
      Solved<T> s(g, 4);
      // Pairs 0..kNev without `dropped`: accurate and orthonormal, but λ_dropped is missing.
      std::vector<int> keep;
      std::vector<real_t<T>> w;
      for (int k = 0; k <= kNev; ++k)
        if (k != dropped) {
          keep.push_back(k);
          w.push_back(s.w[k]);
        }
      const ValidationReport r = validate_eigenpairs(s.A, w, columns(s.Z, keep), {});
      EXPECT_LE(r.residual, r.tolerance) << r.summary();
      EXPECT_LE(r.orthogonality, r.tolerance) << r.summary();
      EXPECT_FALSE(r.count_ok) << "dropped " << dropped << ": " << r.summary();
      EXPECT_GT(r.count_bound, s.w[dropped]);
      expect_raises(g, r);
      // Passed as the value range (−∞, λ_kNev]: the subset starts at the lowest, so the
      // count is checked (it was skipped for every value range).
      EigensolverOptions range;
      range.value_range = ValueRange{-HUGE_VAL, static_cast<double>(s.w[kNev])};
      const ValidationReport v = validate_eigenpairs(s.A, w, columns(s.Z, keep), range);
      EXPECT_TRUE(v.count_checked) << v.summary();
      EXPECT_FALSE(v.count_ok) << "dropped " << dropped << ": " << v.summary();
    }
}

TYPED_TEST(ValidatorTest, GeneralizedDroppedEigenpairIsFlagged) {
  using T = TypeParam;
  for (const Grid& g : test_grids()) {
    DistMatrix<T> H(g, kN, kN, kNb), S(g, kN, kN, kNb), Z(g, kN, kNev + 1, kNb);
    generate::random_hermitian(H, 5);
    generate::random_positive_definite(S, 6);
    DistMatrix<T> work = H.clone();
    EigensolverOptions o;
    o.nev = kNev + 1;
    const auto w = Eigensolver<T>(o).generalized_eigenvectors(work, S, Z);
    const ValidationReport ok = validate_generalized_eigenpairs(
        H, S, std::vector(w.begin(), w.end() - 1), columns(Z, first(kNev)), {});
    EXPECT_TRUE(ok.passed()) << ok.summary();
    std::vector<int> keep = first(kNev + 1);
    keep.erase(keep.begin() + 2);
    std::vector<real_t<T>> dropped = w;
    dropped.erase(dropped.begin() + 2);
    const ValidationReport r = validate_generalized_eigenpairs(H, S, dropped, columns(Z, keep), {});
    EXPECT_FALSE(r.count_ok) << r.summary();
    expect_raises(g, r);
    // Without eigenvectors: the lowest eigenvalue dropped.
    const ValidationReport v = validate_generalized_eigenvalues(
        H, S, std::vector(w.begin() + 1, w.end()), EigensolverOptions{});
    if constexpr (sizeof(real_t<T>) == 8) {
      EXPECT_FALSE(v.count_ok) << v.summary();
    }
  }
}

// Without eigenvectors the count check is only as sharp as the eigenvalue error the
// tolerance allows (τ·‖A‖₁, coarser than the gaps here in single precision).
template <class T>
class ValuesOnlyTest : public ::testing::Test {};
using DoubleTypes = ::testing::Types<double, std::complex<double>>;
TYPED_TEST_SUITE(ValuesOnlyTest, DoubleTypes);

TYPED_TEST(ValuesOnlyTest, DroppedLowestEigenvalueIsFlagged) {
  using T = TypeParam;
  for (const Grid& g : test_grids()) {
    Solved<T> s(g, 7);
    const auto w = std::vector(s.w.begin() + 1, s.w.end());
    const ValidationReport r = validate_eigenvalues(s.A, w, {});
    EXPECT_FALSE(r.count_ok) << r.summary();
    EXPECT_FALSE(r.eigenvectors);
    expect_raises(g, r);
  }
}

TYPED_TEST(ValuesOnlyTest, WrongFullSpectrumFailsTheTraceCheck) {
  using T = TypeParam;
  for (const Grid& g : test_grids()) {
    DistMatrix<T> A(g, kN, kN, kNb);
    auto d = even_spectrum<double>();
    generate::prescribed_spectrum(A, d, 8);
    EXPECT_TRUE(validate_eigenvalues(A, d, {}).passed());
    // Two eigenvalues moved apart: Σλ unchanged, ‖λ‖₂ not.
    d[10] -= 1e-6;
    d[30] += 1e-6;
    const ValidationReport r = validate_eigenvalues(A, d, {});
    EXPECT_GT(r.trace_error, r.tolerance) << r.summary();
    expect_raises(g, r);
  }
}

TYPED_TEST(ValidatorTest, NanEigenvalueIsFlagged) {
  using T = TypeParam;
  for (const Grid& g : test_grids()) {
    Solved<T> s(g, 9);
    // In the middle, where neither λ_min nor λ_max of the eigenvalues-only check sees it.
    std::vector<real_t<T>> w = s.lowest(kNev);
    w[4] = std::numeric_limits<real_t<T>>::quiet_NaN();
    EXPECT_FALSE(validate_eigenvalues(s.A, w, {}).passed());
    const ValidationReport r = validate_eigenpairs(s.A, w, columns(s.Z, first(kNev)), {});
    EXPECT_FALSE(r.passed()) << r.summary();
    expect_raises(g, r);
  }
}

TEST(Validator, InconsistentArgumentsAreRefused) {
  const Grid g(MPI_COMM_WORLD);
  DistMatrix<double> A(g, kN, kN, kNb), Z(g, kN, 3, kNb);
  const std::vector<double> w(5, 0.0);
  EXPECT_EQ(error_of([&] { validate_eigenpairs(A, w, Z, {}); }).code(),
            ErrorCode::invalid_argument);
  EXPECT_EQ(error_of([&] { validate_eigenvalues(A, std::vector<double>{}, {}); }).code(),
            ErrorCode::invalid_argument);
}

}  // namespace
}  // namespace tseig::test
