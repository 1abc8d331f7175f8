#pragma once
// How far each sweep of a bulge chase shared by the ranks of one node has got: one
// counter per sweep in an MPI shared-memory window, stored (release) by the rank running
// the sweep after each step and loaded (acquire) by the rank running the next sweep
// before a step that needs it. Lock-free atomics on shared memory order the band
// entries written before a store for whoever loads it, across processes as across threads.
#include <mpi.h>

#include <algorithm>
#include <atomic>

#include "dense/stages/bulge_chase/shared_window.hpp"

namespace tseig::dense {

class SweepProgress {
 public:
  /// Collective over comm, whose ranks share one node. active() is false on every rank
  /// when the window cannot be had.
  SweepProgress(MPI_Comm comm, int sweeps)
      : window_(comm, rank_of(comm) == 0 ? static_cast<MPI_Aint>(sizeof(int)) * sweeps : 0,
                sizeof(int)) {
    if (!window_.ok()) return;
    done_ = static_cast<int*>(window_.segment_of(0));
    if (rank_of(comm) == 0) std::fill_n(done_, sweeps, 0);
    window_.barrier(comm);
  }

  bool active() const { return window_.ok(); }
  /// Steps of sweep s done.
  int done(int s) const { return std::atomic_ref<int>(done_[s]).load(std::memory_order_acquire); }
  void set_done(int s, int steps) {
    std::atomic_ref<int>(done_[s]).store(steps, std::memory_order_release);
  }

 private:
  SharedWindow window_;
  int* done_ = nullptr;

  static int rank_of(MPI_Comm comm) {
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    return rank;
  }
};

}  // namespace tseig::dense
