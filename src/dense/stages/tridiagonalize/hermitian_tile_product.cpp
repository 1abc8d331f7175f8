// Compiled with reassociation allowed (see src/CMakeLists.txt) so the column dot
// products vectorize; four columns per pass keep four streams in flight and touch
// yrow once per four columns.
#include "dense/stages/tridiagonalize/hermitian_tile_product.hpp"

#include <complex>

#include "core/instantiate.hpp"
#include "tseig/types.hpp"

namespace tseig::dense {

template <class T>
void hermitian_tile_product(int m, int n, const T* a, int lda, const T* xcol, const T* xrow,
                            T* yrow, T* ycol) {
  const long ld = lda;
  int c = 0;
  for (; c + 4 <= n; c += 4) {
    const T* a0 = a + c * ld;
    const T* a1 = a0 + ld;
    const T* a2 = a1 + ld;
    const T* a3 = a2 + ld;
    const T x0 = xcol[c], x1 = xcol[c + 1], x2 = xcol[c + 2], x3 = xcol[c + 3];
    T s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (int r = 0; r < m; ++r) {
      const T v = xrow[r];
      yrow[r] += a0[r] * x0 + a1[r] * x1 + a2[r] * x2 + a3[r] * x3;
      s0 += conj_if_complex(a0[r]) * v;
      s1 += conj_if_complex(a1[r]) * v;
      s2 += conj_if_complex(a2[r]) * v;
      s3 += conj_if_complex(a3[r]) * v;
    }
    ycol[c] += s0;
    ycol[c + 1] += s1;
    ycol[c + 2] += s2;
    ycol[c + 3] += s3;
  }
  for (; c < n; ++c) {
    const T* a0 = a + c * ld;
    const T x0 = xcol[c];
    T s0 = 0;
    for (int r = 0; r < m; ++r) {
      yrow[r] += a0[r] * x0;
      s0 += conj_if_complex(a0[r]) * xrow[r];
    }
    ycol[c] += s0;
  }
}

#define TSEIG_INSTANTIATE(T) \
  template void hermitian_tile_product(int, int, const T*, int, const T*, const T*, T*, T*);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense
