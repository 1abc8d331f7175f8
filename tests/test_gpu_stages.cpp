// The CUDA variants of the stages against their host variants on the same input (the
// band reduction, the divide & conquer's merges and the Householder back-transform on
// cuBLAS, the band back-transform's kernel), and whole
// solves with EigensolverOptions::gpu against LAPACK: nev = 1, N/5, N, odd N, bandwidths
// that are not powers of two, every scalar type, every grid shape of the rank count.
// Without a usable GPU the device checks skip with gpu::status()'s reason
// (TSEIG_TEST_REQUIRE_GPU=1 makes that a failure), and the error paths are checked.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <string>

#include "check_solve.hpp"
#include "dense/stages/backtransform_band/api.hpp"
#include "dense/stages/backtransform_householder/api.hpp"
#include "dense/stages/bulge_chase/api.hpp"
#include "dense/stages/reduce_to_band/api.hpp"
#include "dense/stages/tridiagonalize/api.hpp"
#include "dense/tridiagonal_solve.hpp"
#include "test_util.hpp"
#include "tseig/device.hpp"

namespace tseig::test {
namespace {

bool have_gpu() {
  static const bool present = gpu::device_count() > 0;
  return present;
}

#define SKIP_WITHOUT_GPU()                                                         \
  do {                                                                             \
    if (!have_gpu()) {                                                             \
      const char* need = std::getenv("TSEIG_TEST_REQUIRE_GPU");                    \
      if (need && std::string(need) == "1") FAIL() << "no GPU: " << gpu::status(); \
      GTEST_SKIP() << gpu::status();                                               \
    }                                                                              \
  } while (0)

template <class T>
class GpuStages : public ::testing::Test {};
using ScalarTypes = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(GpuStages, ScalarTypes);

// |a − b|_max / max(|b|_max, 1) over this rank's elements, as the largest over all ranks.
template <class T>
double max_difference(const DistMatrix<T>& a, const DistMatrix<T>& b) {
  double diff = 0, scale = 1;
  for (int j = 0; j < a.local_cols(); ++j)
    for (int i = 0; i < a.local_rows(); ++i) {
      diff = std::max(diff, static_cast<double>(std::abs(a.local(i, j) - b.local(i, j))));
      scale = std::max(scale, static_cast<double>(std::abs(b.local(i, j))));
    }
  double r = diff / scale;
  MPI_Allreduce(MPI_IN_PLACE, &r, 1, MPI_DOUBLE, MPI_MAX, a.grid().comm());
  return r;
}

template <class T>
DistMatrix<T> random_columns(const Grid& grid, int n, int ncols, int nb, unsigned seed) {
  DistMatrix<T> Z(grid, n, ncols, nb, nb);
  DistMatrix<T> H(grid, std::max(n, ncols), std::max(n, ncols), nb, nb);
  generate::random_hermitian(H, seed);
  for (int j = 0; j < Z.local_cols(); ++j)
    for (int i = 0; i < Z.local_rows(); ++i) Z.local(i, j) = H.local(i, j);
  return Z;
}

// Stage 1: the band and the reflectors (A's lower triangle) and tau from the CUDA variant
// against the host one; b = nb, several blocks, a last panel shorter than b, b ≥ n.
TYPED_TEST(GpuStages, ReduceToBandMatchesHost) {
  using T = TypeParam;
  SKIP_WITHOUT_GPU();
  for (const Grid& grid : test_grids())
    for (auto [n, nb, b] : {std::tuple{1, 1, 1},
                            {2, 1, 1},
                            {37, 4, 8},
                            {151, 8, 24},
                            {150, 16, 48},
                            {64, 8, 64},
                            {40, 8, 48}}) {
      SCOPED_TRACE("grid " + shape_name(grid) + " N=" + std::to_string(n) +
                   " nb=" + std::to_string(nb) + " b=" + std::to_string(b));
      DistMatrix<T> host(grid, n, n, nb);
      generate::random_hermitian(host, 21 + n);
      DistMatrix<T> cuda = host.clone();
      const std::vector<T> tau_host = dense::reduce_to_band<Device::host>(host, b);
      const std::vector<T> tau_cuda = dense::reduce_to_band<Device::cuda>(cuda, b);
      ASSERT_EQ(tau_cuda.size(), tau_host.size());
      double diff = 0, scale = 1;
      for (std::size_t i = 0; i < tau_host.size(); ++i)
        diff = std::max(diff, static_cast<double>(std::abs(tau_cuda[i] - tau_host[i])));
      for (int lj = 0; lj < host.local_cols(); ++lj)
        for (int li = 0; li < host.local_rows(); ++li)
          if (host.global_row(li) >= host.global_col(lj)) {
            diff = std::max(diff,
                            static_cast<double>(std::abs(cuda.local(li, lj) - host.local(li, lj))));
            scale = std::max(scale, static_cast<double>(std::abs(host.local(li, lj))));
          }
      double r = diff / scale;
      MPI_Allreduce(MPI_IN_PLACE, &r, 1, MPI_DOUBLE, MPI_MAX, grid.comm());
      EXPECT_LE(r, 50 * n * eps<T>());
    }
}

// Stage 3: the divide & conquer with its merges' GEMMs on the GPU (N large enough for
// the top merges to go there, and on one rank a tree split down to the GPU's leaf size)
// against the host variant: eigenvalues and eigenvectors, all of them and N/5 (a
// factored top merge).
TYPED_TEST(GpuStages, TridiagonalSolveMatchesHost) {
  using T = TypeParam;
  using R = real_t<T>;
  SKIP_WITHOUT_GPU();
  for (const Grid& grid : test_grids())
    for (auto [n, nev] : {std::pair{4100, 4100}, {2400, 480}}) {
      SCOPED_TRACE("grid " + shape_name(grid) + " N=" + std::to_string(n) +
                   " nev=" + std::to_string(nev));
      // Delocalised eigenvectors (off-diagonals near 1, weak disorder): little
      // deflation, so the top merges have work for the GPU.
      std::mt19937_64 gen(7 + n);
      std::uniform_real_distribution<double> uniform(-0.1, 0.1);
      std::vector<R> d(n), e(n - 1);
      for (R& x : d) x = R(uniform(gen));
      for (R& x : e) x = R(1 + uniform(gen));
      TuneParameters tune;
      DistMatrix<T> host(grid, n, nev, 32, 32), cuda(grid, n, nev, 32, 32);
      dense::Wanted wanted = dense::Wanted::lowest(nev);
      const auto w_host =
          dense::solve_tridiagonal<Device::host, T>(grid, d, e, wanted, &host, tune);
      const auto w_cuda =
          dense::solve_tridiagonal<Device::cuda, T>(grid, d, e, wanted, &cuda, tune);
      ASSERT_EQ(w_cuda.size(), w_host.size());
      double dw = 0;
      for (std::size_t i = 0; i < w_host.size(); ++i)
        dw = std::max(dw, static_cast<double>(std::abs(w_cuda[i] - w_host[i])));
      EXPECT_LE(dw, 10 * n * eps<T>());
      // The two may split the rows differently (the GPU's deeper tree), so a vector may
      // differ in sign: |z_cudaᴴ·z_host| = 1 for each column, up to the rotations within
      // close eigenvalues (1 − cos θ ≈ θ²/2 with θ ≈ eps·‖T‖/gap: hence the square root).
      std::vector<double> dots(nev, 0.0);
      for (int lj = 0; lj < host.local_cols(); ++lj) {
        T dot = 0;
        for (int li = 0; li < host.local_rows(); ++li)
          dot += conj_if_complex(cuda.local(li, lj)) * host.local(li, lj);
        dots[host.global_col(lj)] = std::real(dot);
      }
      MPI_Allreduce(MPI_IN_PLACE, dots.data(), nev, MPI_DOUBLE, MPI_SUM, grid.comm());
      double worst = 0;
      for (double x : dots) worst = std::max(worst, std::abs(1 - std::abs(x)));
      EXPECT_LE(worst, std::sqrt(n * eps<T>()));
    }
}

// Stage 4: the same reflectors and Z through the host pipeline and the CUDA one. Small
// band_sweeps_per_pass makes many blocks (and halo exchanges on several process rows).
TYPED_TEST(GpuStages, BandBacktransformMatchesHost) {
  using T = TypeParam;
  SKIP_WITHOUT_GPU();
  for (const Grid& grid : test_grids())
    for (auto [n, nb, b, nev] : {std::tuple{2, 1, 1, 2},
                                 {37, 4, 8, 37},
                                 {151, 8, 24, 30},
                                 {150, 16, 48, 150},
                                 {200, 8, 40, 1}})
      for (auto [sweeps, kernel, columns] :
           {std::tuple{256, 1, 64}, {7, 0, 1}, {3, 1, 32}, {64, 0, 16}, {5, 0, 8}, {256, 1, 96}}) {
        SCOPED_TRACE(
            "grid " + shape_name(grid) + " N=" + std::to_string(n) + " b=" + std::to_string(b) +
            " nev=" + std::to_string(nev) + " sweeps/pass=" + std::to_string(sweeps) + " kernel " +
            std::to_string(kernel) + " with " + std::to_string(columns) + " columns/block");
        DistMatrix<T> A(grid, n, n, nb);
        generate::random_hermitian(A, 3 + n);
        const int bw = std::min(b, std::max(n - 1, 1));
        dense::reduce_to_band<Device::host>(A, b);
        const dense::BandReflectors<T> q =
            dense::bulge_chase(dense::gather_band(A, bw), n, bw, grid.comm());
        TuneParameters tune;
        tune.band_sweeps_per_pass = sweeps;
        tune.gpu_band_kernel = kernel;
        tune.gpu_band_columns = columns;
        DistMatrix<T> host = random_columns<T>(grid, n, nev, nb, 5 + n);
        DistMatrix<T> cuda = host.clone();
        dense::backtransform_band<Device::host>(q, host, nev, tune);
        dense::backtransform_band<Device::cuda>(q, cuda, nev, tune);
        EXPECT_LE(max_difference(cuda, host), 50 * n * eps<T>());
      }
}

// The Householder back-transform with the reflectors of tridiagonalize (offset 1) and of
// reduce_to_band (offset b), WY blocks narrower than the reflector count.
TYPED_TEST(GpuStages, HouseholderBacktransformMatchesHost) {
  using T = TypeParam;
  SKIP_WITHOUT_GPU();
  for (const Grid& grid : test_grids())
    for (auto [n, nb, nev] : {std::tuple{1, 1, 1}, {37, 4, 37}, {150, 16, 30}, {151, 8, 1}})
      for (int offset : {1, 2 * nb}) {
        SCOPED_TRACE("grid " + shape_name(grid) + " N=" + std::to_string(n) +
                     " nev=" + std::to_string(nev) + " offset=" + std::to_string(offset));
        DistMatrix<T> A(grid, n, n, nb);
        generate::random_hermitian(A, 9 + n);
        const std::vector<T> tau = offset == 1 ? dense::tridiagonalize<Device::host>(A).tau
                                               : dense::reduce_to_band<Device::host>(A, offset);
        TuneParameters tune;
        tune.wy_width = 2 * nb;
        DistMatrix<T> host = random_columns<T>(grid, n, nev, nb, 13 + n);
        DistMatrix<T> cuda = host.clone();
        dense::backtransform_householder<Device::host>(A, tau, offset, host, nev, tune);
        dense::backtransform_householder<Device::cuda>(A, tau, offset, cuda, nev, tune);
        EXPECT_LE(max_difference(cuda, host), 50 * n * eps<T>());
      }
}

// Whole solves with gpu = on against LAPACK's eigenvalues, residual and orthogonality.
TYPED_TEST(GpuStages, SolversOnTheGpuMatchLapack) {
  using T = TypeParam;
  SKIP_WITHOUT_GPU();
  for (const Grid& grid : test_grids())
    for (auto [n, nb, bandwidth] : {std::tuple{1, 1, 0}, {97, 8, 24}, {160, 16, 48}})
      for (Solver solver : {Solver::one_stage, Solver::two_stage})
        for (int nev : nev_values(n, 5)) {
          SCOPED_TRACE("grid " + shape_name(grid) + " N=" + std::to_string(n) + " " +
                       to_string(solver) + " nev=" + std::to_string(nev));
          DistMatrix<T> H(grid, n, n, nb);
          generate::random_hermitian(H, 21 + n);
          std::vector<real_t<T>> ref;
          std::vector<T> full = H.gather(0);
          if (grid.rank() == 0) {
            ref = lapack_eigenvalues<T>(full, n);
            ref.resize(nev);
          }
          EigensolverOptions opt;
          opt.solver = solver;
          opt.nev = nev;
          opt.gpu = GpuUse::on;
          if (solver == Solver::two_stage) opt.bandwidth = bandwidth;
          check_solve<T>(H, nullptr, opt, nb, ref);
        }
}

// The generalized path with its back-transforms on the device.
TYPED_TEST(GpuStages, GeneralizedOnTheGpu) {
  using T = TypeParam;
  SKIP_WITHOUT_GPU();
  for (const Grid& grid : test_grids()) {
    const int n = 75, nb = 8;
    DistMatrix<T> H(grid, n, n, nb), S(grid, n, n, nb);
    generate::random_hermitian(H, 31);
    generate::random_positive_definite(S, 32);
    EigensolverOptions opt;
    opt.solver = Solver::two_stage;
    opt.gpu = GpuUse::on;
    opt.nev = 15;
    check_solve(H, &S, opt, nb, {});
  }
}

// Without a GPU: gpu = on is Error(unsupported) naming the reason on every rank; auto
// solves on the host.
TEST(GpuUse, WithoutAGpu) {
  if (have_gpu()) GTEST_SKIP() << "a GPU is present: " << gpu::status();
  for (const Grid& grid : test_grids()) {
    DistMatrix<double> H(grid, 40, 40, 8);
    generate::random_hermitian(H, 41);
    EigensolverOptions opt;
    opt.solver = Solver::two_stage;
    opt.gpu = GpuUse::on;
    DistMatrix<double> work = H.clone(), Z(grid, 40, 40, 8, 8);
    const Error e = error_of([&] { Eigensolver<double>(opt).eigenvectors(work, Z); });
    EXPECT_EQ(e.code(), ErrorCode::unsupported);
    EXPECT_NE(std::string(e.what()).find(gpu::status()), std::string::npos) << e.what();
    opt.gpu = GpuUse::automatic;
    check_solve<double>(H, nullptr, opt, 8, {});
  }
}

TEST(GpuUse, Names) {
  for (GpuUse g : {GpuUse::off, GpuUse::automatic, GpuUse::on})
    EXPECT_EQ(gpu_use_from_string(to_string(g)), g);
  EXPECT_EQ(error_of([] { gpu_use_from_string("yes"); }).code(), ErrorCode::invalid_argument);
}

}  // namespace
}  // namespace tseig::test
