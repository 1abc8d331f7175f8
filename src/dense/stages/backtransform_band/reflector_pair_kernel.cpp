// Stripe layout (a row's columns contiguous) lets the vector lanes run over columns:
// every column's two dot products are plain per-lane accumulations, with no horizontal
// sums, and the update then touches each element once for both reflectors. Explicit
// 32-byte SIMD vectors (GCC vector extensions) keep the accumulators in registers.
#include "dense/stages/backtransform_band/reflector_pair_kernel.hpp"

#include <complex>
#include <type_traits>

#include "core/instantiate.hpp"
#include "tseig/types.hpp"

namespace tseig::dense {
namespace {

template <class R>
void apply_pair_real(const R* v1, R tau1, const R* v2, R tau2, R s12, int len, R* S) {
  // Unaligned SIMD vectors that may alias R.
  typedef R vec __attribute__((vector_size(32), aligned(alignof(R)), may_alias));
  constexpr int W = stripe_width<R>(), nv = W * static_cast<int>(sizeof(R)) / 32;
  vec a[nv] = {}, b[nv] = {};
  for (int i = 0; i < len; ++i) {
    const vec* x = reinterpret_cast<const vec*>(S + static_cast<std::ptrdiff_t>(i) * W);
    const R u = v1[i], v = v2[i];
    for (int q = 0; q < nv; ++q) {
      a[q] += u * x[q];
      b[q] += v * x[q];
    }
  }
  // H2 first: x −= f2·v2 with f2 = tau2·(v2ᴴx); then H1 sees v1ᴴx − f2·s12.
  vec f1[nv], f2[nv];
  for (int q = 0; q < nv; ++q) {
    f2[q] = tau2 * b[q];
    f1[q] = tau1 * (a[q] - s12 * f2[q]);
  }
  for (int i = 0; i < len; ++i) {
    vec* x = reinterpret_cast<vec*>(S + static_cast<std::ptrdiff_t>(i) * W);
    const R u = v1[i], v = v2[i];
    for (int q = 0; q < nv; ++q) x[q] -= f1[q] * u + f2[q] * v;
  }
}

// Swaps the lanes of every (re, im) pair. GCC's __builtin_shuffle takes the mask vector;
// clang (the fuzz preset) lacks it and needs constant indices.
template <class vec, class mask>
inline vec swap_pairs(vec x, mask swap) {
#if defined(__clang__)
  if constexpr (sizeof(x[0]) == 8)
    return __builtin_shufflevector(x, x, 1, 0, 3, 2);
  else
    return __builtin_shufflevector(x, x, 1, 0, 3, 2, 5, 4, 7, 6);
#else
  return __builtin_shuffle(x, swap);
#endif
}

// Complex: a vector holds interleaved (re, im) pairs. conj(u)·x = ur·x + ui·(swap(x)⊙(1,−1))
// and f·u = ur·f + ui·(swap(f)⊙(−1,1)), so a pair costs two FMAs and one shuffle per vector.
template <class R>
void apply_pair_complex(const std::complex<R>* v1, std::complex<R> tau1, const std::complex<R>* v2,
                        std::complex<R> tau2, std::complex<R> s12, int len, std::complex<R>* S) {
  using C = std::complex<R>;
  typedef R vec __attribute__((vector_size(32), aligned(alignof(R)), may_alias));
  using I = std::conditional_t<sizeof(R) == 8, long long, int>;
  typedef I mask __attribute__((vector_size(32)));
  constexpr int lanes = 32 / static_cast<int>(sizeof(R));
  constexpr int W = stripe_width<C>(), nv = 2 * W / lanes;
  mask swap{};
  vec odd_negative{}, even_negative{};
  for (int l = 0; l < lanes; ++l) {
    swap[l] = l ^ 1;
    odd_negative[l] = l % 2 ? R(-1) : R(1);
    even_negative[l] = -odd_negative[l];
  }
  vec ar[nv] = {}, ai[nv] = {}, br[nv] = {}, bi[nv] = {};
  for (int i = 0; i < len; ++i) {
    const vec* x = reinterpret_cast<const vec*>(S + static_cast<std::ptrdiff_t>(i) * W);
    const R ur = v1[i].real(), ui = v1[i].imag(), wr = v2[i].real(), wi = v2[i].imag();
    for (int q = 0; q < nv; ++q) {
      const vec xs = swap_pairs(x[q], swap);
      ar[q] += ur * x[q];
      ai[q] += ui * xs;
      br[q] += wr * x[q];
      bi[q] += wi * xs;
    }
  }
  // Per column: f2 = tau2·(v2ᴴx), f1 = tau1·(v1ᴴx − f2·s12), in scalar complex arithmetic.
  C a[W], b[W], f1[W], f2[W];
  for (int q = 0; q < nv; ++q) {
    const vec av = ar[q] + ai[q] * odd_negative, bv = br[q] + bi[q] * odd_negative;
    for (int l = 0; l < lanes; l += 2) {
      a[q * lanes / 2 + l / 2] = C(av[l], av[l + 1]);
      b[q * lanes / 2 + l / 2] = C(bv[l], bv[l + 1]);
    }
  }
  for (int c = 0; c < W; ++c) {
    f2[c] = tau2 * b[c];
    f1[c] = tau1 * (a[c] - f2[c] * s12);
  }
  vec F1[nv], G1[nv], F2[nv], G2[nv];
  for (int q = 0; q < nv; ++q) {
    for (int l = 0; l < lanes; l += 2) {
      const C g = f1[q * lanes / 2 + l / 2], h = f2[q * lanes / 2 + l / 2];
      F1[q][l] = g.real();
      F1[q][l + 1] = g.imag();
      F2[q][l] = h.real();
      F2[q][l + 1] = h.imag();
    }
    G1[q] = swap_pairs(F1[q], swap) * even_negative;
    G2[q] = swap_pairs(F2[q], swap) * even_negative;
  }
  for (int i = 0; i < len; ++i) {
    vec* x = reinterpret_cast<vec*>(S + static_cast<std::ptrdiff_t>(i) * W);
    const R ur = v1[i].real(), ui = v1[i].imag(), wr = v2[i].real(), wi = v2[i].imag();
    for (int q = 0; q < nv; ++q) x[q] -= ur * F1[q] + ui * G1[q] + wr * F2[q] + wi * G2[q];
  }
}

}  // namespace

template <class T>
void apply_reflector_pair(const T* v1, T tau1, const T* v2, T tau2, T s12, int len, T* S) {
  if constexpr (is_complex_v<T>)
    apply_pair_complex(v1, tau1, v2, tau2, s12, len, S);
  else
    apply_pair_real(v1, tau1, v2, tau2, s12, len, S);
}

#define TSEIG_INSTANTIATE(T) \
  template void apply_reflector_pair(const T*, T, const T*, T, T, int, T*);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense
