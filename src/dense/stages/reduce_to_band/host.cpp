// Full → band. Per panel of b columns: the process column that owns the panel gathers it
// (m×b, small next to the trailing matrix) and factors it redundantly with the recursive
// BLAS-3 QR, which saves the latency of a distributed QR; one broadcast along each process
// row then hands every rank the factored rows it owns. The trailing update Ã ← Qᴴ Ã Q is
// done on each rank's lower-triangle tiles with GEMMs:
//   Y = Ã·V (tiles below the diagonal contribute to both Y's rows and, transposed, to
//   Y's columns), W = Y·T − ½·V·(Tᴴ·Vᴴ·Y·T), Ã −= V·Wᴴ + W·Vᴴ.
// Every exchange runs along a process row or column and carries only the rows or columns
// that row or column owns (≈ m·b/P_r or m·b/P_c entries per rank; the owner column's
// gather m·b, for 1/P_c of the panels), so the traffic per rank shrinks as the grid grows.
#include "dense/stages/reduce_to_band/api.hpp"

#include <algorithm>
#include <optional>

#include "core/blas/host.hpp"
#include "core/collectives.hpp"
#include "core/instantiate.hpp"
#include "tseig/error.hpp"

namespace tseig::dense {
namespace {

// Global indices of my local rows and columns, and for each local row the local column
// with the same global index (−1 where another process column owns it): computed once,
// used in every panel.
struct GlobalIndex {
  std::vector<int> row, col, row_as_col;
  template <class T>
  explicit GlobalIndex(const DistMatrix<T>& A)
      : row(A.local_rows()), col(A.local_cols()), row_as_col(A.local_rows()) {
    const int mycol = A.grid().mycol();
    for (int li = 0; li < A.local_rows(); ++li) {
      row[li] = A.global_row(li);
      row_as_col[li] = A.col_owner(row[li]) == mycol ? A.local_col(row[li]) : -1;
    }
    for (int lj = 0; lj < A.local_cols(); ++lj) col[lj] = A.global_col(lj);
  }
};

// Where my local row r0 + l and my local column c0 + lc hold the same global index: adds
// that row of `rows` (my rows from r0, leading dimension ldr, kk columns) into that row
// of `cols` (my columns from c0, leading dimension ldc), or, with into_cols false, the
// other way round.
template <class T>
void add_shared(const GlobalIndex& gi, int r0, int c0, int kk, T* rows, int ldr, T* cols, int ldc,
                bool into_cols) {
  for (int l = 0; l + r0 < static_cast<int>(gi.row.size()); ++l) {
    const int lc = gi.row_as_col[r0 + l];
    if (lc < 0) continue;
    for (int c = 0; c < kk; ++c) {
      T& r = rows[l + static_cast<std::size_t>(c) * ldr];
      T& x = cols[(lc - c0) + static_cast<std::size_t>(c) * ldc];
      if (into_cols)
        x += r;
      else
        r += x;
    }
  }
}

// The last panel when it has fewer rows than columns (kk < b): Qᴴ applied to its other
// columns, with V made explicit in V (unit diagonal, zeros above).
template <class T>
void apply_to_rest(int m, int kk, int b, T* P, const T* Tm, std::vector<T>& V, std::vector<T>& M) {
  V.assign(P, P + static_cast<std::ptrdiff_t>(m) * kk);
  for (int c = 0; c < kk; ++c) {
    T* v = V.data() + static_cast<std::size_t>(c) * m;
    std::fill(v, v + c, T(0));
    v[c] = T(1);
  }
  T* rest = P + static_cast<std::size_t>(m) * kk;
  M.assign(static_cast<std::size_t>(kk) * (b - kk), T(0));
  blas::gemm('C', 'N', kk, b - kk, m, T(1), V.data(), m, rest, m, T(0), M.data(), kk);
  blas::trmm('L', 'U', 'C', 'N', kk, b - kk, T(1), Tm, kk, M.data(), kk);
  blas::gemm('N', 'N', m, b - kk, kk, T(-1), V.data(), m, M.data(), kk, T(1), rest, m);
}

}  // namespace

template <Device D, class T>
std::vector<T> reduce_to_band(DistMatrix<T>& A, int b) {
  const Grid& g = A.grid();
  const int n = A.n(), nb = A.nb();
  if (b < 1 || b % nb != 0)
    throw Error(ErrorCode::invalid_argument,
                "reduce_to_band: bandwidth " + std::to_string(b) +
                    " is not a positive multiple of nb = " + std::to_string(nb));
  if (b >= n) return {};
  // Every work array at its largest (the first panel's), on every rank or on none: the
  // panels below only shrink them, so no allocation falls between their reductions.
  std::optional<GlobalIndex> gi;
  std::vector<T> tau, P, Pr, V, Tm, M, Lr, Rc, diag;
  allocate_collectively(g.comm(), [&] {
    const std::size_t m = n - b, ldr = std::max(A.local_rows(), 1),
                      ldc = std::max(A.local_cols(), 1), bb = static_cast<std::size_t>(b) * b;
    tau.resize(m);
    gi.emplace(A);
    P.reserve(m * b);
    Pr.reserve(ldr * b + bb);
    for (auto* v : {&V, &Tm, &M}) v->reserve(bb);
    Lr.reserve(ldr * 2 * b);
    Rc.reserve(ldc * 2 * b);
    diag.resize(static_cast<std::size_t>(nb) * nb);
  });
  for (int k = 0; k + b < n; k += b) {
    const int m = n - k - b, kk = std::min(m, b), t0 = k + b;
    // My rows/columns of the trailing matrix (and of the panel's rows below the band).
    const int r0 = A.local_rows_before(t0), c0 = A.local_cols_before(t0);
    const int mr = A.local_rows() - r0, mc = A.local_cols() - c0;
    const int ldr = std::max(mr, 1), ldc = std::max(mc, 1);
    const int owner = A.col_owner(k);
    // Panels start on a block boundary: one of more than one block spans several
    // process columns (not only when its last block's owner differs: b = 3·nb, 2 columns).
    const bool spans = b > nb && g.npcol() > 1, in_owner = g.mycol() == owner;

    // The panel A(t0:n, k:k+b), my process row's rows of it, into Pr (leading dimension
    // ldr) on the owner column: summed along the row when it spans several process columns.
    Pr.assign(static_cast<std::size_t>(ldr) * b + static_cast<std::size_t>(kk) * kk, T(0));
    if (in_owner || spans) {
      for (int lj = A.local_cols_before(k); mr > 0 && lj < A.local_cols_before(k + b); ++lj)
        std::copy_n(&A.local(r0, lj), mr,
                    Pr.data() + static_cast<std::size_t>(gi->col[lj] - k) * ldr);
      if (spans) sum_over_row(g, Pr.data(), ldr * b);
    }
    // The owner column: the whole panel from its process rows, factored by each of them;
    // then its factored rows and T back into Pr.
    T* Tp = Pr.data() + static_cast<std::size_t>(ldr) * b;
    int info = 0;
    if (in_owner) {
      P.assign(static_cast<std::size_t>(m) * b, T(0));
      for (int c = 0; c < b; ++c)
        for (int l = 0; l < mr; ++l)
          P[gi->row[r0 + l] - t0 + static_cast<std::size_t>(c) * m] =
              Pr[l + static_cast<std::size_t>(c) * ldr];
      sum_over_column(g, P.data(), m * b);
      Tm.assign(static_cast<std::size_t>(kk) * kk, T(0));
      info = lapack::geqrt3(m, kk, P.data(), m, Tm.data(), kk);
      if (info == 0 && kk < b) apply_to_rest(m, kk, b, P.data(), Tm.data(), V, M);
      for (int c = 0; c < b; ++c)
        for (int l = 0; l < mr; ++l)
          Pr[l + static_cast<std::size_t>(c) * ldr] =
              P[gi->row[r0 + l] - t0 + static_cast<std::size_t>(c) * m];
      std::copy(Tm.begin(), Tm.end(), Tp);
    }
    raise_if_any(g.comm(), info != 0, ErrorCode::numerical_failure,
                 "reduce_to_band: ?geqrt3 failed with info = " + std::to_string(info));
    broadcast_along_row(g, Pr.data(), ldr * b + kk * kk, owner);
    for (int i = 0; i < kk; ++i)
      tau[static_cast<std::size_t>(k + i)] = Tp[i + static_cast<std::size_t>(i) * kk];
    for (int lj = A.local_cols_before(k); mr > 0 && lj < A.local_cols_before(k + b); ++lj)
      std::copy_n(Pr.data() + static_cast<std::size_t>(gi->col[lj] - k) * ldr, mr,
                  &A.local(r0, lj));

    // Lr = [V_r  W_r] on my rows, Rc = [W_c  V_c] on my columns. V_r: the factored rows
    // with unit diagonal and zeros above; V_c: from the rows, each process row adding
    // those of its rows that are my columns.
    Lr.assign(static_cast<std::size_t>(ldr) * 2 * kk, T(0));
    Rc.assign(static_cast<std::size_t>(ldc) * 2 * kk, T(0));
    T* Vr = Lr.data();
    T* Yr = Lr.data() + static_cast<std::size_t>(ldr) * kk;
    T* Yc = Rc.data();
    T* Vc = Rc.data() + static_cast<std::size_t>(ldc) * kk;
    for (int c = 0; c < kk; ++c)
      for (int l = 0; l < mr; ++l) {
        const int i = gi->row[r0 + l] - t0;
        Vr[l + static_cast<std::size_t>(c) * ldr] = i < c ? T(0)
                                                    : i == c
                                                        ? T(1)
                                                        : Pr[l + static_cast<std::size_t>(c) * ldr];
      }
    add_shared(*gi, r0, c0, kk, Vr, ldr, Vc, ldc, true);
    sum_over_column(g, Vc, ldc * kk);

    // Y = Ã·V from my lower tiles: Yr (by local rows) and Yc (by local columns).
    for (int lj = c0; lj < A.local_cols(); lj += nb) {
      const int gj = gi->col[lj], w = std::min(nb, A.local_cols() - lj);
      const int rd = A.local_rows_before(gj), rl = A.local_rows_before(gj + w);
      const int ml = A.local_rows() - rl;
      const int cj = lj - c0;
      if (ml > 0) {
        blas::gemm('N', 'N', ml, kk, w, T(1), &A.local(rl, lj), A.lld(), Vc + cj, ldc, T(1),
                   Yr + (rl - r0), ldr);
        blas::gemm('C', 'N', w, kk, ml, T(1), &A.local(rl, lj), A.lld(), Vr + (rl - r0), ldr, T(1),
                   Yc + cj, ldc);
      }
      if (rl > rd) {  // the diagonal tile is mine: use it as a full Hermitian block
        for (int c = 0; c < w; ++c)
          for (int r = 0; r < w; ++r)
            diag[r + static_cast<std::size_t>(c) * w] =
                r >= c ? A.local(rd + r, lj + c) : conj_if_complex(A.local(rd + c, lj + r));
        for (int c = 0; c < w; ++c)
          diag[c + static_cast<std::size_t>(c) * w] =
              std::real(diag[c + static_cast<std::size_t>(c) * w]);
        blas::gemm('N', 'N', w, kk, w, T(1), diag.data(), w, Vc + cj, ldc, T(1), Yr + (rd - r0),
                   ldr);
      }
    }
    // Y on my rows: the column sums of Yc that fall on my rows, added to Yr and summed
    // along the row (process columns own disjoint columns, process rows disjoint rows).
    // Then Y on my columns from the rows, summed along the column.
    sum_over_column(g, Yc, ldc * kk);
    add_shared(*gi, r0, c0, kk, Yr, ldr, Yc, ldc, false);
    sum_over_row(g, Yr, ldr * kk);
    std::fill(Yc, Yc + static_cast<std::size_t>(ldc) * kk, T(0));
    add_shared(*gi, r0, c0, kk, Yr, ldr, Yc, ldc, true);
    sum_over_column(g, Yc, ldc * kk);

    // W = Y·T − ½·V·(Tᴴ·(Vᴴ·(Y·T))), on my rows and my columns; Vᴴ·(Y·T) summed over my
    // process column's rows.
    blas::trmm('R', 'U', 'N', 'N', mr, kk, T(1), Tp, kk, Yr, ldr);
    blas::trmm('R', 'U', 'N', 'N', mc, kk, T(1), Tp, kk, Yc, ldc);
    M.assign(static_cast<std::size_t>(kk) * kk, T(0));
    blas::gemm('C', 'N', kk, kk, mr, T(1), Vr, ldr, Yr, ldr, T(0), M.data(), kk);
    sum_over_column(g, M.data(), kk * kk);
    blas::trmm('L', 'U', 'C', 'N', kk, kk, T(1), Tp, kk, M.data(), kk);
    blas::gemm('N', 'N', mr, kk, kk, T(-0.5), Vr, ldr, M.data(), kk, T(1), Yr, ldr);
    blas::gemm('N', 'N', mc, kk, kk, T(-0.5), Vc, ldc, M.data(), kk, T(1), Yc, ldc);

    // Ã −= [V W]·[W V]ᴴ on my tiles on and below the diagonal.
    for (int lj = c0; lj < A.local_cols(); lj += nb) {
      const int gj = gi->col[lj], w = std::min(nb, A.local_cols() - lj);
      const int rd = A.local_rows_before(gj), ml = A.local_rows() - rd;
      if (ml > 0)
        blas::gemm('N', 'C', ml, w, 2 * kk, T(-1), Lr.data() + (rd - r0), ldr,
                   Rc.data() + (lj - c0), ldc, T(1), &A.local(rd, lj), A.lld());
    }
  }
  return tau;
}

template <class T>
std::vector<T> gather_band(const DistMatrix<T>& A, int b) {
  const int n = A.n(), ld = b + 1;
  std::vector<T> band;
  allocate_collectively(A.grid().comm(),
                        [&] { band.assign(static_cast<std::size_t>(ld) * n, T(0)); });
  for (int lj = 0; lj < A.local_cols(); ++lj) {
    const int j = A.global_col(lj);
    for (int li = A.local_rows_before(j); li < A.local_rows_before(std::min(n, j + b + 1)); ++li)
      band[(A.global_row(li) - j) + static_cast<std::size_t>(j) * ld] = A.local(li, lj);
  }
  sum_over_grid(A.grid(), band.data(), ld * n);
  return band;
}

#define TSEIG_INSTANTIATE(T)                                                    \
  template std::vector<T> reduce_to_band<Device::host, T>(DistMatrix<T>&, int); \
  template std::vector<T> gather_band(const DistMatrix<T>&, int);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense
