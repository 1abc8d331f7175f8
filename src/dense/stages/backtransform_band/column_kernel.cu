// Stage 4's kernel variant 1: one thread per eigenvector column. Each thread keeps the
// b-row window of its column as a ring in shared memory (row r in slot r mod b, the
// columns of a block interleaved so a warp's accesses fall in distinct banks) and applies
// the reflectors one after the other by itself: the dot product is a loop, not a
// reduction across threads. The block stages a batch of reflectors in shared memory
// (read by every thread as a broadcast), one barrier pair per batch.
#include <cuda_runtime.h>

#include <algorithm>
#include <complex>
#include <string>

#include "dense/stages/backtransform_band/device_scalar.cuh"
#include "tseig/error.hpp"

namespace tseig::dense::band_kernel {
namespace {

// Reflectors per batch: the barrier cost spread over 16 reflectors of 2b multiply-adds
// each, at b·16 entries of shared memory.
constexpr int batch = 16;

template <class T>
__global__ void by_column_kernel(Reflectors<typename Ops<T>::D> q, int s0, int s1, int j0, int j1,
                                 typename Ops<T>::D* X, int ldx, int row0, int ncols) {
  using O = Ops<T>;
  using D = typename O::D;
  extern __shared__ unsigned char shared_bytes[];
  const int b = q.b, n = q.n, nt = blockDim.x, tid = threadIdx.x;
  D* ring = reinterpret_cast<D*>(shared_bytes);     // row r of my column: ring[(r % b)·nt + tid]
  D* vs = ring + static_cast<std::size_t>(b) * nt;  // the batch's reflectors, b entries each
  D* taus = vs + static_cast<std::size_t>(batch) * b;
  const int c = blockIdx.x * nt + tid;
  const bool active = c < ncols;
  // x[r] = X(r, c) for global row r.
  D* x = X + static_cast<std::size_t>(active ? c : 0) * ldx - row0;
  D* mine = ring + tid;

  for (int j = j0; j < j1; ++j) {
    const int s_end = min(s1, n - 1 - j * b);  // sweep s has a step j while s < n − 1 − j·b
    if (s_end <= s0) break;
    if (active) {
      const int top = s_end + j * b;
      for (int t = 0, slot = top % b; t < b; ++t, slot = slot + 1 == b ? 0 : slot + 1)
        mine[slot * nt] = top + t < n ? x[top + t] : O::zero();
    }
    for (int sb = s_end - 1; sb >= s0; sb -= batch) {
      const int count = min(batch, sb - s0 + 1);
      __syncthreads();  // the previous batch is applied by every thread
      for (int at = tid; at < count * b; at += nt) {
        const int i = at / b, t = at % b, s = sb - i, r0 = s + 1 + j * b;
        vs[at] = t < min(b, n - r0) ? q.v[q.index(s, j) * b + t] : O::zero();
      }
      for (int i = tid; i < count; i += nt) taus[i] = q.tau[q.index(sb - i, j)];
      __syncthreads();
      if (!active) continue;
      for (int i = 0; i < count; ++i) {
        const int s = sb - i, r0 = s + 1 + j * b, len = min(b, n - r0);
        const D* v = vs + i * b;
        // The row above the window, needed after this reflector: its load overlaps the work.
        const D above = s > s0 ? x[r0 - 1] : O::zero();
        const int slot0 = r0 % b;
        D dot = O::zero();
        for (int t = 0, slot = slot0; t < len; ++t, slot = slot + 1 == b ? 0 : slot + 1)
          dot = O::add(dot, O::conj_mul(v[t], mine[slot * nt]));
        const D f = O::mul(taus[i], dot);
        for (int t = 0, slot = slot0; t < len; ++t, slot = slot + 1 == b ? 0 : slot + 1)
          mine[slot * nt] = O::sub(mine[slot * nt], O::mul(f, v[t]));
        if (s > s0) {
          // Row r0 + b − 1 is done for this step; row r0 − 1 takes its slot.
          const int bottom = r0 + b - 1, slot = slot0 == 0 ? b - 1 : slot0 - 1;
          if (bottom < n) x[bottom] = mine[slot * nt];
          mine[slot * nt] = above;
        }
      }
    }
    // The window of the step's last reflector (s0, j) goes back whole.
    if (active) {
      const int last = s0 + 1 + j * b;
      for (int t = 0, slot = last % b; t < b && last + t < n;
           ++t, slot = slot + 1 == b ? 0 : slot + 1)
        x[last + t] = mine[slot * nt];
    }
  }
}

}  // namespace

template <class T>
void launch_by_column(cudaStream_t stream, const Reflectors<typename Ops<T>::D>& q, int s0, int s1,
                      int j0, int j1, typename Ops<T>::D* X, int ldx, int row0, int ncols,
                      int columns) {
  using D = typename Ops<T>::D;
  if (columns < 32 || columns > 1024 || columns % 32 != 0)
    throw Error(ErrorCode::invalid_argument,
                "gpu_band_columns must be a multiple of 32 up to 1024 for gpu_band_kernel 1, not " +
                    std::to_string(columns));
  auto kernel = by_column_kernel<T>;
  int device = 0, limit = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
  // Fewer columns per block when a wide band's rings would not fit.
  auto bytes = [&](int nt) {
    return (static_cast<std::size_t>(q.b) * nt + static_cast<std::size_t>(batch) * (q.b + 1)) *
           sizeof(D);
  };
  int nt = columns;
  while (nt > 32 && bytes(nt) > static_cast<std::size_t>(limit)) nt -= 32;
  if (bytes(nt) > static_cast<std::size_t>(limit))
    throw Error(ErrorCode::unsupported, "band back-transform (gpu_band_kernel 1): a band of " +
                                            std::to_string(q.b) + " needs " +
                                            std::to_string(bytes(nt)) +
                                            " bytes of shared memory, the device "
                                            "allows " +
                                            std::to_string(limit) + "; use gpu_band_kernel 0");
  const std::size_t shared = bytes(nt);
  if (shared > 48 * 1024) {
    const cudaError_t e =
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared));
    if (e != cudaSuccess)
      throw Error(
          ErrorCode::device_error,
          std::string("band back-transform: shared memory opt-in: ") + cudaGetErrorString(e));
  }
  kernel<<<(ncols + nt - 1) / nt, nt, shared, stream>>>(q, s0, s1, j0, j1, X, ldx, row0, ncols);
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess)
    throw Error(ErrorCode::device_error,
                std::string("band back-transform kernel launch: ") + cudaGetErrorString(e));
}

#define TSEIG_INSTANTIATE(T)                                                                       \
  template void launch_by_column<T>(cudaStream_t, const Reflectors<typename Ops<T>::D>&, int, int, \
                                    int, int, typename Ops<T>::D*, int, int, int, int);
TSEIG_INSTANTIATE(float)
TSEIG_INSTANTIATE(double)
TSEIG_INSTANTIATE(std::complex<float>)
TSEIG_INSTANTIATE(std::complex<double>)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense::band_kernel
