// spmmv, aug_spmmv, chebfd_op and the Chebyshev series against a dense reference on a
// random matrix with empty rows, one-entry rows and rows whose entries are all remote;
// widths with and without specialised code; equal and unequal row blocks, ranks without
// rows; CRS and SELL-C-σ.
#include <gtest/gtest.h>

#include <limits>

#include "sparse/kernels/chebyshev_sum.hpp"

#include "sparse_reference.hpp"
#include "test_util.hpp"
#include "tseig/sparse/generators.hpp"

namespace tseig::sparse::test {
namespace {

constexpr std::int64_t kOrder = 37;
constexpr std::uint64_t kSeed = 11;

/// My first row and row count for partition variant v: equal blocks, unequal blocks with
/// rank 0 empty, everything on the last rank.
std::pair<std::int64_t, std::int64_t> my_rows(int variant) {
  int ranks = 0, me = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  std::vector<std::int64_t> cut(ranks + 1, 0);
  std::int64_t total_weight = 0;
  std::vector<std::int64_t> w(ranks);
  for (int r = 0; r < ranks; ++r) {
    w[r] = variant == 0 ? 1 : variant == 1 ? (r == 0 && ranks > 1 ? 0 : r + 1) : r == ranks - 1;
    total_weight += w[r];
  }
  std::int64_t acc = 0;
  for (int r = 0; r < ranks; ++r) {
    acc += w[r];
    cut[r + 1] = kOrder * acc / total_weight;
  }
  return {cut[me], cut[me + 1] - cut[me]};
}

std::vector<SparseTuneParameters> formats() {
  // On one node the interior rows are swept while the halo travels only when asked for
  // (overlap_halo = 1): both paths are checked, and CRS with its prefetches forced on at
  // every width (X rows and row streams: prefetch_x = 2 runs every prefetch path) and off.
  SparseTuneParameters crs, crs_overlap, crs_prefetch, crs_no_prefetch, sell_small, sell_warp;
  crs_overlap.overlap_halo = sell_small.overlap_halo = 1;
  crs_prefetch.prefetch_x = 2;
  crs_no_prefetch.prefetch_x = 0;
  sell_small.format = sell_warp.format = SparseFormat::sell_c_sigma;
  sell_small.sell_chunk = 4;
  sell_small.sell_sigma = 8;
  sell_warp.sell_chunk = 32;
  sell_warp.sell_sigma = 32;
  return {crs, crs_overlap, crs_prefetch, crs_no_prefetch, sell_small, sell_warp};
}

/// Row-major product of the dense n × n matrix and an n × nb block.
template <class T>
std::vector<T> dense_product(const std::vector<T>& a, const std::vector<T>& x, int nb) {
  std::vector<T> y(kOrder * nb, T(0));
  for (std::int64_t i = 0; i < kOrder; ++i)
    for (std::int64_t c = 0; c < kOrder; ++c)
      for (int k = 0; k < nb; ++k) y[i * nb + k] += a[i * kOrder + c] * x[c * nb + k];
  return y;
}

/// Per-column Σ conj(a)·b of row-major blocks.
template <class T>
std::vector<T> dense_dots(const std::vector<T>& a, const std::vector<T>& b, int nb) {
  std::vector<T> d(nb, T(0));
  for (std::size_t i = 0; i < a.size(); ++i) d[i % nb] += conj_if_complex(a[i]) * b[i];
  return d;
}

template <class T>
double tolerance(const std::vector<T>& ref) {
  double scale = 1;
  for (const T& v : ref) scale = std::max(scale, static_cast<double>(std::abs(v)));
  return 200 * tseig::test::eps<T>() * scale;
}

template <class T>
class SparseKernels : public ::testing::Test {};
TYPED_TEST_SUITE(SparseKernels, tseig::test::ScalarTypes);

template <class T>
T scalar(int seed, bool real_part_only) {
  const T v = random_value<T>(seed);
  if constexpr (tseig::is_complex_v<T>)
    if (real_part_only) return T(v.real());
  return v;
}

TYPED_TEST(SparseKernels, MatchDenseReference) {
  using T = TypeParam;
  const std::vector<T> dense = random_dense<T>(kOrder, kSeed);
  // Complex types: complex scalars, and real ones (the kernels' one-multiply path).
  for (const bool real_scalars : {false, tseig::is_complex_v<T>})
    for (int variant = 0; variant < 3; ++variant)
      for (const SparseTuneParameters& tune : formats()) {
        const auto [first, local] = my_rows(variant);
        const Matrix<T> a = random_matrix<T>(MPI_COMM_WORLD, kOrder, kSeed, first, local, tune);
        const T alpha = scalar<T>(1, real_scalars), beta = scalar<T>(2, real_scalars),
                gamma = scalar<T>(3, real_scalars), c = scalar<T>(4, real_scalars);
        // Widths above 64 are cut into panels (64 + 2 + 1 for 67).
        for (int nb : {1, 2, 3, 4, 5, 8, 16, 32, 64, 67}) {
          SCOPED_TRACE("variant " + std::to_string(variant) + ", chunk " +
                       std::to_string(tune.sell_chunk) + ", nb " + std::to_string(nb) +
                       (real_scalars ? ", real scalars" : ""));
          // X is a view inside a wider block (row stride ≠ width: halo rows are copied in)
          // for odd widths, a whole block (halo rows received in place) for even ones.
          const int margin = nb % 2 ? 3 : 0;
          MultiVector<T> wide(a.vector_layout(), nb + margin), y(a.vector_layout(), nb),
              z(a.vector_layout(), nb);
          wide.fill_random(5);
          const MultiVector<T> x = wide.view(margin ? 2 : 0, nb);
          y.fill_random(6);
          z.fill_random(7);
          const std::vector<T> xg = gather_rows(x), yg = gather_rows(y), zg = gather_rows(z);
          const std::vector<T> ax = dense_product(dense, xg, nb);

          MultiVector<T> out(a.vector_layout(), nb);
          spmmv(a, x, out);
          EXPECT_LE(max_difference(gather_rows(out), ax), tolerance(ax));

          for (const T g : {T(0), gamma}) {
            std::vector<T> ref(ax.size()), xx(nb), yx(nb);
            for (std::size_t k = 0; k < ax.size(); ++k)
              ref[k] = alpha * (ax[k] - beta * xg[k]) + g * yg[k];
            out.assign(y);
            aug_spmmv(a, alpha, beta, x, g, out, std::span<T>(xx), std::span<T>(yx));
            sum_over_ranks(MPI_COMM_WORLD, std::span<T>(xx));
            sum_over_ranks(MPI_COMM_WORLD, std::span<T>(yx));
            EXPECT_LE(max_difference(gather_rows(out), ref), tolerance(ref));
            const std::vector<T> xx_ref = dense_dots(xg, xg, nb), yx_ref = dense_dots(ref, xg, nb);
            EXPECT_LE(max_difference(xx, xx_ref), tolerance(xx_ref));
            EXPECT_LE(max_difference(yx, yx_ref), tolerance(yx_ref));
          }

          std::vector<T> w_ref(ax.size()), x_ref(ax.size()), eta(nb), mu(nb);
          for (std::size_t k = 0; k < ax.size(); ++k) {
            w_ref[k] = T(2) * alpha * (ax[k] - beta * xg[k]) - yg[k];
            x_ref[k] = zg[k] + c * w_ref[k];
          }
          out.assign(y);
          chebfd_op(a, alpha, beta, x, out, c, z, std::span<T>(eta), std::span<T>(mu));
          sum_over_ranks(MPI_COMM_WORLD, std::span<T>(eta));
          sum_over_ranks(MPI_COMM_WORLD, std::span<T>(mu));
          EXPECT_LE(max_difference(gather_rows(out), w_ref), tolerance(w_ref));
          EXPECT_LE(max_difference(gather_rows(z), x_ref), tolerance(x_ref));
          const std::vector<T> eta_ref = dense_dots(w_ref, xg, nb), mu_ref = dense_dots(xg, xg, nb);
          EXPECT_LE(max_difference(eta, eta_ref), tolerance(eta_ref));
          EXPECT_LE(max_difference(mu, mu_ref), tolerance(mu_ref));
        }
      }
}

// The series touches its sum every third step with up to three terms: every degree
// from 0 to 8 ends the grouping differently. The sum starts as NaN (assigned, not read).
TYPED_TEST(SparseKernels, ChebyshevSumMatchesRecurrence) {
  using T = TypeParam;
  using R = tseig::real_t<T>;
  const std::vector<T> dense = random_dense<T>(kOrder, kSeed);
  const double center = 0.25, half = 2.0 * kOrder;  // |t| ≤ 1: the terms stay bounded
  for (int variant = 0; variant < 3; ++variant)
    for (const SparseTuneParameters& tune : formats()) {
      const auto [first, local] = my_rows(variant);
      const Matrix<T> a = random_matrix<T>(MPI_COMM_WORLD, kOrder, kSeed, first, local, tune);
      for (int nb : {1, 3, 8})
        for (int degree = 0; degree <= 8; ++degree) {
          SCOPED_TRACE("variant " + std::to_string(variant) + ", chunk " +
                       std::to_string(tune.sell_chunk) + ", nb " + std::to_string(nb) +
                       ", degree " + std::to_string(degree));
          std::vector<double> c(degree + 1);
          for (int k = 0; k <= degree; ++k) c[k] = 1.0 / (k + 1) - 0.3 * (k % 2);
          MultiVector<T> t0(a.vector_layout(), nb), t1(a.vector_layout(), nb),
              sum(a.vector_layout(), nb);
          t0.fill_random(9);
          for (int i = 0; i < sum.local_rows(); ++i)
            for (int j = 0; j < nb; ++j) sum(i, j) = T(std::numeric_limits<R>::quiet_NaN());
          std::vector<T> previous = gather_rows(t0), current, ref(previous.size());
          for (std::size_t k = 0; k < ref.size(); ++k) ref[k] = T(c[0]) * previous[k];
          for (int k = 1; k <= degree; ++k) {
            const std::vector<T> product = dense_product(dense, k == 1 ? previous : current, nb);
            std::vector<T> next(product.size());
            const std::vector<T>& base = k == 1 ? previous : current;
            for (std::size_t e = 0; e < next.size(); ++e) {
              const T t = (product[e] - T(center) * base[e]) / T(half);
              next[e] = k == 1 ? t : T(2) * t - previous[e];
            }
            if (k > 1) previous = current;
            current = next;
            for (std::size_t e = 0; e < ref.size(); ++e) ref[e] += T(c[k]) * current[e];
          }
          EXPECT_EQ(detail::chebyshev_sum(a, std::span<const double>(c), center, half, t0, t1, sum),
                    degree);
          EXPECT_LE(max_difference(gather_rows(sum), ref), tolerance(ref));
        }
    }
}

// Blocks taking turns a step at a time, each block's halo exchange begun during the sweep
// of the block before it, give the sums of one block at a time, bit for bit: an exchange
// begun before its block's previous step had written the block would send stale rows
// (ranks > 1). The last block is narrower and a view inside a wider one (halo rows
// copied in, not received in place).
TYPED_TEST(SparseKernels, ChebyshevSumsTakingTurnsMatchOneAtATime) {
  using T = TypeParam;
  const double center = 0.25, half = 2.0 * kOrder;
  for (int variant = 0; variant < 3; ++variant)
    for (const SparseTuneParameters& tune : formats()) {
      const auto [first, local] = my_rows(variant);
      const Matrix<T> a = random_matrix<T>(MPI_COMM_WORLD, kOrder, kSeed, first, local, tune);
      for (int blocks = 1; blocks <= 3; ++blocks)
        for (int degree : {0, 1, 2, 5, 8}) {
          SCOPED_TRACE("variant " + std::to_string(variant) + ", chunk " +
                       std::to_string(tune.sell_chunk) + ", blocks " + std::to_string(blocks) +
                       ", degree " + std::to_string(degree));
          std::vector<double> c(degree + 1);
          for (int k = 0; k <= degree; ++k) c[k] = 0.5 - 1.0 / (k + 2);
          std::vector<MultiVector<T>> t0, t1, sum;
          std::vector<detail::ChebyshevSeries<T>> series;
          series.reserve(blocks);
          std::vector<std::vector<T>> expected;
          for (int b = 0; b < blocks; ++b) {
            const int w = b == blocks - 1 && blocks > 1 ? 3 : 8;
            t0.emplace_back(a.vector_layout(), 8);
            t1.emplace_back(a.vector_layout(), 8);
            sum.emplace_back(a.vector_layout(), 8);
            MultiVector<T> u0 = t0[b].view(0, w), u1 = t1[b].view(0, w), s = sum[b].view(0, w);
            u0.fill_random(20 + b);
            MultiVector<T> alone0(a.vector_layout(), w), alone1(a.vector_layout(), w),
                alone_sum(a.vector_layout(), w);
            alone0.assign(u0);
            detail::chebyshev_sum(a, std::span<const double>(c), center, half, alone0, alone1,
                                  alone_sum);
            expected.push_back(gather_rows(alone_sum));
            series.emplace_back(a, std::span<const double>(c), center, half, u0, u1, s);
          }
          detail::chebyshev_sums(std::span<detail::ChebyshevSeries<T>>(series));
          for (int b = 0; b < blocks; ++b)
            EXPECT_EQ(
                max_difference(gather_rows(sum[b].view(0, series[b].input().cols())), expected[b]),
                0.0)
                << "block " << b;
        }
    }
}

TYPED_TEST(SparseKernels, LargeBlocksStoredPastTheCacheMatchPlainStores) {
  // spmmv writes blocks of 8 MiB and more per rank past the cache (kernels/host.cpp):
  // Laplacian 64³ with 128 bytes per block row is 32 MiB of Y on one rank, 8 MiB on each
  // of four. aug_spmmv with α = 1, β = γ = 0 forms the same sums with plain stores.
  using T = TypeParam;
  const int nb = static_cast<int>(128 / sizeof(T));
  const Matrix<T> a = laplacian_3d<T>(MPI_COMM_WORLD, 64, 64, 64);
  MultiVector<T> x(a.vector_layout(), nb), y(a.vector_layout(), nb), z(a.vector_layout(), nb);
  x.fill_random(3);
  y.fill_random(4);  // every entry must be overwritten
  std::vector<T> xx(nb), zx(nb);
  spmmv(a, x, y);
  aug_spmmv(a, T(1), T(0), x, T(0), z, std::span<T>(xx), std::span<T>(zx));
  for (int i = 0; i < y.local_rows(); ++i)
    for (int j = 0; j < nb; ++j) ASSERT_EQ(y(i, j), z(i, j)) << "row " << i << " column " << j;
}

TEST(SparseKernels, WrongOperandLayoutIsAnError) {
  const auto [first, local] = my_rows(0);
  const Matrix<double> a = random_matrix<double>(MPI_COMM_WORLD, kOrder, kSeed, first, local);
  MultiVector<double> x(a.vector_layout(), 2), narrow(a.vector_layout(), 1);
  std::vector<double> d(1);
  EXPECT_EQ(tseig::test::error_of([&] { spmmv(a, x, narrow); }).code(),
            ErrorCode::invalid_argument);
  EXPECT_EQ(tseig::test::error_of([&] {
              aug_spmmv(a, 1.0, 0.0, x, 0.0, x, std::span<double>(d), std::span<double>(d));
            }).code(),
            ErrorCode::invalid_argument);
  // A block of a matrix with other row blocks: rejected on every rank (no rank waits
  // for a halo exchange the others never start).
  int ranks = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (ranks > 1) {
    const auto [first2, local2] = my_rows(2);
    const Matrix<double> b = random_matrix<double>(MPI_COMM_WORLD, kOrder, kSeed, first2, local2);
    MultiVector<double> other(b.vector_layout(), 2), y(a.vector_layout(), 2);
    EXPECT_EQ(tseig::test::error_of([&] { spmmv(a, other, y); }).code(),
              ErrorCode::invalid_argument);
    EXPECT_EQ(tseig::test::error_of([&] { gram(other, y); }).code(), ErrorCode::invalid_argument);
  }
}

}  // namespace
}  // namespace tseig::sparse::test
