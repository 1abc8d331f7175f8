// The working grid (graceful degradation): the plan's choices on synthetic placements,
// solves moved to every kind of sub-grid (1×1, P − 1 ranks, both orientations) checked
// against LAPACK on the caller's grid, errors of the moved solve on every rank, and
// GridChoice through the public API.
#include <gtest/gtest.h>

#include <thread>

#include "check_solve.hpp"
#include "dense/sub_grids.hpp"
#include "dense/working_grid.hpp"
#include "test_util.hpp"

namespace tseig::test {
namespace {

using dense::GridProblem;
using dense::RankPlacement;

// `ranks` ranks on one node of `cores` cores.
RankPlacement one_node(int ranks, int cores) {
  RankPlacement p;
  p.node.assign(ranks, 0);
  p.cores = {cores};
  return p;
}

int ranks_of(GridShape s) {
  return s.nprow * s.npcol;
}

TEST(WorkingGridPlan, KeepsLargeProblemsOnTheirGrid) {
  const GridProblem big{Solver::one_stage, 'd', 8000, 8000, true, 64};
  for (GridShape given : {GridShape{1, 2}, GridShape{2, 2}, GridShape{2, 4}}) {
    const GridShape s = dense::plan_working_grid(big, given, one_node(ranks_of(given), 64));
    EXPECT_EQ(s.nprow, given.nprow);
    EXPECT_EQ(s.npcol, given.npcol);
  }
}

TEST(WorkingGridPlan, SmallProblemsUseFewerRanks) {
  // Measured on 2 cores (min of 3, seconds ×1e-3): N = 40 on 1 rank / on 2 ranks:
  // d one_stage 0.45 / 0.57, d two_stage 0.53 / 0.75, z two_stage 0.62 / 0.91.
  for (char type : {'d', 'z'})
    for (Solver solver : {Solver::one_stage, Solver::two_stage, Solver::scalapack}) {
      const GridProblem tiny{solver, type, 40, 40, true, 16};
      EXPECT_EQ(ranks_of(dense::plan_working_grid(tiny, {1, 2}, one_node(2, 2))), 1)
          << type << " " << to_string(solver);
      EXPECT_LT(ranks_of(dense::plan_working_grid(tiny, {2, 4}, one_node(8, 64))), 8)
          << type << " " << to_string(solver);
    }
}

TEST(WorkingGridPlan, NoMoreRanksThanCores) {
  // 8 ranks on 2 cores run in turns: a mid-size problem leaves the time slicing.
  const GridProblem mid{Solver::one_stage, 'd', 1500, 1500, true, 64};
  const GridShape s = dense::plan_working_grid(mid, {2, 4}, one_node(8, 2));
  EXPECT_LE(ranks_of(s), 2);
  EXPECT_GE(ranks_of(s), 1);
}

TEST(WorkingGridPlan, PrimeRankCountDropsTheRankAcrossTheLink) {
  // 7 ranks launched as 6 on one node and 1 on another: 1×7 pays the link on every
  // column; the 6 ranks of the first node (2×3) do not.
  RankPlacement six_and_one;
  six_and_one.node = {0, 0, 0, 0, 0, 0, 1};
  six_and_one.cores = {6, 1};
  const GridProblem mid{Solver::one_stage, 'd', 400, 400, true, 32};
  const GridShape s = dense::plan_working_grid(mid, {1, 7}, six_and_one);
  EXPECT_EQ(ranks_of(s), 6) << s.nprow << "x" << s.npcol;
  EXPECT_GT(s.nprow, 1) << "the squarer grid of 6 ranks";
}

TEST(WorkingGridPlan, MovesOnlyForAPredictedGain) {
  // Whatever it picks is predicted ≥ 10 % faster than the caller's grid, or is that grid.
  for (Solver solver : {Solver::one_stage, Solver::two_stage, Solver::scalapack})
    for (int n : {9, 100, 400, 1200, 4000})
      for (GridShape given : {GridShape{1, 2}, GridShape{1, 3}, GridShape{2, 2}, GridShape{1, 5}})
        for (int cores : {2, 64}) {
          const GridProblem problem{solver, 'z', n, n / 2 + 1, true, 32};
          const RankPlacement placement = one_node(ranks_of(given), cores);
          const GridShape s = dense::plan_working_grid(problem, given, placement);
          ASSERT_LE(ranks_of(s), ranks_of(given));
          if (s.nprow == given.nprow && s.npcol == given.npcol) continue;
          EXPECT_LE(dense::predicted_seconds(problem, s, given, placement),
                    0.9 * dense::predicted_seconds(problem, given, given, placement));
        }
}

TEST(WorkingGridPlan, OversubscriptionCountsRanksPerNode) {
  RankPlacement two_nodes;
  two_nodes.node = {0, 0, 0, 1, 1, 1};
  two_nodes.cores = {2, 4};
  EXPECT_DOUBLE_EQ(two_nodes.oversubscription(2), 1.0);
  EXPECT_DOUBLE_EQ(two_nodes.oversubscription(3), 1.5);
  EXPECT_DOUBLE_EQ(two_nodes.oversubscription(6), 1.5);
}

TEST(WorkingGridPlacement, SameOnEveryRank) {
  const Grid grid(MPI_COMM_WORLD);
  const RankPlacement p = dense::rank_placement(grid.comm());
  ASSERT_EQ(static_cast<int>(p.node.size()), grid.size());
  std::vector<int> mine = p.node;
  mine.insert(mine.end(), p.cores.begin(), p.cores.end());
  mine.push_back(static_cast<int>(mine.size()));
  std::vector<int> first = mine;
  MPI_Bcast(first.data(), static_cast<int>(first.size()), MPI_INT, 0, grid.comm());
  EXPECT_EQ(mine, first);
  for (int c : p.cores) EXPECT_GE(c, 1);
}

template <class T>
class WorkingGridSolve : public ::testing::Test {};
TYPED_TEST_SUITE(WorkingGridSolve, ScalarTypes);

// Every sub-grid shape of the first ranks this job can have.
std::vector<GridShape> sub_shapes(int p) {
  std::vector<GridShape> shapes{{1, 1}};
  if (p > 2) shapes.push_back({1, p - 1});
  if (p > 2) shapes.push_back({p - 1, 1});
  if (p >= 5) shapes.push_back({2, (p - 1) / 2});
  return shapes;
}

TYPED_TEST(WorkingGridSolve, MovedSolvesMatchLapack) {
  using T = TypeParam;
  const Grid grid(MPI_COMM_WORLD);
  dense::SubGrids subgrids;
  for (GridShape shape : sub_shapes(grid.size()))
    for (int n : {1, 2, 37})
      for (Solver solver : {Solver::one_stage, Solver::two_stage, Solver::scalapack})
        for (int nev : {1, n}) {
          SCOPED_TRACE(std::string(to_string(solver)) + " on " + std::to_string(shape.nprow) + "x" +
                       std::to_string(shape.npcol) + " N=" + std::to_string(n) +
                       " nev=" + std::to_string(nev));
          const int nb = 4;
          DistMatrix<T> A(grid, n, n, nb);
          generate::random_hermitian(A, 5 + n);
          std::vector<T> full = A.gather(0);
          std::vector<real_t<T>> ref;
          if (grid.rank() == 0) ref = lapack_eigenvalues<T>(full, n);
          DistMatrix<T> work = A.clone();
          DistMatrix<T> Z(grid, n, solver == Solver::scalapack ? n : nev, nb, nb);
          EigensolverOptions opt;
          opt.solver = solver;
          opt.nev = nev;
          opt.grid_choice = GridChoice::as_given;
          StageTimes times;
          const std::vector<real_t<T>> w =
              dense::solve_on_subgrid<T>(subgrids.get(grid, shape).get(), work, &Z, times,
                                         [&](DistMatrix<T>& M, DistMatrix<T>* V, StageTimes& t) {
                                           Eigensolver<T> es(opt);
                                           auto values = es.eigenvectors(M, *V);
                                           t = es.timings();
                                           return values;
                                         });
          ASSERT_EQ(static_cast<int>(w.size()), nev);
          EXPECT_GT(times.get(Stage::redistribute), 0.0);
          EXPECT_GT(times.get(Stage::tridiagonal_solve) + times.get("p?syevd") +
                        times.get("p?heevd") + times.get("p?syevr") + times.get("p?heevr"),
                    0.0);
          const double tol = accuracy_tolerance<T>(n);
          if (grid.rank() == 0) {
            std::vector<real_t<T>> lowest(ref.begin(), ref.begin() + nev);
            EXPECT_LE(accuracy::eigenvalue_error(w, lowest), tol);
          }
          EXPECT_LE(accuracy::residual(A, w, Z), tol);
          EXPECT_LE(accuracy::orthogonality(Z, nev), tol);
        }
}

TEST(WorkingGridErrors, AnErrorOfTheMovedSolveReachesEveryRank) {
  const Grid grid(MPI_COMM_WORLD);
  dense::SubGrids subgrids;
  DistMatrix<double> A(grid, 20, 20, 4);
  generate::random_hermitian(A, 3);
  const Error e = error_of([&] {
    StageTimes times;
    dense::solve_on_subgrid<double>(
        subgrids.get(grid, {1, 1}).get(), A, nullptr, times,
        [](DistMatrix<double>&, DistMatrix<double>*, StageTimes&) -> std::vector<double> {
          throw Error(ErrorCode::numerical_failure, "from the sub-grid");
        });
  });
  EXPECT_EQ(e.code(), ErrorCode::numerical_failure);
  EXPECT_STREQ(e.what(), "from the sub-grid");
}

// The sub-grids are kept per process set: a new Grid over the same ranks (a DFT code may
// make one per call) finds them (each new parent kept 14 communicators and 2 BLACS grids
// alive before). A set one rank dropped, by its own use, is made anew on every rank: no
// rank may skip the collectives the others run (a hang), and the new grid solves.
TEST(WorkingGridErrors, SubGridsAreKeptPerProcessSet) {
  const Grid grid(MPI_COMM_WORLD);
  dense::SubGrids cache(1);
  const auto first = cache.get(grid, {1, 1});
  EXPECT_EQ(first != nullptr, grid.rank() == 0);
  const Grid twin(MPI_COMM_WORLD);
  EXPECT_EQ(cache.get(twin, {1, 1}), first);
  EXPECT_EQ(cache.placement(twin).node.size(), static_cast<std::size_t>(grid.size()));
  if (grid.rank() == 0) {  // with capacity 1 this drops the world's set on rank 0 only
    const Grid alone(MPI_COMM_SELF);
    EXPECT_NE(cache.get(alone, {1, 1}), nullptr);
  }
  const auto again = cache.get(grid, {1, 1});
  EXPECT_EQ(again != nullptr, grid.rank() == 0);
  if (grid.rank() == 0 && grid.size() > 1) {
    EXPECT_NE(again, first);  // made anew
  }
  DistMatrix<double> A(grid, 30, 30, 4), Z(grid, 30, 30, 4);
  generate::random_hermitian(A, 8);
  const DistMatrix<double> kept = A.clone();
  StageTimes times;
  const std::vector<double> w = dense::solve_on_subgrid<double>(
      again.get(), A, &Z, times, [](DistMatrix<double>& M, DistMatrix<double>* V, StageTimes&) {
        EigensolverOptions opt;
        opt.solver = Solver::one_stage;
        return Eigensolver<double>(opt).eigenvectors(M, *V);
      });
  ASSERT_EQ(w.size(), 30u);
  EXPECT_LE(accuracy::residual(kept, w, Z), accuracy_tolerance<double>(30));
}

// Two caches stand for two threads' (each thread keeps its own, so that two threads
// solving at once never share a sub-grid's communicators): rank 0 gets the sub-grid
// through one, the others through the other, then all through the first, where only rank
// 0 has it. Every rank must then make it anew: a rank returning its kept grid while the
// others split the communicator hung (the threads of one rank diverged like this).
TEST(WorkingGridErrors, KeptShapesAreAgreedOnByEveryRank) {
  const Grid grid(MPI_COMM_WORLD);
  dense::SubGrids first, second;
  (void)first.placement(grid);
  (void)(grid.rank() == 0 ? first : second).get(grid, {1, 1});
  const auto sub = first.get(grid, {1, 1});
  EXPECT_EQ(sub != nullptr, grid.rank() == 0);
  EXPECT_EQ(first.get(grid, {1, 1}), sub);
  // A thread's cache is shared while someone holds it, and freed with the last holder
  // (all Eigensolvers and C handles gone: then Cblacs_exit ends no context still kept).
  const std::shared_ptr<dense::SubGrids> mine = dense::SubGrids::this_thread();
  EXPECT_EQ(dense::SubGrids::this_thread(), mine);
  std::shared_ptr<dense::SubGrids> other_thread;
  std::thread([&] { other_thread = dense::SubGrids::this_thread(); }).join();
  EXPECT_NE(other_thread, mine);
  const std::weak_ptr<dense::SubGrids> released = other_thread;
  other_thread.reset();
  EXPECT_TRUE(released.expired());
}

template <class T>
class WorkingGridApi : public ::testing::Test {};
TYPED_TEST_SUITE(WorkingGridApi, ScalarTypes);

// Through Eigensolver: a problem far too small for its ranks moves (when there is more
// than one rank), as_given never moves, and both give the same correct answer.
TYPED_TEST(WorkingGridApi, AutomaticAndAsGiven) {
  using T = TypeParam;
  const Grid grid(MPI_COMM_WORLD);
  const int n = 9, nb = 2;
  DistMatrix<T> H(grid, n, n, nb), S(grid, n, n, nb);
  generate::random_hermitian(H, 11);
  generate::random_positive_definite(S, 12);
  std::vector<T> full = H.gather(0);
  std::vector<real_t<T>> ref;
  if (grid.rank() == 0) ref = lapack_eigenvalues<T>(full, n);
  for (GridChoice choice : {GridChoice::automatic, GridChoice::as_given})
    for (bool generalized : {false, true}) {
      SCOPED_TRACE(std::string(to_string(choice)) + (generalized ? " generalized" : ""));
      EigensolverOptions opt;
      opt.grid_choice = choice;
      opt.validate = true;
      Eigensolver<T> es(opt);
      DistMatrix<T> work = H.clone(), Z(grid, n, n, nb, nb);
      const std::vector<real_t<T>> w =
          generalized ? es.generalized_eigenvectors(work, S, Z) : es.eigenvectors(work, Z);
      const GridShape used = es.last_grid();
      if (choice == GridChoice::as_given || grid.size() == 1) {
        EXPECT_EQ(used.nprow, grid.nprow());
        EXPECT_EQ(used.npcol, grid.npcol());
      } else {
        EXPECT_LT(used.nprow * used.npcol, grid.size());
      }
      const double tol = accuracy_tolerance<T>(n);
      if (generalized) {
        EXPECT_LE(accuracy::generalized_residual(H, S, w, Z), tol);
        EXPECT_LE(accuracy::s_orthogonality(S, Z, n), tol);
      } else {
        if (grid.rank() == 0) {
          EXPECT_LE(accuracy::eigenvalue_error(w, ref), tol);
        }
        EXPECT_LE(accuracy::residual(H, w, Z), tol);
        EXPECT_LE(accuracy::orthogonality(Z, n), tol);
      }
    }
}

TEST(WorkingGridApi, NamesRoundTrip) {
  for (GridChoice g : {GridChoice::automatic, GridChoice::as_given})
    EXPECT_EQ(grid_choice_from_string(to_string(g)), g);
  EXPECT_EQ(error_of([] { grid_choice_from_string("square"); }).code(),
            ErrorCode::invalid_argument);
}

}  // namespace
}  // namespace tseig::test
