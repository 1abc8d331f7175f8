#pragma once
// The inner kernel of the tridiagonal → band back-transform: two Householder reflectors
// applied to a stripe of columns in one pass over the data (ELPA's "double_hh_trafo"),
// which doubles the arithmetic intensity over one reflector at a time. A CUDA kernel
// with the same contract can sit beside it.
#include <cstddef>

namespace tseig::dense {

/// Columns per stripe: 128 bytes per row, so one row of a stripe is a few SIMD vectors.
template <class T>
constexpr int stripe_width() {
  return static_cast<int>(128 / sizeof(T));
}

/// A stripe holds stripe_width<T>() columns row by row: element (i, c) at S[i·W + c].
/// Rows 0..len−1 of the stripe ← H1·H2·(those rows), Hk = I − tauk·vk·vkᴴ (vk: len
/// entries, zero-padded as needed), s12 = v1ᴴ·v2. tau2 = 0 applies H1 alone.
template <class T>
void apply_reflector_pair(const T* v1, T tau1, const T* v2, T tau2, T s12, int len, T* S);

}  // namespace tseig::dense
