#pragma once
// cuBLAS and cuSOLVER, loaded on first use (dlopen) instead of linked: a process that
// links libtseig with the CUDA backend but never makes a device context does not pay their
// load time (0.4–0.5 s per process start on the development VM), and libtseig starts on
// nodes that have no CUDA libraries at all. Each entry point tseig calls is a member
// named and typed as its C declaration (cublas_v2.h's macros apply to both: cublasDgemm
// is cublasDgemm_v2), so a call site reads `cublas().cublasDgemm(...)` and the compiler
// checks every argument against the header.
#include <cublas_v2.h>
#include <cusolverDn.h>

namespace tseig::cuda {

// clang-format off
#define TSEIG_CUBLAS_TYPED(X, t)                                                     \
  X(cublas##t##gemm) X(cublas##t##gemv) X(cublas##t##trmm) X(cublas##t##trsm)        \
  X(cublas##t##trmv) X(cublas##t##scal) X(cublas##t##copy)
#define TSEIG_CUBLAS_ENTRY_POINTS(X)                                                 \
  X(cublasCreate) X(cublasDestroy) X(cublasSetStream)                                \
  X(cublasGetPointerMode) X(cublasSetPointerMode)                                    \
  X(cublasGetStatusName) X(cublasGetStatusString)                                    \
  X(cublasSsyrk) X(cublasDsyrk) X(cublasCherk) X(cublasZherk)                        \
  TSEIG_CUBLAS_TYPED(X, S) TSEIG_CUBLAS_TYPED(X, D)                                  \
  TSEIG_CUBLAS_TYPED(X, C) TSEIG_CUBLAS_TYPED(X, Z)
#define TSEIG_CUSOLVER_TYPED(X, t)                                                   \
  X(cusolverDn##t##potrf_bufferSize) X(cusolverDn##t##potrf)
#define TSEIG_CUSOLVER_ENTRY_POINTS(X)                                               \
  X(cusolverDnCreate) X(cusolverDnDestroy) X(cusolverDnSetStream)                    \
  X(cusolverDnXtrtri_bufferSize) X(cusolverDnXtrtri)                                 \
  TSEIG_CUSOLVER_TYPED(X, S) TSEIG_CUSOLVER_TYPED(X, D)                              \
  TSEIG_CUSOLVER_TYPED(X, C) TSEIG_CUSOLVER_TYPED(X, Z)
// clang-format on

// Each entry point's exported name: the argument is expanded before it reaches #, so
// cublasDgemm is "cublasDgemm_v2" (the legacy cuBLAS API exports a "cublasDgemm" with
// another signature).
#define TSEIG_ENTRY_POINT_NAME(f) #f
#define TSEIG_ENTRY_POINT_MEMBER(f) decltype(&::f) f = nullptr;
#define TSEIG_ENTRY_POINT_VISIT(f) visit(TSEIG_ENTRY_POINT_NAME(f), f);
/// for_each(visit): visit(exported name, member) for every entry point.
struct Cublas {
  TSEIG_CUBLAS_ENTRY_POINTS(TSEIG_ENTRY_POINT_MEMBER)
  template <class Visit>
  void for_each(Visit&& visit) {
    TSEIG_CUBLAS_ENTRY_POINTS(TSEIG_ENTRY_POINT_VISIT)
  }
};
struct Cusolver {
  TSEIG_CUSOLVER_ENTRY_POINTS(TSEIG_ENTRY_POINT_MEMBER)
  template <class Visit>
  void for_each(Visit&& visit) {
    TSEIG_CUSOLVER_ENTRY_POINTS(TSEIG_ENTRY_POINT_VISIT)
  }
};
#undef TSEIG_ENTRY_POINT_NAME
#undef TSEIG_ENTRY_POINT_MEMBER
#undef TSEIG_ENTRY_POINT_VISIT

/// The library, loaded on the first call (once per process, thread-safe), every entry point
/// resolved. Where it cannot be loaded or lacks one: Error(device_error) naming the library,
/// where it was looked for and the loader's message, on this and every later call.
const Cublas& cublas();
const Cusolver& cusolver();

/// What cublas() and cusolver() do, from another soname and path, uncached (tests).
Cublas load_cublas(const char* soname, const char* path);
Cusolver load_cusolver(const char* soname, const char* path);

}  // namespace tseig::cuda
