// Workspace-querying wrappers behind lapack.hpp.
#include "core/lapack.hpp"

#include "core/buffer_cache.hpp"

#include <algorithm>
#include <vector>

namespace tseig::lapack {

namespace {
template <class R>
int work_size(R query) {
  return std::max(1, static_cast<int>(std::real(query)));
}
}  // namespace

#define TSEIG_STEDC(p, R)                                                                       \
  template <>                                                                                   \
  int stedc<R>(char compz, int n, R* d, R* e, R* z, int ldz) {                                  \
    int info = 0, lwork = -1, liwork = -1, iquery = 0;                                          \
    R query = 0;                                                                                \
    p##stedc_(&compz, &n, d, e, z, &ldz, &query, &lwork, &iquery, &liwork, &info, 1);           \
    lwork = work_size(query);                                                                   \
    liwork = std::max(1, iquery);                                                               \
    cached_vector<R> work(lwork);                                                               \
    cached_vector<int> iwork(liwork);                                                           \
    p##stedc_(&compz, &n, d, e, z, &ldz, work.data(), &lwork, iwork.data(), &liwork, &info, 1); \
    return info;                                                                                \
  }
TSEIG_STEDC(s, float)
TSEIG_STEDC(d, double)
#undef TSEIG_STEDC

#define TSEIG_SYEVD(p, R)                                                                         \
  template <>                                                                                     \
  int heevd<R, R>(char jobz, char uplo, int n, R* a, int lda, R* w) {                             \
    int info = 0, lwork = -1, liwork = -1, iquery = 0;                                            \
    R query = 0;                                                                                  \
    p##syevd_(&jobz, &uplo, &n, a, &lda, w, &query, &lwork, &iquery, &liwork, &info, 1, 1);       \
    lwork = work_size(query);                                                                     \
    liwork = std::max(1, iquery);                                                                 \
    std::vector<R> work(lwork);                                                                   \
    std::vector<int> iwork(liwork);                                                               \
    p##syevd_(&jobz, &uplo, &n, a, &lda, w, work.data(), &lwork, iwork.data(), &liwork, &info, 1, \
              1);                                                                                 \
    return info;                                                                                  \
  }
TSEIG_SYEVD(s, float)
TSEIG_SYEVD(d, double)
#undef TSEIG_SYEVD

#define TSEIG_HEEVD(p, T, R)                                                                    \
  template <>                                                                                   \
  int heevd<T, R>(char jobz, char uplo, int n, T* a, int lda, R* w) {                           \
    int info = 0, lwork = -1, lrwork = -1, liwork = -1, iquery = 0;                             \
    T query{};                                                                                  \
    R rquery = 0;                                                                               \
    p##heevd_(&jobz, &uplo, &n, a, &lda, w, &query, &lwork, &rquery, &lrwork, &iquery, &liwork, \
              &info, 1, 1);                                                                     \
    lwork = work_size(query);                                                                   \
    lrwork = work_size(rquery);                                                                 \
    liwork = std::max(1, iquery);                                                               \
    std::vector<T> work(lwork);                                                                 \
    std::vector<R> rwork(lrwork);                                                               \
    std::vector<int> iwork(liwork);                                                             \
    p##heevd_(&jobz, &uplo, &n, a, &lda, w, work.data(), &lwork, rwork.data(), &lrwork,         \
              iwork.data(), &liwork, &info, 1, 1);                                              \
    return info;                                                                                \
  }
TSEIG_HEEVD(c, cf, float)
TSEIG_HEEVD(z, cd, double)
#undef TSEIG_HEEVD

}  // namespace tseig::lapack
