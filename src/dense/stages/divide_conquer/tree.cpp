// Recursion over rank ranges; each range gets its own communicator for its merge.
#include "dense/stages/divide_conquer/tree.hpp"

#include <algorithm>
#include <cmath>
#include <new>
#include <utility>

#include "core/blas/host.hpp"
#include "core/instantiate.hpp"
#include "device/runtime.hpp"

namespace tseig::dense::dc {

namespace {

// Cuppen's tearing at a cut between rows s − 1 and s: T = blockdiag(T1, T2) + β·v·vᵀ.
template <class R>
void tear(std::vector<R>& d, const std::vector<R>& e, int s) {
  d[s - 1] -= std::abs(e[s - 1]);
  d[s] -= std::abs(e[s - 1]);
}

template <class R>
Piece<R> solve_leaf(const std::vector<R>& d, const std::vector<R>& e, int lo, int hi) {
  Piece<R> p;
  p.lo = p.row0 = lo;
  p.hi = hi;
  p.rows = p.cols = hi - lo;
  p.w.assign(d.begin() + lo, d.begin() + hi);
  std::vector<R> sub(std::max(p.rows, 1), R(0));
  std::copy(e.begin() + lo, e.begin() + hi - 1, sub.begin());
  p.q.resize(static_cast<long>(p.rows) * p.rows);
  p.failed = lapack::stedc<R>('I', p.rows, p.w.data(), sub.data(), p.q.data(), p.rows) != 0;
  return p;
}

// With D = cuda, rows on one rank are split down to leaves of about this many (LAPACK
// ?stedc on the host), so that the merges above them run their GEMMs on the GPU
// (segment_gemm.hpp); below it the copies cost more than the GPU saves.
constexpr int gpu_leaf = 1024;

// All eigenvectors of [lo, hi) on this rank: one leaf, or two halves and their merge,
// left factored when the parent forms only factor_for (> 0) columns and that is cheaper
// (never when factor_for ≥ 2/3 of the rows: see merge's test). The halves are leaves,
// or with D = cuda and at least 2·gpu_leaf rows, split further.
template <Device D, class R>
Piece<R> solve_rank(const std::vector<R>& d, const std::vector<R>& e, int lo, int hi,
                    int factor_for, const TuneParameters& tune) {
  const bool deeper = D == Device::cuda && hi - lo >= 2 * gpu_leaf;
  const bool factor =
      factor_for > 0 && 3 * factor_for < 2 * (hi - lo) && hi - lo >= 2 * tune.dc_min_leaf;
  if (!deeper && !factor) return solve_leaf(d, e, lo, hi);
  const int mid = lo + (hi - lo) / 2;
  std::vector<R> torn = d;
  tear(torn, e, mid);
  std::vector<Piece<R>> halves;
  for (auto [a, b] : {std::pair{lo, mid}, {mid, hi}})
    halves.push_back(deeper ? solve_rank<D>(torn, e, a, b, 0, tune) : solve_leaf(torn, e, a, b));
  return merge<D>(MPI_COMM_NULL, std::move(halves), lo, mid, hi, e[mid - 1], 0, hi - lo,
                  factor ? factor_for : 0, tune);
}

// The rows [lo, hi) that are this rank's alone; [first, first + nout) the wanted columns.
template <Device D, class R>
Piece<R> solve_this_rank(const RowSplit& split, const std::vector<R>& d, const std::vector<R>& e,
                         int lo, int hi, int first, int nout, int factor_for,
                         const TuneParameters& tune) {
  if (split.active > 1) return solve_rank<D>(d, e, lo, hi, factor_for, tune);
  // The whole problem on one rank: split it anyway (when it has two leaves or more), so
  // that its top merge forms only the wanted eigenvectors.
  if (hi - lo < 2 * tune.dc_min_leaf) {
    Piece<R> p = solve_leaf(d, e, lo, hi);
    p.cols = nout;
    std::copy(p.q.begin() + static_cast<long>(p.rows) * first,
              p.q.begin() + static_cast<long>(p.rows) * (first + nout), p.q.begin());
    p.q.resize(static_cast<long>(p.rows) * nout);
    return p;
  }
  const int mid = lo + (hi - lo) / 2;
  std::vector<R> torn = d;
  tear(torn, e, mid);
  std::vector<Piece<R>> halves;
  halves.push_back(solve_rank<D>(torn, e, lo, mid, nout, tune));
  halves.push_back(solve_rank<D>(torn, e, mid, hi, nout, tune));
  return merge<D>(MPI_COMM_NULL, std::move(halves), lo, mid, hi, e[mid - 1], first, nout, 0, tune);
}

// The top merge forms only the nout eigenvectors from `first` on (below the top: all,
// first = 0), so its children may stay factored (see
// merge.hpp): only where each factor is one rank's rows, since with wider children B
// would have more columns than rows and the product would cost more than it saves.
template <Device D, class R>
Piece<R> solve_node(MPI_Comm comm, const RowSplit& split, const std::vector<R>& d,
                    const std::vector<R>& e, int p0, int p1, int first, int nout, int factor_for,
                    const TuneParameters& tune) {
  const int lo = split.first[p0], hi = split.first[p1];
  if (p1 - p0 == 1) {
    // This rank's own work: out of memory here is reported to the merge above it (or to
    // the caller), which every rank of it joins.
    try {
      return solve_this_rank<D>(split, d, e, lo, hi, first, nout, factor_for, tune);
    } catch (const std::bad_alloc&) {
      Piece<R> p;
      p.lo = p.row0 = lo;
      p.hi = hi;
      p.out_of_memory = true;
      return p;
    }
  }
  int me = 0;
  MPI_Comm_rank(comm, &me);
  const int pm = p0 + (p1 - p0) / 2;
  const bool left = p0 + me < pm;
  const bool top = p0 == 0 && p1 == split.active;
  const int f = top && p1 - p0 <= 4 ? nout : 0;
  MPI_Comm child;
  MPI_Comm_split(comm, left ? 0 : 1, me, &child);
  std::vector<Piece<R>> mine;
  const int mid = split.first[pm];
  mine.push_back(left ? solve_node<D>(child, split, d, e, p0, pm, 0, mid - lo, f, tune)
                      : solve_node<D>(child, split, d, e, pm, p1, 0, hi - mid, f, tune));
  MPI_Comm_free(&child);
  return merge<D>(comm, std::move(mine), lo, mid, hi, e[mid - 1], first, nout, factor_for, tune);
}

}  // namespace

RowSplit split_rows(int n, int nranks, int min_leaf) {
  RowSplit s;
  s.active = std::clamp(n / min_leaf, 1, nranks);
  s.first.resize(nranks + 1, n);
  for (int r = 0; r <= s.active; ++r)
    s.first[r] = static_cast<int>(static_cast<long>(r) * n / s.active);
  return s;
}

template <Device D, class R>
Piece<R> divide_and_conquer(MPI_Comm comm, const RowSplit& split, std::vector<R> d,
                            const std::vector<R>& e, int first, int count,
                            const TuneParameters& tune) {
  // The merges' GEMMs (segment_gemm.hpp) use the process's GPU, opened here collectively.
  if constexpr (D == Device::cuda) device::context(comm);
  int me = 0;
  MPI_Comm_rank(comm, &me);
  MPI_Comm active;
  MPI_Comm_split(comm, me < split.active ? 0 : MPI_UNDEFINED, me, &active);
  if (active == MPI_COMM_NULL) return {};
  for (int r = 1; r < split.active; ++r) tear(d, e, split.first[r]);
  Piece<R> p = solve_node<D>(active, split, d, e, 0, split.active, first, count, 0, tune);
  MPI_Comm_free(&active);
  return p;
}

#define TSEIG_INSTANTIATE(D, R)                                                         \
  template Piece<R> divide_and_conquer<D, R>(MPI_Comm, const RowSplit&, std::vector<R>, \
                                             const std::vector<R>&, int, int,           \
                                             const TuneParameters&);
TSEIG_FOR_EACH_DEVICE_AND_REAL(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense::dc
