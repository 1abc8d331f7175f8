// The stages against LAPACK on the gathered matrix, typed over Device: the reductions
// (one-stage tridiagonalize; two-stage reduce_to_band + bulge_chase) keep A's
// eigenvalues, their back-transforms turn the tridiagonal matrix's eigenvectors into
// A's, and the tridiagonalization's tile kernel matches two GEMVs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "core/blas/host.hpp"
#include "dense/stages/backtransform_band/api.hpp"
#include "dense/stages/backtransform_householder/api.hpp"
#include "dense/stages/bulge_chase/api.hpp"
#include "dense/stages/divide_conquer/api.hpp"
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

// backtransform_householder's two ways (TuneParameters::householder_kernel: compact-WY
// GEMMs, or the reflector-group kernel on one process row; elsewhere both are the GEMMs)
// give the same Q·Z to roundoff: the reflectors of tridiagonalize (offset 1) and of
// reduce_to_band (offset b), all columns of Z or some, WY blocks whose width is not a
// multiple of the group of four (nb = 7: 14-reflector blocks).
template <class T>
void check_householder_kernels_agree() {
  for (const Grid& grid : test_grids())
    for (auto [n, nb, b, ncols] : {std::tuple{1, 1, 1, 1},
                                   {2, 1, 1, 2},
                                   {37, 4, 8, 37},
                                   {150, 7, 14, 150},
                                   {150, 16, 16, 23}})
      for (bool band : {false, true}) {
        SCOPED_TRACE("grid " + shape_name(grid) + " N=" + std::to_string(n) + " nb=" +
                     std::to_string(nb) + (band ? " b=" + std::to_string(b) : " tridiagonal") +
                     " ncols=" + std::to_string(ncols));
        DistMatrix<T> W(grid, n, n, nb);
        generate::random_hermitian(W, 3 + n);
        const int offset = band ? b : 1;
        const std::vector<T> tau = band ? dense::reduce_to_band<Device::host>(W, b)
                                        : dense::tridiagonalize<Device::host>(W).tau;
        DistMatrix<T> Z(grid, n, n, nb, nb);
        generate::random_hermitian(Z, 5 + n);
        std::vector<T> out[2];
        for (int kernel : {1, 2}) {
          DistMatrix<T> Zk = Z.clone();
          TuneParameters tune;
          tune.householder_kernel = kernel;
          tune.wy_width = 2 * nb;
          dense::backtransform_householder<Device::host>(W, tau, offset, Zk, ncols, tune);
          out[kernel - 1] = Zk.gather(0);
        }
        if (grid.rank() != 0) continue;
        double diff = 0, size = 0;
        for (std::size_t i = 0; i < out[0].size(); ++i) {
          diff = std::max(diff, static_cast<double>(std::abs(out[0][i] - out[1][i])));
          size = std::max(size, static_cast<double>(std::abs(out[0][i])));
        }
        EXPECT_LE(diff, accuracy_tolerance<T>(n) * std::max(size, 1.0));
      }
}

TYPED_TEST(StageTest, HouseholderKernelsAgree) {
  if constexpr (TypeParam::device == Device::cuda)
    GTEST_SKIP() << cuda_skip_reason();
  else
    check_householder_kernels_agree<typename TypeParam::type>();
}

// One merge of the two torn halves of tridiag(e, d, e) (each solved by LAPACK ?stedc):
// eigenvalues as ?stedc's of the whole, eigenvectors with residual and orthogonality at
// roundoff. `repeats`: d drawn from a few values and some e negligible, so that most
// of the merge deflates.
template <Device D, class R>
void check_merge(int n, bool repeats) {
  std::mt19937 gen(5 + n);
  std::uniform_real_distribution<R> u(-1, 1);
  std::vector<R> d(n), e(n, R(0));
  for (int i = 0; i < n; ++i) d[i] = repeats ? std::round(3 * u(gen)) / 3 : u(gen);
  for (int i = 0; i + 1 < n; ++i) e[i] = repeats && i % 3 == 0 ? R(1e-30) : u(gen);
  const int mid = n / 2;
  std::vector<R> torn = d;  // Cuppen's tearing: T = blockdiag(T1, T2) + β·v·vᵀ
  torn[mid - 1] -= std::abs(e[mid - 1]);
  torn[mid] -= std::abs(e[mid - 1]);
  std::vector<dense::dc::Piece<R>> halves(2);
  for (int h = 0; h < 2; ++h) {
    dense::dc::Piece<R>& p = halves[h];
    p.lo = p.row0 = h == 0 ? 0 : mid;
    p.hi = h == 0 ? mid : n;
    p.rows = p.cols = p.hi - p.lo;
    p.w.assign(torn.begin() + p.lo, torn.begin() + p.hi);
    std::vector<R> sub(p.rows, R(0));
    std::copy(e.begin() + p.lo, e.begin() + p.hi - 1, sub.begin());
    p.q.resize(static_cast<std::size_t>(p.rows) * p.rows);
    ASSERT_EQ(lapack::stedc<R>('I', p.rows, p.w.data(), sub.data(), p.q.data(), p.rows), 0);
  }
  const dense::dc::Piece<R> out = dense::dc::merge<D>(MPI_COMM_NULL, std::move(halves), 0, mid, n,
                                                      e[mid - 1], 0, n, 0, TuneParameters{});
  ASSERT_FALSE(out.failed);
  ASSERT_EQ(out.rows, n);
  ASSERT_EQ(out.cols, n);

  std::vector<R> ref = d, sub = e;
  ASSERT_EQ(lapack::stedc<R>('N', n, ref.data(), sub.data(), nullptr, 1), 0);
  const double tol = accuracy_tolerance<R>(n);
  EXPECT_LE(accuracy::eigenvalue_error(out.w, ref), tol);
  double scale = 0, residual = 0, orthogonality = 0;
  for (R x : ref) scale = std::max(scale, double(std::abs(x)));
  for (int j = 0; j < n; ++j) {
    const R* q = out.q.data() + static_cast<std::size_t>(j) * n;
    for (int i = 0; i < n; ++i) {
      R tq = d[i] * q[i] - out.w[j] * q[i];
      if (i > 0) tq += e[i - 1] * q[i - 1];
      if (i + 1 < n) tq += e[i] * q[i + 1];
      residual = std::max(residual, double(std::abs(tq)) / scale);
    }
    for (int k = 0; k <= j; ++k) {
      double dot = 0;
      for (int i = 0; i < n; ++i) dot += double(q[i]) * out.q[i + static_cast<std::size_t>(k) * n];
      orthogonality = std::max(orthogonality, std::abs(dot - (k == j ? 1.0 : 0.0)));
    }
  }
  EXPECT_LE(residual, tol);
  EXPECT_LE(orthogonality, tol);
}

TYPED_TEST(StageTest, DivideConquerDeflationAndMerge) {
  using R = real_t<typename TypeParam::type>;
  if constexpr (TypeParam::device == Device::cuda)
    GTEST_SKIP() << cuda_skip_reason();
  else
    for (int n : {2, 3, 40, 97})
      for (bool repeats : {false, true}) {
        SCOPED_TRACE("N=" + std::to_string(n) + (repeats ? " deflating" : ""));
        check_merge<TypeParam::device, R>(n, repeats);
      }
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
