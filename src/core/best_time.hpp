#pragma once
// The time of an operation as tuners and benchmarks compare it: the best of repetitions
// (the least disturbed run), each the slowest rank's.
#include <mpi.h>

#include <algorithm>
#include <limits>

namespace tseig {

/// Best time of f() over at least `min_repetitions` runs that together fill `seconds`.
/// Collective over comm.
template <class F>
double best_time(MPI_Comm comm, double seconds, F&& f, int min_repetitions = 3) {
  double best = std::numeric_limits<double>::infinity(), spent = 0;
  for (int r = 0; r < min_repetitions || spent < seconds; ++r) {
    MPI_Barrier(comm);
    const double t0 = MPI_Wtime();
    f();
    double t = MPI_Wtime() - t0;
    MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, comm);
    best = std::min(best, t);
    spent += t;
  }
  return best;
}

}  // namespace tseig
