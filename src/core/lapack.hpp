#pragma once
// Typed C++ overloads of the LAPACK routines tseig calls. `info` is returned.
#include <complex>
#include <cstddef>

namespace tseig::lapack {

using cf = std::complex<float>;
using cd = std::complex<double>;
using flen = std::size_t;

extern "C" {
void sstedc_(const char*, const int*, float*, float*, float*, const int*, float*, const int*, int*,
             const int*, int*, flen);
void dstedc_(const char*, const int*, double*, double*, double*, const int*, double*, const int*,
             int*, const int*, int*, flen);
void ssyevd_(const char*, const char*, const int*, float*, const int*, float*, float*, const int*,
             int*, const int*, int*, flen, flen);
void dsyevd_(const char*, const char*, const int*, double*, const int*, double*, double*,
             const int*, int*, const int*, int*, flen, flen);
void cheevd_(const char*, const char*, const int*, cf*, const int*, float*, cf*, const int*, float*,
             const int*, int*, const int*, int*, flen, flen);
void zheevd_(const char*, const char*, const int*, cd*, const int*, double*, cd*, const int*,
             double*, const int*, int*, const int*, int*, flen, flen);
#define TSEIG_LARFT(p, T)                                                                          \
  void p##larft_(const char*, const char*, const int*, const int*, const T*, const int*, const T*, \
                 T*, const int*, flen, flen);
TSEIG_LARFT(s, float)
TSEIG_LARFT(d, double)
TSEIG_LARFT(c, cf)
TSEIG_LARFT(z, cd)
#undef TSEIG_LARFT
float slamch_(const char*, flen);
double dlamch_(const char*, flen);
void slaed4_(const int*, const int*, const float*, const float*, float*, const float*, float*,
             int*);
void dlaed4_(const int*, const int*, const double*, const double*, double*, const double*, double*,
             int*);
}

/// Real symmetric tridiagonal eigensolver (divide & conquer). compz: 'N' or 'I'.
template <class R>
int stedc(char compz, int n, R* d, R* e, R* z, int ldz);

/// Dense Hermitian eigensolver, full matrix in column-major `a` (overwritten by the
/// eigenvectors when jobz = 'V').
template <class T, class R>
int heevd(char jobz, char uplo, int n, T* a, int lda, R* w);

/// Triangular factor T of a block of `k` forward, column-wise reflectors.
#define TSEIG_LARFT_WRAP(p, T)                                                        \
  inline void larft(int n, int k, const T* v, int ldv, const T* tau, T* t, int ldt) { \
    const char dir = 'F', store = 'C';                                                \
    p##larft_(&dir, &store, &n, &k, v, &ldv, tau, t, &ldt, 1, 1);                     \
  }
TSEIG_LARFT_WRAP(s, float)
TSEIG_LARFT_WRAP(d, double)
TSEIG_LARFT_WRAP(c, cf)
TSEIG_LARFT_WRAP(z, cd)
#undef TSEIG_LARFT_WRAP

/// Machine parameters ('E' epsilon, 'S' safe minimum, ...).
inline float lamch(char c, float) {
  return slamch_(&c, 1);
}
inline double lamch(char c, double) {
  return dlamch_(&c, 1);
}

/// Root i (0-based) of the secular equation 1 + rho·Σ z_j²/(d_j − λ) = 0, d strictly
/// increasing, rho > 0: returns info, sets *lam and delta_j = d_j − λ (for n = 2: the
/// normalized eigenvector instead, as ?laed5 does).
inline int laed4(int n, int i, const float* d, const float* z, float* delta, float rho,
                 float* lam) {
  int info = 0, i1 = i + 1;
  slaed4_(&n, &i1, d, z, delta, &rho, lam, &info);
  return info;
}
inline int laed4(int n, int i, const double* d, const double* z, double* delta, double rho,
                 double* lam) {
  int info = 0, i1 = i + 1;
  dlaed4_(&n, &i1, d, z, delta, &rho, lam, &info);
  return info;
}

}  // namespace tseig::lapack
