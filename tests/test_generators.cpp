// Generators: the same global matrix on every grid and blocking, exact symmetry, and
// the spectra they promise.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "test_util.hpp"

namespace tseig {
namespace {

template <class T>
class Generators : public ::testing::Test {};
TYPED_TEST_SUITE(Generators, test::ScalarTypes);

constexpr int kN = 37;  // a multiple of none of the block sizes below

// A distribution to build the matrix with: blocks mb×nb, first block on (rsrc, csrc).
struct Layout {
  int mb, nb;
  bool shifted;  // start on the last process row/column instead of (0, 0)
};
const Layout kLayouts[] = {{1, 1, false}, {4, 4, false}, {32, 32, false}, {4, 32, true}};

std::string describe(const Grid& g, const Layout& l) {
  return "grid " + test::shape_name(g) + ", blocks " + std::to_string(l.mb) + "x" +
         std::to_string(l.nb) + (l.shifted ? ", shifted source" : "");
}

template <class T>
DistMatrix<T> make(const Grid& g, int n, const Layout& l) {
  return DistMatrix<T>(g, n, n, l.mb, l.nb, l.shifted ? g.nprow() - 1 : 0,
                       l.shifted ? g.npcol() - 1 : 0);
}

// Runs `generate` on every grid and layout; returns each gathered matrix (rank 0 only
// holds data) with a description.
template <class T, class F>
std::vector<std::pair<std::string, std::vector<T>>> on_all_layouts(int n, F generate) {
  std::vector<std::pair<std::string, std::vector<T>>> results;
  for (const Grid& g : test::test_grids())
    for (const Layout& l : kLayouts) {
      DistMatrix<T> A = make<T>(g, n, l);
      generate(A);
      results.emplace_back(describe(g, l), A.gather());
    }
  return results;
}

bool is_root() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank == 0;
}

template <class T>
void expect_bit_identical(const std::vector<std::pair<std::string, std::vector<T>>>& results) {
  if (!is_root()) return;
  const auto& [ref_name, ref] = results.front();
  for (const auto& [name, full] : results) {
    ASSERT_EQ(full.size(), ref.size());
    EXPECT_EQ(std::memcmp(full.data(), ref.data(), full.size() * sizeof(T)), 0)
        << name << " differs from " << ref_name;
  }
}

template <class T>
void expect_exactly_hermitian(const std::vector<T>& full, int n, const std::string& name) {
  for (int j = 0; j < n; ++j) {
    EXPECT_EQ(std::imag(full[j + j * n]), 0) << name << " diagonal " << j;
    for (int i = j + 1; i < n; ++i)
      ASSERT_EQ(full[i + j * n], conj_if_complex(full[j + i * n]))
          << name << " at (" << i << ", " << j << ")";
  }
}

// Largest eigenvalue error, relative to the largest |eigenvalue|.
template <class R>
double relative_eigenvalue_error(const std::vector<R>& computed, const std::vector<double>& exact) {
  double scale = 0, worst = 0;
  for (double x : exact) scale = std::max(scale, std::abs(x));
  for (std::size_t k = 0; k < exact.size(); ++k)
    worst = std::max(worst, std::abs(static_cast<double>(computed[k]) - exact[k]));
  return worst / scale;
}

TYPED_TEST(Generators, RandomHermitianIsGridIndependentAndExactlyHermitian) {
  using T = TypeParam;
  auto results = on_all_layouts<T>(kN, [](auto& A) { generate::random_hermitian(A, 7); });
  expect_bit_identical(results);
  if (!is_root()) return;
  const std::vector<T>& full = results.front().second;
  expect_exactly_hermitian(full, kN, results.front().first);
  for (T x : full) {
    EXPECT_LE(std::abs(std::real(x)), 1);
    EXPECT_LE(std::abs(std::imag(x)), 1);
  }
  // Really random: off-diagonal imaginary parts present for complex, many distinct values.
  std::vector<real_t<T>> re;
  for (T x : full) re.push_back(std::real(x));
  std::sort(re.begin(), re.end());
  long distinct = std::unique(re.begin(), re.end()) - re.begin();
  EXPECT_GT(distinct, kN * (kN + 1) / 2 - 5);
  if constexpr (is_complex_v<T>) {
    EXPECT_NE(std::imag(full[1]), 0);
  }
}

TYPED_TEST(Generators, SeedChangesTheMatrix) {
  using T = TypeParam;
  Grid g = test::test_grids().front();
  DistMatrix<T> A(g, kN, kN, 4), B(g, kN, kN, 4);
  generate::random_hermitian(A, 1);
  generate::random_hermitian(B, 2);
  auto a = A.gather(), b = B.gather();
  if (is_root()) {
    EXPECT_NE(a, b);
  }
}

TYPED_TEST(Generators, RandomGeneralIsGridIndependentAndNotSymmetric) {
  using T = TypeParam;
  auto results = on_all_layouts<T>(kN, [](auto& A) { generate::random_general(A, 11); });
  expect_bit_identical(results);
  if (!is_root()) return;
  const std::vector<T>& full = results.front().second;
  int asymmetric = 0;
  for (int j = 0; j < kN; ++j)
    for (int i = j + 1; i < kN; ++i) asymmetric += full[i + j * kN] != full[j + i * kN];
  EXPECT_GT(asymmetric, kN * (kN - 1) / 2 - 5);
}

TYPED_TEST(Generators, LaplacianEntriesAndEigenvalues) {
  using T = TypeParam;
  auto results = on_all_layouts<T>(kN, [](auto& A) { generate::laplacian_1d(A); });
  expect_bit_identical(results);
  if (!is_root()) return;
  const std::vector<T>& full = results.front().second;
  EXPECT_EQ(full[0], T(2));
  EXPECT_EQ(full[1], T(-1));
  EXPECT_EQ(full[2], T(0));
  auto w = test::lapack_eigenvalues(full, kN);
  EXPECT_LE(relative_eigenvalue_error(w, generate::laplacian_1d_eigenvalues(kN)),
            10.0 * kN * test::eps<T>());
}

TYPED_TEST(Generators, FrankEntriesAndEigenvalues) {
  using T = TypeParam;
  auto results = on_all_layouts<T>(kN, [](auto& A) { generate::frank(A); });
  expect_bit_identical(results);
  if (!is_root()) return;
  const std::vector<T>& full = results.front().second;
  EXPECT_EQ(full[0], T(kN));
  EXPECT_EQ(full[3 + 5 * kN], T(kN - 5));
  auto w = test::lapack_eigenvalues(full, kN);
  EXPECT_LE(relative_eigenvalue_error(w, generate::frank_eigenvalues(kN)),
            10.0 * kN * test::eps<T>());
}

TYPED_TEST(Generators, PrescribedSpectrumIsHermitianWithTheGivenEigenvalues) {
  using T = TypeParam;
  using R = real_t<T>;
  // Distinct, repeated and negative eigenvalues.
  std::vector<R> w(kN);
  for (int k = 0; k < kN; ++k) w[k] = static_cast<R>(-1.0 + 2.0 * (k / 2) / (kN / 2));
  auto results = on_all_layouts<T>(kN, [&](auto& A) { generate::prescribed_spectrum(A, w, 5); });
  if (!is_root()) return;
  const std::vector<T>& ref = results.front().second;
  for (const auto& [name, full] : results) {
    expect_exactly_hermitian(full, kN, name);
    double diff = 0;
    for (std::size_t k = 0; k < full.size(); ++k)
      diff = std::max(diff, static_cast<double>(std::abs(full[k] - ref[k])));
    EXPECT_LE(diff, 1e3 * test::eps<T>()) << name;
    auto computed = test::lapack_eigenvalues(full, kN);
    std::vector<double> exact(w.begin(), w.end());
    EXPECT_LE(relative_eigenvalue_error(computed, exact), 10.0 * kN * test::eps<T>()) << name;
  }
}

TYPED_TEST(Generators, PrescribedSpectrumWhenRanksOwnNothing) {
  using T = TypeParam;
  for (const Grid& g : test::test_grids())
    for (int n : {0, 1, 2}) {
      DistMatrix<T> A(g, n, n, 1);
      std::vector<real_t<T>> w(n, real_t<T>(3));
      generate::prescribed_spectrum(A, w, 1);
      auto full = A.gather();
      if (!is_root()) continue;
      for (int i = 0; i < n; ++i)
        EXPECT_NEAR(std::real(full[i + i * n]), 3, 10 * test::eps<T>()) << n;
    }
}

TYPED_TEST(Generators, PrescribedSpectrumRejectsWrongEigenvalueCount) {
  using T = TypeParam;
  Grid g = test::test_grids().front();
  DistMatrix<T> A(g, 5, 5, 2);
  std::vector<real_t<T>> w(4, 1);
  try {
    generate::prescribed_spectrum(A, w, 1);
    ADD_FAILURE() << "no error for 4 eigenvalues of a 5x5 matrix";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
  }
}

TYPED_TEST(Generators, ClusteredSpectrum) {
  using T = TypeParam;
  using R = real_t<T>;
  const int nclusters = 4;
  const R spread = static_cast<R>(1e-3);
  std::vector<R> first;
  for (const Grid& g : test::test_grids()) {
    DistMatrix<T> A(g, kN, kN, 4);
    std::vector<R> w = generate::clustered(A, nclusters, spread, 3);
    ASSERT_EQ(static_cast<int>(w.size()), kN);
    EXPECT_TRUE(std::is_sorted(w.begin(), w.end()));
    if (first.empty()) first = w;
    EXPECT_EQ(w, first) << "eigenvalues depend on the grid";
    // Gaps within clusters are at most 2·spread; between clusters about 2/3.
    int big_gaps = 0;
    for (int k = 1; k < kN; ++k) {
      R gap = w[k] - w[k - 1];
      if (gap > R(0.5))
        ++big_gaps;
      else
        EXPECT_LE(gap, 2 * spread);
    }
    EXPECT_EQ(big_gaps, nclusters - 1);
    EXPECT_GE(w.front(), -1 - spread);
    EXPECT_LE(w.back(), 1 + spread);
    auto full = A.gather();
    if (!is_root()) continue;
    expect_exactly_hermitian(full, kN, test::shape_name(g));
    auto computed = test::lapack_eigenvalues(full, kN);
    std::vector<double> exact(w.begin(), w.end());
    EXPECT_LE(relative_eigenvalue_error(computed, exact), 10.0 * kN * test::eps<T>());
  }
}

TEST(GeneratorEigenvalues, ExactFormulas) {
  EXPECT_TRUE(generate::laplacian_1d_eigenvalues(0).empty());
  EXPECT_TRUE(generate::frank_eigenvalues(0).empty());
  ASSERT_EQ(generate::frank_eigenvalues(1).size(), 1u);
  EXPECT_NEAR(generate::frank_eigenvalues(1)[0], 1.0, 1e-15);
  // [[2, 1], [1, 1]] has eigenvalues (3 ∓ √5)/2.
  auto f2 = generate::frank_eigenvalues(2);
  EXPECT_NEAR(f2[0], (3 - std::sqrt(5.0)) / 2, 1e-15);
  EXPECT_NEAR(f2[1], (3 + std::sqrt(5.0)) / 2, 1e-15);
  for (int n : {1, 2, 10, 100}) {
    auto lap = generate::laplacian_1d_eigenvalues(n);
    auto fr = generate::frank_eigenvalues(n);
    EXPECT_TRUE(std::is_sorted(lap.begin(), lap.end()));
    EXPECT_TRUE(std::is_sorted(fr.begin(), fr.end()));
    // The traces: 2n and Σ (n - i) = n(n+1)/2.
    EXPECT_NEAR(std::accumulate(lap.begin(), lap.end(), 0.0), 2.0 * n, 1e-12 * n);
    EXPECT_NEAR(std::accumulate(fr.begin(), fr.end(), 0.0), n * (n + 1) / 2.0, 1e-12 * n * n * n);
  }
}

}  // namespace
}  // namespace tseig
