#pragma once
// Sub-grids of the first ranks of a grid (the working grid's, working_grid.hpp), created
// once per process set and shape and kept: a solver is called thousands of times on the
// same ranks, often through a new Grid, Eigensolver or C handle each call.
#include <deque>
#include <memory>
#include <utility>
#include <vector>

#include "dense/rank_placement.hpp"
#include "tseig/eigensolver.hpp"
#include "tseig/grid.hpp"

namespace tseig::dense {

class SubGrids {
 public:
  /// Keeps the grids of at most `capacity` process sets (a run uses one or a few
  /// communicators): more drop the least recently used, with its grids.
  explicit SubGrids(std::size_t capacity = 4) : capacity_(capacity) {}

  /// The cache of the calling thread, which every Eigensolver and C handle it runs
  /// shares and keeps: it lives while one of them does, so destroying them all frees its
  /// grids (before Cblacs_exit, say, which ends every BLACS context). One per thread: two
  /// threads solving at once over the same ranks must not share a sub-grid.
  static std::shared_ptr<SubGrids> this_thread();

  /// Collective over parent's communicator: where its ranks run.
  RankPlacement placement(const Grid& parent);
  /// Collective over parent's communicator: the grid of its first nprow·npcol ranks on
  /// those ranks, nullptr on the others.
  std::shared_ptr<const Grid> get(const Grid& parent, GridShape shape);

 private:
  /// What is kept for the processes of one communicator (in one rank order).
  struct ProcessSet {
    Grid parent;  ///< the first grid seen over them; identity by MPI_Comm_compare
    RankPlacement placement;
    std::vector<std::pair<GridShape, std::shared_ptr<const Grid>>> subs;  ///< nullptr: not a member
  };

  /// Collective over parent's communicator: its process set, made anew on every rank
  /// where any rank lacks it, so that all ranks take the same collective path.
  std::shared_ptr<ProcessSet> set_of(const Grid& parent);

  std::size_t capacity_;
  std::deque<std::shared_ptr<ProcessSet>> sets_;  ///< most recently used last
};

}  // namespace tseig::dense
