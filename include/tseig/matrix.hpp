#pragma once
// DistMatrix<T>: a dense M×N matrix distributed 2D block-cyclically over a Grid,
// stored column-major per process exactly as ScaLAPACK expects. Either owns its
// local array or is a view over a caller's array (no copy).
#include <array>
#include <memory>
#include <vector>

#include "tseig/export.hpp"
#include "tseig/grid.hpp"
#include "tseig/index_map.hpp"
#include "tseig/types.hpp"

namespace tseig {

/// ScaLAPACK array descriptor (DTYPE=1, dense). Indices are 0-based in tseig;
/// rsrc/csrc are process coordinates as in ScaLAPACK.
struct TSEIG_API Descriptor {
  int dtype = 1, ctxt = -1, m = 0, n = 0, mb = 1, nb = 1, rsrc = 0, csrc = 0, lld = 1;
  std::array<int, 9> to_array() const { return {dtype, ctxt, m, n, mb, nb, rsrc, csrc, lld}; }
  static Descriptor from_array(const int* desc);
};

/// Checks a descriptor against a grid; throws Error(invalid_descriptor) naming the
/// wrong field. Local check only (not collective).
TSEIG_API void validate_descriptor(const Descriptor& d, const Grid& grid);

template <class T>
class TSEIG_API DistMatrix {
 public:
  using value_type = T;

  DistMatrix() = default;
  /// Owning, zero-initialised. lld = max(1, local rows).
  DistMatrix(const Grid& grid, int m, int n, int mb, int nb, int rsrc = 0, int csrc = 0);
  /// Square blocks nb×nb.
  DistMatrix(const Grid& grid, int m, int n, int nb) : DistMatrix(grid, m, n, nb, nb) {}
  /// Non-owning view over `local` (column-major, leading dimension desc.lld).
  static DistMatrix view(const Grid& grid, const Descriptor& desc, T* local);
  /// Same distribution as `other`, new zeroed storage.
  static DistMatrix like(const DistMatrix& other) {
    return DistMatrix(other.grid(), other.m(), other.n(), other.mb(), other.nb(), other.rsrc(),
                      other.csrc());
  }

  DistMatrix(DistMatrix&&) noexcept = default;
  DistMatrix& operator=(DistMatrix&&) noexcept = default;
  /// Deep copy into owning storage with the same distribution.
  DistMatrix clone() const;

  const Grid& grid() const { return grid_; }
  int m() const { return desc_.m; }
  int n() const { return desc_.n; }
  int mb() const { return desc_.mb; }
  int nb() const { return desc_.nb; }
  int rsrc() const { return desc_.rsrc; }
  int csrc() const { return desc_.csrc; }
  int lld() const { return desc_.lld; }
  int local_rows() const { return local_rows_; }
  int local_cols() const { return local_cols_; }
  bool owns_data() const { return owning_; }

  /// ScaLAPACK descriptor (ctxt = the grid's BLACS context).
  const Descriptor& descriptor() const { return desc_; }
  const int* desc() const { return reinterpret_cast<const int*>(&desc_); }

  T* data() { return data_; }
  const T* data() const { return data_; }
  T& local(int li, int lj) { return data_[li + static_cast<long>(lj) * desc_.lld]; }
  const T& local(int li, int lj) const { return data_[li + static_cast<long>(lj) * desc_.lld]; }

  // Global ↔ local index maps (0-based).
  int row_owner(int gi) const { return block_cyclic::owner(gi, mb(), rsrc(), grid_.nprow()); }
  int col_owner(int gj) const { return block_cyclic::owner(gj, nb(), csrc(), grid_.npcol()); }
  bool is_local(int gi, int gj) const {
    return row_owner(gi) == grid_.myrow() && col_owner(gj) == grid_.mycol();
  }
  int local_row(int gi) const { return block_cyclic::local_index(gi, mb(), grid_.nprow()); }
  int local_col(int gj) const { return block_cyclic::local_index(gj, nb(), grid_.npcol()); }
  int global_row(int li) const {
    return block_cyclic::global_index(li, mb(), grid_.myrow(), rsrc(), grid_.nprow());
  }
  int global_col(int lj) const {
    return block_cyclic::global_index(lj, nb(), grid_.mycol(), csrc(), grid_.npcol());
  }
  /// First local row whose global row is ≥ gi (== local_rows() if none).
  int local_rows_before(int gi) const {
    return block_cyclic::local_count_below(gi, mb(), grid_.myrow(), rsrc(), grid_.nprow());
  }
  int local_cols_before(int gj) const {
    return block_cyclic::local_count_below(gj, nb(), grid_.mycol(), csrc(), grid_.npcol());
  }

  /// Sets every local element to f(global_row, global_col).
  template <class F>
  void fill(F&& f) {
    for (int lj = 0; lj < local_cols_; ++lj) {
      int gj = global_col(lj);
      for (int li = 0; li < local_rows_; ++li) local(li, lj) = f(global_row(li), gj);
    }
  }

  /// Collective: the whole matrix, column-major m×n, on `root` (empty elsewhere).
  std::vector<T> gather(int root = 0) const;
  /// Collective: distributes the column-major m×n array `full` given on `root`.
  void scatter(const T* full, int root = 0);
  /// Collective over this grid: a copy with another blocking and/or grid. The target
  /// grid must use the same processes (same communicator group).
  DistMatrix redistribute(const Grid& grid, int mb, int nb, int rsrc = 0, int csrc = 0) const;
  /// Collective: copies the first `ncols` columns (-1: all) of `src` (same number of rows,
  /// any distribution, same processes) into the first `ncols` columns of this.
  void copy_from(const DistMatrix& src, int ncols = -1);

 private:
  void init_layout(const Grid& grid, const Descriptor& desc);

  Grid grid_;
  Descriptor desc_{};
  int local_rows_ = 0, local_cols_ = 0;
  std::vector<T> storage_;
  T* data_ = nullptr;
  bool owning_ = true;
};

}  // namespace tseig
