// Distributed merge: deflation and the secular poles are computed identically on every
// rank; roots are solved in blocks of B per rank, and each block's eigenvectors form one
// panel of S that its owner broadcasts and every rank multiplies with a local GEMM.
#include "dense/divide_conquer/merge.hpp"

#include <algorithm>

#include "core/blas.hpp"
#include "core/mpi_types.hpp"
#include "dense/divide_conquer/deflation.hpp"
#include "dense/divide_conquer/secular.hpp"

namespace tseig::dense::dc {

namespace {

// Widest panel of S: large enough for GEMM speed, small enough to balance the roots.
constexpr int max_panel = 256;

template <class R>
void rotate(R* a, R* b, int rows, const Rotation<R>& r) {
  for (int i = 0; i < rows; ++i) {
    const R x = a[i], y = b[i];
    a[i] = r.c * x + r.s * y;
    b[i] = r.c * y - r.s * x;
  }
}

}  // namespace

template <class R>
Piece<R> merge(MPI_Comm comm, std::vector<Piece<R>> mine, int lo, int mid, int hi, R beta,
               int nout) {
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

  // Poles (both halves' eigenvalues) and z = (last row of Q1, first row of Q2) from the
  // ranks holding them; all other entries are zero, so the sum is exact.
  std::vector<R> buf(2 * m + 1, R(0));
  for (const auto& p : mine) {
    const bool first = p.lo == lo;
    const int off = first ? 0 : m1;
    if (p.row0 == p.lo) std::copy(p.w.begin(), p.w.end(), buf.begin() + off);
    const int zrow = (first ? mid - 1 : mid) - p.row0;
    if (zrow >= 0 && zrow < p.rows)
      for (int j = 0; j < p.cols; ++j) buf[m + off + j] = p.q[zrow + static_cast<long>(j) * p.rows];
    if (p.failed) buf[2 * m] = 1;
  }
  if (g > 1) MPI_Allreduce(MPI_IN_PLACE, buf.data(), 2 * m + 1, mpi_type<R>(), MPI_SUM, comm);
  out.failed = buf[2 * m] != 0;
  const Deflation<R> df = deflate(std::vector<R>(buf.begin(), buf.begin() + m),
                                  std::vector<R>(buf.begin() + m, buf.begin() + 2 * m), m1, beta);
  const int k = df.k();

  // My rows of blockdiag(Q1, Q2) by parts: part h = my rows in half h. A column of a
  // part is a pointer into that half's eigenvectors, or null where it is zero there;
  // rotations write in place and give a zero column storage only when it stops being zero.
  const int split = std::clamp(mid - out.row0, 0, rows);
  const int part_rows[2] = {split, rows - split}, part_off[2] = {0, split};
  std::vector<R> half_q[2];
  std::vector<std::vector<R*>> col(2, std::vector<R*>(m, nullptr));
  for (auto& p : mine) {
    const int h = p.lo == lo ? 0 : 1, col0 = h == 0 ? 0 : m1;
    half_q[h] = std::move(p.q);
    for (int j = 0; j < p.cols; ++j)
      col[h][col0 + j] = half_q[h].data() + static_cast<long>(j) * p.rows;
  }
  mine.clear();
  std::vector<std::vector<R>> filled;
  for (const auto& r : df.rotations)
    for (int h = 0; h < 2; ++h) {
      if (part_rows[h] == 0 || (!col[h][r.a] && !col[h][r.b])) continue;
      for (int j : {r.a, r.b})
        if (!col[h][j]) col[h][j] = filled.emplace_back(part_rows[h], R(0)).data();
      rotate(col[h][r.a], col[h][r.b], part_rows[h], r);
    }

  // Roots in blocks of B, block b solved by rank b mod g.
  const int B = std::clamp((k + g - 1) / std::max(g, 1), 1, max_panel);
  std::vector<int> my_roots;
  for (int j = 0; j < k; ++j)
    if ((j / B) % g == me) my_roots.push_back(j);
  SecularShare<R> sh = solve_secular(df, my_roots, nout);

  std::vector<R> roots(k + 1);
  std::copy(sh.root.begin(), sh.root.end(), roots.begin());
  roots[k] = sh.failed ? 1 : 0;
  std::vector<R> prod = std::move(sh.zprod);
  if (g > 1) {
    MPI_Allreduce(MPI_IN_PLACE, roots.data(), k + 1, mpi_type<R>(), MPI_SUM, comm);
    // Reduce then broadcast: every rank must use the very same ẑ.
    if (k > 2) {
      MPI_Reduce(me == 0 ? MPI_IN_PLACE : prod.data(), prod.data(), k, mpi_type<R>(), MPI_PROD, 0,
                 comm);
      MPI_Bcast(prod.data(), k, mpi_type<R>(), 0, comm);
    }
  }
  out.failed = out.failed || roots[k] != 0;
  const std::vector<R> zhat = k > 2 ? lowner_z(prod, df.z) : std::vector<R>{};

  // Merged order: a deflated eigenvalue goes before a root that is not smaller.
  const int nd = m - k;
  std::vector<int> root_pos(k);
  out.w.resize(m);
  out.cols = std::min(nout, m);
  out.q.assign(static_cast<long>(rows) * out.cols, R(0));
  for (int t = 0, j = 0; t < nd || j < k;) {
    const int pos = t + j;
    if (j == k || (t < nd && df.deflated_value[t] <= roots[j])) {
      out.w[pos] = df.deflated_value[t];
      for (int h = 0; h < 2; ++h)
        if (pos < out.cols && col[h][df.deflated_column[t]])
          std::copy_n(col[h][df.deflated_column[t]], part_rows[h],
                      out.q.data() + static_cast<long>(pos) * rows + part_off[h]);
      ++t;
    } else {
      out.w[pos] = roots[j];
      root_pos[j] = pos;
      ++j;
    }
  }
  int wanted = 0;  // roots with eigenvectors: a prefix, as the roots ascend
  while (wanted < k && root_pos[wanted] < out.cols) ++wanted;

  // Each part's nonzero non-deflated columns, packed for GEMM.
  std::vector<int> idx[2];  // rows of S (non-deflated poles) each part uses
  std::vector<R> Wc[2];
  for (int h = 0; h < 2; ++h) {
    if (wanted == 0) break;
    for (int i = 0; i < k; ++i)
      if (col[h][df.column[i]]) idx[h].push_back(i);
    Wc[h].resize(static_cast<long>(part_rows[h]) * idx[h].size());
    for (std::size_t c = 0; c < idx[h].size(); ++c)
      std::copy_n(col[h][df.column[idx[h][c]]], part_rows[h],
                  Wc[h].data() + static_cast<long>(c) * part_rows[h]);
  }
  for (int h = 0; h < 2; ++h) half_q[h] = std::vector<R>();
  filled.clear();

  std::vector<R> S, Sh, tmp;
  std::size_t kept_next = 0;
  for (int j0 = 0; j0 < wanted; j0 += B) {
    const int bw = std::min(B, wanted - j0), owner = (j0 / B) % g;
    S.resize(static_cast<long>(k) * bw);
    if (owner == me)
      for (int c = 0; c < bw; ++c, ++kept_next) {
        // The kept roots are this rank's wanted ones in order, as ?laed4 keeps each root
        // between its poles; anything else is a failure, not a wrong vector.
        if (kept_next >= sh.kept.size() || sh.kept[kept_next] != j0 + c) {
          out.failed = true;
          break;
        }
        secular_vector(k, zhat.data(), sh.delta.data() + static_cast<long>(kept_next) * k,
                       S.data() + static_cast<long>(c) * k);
      }
    if (g > 1) MPI_Bcast(S.data(), k * bw, mpi_type<R>(), owner, comm);
    for (int h = 0; h < 2; ++h) {
      const int kh = static_cast<int>(idx[h].size()), nr = part_rows[h];
      if (nr == 0 || kh == 0) continue;
      Sh.resize(static_cast<long>(kh) * bw);
      for (int c = 0; c < bw; ++c)
        for (int i = 0; i < kh; ++i)
          Sh[i + static_cast<long>(c) * kh] = S[idx[h][i] + static_cast<long>(c) * k];
      tmp.resize(static_cast<long>(nr) * bw);
      blas::gemm('N', 'N', nr, bw, kh, R(1), Wc[h].data(), nr, Sh.data(), kh, R(0), tmp.data(), nr);
      for (int c = 0; c < bw; ++c)
        std::copy_n(tmp.data() + static_cast<long>(c) * nr, nr,
                    out.q.data() + static_cast<long>(root_pos[j0 + c]) * rows + part_off[h]);
    }
  }
  return out;
}

template Piece<float> merge(MPI_Comm, std::vector<Piece<float>>, int, int, int, float, int);
template Piece<double> merge(MPI_Comm, std::vector<Piece<double>>, int, int, int, double, int);

}  // namespace tseig::dense::dc
