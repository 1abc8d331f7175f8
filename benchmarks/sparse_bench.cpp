// sparse_bench: GFlop/s and % of roofline of the sparse kernels for block widths 1 … 64,
// CRS vs SELL-C-σ vs a plain CRS loop, on the 3D Laplacian (real) and the
// topological-insulator Hamiltonian (complex). One JSON line per measurement.
// The roofline model is in sparse_bench_common.hpp; petsc_spmv_bench reports the same
// quantities for PETSc.
//
// Usage: sparse_bench [--lap N] [--lap-tile X,Y] [--ti N|X,Y,Z] [--widths 1,2,4,...]
//                     [--seconds S] [--stream M]
#include <mpi.h>

#include <complex>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "sparse/kernels/chebyshev_sum.hpp"
#include "sparse/matrix_data.hpp"
#include "sparse_bench_common.hpp"
#include "tseig/sparse/generators.hpp"
#include "tseig/sparse/kernels.hpp"
#include "tseig/sparse/kpm.hpp"

namespace {

using namespace tseig::sparse;
using namespace tseig::bench;

/// A plain CRS loop, Y ← A·X with a run-time width: what an unspecialised code does
/// (local rows only; the halo rows of X are left as they are).
template <class T>
void plain_spmmv(const CrsStorage<T>& a, const T* x, T* y, int nb) {
  for (int i = 0; i < a.rows(); ++i) {
    T* yi = y + static_cast<std::size_t>(i) * nb;
    for (int k = 0; k < nb; ++k) yi[k] = T(0);
    for (std::int64_t j = a.row_ptr[i]; j < a.row_ptr[i + 1]; ++j)
      for (int k = 0; k < nb; ++k)
        yi[k] += a.val[j] * x[static_cast<std::size_t>(a.col[j]) * nb + k];
  }
}

template <class T>
void measure(MPI_Comm comm, const char* name, const SparseBenchOptions& o,
             const MachineRates& rates, Matrix<T> (*make)(MPI_Comm, const SparseTuneParameters&)) {
  SparseTuneParameters sell;
  sell.format = SparseFormat::sell_c_sigma;
  for (const SparseTuneParameters& tune : {SparseTuneParameters{}, sell}) {
    const Matrix<T> a = make(comm, tune);
    const SpectralBounds bounds = spectral_bounds(a);
    const double center = (bounds.upper + bounds.lower) / 2,
                 half = (bounds.upper - bounds.lower) / 2;
    const char* format = tune.format == SparseFormat::crs ? "crs" : "sell-32-256";
    for (int nb : o.widths) {
      MultiVector<T> x(a.vector_layout(), nb), y(a.vector_layout(), nb), z(a.vector_layout(), nb);
      x.fill_random(1);
      y.fill_random(2);
      std::vector<T> d1(nb), d2(nb);
      // α = 0.5, γ = −0.5 keeps the iterates bounded over the repetitions.
      const double t_spmmv = best_time(comm, o.seconds, [&] { spmmv(a, x, z); });
      report_sparse(comm, shape_of(a), name, "spmmv", format, nb, t_spmmv, spmmv_traffic, rates);
      const double t_aug = best_time(comm, o.seconds, [&] {
        aug_spmmv(a, T(0.1), T(0), x, T(-0.5), y, std::span<T>(d1), std::span<T>(d2));
      });
      report_sparse(comm, shape_of(a), name, "aug_spmmv", format, nb, t_aug, aug_spmmv_traffic,
                    rates);
      const double t_cheb = best_time(comm, o.seconds, [&] {
        chebfd_op(a, T(0.05), T(0), x, y, T(1e-3), z, std::span<T>(d1), std::span<T>(d2));
      });
      report_sparse(comm, shape_of(a), name, "chebfd_op", format, nb, t_cheb, chebfd_op_traffic,
                    rates);
      // ChebFD's filter as it runs (detail::chebyshev_sum), per degree step; T_k of the
      // spectrum scaled into [−1, 1] stays bounded over the repetitions.
      constexpr int degree = 30;
      const std::vector<double> c(degree + 1, 1e-3);
      const double t_series =
          best_time(comm, o.seconds,
                    [&] {
                      detail::chebyshev_sum(a, std::span<const double>(c), center, half, x, y, z);
                    }) /
          degree;
      report_sparse(comm, shape_of(a), name, "chebfd_series", format, nb, t_series,
                    chebfd_series_traffic, rates);
      // The same with two blocks taking turns, each one's halo exchange travelling during
      // the other's sweep (detail::chebyshev_sums, ChebFD's pipeline_blocks = 2); per
      // degree step of one block.
      MultiVector<T> x2(a.vector_layout(), nb), y2(a.vector_layout(), nb),
          z2(a.vector_layout(), nb);
      x2.fill_random(3);
      const double t_turns =
          best_time(comm, o.seconds,
                    [&] {
                      std::vector<detail::ChebyshevSeries<T>> series;
                      series.reserve(2);
                      series.emplace_back(a, std::span<const double>(c), center, half, x, y, z);
                      series.emplace_back(a, std::span<const double>(c), center, half, x2, y2, z2);
                      detail::chebyshev_sums(std::span<detail::ChebyshevSeries<T>>(series));
                    }) /
          (2 * degree);
      report_sparse(comm, shape_of(a), name, "chebfd_series_turns", format, nb, t_turns,
                    chebfd_series_traffic, rates);
      if (tune.format == SparseFormat::crs) {
        const double t_plain =
            best_time(comm, o.seconds, [&] { plain_spmmv(a.data().crs, x.data(), y.data(), nb); });
        report_sparse(comm, shape_of(a), name, "plain_spmmv", "crs", nb, t_plain, spmmv_traffic,
                      rates);
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int status = 0;
  try {
    const SparseBenchOptions o = parse_sparse_bench_options(argc, argv);
    const MachineRates rates = measure_machine(MPI_COMM_WORLD, o);
    static Laplacian3d lap{.nx = o.lap, .ny = o.lap, .nz = o.lap};
    lap.tile_x = o.lap_tile[0];
    lap.tile_y = o.lap_tile[1];
    static std::array<std::int64_t, 3> ti = o.ti;
    measure<double>(
        MPI_COMM_WORLD, "laplacian_3d", o, rates,
        [](MPI_Comm c, const SparseTuneParameters& t) { return laplacian_3d<double>(c, lap, t); });
    measure<std::complex<double>>(MPI_COMM_WORLD, "topological_insulator", o, rates,
                                  [](MPI_Comm c, const SparseTuneParameters& t) {
                                    TopologicalInsulator model;
                                    model.nx = ti[0];
                                    model.ny = ti[1];
                                    model.nz = ti[2];
                                    return topological_insulator<std::complex<double>>(c, model, t);
                                  });
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sparse_bench: %s\n", e.what());
    status = 1;
  }
  MPI_Finalize();
  return status;
}
