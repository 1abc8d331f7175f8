#pragma once
// The CUDA binding layer: the signatures of host.hpp's BLAS and LAPACK overloads with a
// device Context first, pointers into device memory. The CUDA backend defines them on
// cuBLAS/cuSOLVER; until then, and in builds without CUDA, device/none/ defines them
// as hooks that throw Error(unsupported) with tseig::gpu::status()'s reason.
#include "core/blas/fortran.hpp"

// The library handle and stream types of cuBLAS, cuSOLVER and the CUDA runtime, named
// as they declare them, so this header needs no CUDA include.
struct cublasContext;
struct cusolverDnContext;
struct CUstream_st;

namespace tseig::cuda {

/// What every device call runs on: the library handles bound to one stream.
struct Context {
  cublasContext* blas = nullptr;
  cusolverDnContext* solver = nullptr;
  CUstream_st* stream = nullptr;
};

namespace blas {
#define TSEIG_CUDA_BLAS_DECL(T)                                                                \
  void gemm(Context& ctx, char ta, char tb, int m, int n, int k, T alpha, const T* a, int lda, \
            const T* b, int ldb, T beta, T* c, int ldc);                                       \
  void gemv(Context& ctx, char t, int m, int n, T alpha, const T* a, int lda, const T* x,      \
            int incx, T beta, T* y, int incy);                                                 \
  void trmm(Context& ctx, char side, char uplo, char ta, char diag, int m, int n, T alpha,     \
            const T* a, int lda, T* b, int ldb);                                               \
  void trsm(Context& ctx, char side, char uplo, char ta, char diag, int m, int n, T alpha,     \
            const T* a, int lda, T* b, int ldb);
TSEIG_CUDA_BLAS_DECL(float)
TSEIG_CUDA_BLAS_DECL(double)
TSEIG_CUDA_BLAS_DECL(fortran::cf)
TSEIG_CUDA_BLAS_DECL(fortran::cd)
#undef TSEIG_CUDA_BLAS_DECL
}  // namespace blas

namespace lapack {
#define TSEIG_CUDA_LAPACK_DECL(T)                           \
  int potrf(Context& ctx, char uplo, int n, T* a, int lda); \
  int trtri(Context& ctx, char uplo, int n, T* a, int lda); \
  void larft(Context& ctx, int n, int k, const T* v, int ldv, const T* tau, T* t, int ldt);
TSEIG_CUDA_LAPACK_DECL(float)
TSEIG_CUDA_LAPACK_DECL(double)
TSEIG_CUDA_LAPACK_DECL(fortran::cf)
TSEIG_CUDA_LAPACK_DECL(fortran::cd)
#undef TSEIG_CUDA_LAPACK_DECL
}  // namespace lapack

}  // namespace tseig::cuda
