#pragma once
// One divide & conquer merge over the ranks that hold a subproblem's rows: the merged
// eigenvectors are blockdiag(Q1, Q2)·G·S (G: deflation rotations, S: secular
// eigenvectors). Rows stay where they are, so each rank multiplies its own rows of
// blockdiag(Q1, Q2)·G by panels of S broadcast from the rank that formed them; no part
// of Q moves between ranks.
#include <mpi.h>

#include <vector>

namespace tseig::dense::dc {

/// This rank's share of a solved subproblem [lo, hi) of the tridiagonal matrix.
template <class R>
struct Piece {
  int lo = 0, hi = 0;
  std::vector<R> w;        ///< all hi − lo eigenvalues, ascending, on every rank holding it
  int row0 = 0, rows = 0;  ///< the rows [row0, row0 + rows) held here
  int cols = 0;            ///< eigenvectors held: those of the `cols` smallest eigenvalues
  std::vector<R> q;        ///< rows × cols, column-major, leading dimension rows
  bool failed = false;     ///< a LAPACK kernel failed somewhere below (on any rank)
};

/// Collective over `comm`, the ranks holding rows of [lo, hi) (MPI_COMM_NULL: a merge
/// inside this rank). `mine` holds this rank's pieces of [lo, mid) and/or [mid, hi), each
/// with all its eigenvectors. beta couples row mid − 1 to row mid; the halves were torn
/// (their touching diagonal entries lowered by |beta|). Returns the merged piece with the
/// eigenvectors of the `nout` smallest eigenvalues.
template <class R>
Piece<R> merge(MPI_Comm comm, std::vector<Piece<R>> mine, int lo, int mid, int hi, R beta,
               int nout);

}  // namespace tseig::dense::dc
