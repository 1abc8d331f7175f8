// The shared steps of full → band (band_reduction.hpp).
#include "dense/stages/reduce_to_band/band_reduction.hpp"

#include "core/blas/host.hpp"
#include "core/collectives.hpp"
#include "core/instantiate.hpp"

namespace tseig::dense {

template <class T>
BandReduction<T>::BandReduction(DistMatrix<T>& A, int b) : A_(A), b_(b) {
  const int n = A.n();
  allocate_collectively(A.grid().comm(), [&] {
    const std::size_t m = n - b, ldr = std::max(A.local_rows(), 1),
                      ldc = std::max(A.local_cols(), 1), bb = static_cast<std::size_t>(b) * b;
    tau_.reserve(m);
    row_.resize(A.local_rows());
    row_as_col_.resize(A.local_rows());
    col_.resize(A.local_cols());
    P_.reserve(m * b);
    Pr_.reserve(ldr * b + bb);
    for (auto* v : {&V_, &Tm_, &M_}) v->reserve(bb);
    Lr_.reserve(ldr * 2 * b);
    Rc_.reserve(ldc * 2 * b);
  });
  const int mycol = A.grid().mycol();
  for (int li = 0; li < A.local_rows(); ++li) {
    row_[li] = A.global_row(li);
    row_as_col_[li] = A.col_owner(row_[li]) == mycol ? A.local_col(row_[li]) : -1;
  }
  for (int lj = 0; lj < A.local_cols(); ++lj) col_[lj] = A.global_col(lj);
}

// Where my row r0 + l and my column c0 + lc hold the same global index: adds that row of
// `rows` (leading dimension ldr, kk columns) into that row of `cols` (ldc), or, with
// into_cols false, the other way round.
template <class T>
void BandReduction<T>::add_shared(const BandPanel& p, T* rows, T* cols, bool into_cols) const {
  for (int l = 0; l + p.r0 < static_cast<int>(row_.size()); ++l) {
    const int lc = row_as_col_[p.r0 + l];
    if (lc < 0) continue;
    for (int c = 0; c < p.kk; ++c) {
      T& r = rows[l + static_cast<std::size_t>(c) * p.ldr];
      T& x = cols[(lc - p.c0) + static_cast<std::size_t>(c) * p.ldc];
      if (into_cols)
        x += r;
      else
        r += x;
    }
  }
}

template <class T>
void BandReduction<T>::factor(const BandPanel& p) {
  const Grid& g = A_.grid();
  const int b = b_, m = p.m, kk = p.kk, ldr = p.ldr, ldc = p.ldc, mr = p.mr, k = p.k;
  const int owner = A_.col_owner(k);
  kk_ = kk, ldr_ = ldr, ldc_ = ldc;
  // Panels start on a block boundary: one of more than one block spans several
  // process columns (not only when its last block's owner differs: b = 3·nb, 2 columns).
  const bool spans = b > A_.nb() && g.npcol() > 1, in_owner = g.mycol() == owner;
  const int lj0 = A_.local_cols_before(k), lj1 = A_.local_cols_before(k + b);

  // My process row's rows of the panel into Pr (leading dimension ldr) on the owner
  // column: summed along the row when it spans several process columns.
  Pr_.assign(static_cast<std::size_t>(ldr) * b + static_cast<std::size_t>(kk) * kk, T(0));
  if (in_owner || spans) {
    for (int lj = lj0; mr > 0 && lj < lj1; ++lj)
      std::copy_n(&A_.local(p.r0, lj), mr,
                  Pr_.data() + static_cast<std::size_t>(col_[lj] - k) * ldr);
    if (spans) sum_over_row(g, Pr_.data(), ldr * b);
  }
  // The owner column: the whole panel from its process rows, factored by each of them;
  // then its factored rows and T back into Pr.
  T* Tp = Pr_.data() + static_cast<std::size_t>(ldr) * b;
  int info = 0;
  if (in_owner) {
    P_.assign(static_cast<std::size_t>(m) * b, T(0));
    for (int c = 0; c < b; ++c)
      for (int l = 0; l < mr; ++l)
        P_[row_[p.r0 + l] - p.t0 + static_cast<std::size_t>(c) * m] =
            Pr_[l + static_cast<std::size_t>(c) * ldr];
    sum_over_column(g, P_.data(), m * b);
    Tm_.assign(static_cast<std::size_t>(kk) * kk, T(0));
    info = lapack::geqrt3(m, kk, P_.data(), m, Tm_.data(), kk);
    if (info == 0 && kk < b) apply_to_rest(m, kk);
    for (int c = 0; c < b; ++c)
      for (int l = 0; l < mr; ++l)
        Pr_[l + static_cast<std::size_t>(c) * ldr] =
            P_[row_[p.r0 + l] - p.t0 + static_cast<std::size_t>(c) * m];
    std::copy(Tm_.begin(), Tm_.end(), Tp);
  }
  raise_if_any(g.comm(), info != 0, ErrorCode::numerical_failure,
               "reduce_to_band: ?geqrt3 failed with info = " + std::to_string(info));
  broadcast_along_row(g, Pr_.data(), ldr * b + kk * kk, owner);
  for (int i = 0; i < kk; ++i) tau_.push_back(Tp[i + static_cast<std::size_t>(i) * kk]);
  for (int lj = lj0; mr > 0 && lj < lj1; ++lj)
    std::copy_n(Pr_.data() + static_cast<std::size_t>(col_[lj] - k) * ldr, mr, &A_.local(p.r0, lj));

  // Lr = [V_r  W_r] on my rows, Rc = [W_c  V_c] on my columns. V_r: the factored rows
  // with unit diagonal and zeros above; V_c: from the rows, each process row adding
  // those of its rows that are my columns.
  Lr_.assign(static_cast<std::size_t>(ldr) * 2 * kk, T(0));
  Rc_.assign(static_cast<std::size_t>(ldc) * 2 * kk, T(0));
  T* Vr = Lr_.data();
  for (int c = 0; c < kk; ++c)
    for (int l = 0; l < mr; ++l) {
      const int i = row_[p.r0 + l] - p.t0;
      Vr[l + static_cast<std::size_t>(c) * ldr] = i < c ? T(0)
                                                  : i == c
                                                      ? T(1)
                                                      : Pr_[l + static_cast<std::size_t>(c) * ldr];
    }
  T* Vc = Rc_.data() + static_cast<std::size_t>(ldc) * kk;
  add_shared(p, Vr, Vc, true);
  sum_over_column(g, Vc, ldc * kk);
}

template <class T>
void BandReduction<T>::complete_y(const BandPanel& p, bool columns_partial) {
  // Y on my rows: the column sums of Yc that fall on my rows, added to Yr and summed
  // along the row (process columns own disjoint columns, process rows disjoint rows).
  // Then Y on my columns from the rows, summed along the column.
  const Grid& g = A_.grid();
  if (columns_partial) {
    sum_over_column(g, Yc(), p.ldc * p.kk);
    add_shared(p, Yr(), Yc(), false);
  }
  sum_over_row(g, Yr(), p.ldr * p.kk);
  std::fill(Yc(), Yc() + static_cast<std::size_t>(p.ldc) * p.kk, T(0));
  add_shared(p, Yr(), Yc(), true);
  sum_over_column(g, Yc(), p.ldc * p.kk);
}

template <class T>
void BandReduction<T>::form_w(const BandPanel& p) {
  // W = Y·T − ½·V·(Tᴴ·(Vᴴ·(Y·T))), on my rows and my columns; Vᴴ·(Y·T) summed over my
  // process column's rows.
  const int kk = p.kk;
  blas::trmm('R', 'U', 'N', 'N', p.mr, kk, T(1), Tp(), kk, Yr(), p.ldr);
  blas::trmm('R', 'U', 'N', 'N', p.mc, kk, T(1), Tp(), kk, Yc(), p.ldc);
  M_.assign(static_cast<std::size_t>(kk) * kk, T(0));
  blas::gemm('C', 'N', kk, kk, p.mr, T(1), Vr(), p.ldr, Yr(), p.ldr, T(0), M_.data(), kk);
  sum_over_column(A_.grid(), M_.data(), kk * kk);
  blas::trmm('L', 'U', 'C', 'N', kk, kk, T(1), Tp(), kk, M_.data(), kk);
  blas::gemm('N', 'N', p.mr, kk, kk, T(-0.5), Vr(), p.ldr, M_.data(), kk, T(1), Yr(), p.ldr);
  blas::gemm('N', 'N', p.mc, kk, kk, T(-0.5), Vc(), p.ldc, M_.data(), kk, T(1), Yc(), p.ldc);
}

// The last panel when it has fewer rows than columns (kk < b): Qᴴ applied to its other
// columns, with V made explicit in V (unit diagonal, zeros above).
template <class T>
void BandReduction<T>::apply_to_rest(int m, int kk) {
  const int b = b_;
  V_.assign(P_.begin(), P_.begin() + static_cast<std::ptrdiff_t>(m) * kk);
  for (int c = 0; c < kk; ++c) {
    T* v = V_.data() + static_cast<std::size_t>(c) * m;
    std::fill(v, v + c, T(0));
    v[c] = T(1);
  }
  T* rest = P_.data() + static_cast<std::size_t>(m) * kk;
  M_.assign(static_cast<std::size_t>(kk) * (b - kk), T(0));
  blas::gemm('C', 'N', kk, b - kk, m, T(1), V_.data(), m, rest, m, T(0), M_.data(), kk);
  blas::trmm('L', 'U', 'C', 'N', kk, b - kk, T(1), Tm_.data(), kk, M_.data(), kk);
  blas::gemm('N', 'N', m, b - kk, kk, T(-1), V_.data(), m, M_.data(), kk, T(1), rest, m);
}

#define TSEIG_INSTANTIATE(T) template class BandReduction<T>;
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense
