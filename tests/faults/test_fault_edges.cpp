// Fault tests at the edges of the input space, run at 1–8 ranks (3, 5, 7 included):
// ranks that own no rows or columns (N < nb·P) on every grid shape of P, for every
// solver, N = 1 and 2 everywhere, input scaled to 1e±300 (float: 1e±36), and NaN that
// appears mid-computation (a matrix-free operator or preconditioner that turns bad after
// some applications, an overflow inside the pipeline). Each case either solves correctly
// (checked against LAPACK, with residual and orthogonality) or raises the same Error on
// every rank; it never hangs (TIMEOUT), aborts or returns NaN. The C API is put through
// the empty-rank and scaling cases as well.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "check_solve.hpp"
#include "dense/scale_up_tiny.hpp"
#include "fault_util.hpp"
#include "test_util.hpp"
#include "tseig/sparse/generators.hpp"
#include "tseig/sparse/lobpcg.hpp"

namespace tseig::test {
namespace {

// Every grid shape of the job's ranks: r×(P/r) for each divisor r.
std::vector<Grid> every_shape() {
  const int p = world_size();
  std::vector<Grid> grids;
  for (int r = 1; r <= p; ++r)
    if (p % r == 0) grids.emplace_back(MPI_COMM_WORLD, r, p / r);
  return grids;
}

std::string shape(const Grid& g) {
  return std::to_string(g.nprow()) + "x" + std::to_string(g.npcol());
}

template <class T>
class EmptyRanks : public ::testing::Test {};
TYPED_TEST_SUITE(EmptyRanks, ScalarTypes);

// N from 1 to below nb·P: most ranks own no rows, no columns, or neither.
TYPED_TEST(EmptyRanks, EverySolverEveryShape) {
  using T = TypeParam;
  const int nb = 4;
  for (const Grid& g : every_shape())
    for (int n : {1, 2, 3, nb * std::max(g.nprow(), g.npcol()) - 1})
      for (Solver solver : {Solver::one_stage, Solver::two_stage, Solver::scalapack})
        for (int nev : {1, n}) {
          SCOPED_TRACE(std::string(to_string(solver)) + " on " + shape(g) +
                       " N=" + std::to_string(n) + " nev=" + std::to_string(nev));
          DistMatrix<T> A(g, n, n, nb);
          generate::random_hermitian(A, 7 + n);
          std::vector<T> full = A.gather(0);
          std::vector<real_t<T>> ref;
          if (g.rank() == 0) {
            ref = lapack_eigenvalues<T>(full, n);
            ref.resize(nev);
          }
          EigensolverOptions opt;
          opt.solver = solver;
          opt.nev = nev;
          // check_solve solves on the grid given (GridChoice::as_given): the point here.
          check_solve<T>(A, nullptr, opt, nb, ref);
        }
}

// The same through the automatic working grid, which moves such problems.
TYPED_TEST(EmptyRanks, AutomaticWorkingGrid) {
  using T = TypeParam;
  for (const Grid& g : every_shape())
    for (int n : {1, 2, 11}) {
      SCOPED_TRACE(shape(g) + " N=" + std::to_string(n));
      DistMatrix<T> A(g, n, n, 4), Z(g, n, n, 4);
      generate::random_hermitian(A, 3);
      DistMatrix<T> work = A.clone();
      EigensolverOptions opt;
      opt.validate = true;  // residual, orthogonality and count, or Error(accuracy)
      const std::vector<real_t<T>> w = Eigensolver<T>(opt).eigenvectors(work, Z);
      EXPECT_LE(accuracy::residual(A, w, Z), accuracy_tolerance<T>(n));
    }
}

std::string scale_name(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.0e", x);
  return text;
}

template <class T>
class ExtremeScale : public ::testing::Test {};
TYPED_TEST_SUITE(ExtremeScale, ScalarTypes);

// Entries near the ends of the exponent range: eigenvalues scale exactly, vectors stay
// orthonormal; nothing overflows to Inf or underflows to 0 on the way.
TYPED_TEST(ExtremeScale, EverySolverAtTinyAndHugeNorms) {
  using T = TypeParam;
  using R = real_t<T>;
  const R huge = sizeof(R) == 8 ? R(1e300) : R(1e36);
  const Grid grid(MPI_COMM_WORLD);
  const int n = 23, nb = 4;
  DistMatrix<T> base(grid, n, n, nb);
  generate::random_hermitian(base, 17);
  std::vector<T> full = base.gather(0);
  std::vector<R> ref;
  if (grid.rank() == 0) ref = lapack_eigenvalues<T>(full, n);
  for (R factor : {huge, 1 / huge})
    for (Solver solver : {Solver::one_stage, Solver::two_stage, Solver::scalapack}) {
      SCOPED_TRACE(std::string(to_string(solver)) + " scaled by " + scale_name(double(factor)));
      DistMatrix<T> A = base.clone();
      for (int lj = 0; lj < A.local_cols(); ++lj)
        for (int li = 0; li < A.local_rows(); ++li) A.local(li, lj) *= factor;
      DistMatrix<T> work = A.clone(), Z(grid, n, n, nb);
      EigensolverOptions opt;
      opt.solver = solver;
      opt.grid_choice = GridChoice::as_given;
      std::vector<R> w;
      const int code = expect_same_error(
          std::string(to_string(solver)) + " at scale " + scale_name(double(factor)),
          [&] { w = Eigensolver<T>(opt).eigenvectors(work, Z); }, true);
      if (solver == Solver::scalapack && code == static_cast<int>(ErrorCode::not_finite))
        continue;  // p?syevd's own arithmetic may overflow: reported, never returned
      ASSERT_EQ(code, 0) << "tseig's own solvers scale: no error expected";
      const double tol = accuracy_tolerance<T>(n);
      if (grid.rank() == 0) {
        for (int k = 0; k < n; ++k)
          EXPECT_NEAR(double(w[k] / factor), double(ref[k]), tol * n * 10) << "k = " << k;
      }
      EXPECT_LE(accuracy::orthogonality(Z, n), tol);
      for (R x : w) EXPECT_TRUE(std::isfinite(x));
    }
}

// Every entry subnormal (1e-320, float 1e-43: a few significant bits each): the matrix
// as stored is solved as accurately as LAPACK solves it (scaled up by a power of two, as
// ?syev does). Before, one_stage and two_stage were off by 6e10·Nε‖A‖.
TYPED_TEST(ExtremeScale, SubnormalEntries) {
  using T = TypeParam;
  using R = real_t<T>;
  const R tiny = sizeof(R) == 8 ? R(1e-320) : R(1e-43);
  const Grid grid(MPI_COMM_WORLD);
  const int n = 23, nb = 4;
  DistMatrix<T> base(grid, n, n, nb);
  generate::random_hermitian(base, 29);
  for (int lj = 0; lj < base.local_cols(); ++lj)
    for (int li = 0; li < base.local_rows(); ++li) base.local(li, lj) *= tiny;
  std::vector<T> full = base.gather(0);
  std::vector<R> ref;
  R amax = 0;
  if (grid.rank() == 0) {
    for (const T& x : full) amax = std::max(amax, R(std::abs(x)));
    const int k = -std::ilogb(amax);  // LAPACK on the stored matrix, exactly scaled up
    for (T& x : full) x = dense::times_power_of_two(x, k);
    ref = lapack_eigenvalues<T>(full, n);
    for (R& x : ref) x = std::ldexp(x, -k);
  }
  for (Solver solver : {Solver::one_stage, Solver::two_stage, Solver::scalapack}) {
    SCOPED_TRACE(to_string(solver));
    DistMatrix<T> A = base.clone(), Z(grid, n, n, nb);
    EigensolverOptions opt;
    opt.solver = solver;
    const std::vector<R> w = Eigensolver<T>(opt).eigenvectors(A, Z);
    const double tol = accuracy_tolerance<T>(n);
    if (grid.rank() == 0) {
      for (int k = 0; k < n; ++k)
        EXPECT_LE(std::abs(double(w[k]) - double(ref[k])), tol * double(amax)) << "k = " << k;
    }
    EXPECT_LE(accuracy::orthogonality(Z, n), tol);
    // The positive eigenvalues by value: the interval is scaled with the matrix.
    DistMatrix<T> B = base.clone();
    opt.value_range = ValueRange{0, 1e300};
    const std::vector<R> positive = Eigensolver<T>(opt).eigenvalues(B);
    if (grid.rank() == 0) {
      EXPECT_EQ(positive.size(), static_cast<std::size_t>(std::count_if(
                                     ref.begin(), ref.end(), [](R x) { return x > 0; })));
    }
  }
}

// Q·diag(−1, 0, 1, −1, 0, 1, …)·Qᴴ at norm 1e-300 (float 1e-36), Q three random
// Householder reflections: during the one-stage reduction the columns become subnormal.
// Before the reflectors were scaled up there (as ?larfg does), one_stage's eigenvalues
// were off by 8e4·Nε‖A‖ and its vectors' orthogonality by 3e5·Nε.
TYPED_TEST(ExtremeScale, RepeatedEigenvaluesAtTinyNorm) {
  using T = TypeParam;
  using R = real_t<T>;
  const R tiny = sizeof(R) == 8 ? R(1e-300) : R(1e-36);
  const int n = 45, nb = 7;
  std::vector<T> a(n * n, T(0));
  for (int i = 0; i < n; ++i) a[i + i * n] = T(i % 3 - 1);
  std::mt19937 gen(5);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int r = 0; r < 3; ++r) {  // a ← H·a·H, H = I − 2vvᴴ/vᴴv
    std::vector<T> v(n);
    double vv = 0;
    for (T& x : v) {
      if constexpr (is_complex_v<T>)
        x = T(R(u(gen)), R(u(gen)));
      else
        x = T(R(u(gen)));
      vv += std::norm(x);
    }
    for (int pass = 0; pass < 2; ++pass) {  // a ← H·a, then a ← (H·aᴴ)ᴴ = a·H
      for (int j = 0; j < n; ++j) {
        T d(0);
        for (int i = 0; i < n; ++i) d += conj_if_complex(v[i]) * a[i + j * n];
        for (int i = 0; i < n; ++i) a[i + j * n] -= T(R(2 / vv)) * v[i] * d;
      }
      std::vector<T> t(n * n);
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) t[j + i * n] = conj_if_complex(a[i + j * n]);
      a = t;
    }
  }
  const Grid grid(MPI_COMM_WORLD);
  for (Solver solver : {Solver::one_stage, Solver::two_stage, Solver::scalapack}) {
    SCOPED_TRACE(to_string(solver));
    DistMatrix<T> A(grid, n, n, nb), Z(grid, n, n, nb);
    A.fill([&](int i, int j) { return a[i + j * n] * tiny; });
    EigensolverOptions opt;
    opt.solver = solver;
    const std::vector<R> w = Eigensolver<T>(opt).eigenvectors(A, Z);
    const double tol = accuracy_tolerance<T>(n);
    for (int k = 0; k < n; ++k) EXPECT_NEAR(double(w[k] / tiny), k / 15 - 1, tol) << "k = " << k;
    EXPECT_LE(accuracy::orthogonality(Z, n), tol);
  }
}

// The C API under the same edges: ranks without rows or columns on every grid shape, and
// input scaled to 1e±300, through an ELPA-style handle. Each call returns TSEIG_OK on
// every rank with LAPACK's eigenvalues (scaled back) and orthonormal vectors.
TEST(CApiEdges, EmptyRanksAndExtremeScale) {
  const int nb = 4;
  for (const Grid& g : every_shape())
    for (int n : {1, 2, 3, nb * std::max(g.nprow(), g.npcol()) - 1})
      for (const char* solver : {"one_stage", "two_stage", "scalapack"})
        for (double factor : {1.0, 1e300, 1e-300}) {
          const std::string what = std::string("C API ") + solver + " on " + shape(g) +
                                   " N=" + std::to_string(n) + " scale " + scale_name(factor);
          SCOPED_TRACE(what);
          DistMatrix<double> A(g, n, n, nb), Z(g, n, n, nb);
          generate::random_hermitian(A, 11 + n);
          std::vector<double> full = A.gather(0), ref;
          if (g.rank() == 0) ref = lapack_eigenvalues<double>(full, n);
          for (int lj = 0; lj < A.local_cols(); ++lj)
            for (int li = 0; li < A.local_rows(); ++li) A.local(li, lj) *= factor;
          tseig_handle_t* h = nullptr;
          ASSERT_NO_FATAL_FAILURE(make_capi_handle(A, solver, &h));
          std::vector<double> w(n);
          const int rc = tseig_eigenvectors_d(h, A.data(), w.data(), Z.data());
          ASSERT_TRUE(same_on_every_rank(rc)) << "ranks returned different codes";
          if (world_rank() == 0)
            std::printf("[fault] %s: code %d%s\n", what.c_str(), rc,
                        rc ? (std::string(" (") + tseig_last_error_message(h) + ")").c_str() : "");
          EXPECT_EQ(tseig_destroy(h), TSEIG_OK);
          // p?syevd's own arithmetic may overflow at 1e300: reported, never returned.
          if (rc == TSEIG_ERROR_NOT_FINITE && std::string(solver) == "scalapack") continue;
          ASSERT_EQ(rc, TSEIG_OK);
          const double tol = accuracy_tolerance<double>(n);
          if (g.rank() == 0) {
            for (int k = 0; k < n; ++k)
              EXPECT_NEAR(w[k] / factor, ref[k], tol * n * 10) << "k = " << k;
          }
          EXPECT_LE(accuracy::orthogonality(Z, n), tol);
        }
}

// Entries so large that the Frobenius norm overflows: scaled, solved, never NaN out.
TEST(ExtremeScale, NearTheOverflowThreshold) {
  const Grid grid(MPI_COMM_WORLD);
  const int n = 17;
  const double big = std::numeric_limits<double>::max() / 4;
  for (Solver solver : {Solver::one_stage, Solver::two_stage, Solver::scalapack}) {
    DistMatrix<double> A(grid, n, n, 4), Z(grid, n, n, 4);
    A.fill([&](int i, int j) { return i == j ? big * (1 - 2.0 * (i % 2)) : big / (1 + i + j); });
    EigensolverOptions opt;
    opt.solver = solver;
    std::vector<double> w;
    const int code = expect_same_error(
        std::string("max/4 entries, ") + to_string(solver),
        [&] { w = Eigensolver<double>(opt).eigenvectors(A, Z); }, true);
    if (code != 0) {
      EXPECT_EQ(code, static_cast<int>(ErrorCode::not_finite));
      continue;
    }
    for (double x : w) EXPECT_TRUE(std::isfinite(x)) << to_string(solver);
    for (int lj = 0; lj < Z.local_cols(); ++lj)
      for (int li = 0; li < Z.local_rows(); ++li) EXPECT_TRUE(std::isfinite(Z.local(li, lj)));
  }
}

// S positive definite but so badly scaled that U⁻ᴴAU⁻¹ overflows inside the
// generalized transform: an Inf appears mid-computation, and NaN follows in the stages.
TEST(NanMidComputation, DenseGeneralizedOverflow) {
  const Grid grid(MPI_COMM_WORLD);
  const int n = 12;
  for (Solver solver : {Solver::one_stage, Solver::two_stage, Solver::scalapack})
    for (bool vectors : {false, true}) {
      DistMatrix<double> A(grid, n, n, 4), S(grid, n, n, 4), Z(grid, n, n, 4);
      generate::random_hermitian(A, 5);
      S.fill([](int i, int j) { return i != j ? 0.0 : i == 0 ? 1e-320 : 1.0; });
      EigensolverOptions opt;
      opt.solver = solver;
      const std::string what = std::string("S = diag(1e-320, 1, ...), ") + to_string(solver) +
                               (vectors ? " vectors" : " values");
      std::vector<double> w;
      const int code = expect_same_error(what, [&] {
        Eigensolver<double> es(opt);
        w = vectors ? es.generalized_eigenvectors(A, S, Z) : es.generalized_eigenvalues(A, S);
      });
      EXPECT_EQ(code, static_cast<int>(ErrorCode::not_finite)) << what;
    }
}

// A matrix-free operator (or preconditioner) that returns NaN from its k-th application
// on, k from the first to the last application of a clean run (so the NaN appears in
// Lanczos bounds, the first iterations or the last one): the block eigensolver stops
// with Error(not_finite) on every rank.
TEST(NanMidComputation, SparseOperatorAndPreconditioner) {
  using T = double;
  using namespace sparse;
  const Matrix<T> a = laplacian_3d<T>(MPI_COMM_WORLD, 6, 5, 4);
  LobpcgOptions<T> o;
  o.nev = 3;
  o.tol = 1e-8;
  for (bool in_preconditioner : {false, true}) {
    int applications = 0, bad_after = 0;
    auto poisoned = [&](const MultiVector<T>& x, const MultiVector<T>& y, bool laplacian) {
      if (laplacian) {
        spmmv(a, x, y);
      } else {
        for (int i = 0; i < x.local_rows(); ++i)
          for (int j = 0; j < x.cols(); ++j) y(i, j) = x(i, j) / 6.0;
      }
      // Only the first rank's rows go bad: the others must learn of it.
      if (++applications == bad_after && x.local_rows() > 0 && world_rank() == 0)
        y(0, 0) = std::numeric_limits<T>::quiet_NaN();
    };
    const LinearOperator<T> h =
        in_preconditioner ? LinearOperator<T>(a)
                          : LinearOperator<T>(a.vector_layout(), [&](const auto& x, const auto& y) {
                              poisoned(x, y, true);
                            });
    const Preconditioner<T> m =
        in_preconditioner
            ? Preconditioner<T>([&](const auto& x, const auto& y) { poisoned(x, y, false); })
            : Preconditioner<T>();
    ASSERT_TRUE(lobpcg<T>(h, o, m).converged);
    const int clean = applications;
    ASSERT_GT(clean, 2);
    for (int k : {1, clean / 2, clean}) {
      applications = 0;
      bad_after = k;
      const std::string what = std::string(in_preconditioner ? "preconditioner" : "operator") +
                               " NaN at application " + std::to_string(k) + " of " +
                               std::to_string(clean);
      const int code = expect_same_error(what, [&] { lobpcg<T>(h, o, m); });
      EXPECT_EQ(code, static_cast<int>(ErrorCode::not_finite)) << what;
    }
  }
}

}  // namespace
}  // namespace tseig::test
