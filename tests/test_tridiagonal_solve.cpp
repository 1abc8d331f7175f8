// Stage 3 (distributed divide & conquer): eigenvalues against LAPACK ?stedc, residual
// ‖Tz − λz‖ and orthogonality ‖ZᵀZ − I‖ on random and hard tridiagonal matrices, for
// every grid shape, odd sizes, several Z layouts, nev ∈ {1, N/5, N}, all scalar types.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <random>

#include "core/blas/host.hpp"
#include "core/mpi_types.hpp"
#include "dense/tridiagonal_solve.hpp"
#include "test_util.hpp"
#include "tseig/memory.hpp"

namespace tseig::test {
namespace {

// A tridiagonal matrix in double; each test rounds it to its real type.
struct Tridiagonal {
  std::string name;
  std::vector<double> d, e;
};

std::vector<double> uniform(int n, unsigned seed, double lo = -1, double hi = 1) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> dist(lo, hi);
  std::vector<double> v(n);
  for (double& x : v) x = dist(gen);
  return v;
}

Tridiagonal random_tridiagonal(int n) {
  return {"random", uniform(n, 7 + n), uniform(std::max(n - 1, 0), 11 + n)};
}

Tridiagonal laplacian(int n) {
  return {"laplacian", std::vector<double>(n, 2.0), std::vector<double>(std::max(n - 1, 0), -1.0)};
}

// Wilkinson W21 blocks joined by `glue` (one block: W21 itself).
Tridiagonal wilkinson(int blocks, double glue) {
  Tridiagonal t{blocks == 1 ? "W21" : "glued W21", {}, {}};
  for (int b = 0; b < blocks; ++b) {
    for (int i = 0; i < 21; ++i) t.d.push_back(std::abs(10.0 - i));
    for (int i = 0; i < 20; ++i) t.e.push_back(1.0);
    if (b + 1 < blocks) t.e.push_back(glue);
  }
  return t;
}

Tridiagonal equal_diagonal(int n) {
  Tridiagonal t{"equal diagonal, tiny e", std::vector<double>(n, 1.0), uniform(n - 1, 3, 0, 1)};
  for (double& x : t.e) x *= 1e-12;
  return t;
}

Tridiagonal split_everywhere(int n) {
  return {"zero e", uniform(n, 5), std::vector<double>(n - 1, 0.0)};
}

// Three tight groups of eigenvalues near 0, 1 and 2.
Tridiagonal clustered(int n) {
  Tridiagonal t{"clustered", uniform(n, 13, 0, 1e-10), uniform(n - 1, 17, 0, 1e-9)};
  for (int i = 0; i < n; ++i) t.d[i] += i % 3;
  return t;
}

Tridiagonal scaled(Tridiagonal t, double factor) {
  for (double& x : t.d) x *= factor;
  for (double& x : t.e) x *= factor;
  t.name += " scaled by " + std::to_string(std::log10(factor)).substr(0, 4) + " decades";
  return t;
}

std::vector<double> stedc_values(std::vector<double> d, std::vector<double> e) {
  const int n = static_cast<int>(d.size());
  e.resize(std::max(n, 1));
  if (lapack::stedc<double>('N', n, d.data(), e.data(), nullptr, 1) != 0)
    throw Error(ErrorCode::numerical_failure, "reference dstedc failed");
  return d;
}

template <class T>
std::vector<real_t<T>> rounded(const std::vector<double>& v) {
  return std::vector<real_t<T>>(v.begin(), v.end());
}

struct Layout {
  int mb, nb, rsrc, csrc;
};

// Solves t with Z in `layout`, checks eigenvalues (also against the values-only mode),
// agreement of all ranks, residual and orthogonality of the wanted vectors. An interval
// must resolve to `expect` (first, count), when given.
template <class T>
void check(const Grid& grid, const Tridiagonal& t, dense::Wanted want, Layout L,
           std::optional<std::pair<int, int>> expect = std::nullopt) {
  using R = real_t<T>;
  const int n = static_cast<int>(t.d.size());
  SCOPED_TRACE(t.name + " grid " + shape_name(grid) + " N=" + std::to_string(n) +
               " first=" + std::to_string(want.first) + " count=" + std::to_string(want.count) +
               (want.interval ? " (interval)" : "") + " mb=" + std::to_string(L.mb) +
               " nb=" + std::to_string(L.nb));
  // Work with the rounded matrix so float tests measure float accuracy only.
  std::vector<double> d(t.d.size()), e(t.e.size());
  for (std::size_t i = 0; i < d.size(); ++i) d[i] = static_cast<R>(t.d[i]);
  for (std::size_t i = 0; i < e.size(); ++i) e[i] = static_cast<R>(t.e[i]);
  double norm = 0;
  for (int i = 0; i < n; ++i)
    norm = std::max(
        norm, std::abs(d[i]) + (i > 0 ? std::abs(e[i - 1]) : 0) + (i + 1 < n ? std::abs(e[i]) : 0));
  if (norm == 0) norm = 1;
  const double tol = accuracy_tolerance<T>(n);

  DistMatrix<T> Z(grid, n, want.interval ? n : std::max(want.count, 1), L.mb, L.nb,
                  L.rsrc % grid.nprow(), L.csrc % grid.npcol());
  dense::Wanted values_want = want;
  std::vector<R> w = dense::solve_tridiagonal<Device::host, T>(grid, rounded<T>(d), rounded<T>(e),
                                                               want, &Z, TuneParameters{});
  std::vector<R> values = dense::solve_tridiagonal<Device::host, T>(
      grid, rounded<T>(d), rounded<T>(e), values_want, nullptr, TuneParameters{});
  EXPECT_EQ(values_want.first, want.first);
  EXPECT_EQ(values_want.count, want.count);
  if (expect) {
    EXPECT_EQ(want.first, expect->first) << "the interval's first eigenvalue";
    EXPECT_EQ(want.count, expect->second) << "the interval's count";
  }
  const int nev = want.count, first = want.first;
  ASSERT_EQ(static_cast<int>(w.size()), n);
  ASSERT_EQ(static_cast<int>(values.size()), n);
  std::vector<R> w0 = w;
  MPI_Bcast(w0.data(), n, mpi_type<R>(), 0, grid.comm());
  EXPECT_EQ(w, w0) << "ranks disagree on the eigenvalues";

  const std::vector<double> ref = stedc_values(d, e);
  double err = 0, err_values = 0;
  for (int i = 0; i < n; ++i) {
    err = std::max(err, std::abs(w[i] - ref[i]) / norm);
    err_values = std::max(err_values, std::abs(values[i] - ref[i]) / norm);
  }
  EXPECT_LE(err, tol) << "eigenvalues differ from dstedc";
  EXPECT_LE(err_values, tol) << "values-only eigenvalues differ from dstedc";

  std::vector<T> full = Z.gather(0);
  if (grid.rank() != 0) return;
  auto z = [&](int i, int j) { return full[i + static_cast<long>(j) * n]; };
  double residual = 0, orthogonality = 0, imaginary = 0;
  for (int j = 0; j < nev; ++j) {
    double r2 = 0;
    for (int i = 0; i < n; ++i) {
      double r = d[i] * std::real(z(i, j)) - w[first + j] * std::real(z(i, j));
      if (i > 0) r += e[i - 1] * std::real(z(i - 1, j));
      if (i + 1 < n) r += e[i] * std::real(z(i + 1, j));
      r /= norm;
      r2 += r * r;
      imaginary = std::max(imaginary, double(std::abs(std::imag(z(i, j)))));
    }
    residual = std::max(residual, std::sqrt(r2));
    for (int k = 0; k <= j; ++k) {
      double dot = 0;
      for (int i = 0; i < n; ++i) dot += std::real(z(i, j)) * std::real(z(i, k));
      orthogonality = std::max(orthogonality, std::abs(dot - (j == k ? 1 : 0)));
    }
  }
  EXPECT_LE(residual, tol);
  EXPECT_LE(orthogonality, tol);
  EXPECT_EQ(imaginary, 0);
}

// True on every rank when an assertion failed on any rank, so sweeps stop together.
bool failed_anywhere() {
  int failed = ::testing::Test::HasFailure() ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return failed != 0;
}

template <class T>
class TridiagonalSolveTest : public ::testing::Test {};
TYPED_TEST_SUITE(TridiagonalSolveTest, ScalarTypes);

TYPED_TEST(TridiagonalSolveTest, RandomSizesAndLayouts) {
  for (const Grid& grid : test_grids())
    for (int n : {1, 2, 3, 17, 97, 301})
      for (int nev : nev_values(n, 5))
        for (Layout L : {Layout{8, 8, 0, 0}, Layout{5, 3, 1, 1}}) {
          check<TypeParam>(grid, random_tridiagonal(n), dense::Wanted::lowest(nev), L);
          if (failed_anywhere()) return;
        }
}

TYPED_TEST(TridiagonalSolveTest, HardMatrices) {
  using R = real_t<TypeParam>;
  // Huge and tiny entries that neither overflow nor underflow in R.
  const double big = sizeof(R) == 8 ? 1e150 : 1e30;
  const std::vector<Tridiagonal> cases{
      laplacian(250),
      wilkinson(1, 0),
      wilkinson(12, 1e-14),
      equal_diagonal(203),
      split_everywhere(190),
      {"zero matrix", std::vector<double>(90), std::vector<double>(89)},
      clustered(241),
      scaled(random_tridiagonal(131), 1 / big),
      scaled(wilkinson(7, 1e-14), big)};
  for (const Grid& grid : test_grids())
    for (const Tridiagonal& t : cases)
      for (int nev : nev_values(static_cast<int>(t.d.size()), 5)) {
        check<TypeParam>(grid, t, dense::Wanted::lowest(nev), Layout{16, 16, 0, 0});
        if (failed_anywhere()) return;
      }
}

// Windows of the spectrum away from the lowest: index windows at both ends and inside,
// and intervals whose ends lie midway between eigenvalues (so the count is exact), one
// holding no eigenvalue.
TYPED_TEST(TridiagonalSolveTest, WindowsAndIntervals) {
  using R = real_t<TypeParam>;
  for (const Grid& grid : test_grids())
    for (const Tridiagonal& t :
         {random_tridiagonal(97), random_tridiagonal(301), laplacian(250), wilkinson(12, 1e-14)}) {
      const int n = static_cast<int>(t.d.size());
      for (dense::Wanted want : {dense::Wanted{n - 1, 1}, dense::Wanted{n / 3, n / 5 + 1},
                                 dense::Wanted{1, n - 1}, dense::Wanted{n / 2, 1}}) {
        check<TypeParam>(grid, t, want, Layout{8, 8, 0, 0});
        if (failed_anywhere()) return;
      }
      std::vector<double> d(t.d.begin(), t.d.end()), e(t.e.begin(), t.e.end());
      for (double& x : d) x = static_cast<R>(x);
      for (double& x : e) x = static_cast<R>(x);
      const std::vector<double> ref = stedc_values(d, e);
      // Midway below eigenvalue k (below all for k = 0), when that gap is clear of rounding.
      const double clear = 1e3 * std::numeric_limits<R>::epsilon() * (ref.back() - ref.front() + 1);
      auto below = [&](int k) -> std::optional<double> {
        if (k == 0) return ref.front() - 1;
        if (k == n) return ref.back() + 1;
        if (ref[k] - ref[k - 1] < clear) return std::nullopt;
        return (ref[k - 1] + ref[k]) / 2;
      };
      for (auto [a, b] : {std::pair{0, n}, std::pair{n / 4, n / 2}, std::pair{n - 3, n},
                          std::pair{n / 2, n / 2}}) {
        // The nearest clear gaps at or after a and b.
        while (a < n && !below(a)) ++a;
        b = std::max(a, b);
        while (b < n && !below(b)) ++b;
        dense::Wanted want{0, 0, ValueRange{*below(a), *below(b)}};
        if (a == b) want.interval->vu = *below(a) + clear / 4;  // holds no eigenvalue
        check<TypeParam>(grid, t, want, Layout{8, 8, 0, 0}, std::pair{a, b - a});
        if (failed_anywhere()) return;
      }
    }
}

TEST(TridiagonalSolve, LaplacianMatchesExactSpectrum) {
  const int n = 257;
  for (const Grid& grid : test_grids()) {
    DistMatrix<double> Z(grid, n, n, 32);
    Tridiagonal t = laplacian(n);
    dense::Wanted all = dense::Wanted::lowest(n);
    std::vector<double> w =
        dense::solve_tridiagonal<Device::host, double>(grid, t.d, t.e, all, &Z, TuneParameters{});
    double err = 0;
    for (int k = 0; k < n; ++k)
      err = std::max(err, std::abs(w[k] - (2 - 2 * std::cos((k + 1) * M_PI / (n + 1)))));
    EXPECT_LE(err, 4 * accuracy_tolerance<double>(n)) << shape_name(grid);
  }
}

// Work arrays are kept between calls and handed out again (dirty): a second solve must
// give bit for bit the same eigenpairs, on both the plain and the factored path.
TEST(TridiagonalSolve, RepeatedCallsReuseMemoryAndAgree) {
  const int n = 1000;
  for (const Grid& grid : test_grids())
    for (const Tridiagonal& t : {random_tridiagonal(n), laplacian(n)})
      for (int nev : {n, n / 5}) {
        SCOPED_TRACE(t.name + " " + shape_name(grid) + " nev=" + std::to_string(nev));
        DistMatrix<double> Z1(grid, n, nev, 32), Z2(grid, n, nev, 32);
        dense::Wanted want = dense::Wanted::lowest(nev);
        const std::vector<double> w1 = dense::solve_tridiagonal<Device::host, double>(
            grid, t.d, t.e, want, &Z1, TuneParameters{});
        EXPECT_GT(cached_memory_bytes(), 0u);
        const std::vector<double> w2 = dense::solve_tridiagonal<Device::host, double>(
            grid, t.d, t.e, want, &Z2, TuneParameters{});
        EXPECT_EQ(w1, w2);
        const std::vector<double> q1 = Z1.gather(0), q2 = Z2.gather(0);
        EXPECT_TRUE(q1 == q2) << "eigenvectors differ between two identical calls";
      }
}

TEST(TridiagonalSolve, BadArgumentsRaiseOnEveryRank) {
  const Grid grid = test_grids().front();
  const int n = 100;
  Tridiagonal t = random_tridiagonal(n);
  DistMatrix<double> Z(grid, n, 10, 8);
  dense::Wanted want11 = dense::Wanted::lowest(11), wantm1 = dense::Wanted::lowest(-1),
                want10 = dense::Wanted::lowest(10);
  EXPECT_EQ(error_of([&] {
              dense::solve_tridiagonal<Device::host, double>(grid, t.d, t.e, want11, &Z,
                                                             TuneParameters{});
            }).code(),
            ErrorCode::invalid_argument);
  EXPECT_EQ(error_of([&] {
              dense::solve_tridiagonal<Device::host, double>(grid, t.d, t.e, wantm1, nullptr,
                                                             TuneParameters{});
            }).code(),
            ErrorCode::invalid_argument);
  t.e[57] = std::nan("");
  EXPECT_EQ(error_of([&] {
              dense::solve_tridiagonal<Device::host, double>(grid, t.d, t.e, want10, &Z,
                                                             TuneParameters{});
            }).code(),
            ErrorCode::not_finite);
}

}  // namespace
}  // namespace tseig::test
