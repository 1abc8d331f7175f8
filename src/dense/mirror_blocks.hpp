#pragma once
// Pairs every block of the lower block triangle with its mirror block across the
// diagonal: what a symmetry check and a triangle fill need. ScaLAPACK's p?tranc moves the
// whole matrix and a whole copy is allocated for it; here only the strictly upper blocks
// travel, each straight to the owner of its mirror, in bounded rounds.
#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include "core/buffer_cache.hpp"
#include "core/collectives.hpp"
#include "core/mpi_types.hpp"
#include "dense/linalg/working_layout.hpp"
#include "tseig/error.hpp"

namespace tseig::dense {

/// Entries per rank (about) that one round of mirror_blocks moves by default: 2 MiB of
/// doubles, so that the send and receive buffers stay in cache and are reused.
inline constexpr long mirror_round_entries = long(1) << 18;

/// Which triangle's blocks travel to the owners of their mirrors.
enum class MirrorFrom { upper, lower };

/// Collective; A in the working layout (is_working_layout). from = upper: for every block
/// (I, J), I ≥ J, of A held here, visit(li, lj, rows, cols, U, ldu) with the block at
/// local (li, lj) (rows × cols entries) and U its mirror (J, I) (cols × rows, column-major,
/// leading dimension ldu: U[j + i·ldu] is A(J·nb + j, I·nb + i)), received from its owner
/// or, for a diagonal block, A's own storage. from = lower: the same for every block
/// (J, I), J ≤ I, held here, U being the lower block (I, J). Blocks are visited by
/// ascending I, in rounds that each move about `round_entries` entries per rank (at least
/// one block row).
template <class T, class Visit>
void mirror_blocks(const DistMatrix<T>& A, Visit&& visit, MirrorFrom from = MirrorFrom::upper,
                   long round_entries = mirror_round_entries) {
  const Grid& grid = A.grid();
  const int n = A.n(), nb = A.nb(), pr = grid.nprow(), pc = grid.npcol();
  const int myrow = grid.myrow(), mycol = grid.mycol(), size = grid.size();
  if (!is_working_layout(A))
    throw Error(ErrorCode::invalid_argument, "mirror_blocks: A must be in the working layout");
  if (n == 0) return;
  const int blocks = (n + nb - 1) / nb;
  const auto extent = [&](int b) { return std::min(nb, n - b * nb); };
  const long fit = round_entries * size / (static_cast<long>(nb) * n);
  const int per_round = static_cast<int>(std::clamp<long>(fit, 1, blocks));
  const bool up = from == MirrorFrom::upper;
  // Of the pairs {(I, J), (J, I)}, J < I: f(J, li, lj, rows, cols, peer) for each of my
  // blocks in the upper triangle (upper) or the lower one, in ascending J, with its local
  // position, its extent and the owner of its mirror.
  const auto my_blocks = [&](int I, bool upper, auto&& f) {
    if (upper ? I % pc != mycol : I % pr != myrow) return;
    for (int J = upper ? myrow : mycol; J < I; J += upper ? pr : pc)
      if (upper)
        f((J / pr) * nb, (I / pc) * nb, extent(J), extent(I), grid.rank_of(I % pr, J % pc));
      else
        f((I / pr) * nb, (J / pc) * nb, extent(I), extent(J), grid.rank_of(J % pr, I % pc));
  };

  std::vector<int> scount(size), sdispl(size), rcount(size), rdispl(size), cursor(size);
  // Fills the counts and displacements of the round of block rows [first, last); returns
  // the entries sent and received.
  const auto plan_round = [&](int first, int last) {
    std::fill(scount.begin(), scount.end(), 0);
    std::fill(rcount.begin(), rcount.end(), 0);
    for (int I = first; I < last; ++I) {
      my_blocks(I, up, [&](int, int, int r, int c, int peer) { scount[peer] += r * c; });
      my_blocks(I, !up, [&](int, int, int r, int c, int peer) { rcount[peer] += r * c; });
    }
    long stotal = 0, rtotal = 0;
    for (int p = 0; p < size; ++p) {
      sdispl[p] = static_cast<int>(stotal);
      rdispl[p] = static_cast<int>(rtotal);
      stotal += scount[p];
      rtotal += rcount[p];
    }
    return std::pair{stotal, rtotal};
  };
  // Buffers at the largest round's size, taken once. Grown round by round, they were
  // fresh pages in most rounds (a round may send nothing and the next more than any
  // before): that took the input check from 0.05 to 0.25 s at N = 5000, np = 2.
  long smax = 1, rmax = 1;
  for (int first = 0; first < blocks; first += per_round) {
    const auto [stotal, rtotal] = plan_round(first, std::min(blocks, first + per_round));
    smax = std::max(smax, stotal);
    rmax = std::max(rmax, rtotal);
  }
  CachedBuffer<T> sbuf, rbuf;
  allocate_collectively(grid.comm(), [&] {
    sbuf.reserve(smax);
    rbuf.reserve(rmax);
  });
  for (int first = 0; first < blocks; first += per_round) {
    const int last = std::min(blocks, first + per_round);
    // Sent: my blocks of the triangle `from`, each to the owner of its mirror, which
    // visits the mirror with it. Both sides list a pair in (I, J) order.
    plan_round(first, last);
    cursor = sdispl;
    for (int I = first; I < last; ++I)
      my_blocks(I, up, [&](int li, int lj, int rows, int cols, int peer) {
        T* to = sbuf.data() + cursor[peer];
        for (int c = 0; c < cols; ++c) std::copy_n(&A.local(li, lj + c), rows, to + c * rows);
        cursor[peer] += rows * cols;
      });
    MPI_Alltoallv(sbuf.data(), scount.data(), sdispl.data(), mpi_type<T>(), rbuf.data(),
                  rcount.data(), rdispl.data(), mpi_type<T>(), grid.comm());
    cursor = rdispl;
    for (int I = first; I < last; ++I) {
      my_blocks(I, !up, [&](int li, int lj, int rows, int cols, int peer) {
        visit(li, lj, rows, cols, rbuf.data() + cursor[peer], cols);
        cursor[peer] += rows * cols;
      });
      if (I % pr == myrow && I % pc == mycol) {
        const int li = (I / pr) * nb, lj = (I / pc) * nb;
        visit(li, lj, extent(I), extent(I), &A.local(li, lj), A.lld());
      }
    }
  }
}

}  // namespace tseig::dense
