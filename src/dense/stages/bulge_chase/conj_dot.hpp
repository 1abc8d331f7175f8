#pragma once
// Σ conj(a_i)·b_i over short, L1-resident vectors (the bulge chase's b-long columns) with
// SIMD lanes. Written with GCC vector extensions: without -ffast-math the compiler may not
// reorder a floating-point sum, so a plain loop stays scalar (one FMA latency per entry),
// and the SLP vectorizer is off in AVX-512 builds (cmake/tseigMiscompileCheck.cmake).
#include <complex>

#include "tseig/types.hpp"

namespace tseig::dense {

template <class T>
[[gnu::always_inline]] inline T conj_dot(const T* a, const T* b, int n) {
  using R = real_t<T>;
  constexpr int bytes = 32;
  constexpr int L = bytes / static_cast<int>(sizeof(R));  // real lanes per vector
  typedef R vec __attribute__((vector_size(bytes), aligned(alignof(R)), may_alias));
  const R* x = reinterpret_cast<const R*>(a);
  const R* y = reinterpret_cast<const R*>(b);
  constexpr int per = is_complex_v<T> ? 2 : 1;  // reals per entry
  const int m = n * per;
  // Two independent accumulators per sum hide the FMA latency.
  vec p0 = {}, p1 = {}, q0 = {}, q1 = {};
  int i = 0;
  auto load = [](const R* at) { return *reinterpret_cast<const vec*>(at); };
  for (; i + 2 * L <= m; i += 2 * L) {
    const vec x0 = load(x + i), x1 = load(x + i + L), y0 = load(y + i), y1 = load(y + i + L);
    p0 += x0 * y0;
    p1 += x1 * y1;
    if constexpr (is_complex_v<T>) {
      // (re, im) pairs: the imaginary part needs re(a)·im(b) − im(a)·re(b).
      if constexpr (L == 4) {
        q0 += x0 * __builtin_shufflevector(y0, y0, 1, 0, 3, 2);
        q1 += x1 * __builtin_shufflevector(y1, y1, 1, 0, 3, 2);
      } else {
        q0 += x0 * __builtin_shufflevector(y0, y0, 1, 0, 3, 2, 5, 4, 7, 6);
        q1 += x1 * __builtin_shufflevector(y1, y1, 1, 0, 3, 2, 5, 4, 7, 6);
      }
    }
  }
  p0 += p1;
  q0 += q1;
  R re = 0, im = 0;
  for (int k = 0; k < L; ++k) {
    re += p0[k];
    im += k % 2 == 0 ? q0[k] : -q0[k];
  }
  T sum;
  if constexpr (is_complex_v<T>)
    sum = T(re, im);
  else
    sum = re;
  for (int j = i / per; j < n; ++j) sum += conj_if_complex(a[j]) * b[j];
  return sum;
}

}  // namespace tseig::dense
