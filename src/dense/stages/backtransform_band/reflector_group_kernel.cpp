// Stripe layout (a row's columns contiguous) lets the vector lanes run over columns:
// every column's dot products are plain per-lane accumulations, with no horizontal sums,
// and the update then touches each element once for all reflectors of the group.
// Explicit SIMD vectors (GCC vector extensions; 64 bytes with AVX-512, else 32) keep
// the accumulators in registers.
#include "dense/stages/backtransform_band/reflector_group_kernel.hpp"

#include <complex>
#include <cstring>
#include <type_traits>

#include "core/instantiate.hpp"
#include "tseig/types.hpp"

namespace tseig::dense {
namespace {

constexpr int VB = band_kernel_vector_bytes;

// An empty asm that claims to change v: the compiler must keep v in a vector register
// and cannot fold its load into each later use as a memory operand. Only where the
// vector fits one register (AVX, AVX-512): an SSE-only build splits a 32-byte vector in
// two, and the asm constraint would be impossible there.
template <class vec>
inline void keep_in_register(vec& v) {
#if (defined(__x86_64__) || defined(__i386__)) && defined(__AVX512F__)
  static_assert(sizeof(vec) == 64);
  asm("" : "+v"(v));
#elif (defined(__x86_64__) || defined(__i386__)) && defined(__AVX__)
  static_assert(sizeof(vec) == 32);
  asm("" : "+x"(v));
#endif
}

// M reflectors over chunks of NV vectors of a stripe row: M·NV accumulators, which
// must stay in the vector registers.
template <class R, int M, int NV>
void apply_group_real(const R* v, std::size_t slot, const R* tau, const R* s, int len, R* S) {
  // Unaligned SIMD vectors that may alias R.
  typedef R vec __attribute__((vector_size(VB), aligned(alignof(R)), may_alias));
  constexpr int W = stripe_width<R>(), lanes = VB / static_cast<int>(sizeof(R));
  constexpr int G = reflector_group_size<R>();
  static_assert(W % (NV * lanes) == 0);
  for (int c = 0; c < W; c += NV * lanes) {
    R* Sc = S + c;
    vec a[M][NV] = {};
    for (int i = 0; i < len; ++i) {
      const vec* xp = reinterpret_cast<const vec*>(Sc + static_cast<std::ptrdiff_t>(i) * W);
      // Each vector of the row feeds M FMAs: held in a register, or GCC folds it into
      // every FMA as a memory operand, and the loads, not the FMAs, then bound the loop.
      vec x[NV];
      for (int q = 0; q < NV; ++q) {
        x[q] = xp[q];
        keep_in_register(x[q]);
      }
      for (int k = 0; k < M; ++k) {
        const R u = v[k * slot + i];
        for (int q = 0; q < NV; ++q) a[k][q] += u * x[q];
      }
    }
    // The last reflector acts first: f_k = tau_k·(v_kᵀx − Σ_{l>k} s_kl·f_l).
    vec f[M][NV];
    for (int k = M - 1; k >= 0; --k)
      for (int q = 0; q < NV; ++q) {
        vec t = a[k][q];
        for (int l = k + 1; l < M; ++l) t -= s[k * G + l] * f[l][q];
        f[k][q] = tau[k] * t;
      }
    // Rows are read into registers and stored once (v may alias S as far as the compiler
    // knows); separate subtractions contract to FMAs (a sum would not). Two rows per pass:
    // each row's update is a chain of M dependent FMAs per vector, and two rows give the
    // FMA units enough independent chains.
    // (A lambda for the row pair and the last row made GCC reload f on every row.)
    int i = 0;
    for (; i + 1 < len; i += 2) {
      vec* x0 = reinterpret_cast<vec*>(Sc + static_cast<std::ptrdiff_t>(i) * W);
      vec* x1 = x0 + W / lanes;
      vec y0[NV], y1[NV];
      for (int q = 0; q < NV; ++q) {
        y0[q] = x0[q];
        y1[q] = x1[q];
      }
      for (int k = 0; k < M; ++k) {
        const R u0 = v[k * slot + i], u1 = v[k * slot + i + 1];
        for (int q = 0; q < NV; ++q) {
          y0[q] -= f[k][q] * u0;
          y1[q] -= f[k][q] * u1;
        }
      }
      for (int q = 0; q < NV; ++q) {
        x0[q] = y0[q];
        x1[q] = y1[q];
      }
    }
    if (i < len) {
      vec* x = reinterpret_cast<vec*>(Sc + static_cast<std::ptrdiff_t>(i) * W);
      vec y[NV];
      for (int q = 0; q < NV; ++q) y[q] = x[q];
      for (int k = 0; k < M; ++k)
        for (int q = 0; q < NV; ++q) y[q] -= f[k][q] * v[k * slot + i];
      for (int q = 0; q < NV; ++q) x[q] = y[q];
    }
  }
}

template <class R>
void apply_real(const R* v, std::size_t slot, const R* tau, const R* s, int m, int len, R* S) {
  constexpr int lanes = VB / static_cast<int>(sizeof(R));
  constexpr int row_vectors = stripe_width<R>() / lanes;
  // Four reflectors with AVX2: half a stripe row per pass (8 accumulators of 16
  // registers); with AVX-512 the row is 2 vectors, whose 8 accumulators fit the 32
  // registers. Two reflectors: the whole row (enough independent sums to hide the FMA
  // latency).
  constexpr int nv4 = VB == 64 ? row_vectors : row_vectors / 2;
  if (m > 2)
    apply_group_real<R, 4, nv4>(v, slot, tau, s, len, S);
  else
    apply_group_real<R, 2, row_vectors>(v, slot, tau, s, len, S);
}

// Swaps the lanes of every (re, im) pair. GCC's __builtin_shuffle takes the mask vector;
// clang (the fuzz preset) lacks it and needs constant indices.
template <class vec, class mask>
inline vec swap_pairs(vec x, mask swap) {
#if defined(__clang__)
  constexpr int lanes = sizeof(x) / sizeof(x[0]);
  if constexpr (lanes == 4)
    return __builtin_shufflevector(x, x, 1, 0, 3, 2);
  else if constexpr (lanes == 8)
    return __builtin_shufflevector(x, x, 1, 0, 3, 2, 5, 4, 7, 6);
  else
    return __builtin_shufflevector(x, x, 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14);
#else
  return __builtin_shuffle(x, swap);
#endif
}

// Complex: a vector holds interleaved (re, im) pairs. conj(u)·x = ur·x + ui·(swap(x)⊙(1,−1))
// and f·u = ur·f + ui·(swap(f)⊙(−1,1)), so a pair costs two FMAs and one shuffle per vector.
// With AVX2 half a stripe row per pass: its 8 accumulators, the row and its swap fit the
// 16 vector registers (a whole row's 16 accumulators spilled to the stack); with AVX-512
// the whole row, as 2 vectors.
template <class R>
void apply_pair_complex(const std::complex<R>* v1, std::complex<R> tau1, const std::complex<R>* v2,
                        std::complex<R> tau2, std::complex<R> s12, int len, std::complex<R>* S) {
  using C = std::complex<R>;
  typedef R vec __attribute__((vector_size(VB), aligned(alignof(R)), may_alias));
  using I = std::conditional_t<sizeof(R) == 8, long long, int>;
  typedef I mask __attribute__((vector_size(VB)));
  constexpr int lanes = VB / static_cast<int>(sizeof(R));
  constexpr int W = stripe_width<C>(), NV = 2, CW = NV * lanes / 2;
  static_assert((2 * W / lanes) % NV == 0);
  mask swap{};
  vec odd_negative{}, even_negative{};
  for (int l = 0; l < lanes; ++l) {
    swap[l] = l ^ 1;
    odd_negative[l] = l % 2 ? R(-1) : R(1);
    even_negative[l] = -odd_negative[l];
  }
  for (int c = 0; c < W; c += CW) {
    C* Sc = S + c;
    vec ar[NV] = {}, ai[NV] = {}, br[NV] = {}, bi[NV] = {};
    for (int i = 0; i < len; ++i) {
      const vec* xp = reinterpret_cast<const vec*>(Sc + static_cast<std::ptrdiff_t>(i) * W);
      const R ur = v1[i].real(), ui = v1[i].imag(), wr = v2[i].real(), wi = v2[i].imag();
      for (int q = 0; q < NV; ++q) {
        vec x = xp[q];
        keep_in_register(x);  // one load per vector (see apply_group_real)
        const vec xs = swap_pairs(x, swap);
        ar[q] += ur * x;
        ai[q] += ui * xs;
        br[q] += wr * x;
        bi[q] += wi * xs;
      }
    }
    // Per column: f2 = tau2·(v2ᴴx), f1 = tau1·(v1ᴴx − f2·s12), in scalar complex arithmetic.
    vec F1[NV], G1[NV], F2[NV], G2[NV];
    for (int q = 0; q < NV; ++q) {
      const vec av = ar[q] + ai[q] * odd_negative, bv = br[q] + bi[q] * odd_negative;
      R f1[lanes], f2[lanes];
      for (int l = 0; l < lanes; l += 2) {
        const C h = tau2 * C(bv[l], bv[l + 1]);
        const C g = tau1 * (C(av[l], av[l + 1]) - h * s12);
        f1[l] = g.real();
        f1[l + 1] = g.imag();
        f2[l] = h.real();
        f2[l + 1] = h.imag();
      }
      std::memcpy(&F1[q], f1, sizeof f1);
      std::memcpy(&F2[q], f2, sizeof f2);
      G1[q] = swap_pairs(F1[q], swap) * even_negative;
      G2[q] = swap_pairs(F2[q], swap) * even_negative;
    }
    for (int i = 0; i < len; ++i) {
      vec* x = reinterpret_cast<vec*>(Sc + static_cast<std::ptrdiff_t>(i) * W);
      const R ur = v1[i].real(), ui = v1[i].imag(), wr = v2[i].real(), wi = v2[i].imag();
      for (int q = 0; q < NV; ++q) {
        x[q] -= ur * F1[q];
        x[q] -= ui * G1[q];
        x[q] -= wr * F2[q];
        x[q] -= wi * G2[q];
      }
    }
  }
}

}  // namespace

template <class T>
void apply_reflector_group(const T* v, std::size_t slot, const T* tau, const T* s, int m, int len,
                           T* S) {
  if constexpr (is_complex_v<T>)
    apply_pair_complex(v, tau[0], v + slot, m > 1 ? tau[1] : T(0), s[1], len, S);
  else
    apply_real(v, slot, tau, s, m, len, S);
}

#define TSEIG_INSTANTIATE(T) \
  template void apply_reflector_group(const T*, std::size_t, const T*, const T*, int, int, T*);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense
