#pragma once
// What stage 4's CUDA kernels share: device arithmetic per scalar type (std::complex
// maps to a plain pair: no NaN-recovery branches in the inner loops) and the reflector
// indexing of BandReflectors on the device.
#include <cuda_runtime.h>

#include <complex>
#include <cstddef>

namespace tseig::dense::band_kernel {

template <class R>
struct Complex {
  R re, im;
};

// Device arithmetic per scalar type: x·y, conj(x)·y, x − y and a warp-shuffle.
template <class T>
struct Ops {
  using D = T;
  __device__ static D zero() { return D(0); }
  __device__ static D mul(D a, D b) { return a * b; }
  __device__ static D conj_mul(D a, D b) { return a * b; }
  __device__ static D add(D a, D b) { return a + b; }
  __device__ static D sub(D a, D b) { return a - b; }
  __device__ static D shfl_xor(D a, int d) { return __shfl_xor_sync(0xffffffffu, a, d); }
};

template <class R>
struct Ops<std::complex<R>> {
  using D = Complex<R>;
  __device__ static D zero() { return {R(0), R(0)}; }
  __device__ static D mul(D a, D b) {
    return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
  }
  __device__ static D conj_mul(D a, D b) {
    return {a.re * b.re + a.im * b.im, a.re * b.im - a.im * b.re};
  }
  __device__ static D add(D a, D b) { return {a.re + b.re, a.im + b.im}; }
  __device__ static D sub(D a, D b) { return {a.re - b.re, a.im - b.im}; }
  __device__ static D shfl_xor(D a, int d) {
    return {__shfl_xor_sync(0xffffffffu, a.re, d), __shfl_xor_sync(0xffffffffu, a.im, d)};
  }
};

template <class D>
struct Reflectors {
  const D* v;
  const D* tau;
  const std::size_t* first;
  int n, b, row_lo, row_hi;
  // As BandReflectors: the first step of sweep s held here, and reflector (s, j)'s index.
  __device__ int j_begin(int s) const {
    const int steps = (n - 1 - s + b - 1) / b;
    const int j = (row_lo - s - 1 + b - 1) / b;
    return j < 0 ? 0 : (j > steps ? steps : j);
  }
  __device__ std::size_t index(int s, int j) const { return first[s] + (j - j_begin(s)); }
};

}  // namespace tseig::dense::band_kernel

namespace tseig::dense::band_kernel {

/// Variant 1 (column_kernel.cu), `columns` threads (and eigenvector columns) per block.
template <class T>
void launch_by_column(cudaStream_t stream, const Reflectors<typename Ops<T>::D>& q, int s0, int s1,
                      int j0, int j1, typename Ops<T>::D* X, int ldx, int row0, int ncols,
                      int columns);

}  // namespace tseig::dense::band_kernel
