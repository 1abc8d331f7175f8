#pragma once
// How far each sweep of a bulge chase shared by the ranks of one node has got: one
// counter per sweep in an MPI shared-memory window, stored (release) by the rank running
// the sweep after each step and loaded (acquire) by the rank running the next sweep
// before a step that needs it. Lock-free atomics on shared memory order the band
// entries written before a store for whoever loads it, across processes as across threads.
#include <mpi.h>

#include <algorithm>
#include <atomic>

namespace tseig::dense {

class SweepProgress {
 public:
  /// Collective over comm, whose ranks share one node. active() is false on every rank
  /// when the window cannot be had.
  SweepProgress(MPI_Comm comm, int sweeps) {
    MPI_Comm c;
    MPI_Comm_dup(comm, &c);
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);  // no room for a window: not fatal
    int rank = 0;
    MPI_Comm_rank(c, &rank);
    const MPI_Aint bytes = rank == 0 ? static_cast<MPI_Aint>(sizeof(int)) * sweeps : 0;
    int* mine = nullptr;
    int ok =
        MPI_Win_allocate_shared(bytes, sizeof(int), MPI_INFO_NULL, c, &mine, &win_) == MPI_SUCCESS;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, c);
    if (!ok) {  // a window made on some ranks only cannot be freed collectively: left be
      win_ = MPI_WIN_NULL;
      MPI_Comm_free(&c);
      return;
    }
    MPI_Aint size0 = 0;
    int unit = 0;
    MPI_Win_shared_query(win_, 0, &size0, &unit, &done_);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, win_);
    if (rank == 0) std::fill_n(done_, sweeps, 0);
    MPI_Win_sync(win_);
    MPI_Barrier(c);
    MPI_Win_sync(win_);
    MPI_Comm_free(&c);
  }
  ~SweepProgress() {
    if (win_ == MPI_WIN_NULL) return;
    MPI_Win_unlock_all(win_);
    MPI_Win_free(&win_);
  }
  SweepProgress(const SweepProgress&) = delete;
  SweepProgress& operator=(const SweepProgress&) = delete;

  bool active() const { return win_ != MPI_WIN_NULL; }
  /// Steps of sweep s done.
  int done(int s) const { return std::atomic_ref<int>(done_[s]).load(std::memory_order_acquire); }
  void set_done(int s, int steps) {
    std::atomic_ref<int>(done_[s]).store(steps, std::memory_order_release);
  }

 private:
  int* done_ = nullptr;
  MPI_Win win_ = MPI_WIN_NULL;
};

}  // namespace tseig::dense
