// Distributed merge: deflation and the secular poles are computed identically on every
// rank; roots are solved in blocks of B per rank and shared as three numbers each (the
// root, its origin pole and its offset from it), from which every rank forms the rows of
// the secular eigenvectors S that its own rows need, panel by panel, and multiplies them
// with a local GEMM (or, for a factored result, collects S into M). Before, each panel of S
// (k × B) was broadcast from the rank that formed it: k² entries to every rank per merge,
// whatever the rank count.
#include "dense/stages/divide_conquer/api.hpp"

#include <algorithm>
#include <limits>
#include <new>

#include "core/blas/host.hpp"
#include "core/collectives.hpp"
#include "core/instantiate.hpp"
#include "core/mpi_types.hpp"
#include "dense/stages/divide_conquer/deflation.hpp"
#include "dense/stages/divide_conquer/secular.hpp"
#include "dense/stages/divide_conquer/segment_gemm.hpp"

namespace tseig::dense::dc {

namespace {

template <class R>
void rotate(R* a, R* b, int rows, const Rotation<R>& r) {
  for (int i = 0; i < rows; ++i) {
    const R x = a[i], y = b[i];
    a[i] = r.c * x + r.s * y;
    b[i] = r.c * y - r.s * x;
  }
}

// Row `row` of piece p's eigenvectors into z[0, p.cols), when this rank holds it.
template <class R>
void copy_row(const Piece<R>& p, int row, R* z) {
  if (p.factors.empty()) {
    if (row >= p.row0 && row < p.row0 + p.rows)
      for (int j = 0; j < p.cols; ++j) z[j] = p.q[row - p.row0 + static_cast<long>(j) * p.rows];
    return;
  }
  for (const Factor<R>& f : p.factors)
    if (row >= f.row0 && row < f.row0 + f.rows)
      blas::gemv('T', f.len, p.cols, R(1), p.q.data() + f.moff, p.mrows,
                 f.B.data() + (row - f.row0), f.rows, R(0), z, 1);
}

// My rows [off, off + rows) of the merged piece, all in one half. They are B·V where V's
// columns (len entries) are what the merge rotates and multiplies; a null B means V is
// the rows themselves (len = rows). V's own columns are those of piece `piece`, stored
// from v on with stride ld.
template <class R>
struct Segment {
  int off = 0, rows = 0, len = 0;
  const R* B = nullptr;
  std::vector<R*> col;  // m entries: column j of V, null where it is zero here
  int piece = 0;
  R* v = nullptr;
  long ld = 0;
};

// Whether any rank of the merge ran short of memory (comm null: this rank alone).
// Also short without room for the MPI library's scratch (mpi_headroom_left).
bool any_short_of_memory(MPI_Comm comm, int g, bool mine) {
  int short_somewhere = mine || !mpi_headroom_left() ? 1 : 0;
  if (g > 1) MPI_Allreduce(MPI_IN_PLACE, &short_somewhere, 1, MPI_INT, MPI_MAX, comm);
  return short_somewhere != 0;
}

}  // namespace

template <Device D, class R>
Piece<R> merge(MPI_Comm comm, std::vector<Piece<R>> mine, int lo, int mid, int hi, R beta,
               int first, int nout, int factor_for, const TuneParameters& tune) {
  const int m = hi - lo, m1 = mid - lo;
  int g = 1, me = 0;
  if (comm != MPI_COMM_NULL) {
    MPI_Comm_size(comm, &g);
    MPI_Comm_rank(comm, &me);
  }
  Piece<R> out;
  out.lo = lo;
  out.hi = hi;
  out.row0 = hi;
  for (const auto& p : mine) {
    out.row0 = std::min(out.row0, p.row0);
    out.rows += p.rows;
  }
  const int rows = out.rows;
  // A rank short of memory (in this merge or below it) makes every rank of the merge
  // return its piece marked out_of_memory: each phase that allocates is followed by
  // any_short_of_memory before the next collective, so no rank is left waiting.
  bool short_here =
      std::any_of(mine.begin(), mine.end(), [](const Piece<R>& p) { return p.out_of_memory; });
  auto give_up = [&] {
    out.out_of_memory = true;
    return std::move(out);
  };

  // Poles (both halves' eigenvalues) and z = (last row of Q1, first row of Q2) from the
  // ranks holding them; all other entries are zero, so the sum is exact.
  std::vector<R> buf;
  try {
    buf.assign(2 * m + 1, R(0));
  } catch (const std::bad_alloc&) {
    short_here = true;
  }
  if (any_short_of_memory(comm, g, short_here)) return give_up();
  for (const auto& p : mine) {
    const bool first = p.lo == lo;
    const int off = first ? 0 : m1;
    if (p.row0 == p.lo) std::copy(p.w.begin(), p.w.end(), buf.begin() + off);
    copy_row(p, first ? mid - 1 : mid, buf.data() + m + off);
    if (p.failed) buf[2 * m] = 1;
  }
  if (g > 1) MPI_Allreduce(MPI_IN_PLACE, buf.data(), 2 * m + 1, mpi_type<R>(), MPI_SUM, comm);
  out.failed = buf[2 * m] != 0;

  Deflation<R> df;
  std::vector<Segment<R>> seg;
  std::vector<std::vector<R>> filled;
  bool factored = false;
  int B = 1;
  SecularShare<R> sh;
  std::vector<R> roots, prod;
  try {
    df = deflate(std::vector<R>(buf.begin(), buf.begin() + m),
                 std::vector<R>(buf.begin() + m, buf.begin() + 2 * m), m1, beta);
    const int k = df.k();

    // My rows of blockdiag(Q1, Q2) by segments. A column of V is a pointer into a piece's
    // eigenvectors (or its M), or null where it is zero there; rotations write in place
    // and give a zero column storage only when it stops being zero. A factored result
    // keeps the pieces untouched and rotates the rows of S instead.
    for (std::size_t pi = 0; pi < mine.size(); ++pi) {
      Piece<R>& p = mine[pi];
      const int col0 = p.lo == lo ? 0 : m1;
      auto add = [&](int row0, int nrows, int len, const R* Bp, R* v, long ld) {
        Segment<R>& s = seg.emplace_back(
            Segment<R>{row0 - out.row0, nrows, len, Bp, {}, static_cast<int>(pi), v, ld});
        s.col.assign(m, nullptr);
        for (int j = 0; j < p.cols; ++j) s.col[col0 + j] = v + j * ld;
      };
      if (p.factors.empty())
        add(p.row0, p.rows, p.rows, nullptr, p.q.data(), p.rows);
      else
        for (const Factor<R>& f : p.factors)
          add(f.row0, f.rows, f.len, f.B.data(), p.q.data() + f.moff, p.mrows);
    }
    // Factored, the parent pays B·Y (rows × len × factor_for) per segment on top of
    // what it pays anyway; plain, this merge pays rows × kh × k. Heavy deflation (small
    // k) makes plain cheaper; the margin covers building M.
    double plain_flops = 0, factored_flops = 0;
    for (const Segment<R>& s : seg) {
      int kh = 0;
      for (int c : df.column) kh += s.col[c] ? 1 : 0;
      plain_flops += double(s.rows) * kh * k;
      factored_flops += 1.5 * s.rows * s.len * factor_for;
    }
    const bool plain_inputs =
        std::all_of(mine.begin(), mine.end(), [](const Piece<R>& p) { return p.factors.empty(); });
    factored = factor_for > 0 && plain_inputs && factored_flops < plain_flops;
    if (!factored)
      for (const auto& r : df.rotations)
        for (Segment<R>& s : seg) {
          if (s.rows == 0 || (!s.col[r.a] && !s.col[r.b])) continue;
          for (int j : {r.a, r.b})
            if (!s.col[j]) s.col[j] = filled.emplace_back(s.len, R(0)).data();
          rotate(s.col[r.a], s.col[r.b], s.len, r);
        }

    // Roots in blocks of B, block b solved by rank b mod g.
    B = std::clamp((k + g - 1) / std::max(g, 1), 1, tune.dc_max_panel);
    std::vector<int> my_roots;
    for (int j = 0; j < k; ++j)
      if ((j / B) % g == me) my_roots.push_back(j);
    sh = solve_secular(df, my_roots, first, nout);
    // [root | tau | origin | failed]: zeros where another rank solved the root.
    roots.assign(3 * static_cast<std::size_t>(k) + 1, R(0));
    std::copy(sh.root.begin(), sh.root.end(), roots.begin());
    std::copy(sh.tau.begin(), sh.tau.end(), roots.begin() + k);
    std::copy(sh.origin.begin(), sh.origin.end(), roots.begin() + 2 * k);
    roots[3 * k] = sh.failed ? 1 : 0;
    prod = std::move(sh.zprod);
  } catch (const std::bad_alloc&) {
    short_here = true;
  }
  if (any_short_of_memory(comm, g, short_here)) return give_up();
  const int k = df.k();
  if (g > 1) {
    MPI_Allreduce(MPI_IN_PLACE, roots.data(), 3 * k + 1, mpi_type<R>(), MPI_SUM, comm);
    // Reduce then broadcast: every rank must use the very same ẑ.
    if (k > 2) {
      MPI_Reduce(me == 0 ? MPI_IN_PLACE : prod.data(), prod.data(), k, mpi_type<R>(), MPI_PROD, 0,
                 comm);
      MPI_Bcast(prod.data(), k, mpi_type<R>(), 0, comm);
    }
  }
  out.failed = out.failed || roots[3 * k] != 0;
  const R* tau = roots.data() + k;
  auto origin = [&](int j) { return static_cast<int>(roots[2 * k + j]); };

  std::vector<R> zhat;
  std::vector<cached_vector<R>> Y;
  cached_vector<R> S_all;
  std::vector<int> root_pos;
  // Roots with eigenvectors: [j_lo, j_hi), a contiguous run, as the roots ascend.
  int j_lo = 0, j_hi = 0;
  std::vector<std::vector<int>> idx;  // per segment: the rows of S (non-deflated poles) it uses
  std::vector<R> scale;               // per root: 1/‖ẑ./delta‖ (k > 2)
  std::vector<R> two;                 // k ≤ 2: the k × k secular eigenvectors themselves
  cached_vector<R> Sh, tmp;
  SegmentGemm<D, R> gemms;
  auto target = [&](std::size_t i, int pos) {
    return seg[i].B ? Y[i].data() + static_cast<long>(pos) * seg[i].len
                    : out.q.data() + static_cast<long>(pos) * rows + seg[i].off;
  };
  try {
    if (k > 2) {
      zhat = lowner_z(prod, df.z);
      scale.assign(k, R(0));  // this rank's wanted roots; summed below
      for (int j : sh.kept) scale[j] = secular_scale(df, zhat.data(), origin(j), tau[j]);
    } else {
      two.assign(static_cast<std::size_t>(k) * k, R(0));
      for (int j = 0; j < k; ++j)
        if (!two_pole_vector(df, j, two.data() + static_cast<long>(j) * k)) out.failed = true;
    }

    // Where a segment's column of the result goes: straight into out.q, or into Y (len ×
    // cols) when B·Y follows. A factored result collects S (m × cols) instead.
    out.cols = std::min(nout, m - first);
    Y.resize(seg.size());
    if (factored) {
      S_all.assign(static_cast<long>(m) * out.cols, R(0));
    } else {
      out.q.assign(static_cast<long>(rows) * out.cols, R(0));
      for (std::size_t i = 0; i < seg.size(); ++i)
        if (seg[i].B) Y[i].assign(static_cast<long>(seg[i].len) * out.cols, R(0));
    }

    // Merged order: a deflated eigenvalue goes before a root that is not smaller.
    const int nd = m - k;
    root_pos.resize(k);
    out.w.resize(m);
    for (int t = 0, j = 0; t < nd || j < k;) {
      const int pos = t + j, col = pos - first;
      if (j == k || (t < nd && df.deflated_value[t] <= roots[j])) {
        out.w[pos] = df.deflated_value[t];
        const int c = df.deflated_column[t];
        const bool wanted = col >= 0 && col < out.cols;
        if (wanted && factored) S_all[c + static_cast<long>(col) * m] = R(1);
        if (wanted && !factored)
          for (std::size_t i = 0; i < seg.size(); ++i)
            if (seg[i].col[c]) std::copy_n(seg[i].col[c], seg[i].len, target(i, col));
        ++t;
      } else {
        out.w[pos] = roots[j];
        root_pos[j] = pos;
        ++j;
      }
    }
    while (j_lo < k && root_pos[j_lo] < first) ++j_lo;
    j_hi = j_lo;
    while (j_hi < k && root_pos[j_hi] < first + out.cols) ++j_hi;

    // Each segment's nonzero non-deflated columns, packed for GEMM where they are: a
    // piece's own columns move to the front of its storage (the deflated ones are copied
    // out above), and the other half's columns that rotations filled go into the slots
    // this frees. Each rotation that fills a column deflates one nonzero in the segment,
    // so the slots suffice. (A packed copy would add the piece's size to the peak.)
    idx.resize(seg.size());
    long kh_max = 0, len_max = 0;
    if (j_hi > j_lo && !factored) {
      std::vector<int> r_of(m, -1);
      for (int r = 0; r < k; ++r) r_of[df.column[r]] = r;
      std::vector<std::vector<int>> own(mine.size());
      for (std::size_t pi = 0; pi < mine.size(); ++pi) {
        Piece<R>& p = mine[pi];
        const int col0 = p.lo == lo ? 0 : m1;
        const long ld = p.factors.empty() ? p.rows : p.mrows;
        for (long j = 0; j < p.cols; ++j)
          if (const int r = r_of[col0 + j]; r >= 0) {
            const long t = static_cast<long>(own[pi].size());
            if (t != j) std::copy_n(p.q.data() + j * ld, ld, p.q.data() + t * ld);
            own[pi].push_back(r);
          }
      }
      for (std::size_t i = 0; i < seg.size(); ++i) {
        Segment<R>& s = seg[i];
        const Piece<R>& p = mine[s.piece];
        const int col0 = p.lo == lo ? 0 : m1;
        idx[i] = own[s.piece];
        for (int c = 0; c < m; ++c)
          if (s.col[c] && r_of[c] >= 0 && (c < col0 || c >= col0 + p.cols)) {
            const long slot = static_cast<long>(idx[i].size());
            if (slot == p.cols) {
              out.failed = true;  // not reached (see above); never a wrong vector
              break;
            }
            std::copy_n(s.col[c], s.len, s.v + slot * s.ld);
            idx[i].push_back(r_of[c]);
          }
        kh_max = std::max(kh_max, static_cast<long>(idx[i].size()));
        len_max = std::max(len_max, static_cast<long>(s.len));
      }
    }
    filled.clear();
    // The panel buffers at their largest now: the loop below allocates nothing.
    const long bw_max = std::min(B, j_hi - j_lo);
    Sh.resize(kh_max * bw_max);
    tmp.resize(len_max * bw_max);
    gemms = SegmentGemm<D, R>(seg.size());
  } catch (const std::bad_alloc&) {
    short_here = true;
  }
  if (any_short_of_memory(comm, g, short_here)) return give_up();

  if (!factored)
    for (std::size_t i = 0; i < seg.size(); ++i)
      gemms.set(i, seg[i].len, static_cast<int>(idx[i].size()), seg[i].v, seg[i].ld, j_hi - j_lo);
  if (g > 1 && k > 2) MPI_Allreduce(MPI_IN_PLACE, scale.data(), k, mpi_type<R>(), MPI_SUM, comm);
  // Every wanted root was solved by one rank (?laed4 keeps each root between its poles);
  // one missing or not finite is a failure, never a zero or wrong vector.
  for (int j = j_lo; j < j_hi && k > 2; ++j)
    if (!(scale[j] > 0 && scale[j] < std::numeric_limits<R>::infinity())) out.failed = true;
  // Entry i of root j's unit eigenvector.
  auto entry = [&](int i, int j) {
    return k > 2 ? zhat[i] / secular_delta(df, i, origin(j), tau[j]) * scale[j]
                 : two[i + static_cast<long>(j) * k];
  };
  for (int j0 = j_lo; j0 < j_hi;) {
    const int bw = std::min((j0 / B + 1) * B, j_hi) - j0;
    if (factored) {
      for (int c = 0; c < bw; ++c) {
        R* col = S_all.data() + static_cast<long>(root_pos[j0 + c] - first) * m;
        for (int i = 0; i < k; ++i) col[df.column[i]] = entry(i, j0 + c);
      }
      j0 += bw;
      continue;
    }
    for (std::size_t i = 0; i < seg.size(); ++i) {
      const int kh = static_cast<int>(idx[i].size()), len = seg[i].len;
      if (seg[i].rows == 0 || kh == 0) continue;
      for (int c = 0; c < bw; ++c)
        for (int r = 0; r < kh; ++r) Sh[r + static_cast<long>(c) * kh] = entry(idx[i][r], j0 + c);
      gemms.multiply(i, bw, Sh.data(), tmp.data());
      for (int c = 0; c < bw; ++c)
        std::copy_n(tmp.data() + static_cast<long>(c) * len, len,
                    target(i, root_pos[j0 + c] - first));
    }
    j0 += bw;
  }

  if (!factored) {
    for (std::size_t i = 0; i < seg.size(); ++i)
      if (seg[i].B)
        blas::gemm('N', 'N', seg[i].rows, out.cols, seg[i].len, R(1), seg[i].B, seg[i].rows,
                   Y[i].data(), seg[i].len, R(0), out.q.data() + seg[i].off, rows);
    return out;
  }

  // M = G·S: the rotations act on the rows of S, the last one first.
  for (auto r = df.rotations.rbegin(); r != df.rotations.rend(); ++r)
    for (long c = 0; c < out.cols; ++c) {
      R* col = S_all.data() + c * m;
      const R x = col[r->a], y = col[r->b];
      col[r->a] = r->c * x - r->s * y;
      col[r->b] = r->s * x + r->c * y;
    }
  // This rank's rows of M: both halves (a merge inside the rank) or its own half. No
  // collective follows here: a failed allocation is left for the parent merge to agree on.
  const bool both = mine.size() == 2;
  const int mrow0 = both || mine.front().lo == lo ? 0 : m1;
  out.mrows = both ? m : mine.front().cols;
  try {
    if (both) {
      out.q = std::move(S_all);
    } else {
      out.q.resize(static_cast<long>(out.mrows) * out.cols);
      for (long c = 0; c < out.cols; ++c)
        std::copy_n(S_all.data() + c * m + mrow0, out.mrows, out.q.data() + c * out.mrows);
    }
    for (auto& p : mine)
      out.factors.push_back(
          {p.row0, p.rows, p.cols, (p.lo == lo ? 0 : m1) - mrow0, std::move(p.q)});
  } catch (const std::bad_alloc&) {
    out.out_of_memory = true;
  }
  return out;
}

#define TSEIG_INSTANTIATE(D, R)                                                                   \
  template Piece<R> merge<D, R>(MPI_Comm, std::vector<Piece<R>>, int, int, int, R, int, int, int, \
                                const TuneParameters&);
TSEIG_FOR_EACH_DEVICE_AND_REAL(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense::dc
