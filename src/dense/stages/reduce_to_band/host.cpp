// Full → band. Per panel of b columns: every rank gathers the panel (m×b, small next to
// the trailing matrix) and factors it redundantly with the recursive BLAS-3 QR, which
// costs O(n²b) in all and saves the latency of a distributed QR. The trailing update Ã ← Qᴴ Ã Q is
// done on each rank's lower-triangle tiles with GEMMs:
//   Y = Ã·V (tiles below the diagonal contribute to both Y's rows and, transposed, to
//   Y's columns; summed over the grid), W = Y·T − ½·V·(Tᴴ·Vᴴ·Y·T), Ã −= V·Wᴴ + W·Vᴴ.
#include "dense/stages/reduce_to_band/api.hpp"

#include <algorithm>
#include <optional>

#include "core/blas/host.hpp"
#include "core/collectives.hpp"
#include "core/instantiate.hpp"
#include "tseig/error.hpp"

namespace tseig::dense {
namespace {

// Global indices of my local rows and columns: computed once, used in every panel.
struct GlobalIndex {
  std::vector<int> row, col;
  template <class T>
  explicit GlobalIndex(const DistMatrix<T>& A) : row(A.local_rows()), col(A.local_cols()) {
    for (int li = 0; li < A.local_rows(); ++li) row[li] = A.global_row(li);
    for (int lj = 0; lj < A.local_cols(); ++lj) col[lj] = A.global_col(lj);
  }
};

// Panel A(k+b:n, k:k+b) into P on every rank, column-major with leading dimension m.
template <class T>
void gather_panel(const DistMatrix<T>& A, const GlobalIndex& gi, int k, int b, int m,
                  std::vector<T>& P) {
  P.assign(static_cast<std::size_t>(m) * b, T(0));
  const int r0 = A.local_rows_before(k + b);
  for (int lj = A.local_cols_before(k); lj < A.local_cols_before(k + b); ++lj) {
    T* p = P.data() + static_cast<std::size_t>(gi.col[lj] - k) * m - (k + b);
    for (int li = r0; li < A.local_rows(); ++li) p[gi.row[li]] = A.local(li, lj);
  }
  sum_over_grid(A.grid(), P.data(), m * b);
}

template <class T>
void scatter_panel(DistMatrix<T>& A, const GlobalIndex& gi, int k, int b, int m,
                   const std::vector<T>& P) {
  const int r0 = A.local_rows_before(k + b);
  for (int lj = A.local_cols_before(k); lj < A.local_cols_before(k + b); ++lj) {
    const T* p = P.data() + static_cast<std::size_t>(gi.col[lj] - k) * m - (k + b);
    for (int li = r0; li < A.local_rows(); ++li) A.local(li, lj) = p[gi.row[li]];
  }
}

// The rows of the m×kk matrix G (first global row g0) with global indices global[l0..),
// into out(0.., col_offset..) with leading dimension ldo.
template <class T>
void pick(const std::vector<int>& global, int l0, const std::vector<T>& G, int m, int kk, int g0,
          std::vector<T>& out, int ldo, int col_offset) {
  const int l1 = static_cast<int>(global.size());
  for (int c = 0; c < kk; ++c) {
    const T* gcol = G.data() + static_cast<std::size_t>(c) * m - g0;
    T* o = out.data() + static_cast<std::size_t>(c + col_offset) * ldo - l0;
    for (int l = l0; l < l1; ++l) o[l] = gcol[global[l]];
  }
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
  std::vector<T> tau, P, V, Tm, Y, M, Lr, Rc, Yr, Yc, diag;
  allocate_collectively(g.comm(), [&] {
    const std::size_t m = n - b, ldr = std::max(A.local_rows(), 1),
                      ldc = std::max(A.local_cols(), 1);
    tau.resize(m);
    gi.emplace(A);
    for (auto* v : {&P, &V, &Y}) v->reserve(m * b);
    for (auto* v : {&Tm, &M}) v->reserve(static_cast<std::size_t>(b) * b);
    for (auto* v : {&Lr, &Yr}) v->reserve(ldr * 2 * b);
    for (auto* v : {&Rc, &Yc}) v->reserve(ldc * 2 * b);
    diag.resize(static_cast<std::size_t>(nb) * nb);
  });
  for (int k = 0; k + b < n; k += b) {
    const int m = n - k - b, kk = std::min(m, b), t0 = k + b;
    gather_panel(A, *gi, k, b, m, P);
    Tm.assign(static_cast<std::size_t>(kk) * kk, T(0));
    const int info = lapack::geqrt3(m, kk, P.data(), m, Tm.data(), kk);
    raise_if_any(g.comm(), info != 0, ErrorCode::numerical_failure,
                 "reduce_to_band: ?geqrt3 failed with info = " + std::to_string(info));
    for (int i = 0; i < kk; ++i)
      tau[static_cast<std::size_t>(k + i)] = Tm[i + static_cast<std::size_t>(i) * kk];
    // Explicit V: unit diagonal, zeros above.
    V.assign(P.begin(), P.begin() + static_cast<std::ptrdiff_t>(m) * kk);
    for (int c = 0; c < kk; ++c) {
      T* v = V.data() + static_cast<std::size_t>(c) * m;
      std::fill(v, v + c, T(0));
      v[c] = T(1);
    }
    if (kk < b) {  // a last panel with fewer rows than columns: Qᴴ on its other columns
      T* rest = P.data() + static_cast<std::size_t>(m) * kk;
      M.assign(static_cast<std::size_t>(kk) * (b - kk), T(0));
      blas::gemm('C', 'N', kk, b - kk, m, T(1), V.data(), m, rest, m, T(0), M.data(), kk);
      blas::trmm('L', 'U', 'C', 'N', kk, b - kk, T(1), Tm.data(), kk, M.data(), kk);
      blas::gemm('N', 'N', m, b - kk, kk, T(-1), V.data(), m, M.data(), kk, T(1), rest, m);
    }
    scatter_panel(A, *gi, k, b, m, P);

    // My rows/columns of the trailing matrix and V restricted to them.
    const int r0 = A.local_rows_before(t0), c0 = A.local_cols_before(t0);
    const int mr = A.local_rows() - r0, mc = A.local_cols() - c0;
    const int ldr = std::max(mr, 1), ldc = std::max(mc, 1);
    Lr.assign(static_cast<std::size_t>(ldr) * 2 * kk, T(0));  // [V_r  W_r]
    Rc.assign(static_cast<std::size_t>(ldc) * 2 * kk, T(0));  // [W_c  V_c]
    pick(gi->row, r0, V, m, kk, t0, Lr, ldr, 0);
    pick(gi->col, c0, V, m, kk, t0, Rc, ldc, kk);
    const T* Vr = Lr.data();
    const T* Vc = Rc.data() + static_cast<std::size_t>(ldc) * kk;

    // Y = Ã·V from my lower tiles: Yr (by local rows) and Yc (by local columns).
    Yr.assign(static_cast<std::size_t>(ldr) * kk, T(0));
    Yc.assign(static_cast<std::size_t>(ldc) * kk, T(0));
    for (int lj = c0; lj < A.local_cols(); lj += nb) {
      const int gj = gi->col[lj], w = std::min(nb, A.local_cols() - lj);
      const int rd = A.local_rows_before(gj), rl = A.local_rows_before(gj + w);
      const int ml = A.local_rows() - rl;
      const int cj = lj - c0;
      if (ml > 0) {
        blas::gemm('N', 'N', ml, kk, w, T(1), &A.local(rl, lj), A.lld(), Vc + cj, ldc, T(1),
                   Yr.data() + (rl - r0), ldr);
        blas::gemm('C', 'N', w, kk, ml, T(1), &A.local(rl, lj), A.lld(), Vr + (rl - r0), ldr, T(1),
                   Yc.data() + cj, ldc);
      }
      if (rl > rd) {  // the diagonal tile is mine: use it as a full Hermitian block
        for (int c = 0; c < w; ++c)
          for (int r = 0; r < w; ++r)
            diag[r + static_cast<std::size_t>(c) * w] =
                r >= c ? A.local(rd + r, lj + c) : conj_if_complex(A.local(rd + c, lj + r));
        for (int c = 0; c < w; ++c)
          diag[c + static_cast<std::size_t>(c) * w] =
              std::real(diag[c + static_cast<std::size_t>(c) * w]);
        blas::gemm('N', 'N', w, kk, w, T(1), diag.data(), w, Vc + cj, ldc, T(1),
                   Yr.data() + (rd - r0), ldr);
      }
    }
    // Y in global indexing, summed over the grid.
    Y.assign(static_cast<std::size_t>(m) * kk, T(0));
    for (int c = 0; c < kk; ++c) {
      T* y = Y.data() + static_cast<std::size_t>(c) * m;
      for (int l = 0; l < mr; ++l)
        y[gi->row[r0 + l] - t0] += Yr[l + static_cast<std::size_t>(c) * ldr];
      for (int l = 0; l < mc; ++l)
        y[gi->col[c0 + l] - t0] += Yc[l + static_cast<std::size_t>(c) * ldc];
    }
    sum_over_grid(g, Y.data(), m * kk);
    // W = Y·T − ½·V·(Tᴴ·(Vᴴ·(Y·T))), kept in Y.
    blas::trmm('R', 'U', 'N', 'N', m, kk, T(1), Tm.data(), kk, Y.data(), m);
    M.assign(static_cast<std::size_t>(kk) * kk, T(0));
    blas::gemm('C', 'N', kk, kk, m, T(1), V.data(), m, Y.data(), m, T(0), M.data(), kk);
    blas::trmm('L', 'U', 'C', 'N', kk, kk, T(1), Tm.data(), kk, M.data(), kk);
    blas::gemm('N', 'N', m, kk, kk, T(-0.5), V.data(), m, M.data(), kk, T(1), Y.data(), m);
    pick(gi->row, r0, Y, m, kk, t0, Lr, ldr, kk);
    pick(gi->col, c0, Y, m, kk, t0, Rc, ldc, 0);

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
