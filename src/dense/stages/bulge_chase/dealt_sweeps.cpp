// Sweeps dealt out on one node. Step j of sweep s needs only step j + 2 of sweep s − 1
// done (the last one whose rows and columns it shares) and touches nothing that steps
// beyond j + 2 of the sweeps before it touch, so the rank running sweep s can follow the
// rank running s − 1 three steps behind, down the same band in shared memory. With every
// rank on its own sweeps, P ranks chase up to P× as fast as one; a split of the columns
// into one chunk per rank is bound near 1.5× on two ranks, as the sweeps thin out to the
// right and the left chunk runs out of work first. Groups of consecutive sweeps stay on
// one rank (run as a wavefront there), so the band moves between the cores' caches once
// per group rather than once per sweep.
#include "dense/stages/bulge_chase/dealt_sweeps.hpp"

#include <sched.h>

#include <algorithm>

#include "core/collectives.hpp"
#include "core/instantiate.hpp"
#include "dense/stages/bulge_chase/chase_step.hpp"
#include "dense/stages/bulge_chase/sweep_progress.hpp"

namespace tseig::dense {

template <class T>
std::optional<BandReflectors<T>> chase_dealt_sweeps(const std::vector<T>& band, int n, int b,
                                                    MPI_Comm comm, bool keep_reflectors,
                                                    int group) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const int sweeps = std::max(n - 1, 0);
  // Each rank fills (and places in the window) an equal share of the columns.
  const int lo = static_cast<int>(static_cast<long>(n) * rank / size);
  const int hi = static_cast<int>(static_cast<long>(n) * (rank + 1) / size);
  BandColumns<T> columns(comm, true, 2 * static_cast<std::size_t>(b), lo, hi, 0, n);
  if (!columns.shared()) return std::nullopt;
  SweepProgress progress(comm, sweeps);
  if (!progress.active()) return std::nullopt;

  BandReflectors<T> out;
  const SweepDeal deal{std::max(group, 1), size, rank};
  std::optional<BandWork<T>> work;
  std::vector<T> scratch, y;
  allocate_collectively(comm, [&] {
    out.reserve_rows(n, b, 0, n, keep_reflectors, 0, sweeps, deal);
    out.d.assign(static_cast<std::size_t>(n), 0);
    out.e.assign(static_cast<std::size_t>(sweeps), 0);
    scratch.resize(static_cast<std::size_t>(b));
    y.reserve(static_cast<std::size_t>(b));
    work.emplace(columns, band, n, b);
  });
  columns.filled(comm);

  // My sweeps in flight, oldest first, each one step per round: a group's sweeps move
  // down together three steps apart, as the next rank's first sweep follows my last.
  struct Sweep {
    int s, j;
  };
  std::vector<Sweep> flight;
  const std::size_t in_flight = static_cast<std::size_t>(deal.group);
  auto next_mine = [&](int s) {
    while (s < sweeps && !deal.holds(s)) ++s;
    return s;
  };
  for (int s_next = next_mine(0); !flight.empty() || s_next < sweeps;) {
    for (; flight.size() < in_flight && s_next < sweeps; s_next = next_mine(s_next + 1))
      flight.push_back({s_next, 0});
    bool progressed = false;
    for (Sweep& f : flight) {
      if (f.s > 0 && progress.done(f.s - 1) < std::min(f.j + 3, out.steps(f.s - 1))) continue;
      chase_step(*work, out, f.s, f.j, y, scratch);
      progress.set_done(f.s, ++f.j);
      progressed = true;
    }
    std::erase_if(flight, [&](const Sweep& f) { return f.j >= out.steps(f.s); });
    // Waiting for another rank's sweep: give the core away, in case that rank shares it.
    if (!progressed) sched_yield();
  }
  columns.filled(comm);  // every sweep done, every rank's stores visible
  for (int i = 0; i < n; ++i) {
    out.d[static_cast<std::size_t>(i)] = std::real(work->at(i, i));
    if (i + 1 < n) out.e[static_cast<std::size_t>(i)] = std::real(work->at(i + 1, i));
  }
  return out;
}

#define TSEIG_INSTANTIATE(T)                                                                    \
  template std::optional<BandReflectors<T>> chase_dealt_sweeps(const std::vector<T>&, int, int, \
                                                               MPI_Comm, bool, int);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense
