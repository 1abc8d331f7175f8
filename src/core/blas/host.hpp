#pragma once
// The host binding layer: typed C++ overloads of every BLAS (namespace blas) and LAPACK
// (namespace lapack) routine tseig calls, one overload per scalar type. Column-major,
// 32-bit integers; empty problems return before reaching the library.
#include "core/blas/fortran.hpp"

namespace tseig {

namespace fortran {
extern "C" {
#define TSEIG_BLAS_DECL(p, T)                                                                      \
  void p##gemm_(const char*, const char*, const int*, const int*, const int*, const T*, const T*,  \
                const int*, const T*, const int*, const T*, T*, const int*, flen, flen);           \
  void p##gemv_(const char*, const int*, const int*, const T*, const T*, const int*, const T*,     \
                const int*, const T*, T*, const int*, flen);                                       \
  void p##trmm_(const char*, const char*, const char*, const char*, const int*, const int*,        \
                const T*, const T*, const int*, T*, const int*, flen, flen, flen, flen);           \
  void p##trsm_(const char*, const char*, const char*, const char*, const int*, const int*,        \
                const T*, const T*, const int*, T*, const int*, flen, flen, flen, flen);           \
  void p##potrf_(const char*, const int*, T*, const int*, int*, flen);                             \
  void p##trtri_(const char*, const char*, const int*, T*, const int*, int*, flen, flen);          \
  void p##larft_(const char*, const char*, const int*, const int*, const T*, const int*, const T*, \
                 T*, const int*, flen, flen);                                                      \
  void p##larfg_(const int*, T*, T*, const int*, T*);                                              \
  void p##geqrt3_(const int*, const int*, T*, const int*, T*, const int*, int*);
TSEIG_BLAS_DECL(s, float)
TSEIG_BLAS_DECL(d, double)
TSEIG_BLAS_DECL(c, cf)
TSEIG_BLAS_DECL(z, cd)
#undef TSEIG_BLAS_DECL
float slamch_(const char*, flen);
double dlamch_(const char*, flen);
void slaed4_(const int*, const int*, const float*, const float*, float*, const float*, float*,
             int*);
void dlaed4_(const int*, const int*, const double*, const double*, double*, const double*, double*,
             int*);
}
}  // namespace fortran

namespace blas {

#define TSEIG_BLAS_WRAP(p, T)                                                                   \
  inline void gemm(char ta, char tb, int m, int n, int k, T alpha, const T* a, int lda,         \
                   const T* b, int ldb, T beta, T* c, int ldc) {                                \
    if (m <= 0 || n <= 0) return;                                                               \
    fortran::p##gemm_(&ta, &tb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc, 1, 1);    \
  }                                                                                             \
  inline void gemv(char t, int m, int n, T alpha, const T* a, int lda, const T* x, int incx,    \
                   T beta, T* y, int incy) {                                                    \
    if (m <= 0 || n <= 0) return;                                                               \
    fortran::p##gemv_(&t, &m, &n, &alpha, a, &lda, x, &incx, &beta, y, &incy, 1);               \
  }                                                                                             \
  inline void trmm(char side, char uplo, char ta, char diag, int m, int n, T alpha, const T* a, \
                   int lda, T* b, int ldb) {                                                    \
    if (m <= 0 || n <= 0) return;                                                               \
    fortran::p##trmm_(&side, &uplo, &ta, &diag, &m, &n, &alpha, a, &lda, b, &ldb, 1, 1, 1, 1);  \
  }                                                                                             \
  inline void trsm(char side, char uplo, char ta, char diag, int m, int n, T alpha, const T* a, \
                   int lda, T* b, int ldb) {                                                    \
    if (m <= 0 || n <= 0) return;                                                               \
    fortran::p##trsm_(&side, &uplo, &ta, &diag, &m, &n, &alpha, a, &lda, b, &ldb, 1, 1, 1, 1);  \
  }
TSEIG_BLAS_WRAP(s, float)
TSEIG_BLAS_WRAP(d, double)
TSEIG_BLAS_WRAP(c, fortran::cf)
TSEIG_BLAS_WRAP(z, fortran::cd)
#undef TSEIG_BLAS_WRAP

}  // namespace blas

namespace lapack {

#define TSEIG_LAPACK_WRAP(p, T)                                                                 \
  /* Cholesky of the n×n matrix; returns LAPACK's info (k > 0: minor k not positive). */       \
  inline int potrf(char uplo, int n, T* a, int lda) {                                           \
    int info = 0;                                                                               \
    if (n > 0) fortran::p##potrf_(&uplo, &n, a, &lda, &info, 1);                                \
    return info;                                                                                \
  }                                                                                             \
  /* Inverse of the non-unit triangular n×n matrix; returns info (k > 0: a(k,k) is zero). */   \
  inline int trtri(char uplo, int n, T* a, int lda) {                                           \
    int info = 0;                                                                               \
    const char diag = 'N';                                                                      \
    if (n > 0) fortran::p##trtri_(&uplo, &diag, &n, a, &lda, &info, 1, 1);                      \
    return info;                                                                                \
  }                                                                                             \
  /* Triangular factor T of a block of `k` forward, column-wise reflectors. */                  \
  inline void larft(int n, int k, const T* v, int ldv, const T* tau, T* t, int ldt) {           \
    const char dir = 'F', store = 'C';                                                          \
    fortran::p##larft_(&dir, &store, &n, &k, v, &ldv, tau, t, &ldt, 1, 1);                      \
  }                                                                                             \
  /* H = I − tau·v·vᴴ with Hᴴ·(alpha; x) = (beta; 0), beta real; v(0) = 1 implicit. */ \
  inline T larfg(int n, T& alpha, T* x, int incx) {                                             \
    T tau;                                                                                      \
    fortran::p##larfg_(&n, &alpha, x, &incx, &tau);                                             \
    return tau;                                                                                 \
  }                                                                                             \
  /* Recursive (BLAS-3) QR of the m×n column-major a, m ≥ n: V below the diagonal,           \
     R on and above it, t (n×n upper) with Q = I − V·t·Vᴴ. Returns info. */              \
  inline int geqrt3(int m, int n, T* a, int lda, T* t, int ldt) {                               \
    int info = 0;                                                                               \
    fortran::p##geqrt3_(&m, &n, a, &lda, t, &ldt, &info);                                       \
    return info;                                                                                \
  }
TSEIG_LAPACK_WRAP(s, float)
TSEIG_LAPACK_WRAP(d, double)
TSEIG_LAPACK_WRAP(c, fortran::cf)
TSEIG_LAPACK_WRAP(z, fortran::cd)
#undef TSEIG_LAPACK_WRAP

/// Real symmetric tridiagonal eigensolver (divide & conquer). compz: 'N' or 'I'.
template <class R>
TSEIG_HIDDEN int stedc(char compz, int n, R* d, R* e, R* z, int ldz);

/// Dense Hermitian eigensolver, full matrix in column-major `a` (overwritten by the
/// eigenvectors when jobz = 'V').
template <class T, class R>
TSEIG_HIDDEN int heevd(char jobz, char uplo, int n, T* a, int lda, R* w);

/// Generalized Hermitian-definite eigensolver A·z = λ·B·z (itype 1, divide & conquer):
/// a receives the B-orthonormal eigenvectors when jobz = 'V', b its Cholesky factor.
template <class T, class R>
TSEIG_HIDDEN int hegvd(char jobz, char uplo, int n, T* a, int lda, T* b, int ldb, R* w);

/// Machine parameters ('E' epsilon, 'S' safe minimum, ...).
inline float lamch(char c, float) {
  return fortran::slamch_(&c, 1);
}
inline double lamch(char c, double) {
  return fortran::dlamch_(&c, 1);
}

/// Root i (0-based) of the secular equation 1 + rho·Σ z_j²/(d_j − λ) = 0, d strictly
/// increasing, rho > 0: returns info, sets *lam and delta_j = d_j − λ (for n = 2: the
/// normalized eigenvector instead, as ?laed5 does).
inline int laed4(int n, int i, const float* d, const float* z, float* delta, float rho,
                 float* lam) {
  int info = 0, i1 = i + 1;
  fortran::slaed4_(&n, &i1, d, z, delta, &rho, lam, &info);
  return info;
}
inline int laed4(int n, int i, const double* d, const double* z, double* delta, double rho,
                 double* lam) {
  int info = 0, i1 = i + 1;
  fortran::dlaed4_(&n, &i1, d, z, delta, &rho, lam, &info);
  return info;
}

}  // namespace lapack
}  // namespace tseig
