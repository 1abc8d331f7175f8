// core/blas/cuda.hpp on cuBLAS and cuSOLVER: LAPACK's character arguments and info
// conventions, every status checked, all work queued on ctx.stream. std::complex<T> and
// cuComplex/cuDoubleComplex share their layout, so pointers are reinterpret_cast.
#include <cuComplex.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "core/blas/cuda.hpp"
#include "device/cuda/libraries.hpp"
#include "device/runtime.hpp"
#include "tseig/device.hpp"
#include "tseig/error.hpp"

namespace tseig::cuda {
namespace {

using fortran::cd;
using fortran::cf;

// ---- statuses -------------------------------------------------------------------------

void check(cudaError_t err, const char* what) {
  if (err == cudaSuccess) return;
  cudaGetLastError();  // clear a non-sticky error so the next call starts clean
  throw Error(
      err == cudaErrorMemoryAllocation ? ErrorCode::out_of_memory : ErrorCode::device_error,
      std::string(what) + ": " + cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + ")");
}

void check(cublasStatus_t st, const char* what) {
  if (st == CUBLAS_STATUS_SUCCESS) return;
  throw Error(st == CUBLAS_STATUS_ALLOC_FAILED ? ErrorCode::out_of_memory : ErrorCode::device_error,
              std::string(what) + ": " + cublas().cublasGetStatusName(st) + " (" +
                  cublas().cublasGetStatusString(st) + ")");
}

// cuSOLVER has no status-to-string function.
const char* name(cusolverStatus_t st) {
  switch (st) {
    case CUSOLVER_STATUS_NOT_INITIALIZED:
      return "CUSOLVER_STATUS_NOT_INITIALIZED";
    case CUSOLVER_STATUS_ALLOC_FAILED:
      return "CUSOLVER_STATUS_ALLOC_FAILED";
    case CUSOLVER_STATUS_INVALID_VALUE:
      return "CUSOLVER_STATUS_INVALID_VALUE";
    case CUSOLVER_STATUS_ARCH_MISMATCH:
      return "CUSOLVER_STATUS_ARCH_MISMATCH";
    case CUSOLVER_STATUS_MAPPING_ERROR:
      return "CUSOLVER_STATUS_MAPPING_ERROR";
    case CUSOLVER_STATUS_EXECUTION_FAILED:
      return "CUSOLVER_STATUS_EXECUTION_FAILED";
    case CUSOLVER_STATUS_INTERNAL_ERROR:
      return "CUSOLVER_STATUS_INTERNAL_ERROR";
    case CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED:
      return "CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED";
    case CUSOLVER_STATUS_NOT_SUPPORTED:
      return "CUSOLVER_STATUS_NOT_SUPPORTED";
    case CUSOLVER_STATUS_ZERO_PIVOT:
      return "CUSOLVER_STATUS_ZERO_PIVOT";
    case CUSOLVER_STATUS_INVALID_LICENSE:
      return "CUSOLVER_STATUS_INVALID_LICENSE";
    case CUSOLVER_STATUS_INVALID_WORKSPACE:
      return "CUSOLVER_STATUS_INVALID_WORKSPACE";
    default:
      return "cusolverStatus_t";
  }
}

void check(cusolverStatus_t st, const char* what) {
  if (st == CUSOLVER_STATUS_SUCCESS) return;
  throw Error(
      st == CUSOLVER_STATUS_ALLOC_FAILED ? ErrorCode::out_of_memory : ErrorCode::device_error,
      std::string(what) + ": " + name(st) + " (" + std::to_string(static_cast<int>(st)) + ")");
}

// A Context that device::context did not fill (a default-constructed one) has no
// handles: the request cannot be served, and gpu::status() tells whether a GPU exists.
[[noreturn]] void no_context(const char* what) {
  throw Error(
      ErrorCode::unsupported,
      std::string(what) + ": no device context (device::context gives one; " + gpu::status() + ")");
}

cublasHandle_t blas_handle(Context& ctx, const char* what) {
  if (ctx.blas == nullptr) no_context(what);
  return ctx.blas;
}

cusolverDnHandle_t solver_handle(Context& ctx, const char* what) {
  if (ctx.solver == nullptr) no_context(what);
  return ctx.solver;
}

// ---- LAPACK characters ------------------------------------------------------------------

[[noreturn]] void bad_char(const char* what, const char* arg, char c) {
  throw Error(ErrorCode::invalid_argument,
              std::string(what) + ": " + arg + " = '" + std::string(1, c) + "' is not valid");
}

cublasOperation_t op(char c, const char* what) {
  switch (c) {
    case 'N':
    case 'n':
      return CUBLAS_OP_N;
    case 'T':
    case 't':
      return CUBLAS_OP_T;
    case 'C':
    case 'c':
      return CUBLAS_OP_C;  // cuBLAS treats it as T for real types
    default:
      bad_char(what, "trans", c);
  }
}

cublasSideMode_t side_mode(char c, const char* what) {
  if (c == 'L' || c == 'l') return CUBLAS_SIDE_LEFT;
  if (c == 'R' || c == 'r') return CUBLAS_SIDE_RIGHT;
  bad_char(what, "side", c);
}

cublasFillMode_t fill_mode(char c, const char* what) {
  if (c == 'U' || c == 'u') return CUBLAS_FILL_MODE_UPPER;
  if (c == 'L' || c == 'l') return CUBLAS_FILL_MODE_LOWER;
  bad_char(what, "uplo", c);
}

cublasDiagType_t diag_type(char c, const char* what) {
  if (c == 'N' || c == 'n') return CUBLAS_DIAG_NON_UNIT;
  if (c == 'U' || c == 'u') return CUBLAS_DIAG_UNIT;
  bad_char(what, "diag", c);
}

// ---- types --------------------------------------------------------------------------------

template <class T>
struct Cu {
  using type = T;
};
template <>
struct Cu<cf> {
  using type = cuComplex;
};
template <>
struct Cu<cd> {
  using type = cuDoubleComplex;
};
template <class T>
using cu_t = typename Cu<T>::type;

template <class T>
cu_t<T>* cu(T* p) {
  return reinterpret_cast<cu_t<T>*>(p);
}
template <class T>
const cu_t<T>* cu(const T* p) {
  return reinterpret_cast<const cu_t<T>*>(p);
}

template <class C>
constexpr cudaDataType data_type();
template <>
constexpr cudaDataType data_type<float>() {
  return CUDA_R_32F;
}
template <>
constexpr cudaDataType data_type<double>() {
  return CUDA_R_64F;
}
template <>
constexpr cudaDataType data_type<cuComplex>() {
  return CUDA_C_32F;
}
template <>
constexpr cudaDataType data_type<cuDoubleComplex>() {
  return CUDA_C_64F;
}

// ---- the per-type cuBLAS / cuSOLVER entry points, overloaded on the CUDA type ---------------

#define TSEIG_CU_OVERLOADS(C, x)                                                                   \
  cublasStatus_t xgemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, \
                       int k, const C* alpha, const C* a, int lda, const C* b, int ldb,            \
                       const C* beta, C* c, int ldc) {                                             \
    return cublas().cublas##x##gemm(h, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);      \
  }                                                                                                \
  cublasStatus_t xgemv(cublasHandle_t h, cublasOperation_t t, int m, int n, const C* alpha,        \
                       const C* a, int lda, const C* x_, int incx, const C* beta, C* y,            \
                       int incy) {                                                                 \
    return cublas().cublas##x##gemv(h, t, m, n, alpha, a, lda, x_, incx, beta, y, incy);           \
  }                                                                                                \
  cublasStatus_t xtrmm(cublasHandle_t h, cublasSideMode_t s, cublasFillMode_t u,                   \
                       cublasOperation_t t, cublasDiagType_t d, int m, int n, const C* alpha,      \
                       const C* a, int lda, C* b, int ldb) {                                       \
    return cublas().cublas##x##trmm(h, s, u, t, d, m, n, alpha, a, lda, b, ldb, b, ldb);           \
  }                                                                                                \
  cublasStatus_t xtrsm(cublasHandle_t h, cublasSideMode_t s, cublasFillMode_t u,                   \
                       cublasOperation_t t, cublasDiagType_t d, int m, int n, const C* alpha,      \
                       const C* a, int lda, C* b, int ldb) {                                       \
    return cublas().cublas##x##trsm(h, s, u, t, d, m, n, alpha, a, lda, b, ldb);                   \
  }                                                                                                \
  cublasStatus_t xtrmv(cublasHandle_t h, int n, const C* a, int lda, C* x_) {                      \
    return cublas().cublas##x##trmv(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT,  \
                                    n, a, lda, x_, 1);                                             \
  }                                                                                                \
  cublasStatus_t xscal(cublasHandle_t h, int n, const C* alpha, C* x_) {                           \
    return cublas().cublas##x##scal(h, n, alpha, x_, 1);                                           \
  }                                                                                                \
  cublasStatus_t xcopy(cublasHandle_t h, int n, const C* x_, int incx, C* y, int incy) {           \
    return cublas().cublas##x##copy(h, n, x_, incx, y, incy);                                      \
  }                                                                                                \
  cusolverStatus_t xpotrf_buffer(cusolverDnHandle_t h, cublasFillMode_t u, int n, C* a, int lda,   \
                                 int* lwork) {                                                     \
    return cusolver().cusolverDn##x##potrf_bufferSize(h, u, n, a, lda, lwork);                     \
  }                                                                                                \
  cusolverStatus_t xpotrf(cusolverDnHandle_t h, cublasFillMode_t u, int n, C* a, int lda, C* work, \
                          int lwork, int* info) {                                                  \
    return cusolver().cusolverDn##x##potrf(h, u, n, a, lda, work, lwork, info);                    \
  }
TSEIG_CU_OVERLOADS(float, S)
TSEIG_CU_OVERLOADS(double, D)
TSEIG_CU_OVERLOADS(cuComplex, C)
TSEIG_CU_OVERLOADS(cuDoubleComplex, Z)
#undef TSEIG_CU_OVERLOADS

// C(upper) = -A^H A (A n×k): syrk for real types, herk (real scalars) for complex ones.
cublasStatus_t minus_gram_upper(cublasHandle_t h, int k, int n, const float* a, int lda, float* c,
                                int ldc) {
  const float minus_one = -1, zero = 0;
  return cublas().cublasSsyrk(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T, k, n, &minus_one, a, lda,
                              &zero, c, ldc);
}
cublasStatus_t minus_gram_upper(cublasHandle_t h, int k, int n, const double* a, int lda, double* c,
                                int ldc) {
  const double minus_one = -1, zero = 0;
  return cublas().cublasDsyrk(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T, k, n, &minus_one, a, lda,
                              &zero, c, ldc);
}
cublasStatus_t minus_gram_upper(cublasHandle_t h, int k, int n, const cuComplex* a, int lda,
                                cuComplex* c, int ldc) {
  const float minus_one = -1, zero = 0;
  return cublas().cublasCherk(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_C, k, n, &minus_one, a, lda,
                              &zero, c, ldc);
}
cublasStatus_t minus_gram_upper(cublasHandle_t h, int k, int n, const cuDoubleComplex* a, int lda,
                                cuDoubleComplex* c, int ldc) {
  const double minus_one = -1, zero = 0;
  return cublas().cublasZherk(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_C, k, n, &minus_one, a, lda,
                              &zero, c, ldc);
}

// ---- kernels ------------------------------------------------------------------------------

__device__ inline void assign(float& x, float v) {
  x = v;
}
__device__ inline void assign(double& x, double v) {
  x = v;
}
__device__ inline void assign(cuComplex& x, float v) {
  x = make_cuComplex(v, 0);
}
__device__ inline void assign(cuDoubleComplex& x, double v) {
  x = make_cuDoubleComplex(v, 0);
}

// w (n×k, leading dimension n) = V with its implicit structure made explicit: zeros
// above the diagonal and ones on it (what LAPACK leaves unreferenced there may be
// anything, e.g. R of a QR factorization).
template <class C>
__global__ void unit_lower_copy(int n, int k, const C* v, int ldv, C* w) {
  const std::size_t total = static_cast<std::size_t>(n) * k;
  for (std::size_t e = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; e < total;
       e += std::size_t{gridDim.x} * blockDim.x) {
    const int r = static_cast<int>(e % n), c = static_cast<int>(e / n);
    if (r > c)
      w[e] = v[r + static_cast<std::size_t>(c) * ldv];
    else
      assign(w[e], r == c ? 1 : 0);
  }
}

// Scalars read from device memory for the span of one scope (cuBLAS's mode is a
// property of the shared handle, so the previous mode is restored).
class DevicePointerMode {
 public:
  explicit DevicePointerMode(cublasHandle_t h) : h_(h) {
    check(cublas().cublasGetPointerMode(h_, &old_), "cuda::lapack::larft: cublasGetPointerMode");
    check(cublas().cublasSetPointerMode(h_, CUBLAS_POINTER_MODE_DEVICE),
          "cuda::lapack::larft: cublasSetPointerMode");
  }
  ~DevicePointerMode() { cublas().cublasSetPointerMode(h_, old_); }
  DevicePointerMode(const DevicePointerMode&) = delete;
  DevicePointerMode& operator=(const DevicePointerMode&) = delete;

 private:
  cublasHandle_t h_;
  cublasPointerMode_t old_ = CUBLAS_POINTER_MODE_HOST;
};

// ---- implementations ----------------------------------------------------------------------

template <class T>
void gemm_(Context& ctx, char ta, char tb, int m, int n, int k, T alpha, const T* a, int lda,
           const T* b, int ldb, T beta, T* c, int ldc) {
  const char* what = "cuda::blas::gemm";
  cublasHandle_t h = blas_handle(ctx, what);
  const cublasOperation_t opa = op(ta, what), opb = op(tb, what);
  if (m == 0 || n == 0) return;
  check(xgemm(h, opa, opb, m, n, k, cu(&alpha), cu(a), lda, cu(b), ldb, cu(&beta), cu(c), ldc),
        what);
}

template <class T>
void gemv_(Context& ctx, char t, int m, int n, T alpha, const T* a, int lda, const T* x, int incx,
           T beta, T* y, int incy) {
  const char* what = "cuda::blas::gemv";
  cublasHandle_t h = blas_handle(ctx, what);
  const cublasOperation_t opa = op(t, what);
  if (m == 0 || n == 0) return;
  check(xgemv(h, opa, m, n, cu(&alpha), cu(a), lda, cu(x), incx, cu(&beta), cu(y), incy), what);
}

// trmm and trsm: the same arguments, `call` one of xtrmm / xtrsm.
template <class T, class Call>
void triangular_(const char* what, Call call, Context& ctx, char side, char uplo, char ta,
                 char diag, int m, int n, T alpha, const T* a, int lda, T* b, int ldb) {
  cublasHandle_t h = blas_handle(ctx, what);
  const auto s = side_mode(side, what);
  const auto u = fill_mode(uplo, what);
  const auto t = op(ta, what);
  const auto d = diag_type(diag, what);
  if (m == 0 || n == 0) return;
  check(call(h, s, u, t, d, m, n, cu(&alpha), cu(a), lda, cu(b), ldb), what);
}

template <class T>
void trmm_(Context& ctx, char side, char uplo, char ta, char diag, int m, int n, T alpha,
           const T* a, int lda, T* b, int ldb) {
  auto call = [](auto... args) { return xtrmm(args...); };
  triangular_("cuda::blas::trmm", call, ctx, side, uplo, ta, diag, m, n, alpha, a, lda, b, ldb);
}

template <class T>
void trsm_(Context& ctx, char side, char uplo, char ta, char diag, int m, int n, T alpha,
           const T* a, int lda, T* b, int ldb) {
  auto call = [](auto... args) { return xtrsm(args...); };
  triangular_("cuda::blas::trsm", call, ctx, side, uplo, ta, diag, m, n, alpha, a, lda, b, ldb);
}

// devInfo, read back once the factorization has run (to_host synchronizes the stream).
int read_info(Context& ctx, const int* dev_info) {
  int info = 0;
  device::to_host(ctx, &info, dev_info, sizeof info);
  return info;
}

template <class T>
int potrf_(Context& ctx, char uplo, int n, T* a, int lda) {
  const char* what = "cuda::lapack::potrf";
  cusolverDnHandle_t h = solver_handle(ctx, what);
  const auto u = fill_mode(uplo, what);
  if (n == 0) return 0;
  int lwork = 0;
  check(xpotrf_buffer(h, u, n, cu(a), lda, &lwork), what);
  // Cached blocks: work queued on the one stream uses them in order, so releasing one
  // while the stream still runs is safe for the next request.
  device::Array<cu_t<T>> work(static_cast<std::size_t>(std::max(lwork, 1)));
  device::Array<int> info(1);
  check(xpotrf(h, u, n, cu(a), lda, work.data(), lwork, info.data()), what);
  return read_info(ctx, info.data());
}

template <class T>
int trtri_(Context& ctx, char uplo, int n, T* a, int lda) {
  const char* what = "cuda::lapack::trtri";
  cusolverDnHandle_t h = solver_handle(ctx, what);
  const auto u = fill_mode(uplo, what);
  if (n == 0) return 0;
  const cudaDataType type = data_type<cu_t<T>>();
  std::size_t device_bytes = 0, host_bytes = 0;
  check(cusolver().cusolverDnXtrtri_bufferSize(h, u, CUBLAS_DIAG_NON_UNIT, n, type, a, lda,
                                               &device_bytes, &host_bytes),
        what);
  device::Array<unsigned char> device_work(std::max<std::size_t>(device_bytes, 1));
  std::vector<unsigned char> host_work(std::max<std::size_t>(host_bytes, 1));
  device::Array<int> info(1);
  check(cusolver().cusolverDnXtrtri(h, u, CUBLAS_DIAG_NON_UNIT, n, type, a, lda, device_work.data(),
                                    device_bytes, host_work.data(), host_bytes, info.data()),
        what);
  return read_info(ctx, info.data());  // host_work lives until the stream has finished
}

// T (k×k upper triangular) of H = I - V T V^H, V unit lower n×k (LAPACK larft 'F', 'C'):
// with S = V^H V, column i of T is -tau_i T(0:i,0:i) S(0:i,i). S comes from one syrk/herk
// on an explicit copy of V; each column then costs a trmv and a scal by tau_i (read on
// the device). T's strictly lower part is not written.
template <class T>
void larft_(Context& ctx, int n, int k, const T* v, int ldv, const T* tau, T* t, int ldt) {
  const char* what = "cuda::lapack::larft";
  cublasHandle_t h = blas_handle(ctx, what);
  if (n < 0 || k < 0 || ldv < std::max(1, n) || ldt < std::max(1, k))
    throw Error(ErrorCode::invalid_argument,
                std::string(what) + ": n = " + std::to_string(n) + ", k = " + std::to_string(k) +
                    ", ldv = " + std::to_string(ldv) + ", ldt = " + std::to_string(ldt));
  if (n == 0 || k == 0) return;
  using C = cu_t<T>;
  device::Array<C> w(static_cast<std::size_t>(n) * k);
  const std::size_t total = static_cast<std::size_t>(n) * k;
  const int threads = 256;
  const int blocks = static_cast<int>(std::min<std::size_t>((total + threads - 1) / threads, 4096));
  unit_lower_copy<<<blocks, threads, 0, ctx.stream>>>(n, k, cu(v), ldv, w.data());
  check(cudaGetLastError(), what);
  check(minus_gram_upper(h, k, n, w.data(), n, cu(t), ldt), what);
  check(xcopy(h, k, cu(tau), 1, cu(t), ldt + 1), what);  // the diagonal
  DevicePointerMode device_scalars(h);
  for (int i = 1; i < k; ++i) {
    C* col = cu(t) + static_cast<std::size_t>(i) * ldt;
    check(xtrmv(h, i, cu(t), ldt, col), what);
    check(xscal(h, i, cu(tau) + i, col), what);
  }
}

}  // namespace

namespace blas {
#define TSEIG_CUDA_BLAS_DEF(T)                                                                 \
  void gemm(Context& ctx, char ta, char tb, int m, int n, int k, T alpha, const T* a, int lda, \
            const T* b, int ldb, T beta, T* c, int ldc) {                                      \
    gemm_(ctx, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);                          \
  }                                                                                            \
  void gemv(Context& ctx, char t, int m, int n, T alpha, const T* a, int lda, const T* x,      \
            int incx, T beta, T* y, int incy) {                                                \
    gemv_(ctx, t, m, n, alpha, a, lda, x, incx, beta, y, incy);                                \
  }                                                                                            \
  void trmm(Context& ctx, char side, char uplo, char ta, char diag, int m, int n, T alpha,     \
            const T* a, int lda, T* b, int ldb) {                                              \
    trmm_(ctx, side, uplo, ta, diag, m, n, alpha, a, lda, b, ldb);                             \
  }                                                                                            \
  void trsm(Context& ctx, char side, char uplo, char ta, char diag, int m, int n, T alpha,     \
            const T* a, int lda, T* b, int ldb) {                                              \
    trsm_(ctx, side, uplo, ta, diag, m, n, alpha, a, lda, b, ldb);                             \
  }
TSEIG_CUDA_BLAS_DEF(float)
TSEIG_CUDA_BLAS_DEF(double)
TSEIG_CUDA_BLAS_DEF(fortran::cf)
TSEIG_CUDA_BLAS_DEF(fortran::cd)
#undef TSEIG_CUDA_BLAS_DEF
}  // namespace blas

namespace lapack {
#define TSEIG_CUDA_LAPACK_DEF(T)                                                             \
  int potrf(Context& ctx, char uplo, int n, T* a, int lda) {                                 \
    return potrf_(ctx, uplo, n, a, lda);                                                     \
  }                                                                                          \
  int trtri(Context& ctx, char uplo, int n, T* a, int lda) {                                 \
    return trtri_(ctx, uplo, n, a, lda);                                                     \
  }                                                                                          \
  void larft(Context& ctx, int n, int k, const T* v, int ldv, const T* tau, T* t, int ldt) { \
    larft_(ctx, n, k, v, ldv, tau, t, ldt);                                                  \
  }
TSEIG_CUDA_LAPACK_DEF(float)
TSEIG_CUDA_LAPACK_DEF(double)
TSEIG_CUDA_LAPACK_DEF(fortran::cf)
TSEIG_CUDA_LAPACK_DEF(fortran::cd)
#undef TSEIG_CUDA_LAPACK_DEF
}  // namespace lapack

}  // namespace tseig::cuda
