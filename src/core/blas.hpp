#pragma once
// Typed C++ overloads of the BLAS routines tseig calls (Fortran symbols; character
// arguments pass gfortran's hidden length). Column-major, 32-bit integers.
#include <complex>
#include <cstddef>

namespace tseig::blas {

using cf = std::complex<float>;
using cd = std::complex<double>;
using flen = std::size_t;  // hidden Fortran string length

extern "C" {
#define TSEIG_GEMM(p, T)                                                                          \
  void p##gemm_(const char*, const char*, const int*, const int*, const int*, const T*, const T*, \
                const int*, const T*, const int*, const T*, T*, const int*, flen, flen);
TSEIG_GEMM(s, float)
TSEIG_GEMM(d, double)
TSEIG_GEMM(c, cf)
TSEIG_GEMM(z, cd)
#undef TSEIG_GEMM
#define TSEIG_GEMV(p, T)                                                                       \
  void p##gemv_(const char*, const int*, const int*, const T*, const T*, const int*, const T*, \
                const int*, const T*, T*, const int*, flen);
TSEIG_GEMV(s, float)
TSEIG_GEMV(d, double)
TSEIG_GEMV(c, cf)
TSEIG_GEMV(z, cd)
#undef TSEIG_GEMV
#define TSEIG_TRMM(p, T)                                                                    \
  void p##trmm_(const char*, const char*, const char*, const char*, const int*, const int*, \
                const T*, const T*, const int*, T*, const int*, flen, flen, flen, flen);
TSEIG_TRMM(s, float)
TSEIG_TRMM(d, double)
TSEIG_TRMM(c, cf)
TSEIG_TRMM(z, cd)
#undef TSEIG_TRMM
}

#define TSEIG_GEMM_WRAP(p, T)                                                                   \
  inline void gemm(char ta, char tb, int m, int n, int k, T alpha, const T* a, int lda,         \
                   const T* b, int ldb, T beta, T* c, int ldc) {                                \
    if (m <= 0 || n <= 0) return;                                                               \
    p##gemm_(&ta, &tb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc, 1, 1);             \
  }                                                                                             \
  inline void gemv(char t, int m, int n, T alpha, const T* a, int lda, const T* x, int incx,    \
                   T beta, T* y, int incy) {                                                    \
    if (m <= 0 || n <= 0) return;                                                               \
    p##gemv_(&t, &m, &n, &alpha, a, &lda, x, &incx, &beta, y, &incy, 1);                        \
  }                                                                                             \
  inline void trmm(char side, char uplo, char ta, char diag, int m, int n, T alpha, const T* a, \
                   int lda, T* b, int ldb) {                                                    \
    if (m <= 0 || n <= 0) return;                                                               \
    p##trmm_(&side, &uplo, &ta, &diag, &m, &n, &alpha, a, &lda, b, &ldb, 1, 1, 1, 1);           \
  }
TSEIG_GEMM_WRAP(s, float)
TSEIG_GEMM_WRAP(d, double)
TSEIG_GEMM_WRAP(c, cf)
TSEIG_GEMM_WRAP(z, cd)
#undef TSEIG_GEMM_WRAP

}  // namespace tseig::blas
