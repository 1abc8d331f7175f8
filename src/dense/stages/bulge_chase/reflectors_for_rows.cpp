// Moving the bulge chase's reflectors to the ranks that apply them (stage 4): each rank
// asks for the reflectors of a range of rows and receives them from the ranks whose
// chunks made them, in rounds of sweeps so that no buffer grows beyond a few tens of MiB.
#include <mpi.h>

#include <algorithm>
#include <vector>

#include "core/collectives.hpp"
#include "core/instantiate.hpp"
#include "core/mpi_types.hpp"
#include "dense/stages/bulge_chase/api.hpp"

namespace tseig::dense {

template <class T>
BandReflectors<T> reflectors_for_rows(const BandReflectors<T>& mine, MPI_Comm comm, int lo, int hi,
                                      int s_lo, int s_hi) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  const int n = mine.n, b = mine.b;
  const int sweeps = std::max(n - 1, 0);
  // Every rank's held rows, wanted rows and sweeps, and held sweeps.
  const int here[11] = {mine.row_lo,      mine.row_hi,       lo,
                        std::max(lo, hi), std::max(0, s_lo), std::min(sweeps, s_hi),
                        mine.sweep_lo,    mine.sweep_hi,     mine.deal.group,
                        mine.deal.ranks,  mine.deal.rank};
  constexpr std::size_t R = 11;
  std::vector<int> ranges(R * static_cast<std::size_t>(size));
  MPI_Allgather(here, R, MPI_INT, ranges.data(), R, MPI_INT, comm);
  const int me_lo = here[2], me_hi = here[3];
  BandReflectors<T> out;
  allocate_collectively(comm, [&] {
    out.reserve_rows(n, b, me_lo, me_hi, true, here[4], here[5]);
    out.d = mine.d;
    out.e = mine.e;
  });
  if (sweeps == 0) return out;

  // The steps of sweep s in both the rows [l0, h0) held by the rank whose ranges are at h
  // and [l1, h1) wanted by the one at w; none when h does not hold sweep s or w does not
  // want it.
  auto shared = [&](int s, int l0, int h0, const int* h, int l1, int h1, const int* w) {
    const SweepDeal deal{h[8], h[9], h[10]};
    if (s < w[4] || s >= w[5] || s < h[6] || s >= h[7] || !deal.holds(s)) return std::pair{0, 0};
    const auto [a0, e0] = mine.steps_in(s, l0, h0);
    const auto [a1, e1] = mine.steps_in(s, l1, h1);
    return std::pair{std::max(a0, a1), std::max(std::max(a0, a1), std::min(e0, e1))};
  };
  auto count_of = [](std::pair<int, int> r) { return r.second - r.first; };
  // Sweeps per round: the most reflectors any rank sends or receives for one sweep sets it.
  long per_sweep = 1;
  for (int s = 0; s < sweeps; ++s) {
    long sent = 0, received = 0;
    for (int q = 0; q < size; ++q) {
      const int* r = &ranges[R * static_cast<std::size_t>(q)];
      sent += count_of(shared(s, mine.row_lo, mine.row_hi, here, r[2], r[3], r));
      received += count_of(shared(s, r[0], r[1], r, me_lo, me_hi, here));
    }
    per_sweep = std::max({per_sweep, sent, received});
  }
  MPI_Allreduce(MPI_IN_PLACE, &per_sweep, 1, MPI_LONG, MPI_MAX, comm);
  const long budget = (16L << 20) / (static_cast<long>(b + 1) * static_cast<long>(sizeof(T)));
  const int round = static_cast<int>(std::clamp(budget / per_sweep, 1L, static_cast<long>(sweeps)));

  // A reflector travels as b + 1 entries: v, then tau.
  MPI_Datatype unit;
  MPI_Type_contiguous(b + 1, mpi_type<T>(), &unit);
  MPI_Type_commit(&unit);
  std::vector<int> scount(size), sdispl(size), rcount(size), rdispl(size);
  cached_vector<T> sbuf, rbuf;
  for (int s0 = 0; s0 < sweeps; s0 += round) {
    const int s1 = std::min(s0 + round, sweeps);
    for (int q = 0, at = 0, rat = 0; q < size; ++q) {
      const int* r = &ranges[R * static_cast<std::size_t>(q)];
      scount[q] = rcount[q] = 0;
      for (int s = s0; s < s1; ++s) {
        scount[q] += count_of(shared(s, mine.row_lo, mine.row_hi, here, r[2], r[3], r));
        rcount[q] += count_of(shared(s, r[0], r[1], r, me_lo, me_hi, here));
      }
      sdispl[q] = at;
      rdispl[q] = rat;
      at += scount[q];
      rat += rcount[q];
    }
    allocate_collectively(comm, [&] {
      sbuf.resize(static_cast<std::size_t>(sdispl.back() + scount.back()) * (b + 1));
      rbuf.resize(static_cast<std::size_t>(rdispl.back() + rcount.back()) * (b + 1));
    });
    T* p = sbuf.data();
    for (int q = 0; q < size; ++q) {
      const int* r = &ranges[R * static_cast<std::size_t>(q)];
      for (int s = s0; s < s1; ++s) {
        const auto [j0, j1] = shared(s, mine.row_lo, mine.row_hi, here, r[2], r[3], r);
        for (int j = j0; j < j1; ++j, p += b + 1) {
          std::copy_n(&mine.v[mine.index(s, j) * b], b, p);
          p[b] = mine.tau[mine.index(s, j)];
        }
      }
    }
    MPI_Alltoallv(sbuf.data(), scount.data(), sdispl.data(), unit, rbuf.data(), rcount.data(),
                  rdispl.data(), unit, comm);
    const T* g = rbuf.data();
    for (int q = 0; q < size; ++q) {
      const int* r = &ranges[R * static_cast<std::size_t>(q)];
      for (int s = s0; s < s1; ++s) {
        const auto [j0, j1] = shared(s, r[0], r[1], r, me_lo, me_hi, here);
        for (int j = j0; j < j1; ++j, g += b + 1) {
          std::copy_n(g, b, &out.v[out.index(s, j) * b]);
          out.tau[out.index(s, j)] = g[b];
        }
      }
    }
  }
  MPI_Type_free(&unit);
  return out;
}

#define TSEIG_INSTANTIATE(T)                                                                   \
  template BandReflectors<T> reflectors_for_rows(const BandReflectors<T>&, MPI_Comm, int, int, \
                                                 int, int);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense
