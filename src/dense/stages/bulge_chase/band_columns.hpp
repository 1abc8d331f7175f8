#pragma once
// Where the bulge chase keeps its band columns. When every rank of the communicator is on
// one node, the ranks put their chunks side by side in one MPI shared-memory window, so
// every rank sees the whole band (the chase deals out whole sweeps then). Otherwise each
// rank keeps its own columns and copies of the zones beside them, and handing a zone to
// a neighbour carries its entries.
#include <mpi.h>

#include <cstddef>
#include <optional>
#include <vector>

#include "dense/stages/bulge_chase/shared_window.hpp"

namespace tseig::dense {

template <class T>
class BandColumns {
 public:
  /// Collective over comm. Columns [lo, hi) of `ld` entries are this rank's (lo = hi for
  /// a rank without columns), with lo of rank p+1 = hi of rank p; it works on columns
  /// [view_lo, view_hi) ⊇ [lo, hi). own_lo()..own_hi() are the columns it must fill:
  /// [lo, hi) when shared (allowed by `share` and all ranks on one node), else the view.
  BandColumns(MPI_Comm comm, bool share, std::size_t ld, int lo, int hi, int view_lo, int view_hi)
      : ld_(ld), own_lo_(view_lo), own_hi_(view_hi) {
    int size = 0;
    MPI_Comm_size(comm, &size);
    // One rank (the tuner times the chase on MPI_COMM_SELF) has no zones to share.
    if (!share || size == 1) return;
    MPI_Comm node;  // the ranks of my node
    MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    int node_size = 0;
    MPI_Comm_size(node, &node_size);
    MPI_Comm_free(&node);
    if (node_size == size) make_window(comm, lo, hi);
  }
  /// Local: the columns of the view, where they are not shared (on every rank through
  /// allocate_collectively, as a failure must reach all).
  void allocate() {
    if (shared()) return;
    local_.resize(ld_ * static_cast<std::size_t>(own_hi_ - own_lo_));
    column0_ = local_.data() - static_cast<std::ptrdiff_t>(ld_) * own_lo_;
  }
  bool shared() const { return window_.has_value(); }
  T* column(int j) const { return column0_ + static_cast<std::ptrdiff_t>(ld_) * j; }
  int own_lo() const { return own_lo_; }
  int own_hi() const { return own_hi_; }
  /// Collective: after every rank filled own() (or finished with the band), the others'
  /// stores are visible to all.
  void filled(MPI_Comm comm) const {
    if (shared()) window_->barrier(comm);
  }

 private:
  std::size_t ld_;
  int own_lo_, own_hi_;
  T* column0_ = nullptr;  // where column 0 would start
  std::vector<T> local_;
  std::optional<SharedWindow> window_;

  // The window, if it can be had and every rank's segment starts where the previous
  // rank's ends (the MPI default, checked rather than assumed); else nothing is kept.
  void make_window(MPI_Comm comm, int lo, int hi) {
    window_.emplace(comm, static_cast<MPI_Aint>(ld_ * sizeof(T)) * (hi - lo),
                    static_cast<int>(sizeof(T)));
    if (!window_->ok()) {
      window_.reset();
      return;
    }
    T* rank0 = static_cast<T*>(window_->segment_of(0));
    int contiguous = hi == lo || rank0 + static_cast<std::ptrdiff_t>(ld_) * lo == window_->mine();
    MPI_Allreduce(MPI_IN_PLACE, &contiguous, 1, MPI_INT, MPI_LAND, comm);
    if (!contiguous) {
      window_.reset();
      return;
    }
    column0_ = rank0;
    own_lo_ = lo;
    own_hi_ = hi;
  }
};

}  // namespace tseig::dense
