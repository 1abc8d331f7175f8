#include "stream_triad.hpp"

#include <algorithm>
#include <vector>

namespace tseig::bench {

double stream_triad_bandwidth(MPI_Comm comm, std::size_t elements, int repeats) {
  std::vector<double> a(elements, 0.0), b(elements, 1.0), c(elements, 2.0);
  const double s = 3.0;
  double best = 1e300;
  for (int r = 0; r < repeats; ++r) {
    MPI_Barrier(comm);
    const double t0 = MPI_Wtime();
    double* __restrict pa = a.data();
    const double* __restrict pb = b.data();
    const double* __restrict pc = c.data();
    for (std::size_t i = 0; i < elements; ++i) pa[i] = pb[i] + s * pc[i];
    double t = MPI_Wtime() - t0;
    MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, comm);
    best = std::min(best, t);
  }
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  // Keep the result observable so the loop is not optimized away.
  volatile double sink = a[elements / 2];
  (void)sink;
  return 24.0 * static_cast<double>(elements) * ranks / best;
}

}  // namespace tseig::bench
