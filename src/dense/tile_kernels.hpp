#pragma once
// Typed BLAS/LAPACK calls on one local tile, used by the distributed Cholesky and
// triangular inverse (the rest of the BLAS lives in core/blas.hpp).
#include <complex>
#include <cstddef>

namespace tseig::dense::tile {

using cf = std::complex<float>;
using cd = std::complex<double>;
using flen = std::size_t;  // hidden Fortran string length

extern "C" {
#define TSEIG_TILE_DECL(p, T)                                                               \
  void p##potrf_(const char*, const int*, T*, const int*, int*, flen);                      \
  void p##trtri_(const char*, const char*, const int*, T*, const int*, int*, flen, flen);   \
  void p##trsm_(const char*, const char*, const char*, const char*, const int*, const int*, \
                const T*, const T*, const int*, T*, const int*, flen, flen, flen, flen);
TSEIG_TILE_DECL(s, float)
TSEIG_TILE_DECL(d, double)
TSEIG_TILE_DECL(c, cf)
TSEIG_TILE_DECL(z, cd)
#undef TSEIG_TILE_DECL
}

#define TSEIG_TILE_WRAP(p, T)                                                                   \
  /* Cholesky of the n×n tile; returns LAPACK's info (k > 0: minor k not positive). */         \
  inline int potrf(char uplo, int n, T* a, int lda) {                                           \
    int info = 0;                                                                               \
    if (n > 0) p##potrf_(&uplo, &n, a, &lda, &info, 1);                                         \
    return info;                                                                                \
  }                                                                                             \
  /* Inverse of the non-unit triangular n×n tile; returns info (k > 0: a(k,k) is zero). */     \
  inline int trtri(char uplo, int n, T* a, int lda) {                                           \
    int info = 0;                                                                               \
    const char diag = 'N';                                                                      \
    if (n > 0) p##trtri_(&uplo, &diag, &n, a, &lda, &info, 1, 1);                               \
    return info;                                                                                \
  }                                                                                             \
  inline void trsm(char side, char uplo, char ta, char diag, int m, int n, T alpha, const T* a, \
                   int lda, T* b, int ldb) {                                                    \
    if (m <= 0 || n <= 0) return;                                                               \
    p##trsm_(&side, &uplo, &ta, &diag, &m, &n, &alpha, a, &lda, b, &ldb, 1, 1, 1, 1);           \
  }
TSEIG_TILE_WRAP(s, float)
TSEIG_TILE_WRAP(d, double)
TSEIG_TILE_WRAP(c, cf)
TSEIG_TILE_WRAP(z, cd)
#undef TSEIG_TILE_WRAP

}  // namespace tseig::dense::tile
