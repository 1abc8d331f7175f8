// Distributed blocked Householder tridiagonalization (LAPACK ?hetrd/?latrd 'L' on a
// 2D block-cyclic grid, as ELPA1 does it).
//
// Per column j: bring column j up to date with the panel's pending rank-2 updates,
// form the reflector on the owning process column, make v known on every rank
// (row broadcast + column sum), y = A·v from the local lower-triangle tiles,
// correct y for the pending updates, and store v, w. After nb columns the trailing
// matrix gets A −= V·Wᴴ + W·Vᴴ with one GEMM per local block column.
#include "dense/stages/tridiagonalize/api.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/blas/host.hpp"
#include "core/collectives.hpp"
#include "core/instantiate.hpp"
#include "dense/stages/tridiagonalize/hermitian_tile_product.hpp"
#include "tseig/error.hpp"

namespace tseig::dense {

namespace {

template <class T>
using R = real_t<T>;

// The lower triangle (diagonal counted once) of the m×m diagonal tile `a`: halved
// recursively, so all but strips of at most 16 columns go through the vectorized tile
// product (with a scalar loop over the whole nb × nb triangle the stage took 8 % longer,
// N = 2000, nb = 64, one rank).
template <class T>
void diagonal_tile_product(int m, const T* a, int lda, const T* xcol, const T* xrow, T* yrow,
                           T* ycol) {
  const long ld = lda;
  if (m > 16) {
    const int h = m / 2;
    diagonal_tile_product(h, a, lda, xcol, xrow, yrow, ycol);
    hermitian_tile_product(m - h, h, a + h, lda, xcol, xrow + h, yrow + h, ycol);
    diagonal_tile_product(m - h, a + h + h * ld, lda, xcol + h, xrow + h, yrow + h, ycol + h);
    return;
  }
  for (int k = 0; k < m; ++k) {
    const T* col = a + k * ld;
    T acc = 0;
    yrow[k] += R<T>(std::real(col[k])) * xcol[k];
    for (int r = k + 1; r < m; ++r) {
      yrow[r] += col[r] * xcol[k];
      acc += conj_if_complex(col[r]) * xrow[r];
    }
    ycol[k] += acc;
  }
}

// y_rows += A·v_cols and y_cols += Aᴴ·v_rows over my local tiles of the lower
// triangle of A(s:n, s:n); every element (i, j), i ≥ j, lives on exactly one rank,
// so summing the results over the grid gives the Hermitian product A(s:n, s:n)·v.
template <class T>
void local_hermitian_product(const DistMatrix<T>& A, int s, const std::vector<int>& gcol,
                             const T* vrow, const T* vcol, T* yrow, T* ycol) {
  const int n = A.n(), nb = A.nb(), lr = A.local_rows(), lc = A.local_cols(), lld = A.lld();
  const int myrow = A.grid().myrow();
  for (int c = A.local_cols_before(s); c < lc;) {
    const int blk = c / nb, cend = std::min(lc, (blk + 1) * nb);
    const int G = gcol[blk * nb];  // first global column of this block
    int rect_begin = A.local_rows_before(G);
    if (A.row_owner(G) == myrow) {
      // Diagonal block: only its lower triangle, from this block's first trailing column.
      const int bs = std::min(nb, n - G);
      const int d0 = A.local_row(G) + (gcol[c] - G);
      rect_begin = A.local_row(G) + bs;
      diagonal_tile_product(rect_begin - d0, &A.local(d0, c), lld, vcol + c, vrow + d0, yrow + d0,
                            ycol + c);
    }
    if (rect_begin < lr)
      hermitian_tile_product(lr - rect_begin, cend - c, &A.local(rect_begin, c), lld, vcol + c,
                             vrow + rect_begin, yrow + rect_begin, ycol + c);
    c = cend;
  }
}

// Householder reflector for the distributed column x = A(j+1:n, j) held by my process
// column (LAPACK ?larfg): on return x(j+2:n) holds v, and beta, tau are set.
template <class T>
void make_reflector(DistMatrix<T>& A, int j, int lcol, R<T>& beta, T& tau) {
  const Grid& g = A.grid();
  const int lr = A.local_rows();
  T* a = &A.local(0, lcol);
  const int r2 = A.local_rows_before(j + 2);
  R<T> amax = 0;
  for (int li = r2; li < lr; ++li) amax = std::max(amax, std::abs(a[li]));
  if (g.nprow() > 1) MPI_Allreduce(MPI_IN_PLACE, &amax, 1, mpi_type<R<T>>(), MPI_MAX, g.col_comm());
  // Sum of squares scaled by amax (no overflow/underflow for tiny or huge columns),
  // and alpha = A(j+1, j) from its owner, in one reduction.
  R<T> sums[3] = {0, 0, 0};
  if (amax > 0)
    for (int li = r2; li < lr; ++li) sums[0] += std::norm(a[li] / amax);
  if (A.row_owner(j + 1) == g.myrow()) {
    T alpha = a[A.local_row(j + 1)];
    sums[1] = std::real(alpha);
    sums[2] = std::imag(alpha);
  }
  sum_over_column(g, sums, 3);
  R<T> xnorm = amax * std::sqrt(sums[0]), alphr = sums[1], alphi = sums[2];
  if (xnorm == 0 && alphi == 0) {
    tau = T(0);
    beta = alphr;
    return;
  }
  const auto norm_of = [&] {
    const R<T> s = std::max({std::abs(alphr), std::abs(alphi), xnorm});
    return s * std::sqrt((alphr / s) * (alphr / s) + (alphi / s) * (alphi / s) +
                         (xnorm / s) * (xnorm / s));
  };
  R<T> h = norm_of();
  // As ?larfg: a column this small is scaled up by a power of two first. Near the
  // subnormal range, tau and v = x/(alpha − beta) lost their relative precision, and the
  // reflector its orthogonality (a matrix scaled by 1e-300: orthogonality error 3e5·Nε).
  constexpr R<T> safmin = std::numeric_limits<R<T>>::min() / std::numeric_limits<R<T>>::epsilon();
  R<T> up = 1;
  for (int k = 0; k < 20 && h < safmin; ++k, h = norm_of()) {
    up /= safmin;
    xnorm = amax * up * std::sqrt(sums[0]);
    alphr = sums[1] * up;
    alphi = sums[2] * up;
  }
  if (up != 1)
    for (int li = r2; li < lr; ++li) a[li] *= up;
  beta = alphr >= 0 ? -h : h;
  T alpha;
  if constexpr (is_complex_v<T>) {
    alpha = T(alphr, alphi);
    tau = T((beta - alphr) / beta, -alphi / beta);
  } else {
    alpha = alphr;
    tau = (beta - alphr) / beta;
  }
  const T denom = alpha - T(beta);
  for (int li = r2; li < lr; ++li) a[li] /= denom;
  beta /= up;
}

}  // namespace

template <Device D, class T>
Tridiagonal<T> tridiagonalize(DistMatrix<T>& A) {
  const Grid& g = A.grid();
  const int n = A.n(), nb = A.nb(), lr = A.local_rows(), lc = A.local_cols();
  Tridiagonal<T> out;
  std::vector<int> grow, gcol;
  const int w = std::min(nb, n);
  // The panel's reflectors V and vectors W: replicated full-length copies, plus my
  // local-row and local-column entries side by side ([V W] rows, [W V] columns) so
  // the trailing update is one GEMM. Allocated on every rank or on none.
  std::vector<T> V, W, VWrow, WVcol, buf, wj, vj, wv, vrow, vcol, yrow, ycol;
  std::vector<R<T>> d;
  allocate_collectively(g.comm(), [&] {
    out.d.assign(n, 0);
    out.e.assign(std::max(n - 1, 0), 0);
    out.tau.assign(std::max(n - 1, 0), T(0));
    grow.resize(lr);
    gcol.resize(lc);
    V.resize(static_cast<std::size_t>(n) * w);
    W.resize(V.size());
    VWrow.resize(static_cast<std::size_t>(std::max(lr, 1)) * 2 * w);
    WVcol.resize(static_cast<std::size_t>(std::max(lc, 1)) * 2 * w);
    buf.resize(n + 2);
    wj.resize(w);
    vj.resize(w);
    wv.resize(2 * static_cast<std::size_t>(w));
    vrow.resize(lr);
    vcol.resize(lc);
    yrow.resize(lr);
    ycol.resize(lc);
    d.assign(n, 0);
  });
  if (n == 0) return out;
  for (int li = 0; li < lr; ++li) grow[li] = A.global_row(li);
  for (int c = 0; c < lc; ++c) gcol[c] = A.global_col(c);
  const int ldr = std::max(lr, 1), ldc = std::max(lc, 1);

  for (int k0 = 0; k0 < n; k0 += nb) {
    const int k1 = std::min(n, k0 + nb);
    const int pc = A.col_owner(k0);
    const bool mine = pc == g.mycol();
    const int lcol0 = mine ? A.local_col(k0) : -1;
    std::fill(V.begin(), V.end(), T(0));
    std::fill(W.begin(), W.end(), T(0));
    int nref = 0;  // reflectors formed in this panel

    for (int j = k0; j < k1; ++j) {
      const int i = j - k0;
      // A. Column j ← column j − V·W(j,:)ᴴ − W·V(j,:)ᴴ (pending panel updates).
      if (mine) {
        T* a = &A.local(0, lcol0 + i);
        const int r0 = A.local_rows_before(j);
        for (int k = 0; k < i; ++k) {
          wj[k] = conj_if_complex(W[j + static_cast<std::size_t>(k) * n]);
          vj[k] = conj_if_complex(V[j + static_cast<std::size_t>(k) * n]);
        }
        blas::gemv('N', lr - r0, i, T(-1), VWrow.data() + r0, ldr, wj.data(), 1, T(1), a + r0, 1);
        blas::gemv('N', lr - r0, i, T(-1), VWrow.data() + r0 + static_cast<std::size_t>(w) * ldr,
                   ldr, vj.data(), 1, T(1), a + r0, 1);
        if (A.row_owner(j) == g.myrow()) d[j] = std::real(a[A.local_row(j)]);
      }
      if (j == n - 1) break;

      // B. Reflector on process column pc; C. v (and tau, beta) to every rank.
      const int len = n - j - 1;
      T* seg = buf.data() + 2;  // buf = [tau, beta, v(j+1:n)]
      std::fill(buf.begin(), buf.begin() + 2 + len, T(0));
      if (mine) {
        R<T> beta = 0;
        T tau = 0;
        make_reflector(A, j, lcol0 + i, beta, tau);
        const T* a = &A.local(0, lcol0 + i);
        for (int li = A.local_rows_before(j + 2); li < lr; ++li) seg[grow[li] - j - 1] = a[li];
        buf[0] = tau;
        buf[1] = T(beta);
      }
      broadcast_along_row(g, buf.data(), 2 + len, pc);
      sum_over_column(g, seg, len);
      seg[0] = T(1);
      const T tau = buf[0];
      out.tau[j] = tau;
      out.e[j] = std::real(buf[1]);

      T* vfull = V.data() + static_cast<std::size_t>(i) * n;
      std::copy_n(seg, len, vfull + j + 1);
      for (int li = 0; li < lr; ++li) vrow[li] = vfull[grow[li]];
      for (int c = 0; c < lc; ++c) vcol[c] = vfull[gcol[c]];

      // D. y = A(j+1:n, j+1:n)·v − V·(Wᴴv) − W·(Vᴴv). Each rank forms Wᴴv and Vᴴv on a
      // share of the rows, summed over the grid while the tile products run, and then
      // corrects y on that share only, before the one sum of y: done whole on every
      // rank, the corrections' O(N²·nb) did not shrink with the rank count.
      const int lo = j + 1 + static_cast<int>(static_cast<long>(len) * g.rank() / g.size());
      const int hi = j + 1 + static_cast<int>(static_cast<long>(len) * (g.rank() + 1) / g.size());
      std::fill(wv.begin(), wv.end(), T(0));  // a BLAS gemv with no rows leaves y as it is
      blas::gemv('C', hi - lo, i, T(1), W.data() + lo, n, vfull + lo, 1, T(0), wv.data(), 1);
      blas::gemv('C', hi - lo, i, T(1), V.data() + lo, n, vfull + lo, 1, T(0), wv.data() + i, 1);
      MPI_Request pending = MPI_REQUEST_NULL;
      if (g.size() > 1 && i > 0)
        MPI_Iallreduce(MPI_IN_PLACE, wv.data(), 2 * i, mpi_type<T>(), MPI_SUM, g.comm(), &pending);
      std::fill(yrow.begin(), yrow.end(), T(0));
      std::fill(ycol.begin(), ycol.end(), T(0));
      local_hermitian_product(A, j + 1, gcol, vrow.data(), vcol.data(), yrow.data(), ycol.data());
      T* ys = buf.data();  // reuse: y(j+1:n)
      std::fill(ys, ys + len, T(0));
      for (int li = A.local_rows_before(j + 1); li < lr; ++li) ys[grow[li] - j - 1] += yrow[li];
      for (int c = A.local_cols_before(j + 1); c < lc; ++c) ys[gcol[c] - j - 1] += ycol[c];
      MPI_Wait(&pending, MPI_STATUS_IGNORE);
      blas::gemv('N', hi - lo, i, T(-1), V.data() + lo, n, wv.data(), 1, T(1), ys + lo - j - 1, 1);
      blas::gemv('N', hi - lo, i, T(-1), W.data() + lo, n, wv.data() + i, 1, T(1), ys + lo - j - 1,
                 1);
      sum_over_grid(g, ys, len);

      // As ?latrd: w = tau·y, then w += (−½·tau·wᴴv)·v.
      const T* v = vfull + j + 1;
      T dot = 0;
      for (int k = 0; k < len; ++k) {
        ys[k] *= tau;
        dot += conj_if_complex(ys[k]) * v[k];
      }
      const T alpha = T(-0.5) * tau * dot;
      T* wfull = W.data() + static_cast<std::size_t>(i) * n;
      for (int k = 0; k < len; ++k) wfull[j + 1 + k] = ys[k] + alpha * v[k];

      T* Vr = VWrow.data() + static_cast<std::size_t>(i) * ldr;
      T* Wr = VWrow.data() + static_cast<std::size_t>(w + i) * ldr;
      for (int li = 0; li < lr; ++li) {
        Vr[li] = vrow[li];
        Wr[li] = wfull[grow[li]];
      }
      T* Wc = WVcol.data() + static_cast<std::size_t>(i) * ldc;
      T* Vc = WVcol.data() + static_cast<std::size_t>(w + i) * ldc;
      for (int c = 0; c < lc; ++c) {
        Wc[c] = wfull[gcol[c]];
        Vc[c] = vcol[c];
      }
      nref = i + 1;
    }

    // E. Trailing update A(k1:n, k1:n) −= V·Wᴴ + W·Vᴴ on local lower-triangle blocks.
    if (nref > 0 && k1 < n) {
      if (nref < w) {  // pack the two halves next to each other for one GEMM
        for (int k = 0; k < nref; ++k) {
          std::copy_n(VWrow.data() + static_cast<std::size_t>(w + k) * ldr, ldr,
                      VWrow.data() + static_cast<std::size_t>(nref + k) * ldr);
          std::copy_n(WVcol.data() + static_cast<std::size_t>(w + k) * ldc, ldc,
                      WVcol.data() + static_cast<std::size_t>(nref + k) * ldc);
        }
      }
      for (int c = A.local_cols_before(k1); c < lc; c += nb) {
        const int ncols = std::min(nb, lc - c);
        const int r0 = A.local_rows_before(gcol[c]);
        blas::gemm('N', 'C', lr - r0, ncols, 2 * nref, T(-1), VWrow.data() + r0, ldr,
                   WVcol.data() + c, ldc, T(1), &A.local(r0, c), A.lld());
      }
    }
  }
  sum_over_grid(g, d.data(), n);
  out.d = std::move(d);
  return out;
}

#define TSEIG_INSTANTIATE(T) \
  template Tridiagonal<T> tridiagonalize<Device::host, T>(DistMatrix<T>&);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense
