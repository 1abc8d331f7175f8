#pragma once
// Peak resident memory of a code region, per rank, from Linux's VmHWM (reset through
// /proc/self/clear_refs), so solvers are compared by what they allocate on top of
// their input.
#include <mpi.h>

#include <optional>

namespace tseig::bench {

class PeakMemory {
 public:
  /// Resets the high-water mark; records the resident size now.
  PeakMemory();
  /// Collective: the largest (peak − start) over the ranks of comm, in MiB; empty where
  /// /proc does not offer the numbers.
  std::optional<double> max_growth_mib(MPI_Comm comm) const;

 private:
  long start_kib_ = -1;
};

}  // namespace tseig::bench
