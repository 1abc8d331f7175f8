// Fault tests: every collective entry point called with arguments that differ between
// ranks must fail with the same tseig::Error on every rank instead of hanging (ctest's
// TIMEOUT turns a hang into a failure). Rank 0 is the odd one out in every case.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "fault_util.hpp"
#include "tseig/sparse/chebfd.hpp"
#include "tseig/sparse/generators.hpp"
#include "tseig/sparse/kpm.hpp"
#include "tseig/sparse/lobpcg.hpp"

namespace tseig::test {
namespace {

using T = double;

// A fresh random N×N matrix with nb blocks on grid g.
DistMatrix<T> random_matrix(const Grid& g, int n, int nb, std::uint64_t seed = 3) {
  DistMatrix<T> A(g, n, n, nb);
  generate::random_hermitian(A, seed);
  return A;
}

DistMatrix<T> random_spd(const Grid& g, int n, int nb) {
  DistMatrix<T> S(g, n, n, nb);
  generate::random_positive_definite(S, 5);
  return S;
}

class Disagree : public ::testing::Test {
 protected:
  void SetUp() override {
    if (world_size() < 2) GTEST_SKIP() << "needs 2 or more ranks";
    odd = world_rank() == 0;
  }
  bool odd = false;
  Grid grid{MPI_COMM_WORLD};
};

// Solves with options `o` on every rank, rank 0 with `o0`; matrices of size n (rank 0: n0).
void solve_both_ways(const std::string& what, const Grid& g, EigensolverOptions o,
                     EigensolverOptions o0, int n, int n0, int nb, int nb0) {
  const bool odd = world_rank() == 0;
  const int my_n = odd ? n0 : n, my_nb = odd ? nb0 : nb;
  const EigensolverOptions mine = odd ? o0 : o;
  expect_same_error(what + " eigenvalues", [&] {
    DistMatrix<T> A = random_matrix(g, my_n, my_nb);
    Eigensolver<T>(mine).eigenvalues(A);
  });
  expect_same_error(what + " eigenvectors", [&] {
    DistMatrix<T> A = random_matrix(g, my_n, my_nb), Z(g, my_n, my_n, my_nb);
    Eigensolver<T>(mine).eigenvectors(A, Z);
  });
  expect_same_error(what + " generalized(S)", [&] {
    DistMatrix<T> A = random_matrix(g, my_n, my_nb), Z(g, my_n, my_n, my_nb);
    const DistMatrix<T> S = random_spd(g, my_n, my_nb);
    Eigensolver<T>(mine).generalized_eigenvectors(A, S, Z);
  });
  expect_same_error(what + " generalized(factor)", [&] {
    DistMatrix<T> A = random_matrix(g, my_n, my_nb);
    // The factor is built with the agreed arguments; only the solve disagrees.
    const CholeskyFactor<T> f(random_spd(g, my_n, my_nb));
    Eigensolver<T>(mine).generalized_eigenvalues(A, f);
  });
}

TEST_F(Disagree, DenseSolverArguments) {
  const int n = 13, nb = 4;
  EigensolverOptions o;
  o.solver = Solver::one_stage;
  auto with = [&](auto change) {
    EigensolverOptions x = o;
    change(x);
    return x;
  };
  solve_both_ways("N", grid, o, o, n, n - 1, nb, nb);
  solve_both_ways("nb", grid, o, o, n, n, nb, nb + 1);
  solve_both_ways("nev", grid, o, with([](auto& x) { x.nev = 3; }), n, n, nb, nb);
  solve_both_ways("block_size", grid, o, with([](auto& x) { x.block_size = 2; }), n, n, nb, nb);
  solve_both_ways("solver", grid, o, with([](auto& x) { x.solver = Solver::scalapack; }), n, n, nb,
                  nb);
  solve_both_ways("solver two_stage", grid, o, with([](auto& x) { x.solver = Solver::two_stage; }),
                  n, n, nb, nb);
  solve_both_ways("triangle", grid, o, with([](auto& x) { x.triangle = Triangle::lower; }), n, n,
                  nb, nb);
  solve_both_ways("check_input", grid, o, with([](auto& x) { x.check_input = false; }), n, n, nb,
                  nb);
  EigensolverOptions two = with([](auto& x) { x.solver = Solver::two_stage; });
  solve_both_ways("bandwidth", grid, two, with([](auto& x) {
                    x.solver = Solver::two_stage;
                    x.bandwidth = 8;
                  }),
                  n, n, nb, nb);
  solve_both_ways("tune.wy_width", grid, o, with([](auto& x) { x.tune.wy_width = 2; }), n, n, nb,
                  nb);
  // The other choice than the default, so that the ranks really disagree.
  solve_both_ways("grid_choice", grid, o, with([&](auto& x) {
                    x.grid_choice = o.grid_choice == GridChoice::as_given ? GridChoice::automatic
                                                                          : GridChoice::as_given;
                  }),
                  n, n, nb, nb);
  EigensolverOptions v = with([](auto& x) { x.validate = true; });
  solve_both_ways("validate", grid, o, v, n, n, nb, nb);
  solve_both_ways("validation_tolerance", grid, v, with([](auto& x) {
                    x.validate = true;
                    x.validation_tolerance = 1e-3;
                  }),
                  n, n, nb, nb);
}

// Rank 0 asks for eigenvectors, the others for eigenvalues only (different call paths).
TEST_F(Disagree, MixedCalls) {
  expect_same_error("eigenvalues vs eigenvectors", [&] {
    DistMatrix<T> A = random_matrix(grid, 11, 4), Z(grid, 11, 11, 4);
    Eigensolver<T> s;
    if (odd)
      s.eigenvectors(A, Z);
    else
      s.eigenvalues(A);
  });
  expect_same_error("standard vs generalized", [&] {
    DistMatrix<T> A = random_matrix(grid, 11, 4);
    const DistMatrix<T> S = random_spd(grid, 11, 4);
    Eigensolver<T> s;
    if (odd)
      s.generalized_eigenvalues(A, S);
    else
      s.eigenvalues(A);
  });
}

TEST_F(Disagree, GridShape) {
  int p = 0, q = 0;
  square_grid_shape(world_size(), p, q);
  expect_same_error(
      "grid shape", [&] { Grid g(MPI_COMM_WORLD, odd ? q : p, odd ? p : q); }, p == q);
  expect_same_error("grid shape 1xP vs Px1", [&] {
    Grid g(MPI_COMM_WORLD, odd ? 1 : world_size(), odd ? world_size() : 1);
  });
  // Z on another grid of the same processes is allowed; Z on a grid of other shape per rank
  // cannot be built (above), so Z's blocking is what may differ.
  expect_same_error(
      "Z blocking",
      [&] {
        DistMatrix<T> A = random_matrix(grid, 11, 4), Z(grid, 11, 11, odd ? 3 : 4);
        Eigensolver<T>().eigenvectors(A, Z);
      },
      true);
}

TEST_F(Disagree, CholeskyFactorArguments) {
  expect_same_error("CholeskyFactor triangle", [&] {
    const DistMatrix<T> S = random_spd(grid, 12, 4);
    CholeskyFactor<T> f(S, odd ? Triangle::lower : Triangle::full);
  });
  expect_same_error("CholeskyFactor N", [&] {
    const DistMatrix<T> S = random_spd(grid, odd ? 11 : 12, 4);
    CholeskyFactor<T> f(S);
  });
  expect_same_error("CholeskyFactor nb", [&] {
    const DistMatrix<T> S = random_spd(grid, 12, odd ? 3 : 4);
    CholeskyFactor<T> f(S);
  });
  expect_same_error("generalized S size", [&] {
    DistMatrix<T> A = random_matrix(grid, 12, 4), Z(grid, 12, 12, 4);
    const DistMatrix<T> S = random_spd(grid, odd ? 11 : 12, 4);
    Eigensolver<T>().generalized_eigenvectors(A, S, Z);
  });
}

TEST_F(Disagree, Redistribute) {
  const DistMatrix<T> A = random_matrix(grid, 10, 4);
  expect_same_error("redistribute nb", [&] { A.redistribute(grid, 3, odd ? 2 : 3); });
  expect_same_error("redistribute rsrc", [&] {
    A.redistribute(grid, 3, 3, odd && grid.nprow() > 1 ? 1 : 0, odd && grid.npcol() > 1 ? 1 : 0);
  });
  expect_same_error("copy_from ncols", [&] {
    DistMatrix<T> B(grid, 10, 10, 2);
    B.copy_from(A, odd ? 4 : 5);
  });
  // Not tested: ranks passing different Grid objects (communicators) to one call; MPI
  // cannot match collectives across communicators, so no library can detect that.
}

// The sparse layer: the matrix, KPM, LOBPCG and ChebFD with one rank out of line.
TEST_F(Disagree, Sparse) {
  using namespace tseig::sparse;
  expect_same_error("sparse Matrix n", [&] {
    const std::int64_t n = odd ? 9 : 10;
    std::vector<std::int64_t> ptr{0}, cols;
    std::vector<T> vals;
    Matrix<T>(MPI_COMM_WORLD, n, ptr, cols, vals);
  });
  const Matrix<T> a = laplacian_3d<T>(MPI_COMM_WORLD, 5, 4, 3);
  expect_same_error("KPM moments", [&] {
    KpmOptions o;
    o.moments = odd ? 32 : 64;
    o.vectors = 4;
    kpm_moments(a, o);
  });
  expect_same_error("KPM vectors", [&] {
    KpmOptions o;
    o.moments = 32;
    o.vectors = odd ? 2 : 4;
    kpm_moments(a, o);
  });
  expect_same_error("LOBPCG nev", [&] {
    LobpcgOptions<T> o;
    o.nev = odd ? 2 : 3;
    lobpcg<T>(a, o);
  });
  expect_same_error("LOBPCG tol", [&] {
    LobpcgOptions<T> o;
    o.nev = 3;
    o.tol = odd ? 1e-4 : 1e-10;
    lobpcg<T>(a, o);
  });
  expect_same_error("LOBPCG which", [&] {
    LobpcgOptions<T> o;
    o.nev = 2;
    o.which = odd ? Which::largest : Which::smallest;
    lobpcg<T>(a, o);
  });
  expect_same_error("LOBPCG max_iterations", [&] {
    LobpcgOptions<T> o;
    o.nev = 2;
    o.max_iterations = odd ? 3 : 200;
    o.throw_on_failure = false;
    lobpcg<T>(a, o);
  });
  expect_same_error("ChebFD interval", [&] {
    ChebfdOptions o;
    o.kpm.moments = 64;
    chebfd(a, 0.0, odd ? 2.5 : 3.0, o);
  });
  expect_same_error("ChebFD tol", [&] {
    ChebfdOptions o;
    o.kpm.moments = 64;
    o.tol = odd ? 1e-4 : 1e-10;
    chebfd(a, 0.0, 3.0, o);
  });
  expect_same_error("ChebFD degree", [&] {
    ChebfdOptions o;
    o.kpm.moments = 64;
    o.degree = odd ? 20 : 40;
    chebfd(a, 0.0, 3.0, o);
  });
}

}  // namespace
}  // namespace tseig::test
