// Generalized eigenproblem H z = λ S z: every solver × type × grid against LAPACK
// ?sygvd/?hegvd on the gathered matrices, well- and ill-conditioned S, factor reuse,
// one-triangle input, layouts and the errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstddef>
#include <string>

#include "check_solve.hpp"
#include "core/blas/host.hpp"
#include "test_util.hpp"

namespace tseig::test {
namespace {

// LAPACK ?sygvd/?hegvd (itype 1, vectors) on column-major n×n h and s; h receives the
// S-orthonormal eigenvectors.
template <class T>
std::vector<real_t<T>> lapack_sygvd(std::vector<T>& h, std::vector<T> s, int n) {
  using R = real_t<T>;
  std::vector<R> w(n);
  const int ld = std::max(n, 1);
  const int info = lapack::hegvd<T, R>('V', 'L', n, h.data(), ld, s.data(), ld, w.data());
  if (info != 0) throw Error(ErrorCode::numerical_failure, "reference ?sygvd failed");
  return w;
}

template <class T>
class GeneralizedTest : public ::testing::Test {};
TYPED_TEST_SUITE(GeneralizedTest, ScalarTypes);

const Solver all_solvers[] = {Solver::one_stage, Solver::two_stage, Solver::scalapack,
                              Solver::automatic};

struct Accuracy {
  double residual = 0, orthogonality = 0;
};

template <class T>
Accuracy measure(const DistMatrix<T>& H, const DistMatrix<T>& S, const std::vector<real_t<T>>& w,
                 const DistMatrix<T>& Z) {
  return {static_cast<double>(accuracy::generalized_residual(H, S, w, Z)),
          static_cast<double>(accuracy::s_orthogonality(S, Z, static_cast<int>(w.size())))};
}

// Solves H z = λ S z with `opt` and compares with LAPACK: eigenvalues (when S is well
// conditioned) and residual / S-orthogonality no worse than `slack` times LAPACK's.
template <class T>
void check_against_lapack(const DistMatrix<T>& H, const DistMatrix<T>& S, EigensolverOptions opt,
                          int z_nb, bool compare_values, double slack = 1) {
  const Grid& grid = H.grid();
  const int n = H.n();
  std::vector<T> h = H.gather(0);
  const std::vector<T> s = S.gather(0);
  std::vector<real_t<T>> ref;
  if (grid.rank() == 0) ref = lapack_sygvd(h, s, n);
  DistMatrix<T> Zref(grid, n, n, H.nb());
  Zref.scatter(h.data(), 0);
  ref.resize(n);
  MPI_Bcast(ref.data(), n * static_cast<int>(sizeof(real_t<T>)), MPI_BYTE, 0, grid.comm());
  const Accuracy lapack = measure(H, S, ref, Zref);

  check_solve(H, &S, opt, z_nb, compare_values ? ref : std::vector<real_t<T>>{},
              slack * lapack.residual, slack * lapack.orthogonality);
}

TYPED_TEST(GeneralizedTest, WellConditionedAllSolvers) {
  using T = TypeParam;
  for (const Grid& grid : test_grids())
    for (int n : {1, 2, 37, 90})
      for (int nb : {4, 16}) {
        if (n < 37 && nb == 16) continue;
        DistMatrix<T> H(grid, n, n, nb), S(grid, n, n, nb);
        generate::random_hermitian(H, 30 + n);
        generate::random_positive_definite(S, 40 + n);
        for (Solver s : all_solvers)
          for (int nev : nev_values(n, 3)) {
            SCOPED_TRACE(std::string(to_string(s)) + " grid " + shape_name(grid) +
                         " N=" + std::to_string(n) + " nb=" + std::to_string(nb) +
                         " nev=" + std::to_string(nev));
            EigensolverOptions opt;
            opt.solver = s;
            opt.nev = nev;
            check_against_lapack(H, S, opt, nb == 4 ? 3 : nb, true);
          }
      }
}

TYPED_TEST(GeneralizedTest, IllConditionedS) {
  using T = TypeParam;
  using R = real_t<T>;
  // κ(S) ≈ 1e10 in double; 1e3 in single precision, where 1e10 is not even positive
  // definite. (At 1e4 the one-stage solver loses accuracy on Ã in complex<float>.)
  const double cond = sizeof(R) == 8 ? 1e10 : 1e3;
  const int n = 80;
  for (const Grid& grid : test_grids()) {
    std::vector<R> spectrum(n);
    for (int k = 0; k < n; ++k) spectrum[k] = static_cast<R>(std::pow(cond, -double(k) / (n - 1)));
    std::sort(spectrum.begin(), spectrum.end());
    DistMatrix<T> H(grid, n, n, 8), S(grid, n, n, 8);
    generate::random_hermitian(H, 3);
    generate::prescribed_spectrum(S, spectrum, 4);
    for (Solver s : {Solver::one_stage, Solver::scalapack}) {
      SCOPED_TRACE(std::string(to_string(s)) + " grid " + shape_name(grid));
      EigensolverOptions opt;
      opt.solver = s;
      check_against_lapack(H, S, opt, 8, false, 10);
    }
  }
}

TYPED_TEST(GeneralizedTest, ReusedFactorGivesFreshResults) {
  using T = TypeParam;
  for (const Grid& grid : test_grids())
    for (Solver s : {Solver::one_stage, Solver::scalapack}) {
      const int n = 45;
      DistMatrix<T> S(grid, n, n, 8);
      generate::random_positive_definite(S, 2);
      const std::vector<T> s_before = S.gather(0);
      EigensolverOptions opt;
      opt.solver = s;
      opt.nev = 15;
      const CholeskyFactor<T> factor(S);
      EXPECT_EQ(S.gather(0), s_before) << "the factorization must not modify S";
      for (int call = 0; call < 3; ++call) {
        SCOPED_TRACE(std::string(to_string(s)) + " grid " + shape_name(grid) + " call " +
                     std::to_string(call));
        DistMatrix<T> H(grid, n, n, 8);
        generate::random_hermitian(H, 100 + call);
        DistMatrix<T> H1 = H.clone(), H2 = H.clone();
        DistMatrix<T> Z1(grid, n, 15, 8), Z2(grid, n, 15, 8);
        Eigensolver<T> reuse(opt), fresh(opt);
        const auto w1 = reuse.generalized_eigenvectors(H1, factor, Z1);
        const auto w2 = fresh.generalized_eigenvectors(H2, S, Z2);
        // Equal up to rounding: BLAS kernels may sum in another order for other addresses.
        const double tol = accuracy_tolerance<T>(n);
        EXPECT_LE(accuracy::eigenvalue_error(w1, w2), tol);
        const std::vector<T> z1 = Z1.gather(0), z2 = Z2.gather(0);
        double zdiff = 0;
        for (std::size_t k = 0; k < z1.size(); ++k)
          zdiff = std::max(zdiff, static_cast<double>(std::abs(z1[k] - z2[k])));
        EXPECT_LE(zdiff, tol);
        EXPECT_LE(accuracy::generalized_residual(H, S, w1, Z1), tol);
        H1 = H.clone();
        EXPECT_LE(accuracy::eigenvalue_error(reuse.generalized_eigenvalues(H1, factor), w1), tol);
        // Stage times: the factorization is in the fresh call only.
        EXPECT_EQ(reuse.timings().get(Stage::cholesky), 0.0);
        EXPECT_GT(fresh.timings().get(Stage::cholesky), 0.0);
        EXPECT_GT(fresh.timings().get(Stage::invert_triangular), 0.0);
        EXPECT_GT(fresh.timings().get(Stage::transform), 0.0);
        EXPECT_GT(fresh.timings().get(Stage::backtransform_generalized), 0.0);
        EXPECT_EQ(fresh.timings().stages.front().first, to_string(Stage::cholesky));
      }
    }
}

TYPED_TEST(GeneralizedTest, OneTriangleLayoutsAndBlockSizes) {
  using T = TypeParam;
  const int n = 50;
  for (const Grid& grid : test_grids())
    for (Triangle tri : {Triangle::lower, Triangle::upper})
      for (Solver s : {Solver::one_stage, Solver::scalapack}) {
        SCOPED_TRACE(std::string(to_string(s)) + " grid " + shape_name(grid) +
                     (tri == Triangle::lower ? " lower" : " upper"));
        // H and S blocked unlike each other and unlike the working block size, first block
        // off process (0, 0); only one triangle holds data, the other NaN.
        DistMatrix<T> H(grid, n, n, 5, 3, grid.nprow() - 1, 0), S(grid, n, n, 6);
        generate::random_hermitian(H, 9);
        generate::random_positive_definite(S, 10);
        const DistMatrix<T> Hfull = H.clone(), Sfull = S.clone();
        for (DistMatrix<T>* M : {&H, &S})
          M->fill([&](int i, int j) {
            const bool used = tri == Triangle::lower ? i >= j : i <= j;
            return used ? M->local(M->local_row(i), M->local_col(j)) : T(std::nan(""));
          });
        EigensolverOptions opt;
        opt.solver = s;
        opt.triangle = tri;
        opt.block_size = 8;
        opt.nev = 20;
        DistMatrix<T> Z(grid, n, 20, 7, 7);
        Eigensolver<T> solver(opt);
        const auto w = solver.generalized_eigenvectors(H, S, Z);
        EXPECT_LE(accuracy::generalized_residual(Hfull, Sfull, w, Z), accuracy_tolerance<T>(n));
        EXPECT_LE(accuracy::s_orthogonality(Sfull, Z, 20), accuracy_tolerance<T>(n));
      }
}

TYPED_TEST(GeneralizedTest, ErrorsOnEveryRank) {
  using T = TypeParam;
  for (const Grid& grid : test_grids()) {
    const int n = 24;
    DistMatrix<T> H(grid, n, n, 4), S(grid, n, n, 4), Z(grid, n, n, 4);
    generate::random_hermitian(H, 1);
    generate::random_positive_definite(S, 2);
    Eigensolver<T> solver;
    {
      // Minor 18 fails; the entry lives on the last process of a 2×2 grid.
      DistMatrix<T> bad = S.clone();
      if (bad.is_local(17, 17)) bad.local(bad.local_row(17), bad.local_col(17)) = T(-3);
      const Error e = error_of([&] { solver.generalized_eigenvectors(H, bad, Z); });
      EXPECT_EQ(e.code(), ErrorCode::not_positive_definite);
      EXPECT_NE(std::string(e.what()).find("leading minor of order 18"), std::string::npos)
          << e.what();
    }
    DistMatrix<T> small(grid, n - 1, n - 1, 4);
    generate::random_positive_definite(small, 3);
    EXPECT_EQ(error_of([&] { solver.generalized_eigenvalues(H, small); }).code(),
              ErrorCode::invalid_argument);
    const CholeskyFactor<T> wrong_size(small), empty;
    EXPECT_EQ(error_of([&] { solver.generalized_eigenvectors(H, wrong_size, Z); }).code(),
              ErrorCode::invalid_argument);
    EXPECT_EQ(error_of([&] { solver.generalized_eigenvectors(H, empty, Z); }).code(),
              ErrorCode::invalid_argument);
    {
      DistMatrix<T> nan = S.clone();
      if (nan.is_local(3, 5)) nan.local(nan.local_row(3), nan.local_col(5)) = T(std::nan(""));
      EXPECT_EQ(error_of([&] { CholeskyFactor<T> f(nan); }).code(), ErrorCode::not_finite);
      // The message says which matrix (both said "input matrix").
      const Error in_s = error_of([&] { solver.generalized_eigenvalues(H, nan); });
      EXPECT_EQ(in_s.code(), ErrorCode::not_finite);
      EXPECT_NE(std::string(in_s.what()).find("input matrix S"), std::string::npos) << in_s.what();
      DistMatrix<T> nan_h = H.clone();
      if (nan_h.is_local(3, 5)) nan_h.local(nan_h.local_row(3), nan_h.local_col(5)) = T(INFINITY);
      const Error in_a = error_of([&] { solver.generalized_eigenvalues(nan_h, S); });
      EXPECT_EQ(in_a.code(), ErrorCode::not_finite);
      EXPECT_NE(std::string(in_a.what()).find("input matrix A"), std::string::npos) << in_a.what();
      DistMatrix<T> skew = S.clone();
      if (skew.is_local(3, 5)) skew.local(skew.local_row(3), skew.local_col(5)) += T(1);
      const Error not_hermitian = error_of([&] { solver.generalized_eigenvalues(H, skew); });
      EXPECT_EQ(not_hermitian.code(), ErrorCode::not_hermitian);
      const std::string text = not_hermitian.what();
      EXPECT_NE(text.find("input matrix S"), std::string::npos) << text;
      EXPECT_NE(text.find("UPLO"), std::string::npos) << text;  // how C and drop-in users fix it
    }
    if (grid.size() > 1) {
      // S and the factor on the same processes in another grid shape.
      const Grid other = grid.nprow() == 1 ? Grid(MPI_COMM_WORLD, grid.size(), 1)
                                           : Grid(MPI_COMM_WORLD, 1, grid.size());
      DistMatrix<T> S2 = S.redistribute(other, 4, 4);
      EXPECT_EQ(error_of([&] { solver.generalized_eigenvectors(H, S2, Z); }).code(),
                ErrorCode::grid_mismatch);
      const CholeskyFactor<T> f2(S2);
      EXPECT_EQ(error_of([&] { solver.generalized_eigenvectors(H, f2, Z); }).code(),
                ErrorCode::grid_mismatch);
    }
  }
}

}  // namespace
}  // namespace tseig::test
