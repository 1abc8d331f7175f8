// Eigensolver: every solver × type × grid × odd sizes × block sizes × nev, checked
// against LAPACK on the gathered matrix, plus residual and orthogonality.
#include <gtest/gtest.h>

#include <cmath>

#include "check_solve.hpp"
#include "test_util.hpp"

namespace tseig::test {
namespace {

template <class T>
class EigensolverTest : public ::testing::Test {};
TYPED_TEST_SUITE(EigensolverTest, ScalarTypes);

// check_solve of A against LAPACK's eigenvalues of it (or against *ref_in).
template <class T>
void check_with_lapack(const DistMatrix<T>& A, EigensolverOptions opt, int z_nb,
                       const std::vector<real_t<T>>* ref_in = nullptr) {
  const int n = A.n();
  std::vector<real_t<T>> ref;
  if (ref_in) {
    ref = *ref_in;
  } else {
    std::vector<T> full = A.gather(0);
    if (A.grid().rank() == 0) ref = lapack_eigenvalues<T>(full, n);
  }
  check_solve<T>(A, nullptr, opt, z_nb, ref);
}

TYPED_TEST(EigensolverTest, RandomAllLayouts) {
  using T = TypeParam;
  for (const Grid& grid : test_grids())
    for (int n : {1, 2, 7, 97, 301})
      for (int nb : {1, 4, 32}) {
        if (n == 301 && nb == 1) continue;  // covered at N = 97; keeps the suite short
        DistMatrix<T> A(grid, n, n, nb);
        generate::random_hermitian(A, 17 + n);
        for (Solver s : {Solver::one_stage, Solver::two_stage, Solver::scalapack})
          for (int nev : nev_values(n, 3)) {
            SCOPED_TRACE(std::string(to_string(s)) + " grid " + shape_name(grid) +
                         " N=" + std::to_string(n) + " nb=" + std::to_string(nb) +
                         " nev=" + std::to_string(nev));
            EigensolverOptions opt;
            opt.solver = s;
            opt.nev = nev;
            check_with_lapack(A, opt, nb == 4 ? 3 : nb);  // Z in another blocking for nb = 4
          }
      }
}

// two_stage over band widths b ∈ {nb, 2nb}, including bands as wide as the matrix.
TYPED_TEST(EigensolverTest, TwoStageBandwidths) {
  using T = TypeParam;
  for (const Grid& grid : test_grids())
    for (auto [n, nb] : {std::pair{1, 1}, {2, 1}, {7, 4}, {9, 4}, {97, 4}, {301, 32}, {600, 32}}) {
      DistMatrix<T> A(grid, n, n, nb);
      generate::random_hermitian(A, 29 + n);
      for (int b : {nb, 2 * nb})
        for (int nev : nev_values(n, 3)) {
          if (n == 600 && nev == n / 3 && b == nb) continue;  // keeps the suite short
          SCOPED_TRACE("grid " + shape_name(grid) + " N=" + std::to_string(n) +
                       " nb=" + std::to_string(nb) + " b=" + std::to_string(b) +
                       " nev=" + std::to_string(nev));
          EigensolverOptions opt;
          opt.solver = Solver::two_stage;
          opt.bandwidth = b;
          opt.nev = nev;
          check_with_lapack(A, opt, nb);
        }
    }
}

// Non-default knobs (small WY blocks, leaves and panels, so that every loop they bound
// runs many times) change speed only: the results stay accurate.
TYPED_TEST(EigensolverTest, TuneParametersKeepResults) {
  using T = TypeParam;
  for (const Grid& grid : test_grids()) {
    DistMatrix<T> A(grid, 301, 301, 8);
    generate::random_hermitian(A, 41);
    for (Solver s : {Solver::one_stage, Solver::two_stage}) {
      SCOPED_TRACE(std::string(to_string(s)) + " grid " + shape_name(grid));
      EigensolverOptions opt;
      opt.solver = s;
      opt.nev = 120;
      opt.tune.bandwidth_target = 16;
      opt.tune.band_sweeps_per_pass = 7;
      opt.tune.wy_width = 8;
      opt.tune.dc_min_leaf = 9;
      opt.tune.dc_max_panel = 5;
      opt.tune.dc_chunk_cols = 11;
      check_with_lapack(A, opt, 8);
    }
  }
}

TEST(Eigensolver, TuneDefaultsAndNames) {
  const TuneParameters t;
  // The values the solver used before TuneParameters existed.
  EXPECT_EQ(t.bandwidth_target, 64);
  EXPECT_EQ(t.band_sweeps_per_pass, 256);
  EXPECT_EQ(t.wy_width, 256);
  EXPECT_EQ(t.multiply_depth, 256);
  EXPECT_EQ(t.dc_min_leaf, 32);
  EXPECT_EQ(t.dc_max_panel, 256);
  EXPECT_EQ(t.dc_chunk_cols, 512);
  EXPECT_EQ(t.cache_limit_mb, -1);
  EXPECT_EQ(find_tune_field("wy_width")->value, &TuneParameters::wy_width);
  EXPECT_EQ(find_tune_field("no_such_knob"), nullptr);
}

TYPED_TEST(EigensolverTest, N301WithUnitBlocks) {
  using T = TypeParam;
  const Grid grid = test_grids().front();
  DistMatrix<T> A(grid, 301, 301, 1);
  generate::random_hermitian(A, 5);
  EigensolverOptions opt;
  opt.solver = Solver::one_stage;
  opt.nev = 100;
  check_with_lapack(A, opt, 1);
}

TYPED_TEST(EigensolverTest, EigenvaluesOnly) {
  using T = TypeParam;
  for (const Grid& grid : test_grids())
    for (Solver s : {Solver::one_stage, Solver::two_stage, Solver::scalapack})
      for (int nev : {1, 40, 120}) {
        DistMatrix<T> A(grid, 120, 120, 16);
        generate::random_hermitian(A, 3);
        EigensolverOptions opt;
        opt.solver = s;
        opt.nev = nev;
        opt.eigenvalues_only = true;
        check_with_lapack(A, opt, 16);
      }
}

TYPED_TEST(EigensolverTest, KnownSpectra) {
  using T = TypeParam;
  using R = real_t<T>;
  const int n = 150;
  for (const Grid& grid : test_grids())
    for (Solver s : {Solver::one_stage, Solver::two_stage, Solver::scalapack}) {
      EigensolverOptions opt;
      opt.solver = s;
      {
        DistMatrix<T> A(grid, n, n, 8);
        generate::laplacian_1d(A);
        auto exact = generate::laplacian_1d_eigenvalues(n);
        std::vector<R> ref(exact.begin(), exact.end());
        SCOPED_TRACE("laplacian " + shape_name(grid));
        check_with_lapack(A, opt, 8, &ref);
      }
      {
        DistMatrix<T> A(grid, n, n, 8);
        auto values = generate::clustered(A, 5, R(1e-6), 11);
        SCOPED_TRACE("clustered " + shape_name(grid));
        check_with_lapack(A, opt, 8, &values);
      }
      {
        std::vector<R> spectrum(n);
        for (int k = 0; k < n; ++k) spectrum[k] = std::pow(R(10), R(-6 + 12.0 * k / (n - 1)));
        DistMatrix<T> A(grid, n, n, 8);
        generate::prescribed_spectrum(A, spectrum, 23);
        SCOPED_TRACE("graded " + shape_name(grid));
        check_with_lapack(A, opt, 8);
      }
    }
}

TYPED_TEST(EigensolverTest, TinyAndHugeNorms) {
  using T = TypeParam;
  using R = real_t<T>;
  const R scale = sizeof(R) == 8 ? R(1e-150) : R(1e-18);
  for (R factor : {scale, 1 / scale}) {
    const Grid grid = test_grids().front();
    DistMatrix<T> A(grid, 60, 60, 8);
    generate::random_hermitian(A, 9);
    for (int lj = 0; lj < A.local_cols(); ++lj)
      for (int li = 0; li < A.local_rows(); ++li) A.local(li, lj) *= factor;
    for (Solver solver : {Solver::one_stage, Solver::two_stage}) {
      EigensolverOptions opt;
      opt.solver = solver;
      check_with_lapack(A, opt, 8);
    }
  }
}

TYPED_TEST(EigensolverTest, OneTriangleOnly) {
  using T = TypeParam;
  for (const Grid& grid : test_grids())
    for (Triangle tri : {Triangle::lower, Triangle::upper})
      for (Solver s : {Solver::one_stage, Solver::two_stage, Solver::scalapack}) {
        DistMatrix<T> A(grid, 50, 50, 4);
        generate::random_hermitian(A, 21);
        std::vector<T> full = A.gather(0);
        std::vector<real_t<T>> ref;
        if (grid.rank() == 0) ref = lapack_eigenvalues<T>(full, 50);
        DistMatrix<T> B = A.clone();  // the unused triangle gets NaN: it must not be read
        for (int lj = 0; lj < B.local_cols(); ++lj)
          for (int li = 0; li < B.local_rows(); ++li) {
            int i = B.global_row(li), j = B.global_col(lj);
            if (tri == Triangle::lower ? i < j : i > j) B.local(li, lj) = T(std::nan(""));
          }
        EigensolverOptions opt;
        opt.solver = s;
        opt.triangle = tri;
        DistMatrix<T> Z = DistMatrix<T>::like(A);
        Eigensolver<T> solver(opt);
        auto w = solver.eigenvectors(B, Z);
        if (grid.rank() == 0) {
          EXPECT_LE(accuracy::eigenvalue_error(w, ref), accuracy_tolerance<T>(50));
        }
        EXPECT_LE(accuracy::residual(A, w, Z), accuracy_tolerance<T>(50));
      }
}

TYPED_TEST(EigensolverTest, BlockSizeOptionAndSourceOffsets) {
  using T = TypeParam;
  for (const Grid& grid : test_grids()) {
    // mb != nb and a nonzero source process force a redistribution to the working layout.
    DistMatrix<T> A(grid, 45, 45, 3, 5, grid.nprow() - 1, grid.npcol() - 1);
    generate::random_hermitian(A, 4);
    EigensolverOptions opt;
    opt.block_size = 8;
    check_with_lapack(A, opt, 7);
  }
}

TYPED_TEST(EigensolverTest, BadInputRaisesOnEveryRank) {
  using T = TypeParam;
  const Grid grid = test_grids().front();
  const int n = 20;
  auto fresh = [&] {
    DistMatrix<T> A(grid, n, n, 4);
    generate::random_hermitian(A, 1);
    return A;
  };
  DistMatrix<T> Z(grid, n, n, 4);
  EigensolverOptions opt;

  opt.nev = n + 1;
  EXPECT_EQ(error_of([&] {
              auto A = fresh();
              Eigensolver<T>(opt).eigenvectors(A, Z);
            }).code(),
            ErrorCode::invalid_argument);
  opt.nev = 0;
  EXPECT_EQ(error_of([&] {
              auto A = fresh();
              Eigensolver<T>(opt).eigenvalues(A);
            }).code(),
            ErrorCode::invalid_argument);
  opt.nev = -1;
  for (int b : {-4, 6}) {  // negative, or not a multiple of the block size 4
    EigensolverOptions two = opt;
    two.solver = Solver::two_stage;
    two.bandwidth = b;
    EXPECT_EQ(error_of([&] {
                auto A = fresh();
                Eigensolver<T>(two).eigenvectors(A, Z);
              }).code(),
              ErrorCode::invalid_argument);
  }
  EigensolverOptions bad_tune = opt;
  bad_tune.tune.dc_min_leaf = 0;
  EXPECT_EQ(error_of([&] {
              auto A = fresh();
              Eigensolver<T>(bad_tune).eigenvectors(A, Z);
            }).code(),
            ErrorCode::invalid_argument);
  // NaN on the last rank only: everyone must learn about it.
  EXPECT_EQ(error_of([&] {
              auto A = fresh();
              if (grid.rank() == grid.size() - 1 && A.local_rows() > 0 && A.local_cols() > 0)
                A.local(0, 0) = T(std::nan(""));
              Eigensolver<T>(opt).eigenvectors(A, Z);
            }).code(),
            ErrorCode::not_finite);
  EXPECT_EQ(error_of([&] {
              DistMatrix<T> A(grid, n, n, 4);
              generate::random_general(A, 2);
              Eigensolver<T>(opt).eigenvectors(A, Z);
            }).code(),
            ErrorCode::not_hermitian);
  EXPECT_EQ(error_of([&] {
              DistMatrix<T> A(grid, n, n + 1, 4);
              Eigensolver<T>(opt).eigenvalues(A);
            }).code(),
            ErrorCode::invalid_argument);
  EXPECT_EQ(error_of([&] {
              auto A = fresh();
              DistMatrix<T> small(grid, n, n / 2, 4);
              Eigensolver<T>(opt).eigenvectors(A, small);
            }).code(),
            ErrorCode::invalid_argument);
  if (grid.size() > 1) {
    // Ranks that disagree on nev must not hang in mismatched collectives.
    EigensolverOptions differ;
    differ.nev = grid.rank() == 0 ? 3 : 4;
    EXPECT_EQ(error_of([&] {
                auto A = fresh();
                Eigensolver<T>(differ).eigenvectors(A, Z);
              }).code(),
              ErrorCode::invalid_argument);
    EXPECT_EQ(error_of([&] {
                auto A = fresh();
                Eigensolver<T> solver(opt);
                if (grid.rank() == 0)
                  solver.eigenvalues(A);
                else
                  solver.eigenvectors(A, Z);
              }).code(),
              ErrorCode::invalid_argument);
    Grid self(MPI_COMM_SELF);
    DistMatrix<T> other(self, n, n, 4);
    EXPECT_EQ(error_of([&] {
                auto A = fresh();
                Eigensolver<T>(opt).eigenvectors(A, other);
              }).code(),
              ErrorCode::grid_mismatch);
  }
}

// Z on another grid of the same processes: a column-major one of the same shape
// (ranks 0 and 3 of a 2×2 keep their coordinates; the solve hung) and a twin over the
// same communicator (ScaLAPACK refused its second context). Columns of Z beyond nev stay
// untouched (p?syevd wrote all N). One solver object on both grid orders with an
// automatic working grid (its sub-grid cache hung).
TEST(Eigensolver, MatricesOnOtherGridsOfTheSameProcesses) {
  using T = double;
  const int n = 40, nev = 5;
  const Grid grid(MPI_COMM_WORLD);
  const Grid column_major(MPI_COMM_WORLD, grid.nprow(), grid.npcol(), GridOrder::column_major);
  const Grid twin(MPI_COMM_WORLD, grid.nprow(), grid.npcol());
  DistMatrix<T> A(grid, n, n, 4), S(grid, n, n, 4);
  generate::random_hermitian(A, 5);
  generate::random_positive_definite(S, 6);
  const T marker = 7.25;
  for (const Grid* other : {&column_major, &twin})
    for (Solver solver : {Solver::one_stage, Solver::two_stage, Solver::scalapack}) {
      SCOPED_TRACE(std::string(to_string(solver)) +
                   (other == &twin ? " twin grid" : " column-major grid"));
      EigensolverOptions opt;
      opt.solver = solver;
      opt.nev = nev;
      DistMatrix<T> Z(*other, n, n, 4);
      Z.fill([&](int, int) { return marker; });
      DistMatrix<T> work = A.clone();
      const std::vector<T> w = Eigensolver<T>(opt).eigenvectors(work, Z);
      ASSERT_EQ(w.size(), std::size_t{nev});
      EXPECT_LE(accuracy::residual(A, w, Z), 50 * n * eps<T>());
      EXPECT_LE(accuracy::orthogonality(Z, nev), 50 * n * eps<T>());
      int changed = 0;
      for (int lj = 0; lj < Z.local_cols(); ++lj)
        for (int li = 0; li < Z.local_rows() && Z.global_col(lj) >= nev; ++li)
          changed += Z.local(li, lj) != marker;
      EXPECT_EQ(changed, 0) << "entries of Z beyond nev overwritten";
      DistMatrix<T> H = A.clone();
      const std::vector<T> g = Eigensolver<T>(opt).generalized_eigenvectors(H, S, Z);
      EXPECT_LE(accuracy::generalized_residual(A, S, g, Z), 50 * n * eps<T>());
      EXPECT_LE(accuracy::s_orthogonality(S, Z, nev), 50 * n * eps<T>());
    }
  EigensolverOptions opt;
  opt.grid_choice = GridChoice::automatic;
  Eigensolver<T> solver(opt);
  for (const Grid* g : {&grid, &column_major}) {
    DistMatrix<T> M = A.redistribute(*g, 4, 4), Z(*g, n, n, 4);
    const std::vector<T> w = solver.eigenvectors(M, Z);
    EXPECT_LE(accuracy::residual(A.redistribute(*g, 4, 4), w, Z), 50 * n * eps<T>());
  }
}

TEST(Eigensolver, SolverNames) {
  EXPECT_EQ(solver_from_string("one_stage"), Solver::one_stage);
  EXPECT_EQ(solver_from_string("two_stage"), Solver::two_stage);
  EXPECT_EQ(solver_from_string("scalapack"), Solver::scalapack);
  EXPECT_EQ(solver_from_string("auto"), Solver::automatic);
  EXPECT_THROW(solver_from_string("elpa7"), Error);
}

}  // namespace
}  // namespace tseig::test
