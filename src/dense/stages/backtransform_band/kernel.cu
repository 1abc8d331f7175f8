// Stage 4's CUDA kernels (cuda_kernel.hpp): the dispatch, and variant 0, the seed's
// design (variant 1 is column_kernel.cu). Per thread block: C columns, the window of
// the current reflector in shared memory as a ring of b rows (row r in slot r mod b), so
// moving up one row rewrites one slot. Per reflector two barriers: after the partial dot
// products are in shared memory, and after the update. The thread that updates the
// window's bottom row also writes it back and loads the row above the window into its
// slot, so no third barrier is needed.
#include <cuda_runtime.h>

#include <complex>
#include <string>

#include "dense/stages/backtransform_band/cuda_kernel.hpp"
#include "dense/stages/backtransform_band/device_scalar.cuh"
#include "tseig/error.hpp"

namespace tseig::dense {
namespace {

using namespace band_kernel;

// The sums over the warp of C per-lane values (C a power of two ≤ 32) in C − 1 + log2(32/C)
// shuffles instead of 5·C: each halving step trades half of the values with the lane h
// away, then the single value left is summed over the lanes that share its column.
// Returns the column whose sum ends in acc[0]; lanes with lane % (32/C) == 0 hold it.
template <class O, int C>
__device__ int warp_reduce_scatter(typename O::D (&acc)[C], int lane) {
  int c = 0, h = 16;
#pragma unroll
  for (int m = C; m > 1; m /= 2, h /= 2) {
    const bool upper = (lane & h) != 0;
#pragma unroll
    for (int i = 0; i < m / 2; ++i) {
      const typename O::D send = upper ? acc[i] : acc[i + m / 2];
      const typename O::D keep = upper ? acc[i + m / 2] : acc[i];
      acc[i] = O::add(keep, O::shfl_xor(send, h));
    }
    if (upper) c += m / 2;
  }
  for (; h > 0; h /= 2) acc[0] = O::add(acc[0], O::shfl_xor(acc[0], h));
  return c;
}

template <class T, int C>
__global__ void band_reflectors_kernel(Reflectors<typename Ops<T>::D> q, int s0, int s1, int j0,
                                       int j1, typename Ops<T>::D* X, int ldx, int row0,
                                       int ncols) {
  using O = Ops<T>;
  using D = typename O::D;
  extern __shared__ unsigned char shared_bytes[];
  const int b = q.b, n = q.n, nt = blockDim.x, tid = threadIdx.x;
  const int warps = nt / 32, lane = tid % 32, warp = tid / 32;
  D* win = reinterpret_cast<D*>(shared_bytes);      // row r, column c at win[(r % b)·C + c]
  D* part = win + static_cast<std::size_t>(b) * C;  // partial dots: [warp][C]
  const int c0 = blockIdx.x * C, nc = min(C, ncols - c0);
  D* Xb = X + static_cast<std::size_t>(c0) * ldx;
  auto x_at = [&](int r, int c) -> D& {
    return Xb[static_cast<std::size_t>(c) * ldx + (r - row0)];
  };
  // The thread that owns window position b − 1 also moves the window.
  const int mover = (b - 1) % nt;

  for (int j = j0; j < j1; ++j) {
    // Sweep s has a step j while s < n − 1 − j·b.
    const int s_end = min(s1, n - 1 - j * b);
    if (s_end <= s0) break;
    const int top = s_end + j * b;  // first row of reflector (s_end − 1, j)
    for (int t = tid; t < b; t += nt) {
      const int r = top + t;
      for (int c = 0; c < C; ++c) win[(r % b) * C + c] = (r < n && c < nc) ? x_at(r, c) : O::zero();
    }
    __syncthreads();
    for (int s = s_end - 1; s >= s0; --s) {
      const int r0 = s + 1 + j * b, len = min(b, n - r0);
      const std::size_t at = q.index(s, j);
      const D* v = q.v + at * static_cast<std::size_t>(b);
      D acc[C];
      for (int c = 0; c < C; ++c) acc[c] = O::zero();
      for (int t = tid; t < len; t += nt) {
        const D vt = v[t];
        const int slot = ((r0 + t) % b) * C;
        for (int c = 0; c < C; ++c) acc[c] = O::add(acc[c], O::conj_mul(vt, win[slot + c]));
      }
      const int c = warp_reduce_scatter<O, C>(acc, lane);
      if ((lane & (32 / C - 1)) == 0) part[warp * C + c] = acc[0];
      __syncthreads();
      // Every thread sums the warps' partials itself: no barrier for a broadcast.
      const D tau = q.tau[at];
      D f[C];
      for (int c = 0; c < C; ++c) {
        D dot = part[c];
        for (int w = 1; w < warps; ++w) dot = O::add(dot, part[w * C + c]);
        f[c] = O::mul(tau, dot);
      }
      for (int t = tid; t < len; t += nt) {
        const D vt = v[t];
        const int slot = ((r0 + t) % b) * C;
        for (int c = 0; c < C; ++c) win[slot + c] = O::sub(win[slot + c], O::mul(f[c], vt));
      }
      if (tid == mover && s > s0) {
        // Row r0 + b − 1 is done for this step; row r0 − 1 takes its slot.
        const int bottom = r0 + b - 1, slot = (bottom % b) * C;
        for (int c = 0; c < nc; ++c) {
          if (bottom < n) x_at(bottom, c) = win[slot + c];
          win[slot + c] = x_at(r0 - 1, c);
        }
      }
      __syncthreads();
    }
    // The window of the step's last reflector (s0, j) goes back whole.
    const int last = s0 + 1 + j * b;
    for (int t = tid; t < b; t += nt) {
      const int r = last + t;
      if (r < n)
        for (int c = 0; c < nc; ++c) x_at(r, c) = win[(r % b) * C + c];
    }
    __syncthreads();
  }
}

template <class T, int C>
void launch(cudaStream_t stream, const Reflectors<typename Ops<T>::D>& q, int s0, int s1, int j0,
            int j1, typename Ops<T>::D* X, int ldx, int row0, int ncols) {
  using D = typename Ops<T>::D;
  // One thread per window row, whole warps, at most 1024: wider windows loop.
  const int threads = std::min(1024, (q.b + 31) / 32 * 32);
  const std::size_t shared = (static_cast<std::size_t>(q.b) + threads / 32) * C * sizeof(D);
  auto kernel = band_reflectors_kernel<T, C>;
  if (shared > 48 * 1024) {
    cudaError_t e =
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared));
    if (e != cudaSuccess)
      throw Error(ErrorCode::unsupported, "band back-transform: a window of " +
                                              std::to_string(q.b) + " rows × " + std::to_string(C) +
                                              " columns needs " + std::to_string(shared) +
                                              " bytes of shared memory: " + cudaGetErrorString(e));
  }
  const int blocks = (ncols + C - 1) / C;
  kernel<<<blocks, threads, shared, stream>>>(q, s0, s1, j0, j1, X, ldx, row0, ncols);
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess)
    throw Error(ErrorCode::device_error,
                std::string("band back-transform kernel launch: ") + cudaGetErrorString(e));
}

}  // namespace

template <class T>
void apply_band_reflectors(cuda::Context& ctx, const DeviceBandReflectors<T>& dq, int s0, int s1,
                           int j0, int j1, T* X, int ldx, int row0, int ncols,
                           BandKernelShape shape) {
  if (ncols <= 0 || s1 <= s0 || j1 <= j0) return;
  using D = typename Ops<T>::D;
  const Reflectors<D> q{reinterpret_cast<const D*>(dq.v),
                        reinterpret_cast<const D*>(dq.tau),
                        dq.first,
                        dq.n,
                        dq.b,
                        dq.row_lo,
                        dq.row_hi};
  D* x = reinterpret_cast<D*>(X);
  cudaStream_t stream = ctx.stream;
  if (shape.variant == 1)
    return launch_by_column<T>(stream, q, s0, s1, j0, j1, x, ldx, row0, ncols, shape.columns);
  if (shape.variant != 0)
    throw Error(ErrorCode::invalid_argument,
                "gpu_band_kernel must be 0 (window per thread block) or 1 (column per thread), "
                "not " +
                    std::to_string(shape.variant));
  switch (shape.columns) {
    case 1:
      return launch<T, 1>(stream, q, s0, s1, j0, j1, x, ldx, row0, ncols);
    case 2:
      return launch<T, 2>(stream, q, s0, s1, j0, j1, x, ldx, row0, ncols);
    case 4:
      return launch<T, 4>(stream, q, s0, s1, j0, j1, x, ldx, row0, ncols);
    case 8:
      return launch<T, 8>(stream, q, s0, s1, j0, j1, x, ldx, row0, ncols);
    case 16:
      return launch<T, 16>(stream, q, s0, s1, j0, j1, x, ldx, row0, ncols);
    default:
      throw Error(ErrorCode::invalid_argument,
                  "gpu_band_columns must be 1, 2, 4, 8 or 16 for gpu_band_kernel 0, not " +
                      std::to_string(shape.columns));
  }
}

#define TSEIG_INSTANTIATE(T)                                                                    \
  template void apply_band_reflectors(cuda::Context&, const DeviceBandReflectors<T>&, int, int, \
                                      int, int, T*, int, int, int, BandKernelShape);
TSEIG_INSTANTIATE(float)
TSEIG_INSTANTIATE(double)
TSEIG_INSTANTIATE(std::complex<float>)
TSEIG_INSTANTIATE(std::complex<double>)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense
