#pragma once
// Columns of Z copied into stripes of stripe_width<T>() columns, row by row: the layout
// the reflector-group kernel (reflector_group_kernel.hpp) works on, used by the band
// back-transform (stage 4) and by the Householder back-transform on one process row.
#include <algorithm>
#include <cstddef>

#include "core/buffer_cache.hpp"
#include "dense/stages/backtransform_band/reflector_group_kernel.hpp"
#include "dense/stages/backtransform_band/row_panels.hpp"

namespace tseig::dense {

// Rows [row0, row0 + rows) of `cols` columns, W columns per stripe, row by row (the last
// stripe padded with zero columns): the kernel's working copy.
template <class T>
class Stripes {
 public:
  static constexpr int W = stripe_width<T>();
  Stripes(int row0, int rows, int cols)
      : row0_(row0),
        rows_(rows),
        cols_(cols),
        count_((cols + W - 1) / W),
        data_(static_cast<std::size_t>(count_) * rows * W, T(0)) {}
  int count() const { return count_; }
  // All rows of every stripe, as exchange_panels sees them (row0 at row 0).
  T* data() { return data_.data(); }
  PanelStorage storage() const { return {rows_, W}; }
  // Row `row` (global) of stripe st.
  T* at(int st, int row) {
    return data_.data() + (static_cast<std::size_t>(st) * rows_ + (row - row0_)) * W;
  }
  // Rows [row0, row0 + nrows) ← X's or → X (column-major, leading dimension ldx).
  void load(const T* X, int ldx, int nrows) {
    for (int c = 0; c < cols_; ++c)
      for (int i = 0; i < nrows; ++i)
        at(c / W, row0_ + i)[c % W] = X[i + static_cast<std::size_t>(c) * ldx];
  }
  void store(T* X, int ldx, int nrows) {
    for (int c = 0; c < cols_; ++c)
      for (int i = 0; i < nrows; ++i)
        X[i + static_cast<std::size_t>(c) * ldx] = at(c / W, row0_ + i)[c % W];
  }
  // Rows [row, row + nrows) of every stripe, packed into / unpacked from buf.
  void pack(int row, int nrows, T* buf) {
    for (int st = 0; st < count_; ++st) buf = std::copy_n(at(st, row), nrows * W, buf);
  }
  void unpack(int row, int nrows, const T* buf) {
    for (int st = 0; st < count_; ++st, buf += nrows * W) std::copy_n(buf, nrows * W, at(st, row));
  }

 private:
  int row0_, rows_, cols_, count_;
  cached_vector<T> data_;
};

}  // namespace tseig::dense
