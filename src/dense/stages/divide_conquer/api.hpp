#pragma once
// One divide & conquer merge over the ranks that hold a subproblem's rows: the merged
// eigenvectors are blockdiag(Q1, Q2)·G·S (G: deflation rotations, S: secular
// eigenvectors). Rows stay where they are, so each rank multiplies its own rows of
// blockdiag(Q1, Q2)·G by panels of the rows of S they need, which it forms itself from
// the roots (three numbers per root travel); no part of Q or S moves between ranks.
//
// A merge may also leave its result factored, Q = blockdiag(Q1, Q2)·M with M = G·S,
// and not multiply at all. Its parent then forms blockdiag(Q1, Q2)·(M·S_parent) for
// only the columns it wants: for the children of the top merge with nev ≪ n that saves
// the cost of forming all their eigenvectors.
#include <mpi.h>

#include <vector>

#include "core/buffer_cache.hpp"
#include "tseig/device.hpp"
#include "tseig/tune.hpp"

namespace tseig::dense::dc {

/// Rows [row0, row0 + rows) of a factored piece's eigenvectors: B·M[moff : moff + len, :].
template <class R>
struct Factor {
  int row0 = 0, rows = 0, len = 0, moff = 0;
  cached_vector<R> B;  ///< rows × len, column-major
};

/// This rank's share of a solved subproblem [lo, hi) of the tridiagonal matrix.
template <class R>
struct Piece {
  int lo = 0, hi = 0;
  std::vector<R> w;        ///< all hi − lo eigenvalues, ascending, on every rank holding it
  int row0 = 0, rows = 0;  ///< the rows [row0, row0 + rows) held here
  int cols = 0;            ///< eigenvectors held: of `cols` eigenvalues (all but at the top merge)
  /// Plain piece: the eigenvectors' rows, rows × cols, leading dimension rows.
  /// Factored piece: M, mrows × cols, leading dimension mrows.
  cached_vector<R> q;
  std::vector<Factor<R>> factors;  ///< non-empty: the piece is factored
  int mrows = 0;
  bool failed = false;  ///< a LAPACK kernel failed somewhere below (on any rank)
  /// A work array could not be allocated below (on any rank of the last merge, or here);
  /// the piece holds nothing else then.
  bool out_of_memory = false;
};

/// Collective over `comm`, the ranks holding rows of [lo, hi) (MPI_COMM_NULL: a merge
/// inside this rank). `mine` holds this rank's pieces of [lo, mid) and/or [mid, hi), each
/// with all its eigenvectors, plain or factored. beta couples row mid − 1 to row mid; the
/// halves were torn (their touching diagonal entries lowered by |beta|). Returns the
/// merged piece with the eigenvectors of the eigenvalues first, …, first + nout − 1
/// (0-based in ascending order; all of them below the top merge). factor_for > 0
/// (plain inputs, nout = all): the parent will form only factor_for columns, and the
/// result is left factored when that costs this rank fewer flops than forming it (each
/// rank decides for its own rows: a rank's piece stands on its own). The roots are solved
/// in blocks of at most tune.dc_max_panel per rank, and S is applied in panels as wide. Never
/// throws std::bad_alloc: a rank short of memory (or a piece of `mine` marked so) gives every rank
/// a piece marked out_of_memory.
template <Device D, class R>
Piece<R> merge(MPI_Comm comm, std::vector<Piece<R>> mine, int lo, int mid, int hi, R beta,
               int first, int nout, int factor_for, const TuneParameters& tune);

// Host instantiations live in host.cpp; the CUDA backend adds its own beside it.
extern template Piece<float> merge<Device::host, float>(MPI_Comm, std::vector<Piece<float>>, int,
                                                        int, int, float, int, int, int,
                                                        const TuneParameters&);
extern template Piece<double> merge<Device::host, double>(MPI_Comm, std::vector<Piece<double>>, int,
                                                          int, int, double, int, int, int,
                                                          const TuneParameters&);

}  // namespace tseig::dense::dc
