// cuSOLVER's 64-bit eigensolver API on one GPU (see cusolver_eig.hpp). Every CUDA and
// cuSOLVER status is checked; a failure comes back as a Result, never as a crash, so the
// MPI side can hand it to every rank.
#include <cuda_runtime.h>
#include <cusolverDn.h>
#include <mpi.h>

#include <stdexcept>
#include <vector>

#include "cusolver_eig.hpp"

namespace tseig::bench::cusolver {
namespace {

struct Failure {
  Result::Status status;
  std::string message;
};

void check(cudaError_t err, const char* what) {
  if (err != cudaSuccess)
    throw Failure{Result::cuda_failure, std::string(what) + ": " + cudaGetErrorString(err)};
}

const char* status_name(cusolverStatus_t s) {
  switch (s) {
    case CUSOLVER_STATUS_NOT_INITIALIZED:
      return "not initialized";
    case CUSOLVER_STATUS_ALLOC_FAILED:
      return "allocation failed";
    case CUSOLVER_STATUS_INVALID_VALUE:
      return "invalid value";
    case CUSOLVER_STATUS_ARCH_MISMATCH:
      return "architecture mismatch";
    case CUSOLVER_STATUS_EXECUTION_FAILED:
      return "execution failed";
    case CUSOLVER_STATUS_INTERNAL_ERROR:
      return "internal error";
    case CUSOLVER_STATUS_NOT_SUPPORTED:
      return "not supported";
    default:
      return "error";
  }
}

void check(cusolverStatus_t s, const char* what) {
  if (s != CUSOLVER_STATUS_SUCCESS)
    throw Failure{Result::cuda_failure, std::string(what) + ": cuSOLVER status " +
                                            std::to_string(static_cast<int>(s)) + " (" +
                                            status_name(s) + ")"};
}

template <class T>
constexpr cudaDataType data_type = CUDA_R_64F;
template <>
constexpr cudaDataType data_type<float> = CUDA_R_32F;
template <>
constexpr cudaDataType data_type<std::complex<float>> = CUDA_C_32F;
template <>
constexpr cudaDataType data_type<std::complex<double>> = CUDA_C_64F;

// Device memory and handles, released on every path.
struct DeviceBuffer {
  void* p = nullptr;
  DeviceBuffer(std::size_t bytes, const char* what) {
    check(cudaMalloc(&p, bytes > 0 ? bytes : 1), what);
  }
  ~DeviceBuffer() { cudaFree(p); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
};

struct Handles {
  cusolverDnHandle_t handle = nullptr;
  cusolverDnParams_t params = nullptr;
  Handles() {
    check(cusolverDnCreate(&handle), "cusolverDnCreate");
    check(cusolverDnCreateParams(&params), "cusolverDnCreateParams");
  }
  ~Handles() {
    if (params) cusolverDnDestroyParams(params);
    if (handle) cusolverDnDestroy(handle);
  }
  Handles(const Handles&) = delete;
  Handles& operator=(const Handles&) = delete;
};

// A missing driver or device is "unsupported" for dense_bench, not a failure.
void require_gpu() {
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    cudaGetLastError();
    throw Failure{Result::no_gpu, std::string("no usable GPU: ") + cudaGetErrorString(err)};
  }
  if (count == 0) throw Failure{Result::no_gpu, "no usable GPU: no CUDA device found"};
}

template <class T, class R>
Result solve(std::int64_t n, std::int64_t nev, T* a, R* w) {
  Result r;
  try {
    require_gpu();
    // Setup (context, handles, buffers, workspace query) is outside the timed part, as
    // the other rows exclude their setup.
    check(cudaSetDevice(0), "cudaSetDevice");
    Handles h;
    const std::size_t bytes_a = static_cast<std::size_t>(n) * n * sizeof(T);
    DeviceBuffer d_a(bytes_a, "cudaMalloc(A)"), d_w(n * sizeof(R), "cudaMalloc(W)"),
        d_info(sizeof(int), "cudaMalloc(info)");
    const bool all = nev == n;
    const auto jobz = CUSOLVER_EIG_MODE_VECTOR;
    const auto uplo = CUBLAS_FILL_MODE_LOWER;
    const cudaDataType ta = data_type<T>, tw = data_type<R>;
    R vl = 0, vu = 0;  // unused with range 'I'
    std::int64_t meig = 0;
    std::size_t dev_bytes = 0, host_bytes = 0;
    if (all)
      check(cusolverDnXsyevd_bufferSize(h.handle, h.params, jobz, uplo, n, ta, d_a.p, n, tw, d_w.p,
                                        ta, &dev_bytes, &host_bytes),
            "cusolverDnXsyevd_bufferSize");
    else
      check(cusolverDnXsyevdx_bufferSize(h.handle, h.params, jobz, CUSOLVER_EIG_RANGE_I, uplo, n,
                                         ta, d_a.p, n, &vl, &vu, 1, nev, &meig, tw, d_w.p, ta,
                                         &dev_bytes, &host_bytes),
            "cusolverDnXsyevdx_bufferSize");
    DeviceBuffer d_work(dev_bytes, "cudaMalloc(workspace)");
    std::vector<char> h_work(host_bytes);
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");

    const double t0 = MPI_Wtime();
    check(cudaMemcpy(d_a.p, a, bytes_a, cudaMemcpyHostToDevice), "cudaMemcpy(A to device)");
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    const double t1 = MPI_Wtime();
    if (all) {
      meig = n;
      check(
          cusolverDnXsyevd(h.handle, h.params, jobz, uplo, n, ta, d_a.p, n, tw, d_w.p, ta, d_work.p,
                           dev_bytes, h_work.data(), host_bytes, static_cast<int*>(d_info.p)),
          "cusolverDnXsyevd");
    } else {
      check(cusolverDnXsyevdx(h.handle, h.params, jobz, CUSOLVER_EIG_RANGE_I, uplo, n, ta, d_a.p, n,
                              &vl, &vu, 1, nev, &meig, tw, d_w.p, ta, d_work.p, dev_bytes,
                              h_work.data(), host_bytes, static_cast<int*>(d_info.p)),
            "cusolverDnXsyevdx");
    }
    check(cudaDeviceSynchronize(), all ? "cusolverDnXsyevd (run)" : "cusolverDnXsyevdx (run)");
    const double t2 = MPI_Wtime();
    // Only the eigenvectors asked for come back: the first meig columns.
    int info = 0;
    check(cudaMemcpy(a, d_a.p, static_cast<std::size_t>(n) * meig * sizeof(T),
                     cudaMemcpyDeviceToHost),
          "cudaMemcpy(Z to host)");
    check(cudaMemcpy(w, d_w.p, meig * sizeof(R), cudaMemcpyDeviceToHost), "cudaMemcpy(W to host)");
    check(cudaMemcpy(&info, d_info.p, sizeof info, cudaMemcpyDeviceToHost),
          "cudaMemcpy(info to host)");
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    const double t3 = MPI_Wtime();
    if (info != 0)
      throw Failure{Result::info_failure,
                    std::string(all ? "cusolverDnXsyevd" : "cusolverDnXsyevdx") + " info " +
                        std::to_string(info)};
    r.seconds = t3 - t0;
    r.solve_seconds = t2 - t1;
    r.transfer_seconds = (t1 - t0) + (t3 - t2);
    r.found = meig;
  } catch (const Failure& f) {
    r.status = f.status;
    r.message = f.message;
  } catch (const std::exception& e) {  // the host workspace
    r.status = Result::cuda_failure;
    r.message = e.what();
  }
  return r;
}

}  // namespace

Result eigh(std::int64_t n, std::int64_t nev, float* a, float* w) {
  return solve(n, nev, a, w);
}
Result eigh(std::int64_t n, std::int64_t nev, double* a, double* w) {
  return solve(n, nev, a, w);
}
Result eigh(std::int64_t n, std::int64_t nev, std::complex<float>* a, float* w) {
  return solve(n, nev, a, w);
}
Result eigh(std::int64_t n, std::int64_t nev, std::complex<double>* a, double* w) {
  return solve(n, nev, a, w);
}

}  // namespace tseig::bench::cusolver
