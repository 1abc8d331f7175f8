// The two-stage pipeline stage by stage: full → band rebuilds A with an orthogonal Q,
// bulge chasing keeps the band's eigenvalues and its reflectors rebuild the band, and
// the distributed tridiagonal → band back-transform matches the one-rank kernel.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "core/blas/host.hpp"
#include "dense/stages/backtransform_band/api.hpp"
#include "dense/stages/backtransform_householder/api.hpp"
#include "dense/stages/bulge_chase/api.hpp"
#include "dense/stages/bulge_chase/dealt_sweeps.hpp"
#include "dense/stages/reduce_to_band/api.hpp"
#include "test_util.hpp"

namespace tseig::test {
namespace {

template <class T>
class TwoStageTest : public ::testing::Test {};
TYPED_TEST_SUITE(TwoStageTest, ScalarTypes);

template <class T>
std::vector<T> identity(int n) {
  std::vector<T> I(static_cast<std::size_t>(n) * n, T(0));
  for (int i = 0; i < n; ++i) I[i + static_cast<std::size_t>(i) * n] = T(1);
  return I;
}

// Full Hermitian matrix from LAPACK 'L' band storage (leading dimension b+1).
template <class T>
std::vector<T> band_to_full(const std::vector<T>& band, int n, int b) {
  std::vector<T> F(static_cast<std::size_t>(n) * n, T(0));
  for (int j = 0; j < n; ++j)
    for (int i = j; i <= std::min(n - 1, j + b); ++i) {
      const T x = band[(i - j) + static_cast<std::size_t>(j) * (b + 1)];
      F[i + static_cast<std::size_t>(j) * n] = x;
      F[j + static_cast<std::size_t>(i) * n] = conj_if_complex(x);
    }
  return F;
}

// max |Q·B·Qᴴ − A| / max|A| and max |QᴴQ − I| for column-major n×n matrices.
template <class T>
std::pair<double, double> similarity_errors(const std::vector<T>& Q, const std::vector<T>& B,
                                            const std::vector<T>& A, int n) {
  std::vector<T> QB(Q.size()), R = A, G = identity<T>(n);
  blas::gemm('N', 'N', n, n, n, T(1), Q.data(), n, B.data(), n, T(0), QB.data(), n);
  blas::gemm('N', 'C', n, n, n, T(1), QB.data(), n, Q.data(), n, T(-1), R.data(), n);
  blas::gemm('C', 'N', n, n, n, T(1), Q.data(), n, Q.data(), n, T(-1), G.data(), n);
  double anorm = 0, r = 0, g = 0;
  for (const T& x : A) anorm = std::max(anorm, double(std::abs(x)));
  for (const T& x : R) r = std::max(r, double(std::abs(x)));
  for (const T& x : G) g = std::max(g, double(std::abs(x)));
  return {r / std::max(anorm, 1e-300), g};
}

TYPED_TEST(TwoStageTest, ReduceToBandRebuildsA) {
  using T = TypeParam;
  for (const Grid& grid : test_grids())
    for (auto [n, nb, b] : {std::tuple{1, 1, 1},
                            {7, 1, 1},
                            {7, 1, 2},
                            {9, 4, 8},
                            {97, 4, 4},
                            {97, 4, 8},
                            {61, 8, 16},
                            {61, 4, 12},  // panels of 3 blocks: back on their first column
                            {130, 32, 32}}) {
      SCOPED_TRACE(shape_name(grid) + " N=" + std::to_string(n) + " nb=" + std::to_string(nb) +
                   " b=" + std::to_string(b));
      DistMatrix<T> A(grid, n, n, nb);
      generate::random_hermitian(A, 3 + n);
      const std::vector<T> Afull = A.gather(0);
      DistMatrix<T> W = A.clone();
      const std::vector<T> tau = dense::reduce_to_band<Device::host>(W, b);
      EXPECT_EQ(static_cast<int>(tau.size()), std::max(n - b, 0));
      const int bw = std::min(b, std::max(n - 1, 1));
      const std::vector<T> band = dense::gather_band(W, bw);
      DistMatrix<T> Q(grid, n, n, nb);
      Q.fill([](int i, int j) { return T(i == j ? 1 : 0); });
      dense::backtransform_householder<Device::host>(W, tau, b, Q, n, TuneParameters{});
      const std::vector<T> Qfull = Q.gather(0);
      if (grid.rank() == 0) {
        auto [rebuild, orth] = similarity_errors(Qfull, band_to_full(band, n, bw), Afull, n);
        EXPECT_LE(rebuild, accuracy_tolerance<T>(n)) << "Q·B·Qᴴ != A";
        EXPECT_LE(orth, accuracy_tolerance<T>(n)) << "Q not orthogonal";
      }
    }
}

// A random Hermitian band matrix in 'L' band storage.
template <class T>
std::vector<T> random_band(int n, int b, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<T> band(static_cast<std::size_t>(b + 1) * n, T(0));
  for (int j = 0; j < n; ++j)
    for (int r = 0; r <= b && j + r < n; ++r) {
      T& x = band[r + static_cast<std::size_t>(j) * (b + 1)];
      if constexpr (is_complex_v<T>)
        x = T(u(gen), r == 0 ? 0.0 : u(gen));
      else
        x = T(u(gen));
    }
  return band;
}

TYPED_TEST(TwoStageTest, BulgeChaseRebuildsBandAndKeepsEigenvalues) {
  using T = TypeParam;
  using R = real_t<T>;
  // {200, 4} and {300, 10} are wide enough to run the chase on 2 and 4 ranks.
  for (auto [n, b] : {std::pair{1, 1},
                      {2, 1},
                      {3, 2},
                      {8, 1},
                      {8, 7},
                      {40, 3},
                      {101, 8},
                      {64, 16},
                      {200, 4},
                      {300, 10}})
    for (int group : {2, 3, 32}) {
      SCOPED_TRACE("N=" + std::to_string(n) + " b=" + std::to_string(b) +
                   " group=" + std::to_string(group));
      const std::vector<T> band = random_band<T>(n, b, 7 * n + b);
      // Each rank keeps the reflectors its chunk of the chase made; all of them here.
      const dense::BandReflectors<T> q = dense::reflectors_for_rows(
          dense::bulge_chase(band, n, b, MPI_COMM_WORLD), MPI_COMM_WORLD, 0, n);
      std::vector<T> tri(static_cast<std::size_t>(n) * n, T(0));
      for (int i = 0; i < n; ++i) {
        tri[i + static_cast<std::size_t>(i) * n] = q.d[i];
        if (i + 1 < n) {
          tri[i + 1 + static_cast<std::size_t>(i) * n] = q.e[i];
          tri[i + static_cast<std::size_t>(i + 1) * n] = q.e[i];
        }
      }
      std::vector<T> Q = identity<T>(n);
      dense::backtransform_band(q, Q.data(), n, n, group);
      const std::vector<T> B = band_to_full(band, n, b);
      auto [rebuild, orth] = similarity_errors(Q, tri, B, n);
      EXPECT_LE(rebuild, accuracy_tolerance<T>(n)) << "Q·T·Qᴴ != band";
      EXPECT_LE(orth, accuracy_tolerance<T>(n)) << "Q not orthogonal";
      std::vector<R> ref = lapack_eigenvalues<T>(B, n);
      std::vector<R> w = lapack_eigenvalues<T>(tri, n);
      EXPECT_LE(accuracy::eigenvalue_error(w, ref), accuracy_tolerance<T>(n));
    }
}

// On one node the chase's ranks share the band and take whole sweeps in turn, in groups
// of any size; across nodes each takes a chunk of columns and copies the zones between
// chunks. All give the same tridiagonal and reflectors bit for bit, whatever order the
// ranks' steps interleaved in.
TYPED_TEST(TwoStageTest, BulgeChaseDealtSweepsAndColumnChunksAgree) {
  using T = TypeParam;
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size == 1) GTEST_SKIP() << "sweeps are dealt out between ranks: runs at 2 and 4 ranks";
  for (auto [n, b] : {std::pair{200, 4}, {300, 10}, {517, 16}}) {
    const std::vector<T> band = random_band<T>(n, b, 3 * n + b);
    const dense::BandReflectors<T> chunks = dense::reflectors_for_rows(
        dense::bulge_chase(band, n, b, MPI_COMM_WORLD, true, false), MPI_COMM_WORLD, 0, n);
    for (int group : {1, 3, 8}) {
      SCOPED_TRACE("N=" + std::to_string(n) + " b=" + std::to_string(b) +
                   " group=" + std::to_string(group));
      auto dealt = dense::chase_dealt_sweeps(band, n, b, MPI_COMM_WORLD, true, group);
      ASSERT_TRUE(dealt.has_value()) << "no shared-memory window for ranks of one node";
      const dense::BandReflectors<T> sweeps =
          dense::reflectors_for_rows(*dealt, MPI_COMM_WORLD, 0, n);
      EXPECT_EQ(sweeps.d, chunks.d);
      EXPECT_EQ(sweeps.e, chunks.e);
      EXPECT_TRUE(std::equal(sweeps.v.begin(), sweeps.v.end(), chunks.v.begin(), chunks.v.end()));
      EXPECT_TRUE(
          std::equal(sweeps.tau.begin(), sweeps.tau.end(), chunks.tau.begin(), chunks.tau.end()));
    }
  }
}

// Stage 4 distributed: rows over process rows (each applies the steps that start in its
// rows and trades halo rows with its neighbours), columns over process columns. Small
// sweep blocks k make the halo (b + k − 1 rows) small enough for every process row of
// the test grids to take part; with several process columns each rank holds a share of
// its row's sweeps and the blocks (k = 256: all sweeps in one) are broadcast along the row.
TYPED_TEST(TwoStageTest, DistributedBackTransformMatchesOneRank) {
  using T = TypeParam;
  for (auto [n, b] : {std::pair{77, 6}, std::pair{301, 8}}) {
    const dense::BandReflectors<T> q =
        dense::bulge_chase(random_band<T>(n, b, 5), n, b, MPI_COMM_WORLD);
    const dense::BandReflectors<T> all = dense::reflectors_for_rows(q, MPI_COMM_WORLD, 0, n);
    std::vector<Grid> grids = test_grids();
    int size = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size > 2) grids.emplace_back(MPI_COMM_WORLD, size, 1);  // a pipeline over > 2 process rows
    for (const Grid& grid : grids)
      for (int k : {2, 5, 256})
        for (int nev : {1, 20, n}) {
          SCOPED_TRACE(shape_name(grid) + " N=" + std::to_string(n) + " b=" + std::to_string(b) +
                       " k=" + std::to_string(k) + " nev=" + std::to_string(nev));
          DistMatrix<T> Z(grid, n, nev + 3, 4);
          generate::random_general(Z, 2);
          const std::vector<T> before = Z.gather(0);
          TuneParameters tune;
          tune.band_sweeps_per_pass = k;
          dense::backtransform_band<Device::host>(q, Z, nev, tune);
          const std::vector<T> after = Z.gather(0);
          if (grid.rank() != 0) continue;
          std::vector<T> ref = before;
          dense::backtransform_band(all, ref.data(), n, nev, b);
          double err = 0;
          for (std::size_t i = 0; i < ref.size(); ++i)
            err = std::max(err, double(std::abs(ref[i] - after[i])));
          EXPECT_LE(err, accuracy_tolerance<T>(n))
              << "columns beyond nev must stay, the others match";
        }
  }
}

}  // namespace
}  // namespace tseig::test
