#pragma once
// A block row (NB entries of T, NB a power of two ≤ 64) held as SIMD registers of real
// lanes, written with the GCC/Clang vector extensions. The kernels vectorize across the
// block width by construction instead of relying on the auto-vectorizer: with a fixed
// width g++ unrolls the width loops completely and only SLP vectorization could then
// use SIMD, which the AVX-512 miscompile workaround turns off. Complex entries are
// interleaved (re, im) lane pairs.
#include <immintrin.h>
#include <algorithm>
#include <array>
#include <type_traits>
#include <utility>

#include "tseig/types.hpp"

namespace tseig::sparse {

#if defined(__AVX512F__)
inline constexpr int simd_bytes = 64, simd_registers = 32;
#elif defined(__AVX__)
inline constexpr int simd_bytes = 32, simd_registers = 16;
#else
inline constexpr int simd_bytes = 16, simd_registers = 16;
#endif

template <class R, int Bytes>
struct VectorType;
template <int Bytes>
struct VectorType<double, Bytes> {
  typedef double type __attribute__((vector_size(Bytes)));
};
template <int Bytes>
struct VectorType<float, Bytes> {
  typedef float type __attribute__((vector_size(Bytes)));
};

template <class T, int NB>
struct Lanes {
  static_assert(NB > 0 && (NB & (NB - 1)) == 0, "block width must be a power of two");
  using R = real_t<T>;
  static constexpr bool complex = is_complex_v<T>;
  static constexpr int reals = NB * (complex ? 2 : 1);
  static constexpr int bytes = std::min<int>(simd_bytes, reals* static_cast<int>(sizeof(R)));
  static constexpr int lanes = bytes / static_cast<int>(sizeof(R));  // per register
  static constexpr int count = reals / lanes;                        // registers per row
  // One lane is a plain scalar: g++ moves one-element vectors through memory.
  using V = std::conditional_t<lanes == 1, R, typename VectorType<R, bytes>::type>;
  using Row = std::array<V, count>;
  /// A register's worth of T in memory at any alignment, allowed to alias the T array
  /// (loads and stores without memcpy temporaries).
  struct __attribute__((packed, may_alias)) U {
    V v;
  };

  static Row load(const T* p) {
    const auto* u = reinterpret_cast<const U*>(p);
    Row r;
    for (int q = 0; q < count; ++q) r[q] = u[q].v;
    return r;
  }
  static void store(T* p, const Row& r) {
    auto* u = reinterpret_cast<U*>(p);
    for (int q = 0; q < count; ++q) u[q].v = r[q];
  }

  /// store() past the caches (non-temporal): p must be aligned to a whole register, and
  /// the caller keeps the stores to whole cache lines (a partial line written this way is
  /// flushed to memory alone). Plain stores where the target has no such store.
  static void stream(T* p, const Row& r) {
#if defined(__AVX512F__) || defined(__AVX__)
    if constexpr (bytes == simd_bytes && lanes > 1) {
      for (int q = 0; q < count; ++q) {
        R* d = reinterpret_cast<R*>(p) + q * lanes;
        if constexpr (bytes == 64 && sizeof(R) == 8)
          _mm512_stream_pd(d, reinterpret_cast<const __m512d&>(r[q]));
        else if constexpr (bytes == 64)
          _mm512_stream_ps(d, reinterpret_cast<const __m512&>(r[q]));
        else if constexpr (sizeof(R) == 8)
          _mm256_stream_pd(d, reinterpret_cast<const __m256d&>(r[q]));
        else
          _mm256_stream_ps(d, reinterpret_cast<const __m256&>(r[q]));
      }
      return;
    }
#endif
    store(p, r);
  }

  /// (re, im) → (im, re) in every lane pair.
  static V swap_pairs(V v) {
    return swap_pairs(v, std::make_index_sequence<lanes>{});
  }
  /// (−1, +1, −1, +1, …): i·z = swap_pairs(z)·alternating_sign for z = (re, im).
  static V alternating_sign() {
    return alternating_sign(std::make_index_sequence<lanes>{});
  }

  /// acc += s·x for a real scalar s.
  static void add_scaled(Row& acc, R s, const Row& x) {
    for (int q = 0; q < count; ++q) acc[q] += s * x[q];
  }
  static Row plus(Row a, const Row& b) {
    for (int q = 0; q < count; ++q) a[q] += b[q];
    return a;
  }
  static Row minus(Row a, const Row& b) {
    for (int q = 0; q < count; ++q) a[q] -= b[q];
    return a;
  }
  /// s·x for a scalar s: real (one multiply per lane) or complex (adds a lane swap).
  template <class S>
  static Row scale(S s, const Row& x) {
    Row r;
    if constexpr (is_complex_v<S>) {
      const V sign = alternating_sign();
      for (int q = 0; q < count; ++q) r[q] = s.real() * x[q] + s.imag() * (swap_pairs(x[q]) * sign);
    } else {
      for (int q = 0; q < count; ++q) r[q] = s * x[q];
    }
    return r;
  }
  /// Σ_j a_j·x_j from the sums re = Σ Re(a_j)·x_j and im = Σ Im(a_j)·x_j (complex only).
  static Row combine(const Row& re, const Row& im) {
    const V sign = alternating_sign();
    Row r;
    for (int q = 0; q < count; ++q) r[q] = re[q] + swap_pairs(im[q]) * sign;
    return r;
  }

 private:
  template <std::size_t... I>
  static V swap_pairs(V v, std::index_sequence<I...>) {
    return __builtin_shufflevector(v, v, static_cast<int>(I ^ 1)...);
  }
  template <std::size_t... I>
  static V alternating_sign(std::index_sequence<I...>) {
    return V{(I % 2 ? R(1) : R(-1))...};
  }
};

/// Width of the part of a block row that a sweep accumulates at a time: the widest
/// power of two ≤ NB whose partial sums (re and im apart for complex) take at most half
/// the SIMD registers. A wider row would spill its sums to the stack on every entry
/// (complex double at 16 columns needs 16 AVX2 registers for them alone), so a wide row
/// is summed part by part while its entries stay in L1, each part loading the entries
/// again: with AVX-512's 32 registers, parts of 32 complex columns instead of 16 ran the
/// TI at nb = 64 8–11 % faster from memory and 14 % in L2 (Xeon VM, one core).
template <class T, int NB>
constexpr int row_part_width() {
  constexpr int lanes = simd_bytes / static_cast<int>(sizeof(real_t<T>));
  constexpr int widest = simd_registers / 2 * lanes / (is_complex_v<T> ? 4 : 1);
  return std::max(1, std::min(NB, widest));
}

/// Per-column Σ conj(a)·b over the rows of a sweep, kept in lanes until the end.
/// Imaginary = false skips the imaginary parts (a = b, where they vanish).
template <class T, int NB, bool Imaginary = true>
struct ColumnDots {
  using L = Lanes<T, NB>;
  typename L::Row real{}, imag{};

  void add(const typename L::Row& a, const typename L::Row& b) {
    for (int q = 0; q < L::count; ++q) real[q] += a[q] * b[q];
    if constexpr (L::complex && Imaginary)
      for (int q = 0; q < L::count; ++q) imag[q] += a[q] * L::swap_pairs(b[q]);
  }
  /// Adds the NB column sums to out[0 … NB).
  void add_to(T* out) const {
    for (int k = 0; k < NB; ++k) {
      if constexpr (L::complex) {
        // Lane pair k: real (a_r b_r, a_i b_i), imag (a_r b_i, a_i b_r).
        const int q = 2 * k / L::lanes, l = 2 * k % L::lanes;
        const real_t<T> re = real[q][l] + real[q][l + 1];
        const real_t<T> im = Imaginary ? imag[q][l] - imag[q][l + 1] : 0;
        out[k] += T(re, im);
      } else if constexpr (L::lanes == 1) {
        out[k] += real[k];
      } else {
        out[k] += real[k / L::lanes][k % L::lanes];
      }
    }
  }
};

}  // namespace tseig::sparse
