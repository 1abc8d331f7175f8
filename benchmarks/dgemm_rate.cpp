// Local dgemm rate. Operands are filled with non-zero data so no BLAS shortcut applies.
#include "dgemm_rate.hpp"

#include <algorithm>
#include <vector>

#include "core/blas/host.hpp"

extern "C" int openblas_get_num_threads(void);

namespace tseig::bench {

int blas_threads() {
  return openblas_get_num_threads();
}

DgemmRate measure_dgemm(MPI_Comm comm, int n) {
  const long size = static_cast<long>(n) * n;
  std::vector<double> a(size), b(size), c(size, 0.0);
  for (long i = 0; i < size; ++i) {
    a[i] = 1.0 + static_cast<double>(i % 7) * 0.125;
    b[i] = 1.0 - static_cast<double>(i % 5) * 0.0625;
  }
  blas::gemm('N', 'N', n, n, n, 1.0, a.data(), n, b.data(), n, 0.0, c.data(), n);
  // Best of three, all ranks in step: one timing read half the rate of two ranks on the
  // Zen 5 VM (51 GFlop/s in all where one rank alone ran at 52).
  double rate = 0;
  for (int rep = 0; rep < 3; ++rep) {
    MPI_Barrier(comm);
    const double start = MPI_Wtime();
    blas::gemm('N', 'N', n, n, n, 1.0, a.data(), n, b.data(), n, 0.0, c.data(), n);
    rate = std::max(rate, 2.0 * n * n * static_cast<double>(n) / (MPI_Wtime() - start) * 1e-9);
  }

  DgemmRate d;
  d.n = n;
  MPI_Comm_size(comm, &d.np);
  d.blas_threads = blas_threads();
  MPI_Allreduce(&rate, &d.gflops_min_rank, 1, MPI_DOUBLE, MPI_MIN, comm);
  MPI_Allreduce(&rate, &d.gflops_total, 1, MPI_DOUBLE, MPI_SUM, comm);
  return d;
}

}  // namespace tseig::bench
