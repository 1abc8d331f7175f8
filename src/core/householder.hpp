#pragma once
// Typed overloads of the LAPACK routines that generate Householder reflectors:
// ?larfg (one reflector) and ?geqrt3 (a panel of them with its compact-WY factor T).
#include <complex>

namespace tseig::lapack {

extern "C" {
#define TSEIG_HOUSEHOLDER_DECL(p, T)                  \
  void p##larfg_(const int*, T*, T*, const int*, T*); \
  void p##geqrt3_(const int*, const int*, T*, const int*, T*, const int*, int*);
TSEIG_HOUSEHOLDER_DECL(s, float)
TSEIG_HOUSEHOLDER_DECL(d, double)
TSEIG_HOUSEHOLDER_DECL(c, std::complex<float>)
TSEIG_HOUSEHOLDER_DECL(z, std::complex<double>)
#undef TSEIG_HOUSEHOLDER_DECL
}

#define TSEIG_HOUSEHOLDER_WRAP(p, T)                                                            \
  /* H = I − tau·v·vᴴ with Hᴴ·(alpha; x) = (beta; 0), beta real; v(0) = 1 implicit. */ \
  inline T larfg(int n, T& alpha, T* x, int incx) {                                             \
    T tau;                                                                                      \
    p##larfg_(&n, &alpha, x, &incx, &tau);                                                      \
    return tau;                                                                                 \
  }                                                                                             \
  /* Recursive (BLAS-3) QR of the m×n column-major a, m ≥ n: V below the diagonal,           \
     R on and above it, t (n×n upper) with Q = I − V·t·Vᴴ. Returns info. */              \
  inline int geqrt3(int m, int n, T* a, int lda, T* t, int ldt) {                               \
    int info = 0;                                                                               \
    p##geqrt3_(&m, &n, a, &lda, t, &ldt, &info);                                                \
    return info;                                                                                \
  }
TSEIG_HOUSEHOLDER_WRAP(s, float)
TSEIG_HOUSEHOLDER_WRAP(d, double)
TSEIG_HOUSEHOLDER_WRAP(c, std::complex<float>)
TSEIG_HOUSEHOLDER_WRAP(z, std::complex<double>)
#undef TSEIG_HOUSEHOLDER_WRAP

}  // namespace tseig::lapack
