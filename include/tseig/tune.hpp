#pragma once
// TuneParameters: every performance knob of tseig in one struct, with the defaults
// measured so far. They change speed, never results beyond rounding; the autotuner
// searches exactly this struct. Set them per solver through EigensolverOptions::tune;
// the dense ones (tune_fields) also by name through tseig_set_int (C, Fortran) or as
// tseig-solve --tune NAME=VALUE.
#include <climits>
#include <string_view>

#include "tseig/sparse/tune.hpp"

namespace tseig {

struct TuneParameters {
  /// two_stage: semi-bandwidth used when EigensolverOptions::bandwidth is 0, rounded up
  /// to a multiple of the block size. Wide enough for the stage-1 GEMMs, narrow enough
  /// for the memory-bound bulge chase (measured on N = 4000, see README).
  int bandwidth_target = 64;
  /// two_stage back-transform tridiagonal → band: sweeps applied together in one pass
  /// over the eigenvector columns (cache blocking; best of 128..512 at N = 2000).
  int band_sweeps_per_pass = 256;
  /// Householder back-transforms (one_stage, two_stage band → full): reflectors per
  /// compact-WY block, rounded down to whole blocks (at least one): both GEMMs efficient.
  int wy_width = 256;
  /// Householder back-transforms on a grid of one process row (each rank holds whole
  /// columns of Z): 1 applies the compact-WY blocks with GEMMs; 2 applies their
  /// reflectors four at a time with the stage-4 kernel, a 16-column stripe of Z at a time
  /// (in L2 for N of a few thousand); 0 picks 2 where that kernel's SIMD vectors are wider
  /// than the BLAS's (an AVX-512 build with OpenBLAS on AVX2 kernels), else 1. On grids of
  /// several process rows always 1. Measured at N = 4000, np = 2, all columns, stage 5:
  /// Zen 5 VM with OpenBLAS on Haswell kernels, real 1.97 → 1.2 s, complex 6.3 → 3.8 s;
  /// on the Xeon VM (OpenBLAS on AVX-512 kernels) the GEMMs ran at 89–99 % of dgemm and
  /// the kernel at 72–83 %.
  int householder_kernel = 0;
  /// hermitian_multiply (generalized problems): block rows of A per pass over C, rounded
  /// down to whole blocks (at least one): deeper GEMMs, fewer passes over C.
  int multiply_depth = 256;
  /// Divide & conquer: the smallest subproblem solved by LAPACK ?stedc on one rank; a
  /// matrix of order n is spread over at most n / dc_min_leaf ranks.
  int dc_min_leaf = 32;
  /// Divide & conquer merges: most roots of the secular equation solved by a rank in one
  /// block, and most secular-eigenvector columns applied in one GEMM panel.
  int dc_max_panel = 256;
  /// Divide & conquer: eigenvector columns per round when moved to the block-cyclic Z.
  int dc_chunk_cols = 512;
  /// GPU back-transform tridiagonal → band: the kernel. 0: the seed's design (a thread
  /// per row of the reflector's window, gpu_band_columns = 1, 2, 4, 8 or 16 columns per
  /// thread block); 1: a thread per column (gpu_band_columns = a multiple of 32 columns
  /// per thread block). Measured on an H200, N = 8192, b = 64, all columns, real: 0 with
  /// 4 columns 1.37 s, 0 with 8 1.68 s, 1 with 128 1.71 s, 1 with 64 1.85 s.
  int gpu_band_kernel = 0;
  /// Columns per thread block of the GPU band back-transform kernel (see gpu_band_kernel).
  int gpu_band_columns = 4;
  /// Work-array cache (tseig/memory.hpp): MiB kept on this process between solves, set
  /// when a solve starts; -1 leaves the process-wide limit as it is (TSEIG_CACHE_MB or a
  /// quarter of the physical memory).
  int cache_limit_mb = -1;
  /// The sparse layer's knobs (storage format, SELL-C-σ's C and σ, block width).
  sparse::SparseTuneParameters sparse;

  bool operator==(const TuneParameters&) const = default;
};

/// One knob by name: the name tseig_set_int, tseig-solve --tune and --json use.
struct TuneField {
  std::string_view name;
  int TuneParameters::*value;
  int min;            ///< smallest valid value
  int max = INT_MAX;  ///< largest valid value
};

/// Every knob of TuneParameters, in declaration order.
inline constexpr TuneField tune_fields[] = {
    {"bandwidth_target", &TuneParameters::bandwidth_target, 1},
    {"band_sweeps_per_pass", &TuneParameters::band_sweeps_per_pass, 1},
    {"wy_width", &TuneParameters::wy_width, 1},
    {"householder_kernel", &TuneParameters::householder_kernel, 0, 2},
    {"multiply_depth", &TuneParameters::multiply_depth, 1},
    {"dc_min_leaf", &TuneParameters::dc_min_leaf, 1},
    {"dc_max_panel", &TuneParameters::dc_max_panel, 1},
    {"dc_chunk_cols", &TuneParameters::dc_chunk_cols, 1},
    {"gpu_band_kernel", &TuneParameters::gpu_band_kernel, 0, 1},
    {"gpu_band_columns", &TuneParameters::gpu_band_columns, 1},
    {"cache_limit_mb", &TuneParameters::cache_limit_mb, -1},
};

/// The field called `name`, or nullptr.
constexpr const TuneField* find_tune_field(std::string_view name) {
  for (const TuneField& f : tune_fields)
    if (f.name == name) return &f;
  return nullptr;
}

}  // namespace tseig
