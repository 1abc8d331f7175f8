// Uses an installed tseig: builds a grid over all ranks, fills a distributed matrix
// with known values and checks that gathering it returns exactly those values; then the
// sparse layer (exported symbols of a hidden-visibility library): a sparse Laplacian
// times a block vector, and the KPM count of all its eigenvalues.
#include <mpi.h>

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <vector>

#include "tseig/device.hpp"
#include "tseig/grid.hpp"
#include "tseig/matrix.hpp"
#include "tseig/sparse/generators.hpp"
#include "tseig/sparse/kernels.hpp"
#include "tseig/sparse/kpm.hpp"
#include "tseig/sparse/multivector.hpp"
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

    // 7-point Laplacian: row i of A·1 is 6 minus the number of neighbours of i, so 1ᵀA1
    // is the number of boundary faces; the KPM count of the whole spectrum is n = 120.
    auto L = tseig::sparse::laplacian_3d<double>(MPI_COMM_WORLD, 6, 5, 4);
    tseig::sparse::MultiVector<double> x(L.vector_layout(), 2), y(L.vector_layout(), 2);
    for (int i = 0; i < L.local_rows(); ++i) x(i, 0) = x(i, 1) = 1.0;
    tseig::sparse::spmmv(L, x, y);
    std::vector<double> sums = tseig::sparse::column_dots(x, y);
    const double faces = 2.0 * (5 * 4 + 6 * 4 + 6 * 5);
    if (std::abs(sums[0] - faces) > 1e-9 || std::abs(sums[1] - faces) > 1e-9) ++failures;
    auto m = tseig::sparse::kpm_moments(L);
    auto count = tseig::sparse::eigenvalue_count(m, m.bounds.lower, m.bounds.upper);
    if (std::abs(count.count - 120.0) > 1.0) ++failures;

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
