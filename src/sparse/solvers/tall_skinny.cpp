// Tall-skinny products with SIMD registers across the short dimension: C = XᵀY holds an
// IA × (NV vectors) tile of C in registers while it walks a chunk of rows that stays in
// cache (x broadcast, y loaded whole, its last vector masked so a view narrower than its
// rows is never read past its columns); Y = X·S holds IR output rows × NV vectors while
// it walks S, transposed once and padded to whole vectors.
#include "sparse/solvers/tall_skinny.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <utility>
#include <vector>

#if TSEIG_TALL_SKINNY_KERNELS
#include <immintrin.h>

#include "sparse/kernels/lanes.hpp"

namespace tseig::sparse::detail {

namespace {

// GCC vector types (gnu++20 contracts a * b + c into one FMA); only the masked load
// needs the instruction set's own intrinsic.
constexpr int lanes = simd_bytes / 8;
typedef double Vec __attribute__((vector_size(simd_bytes)));
constexpr int tile_rows = lanes == 8 ? 8 : 4;  // 8 × 3 of 32 registers, 4 × 3 of 16

inline Vec load(const double* p) {
  Vec v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void store(double* p, Vec v) {
  std::memcpy(p, &v, sizeof v);
}
inline Vec broadcast(double v) {
  return Vec{} + v;
}
inline Vec fma(Vec a, Vec b, Vec c) {
  return a * b + c;
}
inline Vec zero() {
  return Vec{};
}
/// The first n ≤ lanes entries at p, zeros beyond, never reading past them.
inline Vec load_first(const double* p, int n) {
#if defined(__AVX512F__)
  return _mm512_maskz_loadu_pd(static_cast<__mmask8>((1u << n) - 1), p);
#else
  const __m256i mask = _mm256_cmpgt_epi64(_mm256_set1_epi64x(n), _mm256_set_epi64x(3, 2, 1, 0));
  return _mm256_maskload_pd(p, mask);
#endif
}

constexpr int tile_vectors = 3;
constexpr int tile_width = tile_vectors * lanes;

/// c(0:IA, 0:jw) += x(:, 0:IA)ᵀ·y(:, 0:jw) over `rows` rows; jw > (NV − 1)·lanes.
/// The same rows of the next chunk, `ahead_x` and `ahead_y` entries on, are prefetched
/// into the L2 cache meanwhile (0: none): a tile reads one line of each x row, and the
/// hardware does not run that far ahead on such a stride.
template <int IA, int NV>
void gram_tile(int rows, const double* __restrict x, std::size_t ldx, const double* __restrict y,
               std::size_t ldy, int jw, double* __restrict c, int ldc, std::size_t ahead_x,
               std::size_t ahead_y) {
  Vec acc[IA][NV];
#pragma GCC unroll 32
  for (int a = 0; a < IA; ++a)
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) acc[a][v] = zero();
  const int last = jw - (NV - 1) * lanes;
  for (int r = 0; r < rows; ++r) {
    const double* yr = y + r * ldy;
    const double* xr = x + r * ldx;
    _mm_prefetch(reinterpret_cast<const char*>(xr + ahead_x), _MM_HINT_T1);
    _mm_prefetch(reinterpret_cast<const char*>(xr + ahead_x + IA - 1), _MM_HINT_T1);
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v)
      _mm_prefetch(reinterpret_cast<const char*>(yr + ahead_y + v * lanes), _MM_HINT_T1);
    Vec yv[NV];
#pragma GCC unroll 4
    for (int v = 0; v < NV - 1; ++v) yv[v] = load(yr + v * lanes);
    yv[NV - 1] = load_first(yr + (NV - 1) * lanes, last);
#pragma GCC unroll 32
    for (int a = 0; a < IA; ++a) {
      const Vec xa = broadcast(xr[a]);
#pragma GCC unroll 4
      for (int v = 0; v < NV; ++v) acc[a][v] = fma(xa, yv[v], acc[a][v]);
    }
  }
  // Every index of acc a constant (loops unrolled), so it lives in registers only.
  alignas(64) double out[NV * lanes];
#pragma GCC unroll 32
  for (int a = 0; a < IA; ++a) {
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) store(out + v * lanes, acc[a][v]);
    for (int j = 0; j < jw; ++j) c[a + static_cast<std::size_t>(j) * ldc] += out[j];
  }
}

/// out(0:IR, 0:NV·lanes) ← x(0:IR, 0:k)·st(0:k, 0:NV·lanes), st row-major with stride lds.
template <int IR, int NV>
void transform_tile(int k, const double* __restrict x, std::size_t ldx, const double* __restrict st,
                    int lds, double* __restrict out, int ldo) {
  Vec acc[IR][NV];
#pragma GCC unroll 32
  for (int r = 0; r < IR; ++r)
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) acc[r][v] = zero();
  for (int a = 0; a < k; ++a) {
    const double* sr = st + static_cast<std::size_t>(a) * lds;
    Vec sv[NV];
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) sv[v] = load(sr + v * lanes);
#pragma GCC unroll 32
    for (int r = 0; r < IR; ++r) {
      const Vec xa = broadcast(x[r * ldx + a]);
#pragma GCC unroll 4
      for (int v = 0; v < NV; ++v) acc[r][v] = fma(xa, sv[v], acc[r][v]);
    }
  }
#pragma GCC unroll 32
  for (int r = 0; r < IR; ++r)
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) store(out + r * ldo + v * lanes, acc[r][v]);
}

using GramTile = void (*)(int, const double*, std::size_t, const double*, std::size_t, int, double*,
                          int, std::size_t, std::size_t);
using TransformTile = void (*)(int, const double*, std::size_t, const double*, int, double*, int);

/// Tables indexed [IA − 1][NV − 1] (IA, IR ≤ tile_rows; NV ≤ tile_vectors).
template <std::size_t... A>
constexpr auto gram_tiles(std::index_sequence<A...>) {
  return std::array<std::array<GramTile, tile_vectors>, sizeof...(A)>{
      {{gram_tile<A + 1, 1>, gram_tile<A + 1, 2>, gram_tile<A + 1, 3>}...}};
}
template <std::size_t... A>
constexpr auto transform_tiles(std::index_sequence<A...>) {
  return std::array<std::array<TransformTile, tile_vectors>, sizeof...(A)>{
      {{transform_tile<A + 1, 1>, transform_tile<A + 1, 2>, transform_tile<A + 1, 3>}...}};
}
static_assert(tile_vectors == 3, "the tables above list NV = 1, 2, 3");
constexpr auto gram_table = gram_tiles(std::make_index_sequence<tile_rows>{});
constexpr auto transform_table = transform_tiles(std::make_index_sequence<tile_rows>{});

}  // namespace

void tall_gram(int n, int k, const double* x, std::size_t ldx,
               std::span<const GramTarget> targets) {
  int width = 0;  // of all the y blocks together
  for (const GramTarget& t : targets) {
    std::fill_n(t.c, static_cast<std::size_t>(k) * t.l, 0.0);
    width += (t.l + 7) / 8;
  }
  if (n <= 0) return;
  // Rows per chunk: the chunk's rows of all operands (whole cache lines) in ≈ 192 KiB,
  // so every tile after the first reads them from the L2 cache.
  const int row_bytes = ((k + 7) / 8 + width + 2) * 64;
  const int chunk = std::clamp((192 << 10) / row_bytes, 16, 1024);
  for (int first = 0; first < n; first += chunk) {
    const int rows = std::min(chunk, n - first);
    const std::size_t next = first + rows < n ? static_cast<std::size_t>(rows) : 0;
    const double* xc = x + static_cast<std::size_t>(first) * ldx;
    for (const GramTarget& t : targets) {
      const double* yc = t.y + static_cast<std::size_t>(first) * t.ldy;
      for (int a = 0; a < k; a += tile_rows) {
        const int ia = std::min(tile_rows, k - a);
        for (int j = 0; j < t.l; j += tile_width) {
          const int jw = std::min(tile_width, t.l - j);
          const int nv = (jw + lanes - 1) / lanes;
          gram_table[ia - 1][nv - 1](rows, xc + a, ldx, yc + j, t.ldy, jw,
                                     t.c + a + static_cast<std::size_t>(j) * k, k, next * ldx,
                                     a == 0 ? next * t.ldy : 0);
        }
      }
    }
  }
}

void tall_transform(int n, int k, int l, const double* x, std::size_t ldx, const double* s,
                    double beta, double* y, std::size_t ldy) {
  if (n <= 0 || l <= 0) return;
  const int lp = (l + lanes - 1) / lanes * lanes;
  std::vector<double> st(static_cast<std::size_t>(k) * lp, 0.0);  // Sᵀ rows, zero-padded
  for (int a = 0; a < k; ++a)
    for (int j = 0; j < l; ++j)
      st[static_cast<std::size_t>(a) * lp + j] = s[a + static_cast<std::size_t>(j) * k];
  std::vector<double> group(static_cast<std::size_t>(tile_rows) * lp);
  for (int i = 0; i < n; i += tile_rows) {
    const int rows = std::min(tile_rows, n - i);
    const double* xg = x + static_cast<std::size_t>(i) * ldx;
    for (int j = 0; j < lp; j += tile_width) {
      const int nv = std::min(tile_vectors, (lp - j) / lanes);
      transform_table[rows - 1][nv - 1](k, xg, ldx, st.data() + j, lp, group.data() + j, lp);
    }
    for (int r = 0; r < rows; ++r) {
      double* yr = y + static_cast<std::size_t>(i + r) * ldy;
      const double* gr = group.data() + static_cast<std::size_t>(r) * lp;
      if (beta == 0)
        std::copy_n(gr, l, yr);
      else
        for (int j = 0; j < l; ++j) yr[j] = gr[j] + beta * yr[j];
    }
  }
}

}  // namespace tseig::sparse::detail

#endif  // AVX2 + FMA or AVX-512
