#pragma once
// Graceful degradation: the grid a dense solve runs on. A prime or awkward rank count
// (1×P), a problem too small for its P ranks, or more ranks than cores solve on a grid
// of the first p ranks (p = P, P − 1 or fewer) that a deterministic cost model predicts
// faster; A moves there and Z back with p?gemr2d over A's communicator, the other ranks
// wait. Deterministic: the same problem on the same launch takes the same grid, so the
// results stay reproducible.
#include <functional>
#include <vector>

#include "dense/rank_placement.hpp"
#include "tseig/eigensolver.hpp"
#include "tseig/grid.hpp"
#include "tseig/matrix.hpp"
#include "tseig/stage_times.hpp"

namespace tseig::dense {

/// A problem as the plan sees it.
struct GridProblem {
  Solver solver = Solver::one_stage;  ///< the solver that will run (not automatic)
  char type = 'd';                    ///< 's', 'd', 'c', 'z'
  int n = 0;
  int nev = 0;
  bool vectors = true;
  int nb = 64;
};

/// Predicted seconds of the solve on `shape` (the first nprow·npcol ranks), moving A and
/// Z when it is not `given`. Nominal machine rates: only ratios between grids matter.
double predicted_seconds(const GridProblem& problem, GridShape shape, GridShape given,
                         const RankPlacement& placement);

/// The grid to solve on: the best of the grids of P, of P − 1 and of fewer ranks, or
/// `given` unless another is predicted at least 10 % faster.
GridShape plan_working_grid(const GridProblem& problem, GridShape given,
                            const RankPlacement& placement);

/// A solve on the sub-grid: A (N×N) and Z (N×≥count, or nullptr) laid out there; returns
/// the count eigenvalues found, their vectors in Z's first columns.
template <class T>
using SubgridSolve =
    std::function<std::vector<real_t<T>>(DistMatrix<T>& A, DistMatrix<T>* Z, StageTimes& times)>;

/// Collective over A's grid: moves A to `sub` (nullptr on ranks outside it) in blocks of
/// A.nb(), runs `solve` there on a Z of Z's width, and moves the columns it filled back.
/// Every rank returns the eigenvalues and gets the stage times; an error of the solve is
/// thrown on every rank.
template <class T>
std::vector<real_t<T>> solve_on_subgrid(const Grid* sub, DistMatrix<T>& A, DistMatrix<T>* Z,
                                        StageTimes& times, const SubgridSolve<T>& solve);

}  // namespace tseig::dense
