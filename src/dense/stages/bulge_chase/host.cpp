// Band → tridiagonal. Sweep s annihilates column s below the subdiagonal with one
// reflector, then chases the bulge that reflector creates down the band: each step
// annihilates the first column of the bulge, applies the reflector from both sides to
// its diagonal block and from the right to the block below, which creates the next
// bulge. The work matrix keeps the lower triangle with 2b−1 subdiagonals (room for the
// bulge), column-major, so every kernel runs down contiguous column segments.
#include "dense/stages/bulge_chase/api.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "core/blas/host.hpp"
#include "core/collectives.hpp"
#include "core/instantiate.hpp"
#include "core/mpi_types.hpp"
#include "dense/stages/bulge_chase/conj_dot.hpp"
#include "tseig/error.hpp"

namespace tseig::dense {
namespace {

template <class T>
class BandWork {
 public:
  // Columns lo..hi−1 of the n×n band matrix.
  BandWork(const std::vector<T>& band, int n, int b, int lo, int hi)
      : ld_(2 * b), lo_(lo), a_(std::size_t(ld_) * (hi - lo)) {
    for (int j = lo; j < hi; ++j) {
      for (int r = 0; r <= b && j + r < n; ++r) at(j + r, j) = band[r + std::size_t(j) * (b + 1)];
      at(j, j) = std::real(at(j, j));
    }
  }
  T& at(int i, int j) { return a_[(i - j) + std::size_t(j - lo_) * ld_]; }
  // Columns j0..j1−1 as one contiguous buffer (for handing them to a neighbour).
  T* columns(int j0) { return &a_[std::size_t(j0 - lo_) * ld_]; }
  int count(int j0, int j1) const { return (j1 - j0) * ld_; }

  // Rows r..r+len of columns c0..c1−1 ← Hᴴ·(those rows), H = I − tau·v·vᴴ: per column a
  // SIMD dot product, then the update (which the compiler vectorizes).
  void apply_left(const T* v, T tau, int r, int len, int c0, int c1) {
    const T ct = conj_if_complex(tau);
    for (int c = c0; c < c1; ++c) {
      T* x = &at(r, c);
      const T dot = ct * conj_dot(v, x, len);
      for (int i = 0; i < len; ++i) x[i] -= dot * v[i];
    }
  }

  // Diagonal block rows/cols r..r+len−1 ← Hᴴ·A·H (lower triangle, real diagonal).
  void apply_two_sided(const T* v, T tau, int r, int len, std::vector<T>& y) {
    y.assign(static_cast<std::size_t>(len), T(0));
    // y = A·v from the lower triangle: column c adds a·v(c) below the diagonal (an update)
    // and takes aᴴ·v from below (a dot product): apart, both vectorize.
    for (int c = 0; c < len; ++c) {
      const T* a = &at(r + c, r + c);
      const T vc = v[c];
      for (int i = 1; i < len - c; ++i) y[c + i] += a[i] * vc;
      y[c] += std::real(a[0]) * vc + conj_dot(a + 1, v + c + 1, len - c - 1);
    }
    for (int i = 0; i < len; ++i) y[i] *= tau;
    const T vy = conj_dot(v, y.data(), len);
    const T half = T(0.5) * conj_if_complex(tau) * vy;
    for (int i = 0; i < len; ++i) y[i] -= half * v[i];
    for (int c = 0; c < len; ++c) {
      T* a = &at(r + c, r + c);
      const T cw = conj_if_complex(y[c]), cv = conj_if_complex(v[c]);
      for (int i = 0; i < len - c; ++i) a[i] -= v[c + i] * cw + y[c + i] * cv;
      a[0] = std::real(a[0]);
    }
  }

  // Rows r1..r1+len1−1 of columns r..r+len−1 ← (those)·H. z = X·v four columns per
  // pass, so z is loaded and stored once per four columns.
  void apply_right(const T* v, T tau, int r, int len, int r1, int len1, std::vector<T>& z) {
    z.assign(static_cast<std::size_t>(len1), T(0));
    int c = 0;
    for (; c + 4 <= len; c += 4) {
      const T* x0 = &at(r1, r + c);
      const T* x1 = &at(r1, r + c + 1);
      const T* x2 = &at(r1, r + c + 2);
      const T* x3 = &at(r1, r + c + 3);
      const T v0 = v[c], v1 = v[c + 1], v2 = v[c + 2], v3 = v[c + 3];
      for (int i = 0; i < len1; ++i) z[i] += x0[i] * v0 + x1[i] * v1 + x2[i] * v2 + x3[i] * v3;
    }
    for (; c < len; ++c) {
      const T* x = &at(r1, r + c);
      for (int i = 0; i < len1; ++i) z[i] += x[i] * v[c];
    }
    for (c = 0; c < len; ++c) {
      T* x = &at(r1, r + c);
      const T f = tau * conj_if_complex(v[c]);
      for (int i = 0; i < len1; ++i) x[i] -= z[i] * f;
    }
  }

 private:
  int ld_, lo_;
  std::vector<T> a_;
};

// Step (s, j): reflector from column c of the bulge, then both-sided and right updates.
// The reflector goes to out.v/out.tau when they are kept (this rank's rows), else to
// scratch.
template <class T>
void chase_step(BandWork<T>& w, BandReflectors<T>& out, int s, int j, std::vector<T>& y,
                std::vector<T>& scratch) {
  const int n = out.n, b = out.b;
  const int r = out.row(s, j), len = out.length(s, j);
  const int c = j == 0 ? s : r - b;  // the column this step annihilates
  const bool keep = !out.tau.empty();
  T* v = keep ? &out.v[out.index(s, j) * static_cast<std::size_t>(b)] : scratch.data();
  T* x = &w.at(r, c);
  T alpha = x[0];
  const T tau = lapack::larfg(len, alpha, x + 1, 1);
  v[0] = T(1);
  std::copy(x + 1, x + len, v + 1);
  x[0] = alpha;
  std::fill(x + 1, x + len, T(0));
  if (keep) out.tau[out.index(s, j)] = tau;
  if (j > 0) w.apply_left(v, tau, r, len, c + 1, r);
  w.apply_two_sided(v, tau, r, len, y);
  const int r1 = r + len, len1 = std::min(b, n - r1);
  if (len1 > 0) w.apply_right(v, tau, r, len, r1, len1, y);
}

// Does sweep s (rows s+1, s+1+b, …) have a step starting in [x, y)?
bool sweep_hits(int s, int b, int n, int x, int y) {
  const int first = s + 1 + std::max(0, (x - s - 1 + b - 1) / b) * b;
  return first < std::min(y, n);
}

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
                              bool keep_reflectors) {
  BandReflectors<T> out;
  out.n = n;
  out.b = b;
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const std::vector<int> cut = chunk_cuts(n, b, size);
  const int active = static_cast<int>(cut.size()) - 1;
  const int lo = rank < active ? cut[rank] : 0, hi = rank < active ? cut[rank + 1] : 0;
  const bool has_left = rank > 0, has_right = rank + 1 < active;
  // Everything this rank needs, on every rank or on none: a rank short of memory must
  // not leave its neighbours waiting in the zone transfers or the reductions below.
  std::optional<BandWork<T>> work;
  std::vector<T> scratch, y;
  allocate_collectively(comm, [&] {
    out.reserve_rows(n, b, lo, hi, keep_reflectors);
    out.d.assign(static_cast<std::size_t>(n), 0);
    out.e.assign(static_cast<std::size_t>(std::max(n - 1, 0)), 0);
    scratch.resize(static_cast<std::size_t>(b));
    y.reserve(static_cast<std::size_t>(b));
    if (rank < active) work.emplace(band, n, b, has_left ? lo - b : lo, has_right ? hi + b : hi);
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
    for (int s = 0; s + 1 < n; ++s) {
      if (!sweep_hits(s, b, n, lo, hi)) continue;
      for (int j = 0; j < out.steps(s); ++j) {
        const int r = out.row(s, j);
        if (r < lo) continue;
        if (r >= hi) break;
        const bool left_zone = has_left && r < lo + 2 * b;
        const bool right_zone = has_right && r > hi - 2 * b;
        if (left_zone && !hold_left) {
          transfer(false, lo, rank - 1);
          hold_left = true;
        }
        if (right_zone && !hold_right) {
          transfer(false, hi, rank + 1);
          hold_right = true;
        }
        chase_step(w, out, s, j, y, scratch);
        // Hand a zone over as soon as this sweep is done with it here.
        const int next = r + b;
        if (left_zone && !(next < std::min(hi, n) && next < lo + 2 * b) && s + 1 <= lo - 2) {
          transfer(true, lo, rank - 1);  // the left rank still sweeps near it: s+1 < lo
          hold_left = false;
        }
        if (right_zone && (next >= hi && next < n)) {
          transfer(true, hi, rank + 1);  // the sweep continues on the right
          hold_right = false;
        }
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
  template BandReflectors<T> bulge_chase(const std::vector<T>&, int, int, MPI_Comm, bool);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense
