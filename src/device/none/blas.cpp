// Hooks for core/blas/cuda.hpp while no CUDA implementation is compiled in: every entry
// point exists and throws Error(unsupported) with the reason.
#include "core/blas/cuda.hpp"
#include "device/none/unsupported.hpp"

namespace tseig::cuda {

namespace blas {
#define TSEIG_CUDA_BLAS_HOOK(T)                                                                 \
  void gemm(Context&, char, char, int, int, int, T, const T*, int, const T*, int, T, T*, int) { \
    device::unsupported("cuda::blas::gemm");                                                    \
  }                                                                                             \
  void gemv(Context&, char, int, int, T, const T*, int, const T*, int, T, T*, int) {            \
    device::unsupported("cuda::blas::gemv");                                                    \
  }                                                                                             \
  void trmm(Context&, char, char, char, char, int, int, T, const T*, int, T*, int) {            \
    device::unsupported("cuda::blas::trmm");                                                    \
  }                                                                                             \
  void trsm(Context&, char, char, char, char, int, int, T, const T*, int, T*, int) {            \
    device::unsupported("cuda::blas::trsm");                                                    \
  }
TSEIG_CUDA_BLAS_HOOK(float)
TSEIG_CUDA_BLAS_HOOK(double)
TSEIG_CUDA_BLAS_HOOK(fortran::cf)
TSEIG_CUDA_BLAS_HOOK(fortran::cd)
#undef TSEIG_CUDA_BLAS_HOOK
}  // namespace blas

namespace lapack {
#define TSEIG_CUDA_LAPACK_HOOK(T)                                    \
  int potrf(Context&, char, int, T*, int) {                          \
    device::unsupported("cuda::lapack::potrf");                      \
  }                                                                  \
  int trtri(Context&, char, int, T*, int) {                          \
    device::unsupported("cuda::lapack::trtri");                      \
  }                                                                  \
  void larft(Context&, int, int, const T*, int, const T*, T*, int) { \
    device::unsupported("cuda::lapack::larft");                      \
  }
TSEIG_CUDA_LAPACK_HOOK(float)
TSEIG_CUDA_LAPACK_HOOK(double)
TSEIG_CUDA_LAPACK_HOOK(fortran::cf)
TSEIG_CUDA_LAPACK_HOOK(fortran::cd)
#undef TSEIG_CUDA_LAPACK_HOOK
}  // namespace lapack

}  // namespace tseig::cuda
