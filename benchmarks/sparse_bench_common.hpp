#pragma once
// What sparse_bench and its PETSc peer share: options, timing, the roofline model and
// the JSON line of one measurement, so both report the same quantities.
//
// Roofline = STREAM triad (measured in the run, all ranks) / minimum code balance, with
// the minimum traffic: matrix once (value + 4-byte index per entry) and each block row
// once per access (aug_spmmv: read X, read Y, write Y; chebfd_op: U, W twice, X twice;
// spmmv: X, Y; chebfd_series, a step of ChebFD's filter: U, W twice, and the sum twice
// every third step). Flops per entry and vector: 2 (real), 8 (complex); per row and vector
// beyond that: aug_spmmv 9 / 34, chebfd_op 11 / 42 (real / complex; complex as in the
// KPM and ChebFD papers: complex double TI B(R) = (260/R + 48)/138 byte/flop).
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/best_time.hpp"
#include "tseig/sparse/matrix.hpp"
#include "tseig/types.hpp"

namespace tseig::bench {

struct SparseBenchOptions {
  std::int64_t lap = 100;
  std::array<std::int64_t, 2> lap_tile{0, 0};  // --lap-tile X,Y (0: the whole axis)
  std::array<std::int64_t, 3> ti{64, 64, 64};  // --ti N (a cube) or X,Y,Z
  std::vector<int> widths{1, 2, 4, 8, 16, 32, 64};
  double seconds = 0.5;             // minimum time per measurement
  std::size_t stream = 20'000'000;  // triad elements per rank
};

/// --lap N --lap-tile X,Y --ti N|X,Y,Z --widths 1,2,4,... --seconds S --stream M
SparseBenchOptions parse_sparse_bench_options(int argc, char** argv);

using tseig::best_time;

struct Traffic {
  double vector_accesses;         // block rows moved per row and vector
  int extra_real, extra_complex;  // flops per row and vector beyond the products
};
inline constexpr Traffic spmmv_traffic{2, 0, 0}, aug_spmmv_traffic{3, 9, 34},
    chebfd_op_traffic{5, 11, 42}, chebfd_series_traffic{3 + 2.0 / 3, 11, 42};

struct SparseShape {
  std::int64_t rows = 0, nonzeros = 0;
  bool complex = false;
  int scalar_bytes = 8;
};

/// The machine's ceilings, measured once per run on all ranks together.
struct MachineRates {
  double stream_bytes_per_s = 0;  // STREAM triad
  double dgemm_flops_per_s = 0;   // compute peak stand-in
};
MachineRates measure_machine(MPI_Comm comm, const SparseBenchOptions& o);

/// Prints (rank 0) one JSON line: GFlop/s, % of the memory roofline (the issue's
/// measure) and % of the attainable rate min(memory roofline, dgemm rate).
void report_sparse(MPI_Comm comm, const SparseShape& shape, const char* matrix, const char* kernel,
                   const char* format, int nb, double seconds, Traffic traffic,
                   const MachineRates& rates);

template <class T>
SparseShape shape_of(const sparse::Matrix<T>& a) {
  return {a.rows(), a.nonzeros(), tseig::is_complex_v<T>, static_cast<int>(sizeof(T))};
}

/// This rank's rows of `a` in CSR with global column indices (a stored in CRS).
template <class T>
void global_csr(const sparse::Matrix<T>& a, std::vector<std::int64_t>& row_ptr,
                std::vector<std::int64_t>& cols, std::vector<T>& values);

}  // namespace tseig::bench
