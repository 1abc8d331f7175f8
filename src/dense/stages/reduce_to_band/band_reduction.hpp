#pragma once
// What the host and CUDA variants of full → band share. Per panel of b columns: the
// process column that owns the panel gathers it (m×b, small next to the trailing matrix)
// and factors it redundantly with the recursive BLAS-3 QR, which saves the latency of a
// distributed QR; one broadcast along each process row then hands every rank the
// factored rows it owns. The trailing update Ã ← Qᴴ Ã Q is
//   Y = Ã·V, W = Y·T − ½·V·(Tᴴ·Vᴴ·Y·T), Ã −= V·Wᴴ + W·Vᴴ,
// with Y and W on my rows (Yr) and on my columns (Yc). The variants differ in where Ã
// lives and how they form Y = Ã·V and the update; the rest is here.
// Every exchange runs along a process row or column and carries only the rows or columns
// that row or column owns (≈ m·b/P_r or m·b/P_c entries per rank; the owner column's
// gather m·b, for 1/P_c of the panels), so the traffic per rank shrinks as the grid grows.
#include <algorithm>
#include <string>
#include <vector>

#include "tseig/error.hpp"
#include "tseig/matrix.hpp"

namespace tseig::dense {

/// Throws invalid_argument unless b is a positive multiple of A's block size; whether
/// there is anything to reduce (b < n).
template <class T>
bool band_reduction_needed(const DistMatrix<T>& A, int b) {
  if (b < 1 || b % A.nb() != 0)
    throw Error(ErrorCode::invalid_argument,
                "reduce_to_band: bandwidth " + std::to_string(b) +
                    " is not a positive multiple of nb = " + std::to_string(A.nb()));
  return b < A.n();
}

/// One panel: columns [k, k + b), the trailing matrix from t0 = k + b (m rows, kk = min(m,
/// b) reflectors); my rows of it from local row r0 (mr of them, leading dimension ldr of
/// the row arrays), my columns from local column c0 (mc, ldc).
struct BandPanel {
  int k, m, kk, t0, r0, c0, mr, mc, ldr, ldc;
  template <class T>
  BandPanel(const DistMatrix<T>& A, int b, int k_)
      : k(k_),
        m(A.n() - k_ - b),
        kk(std::min(m, b)),
        t0(k_ + b),
        r0(A.local_rows_before(t0)),
        c0(A.local_cols_before(t0)),
        mr(A.local_rows() - r0),
        mc(A.local_cols() - c0),
        ldr(std::max(mr, 1)),
        ldc(std::max(mc, 1)) {}
};

/// Collective steps over A's grid (square blocks, rsrc = csrc = 0), in the order factor,
/// (the variant's Y = Ã·V into Yr/Yc), complete_y, form_w, (the variant's update with
/// L = [V W] on my rows and R = [W V] on my columns).
template <class T>
class BandReduction {
 public:
  /// Every work array at its largest (the first panel's), on every rank or on none: the
  /// panels only shrink them, so no allocation falls between their reductions.
  BandReduction(DistMatrix<T>& A, int b);

  /// The panel A(t0:n, k:k+b), read from A's local storage (my rows from t0), is
  /// factored and its factored rows written back; tau gains its kk entries. Then Vr and
  /// Vc hold V on my rows and columns, and Yr and Yc are zero.
  void factor(const BandPanel& p);
  /// Yr and Yc hold partial sums of Y over this rank's part of Ã. columns_partial: Yc's
  /// column sums are part of Y too (tiles below the diagonal counted once for both);
  /// else Yr alone, summed along the process row, is Y on my rows. Afterwards Yr and Yc
  /// hold Y on my rows and my columns.
  void complete_y(const BandPanel& p, bool columns_partial);
  /// Yr, Yc ← W on my rows and columns.
  void form_w(const BandPanel& p);

  T* Yr() { return Lr_.data() + static_cast<std::size_t>(ldr_) * kk_; }
  T* Yc() { return Rc_.data(); }
  const T* Vr() const { return Lr_.data(); }
  const T* Vc() const { return Rc_.data() + static_cast<std::size_t>(ldc_) * kk_; }
  /// [Vr Wr] (leading dimension ldr, 2·kk columns) and [Wc Vc] (ldc, 2·kk).
  const T* L() const { return Lr_.data(); }
  const T* R() const { return Rc_.data(); }
  std::vector<T> take_tau() { return std::move(tau_); }

 private:
  // Global indices of my local rows and columns, and for each local row the local column
  // with the same global index (−1 where another process column owns it).
  std::vector<int> row_, col_, row_as_col_;
  DistMatrix<T>& A_;
  int b_, kk_ = 0, ldr_ = 1, ldc_ = 1;
  std::vector<T> tau_, P_, Pr_, V_, Tm_, M_, Lr_, Rc_;

  void add_shared(const BandPanel& p, T* rows, T* cols, bool into_cols) const;
  void apply_to_rest(int m, int kk);
  const T* Tp() const { return Pr_.data() + static_cast<std::size_t>(ldr_) * b_; }
};

}  // namespace tseig::dense
