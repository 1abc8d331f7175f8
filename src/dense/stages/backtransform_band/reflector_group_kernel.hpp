#pragma once
// The inner kernel of the tridiagonal → band back-transform: a group of Householder
// reflectors from consecutive sweeps (each one row below the previous) applied to a
// stripe of columns in one pass over the data, as ELPA's "double_hh_trafo" and its
// wider blockings do: m reflectors per pass load and store each element once for 2m
// multiply-adds. A CUDA kernel with the same contract can sit beside it.
#include <cstddef>

#include "tseig/types.hpp"

namespace tseig::dense {

/// SIMD vector size of the kernel: 64 bytes where the build targets AVX-512 (32 vector
/// registers: a whole stripe row's accumulators fit, and each load feeds twice the
/// flops), 32 bytes elsewhere.
#if defined(__AVX512F__)
inline constexpr int band_kernel_vector_bytes = 64;
#else
inline constexpr int band_kernel_vector_bytes = 32;
#endif

/// Columns per stripe: 128 bytes per row, so one row of a stripe is a few SIMD vectors.
template <class T>
constexpr int stripe_width() {
  return static_cast<int>(128 / sizeof(T));
}

/// Most reflectors one call applies. Real: four (the accumulators of four reflectors
/// over half a stripe fill the 16 AVX2 registers, over a whole one half the 32 AVX-512
/// ones); complex: two with AVX2 (each complex dot product already takes two
/// accumulators), four with AVX-512.
template <class T>
constexpr int reflector_group_size() {
  return is_complex_v<T> ? (band_kernel_vector_bytes == 64 ? 4 : 2) : 4;
}

/// A stripe holds stripe_width<T>() columns row by row: element (i, c) at S[i·W + c].
/// Rows 0..len−1 of the stripe ← H_0·H_1···H_{m−1}·(those rows), H_k = I − tau[k]·v_k·v_kᴴ,
/// v_k at v + k·slot (len entries, zero where reflector k does not reach), and
/// s[k·G + l] = v_kᴴ·v_l for k < l (G = reflector_group_size<T>()). 1 ≤ m ≤ G; the
/// storage of all G reflectors is read, so unused ones must have tau = 0.
template <class T>
void apply_reflector_group(const T* v, std::size_t slot, const T* tau, const T* s, int m, int len,
                           T* S);

/// One group as its owner keeps it: reflector k at storage[v + k·slot], starting k rows
/// below the group's first row `row` (stripe rows), over a window of len rows.
template <class T>
struct ReflectorGroup {
  static constexpr int G = reflector_group_size<T>();
  int row = 0, len = 0, count = 0;
  T tau[G] = {}, s[G * G] = {};
  std::size_t v = 0;

  /// s from the count reflectors in storage (reflector l is zero above its row l).
  void set_products(const T* storage, std::size_t slot) {
    const T* p = storage + v;
    for (int k = 0; k < count; ++k)
      for (int l = k + 1; l < count; ++l) {
        T d = 0;
        for (int t = l; t < len; ++t) d += conj_if_complex(p[k * slot + t]) * p[l * slot + t];
        s[k * G + l] = d;
      }
  }
  /// apply_reflector_group on the stripe S (its row `row` at S).
  void apply(const T* storage, std::size_t slot, T* S) const {
    apply_reflector_group(storage + v, slot, tau, s, count, len, S);
  }
};

}  // namespace tseig::dense
