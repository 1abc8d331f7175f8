#pragma once
// Grid: an MPI communicator arranged as a P×Q process grid, with row and column
// sub-communicators and a BLACS context for ScaLAPACK interoperability.
#include <mpi.h>

#include <memory>
#include "tseig/export.hpp"

namespace tseig {

/// How ranks of the communicator are laid on the grid (as BLACS 'R' / 'C').
enum class GridOrder { row_major, column_major };

class TSEIG_API Grid {
 public:
  /// An empty placeholder; any query on it throws. Assign a real grid before use.
  Grid() = default;
  /// Collective over `comm`. nprow = npcol = 0 picks the most square P×Q with P ≤ Q
  /// and P·Q = size (a prime size gives 1×size). The communicator is duplicated.
  explicit Grid(MPI_Comm comm, int nprow = 0, int npcol = 0,
                GridOrder order = GridOrder::row_major);

  /// Adopts an existing BLACS grid (collective over the processes of the BLACS
  /// system context). The context stays the caller's: it is used, never freed.
  static Grid from_blacs(int blacs_context);

  int nprow() const;
  int npcol() const;
  int myrow() const;
  int mycol() const;
  int rank() const;  ///< rank in comm()
  int size() const;  ///< nprow()·npcol()
  GridOrder order() const;
  /// Rank in comm() of the process at grid position (prow, pcol).
  int rank_of(int prow, int pcol) const;

  MPI_Comm comm() const;      ///< all processes of the grid
  MPI_Comm row_comm() const;  ///< my process row; rank in it == mycol()
  MPI_Comm col_comm() const;  ///< my process column; rank in it == myrow()
  /// BLACS context of this grid (created on first use, collective then).
  int blacs_context() const;

  /// True if both grids are the same object or share one BLACS grid (Grid::from_blacs of
  /// one context); the same answer on every rank. Matrices on twin grids (two Grid
  /// objects over one communicator) are copied where a routine needs one grid.
  bool same_as(const Grid& other) const;
  /// True if both grids are over the same processes (in any shape), so data can move
  /// between them with one collective.
  bool same_processes(const Grid& other) const;

 private:
  struct State;
  std::shared_ptr<State> state_;
};

/// The most square factorization nprow×npcol = nprocs with nprow ≤ npcol.
TSEIG_API void square_grid_shape(int nprocs, int& nprow, int& npcol);

}  // namespace tseig
