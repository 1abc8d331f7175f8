// Stripe layout (a row's columns contiguous) lets the vector lanes run over columns:
// every column's dot products are plain per-lane accumulations, with no horizontal sums,
// and the update then touches each element once for all reflectors of the group.
// Explicit SIMD vectors (GCC vector extensions; 64 bytes with AVX-512, else 32) keep
// the accumulators in registers.
#include "dense/stages/backtransform_band/reflector_group_kernel.hpp"

#include <complex>
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

// Complex: a vector holds interleaved (re, im) pairs. Σ conj(u)·x = Σ ur·x +
// swap(Σ ui·x)⊙(1,−1) (the swap is linear, so it is applied once to the sum) and
// f·u = ur·f + ui·(swap(f)⊙(−1,1)), so a reflector costs two FMAs per vector. M
// reflectors over chunks of NV vectors of a stripe row: with AVX2 two reflectors over half
// a row (8 accumulators; a whole row's 16 spilled to the stack; four reflectors over a
// quarter row ran 2.5× slower); with AVX-512 four over the whole row (16 accumulators of
// 32 registers).
template <class R, int M, int NV>
void apply_group_complex(const std::complex<R>* v, std::size_t slot, const std::complex<R>* tau,
                         const std::complex<R>* s, int len, std::complex<R>* S) {
  using C = std::complex<R>;
  typedef R vec __attribute__((vector_size(VB), aligned(alignof(R)), may_alias));
  using I = std::conditional_t<sizeof(R) == 8, long long, int>;
  typedef I mask __attribute__((vector_size(VB)));
  constexpr int lanes = VB / static_cast<int>(sizeof(R));
  constexpr int W = stripe_width<C>(), CW = NV * lanes / 2, G = reflector_group_size<C>();
  static_assert(W % CW == 0 && M <= G);
  mask swap{};
  vec odd_negative{}, even_negative{};
  for (int l = 0; l < lanes; ++l) {
    swap[l] = l ^ 1;
    odd_negative[l] = l % 2 ? R(-1) : R(1);
    even_negative[l] = -odd_negative[l];
  }
  for (int c = 0; c < W; c += CW) {
    C* Sc = S + c;
    vec ar[M][NV] = {}, ai[M][NV] = {};
    for (int i = 0; i < len; ++i) {
      const vec* xp = reinterpret_cast<const vec*>(Sc + static_cast<std::ptrdiff_t>(i) * W);
      vec x[NV];
      for (int q = 0; q < NV; ++q) {
        x[q] = xp[q];
        keep_in_register(x[q]);  // one load per vector (see apply_group_real)
      }
      for (int k = 0; k < M; ++k) {
        const R ur = v[k * slot + i].real(), ui = v[k * slot + i].imag();
        for (int q = 0; q < NV; ++q) {
          ar[k][q] += ur * x[q];
          ai[k][q] += ui * x[q];
        }
      }
    }
    // Per column, the last reflector acting first: f_k = tau_k·(v_kᴴx − Σ_{l>k} s_kl·f_l).
    // tau and s are the same for every column: c·X = cr·X + ci·(swap(X)⊙(−1,1)) in the
    // vectors (scalar complex arithmetic per lane pair, through memory, took a third of the
    // time with four reflectors).
    vec F[M][NV], Fs[M][NV];
    for (int k = M - 1; k >= 0; --k)
      for (int q = 0; q < NV; ++q) {
        vec t = ar[k][q] + swap_pairs(ai[k][q], swap) * odd_negative;
        for (int j = k + 1; j < M; ++j) {
          const C skj = s[k * G + j];
          t -= skj.real() * F[j][q] + skj.imag() * Fs[j][q];
        }
        F[k][q] = tau[k].real() * t + tau[k].imag() * (swap_pairs(t, swap) * even_negative);
        Fs[k][q] = swap_pairs(F[k][q], swap) * even_negative;
      }
    for (int i = 0; i < len; ++i) {
      vec* x = reinterpret_cast<vec*>(Sc + static_cast<std::ptrdiff_t>(i) * W);
      // The ur and ui terms in two sums: half the dependent chain per vector.
      vec y[NV], z[NV] = {};
      for (int q = 0; q < NV; ++q) y[q] = x[q];
      for (int k = 0; k < M; ++k) {
        const R ur = v[k * slot + i].real(), ui = v[k * slot + i].imag();
        for (int q = 0; q < NV; ++q) {
          y[q] -= ur * F[k][q];
          z[q] += ui * Fs[k][q];
        }
      }
      for (int q = 0; q < NV; ++q) x[q] = y[q] - z[q];
    }
  }
}

template <class R>
void apply_complex(const std::complex<R>* v, std::size_t slot, const std::complex<R>* tau,
                   const std::complex<R>* s, int m, int len, std::complex<R>* S) {
  constexpr int row_vectors =
      2 * stripe_width<std::complex<R>>() * static_cast<int>(sizeof(R)) / VB;
  constexpr int nv = VB == 64 ? row_vectors : row_vectors / 2;  // whole row or half
  if constexpr (reflector_group_size<std::complex<R>>() == 4)
    if (m > 2) return apply_group_complex<R, 4, nv>(v, slot, tau, s, len, S);
  apply_group_complex<R, 2, nv>(v, slot, tau, s, len, S);
}

}  // namespace

template <class T>
void apply_reflector_group(const T* v, std::size_t slot, const T* tau, const T* s, int m, int len,
                           T* S) {
  if constexpr (is_complex_v<T>)
    apply_complex(v, slot, tau, s, m, len, S);
  else
    apply_real(v, slot, tau, s, m, len, S);
}

#define TSEIG_INSTANTIATE(T) \
  template void apply_reflector_group(const T*, std::size_t, const T*, const T*, int, int, T*);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense
