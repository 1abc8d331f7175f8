// The stages against LAPACK on the gathered matrix, typed over Device: the reductions
// (one-stage tridiagonalize; two-stage reduce_to_band + bulge_chase) keep A's
// eigenvalues, their back-transforms turn the tridiagonal matrix's eigenvectors into
// A's, and the tridiagonalization's tile kernel matches two GEMVs.
#include <gtest/gtest.h>

#include <random>

#include "core/blas/host.hpp"
#include "dense/stages/backtransform_band/api.hpp"
#include "dense/stages/backtransform_householder/api.hpp"
#include "dense/stages/bulge_chase/api.hpp"
#include "dense/stages/reduce_to_band/api.hpp"
#include "dense/stages/tridiagonalize/api.hpp"
#include "dense/stages/tridiagonalize/hermitian_tile_product.hpp"
#include "device_cases.hpp"
#include "test_util.hpp"

namespace tseig::test {
namespace {

template <class Case>
class StageTest : public ::testing::Test {};
TYPED_TEST_SUITE(StageTest, DeviceScalarTypes);

// The checks of a reduction to the tridiagonal tridiag(e, d, e) of A: its eigenvalues are
// A's (LAPACK's on the gathered A), and backtransform(Z), applied to its eigenvectors in
// Z (N×N, blocked nb), makes them A's eigenvectors: residual and orthogonality at roundoff.
template <class T, class Backtransform>
void check_reduction(const DistMatrix<T>& A, std::vector<real_t<T>> d, std::vector<real_t<T>> e,
                     Backtransform&& backtransform) {
  using R = real_t<T>;
  const Grid& grid = A.grid();
  const int n = A.n();
  std::vector<R> ref;
  std::vector<T> full = A.gather(0);
  if (grid.rank() == 0) ref = lapack_eigenvalues<T>(full, n);
  std::vector<R> x(static_cast<std::size_t>(n) * n);
  e.resize(std::max(n, 1));
  ASSERT_EQ(lapack::stedc<R>('I', n, d.data(), e.data(), x.data(), n), 0);
  const double tol = accuracy_tolerance<T>(n);
  if (!ref.empty()) {
    EXPECT_LE(accuracy::eigenvalue_error(d, ref), tol);
  }

  std::vector<T> xt(x.begin(), x.end());
  DistMatrix<T> Z(grid, n, n, A.nb(), A.nb());
  Z.scatter(xt.data(), 0);
  backtransform(Z);
  EXPECT_LE(accuracy::residual(A, d, Z), tol);
  EXPECT_LE(accuracy::orthogonality(Z, n), tol);
}

// tridiagonalize, then backtransform_householder of the tridiagonal matrix's
// eigenvectors: eigenvalues as LAPACK's, residual and orthogonality at roundoff.
template <Device D, class T>
void check_tridiagonalize_and_backtransform() {
  for (const Grid& grid : test_grids())
    for (auto [n, nb] : {std::pair{1, 1}, {2, 1}, {37, 4}, {150, 16}, {150, 7}}) {
      SCOPED_TRACE("grid " + shape_name(grid) + " N=" + std::to_string(n) +
                   " nb=" + std::to_string(nb));
      DistMatrix<T> A(grid, n, n, nb);
      generate::random_hermitian(A, 7 + n);
      DistMatrix<T> W = A.clone();
      dense::Tridiagonal<T> tri = dense::tridiagonalize<D>(W);
      ASSERT_EQ(static_cast<int>(tri.d.size()), n);
      ASSERT_EQ(static_cast<int>(tri.e.size()), std::max(n - 1, 0));
      check_reduction(A, tri.d, tri.e, [&](DistMatrix<T>& Z) {
        dense::backtransform_householder<D>(W, tri.tau, 1, Z, n, TuneParameters{});
      });
    }
}

TYPED_TEST(StageTest, TridiagonalizeAndBacktransformHouseholder) {
  if constexpr (TypeParam::device == Device::cuda)
    GTEST_SKIP() << cuda_skip_reason();
  else
    check_tridiagonalize_and_backtransform<TypeParam::device, typename TypeParam::type>();
}

// Two-stage: reduce_to_band, bulge_chase, then backtransform_band and
// backtransform_householder of the tridiagonal matrix's eigenvectors.
template <Device D, class T>
void check_two_stage_stages() {
  for (const Grid& grid : test_grids())
    for (auto [n, nb, b] : {std::tuple{2, 1, 1}, {37, 4, 8}, {150, 8, 16}, {150, 16, 16}}) {
      SCOPED_TRACE("grid " + shape_name(grid) + " N=" + std::to_string(n) +
                   " nb=" + std::to_string(nb) + " b=" + std::to_string(b));
      DistMatrix<T> A(grid, n, n, nb);
      generate::random_hermitian(A, 11 + n);
      DistMatrix<T> W = A.clone();
      const std::vector<T> tau = dense::reduce_to_band<D>(W, b);
      const int bw = std::min(b, n - 1);
      const dense::BandReflectors<T> q =
          dense::bulge_chase(dense::gather_band(W, bw), n, bw, grid.comm());
      check_reduction(A, q.d, q.e, [&](DistMatrix<T>& Z) {
        dense::backtransform_band<D>(q, Z, n, TuneParameters{});
        dense::backtransform_householder<D>(W, tau, b, Z, n, TuneParameters{});
      });
    }
}

TYPED_TEST(StageTest, ReduceToBandBulgeChaseAndBacktransforms) {
  if constexpr (TypeParam::device == Device::cuda)
    GTEST_SKIP() << cuda_skip_reason();
  else
    check_two_stage_stages<TypeParam::device, typename TypeParam::type>();
}

// yrow += a·xcol and ycol += aᴴ·xrow against two GEMVs, on tiles with odd shapes.
template <class T>
void check_hermitian_tile_product() {
  std::mt19937 gen(3);
  std::uniform_real_distribution<double> u(-1, 1);
  auto random = [&] {
    if constexpr (is_complex_v<T>)
      return T(u(gen), u(gen));
    else
      return T(u(gen));
  };
  for (auto [m, n, lda] : {std::tuple{1, 1, 1}, {7, 5, 9}, {64, 33, 64}, {130, 70, 131}}) {
    std::vector<T> a(static_cast<std::size_t>(lda) * n), xcol(n), xrow(m), yrow(m), ycol(n);
    for (T& v : a) v = random();
    for (T& v : xcol) v = random();
    for (T& v : xrow) v = random();
    for (T& v : yrow) v = random();
    for (T& v : ycol) v = random();
    std::vector<T> yrow_ref = yrow, ycol_ref = ycol;
    blas::gemv('N', m, n, T(1), a.data(), lda, xcol.data(), 1, T(1), yrow_ref.data(), 1);
    blas::gemv('C', m, n, T(1), a.data(), lda, xrow.data(), 1, T(1), ycol_ref.data(), 1);
    dense::hermitian_tile_product(m, n, a.data(), lda, xcol.data(), xrow.data(), yrow.data(),
                                  ycol.data());
    double err = 0;
    for (int i = 0; i < m; ++i) err = std::max(err, double(std::abs(yrow[i] - yrow_ref[i])));
    for (int j = 0; j < n; ++j) err = std::max(err, double(std::abs(ycol[j] - ycol_ref[j])));
    EXPECT_LE(err, 8.0 * std::max(m, n) * eps<T>()) << m << "x" << n;
  }
}

TYPED_TEST(StageTest, HermitianTileProduct) {
  if constexpr (TypeParam::device == Device::cuda)
    GTEST_SKIP() << cuda_skip_reason();
  else
    check_hermitian_tile_product<typename TypeParam::type>();
}

}  // namespace
}  // namespace tseig::test
