#pragma once
// An MPI shared-memory window over the ranks of one node, held for the object's lifetime
// (passive-target epoch open throughout, so the ranks read and write it directly).
#include <mpi.h>

namespace tseig::dense {

class SharedWindow {
 public:
  /// Collective over comm, whose ranks share one node: this rank adds `bytes` to the
  /// window. Errors are returned, not fatal: a node without room for the window (a small
  /// /tmp or /dev/shm) gives ok() = false on every rank.
  SharedWindow(MPI_Comm comm, MPI_Aint bytes, int unit) {
    MPI_Comm c;
    MPI_Comm_dup(comm, &c);
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    int ok = MPI_Win_allocate_shared(bytes, unit, MPI_INFO_NULL, c, &mine_, &win_) == MPI_SUCCESS;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, c);
    MPI_Comm_free(&c);
    if (!ok) {  // a window made on some ranks only cannot be freed collectively: left be
      win_ = MPI_WIN_NULL;
      return;
    }
    MPI_Win_lock_all(MPI_MODE_NOCHECK, win_);
  }
  ~SharedWindow() {
    if (win_ == MPI_WIN_NULL) return;
    MPI_Win_unlock_all(win_);
    MPI_Win_free(&win_);
  }
  SharedWindow(const SharedWindow&) = delete;
  SharedWindow& operator=(const SharedWindow&) = delete;

  bool ok() const { return win_ != MPI_WIN_NULL; }
  /// This rank's segment.
  void* mine() const { return mine_; }
  /// Where `rank`'s segment starts, in this process.
  void* segment_of(int rank) const {
    MPI_Aint size = 0;
    int unit = 0;
    void* base = nullptr;
    MPI_Win_shared_query(win_, rank, &size, &unit, &base);
    return base;
  }
  /// Collective: every rank's stores before it are visible to all after it.
  void barrier(MPI_Comm comm) const {
    MPI_Win_sync(win_);
    MPI_Barrier(comm);
    MPI_Win_sync(win_);
  }

 private:
  void* mine_ = nullptr;
  MPI_Win win_ = MPI_WIN_NULL;
};

}  // namespace tseig::dense
