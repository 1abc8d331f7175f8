// Fortran bindings behind scalapack.hpp, with workspace queries done here once.
#include "core/blas/scalapack.hpp"

#include <vector>

#include "core/blas/fortran.hpp"
#include "core/blas/workspace.hpp"
#include "tseig/error.hpp"
#include "tseig/index_map.hpp"

namespace tseig::scalapack {

using fortran::cd;
using fortran::cf;
using fortran::flen;

extern "C" {
#define TSEIG_DECL(p, T, R)                                                                       \
  void p##gemr2d_(const int*, const int*, const T*, const int*, const int*, const int*, T*,       \
                  const int*, const int*, const int*, const int*);                                \
  void p##gemm_(const char*, const char*, const int*, const int*, const int*, const T*, const T*, \
                const int*, const int*, const int*, const T*, const int*, const int*, const int*, \
                const T*, T*, const int*, const int*, const int*, flen, flen);                    \
  R p##lange_(const char*, const int*, const int*, const T*, const int*, const int*, const int*,  \
              R*, flen);                                                                          \
  void p##geqrf_(const int*, const int*, T*, const int*, const int*, const int*, T*, T*,          \
                 const int*, int*);
TSEIG_DECL(ps, float, float)
TSEIG_DECL(pd, double, double)
TSEIG_DECL(pc, cf, float)
TSEIG_DECL(pz, cd, double)
#undef TSEIG_DECL
// Rank-k updates of one triangle: p?syrk (real), p?herk (complex, real alpha and beta).
#define TSEIG_RANK_K(name, T, R)                                                              \
  void name(const char*, const char*, const int*, const int*, const R*, const T*, const int*, \
            const int*, const int*, const R*, T*, const int*, const int*, const int*, flen, flen);
TSEIG_RANK_K(pssyrk_, float, float)
TSEIG_RANK_K(pdsyrk_, double, double)
TSEIG_RANK_K(pcherk_, cf, float)
TSEIG_RANK_K(pzherk_, cd, double)
#undef TSEIG_RANK_K
void pstran_(const int*, const int*, const float*, const float*, const int*, const int*, const int*,
             const float*, float*, const int*, const int*, const int*);
void pdtran_(const int*, const int*, const double*, const double*, const int*, const int*,
             const int*, const double*, double*, const int*, const int*, const int*);
void pctranc_(const int*, const int*, const cf*, const cf*, const int*, const int*, const int*,
              const cf*, cf*, const int*, const int*, const int*);
void pztranc_(const int*, const int*, const cd*, const cd*, const int*, const int*, const int*,
              const cd*, cd*, const int*, const int*, const int*);
void psorgqr_(const int*, const int*, const int*, float*, const int*, const int*, const int*,
              const float*, float*, const int*, int*);
void pdorgqr_(const int*, const int*, const int*, double*, const int*, const int*, const int*,
              const double*, double*, const int*, int*);
void pcungqr_(const int*, const int*, const int*, cf*, const int*, const int*, const int*,
              const cf*, cf*, const int*, int*);
void pzungqr_(const int*, const int*, const int*, cd*, const int*, const int*, const int*,
              const cd*, cd*, const int*, int*);
#define TSEIG_SYEVD(p, T)                                                                          \
  void p##syevd_(const char*, const char*, const int*, T*, const int*, const int*, const int*, T*, \
                 T*, const int*, const int*, const int*, T*, const int*, int*, const int*, int*,   \
                 flen, flen);                                                                      \
  void p##syevr_(const char*, const char*, const char*, const int*, T*, const int*, const int*,    \
                 const int*, const T*, const T*, const int*, const int*, int*, int*, T*, T*,       \
                 const int*, const int*, const int*, T*, const int*, int*, const int*, int*, flen, \
                 flen, flen);
TSEIG_SYEVD(ps, float)
TSEIG_SYEVD(pd, double)
#undef TSEIG_SYEVD
#define TSEIG_STEDC(p, R)                                                                     \
  void p##stedc_(const char*, const int*, R*, R*, R*, const int*, const int*, const int*, R*, \
                 const int*, int*, const int*, int*, flen);
TSEIG_STEDC(ps, float)
TSEIG_STEDC(pd, double)
#undef TSEIG_STEDC
#define TSEIG_HEEVD(p, T, R)                                                                       \
  void p##heevd_(const char*, const char*, const int*, T*, const int*, const int*, const int*, R*, \
                 T*, const int*, const int*, const int*, T*, const int*, R*, const int*, int*,     \
                 const int*, int*, flen, flen);                                                    \
  void p##heevr_(const char*, const char*, const char*, const int*, T*, const int*, const int*,    \
                 const int*, const R*, const R*, const int*, const int*, int*, int*, R*, T*,       \
                 const int*, const int*, const int*, T*, const int*, R*, const int*, int*,         \
                 const int*, int*, flen, flen, flen);
TSEIG_HEEVD(pc, cf, float)
TSEIG_HEEVD(pz, cd, double)
#undef TSEIG_HEEVD
}

namespace {
// Workspace sizes from a query, padded: some ScaLAPACK queries under-report.
template <class R>
int padded(R query) {
  return static_cast<int>(static_cast<double>(std::real(query)) * 1.1) + 1024;
}
// The queries of p?syevd/p?syevr under-report what their internal p?ormtr needs
// (e.g. when NB > N); add that routine's bound, ≤ (2N + 2NB)·NB, on top.
int ormtr_extra(int n, const int* desca) {
  return (2 * n + 2 * desca[5]) * desca[5];
}

// Likewise for the eigenvector sort p?lasrt inside p?syevd: it needs NP·(NB + NQ)
// (local rows·(block + local columns)) and N + 2·NB + 4·max(P, Q) integers.
int lasrt_extra(int n, const int* desca) {
  int nprow = 1, npcol = 1, myrow = 0, mycol = 0;
  Cblacs_gridinfo(desca[1], &nprow, &npcol, &myrow, &mycol);
  const int nb = desca[5];
  const int np = block_cyclic::local_count(n, nb, myrow, desca[6], nprow);
  const int nq = block_cyclic::local_count(n, nb, mycol, desca[7], npcol);
  return np * (nb + nq) + n;
}
int lasrt_iextra(int n, const int* desca) {
  return n + 2 * desca[5] + 4 * 64;
}

// query_then_run with std::vector arrays, the ScaLAPACK default. The arrays are had on
// every rank of the BLACS context or on none (Error(out_of_memory) everywhere): a rank
// without its workspace would leave the others waiting inside the routine.
template <class T, class R, class Call, class Size>
int run(int ctxt, Call&& call, Size&& size) {
  return blas::query_then_run<blas::plain_vector, T, R>(call, size, [ctxt](bool short_here) {
    int short_somewhere = short_here ? 1 : 0;
    Cigamx2d(ctxt, "All", " ", 1, 1, &short_somewhere, 1, nullptr, nullptr, -1, -1, -1);
    if (short_somewhere)
      throw Error(ErrorCode::out_of_memory, "ScaLAPACK workspace: out of memory on a rank");
  });
}
}  // namespace

#define TSEIG_COMMON(p, T, R, tran, rank_k)                                                        \
  template <>                                                                                      \
  void gemr2d<T>(int m, int n, const T* a, int ia, int ja, const int* desca, T* b, int ib, int jb, \
                 const int* descb, int ctxt) {                                                     \
    p##gemr2d_(&m, &n, a, &ia, &ja, desca, b, &ib, &jb, descb, &ctxt);                             \
  }                                                                                                \
  template <>                                                                                      \
  void pgemm<T>(char ta, char tb, int m, int n, int k, T alpha, const T* a, int ia, int ja,        \
                const int* desca, const T* b, int ib, int jb, const int* descb, T beta, T* c,      \
                int ic, int jc, const int* descc) {                                                \
    p##gemm_(&ta, &tb, &m, &n, &k, &alpha, a, &ia, &ja, desca, b, &ib, &jb, descb, &beta, c, &ic,  \
             &jc, descc, 1, 1);                                                                    \
  }                                                                                                \
  template <>                                                                                      \
  void pherk<T>(char uplo, char trans, int n, int k, R alpha, const T* a, int ia, int ja,          \
                const int* desca, R beta, T* c, int ic, int jc, const int* descc) {                \
    rank_k(&uplo, &trans, &n, &k, &alpha, a, &ia, &ja, desca, &beta, c, &ic, &jc, descc, 1, 1);    \
  }                                                                                                \
  template <>                                                                                      \
  void ptranc<T>(int m, int n, T alpha, const T* a, int ia, int ja, const int* desca, T beta,      \
                 T* c, int ic, int jc, const int* descc) {                                         \
    tran(&m, &n, &alpha, a, &ia, &ja, desca, &beta, c, &ic, &jc, descc);                           \
  }                                                                                                \
  template <>                                                                                      \
  R plange<T>(char norm, int m, int n, const T* a, int ia, int ja, const int* desca) {             \
    std::vector<R> work(static_cast<size_t>(m) + n + desca[4] + desca[5] + 16);                    \
    return p##lange_(&norm, &m, &n, a, &ia, &ja, desca, work.data(), 1);                           \
  }                                                                                                \
  template <>                                                                                      \
  int pgeqrf<T>(int m, int n, T* a, int ia, int ja, const int* desca, T* tau) {                    \
    return run<T, R>(                                                                              \
        desca[1],                                                                                  \
        [&](T* work, int lwork, R*, int, int*, int) {                                              \
          int info = 0;                                                                            \
          p##geqrf_(&m, &n, a, &ia, &ja, desca, tau, work, &lwork, &info);                         \
          return info;                                                                             \
        },                                                                                         \
        [](T work, R, int) {                                                                       \
          return blas::WorkSizes{padded(work), 0, 0};                                              \
        });                                                                                        \
  }
TSEIG_COMMON(ps, float, float, pstran_, pssyrk_)
TSEIG_COMMON(pd, double, double, pdtran_, pdsyrk_)
TSEIG_COMMON(pc, cf, float, pctranc_, pcherk_)
TSEIG_COMMON(pz, cd, double, pztranc_, pzherk_)
#undef TSEIG_COMMON

#define TSEIG_UNGQR(T, fn)                                                                   \
  template <>                                                                                \
  int pungqr<T>(int m, int n, int k, T* a, int ia, int ja, const int* desca, const T* tau) { \
    return run<T, real_t<T>>(                                                                \
        desca[1],                                                                            \
        [&](T* work, int lwork, real_t<T>*, int, int*, int) {                                \
          int info = 0;                                                                      \
          fn(&m, &n, &k, a, &ia, &ja, desca, tau, work, &lwork, &info);                      \
          return info;                                                                       \
        },                                                                                   \
        [](T work, real_t<T>, int) {                                                         \
          return blas::WorkSizes{padded(work), 0, 0};                                        \
        });                                                                                  \
  }
TSEIG_UNGQR(float, psorgqr_)
TSEIG_UNGQR(double, pdorgqr_)
TSEIG_UNGQR(cf, pcungqr_)
TSEIG_UNGQR(cd, pzungqr_)
#undef TSEIG_UNGQR

#define TSEIG_REAL_EIG(p, T)                                                                       \
  template <>                                                                                      \
  int pheevd<T>(char jobz, char uplo, int n, T* a, const int* desca, T* w, T* z,                   \
                const int* descz) {                                                                \
    const int one = 1;                                                                             \
    return run<T, T>(                                                                              \
        desca[1],                                                                                  \
        [&](T* work, int lwork, T*, int, int* iwork, int liwork) {                                 \
          int info = 0;                                                                            \
          p##syevd_(&jobz, &uplo, &n, a, &one, &one, desca, w, z, &one, &one, descz, work, &lwork, \
                    iwork, &liwork, &info, 1, 1);                                                  \
          return info;                                                                             \
        },                                                                                         \
        [&](T work, T, int iwork) {                                                                \
          return blas::WorkSizes{padded(work) + ormtr_extra(n, desca) + lasrt_extra(n, desca), 0,  \
                                 padded(iwork) + lasrt_iextra(n, desca)};                          \
        });                                                                                        \
  }                                                                                                \
  template <>                                                                                      \
  int pheevr<T>(char jobz, char range, char uplo, int n, T* a, const int* desca, int il, int iu,   \
                int& m, T* w, T* z, const int* descz) {                                            \
    const int one = 1;                                                                             \
    const T vl = 0, vu = 0;                                                                        \
    return run<T, T>(                                                                              \
        desca[1],                                                                                  \
        [&](T* work, int lwork, T*, int, int* iwork, int liwork) {                                 \
          int info = 0, nz = 0;                                                                    \
          p##syevr_(&jobz, &range, &uplo, &n, a, &one, &one, desca, &vl, &vu, &il, &iu, &m, &nz,   \
                    w, z, &one, &one, descz, work, &lwork, iwork, &liwork, &info, 1, 1, 1);        \
          return info;                                                                             \
        },                                                                                         \
        [&](T work, T, int iwork) {                                                                \
          return blas::WorkSizes{padded(work) + ormtr_extra(n, desca), 0, padded(iwork)};          \
        });                                                                                        \
  }
TSEIG_REAL_EIG(ps, float)
TSEIG_REAL_EIG(pd, double)
#undef TSEIG_REAL_EIG

#define TSEIG_PSTEDC(p, R)                                                                       \
  template <>                                                                                    \
  int pstedc<R>(int n, R* d, R* e, R* q, const int* descq) {                                     \
    const char compz = 'I';                                                                      \
    const int one = 1;                                                                           \
    return run<R, R>(                                                                            \
        descq[1],                                                                                \
        [&](R* work, int lwork, R*, int, int* iwork, int liwork) {                               \
          int info = 0;                                                                          \
          p##stedc_(&compz, &n, d, e, q, &one, &one, descq, work, &lwork, iwork, &liwork, &info, \
                    1);                                                                          \
          return info;                                                                           \
        },                                                                                       \
        [&](R work, R, int iwork) {                                                              \
          return blas::WorkSizes{padded(work) + lasrt_extra(n, descq), 0,                        \
                                 padded(iwork) + lasrt_iextra(n, descq)};                        \
        });                                                                                      \
  }
TSEIG_PSTEDC(ps, float)
TSEIG_PSTEDC(pd, double)
#undef TSEIG_PSTEDC

#define TSEIG_COMPLEX_EIG(p, T, R)                                                                 \
  template <>                                                                                      \
  int pheevd<T>(char jobz, char uplo, int n, T* a, const int* desca, R* w, T* z,                   \
                const int* descz) {                                                                \
    const int one = 1;                                                                             \
    return run<T, R>(                                                                              \
        desca[1],                                                                                  \
        [&](T* work, int lwork, R* rwork, int lrwork, int* iwork, int liwork) {                    \
          int info = 0;                                                                            \
          p##heevd_(&jobz, &uplo, &n, a, &one, &one, desca, w, z, &one, &one, descz, work, &lwork, \
                    rwork, &lrwork, iwork, &liwork, &info, 1, 1);                                  \
          return info;                                                                             \
        },                                                                                         \
        [&](T work, R rwork, int iwork) {                                                          \
          return blas::WorkSizes{padded(work) + ormtr_extra(n, desca) + lasrt_extra(n, desca),     \
                                 padded(rwork) + lasrt_extra(n, desca),                            \
                                 padded(iwork) + lasrt_iextra(n, desca)};                          \
        });                                                                                        \
  }                                                                                                \
  template <>                                                                                      \
  int pheevr<T>(char jobz, char range, char uplo, int n, T* a, const int* desca, int il, int iu,   \
                int& m, R* w, T* z, const int* descz) {                                            \
    const int one = 1;                                                                             \
    const R vl = 0, vu = 0;                                                                        \
    return run<T, R>(                                                                              \
        desca[1],                                                                                  \
        [&](T* work, int lwork, R* rwork, int lrwork, int* iwork, int liwork) {                    \
          int info = 0, nz = 0;                                                                    \
          p##heevr_(&jobz, &range, &uplo, &n, a, &one, &one, desca, &vl, &vu, &il, &iu, &m, &nz,   \
                    w, z, &one, &one, descz, work, &lwork, rwork, &lrwork, iwork, &liwork, &info,  \
                    1, 1, 1);                                                                      \
          return info;                                                                             \
        },                                                                                         \
        [&](T work, R rwork, int iwork) {                                                          \
          return blas::WorkSizes{padded(work) + ormtr_extra(n, desca), padded(rwork),              \
                                 padded(iwork)};                                                   \
        });                                                                                        \
  }
TSEIG_COMPLEX_EIG(pc, cf, float)
TSEIG_COMPLEX_EIG(pz, cd, double)
#undef TSEIG_COMPLEX_EIG

extern "C" {
#define TSEIG_GENERALIZED_DECL(p, gst, T, R)                                                   \
  void p##potrf_(const char*, const int*, T*, const int*, const int*, const int*, int*, flen); \
  void p##gst##_(const int*, const char*, const int*, T*, const int*, const int*, const int*,  \
                 const T*, const int*, const int*, const int*, R*, int*, flen);                \
  void p##trsm_(const char*, const char*, const char*, const char*, const int*, const int*,    \
                const T*, const T*, const int*, const int*, const int*, T*, const int*,        \
                const int*, const int*, flen, flen, flen, flen);
TSEIG_GENERALIZED_DECL(ps, sygst, float, float)
TSEIG_GENERALIZED_DECL(pd, sygst, double, double)
TSEIG_GENERALIZED_DECL(pc, hegst, cf, float)
TSEIG_GENERALIZED_DECL(pz, hegst, cd, double)
#undef TSEIG_GENERALIZED_DECL
}

#define TSEIG_GENERALIZED(p, gst, T, R)                                                            \
  template <>                                                                                      \
  int ppotrf<T>(char uplo, int n, T* a, int ia, int ja, const int* desca) {                        \
    int info = 0;                                                                                  \
    p##potrf_(&uplo, &n, a, &ia, &ja, desca, &info, 1);                                            \
    return info;                                                                                   \
  }                                                                                                \
  template <>                                                                                      \
  int psygst<T>(char uplo, int n, T* a, int ia, int ja, const int* desca, const T* b, int ib,      \
                int jb, const int* descb, R& scale) {                                              \
    int ibtype = 1, info = 0;                                                                      \
    p##gst##_(&ibtype, &uplo, &n, a, &ia, &ja, desca, b, &ib, &jb, descb, &scale, &info, 1);       \
    return info;                                                                                   \
  }                                                                                                \
  template <>                                                                                      \
  void ptrsm<T>(char side, char uplo, char transa, char diag, int m, int n, T alpha, const T* a,   \
                int ia, int ja, const int* desca, T* b, int ib, int jb, const int* descb) {        \
    p##trsm_(&side, &uplo, &transa, &diag, &m, &n, &alpha, a, &ia, &ja, desca, b, &ib, &jb, descb, \
             1, 1, 1, 1);                                                                          \
  }
TSEIG_GENERALIZED(ps, sygst, float, float)
TSEIG_GENERALIZED(pd, sygst, double, double)
TSEIG_GENERALIZED(pc, hegst, cf, float)
TSEIG_GENERALIZED(pz, hegst, cd, double)
#undef TSEIG_GENERALIZED

}  // namespace tseig::scalapack
