#pragma once
// Products of tall, skinny row-major blocks (the block solvers' n × k blocks with n in
// the hundred thousands and k ≤ a few dozen) without BLAS's packing. OpenBLAS copies both
// operands of XᵀY and of X·S into its panel format before multiplying: on the 64³
// Laplacian LOBPCG at np = 2 its copy routines took 21 % of the run next to 35 % in its
// kernel, and the row-chunk buffer of the in-place X·S another 6 %. These kernels read
// the rows where they lie (GHOST's TSMTTSM and TSMM, in spirit): XᵀY keeps a tile of C in
// registers over a chunk of rows, X·S a group of output rows over all of S.
#include <complex>
#include <cstddef>
#include <span>

namespace tseig::sparse::detail {

/// Whether the kernels below exist in this build (x86 with AVX2 and FMA, or AVX-512);
/// otherwise they are not defined and BLAS does the products.
#if defined(__AVX512F__) || (defined(__AVX2__) && defined(__FMA__))
#define TSEIG_TALL_SKINNY_KERNELS 1
#else
#define TSEIG_TALL_SKINNY_KERNELS 0
#endif
inline constexpr bool tall_skinny_kernels = TSEIG_TALL_SKINNY_KERNELS;

/// The most columns of either operand the kernels take; wider blocks go to BLAS, whose
/// blocking pays off there (the kernels' tiles and S would no longer stay in cache).
inline constexpr int tall_skinny_max_columns = 128;

/// One product XᵀY of tall_gram: y row-major with row stride ldy (l columns), c the k × l
/// result (column-major, leading dimension k).
struct GramTarget {
  int l;
  const double* y;
  std::size_t ldy;
  double* c;
};

/// Every target's c ← XᵀY over n rows, x row-major with row stride ldx (k columns): one
/// pass over X for all of them.
void tall_gram(int n, int k, const double* x, std::size_t ldx, std::span<const GramTarget> targets);

/// Y (n × l) ← X (n × k)·S + beta·Y with S column-major k × l. Y may be X itself (the
/// same pointer and stride, l ≤ k): a row group is read whole before it is written.
/// beta = 0 never reads Y.
void tall_transform(int n, int k, int l, const double* x, std::size_t ldx, const double* s,
                    double beta, double* y, std::size_t ldy);

/// The complex double forms (tall_skinny_complex.cpp). A complex n × k block is the real
/// n × 2k block of its (re, im) pairs, so XᴴY and X·S are the real kernels' products with
/// twice the columns (the flops of complex arithmetic), then a small fold or, before,
/// S in real form: the blocks take at most tall_skinny_max_columns / 2 columns.
struct ComplexGramTarget {
  int l;
  const std::complex<double>* y;
  std::size_t ldy;
  std::complex<double>* c;
};
void tall_gram(int n, int k, const std::complex<double>* x, std::size_t ldx,
               std::span<const ComplexGramTarget> targets);
/// Y ← X·S + beta·Y (beta real), in place as the real form.
void tall_transform(int n, int k, int l, const std::complex<double>* x, std::size_t ldx,
                    const std::complex<double>* s, double beta, std::complex<double>* y,
                    std::size_t ldy);

}  // namespace tseig::sparse::detail
