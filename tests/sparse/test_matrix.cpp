// Matrix construction (partition, halo, errors on every rank) and the block-vector
// operations of MultiVector.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <functional>
#include <limits>
#include <numeric>

#include "sparse_reference.hpp"
#include "test_util.hpp"
#include "tseig/sparse/chebfd.hpp"
#include "tseig/sparse/generators.hpp"
#include "tseig/sparse/kernels.hpp"
#include "tseig/sparse/kpm.hpp"
#include "tseig/sparse/lobpcg.hpp"

namespace tseig::sparse::test {
namespace {

int rank_count() {
  int p = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  return p;
}
int my_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

TEST(SparseMatrix, PartitionFollowsWeights) {
  const int p = rank_count();
  std::vector<double> weights(p);
  for (int r = 0; r < p; ++r) weights[r] = r == 0 && p > 1 ? 0.0 : r + 1.0;
  const auto a = laplacian_3d<double>(MPI_COMM_WORLD, 10, 10, 10, {}, weights);
  EXPECT_EQ(a.rows(), 1000);
  EXPECT_EQ(a.nonzeros(), 1000 * 7 - 6 * 100);
  if (p > 1 && my_rank() == 0) {
    EXPECT_EQ(a.local_rows(), 0);
  }
  const double sum = std::accumulate(weights.begin(), weights.end(), 0.0);
  const double want = static_cast<double>(a.nonzeros()) * weights[my_rank()] / sum;
  EXPECT_NEAR(static_cast<double>(a.local_nonzeros()), want, 7.0);
}

TEST(SparseMatrix, BadInputRaisesOnEveryRank) {
  // Only the last rank passes bad data; every rank must see the error.
  const bool last = my_rank() == rank_count() - 1;
  const std::int64_t n = rank_count();
  std::vector<std::int64_t> ptr{0, 1}, cols{last ? n : 0};
  std::vector<double> vals{1.0};
  auto build = [&] { Matrix<double>(MPI_COMM_WORLD, n, ptr, cols, vals); };
  EXPECT_EQ(tseig::test::error_of(build).code(), ErrorCode::invalid_argument);
  cols[0] = 0;
  vals[0] = last ? std::nan("") : 1.0;
  EXPECT_EQ(tseig::test::error_of(build).code(), ErrorCode::not_finite);
  vals[0] = 1.0;
  ptr[1] = last ? 2 : 1;
  EXPECT_EQ(tseig::test::error_of(build).code(), ErrorCode::invalid_argument);
  ptr[1] = 1;
  EXPECT_EQ(
      tseig::test::error_of([&] { Matrix<double>(MPI_COMM_WORLD, n + 1, ptr, cols, vals); }).code(),
      ErrorCode::invalid_argument);
  SparseTuneParameters sell;
  sell.format = SparseFormat::sell_c_sigma;
  sell.sell_sigma = 3;
  sell.sell_chunk = 2;
  EXPECT_EQ(tseig::test::error_of([&] {
              Matrix<double>(MPI_COMM_WORLD, n, ptr, cols, vals, sell);
            }).code(),
            ErrorCode::invalid_argument);
  // Weights whose sum is not finite put every row on the last rank (inf/inf cut points).
  for (double big : {std::numeric_limits<double>::infinity(), 1e308}) {
    if (!std::isinf(big) && rank_count() == 1) continue;  // one 1e308 sums to itself
    std::vector<double> weights(rank_count(), big);
    EXPECT_EQ(tseig::test::error_of([&] {
                laplacian_3d<double>(MPI_COMM_WORLD, 4, 4, 4, {}, weights);
              }).code(),
              ErrorCode::invalid_argument);
  }
  // Ranks that pass different weights (or only some of them weights) are told so; before,
  // each cut by its own and the rows went where none had asked.
  if (rank_count() > 1) {
    std::vector<double> mine(rank_count(), 1.0);
    if (my_rank() == 1) mine[0] = 5;
    for (bool some_without : {false, true}) {
      const std::vector<double> weights =
          some_without && my_rank() == 0 ? std::vector<double>{} : mine;
      const Error e = tseig::test::error_of(
          [&] { laplacian_3d<double>(MPI_COMM_WORLD, 4, 4, 4, {}, weights); });
      EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
      EXPECT_NE(std::string(e.what()).find("different"), std::string::npos) << e.what();
    }
  }
}

// A matrix the eigensolvers are given must be Hermitian: tridiagonal, row i's entries
// (i, i ± 1) built by a rule each test breaks at one pair, whose rows may lie on
// different ranks. Before, nothing looked and the solvers returned whatever the
// iteration gave (the reader alone refused such files).
template <class T>
Matrix<T> tridiagonal_with(std::int64_t n, std::function<T(std::int64_t, std::int64_t)> entry) {
  const std::int64_t first = n * my_rank() / rank_count(),
                     last = n * (my_rank() + 1) / rank_count();
  std::vector<std::int64_t> ptr{0}, cols;
  std::vector<T> vals;
  for (std::int64_t i = first; i < last; ++i) {
    for (std::int64_t j = std::max<std::int64_t>(0, i - 1); j <= std::min(n - 1, i + 1); ++j)
      if (const T v = entry(i, j); v != T(0)) {
        cols.push_back(j);
        vals.push_back(v);
      }
    ptr.push_back(static_cast<std::int64_t>(cols.size()));
  }
  return Matrix<T>(MPI_COMM_WORLD, n, ptr, cols, vals);
}

TEST(SparseMatrix, SolversRefuseNonHermitianMatrices) {
  using Z = std::complex<double>;
  const std::int64_t n = 40, i = 19;  // (19, 20): on two ranks at 2 and 4 ranks
  auto solvers = [](const auto& a) {
    using T = typename std::decay_t<decltype(a)>::value_type;
    LobpcgOptions<T> lobpcg_options;
    lobpcg_options.nev = 2;
    return std::vector<std::function<void()>>{
        [&] { chebfd(a, 1.0, 1.5); }, [&] { chebfd_nearest(a, 1.0, 2); }, [&] { kpm_moments(a); },
        [&] { spectral_bounds(a); },
        [&a, lobpcg_options] { lobpcg(LinearOperator<T>(a), lobpcg_options); }};
  };
  auto expect_refused = [&](const auto& a, const std::string& what) {
    SCOPED_TRACE(what);
    for (const auto& solve : solvers(a)) {  // the verdict is kept: every call refuses
      const Error e = tseig::test::error_of(solve);
      EXPECT_EQ(e.code(), ErrorCode::not_hermitian) << e.what();
      EXPECT_NE(std::string(e.what()).find("not Hermitian"), std::string::npos) << e.what();
      // and names where (later calls once said only "not Hermitian")
      EXPECT_NE(std::string(e.what()).find("0-based (i, j) = ("), std::string::npos) << e.what();
    }
  };
  expect_refused(
      tridiagonal_with<double>(n,
                               [&](std::int64_t r, std::int64_t c) {
                                 return r == c ? 2.0 : r == i && c == i + 1 ? -1.5 : -1.0;
                               }),
      "a(19, 20) = -1.5, a(20, 19) = -1");
  expect_refused(tridiagonal_with<double>(n,
                                          [&](std::int64_t r, std::int64_t c) {
                                            return r == c ? 2.0 : r == i + 1 && c == i ? 0.0 : -1.0;
                                          }),
                 "a(20, 19) missing");
  expect_refused(tridiagonal_with<Z>(
                     n, [&](std::int64_t r, std::int64_t c) { return r == c ? Z(2) : Z(0, 1); }),
                 "complex symmetric, not Hermitian");
  {
    const Error e = tseig::test::error_of([&] {
      chebfd(tridiagonal_with<double>(n,
                                      [&](std::int64_t r, std::int64_t c) {
                                        return r == c ? 2.0 : r == i && c == i + 1 ? -1.5 : -1.0;
                                      }),
             1.0, 1.5);
    });
    EXPECT_NE(std::string(e.what()).find("(19, 20)"), std::string::npos) << e.what();
  }
  // Hermitian ones, and ones off by rounding (below √ε·max|a|), are solved.
  const Matrix<Z> hermitian = tridiagonal_with<Z>(
      n, [&](std::int64_t r, std::int64_t c) { return r == c ? Z(2) : Z(0, r < c ? 1 : -1); });
  EXPECT_NO_THROW(kpm_moments(hermitian));
  const Matrix<double> rounding = tridiagonal_with<double>(n, [&](std::int64_t r, std::int64_t c) {
    return r == c ? 2.0 : r == i && c == i + 1 ? -1.0 - 1e-12 : -1.0;
  });
  EXPECT_NO_THROW(kpm_moments(rounding));
  EXPECT_NO_THROW(chebfd(rounding, 0.0, 0.5));
}

/// A defect written into the random Hermitian matrix: `add` at (row, col), or both of
/// that position's pieces dropped.
template <class T>
struct Defect {
  std::int64_t row, col;
  T add;
  bool remove = false;
};

/// Row i of D + Dᴴ (D the random test matrix: empty rows, far entries, repeats), its two
/// pieces given apart so the constructor sums them, with the defects applied.
template <class T>
std::vector<std::pair<std::int64_t, T>> hermitian_row(const std::vector<T>& d, std::int64_t n,
                                                      std::int64_t i,
                                                      const std::vector<Defect<T>>& defects) {
  std::vector<std::pair<std::int64_t, T>> row;
  for (std::int64_t j = 0; j < n; ++j) {
    const bool removed = std::any_of(defects.begin(), defects.end(), [&](const Defect<T>& f) {
      return f.remove && f.row == i && f.col == j;
    });
    if (removed) continue;
    if (d[i * n + j] != T(0)) row.emplace_back(j, d[i * n + j]);
    if (d[j * n + i] != T(0)) row.emplace_back(j, conj_if_complex(d[j * n + i]));
  }
  for (const Defect<T>& f : defects)
    if (!f.remove && f.row == i) row.emplace_back(f.col, f.add);
  return row;
}

/// The first (r, c), r <= c, where |a(r, c) - conj(a(c, r))| > √ε·max|a|, by a dense scan.
template <class T>
std::string first_mismatch(const std::vector<T>& a, std::int64_t n) {
  double biggest = 0;
  for (const T& v : a) biggest = std::max(biggest, double(std::abs(v)));
  const double tol = std::sqrt(tseig::test::eps<T>()) * biggest;
  for (std::int64_t r = 0; r < n; ++r)
    for (std::int64_t c = r; c < n; ++c)
      if (!(double(std::abs(a[r * n + c] - conj_if_complex(a[c * n + r]))) <= tol))
        return "(" + std::to_string(r) + ", " + std::to_string(c) + ")";
  return {};
}

template <class T>
class SparseHermitianCheck : public ::testing::Test {};
TYPED_TEST_SUITE(SparseHermitianCheck, tseig::test::ScalarTypes);

// The check compares the pairs inside a rank's own block in place and exchanges only
// halo entries: its verdict and first position must be a dense scan's, for defects
// inside a block and across ranks, on unequal partitions (rank 0 holds no rows at more
// than one rank), in CRS and in SELL-C-σ.
TYPED_TEST(SparseHermitianCheck, MatchesADenseScan) {
  using T = TypeParam;
  const std::int64_t n = 37;
  const int p = rank_count(), me = my_rank();
  auto start = [&](int r) {  // rank r holds rows in proportion to r
    return p == 1 ? std::int64_t(0) : n * (r * (r - 1) / 2) / (p * (p - 1) / 2);
  };
  const std::int64_t first = start(me), last = me + 1 == p ? n : start(me + 1);
  SparseTuneParameters crs, sell;
  sell.format = SparseFormat::sell_c_sigma;
  sell.sell_chunk = 4;
  sell.sell_sigma = 8;
  const real_t<T> tiny = 1e-3f * std::sqrt(std::numeric_limits<real_t<T>>::epsilon());
  T unit = T(1);  // i where T is complex: an imaginary diagonal entry breaks Hermitian
  if constexpr (is_complex_v<T>) unit = T(0, 1);
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const std::vector<T> d = random_dense<T>(n, seed);
    std::vector<std::pair<std::int64_t, std::int64_t>> pairs;  // off-diagonal nonzeros
    for (std::int64_t i = 0; i < n; ++i)
      for (const auto& [j, v] : hermitian_row<T>(d, n, i, {}))
        if (j != i) pairs.emplace_back(i, j);
    auto pick = [&](int k) { return pairs[random_bits(seed, 77, k) % pairs.size()]; };
    auto anywhere = [&](int k) { return std::int64_t(random_bits(seed, 78, k) % n); };
    const auto [r1, c1] = pick(1);
    const auto [r2, c2] = pick(2);
    const std::vector<std::vector<Defect<T>>> cases{
        {},
        {{r1, c1, T(0.1)}},
        {{r1, c1, T(0), true}},
        {{anywhere(1), anywhere(2), T(0.1)}},
        {{anywhere(3), anywhere(3), T(0.1) * unit}},
        {{r1, c1, T(0.1)}, {r2, c2, T(0), true}, {anywhere(4), anywhere(5), T(-0.1)}},
        {{r1, c1, T(tiny)}, {r2, c2, T(tiny)}}};
    for (std::size_t k = 0; k < cases.size(); ++k) {
      std::vector<T> dense(n * n, T(0));
      std::vector<std::int64_t> ptr{0}, cols;
      std::vector<T> vals;
      for (std::int64_t i = 0; i < n; ++i) {
        for (const auto& [j, v] : hermitian_row<T>(d, n, i, cases[k])) {
          dense[i * n + j] += v;
          if (i < first || i >= last) continue;
          cols.push_back(j);
          vals.push_back(v);
        }
        if (i >= first && i < last) ptr.push_back(static_cast<std::int64_t>(cols.size()));
      }
      const std::string expected = first_mismatch(dense, n);
      for (const SparseTuneParameters& tune : {crs, sell}) {
        SCOPED_TRACE("seed " + std::to_string(seed) + ", case " + std::to_string(k) +
                     (tune.format == SparseFormat::crs ? ", CRS" : ", SELL") + ", expected " +
                     (expected.empty() ? "Hermitian" : expected));
        const Matrix<T> a(MPI_COMM_WORLD, n, ptr, cols, vals, tune);
        if (expected.empty()) {
          EXPECT_NO_THROW(spectral_bounds(a));
          continue;
        }
        const Error e = tseig::test::error_of([&] { spectral_bounds(a); });
        EXPECT_EQ(e.code(), ErrorCode::not_hermitian) << e.what();
        EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
      }
    }
  }
}

TEST(SparseMatrix, HaloHoldsExactlyTheRemoteColumns) {
  // 1D chain: every rank with rows reads one row from each neighbouring rank with rows.
  const auto a = laplacian_3d<double>(MPI_COMM_WORLD, 64, 1, 1);
  const bool has_left = a.first_row() > 0 && a.local_rows() > 0;
  const bool has_right = a.first_row() + a.local_rows() < a.rows() && a.local_rows() > 0;
  EXPECT_EQ(a.halo_rows(), static_cast<int>(has_left) + static_cast<int>(has_right));
}

template <class T>
class SparseMultiVector : public ::testing::Test {};
TYPED_TEST_SUITE(SparseMultiVector, tseig::test::ScalarTypes);

TYPED_TEST(SparseMultiVector, BlockOperationsMatchDense) {
  using T = TypeParam;
  const auto a = laplacian_3d<T>(MPI_COMM_WORLD, 5, 4, 3);
  const int m = 3, n = 5;
  MultiVector<T> x(a.vector_layout(), m), y(a.vector_layout(), n);
  x.fill_random(1);
  y.fill_random(2);
  const std::vector<T> xg = gather_rows(x), yg = gather_rows(y);
  const std::int64_t rows = a.rows();
  const double tol = 100 * tseig::test::eps<T>() * static_cast<double>(rows);

  const std::vector<T> g = gram(x, y);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      T ref(0);
      for (std::int64_t r = 0; r < rows; ++r) ref += conj_if_complex(xg[r * m + i]) * yg[r * n + j];
      EXPECT_LE(std::abs(g[i + j * m] - ref), tol);
    }
  const std::vector<real_t<T>> norms = column_norms(y);
  for (int j = 0; j < n; ++j)  // entries have modulus 1
    EXPECT_NEAR(norms[j], std::sqrt(static_cast<double>(rows)), tol);

  std::vector<T> s(m * n);
  for (std::size_t k = 0; k < s.size(); ++k) s[k] = random_value<T>(k);
  multiply(x, std::span<const T>(s), y);
  const std::vector<T> product = gather_rows(y);
  for (std::int64_t r = 0; r < rows; ++r)
    for (int j = 0; j < n; ++j) {
      T ref(0);
      for (int i = 0; i < m; ++i) ref += xg[r * m + i] * s[i + j * m];
      EXPECT_LE(std::abs(product[r * n + j] - ref), tol);
    }

  const MultiVector<T> x0 = x.view(0, 1), x2 = x.view(2, 1);
  axpby(T(2), x0, T(-1), x2);
  const std::vector<T> updated = gather_rows(x);
  for (std::int64_t r = 0; r < rows; ++r) {
    EXPECT_LE(std::abs(updated[r * m + 2] - (T(2) * xg[r * m] - xg[r * m + 2])), tol);
    EXPECT_EQ(updated[r * m + 1], xg[r * m + 1]);
  }
}

// A packed block is its parent's storage with its own row stride, and a kernel gives on
// it what it gives on a separate block of that width (its halo fits too).
TEST(SparseMultiVector, PackedBlockIsContiguousOnTheSameStorage) {
  const auto a = laplacian_3d<double>(MPI_COMM_WORLD, 6, 5, 4);
  const MultiVector<double> parent(a.vector_layout(), 8);
  MultiVector<double> narrow = parent.packed(3), x(a.vector_layout(), 3);
  EXPECT_EQ(narrow.data(), parent.data());
  EXPECT_EQ(narrow.cols(), 3);
  EXPECT_EQ(narrow.ld(), 3);
  x.fill_random(5);
  narrow.assign(x);
  if (a.local_rows() > 1) {
    EXPECT_EQ(parent(0, 3), x(1, 0));  // row 1 of the packed block follows row 0
  }
  MultiVector<double> from_packed(a.vector_layout(), 3), from_block(a.vector_layout(), 3);
  spmmv(a, narrow, from_packed);
  spmmv(a, x, from_block);
  for (int i = 0; i < a.local_rows(); ++i)
    for (int j = 0; j < 3; ++j) EXPECT_EQ(from_packed(i, j), from_block(i, j));
  EXPECT_EQ(tseig::test::error_of([&] { (void)parent.view(1, 4).packed(2); }).code(),
            ErrorCode::invalid_argument);
  EXPECT_EQ(tseig::test::error_of([&] { (void)parent.packed(9); }).code(),
            ErrorCode::invalid_argument);
}

TEST(SparseMultiVector, RandomBlockIsTheSameForAnyRankCount) {
  const auto a = laplacian_3d<double>(MPI_COMM_WORLD, 7, 5, 3);
  MultiVector<std::complex<double>> x(a.vector_layout(), 3);
  x.fill_random(42);
  const auto all = gather_rows(x);
  // A single-rank layout of the same rows gives the same block.
  const VectorLayout whole{
      .comm = MPI_COMM_SELF, .global_rows = a.rows(), .local_rows = static_cast<int>(a.rows())};
  MultiVector<std::complex<double>> single(whole, 3);
  single.fill_random(42);
  for (std::int64_t r = 0; r < a.rows(); ++r)
    for (int j = 0; j < 3; ++j) EXPECT_EQ(all[r * 3 + j], single(static_cast<int>(r), j));
}

}  // namespace
}  // namespace tseig::sparse::test
