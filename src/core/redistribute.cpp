// Redistribution by runs: this process's rows of one layout cut where either layout's
// block changes; each run goes whole to one process row of the other layout. Sender and
// receiver enumerate what they share in the same order (global columns, then global
// rows, ascending), so no indices travel with the data.
#include "core/redistribute.hpp"

#include <algorithm>
#include <climits>
#include <vector>

#include "core/buffer_cache.hpp"
#include "core/collectives.hpp"
#include "core/instantiate.hpp"
#include "core/mpi_types.hpp"
#include "tseig/error.hpp"
#include "tseig/index_map.hpp"

namespace tseig::detail {

namespace {

// Rows [local, local + count) here, owned by process row (or column) `peer` there.
struct Run {
  int local = 0, count = 0, peer = 0;
};

struct Axis {
  int block, src, procs;
};

// This process's (index `me`) entries of [0, n) in layout `mine`, as runs over `other`.
std::vector<Run> runs(int n, int me, Axis mine, Axis other) {
  std::vector<Run> out;
  const int first_block = (me - mine.src + mine.procs) % mine.procs;
  for (long b = first_block; b * mine.block < n; b += mine.procs) {
    const int begin = static_cast<int>(b * mine.block);
    const int end = std::min(n, begin + mine.block);
    for (int g = begin; g < end;) {
      const int cut = std::min(end, (g / other.block + 1) * other.block);
      out.push_back({block_cyclic::local_index(g, mine.block, mine.procs), cut - g,
                     block_cyclic::owner(g, other.block, other.src, other.procs)});
      g = cut;
    }
  }
  return out;
}

// Pieces of contiguous local entries in the order both sides enumerate what they share
// with the peer at (pr, pc): its columns, then its rows.
template <class T>
std::vector<std::pair<T*, int>> pieces(const std::vector<Run>& rows, const std::vector<Run>& cols,
                                       int pr, int pc, T* data, long lld) {
  std::vector<std::pair<T*, int>> out;
  for (const Run& c : cols)
    if (c.peer == pc)
      for (int lj = c.local; lj < c.local + c.count; ++lj)
        for (const Run& row : rows)
          if (row.peer == pr) out.emplace_back(data + row.local + lj * lld, row.count);
  return out;
}

// Entries of the runs that go to (or come from) `peer`.
long total(const std::vector<Run>& rs, int peer) {
  long t = 0;
  for (const Run& r : rs)
    if (r.peer == peer) t += r.count;
  return t;
}

}  // namespace

template <class T>
void exchange_blocks(MPI_Comm comm, int m, int ncols, const LayoutPart<const T>& src,
                     const LayoutPart<T>& dst) {
  int P = 0;
  MPI_Comm_size(comm, &P);
  if (P == 1) {
    // One process holds both whole: local indices are global ones, a column-wise copy
    // (no staging buffers: their first touch cost as much as the copy at N = 2000).
    for (long j = 0; j < ncols; ++j) std::copy_n(src.data + j * src.lld, m, dst.data + j * dst.lld);
    return;
  }
  // Every rank's place in both grids (−1: not in it), and from them the grids' shapes.
  std::vector<int> at(4 * static_cast<std::size_t>(P));
  const int mine[4] = {src.prow, src.pcol, dst.prow, dst.pcol};
  MPI_Allgather(mine, 4, MPI_INT, at.data(), 4, MPI_INT, comm);
  int shape[4] = {0, 0, 0, 0};
  for (int r = 0; r < P; ++r)
    for (int k = 0; k < 4; ++k) shape[k] = std::max(shape[k], at[4 * r + k] + 1);
  const Axis src_rows{src.mb, src.rsrc, shape[0]}, src_cols{src.nb, src.csrc, shape[1]};
  const Axis dst_rows{dst.mb, dst.rsrc, shape[2]}, dst_cols{dst.nb, dst.csrc, shape[3]};
  // What I send (my rows and columns of src, by dst's owners) and receive (the reverse).
  const bool in_src = src.prow >= 0, in_dst = dst.prow >= 0;
  std::vector<Run> send_rows, send_cols, recv_rows, recv_cols;
  if (in_src) {
    send_rows = runs(m, src.prow, src_rows, dst_rows);
    send_cols = runs(ncols, src.pcol, src_cols, dst_cols);
  }
  if (in_dst) {
    recv_rows = runs(m, dst.prow, dst_rows, src_rows);
    recv_cols = runs(ncols, dst.pcol, dst_cols, src_cols);
  }
  auto share = [&](const std::vector<Run>& rows, const std::vector<Run>& cols, int pr, int pc) {
    return pr < 0 ? 0 : total(rows, pr) * total(cols, pc);
  };
  std::vector<int> scount(P), sdispl(P), rcount(P), rdispl(P);
  long stotal = 0, rtotal = 0;
  bool too_large = false;
  for (int r = 0; r < P; ++r) {
    const long s = share(send_rows, send_cols, at[4 * r + 2], at[4 * r + 3]);
    const long v = share(recv_rows, recv_cols, at[4 * r], at[4 * r + 1]);
    too_large = too_large || stotal + s > INT_MAX || rtotal + v > INT_MAX;
    scount[r] = static_cast<int>(s);
    sdispl[r] = static_cast<int>(stotal);
    rcount[r] = static_cast<int>(v);
    rdispl[r] = static_cast<int>(rtotal);
    stotal += s;
    rtotal += v;
  }
  raise_if_any(comm, too_large, ErrorCode::unsupported,
               "redistribute: more than 2^31 - 1 local entries to move on a rank");
  // My entries that stay mine go straight from src to dst (without the staging copies
  // and MPI's own copy: three passes over them).
  int me = 0;
  MPI_Comm_rank(comm, &me);
  if (in_src && in_dst && scount[me] > 0) {
    const auto from = pieces(send_rows, send_cols, dst.prow, dst.pcol, src.data, src.lld);
    const auto to = pieces(recv_rows, recv_cols, src.prow, src.pcol, dst.data, dst.lld);
    std::size_t a = 0, b = 0;
    int at_a = 0, at_b = 0;
    while (a < from.size() && b < to.size()) {
      const int k = std::min(from[a].second - at_a, to[b].second - at_b);
      std::copy_n(from[a].first + at_a, k, to[b].first + at_b);
      at_a += k;
      at_b += k;
      if (at_a == from[a].second) ++a, at_a = 0;
      if (at_b == to[b].second) ++b, at_b = 0;
    }
    // The buffers skip my part: the displacements after it move down.
    for (int r = me + 1; r < P; ++r) {
      sdispl[r] -= scount[me];
      rdispl[r] -= rcount[me];
    }
    stotal -= scount[me];
    rtotal -= rcount[me];
    scount[me] = rcount[me] = 0;
  }
  cached_vector<T> sbuf, rbuf;
  allocate_collectively(comm, [&] {
    sbuf.resize(stotal);
    rbuf.resize(rtotal);
  });

  for (int r = 0; r < P; ++r) {
    if (scount[r] == 0) continue;
    const int pr = at[4 * r + 2], pc = at[4 * r + 3];
    T* out = sbuf.data() + sdispl[r];
    for (const Run& c : send_cols)
      if (c.peer == pc)
        for (int lj = c.local; lj < c.local + c.count; ++lj)
          for (const Run& row : send_rows)
            if (row.peer == pr)
              out = std::copy_n(src.data + row.local + static_cast<long>(lj) * src.lld, row.count,
                                out);
  }
  MPI_Alltoallv(sbuf.data(), scount.data(), sdispl.data(), mpi_type<T>(), rbuf.data(),
                rcount.data(), rdispl.data(), mpi_type<T>(), comm);
  for (int r = 0; r < P; ++r) {
    if (rcount[r] == 0) continue;
    const int sr = at[4 * r], sc = at[4 * r + 1];
    const T* in = rbuf.data() + rdispl[r];
    for (const Run& c : recv_cols)
      if (c.peer == sc)
        for (int lj = c.local; lj < c.local + c.count; ++lj)
          for (const Run& row : recv_rows)
            if (row.peer == sr) {
              std::copy_n(in, row.count, dst.data + row.local + static_cast<long>(lj) * dst.lld);
              in += row.count;
            }
  }
}

template <class T>
void redistribute_columns(const DistMatrix<T>& src, DistMatrix<T>& dst, int ncols) {
  const Grid& gs = src.grid();
  const Grid& gd = dst.grid();
  exchange_blocks<T>(
      gd.comm(), src.m(), ncols,
      {src.mb(), src.nb(), src.rsrc(), src.csrc(), gs.myrow(), gs.mycol(), src.data(), src.lld()},
      {dst.mb(), dst.nb(), dst.rsrc(), dst.csrc(), gd.myrow(), gd.mycol(), dst.data(), dst.lld()});
}

#define TSEIG_INSTANTIATE(T)                                                    \
  template void exchange_blocks(MPI_Comm, int, int, const LayoutPart<const T>&, \
                                const LayoutPart<T>&);                          \
  template void redistribute_columns(const DistMatrix<T>&, DistMatrix<T>&, int);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::detail
