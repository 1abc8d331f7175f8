#pragma once
// Stage 2 of the two-stage path: Hermitian band matrix → real symmetric tridiagonal by
// Householder bulge chasing (the scheme of LAPACK ?hetrd_hb2st and ELPA's tridiag_band).
#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <limits>
#include <utility>
#include <vector>

#include "core/buffer_cache.hpp"
#include "tseig/types.hpp"

namespace tseig::dense {

/// Which sweeps a rank holds when the chase dealt them out: groups of `group` consecutive
/// sweeps go to `ranks` ranks in turn, and this one holds group g if g mod ranks = rank.
struct SweepDeal {
  int group = 1, ranks = 1, rank = 0;
  bool holds(int s) const { return (s / group) % ranks == rank; }
};

/// The tridiagonal matrix and the reflectors that produced it. Sweep s (0 ≤ s ≤ n−2)
/// has steps j = 0, 1, …, steps(s)−1; reflector (s, j) acts on rows r = s+1+j·b to
/// r+len−1, len = min(b, n−r), as H = I − tau·v·vᴴ with v(0) = 1. With Q = the product of
/// all H in generation order (s ascending, then j ascending), band = Q·tridiag·Qᴴ.
/// A rank holds the reflectors whose first row r lies in [row_lo, row_hi) and whose sweep
/// lies in [sweep_lo, sweep_hi) and in its `deal` (all of them for [0, n), [0, n − 1) and
/// the default deal), so that no rank needs all N²/2 entries; d and e are whole everywhere.
template <class T>
struct BandReflectors {
  int n = 0, b = 1;
  int row_lo = 0, row_hi = 0;      ///< rows of the reflectors held
  int sweep_lo = 0, sweep_hi = 0;  ///< sweeps of the reflectors held
  SweepDeal deal;                  ///< … of which those dealt to this rank
  std::vector<real_t<T>> d, e;
  // Cached: stage 4 reuses the blocks the divide & conquer kept, and vice versa.
  cached_vector<T> v;               ///< reflector (s, j) at v[index(s, j)·b], b slots
  cached_vector<T> tau;             ///< reflector (s, j) at tau[index(s, j)]
  std::vector<std::size_t> first_;  ///< index of reflector (s, j_begin(s))

  int steps(int s) const { return (n - 1 - s + b - 1) / b; }
  int row(int s, int j) const { return s + 1 + j * b; }
  int length(int s, int j) const { return std::min(b, n - row(s, j)); }
  /// The steps of sweep s whose first row lies in [lo, hi): [first, second).
  std::pair<int, int> steps_in(int s, int lo, int hi) const {
    // ⌈(row − s − 1)/b⌉ clamped to [0, steps]; a negative distance clamps to 0 however
    // the division rounds it.
    auto first_at = [&](int row) { return std::clamp((row - s - 1 + b - 1) / b, 0, steps(s)); };
    const int j0 = first_at(lo);
    return {j0, std::max(j0, first_at(hi))};
  }
  /// The steps of sweep s held here: [j_begin(s), j_end(s)).
  int j_begin(int s) const { return steps_in(s, row_lo, row_hi).first; }
  int j_end(int s) const {
    return holds_sweep(s) ? steps_in(s, row_lo, row_hi).second : j_begin(s);
  }
  bool holds_sweep(int s) const { return s >= sweep_lo && s < sweep_hi && deal.holds(s); }
  bool holds(int s, int j) const { return j >= j_begin(s) && j < j_end(s); }
  std::size_t index(int s, int j) const {
    return first_[static_cast<std::size_t>(s)] + static_cast<std::size_t>(j - j_begin(s));
  }
  /// Sizes the storage for the reflectors of rows [lo, hi) and the sweeps of [s_lo, s_hi)
  /// dealt here (none without keep: d and e only). The reflectors of consecutive sweeps
  /// held are contiguous.
  void reserve_rows(int n_, int b_, int lo, int hi, bool keep, int s_lo = 0,
                    int s_hi = std::numeric_limits<int>::max(), SweepDeal deal_ = {}) {
    n = n_;
    deal = deal_;
    b = b_;
    row_lo = lo;
    row_hi = std::max(lo, hi);
    sweep_lo = std::max(0, s_lo);
    sweep_hi = std::max(sweep_lo, std::min(n - 1, s_hi));
    first_.resize(static_cast<std::size_t>(std::max(n - 1, 0)));
    std::size_t count = 0;
    for (int s = 0; s + 1 < n; ++s) {
      first_[static_cast<std::size_t>(s)] = count;
      count += static_cast<std::size_t>(j_end(s) - j_begin(s));
    }
    tau.assign(keep ? count : 0, T(0));
    v.assign(keep ? count * static_cast<std::size_t>(b) : 0, T(0));
  }
};

/// Collective over comm. Band in LAPACK 'L' layout with leading dimension b+1 (lower
/// triangle, b subdiagonals) of the n×n Hermitian matrix, the same on every rank. When
/// all ranks share one node (and share_node), the band lies in an MPI shared-memory window
/// and the ranks take whole sweeps in turn, each following the one before a few steps
/// behind (dealt_sweeps.hpp); each keeps the reflectors of its sweeps. Otherwise the
/// columns are split into contiguous chunks, one per rank, and the sweeps run through them
/// as a pipeline: neighbours exchange only the 2b columns around their common edge, and the
/// sweeps run as a wavefront so that a rank waiting for those goes on with others; each
/// keeps the reflectors its chunk made (rows [row_lo, row_hi)). Every rank receives d
/// and e; reflectors_for_rows moves the reflectors (with keep_reflectors) to where they
/// are used. Both ways give the same results bit for bit.
template <class T>
BandReflectors<T> bulge_chase(const std::vector<T>& band, int n, int b, MPI_Comm comm,
                              bool keep_reflectors = true, bool share_node = true);

/// Collective over comm: the reflectors of rows [lo, hi) and sweeps [s_lo, s_hi) (each
/// rank its own ranges) from the ranks holding them in `mine` (every reflector held by
/// exactly one rank, as bulge_chase leaves them). [0, n) and all sweeps gathers all of them.
template <class T>
BandReflectors<T> reflectors_for_rows(const BandReflectors<T>& mine, MPI_Comm comm, int lo, int hi,
                                      int s_lo = 0, int s_hi = std::numeric_limits<int>::max());

/// Where the reflectors of sweeps [s0, s1) of `q` start in q.v (in units of b entries) and
/// q.tau, and how many there are; s0, s1 within q's sweeps.
template <class T>
std::pair<std::size_t, std::size_t> sweep_range(const BandReflectors<T>& q, int s0, int s1) {
  const std::size_t first = q.first_[static_cast<std::size_t>(s0)];
  const std::size_t end = s1 < q.n - 1 ? q.first_[static_cast<std::size_t>(s1)] : q.tau.size();
  return {first, end - first};
}

}  // namespace tseig::dense
