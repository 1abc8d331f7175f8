// The LAPACK drivers of host.hpp that need workspace, sized by query_then_run.
#include "core/blas/host.hpp"

#include <algorithm>

#include "core/blas/workspace.hpp"
#include "core/buffer_cache.hpp"

namespace tseig {

namespace fortran {
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
#define TSEIG_SYGVD(p, T)                                                                          \
  void p##sygvd_(const int*, const char*, const char*, const int*, T*, const int*, T*, const int*, \
                 T*, T*, const int*, int*, const int*, int*, flen, flen);
TSEIG_SYGVD(s, float)
TSEIG_SYGVD(d, double)
#undef TSEIG_SYGVD
#define TSEIG_HEGVD(p, T, R)                                                                       \
  void p##hegvd_(const int*, const char*, const char*, const int*, T*, const int*, T*, const int*, \
                 R*, T*, const int*, R*, const int*, int*, const int*, int*, flen, flen);
TSEIG_HEGVD(c, cf, float)
TSEIG_HEGVD(z, cd, double)
#undef TSEIG_HEGVD
}
}  // namespace fortran

namespace lapack {

namespace {
// LAPACK's own answers, at least 1.
template <class Q>
int at_least_one(Q query) {
  return std::max(1, static_cast<int>(std::real(query)));
}
template <class T, class R>
blas::WorkSizes exact(T work, R rwork, int iwork) {
  return {at_least_one(work), at_least_one(rwork), at_least_one(iwork)};
}
template <class T, class R>
blas::WorkSizes exact_no_rwork(T work, R, int iwork) {
  return {at_least_one(work), 0, at_least_one(iwork)};
}
}  // namespace

#define TSEIG_STEDC(p, R)                                                                        \
  template <>                                                                                    \
  int stedc<R>(char compz, int n, R* d, R* e, R* z, int ldz) {                                   \
    return blas::query_then_run<cached_vector, R, R>(                                            \
        [&](R* work, int lwork, R*, int, int* iwork, int liwork) {                               \
          int info = 0;                                                                          \
          fortran::p##stedc_(&compz, &n, d, e, z, &ldz, work, &lwork, iwork, &liwork, &info, 1); \
          return info;                                                                           \
        },                                                                                       \
        exact_no_rwork<R, R>);                                                                   \
  }
TSEIG_STEDC(s, float)
TSEIG_STEDC(d, double)
#undef TSEIG_STEDC

#define TSEIG_SYEVD(p, R)                                                                          \
  template <>                                                                                      \
  int heevd<R, R>(char jobz, char uplo, int n, R* a, int lda, R* w) {                              \
    return blas::query_then_run<blas::plain_vector, R, R>(                                         \
        [&](R* work, int lwork, R*, int, int* iwork, int liwork) {                                 \
          int info = 0;                                                                            \
          fortran::p##syevd_(&jobz, &uplo, &n, a, &lda, w, work, &lwork, iwork, &liwork, &info, 1, \
                             1);                                                                   \
          return info;                                                                             \
        },                                                                                         \
        exact_no_rwork<R, R>);                                                                     \
  }
TSEIG_SYEVD(s, float)
TSEIG_SYEVD(d, double)
#undef TSEIG_SYEVD

#define TSEIG_HEEVD(p, T, R)                                                                    \
  template <>                                                                                   \
  int heevd<T, R>(char jobz, char uplo, int n, T* a, int lda, R* w) {                           \
    return blas::query_then_run<blas::plain_vector, T, R>(                                      \
        [&](T* work, int lwork, R* rwork, int lrwork, int* iwork, int liwork) {                 \
          int info = 0;                                                                         \
          fortran::p##heevd_(&jobz, &uplo, &n, a, &lda, w, work, &lwork, rwork, &lrwork, iwork, \
                             &liwork, &info, 1, 1);                                             \
          return info;                                                                          \
        },                                                                                      \
        exact<T, R>);                                                                           \
  }
TSEIG_HEEVD(c, fortran::cf, float)
TSEIG_HEEVD(z, fortran::cd, double)
#undef TSEIG_HEEVD

#define TSEIG_SYGVD(p, R)                                                                        \
  template <>                                                                                    \
  int hegvd<R, R>(char jobz, char uplo, int n, R* a, int lda, R* b, int ldb, R* w) {             \
    const int itype = 1;                                                                         \
    return blas::query_then_run<blas::plain_vector, R, R>(                                       \
        [&](R* work, int lwork, R*, int, int* iwork, int liwork) {                               \
          int info = 0;                                                                          \
          fortran::p##sygvd_(&itype, &jobz, &uplo, &n, a, &lda, b, &ldb, w, work, &lwork, iwork, \
                             &liwork, &info, 1, 1);                                              \
          return info;                                                                           \
        },                                                                                       \
        exact_no_rwork<R, R>);                                                                   \
  }
TSEIG_SYGVD(s, float)
TSEIG_SYGVD(d, double)
#undef TSEIG_SYGVD

#define TSEIG_HEGVD(p, T, R)                                                                     \
  template <>                                                                                    \
  int hegvd<T, R>(char jobz, char uplo, int n, T* a, int lda, T* b, int ldb, R* w) {             \
    const int itype = 1;                                                                         \
    return blas::query_then_run<blas::plain_vector, T, R>(                                       \
        [&](T* work, int lwork, R* rwork, int lrwork, int* iwork, int liwork) {                  \
          int info = 0;                                                                          \
          fortran::p##hegvd_(&itype, &jobz, &uplo, &n, a, &lda, b, &ldb, w, work, &lwork, rwork, \
                             &lrwork, iwork, &liwork, &info, 1, 1);                              \
          return info;                                                                           \
        },                                                                                       \
        exact<T, R>);                                                                            \
  }
TSEIG_HEGVD(c, fortran::cf, float)
TSEIG_HEGVD(z, fortran::cd, double)
#undef TSEIG_HEGVD

}  // namespace lapack
}  // namespace tseig
