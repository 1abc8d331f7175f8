// Redistribution by runs: this process's rows of one layout cut where either layout's
// block changes; each run goes whole to one process row of the other layout. Sender and
// receiver enumerate what they share in the same order (global columns, then global
// rows, ascending), so no indices travel with the data.
#include "core/redistribute.hpp"

#include <algorithm>
#include <climits>
#include <utility>
#include <vector>

#include "core/buffer_cache.hpp"
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

// The grid position (process row, column) of each rank.
std::vector<std::pair<int, int>> positions(const Grid& g) {
  std::vector<std::pair<int, int>> at(static_cast<std::size_t>(g.size()));
  for (int pr = 0; pr < g.nprow(); ++pr)
    for (int pc = 0; pc < g.npcol(); ++pc)
      at[static_cast<std::size_t>(g.rank_of(pr, pc))] = {pr, pc};
  return at;
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
void redistribute_columns(const DistMatrix<T>& src, DistMatrix<T>& dst, int ncols) {
  const Grid& gs = src.grid();
  const Grid& gd = dst.grid();
  const int m = src.m(), P = gd.size();
  const Axis src_rows{src.mb(), src.rsrc(), gs.nprow()}, src_cols{src.nb(), src.csrc(), gs.npcol()};
  const Axis dst_rows{dst.mb(), dst.rsrc(), gd.nprow()}, dst_cols{dst.nb(), dst.csrc(), gd.npcol()};
  // What I send (my rows and columns of src, by dst's owners) and receive (the reverse).
  const auto send_rows = runs(m, gs.myrow(), src_rows, dst_rows);
  const auto send_cols = runs(ncols, gs.mycol(), src_cols, dst_cols);
  const auto recv_rows = runs(m, gd.myrow(), dst_rows, src_rows);
  const auto recv_cols = runs(ncols, gd.mycol(), dst_cols, src_cols);

  // A rank is the same process in both grids (they are congruent): to it I send its dst
  // position's share of my src entries, from it I receive my dst share of its src ones.
  const auto to = positions(gd), from = positions(gs);
  std::vector<int> scount(P), sdispl(P), rcount(P), rdispl(P);
  long stotal = 0, rtotal = 0;
  bool too_large = false;
  for (int r = 0; r < P; ++r) {
    const auto [pr, pc] = to[static_cast<std::size_t>(r)];
    const auto [sr, sc] = from[static_cast<std::size_t>(r)];
    const long s = total(send_rows, pr) * total(send_cols, pc);
    const long v = total(recv_rows, sr) * total(recv_cols, sc);
    too_large = too_large || stotal + s > INT_MAX || rtotal + v > INT_MAX;
    scount[r] = static_cast<int>(s);
    sdispl[r] = static_cast<int>(stotal);
    rcount[r] = static_cast<int>(v);
    rdispl[r] = static_cast<int>(rtotal);
    stotal += s;
    rtotal += v;
  }
  raise_if_any(gd.comm(), too_large, ErrorCode::unsupported,
               "redistribute: more than 2^31 - 1 local entries to move on a rank");
  cached_vector<T> sbuf, rbuf;
  collectively(gd.comm(), [&] {
    sbuf.resize(stotal);
    rbuf.resize(rtotal);
  });

  for (int r = 0; r < P; ++r) {
    if (scount[r] == 0) continue;
    const auto [pr, pc] = to[static_cast<std::size_t>(r)];
    T* out = sbuf.data() + sdispl[r];
    for (const Run& c : send_cols)
      if (c.peer == pc)
        for (int lj = c.local; lj < c.local + c.count; ++lj)
          for (const Run& row : send_rows)
            if (row.peer == pr) out = std::copy_n(&src.local(row.local, lj), row.count, out);
  }
  MPI_Alltoallv(sbuf.data(), scount.data(), sdispl.data(), mpi_type<T>(), rbuf.data(),
                rcount.data(), rdispl.data(), mpi_type<T>(), gd.comm());
  for (int r = 0; r < P; ++r) {
    if (rcount[r] == 0) continue;
    const auto [sr, sc] = from[static_cast<std::size_t>(r)];
    const T* in = rbuf.data() + rdispl[r];
    for (const Run& c : recv_cols)
      if (c.peer == sc)
        for (int lj = c.local; lj < c.local + c.count; ++lj)
          for (const Run& row : recv_rows)
            if (row.peer == sr) {
              std::copy_n(in, row.count, &dst.local(row.local, lj));
              in += row.count;
            }
  }
}

#define TSEIG_INSTANTIATE(T) \
  template void redistribute_columns(const DistMatrix<T>&, DistMatrix<T>&, int);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::detail
