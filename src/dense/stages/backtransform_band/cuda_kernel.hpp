#pragma once
// The CUDA kernels of stage 4. Along a step j the reflectors of consecutive sweeps start
// one row apart, so the window of rows a column needs moves up one row per reflector:
// the bottom row, finished for this step, is written back and the next row loaded on
// top. Variant 0 is the seed GPU-ELPA2 design (one thread block per group of columns,
// one thread per row of the b-row window, vᴴx reduced in shared memory); variant 1 gives
// each thread one column. kernel.cu and column_kernel.cu define them; device/none/ hooks
// throw Error(unsupported) without CUDA.
#include <cstddef>

#include "core/blas/cuda.hpp"

namespace tseig::dense {

/// BandReflectors' arrays (v, tau, first_) copied to device memory, with the scalars
/// that index them (see BandReflectors).
template <class T>
struct DeviceBandReflectors {
  const T* v = nullptr;
  const T* tau = nullptr;
  const std::size_t* first = nullptr;
  int n = 0, b = 1, row_lo = 0, row_hi = 0;
};

/// Which kernel and its shape (TuneParameters::gpu_band_kernel, gpu_band_columns).
/// variant 0: the seed's design, `columns` (1, 2, 4, 8 or 16) eigenvector columns per
/// thread block sharing each load of a reflector. variant 1: one thread per column,
/// `columns` (a multiple of 32) per thread block, batches of reflectors staged in shared
/// memory; no reductions across threads and one barrier per batch.
struct BandKernelShape {
  int variant = 0, columns = 4;
};

/// Queues on ctx's stream: X ← (reflectors (s, j), s ∈ [s0, s1), j ∈ [j0, j1)) · X in
/// the order of the host stage (j ascending, inside a step s descending). X holds rows
/// [row0, row0 + ldx) of the eigenvector matrix (column-major, device memory, ncols
/// columns), every row those reflectors touch.
template <class T>
void apply_band_reflectors(cuda::Context& ctx, const DeviceBandReflectors<T>& q, int s0, int s1,
                           int j0, int j1, T* X, int ldx, int row0, int ncols,
                           BandKernelShape shape);

}  // namespace tseig::dense
