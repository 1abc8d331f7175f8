// One all-to-all per chunk of columns, so the buffers stay a small multiple of a chunk.
#include "dense/stages/divide_conquer/to_block_cyclic.hpp"

#include <algorithm>

#include "core/buffer_cache.hpp"
#include "core/collectives.hpp"
#include "core/instantiate.hpp"
#include "core/mpi_types.hpp"
#include "tseig/error.hpp"

namespace tseig::dense::dc {

namespace {

// Runs of consecutive rows in [a, b) that lie in one block owned by process row `prow`.
struct Run {
  int first, count;
};
template <class T>
std::vector<Run> owned_runs(const DistMatrix<T>& Z, int a, int b, int prow) {
  std::vector<Run> runs;
  for (int i = a; i < b;) {
    const int end = std::min(b, (i / Z.mb() + 1) * Z.mb());
    if (Z.row_owner(i) == prow) runs.push_back({i, end - i});
    i = end;
  }
  return runs;
}

int total_rows(const std::vector<Run>& runs) {
  int n = 0;
  for (const Run& r : runs) n += r.count;
  return n;
}

}  // namespace

template <class T>
void rows_to_block_cyclic(const std::vector<int>& first, const real_t<T>* q, int ncols,
                          DistMatrix<T>& Z, int chunk_cols) {
  using R = real_t<T>;
  const Grid& g = Z.grid();
  const int P = g.size(), me = g.rank();
  const int row0 = first[me], rows = first[me + 1] - row0;
  std::vector<int> prow_of(P), pcol_of(P);
  for (int pr = 0; pr < g.nprow(); ++pr)
    for (int pc = 0; pc < g.npcol(); ++pc) {
      prow_of[g.rank_of(pr, pc)] = pr;
      pcol_of[g.rank_of(pr, pc)] = pc;
    }
  // Rows I send to each process row; rows each rank sends me.
  std::vector<std::vector<Run>> send_runs(g.nprow()), recv_runs(P);
  for (int pr = 0; pr < g.nprow(); ++pr) send_runs[pr] = owned_runs(Z, row0, row0 + rows, pr);
  for (int s = 0; s < P; ++s) recv_runs[s] = owned_runs(Z, first[s], first[s + 1], g.myrow());

  std::vector<int> scount(P), sdispl(P), rcount(P), rdispl(P);
  cached_vector<R> sbuf, rbuf;
  std::vector<std::vector<int>> cols(g.npcol());
  for (int j0 = 0; j0 < ncols; j0 += chunk_cols) {
    const int j1 = std::min(ncols, j0 + chunk_cols);
    for (auto& c : cols) c.clear();
    for (int j = j0; j < j1; ++j) cols[Z.col_owner(j)].push_back(j);
    // My own part is copied directly, the rest goes through one all-to-all.
    int stotal = 0, rtotal = 0;
    for (int r = 0; r < P; ++r) {
      sdispl[r] = stotal;
      scount[r] =
          r == me ? 0
                  : total_rows(send_runs[prow_of[r]]) * static_cast<int>(cols[pcol_of[r]].size());
      stotal += scount[r];
      rdispl[r] = rtotal;
      rcount[r] = r == me ? 0 : total_rows(recv_runs[r]) * static_cast<int>(cols[g.mycol()].size());
      rtotal += rcount[r];
    }
    // Every rank gets its buffers, or every rank raises out_of_memory: never a rank
    // missing from the all-to-all.
    allocate_collectively(g.comm(), [&] {
      sbuf.resize(stotal);
      rbuf.resize(rtotal);
    });
    for (int j : cols[g.mycol()]) {
      T* dst = &Z.local(0, Z.local_col(j));
      for (const Run& run : recv_runs[me])
        std::copy_n(q + (run.first - row0) + static_cast<long>(j) * rows, run.count,
                    dst + Z.local_row(run.first));
    }
    for (int r = 0; r < P; ++r) {
      if (r == me) continue;
      R* v = sbuf.data() + sdispl[r];
      for (int j : cols[pcol_of[r]])
        for (const Run& run : send_runs[prow_of[r]]) {
          v = std::copy_n(q + (run.first - row0) + static_cast<long>(j) * rows, run.count, v);
        }
    }
    MPI_Alltoallv(sbuf.data(), scount.data(), sdispl.data(), mpi_type<R>(), rbuf.data(),
                  rcount.data(), rdispl.data(), mpi_type<R>(), g.comm());
    for (int s = 0; s < P; ++s) {
      if (s == me) continue;
      const R* v = rbuf.data() + rdispl[s];
      for (int j : cols[g.mycol()]) {
        T* dst = &Z.local(0, Z.local_col(j));
        for (const Run& run : recv_runs[s]) {
          std::copy_n(v, run.count, dst + Z.local_row(run.first));
          v += run.count;
        }
      }
    }
  }
}

#define TSEIG_INSTANTIATE(T)                                                         \
  template void rows_to_block_cyclic(const std::vector<int>&, const real_t<T>*, int, \
                                     DistMatrix<T>&, int);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense::dc
