// Uses an installed tseig: builds a grid over all ranks, fills a distributed matrix
// with known values and checks that gathering it returns exactly those values.
#include <mpi.h>

#include <cstddef>
#include <cstdio>
#include <vector>

#include "tseig/device.hpp"
#include "tseig/grid.hpp"
#include "tseig/matrix.hpp"
#include "tseig/version.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int failures = 0;
  {
    tseig::Grid grid(MPI_COMM_WORLD);
    int nprocs = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (grid.size() != nprocs) ++failures;

    const int n = 37, nb = 4;  // n not a multiple of nb: ragged last block
    tseig::DistMatrix<double> A(grid, n, n, nb);
    A.fill([](int i, int j) { return i + 1000.0 * j; });
    long local = static_cast<long>(A.local_rows()) * A.local_cols(), total = 0;
    MPI_Allreduce(&local, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (total != static_cast<long>(n) * n) ++failures;

    std::vector<double> full = A.gather(0);
    if (grid.rank() == 0) {
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i)
          if (full[i + static_cast<std::size_t>(j) * n] != i + 1000.0 * j) ++failures;
    }
    MPI_Allreduce(MPI_IN_PLACE, &failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (grid.rank() == 0) {
      std::printf("tseig %s on %dx%d grid: %s\n", TSEIG_VERSION_STRING, grid.nprow(), grid.npcol(),
                  failures == 0 ? "consumer OK" : "consumer FAILED");
      std::printf("gpu: %s\n", tseig::gpu::status().c_str());
    }
  }
  MPI_Finalize();
  return failures == 0 ? 0 : 1;
}
