#pragma once
// The blocks of reflectors of the Householder back-transform in compact-WY form, as the
// host and CUDA variants both apply them: each process row gathers its rows of a block's
// V from the process columns that own the panels and forms the triangular factor T, so
// that the block is I − V·T·Vᴴ.
#include <vector>

#include "tseig/matrix.hpp"
#include "tseig/tune.hpp"

namespace tseig::dense {

template <class T>
class WyBlocks {
 public:
  /// Collective over A's grid (the work arrays at their largest, on every rank or on
  /// none). The reflectors as backtransform_householder describes them.
  WyBlocks(const DistMatrix<T>& A, const std::vector<T>& tau, int offset,
           const TuneParameters& tune);

  /// One block of w reflectors from b0: this rank's rows r0.. of Z (its local rows ≥
  /// b0 + offset, m of them) meet V (m×w, leading dimension ldv) and T (w×w).
  struct Block {
    int w, r0, m, ldv;
    const T* V;
    const T* T_;
  };
  /// The start of the block holding the last reflector; blocks go from there down to 0
  /// in steps of width().
  int last() const { return ((static_cast<int>(tau_.size()) - 1) / width_) * width_; }
  int width() const { return width_; }
  /// Collective over A's grid: gathers the block from b0 and forms its T.
  Block form(int b0);
  /// Collective over A's grid: gathers the block's V only (T_ is null).
  Block gather(int b0);

 private:
  const DistMatrix<T>& A_;
  const std::vector<T>& tau_;
  int offset_, width_;
  std::vector<int> grow_;
  std::vector<T> V_, S_, T_;
};

}  // namespace tseig::dense
