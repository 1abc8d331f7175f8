#pragma once
// One step of the bulge chase and the band storage it works on, shared by the two ways
// of dealing the chase out over ranks (chunks of columns, or whole sweeps on one node).
// The work matrix keeps the lower triangle with 2b−1 subdiagonals (room for the bulge),
// column-major, so every kernel runs down contiguous column segments.
#include <algorithm>
#include <vector>

#include "core/blas/host.hpp"
#include "dense/stages/bulge_chase/api.hpp"
#include "dense/stages/bulge_chase/band_columns.hpp"
#include "dense/stages/bulge_chase/conj_dot.hpp"

namespace tseig::dense {

template <class T>
class BandWork {
 public:
  // The n×n band matrix's columns in `cols` (leading dimension 2b); fills the columns
  // this rank owns there from `band`.
  BandWork(const BandColumns<T>& cols, const std::vector<T>& band, int n, int b)
      : ld_(2 * b), cols_(cols) {
    for (int j = cols.own_lo(); j < cols.own_hi(); ++j) {
      std::fill_n(cols.column(j), ld_, T(0));
      for (int r = 0; r <= b && j + r < n; ++r) at(j + r, j) = band[r + std::size_t(j) * (b + 1)];
      at(j, j) = std::real(at(j, j));
    }
  }
  T& at(int i, int j) { return cols_.column(j)[i - j]; }
  // Columns j0..j1−1 as one contiguous buffer (for handing them to a neighbour).
  T* columns(int j0) { return cols_.column(j0); }
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
  int ld_;
  const BandColumns<T>& cols_;
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

}  // namespace tseig::dense
