#pragma once
// 2D block-cyclic index maps (0-based), with the semantics of ScaLAPACK's
// NUMROC, INDXG2P, INDXG2L and INDXL2G.
namespace tseig::block_cyclic {

/// Process coordinate that owns global index g.
inline int owner(int g, int nb, int src, int nprocs) {
  return (g / nb + src) % nprocs;
}

/// Local index of global index g on its owner.
inline int local_index(int g, int nb, int nprocs) {
  return (g / (nb * nprocs)) * nb + g % nb;
}

/// Global index of local index l on process `proc`.
inline int global_index(int l, int nb, int proc, int src, int nprocs) {
  int dist = (proc - src + nprocs) % nprocs;
  return (l / nb) * nb * nprocs + dist * nb + l % nb;
}

/// Number of indices out of n owned by process `proc` (NUMROC).
inline int local_count(int n, int nb, int proc, int src, int nprocs) {
  int dist = (proc - src + nprocs) % nprocs;
  int nblocks = n / nb;
  int count = (nblocks / nprocs) * nb;
  int extra = nblocks % nprocs;
  if (dist < extra)
    count += nb;
  else if (dist == extra)
    count += n % nb;
  return count;
}

/// Number of local indices on `proc` whose global index is < g, i.e. the local
/// position where the global range [g, n) starts.
inline int local_count_below(int g, int nb, int proc, int src, int nprocs) {
  return local_count(g, nb, proc, src, nprocs);
}

}  // namespace tseig::block_cyclic
