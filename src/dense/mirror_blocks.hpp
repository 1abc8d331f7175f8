#pragma once
// Pairs every block of the lower block triangle with its mirror block across the
// diagonal: what a symmetry check and a triangle fill need. ScaLAPACK's p?tranc moves the
// whole matrix and a whole copy is allocated for it; here only the strictly upper blocks
// travel, each straight to the owner of its mirror, in bounded rounds.
#include <mpi.h>

#include <algorithm>
#include <cstddef>
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

/// Collective; A in the working layout (is_working_layout). For every block (I, J),
/// I ≥ J, of A held here: visit(li, lj, rows, cols, U, ldu), the block at local
/// (li, lj) with rows × cols entries and U its mirror (J, I) (cols × rows, column-major,
/// leading dimension ldu: U[j + i·ldu] is A(J·nb + j, I·nb + i)), received from its owner
/// or, for a diagonal block, A's own storage. Blocks are visited by ascending I, in rounds
/// that each move about `round_entries` entries per rank (at least one block row).
template <class T, class Visit>
void mirror_blocks(const DistMatrix<T>& A, Visit&& visit,
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

  std::vector<int> scount(size), sdispl(size), rcount(size), rdispl(size), cursor(size);
  cached_vector<T> sbuf, rbuf;
  for (int first = 0; first < blocks; first += per_round) {
    const int last = std::min(blocks, first + per_round);
    // Sent: my blocks (J, I), J < I, I in this round, to the owner of (I, J); received:
    // the mirrors of my blocks (I, J), J < I. Both sides list a pair in (I, J) order.
    std::fill(scount.begin(), scount.end(), 0);
    std::fill(rcount.begin(), rcount.end(), 0);
    for (int I = first; I < last; ++I) {
      if (I % pc == mycol)
        for (int J = myrow; J < I; J += pr)
          scount[grid.rank_of(I % pr, J % pc)] += extent(I) * extent(J);
      if (I % pr == myrow)
        for (int J = mycol; J < I; J += pc)
          rcount[grid.rank_of(J % pr, I % pc)] += extent(I) * extent(J);
    }
    long stotal = 0, rtotal = 0;
    for (int p = 0; p < size; ++p) {
      sdispl[p] = static_cast<int>(stotal);
      rdispl[p] = static_cast<int>(rtotal);
      stotal += scount[p];
      rtotal += rcount[p];
    }
    allocate_collectively(grid.comm(), [&] {
      sbuf.resize(stotal);
      rbuf.resize(rtotal);
    });
    cursor = sdispl;
    for (int I = first; I < last; ++I)
      if (I % pc == mycol)
        for (int J = myrow; J < I; J += pr) {
          T* to = sbuf.data() + cursor[grid.rank_of(I % pr, J % pc)];
          const int rows = extent(J), cols = extent(I);
          for (int c = 0; c < cols; ++c)
            std::copy_n(&A.local((J / pr) * nb, (I / pc) * nb + c), rows, to + c * rows);
          cursor[grid.rank_of(I % pr, J % pc)] += rows * cols;
        }
    MPI_Alltoallv(sbuf.data(), scount.data(), sdispl.data(), mpi_type<T>(), rbuf.data(),
                  rcount.data(), rdispl.data(), mpi_type<T>(), grid.comm());
    cursor = rdispl;
    for (int I = first; I < last; ++I) {
      if (I % pr != myrow) continue;
      const int li = (I / pr) * nb;
      for (int J = mycol; J < I; J += pc) {
        const int src = grid.rank_of(J % pr, I % pc);
        visit(li, (J / pc) * nb, extent(I), extent(J), rbuf.data() + cursor[src], extent(J));
        cursor[src] += extent(I) * extent(J);
      }
      if (I % pc == mycol)
        visit(li, (I / pc) * nb, extent(I), extent(I), &A.local(li, (I / pc) * nb), A.lld());
    }
  }
}

}  // namespace tseig::dense
