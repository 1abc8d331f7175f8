// Band → tridiagonal. Sweep s annihilates column s below the subdiagonal with one
// reflector, then chases the bulge that reflector creates down the band: each step
// annihilates the first column of the bulge, applies the reflector from both sides to
// its diagonal block and from the right to the block below, which creates the next
// bulge (chase_step.hpp).
#include "dense/stages/bulge_chase/api.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "core/collectives.hpp"
#include "core/instantiate.hpp"
#include "core/mpi_types.hpp"
#include "dense/stages/bulge_chase/chase_step.hpp"
#include "dense/stages/bulge_chase/dealt_sweeps.hpp"
#include "tseig/error.hpp"

namespace tseig::dense {
namespace {

// Column boundaries of the ranks that take part: chunk p = [cut[p], cut[p+1]). Sweep s
// works on columns ≥ s, so the work left of column x grows like x²: cuts at n·√(p/P)
// balance it. Every chunk is at least 4b wide so a step touches at most the two zones
// at its chunk's ends; fewer ranks take part when the matrix is too small.
std::vector<int> chunk_cuts(int n, int b, int nranks) {
  for (int p = nranks; p > 1; --p) {
    std::vector<int> cut(static_cast<std::size_t>(p) + 1);
    for (int k = 0; k <= p; ++k)
      cut[static_cast<std::size_t>(k)] =
          static_cast<int>(std::lround(n * std::sqrt(static_cast<double>(k) / p)));
    bool wide = true;
    for (int k = 0; k < p; ++k) wide = wide && cut[k + 1] - cut[k] >= 4 * b;
    if (wide) return cut;
  }
  return {0, n};
}

}  // namespace

template <class T>
BandReflectors<T> bulge_chase(const std::vector<T>& band, int n, int b, MPI_Comm comm,
                              bool keep_reflectors, bool share_node) {
  BandReflectors<T> out;
  out.n = n;
  out.b = b;
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (share_node && size > 1)
    if (auto dealt =
            chase_dealt_sweeps(band, n, b, comm, keep_reflectors, dealt_sweep_group(b, sizeof(T))))
      return std::move(*dealt);
  const std::vector<int> cut = chunk_cuts(n, b, size);
  const int active = static_cast<int>(cut.size()) - 1;
  const int lo = rank < active ? cut[rank] : 0, hi = rank < active ? cut[rank + 1] : 0;
  const bool has_left = rank > 0, has_right = rank + 1 < active;
  // Everything this rank needs, on every rank or on none: a rank short of memory must
  // not leave its neighbours waiting in the zone transfers or the reductions below.
  BandColumns<T> columns(comm, false, 2 * static_cast<std::size_t>(b), lo, hi,
                         has_left ? lo - b : lo, has_right ? hi + b : hi);
  std::optional<BandWork<T>> work;
  std::vector<T> scratch, y;
  allocate_collectively(comm, [&] {
    out.reserve_rows(n, b, lo, hi, keep_reflectors);
    out.d.assign(static_cast<std::size_t>(n), 0);
    out.e.assign(static_cast<std::size_t>(std::max(n - 1, 0)), 0);
    scratch.resize(static_cast<std::size_t>(b));
    y.reserve(static_cast<std::size_t>(b));
    columns.allocate();
    if (rank < active) work.emplace(columns, band, n, b);
  });

  if (rank < active) {
    // Zone k (1 ≤ k < active) = columns [cut[k]−b, cut[k]+b): the only columns both
    // neighbours touch. One of them holds it at a time; it moves left → right within a
    // sweep and back for the next sweep while the left rank still has steps near it.
    BandWork<T>& w = *work;
    bool hold_left = false, hold_right = true;
    const MPI_Datatype type = mpi_type<T>();
    // Zones leave by MPI_Isend: a blocking send of this size waits for the matching
    // receive, which the neighbour posts only when it needs the zone again, so both ranks
    // would take turns instead of working at once. The zone is not touched until it
    // comes back, which waits for the send first.
    MPI_Request sent[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};  // left, right zone
    auto transfer = [&](bool send, int zone_cut, int peer) {
      T* buf = w.columns(zone_cut - b);
      const int cnt = w.count(zone_cut - b, zone_cut + b);
      MPI_Request& request = sent[zone_cut == lo ? 0 : 1];
      if (send) {
        MPI_Isend(buf, cnt, type, peer, 0, comm, &request);
      } else {
        MPI_Wait(&request, MPI_STATUS_IGNORE);
        MPI_Recv(buf, cnt, type, peer, 0, comm, MPI_STATUS_IGNORE);
      }
    };
    auto take = [&](bool left) {
      transfer(false, left ? lo : hi, left ? rank - 1 : rank + 1);
      (left ? hold_left : hold_right) = true;
    };
    auto arrived = [&](bool left) {
      int flag = 0;
      MPI_Iprobe(left ? rank - 1 : rank + 1, 0, comm, &flag, MPI_STATUS_IGNORE);
      return flag != 0;
    };
    auto left_zone = [&](int r) { return has_left && r < lo + 2 * b; };
    auto right_zone = [&](int r) { return has_right && r > hi - 2 * b; };

    // Sweeps run as a wavefront, not one after the other: step j of sweep s needs step
    // j + 2 of sweep s − 1 (the last one whose rows and columns it shares), nothing
    // later. So while a zone is away, the steps of later sweeps away from it go on, and
    // the ranks are no longer coupled sweep by sweep (one at a time, the two ranks'
    // chase ran 1.15–1.25× faster than one rank's: d, N = 4000, b = 64).
    struct Sweep {
      int s, j, end;  // the next step and one past my last
    };
    std::vector<Sweep> flight;  // oldest first
    constexpr std::size_t max_in_flight = 32;
    const int sweeps = std::max(0, std::min(n - 1, hi - 1));
    int s_next = 0;
    // Steps that need a zone: what the neighbours wait for.
    auto zone_step = [&](const Sweep& f) {
      const int r = out.row(f.s, f.j);
      return f.j < f.end && (left_zone(r) || right_zone(r));
    };
    auto runnable = [&](std::size_t i) {
      const Sweep& f = flight[i];
      if (f.j >= f.end) return false;
      if (i > 0 && flight[i - 1].s == f.s - 1 && flight[i - 1].j <= f.j + 2) return false;
      const int r = out.row(f.s, f.j);
      if (left_zone(r) && !hold_left) {
        if (!arrived(true)) return false;
        take(true);
      }
      if (right_zone(r) && !hold_right) {
        if (!arrived(false)) return false;
        take(false);
      }
      return true;
    };
    auto run = [&](std::size_t i) {
      Sweep& f = flight[i];
      const int s = f.s, r = out.row(s, f.j);
      chase_step(w, out, s, f.j, y, scratch);
      ++f.j;
      // Hand a zone over as soon as this sweep is done with it here.
      const int next = r + b;
      if (left_zone(r) && !(next < std::min(hi, n) && next < lo + 2 * b) && s + 1 <= lo - 2) {
        transfer(true, lo, rank - 1);  // the left rank still sweeps near it: s+1 < lo
        hold_left = false;
      }
      if (right_zone(r) && (next >= hi && next < n)) {
        transfer(true, hi, rank + 1);  // the sweep continues on the right
        hold_right = false;
      }
    };
    auto zone_steps = [&] {
      bool any = false;
      for (std::size_t i = 0; i < flight.size(); ++i)
        while (zone_step(flight[i]) && runnable(i)) {
          run(i);
          any = true;
        }
      return any;
    };
    while (!flight.empty() || s_next < sweeps) {
      for (; flight.size() < max_in_flight && s_next < sweeps; ++s_next) {
        const auto [j0, j1] = out.steps_in(s_next, lo, hi);
        if (j0 < j1) flight.push_back({s_next, j0, j1});
      }
      bool progressed = zone_steps();
      for (std::size_t i = 0; i < flight.size(); ++i)
        while (!zone_step(flight[i]) && runnable(i)) {
          run(i);
          zone_steps();
          progressed = true;
        }
      // Sweeps finish in order: each one's last step waits for the one before to end.
      std::size_t done = 0;
      while (done < flight.size() && flight[done].j >= flight[done].end) ++done;
      flight.erase(flight.begin(), flight.begin() + static_cast<std::ptrdiff_t>(done));
      if (!progressed && !flight.empty()) {
        // The oldest sweep waits for nothing but a zone: no sweep before it is left.
        const int r = out.row(flight[0].s, flight[0].j);
        take(left_zone(r) && !hold_left);  // else the right zone
      }
    }
    MPI_Waitall(2, sent, MPI_STATUSES_IGNORE);
    // Final values: my chunk, with the zone on my left (whose last holder is me).
    const int d0 = has_left ? lo - b : lo, d1 = has_right ? hi - b : n;
    for (int i = d0; i < d1; ++i) {
      out.d[static_cast<std::size_t>(i)] = std::real(w.at(i, i));
      if (i + 1 < n) out.e[static_cast<std::size_t>(i)] = std::real(w.at(i + 1, i));
    }
  }
  if (size > 1) {
    using R = real_t<T>;
    MPI_Allreduce(MPI_IN_PLACE, out.d.data(), n, mpi_type<R>(), MPI_SUM, comm);
    MPI_Allreduce(MPI_IN_PLACE, out.e.data(), std::max(n - 1, 0), mpi_type<R>(), MPI_SUM, comm);
  }
  return out;
}

#define TSEIG_INSTANTIATE(T) \
  template BandReflectors<T> bulge_chase(const std::vector<T>&, int, int, MPI_Comm, bool, bool);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense
