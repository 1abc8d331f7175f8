// device/runtime.hpp on the CUDA runtime: one GPU, stream and pair of library handles
// per process, a cache of device blocks, and synchronous copies on the stream.
#include <cuda_runtime.h>
#include <mpi.h>

#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>

#include "device/cuda/libraries.hpp"
#include "device/runtime.hpp"
#include "tseig/device.hpp"
#include "tseig/error.hpp"

namespace tseig::device {
namespace {

void check(cudaError_t err, const char* what) {
  if (err == cudaSuccess) return;
  cudaGetLastError();  // clear a non-sticky error so the next call starts clean
  throw Error(ErrorCode::device_error, std::string(what) + ": " + cudaGetErrorName(err) + " (" +
                                           cudaGetErrorString(err) + ")");
}

void check(cublasStatus_t st, const char* what) {
  if (st == CUBLAS_STATUS_SUCCESS) return;
  throw Error(st == CUBLAS_STATUS_ALLOC_FAILED ? ErrorCode::out_of_memory : ErrorCode::device_error,
              std::string(what) + ": " + cuda::cublas().cublasGetStatusName(st));
}

void check(cusolverStatus_t st, const char* what) {
  if (st == CUSOLVER_STATUS_SUCCESS) return;
  throw Error(
      st == CUSOLVER_STATUS_ALLOC_FAILED ? ErrorCode::out_of_memory : ErrorCode::device_error,
      std::string(what) + ": cusolverStatus_t " + std::to_string(static_cast<int>(st)));
}

void check_mpi(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  throw Error(ErrorCode::mpi_error, std::string(what) + ": " + std::string(text, len));
}

// The process's device state. Never destroyed: at exit the static CUDA runtime may be
// torn down before this object, and the driver frees everything with the process.
struct State {
  std::mutex mutex;
  bool ready = false;
  int device = 0;
  cuda::Context ctx;
  std::multimap<std::size_t, void*> free_blocks;  // size → block, for reuse
  std::unordered_map<void*, std::size_t> in_use;  // block → size, for release
};

State& state() {
  static State* s = new State;  // leaked on purpose (see State)
  return *s;
}

// Handles and stream of this rank, all or nothing: on failure nothing is left behind,
// so every rank of comm is again in the same state (no context) for a later call.
void create(State& s, int device) {
  cuda::Context ctx;
  try {
    check(cudaSetDevice(device), "device::context: cudaSetDevice");
    cudaStream_t stream = nullptr;
    check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking),
          "device::context: cudaStreamCreateWithFlags");
    ctx.stream = stream;
    cublasHandle_t blas = nullptr;
    check(cuda::cublas().cublasCreate(&blas), "device::context: cublasCreate");
    ctx.blas = blas;
    check(cuda::cublas().cublasSetStream(blas, stream), "device::context: cublasSetStream");
    cusolverDnHandle_t solver = nullptr;
    check(cuda::cusolver().cusolverDnCreate(&solver), "device::context: cusolverDnCreate");
    ctx.solver = solver;
    check(cuda::cusolver().cusolverDnSetStream(solver, stream),
          "device::context: cusolverDnSetStream");
  } catch (...) {
    if (ctx.solver != nullptr) cuda::cusolver().cusolverDnDestroy(ctx.solver);
    if (ctx.blas != nullptr) cuda::cublas().cublasDestroy(ctx.blas);
    if (ctx.stream != nullptr) cudaStreamDestroy(ctx.stream);
    throw;
  }
  s.ctx = ctx;
  s.device = device;
}

void destroy(cuda::Context& ctx) noexcept {
  cuda::cusolver().cusolverDnDestroy(ctx.solver);
  cuda::cublas().cublasDestroy(ctx.blas);
  cudaStreamDestroy(ctx.stream);
  ctx = {};
}

void free_cached_locked(State& s) noexcept {
  for (auto& [size, p] : s.free_blocks) cudaFree(p);
  s.free_blocks.clear();
}

double mib(std::size_t bytes) {
  return static_cast<double>(bytes) / (1024.0 * 1024.0);
}

}  // namespace

cuda::Context& context(MPI_Comm comm) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.ready) {
    // cudaSetDevice is per host thread: a later caller's thread gets this GPU too.
    check(cudaSetDevice(s.device), "device::context: cudaSetDevice");
    return s.ctx;
  }

  int rank = 0, local_rank = 0;
  check_mpi(MPI_Comm_rank(comm, &rank), "device::context: MPI_Comm_rank");
  MPI_Comm node = MPI_COMM_NULL;
  check_mpi(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node),
            "device::context: MPI_Comm_split_type");
  const int rc = MPI_Comm_rank(node, &local_rank);
  MPI_Comm_free(&node);
  check_mpi(rc, "device::context: MPI_Comm_rank");

  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    count = 0;
    cudaGetLastError();
  }
  int min_count = 0;
  check_mpi(MPI_Allreduce(&count, &min_count, 1, MPI_INT, MPI_MIN, comm),
            "device::context: MPI_Allreduce");
  if (min_count == 0)
    throw Error(ErrorCode::unsupported,
                count == 0 ? "device::context: no usable GPU on rank " + std::to_string(rank) +
                                 " (" + gpu::status() + ")"
                           : "device::context: a rank of the communicator has no usable GPU "
                             "(rank " +
                                 std::to_string(rank) + ": " + gpu::status() + ")");

  // Every rank learns whether all succeeded, so that either all keep a context or none
  // does (a later call is collective again only where no rank has one).
  std::string error;
  ErrorCode code = ErrorCode::device_error;
  try {
    create(s, local_rank % count);
  } catch (const Error& e) {
    error = e.what();
    code = e.code();
  }
  const int ok = error.empty() ? 1 : 0;
  int all_ok = 0;
  const int reduced = MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, comm);
  if (ok && (reduced != MPI_SUCCESS || !all_ok)) destroy(s.ctx);
  if (!ok) throw Error(code, error);
  check_mpi(reduced, "device::context: MPI_Allreduce");
  if (!all_ok)
    throw Error(ErrorCode::device_error,
                "device::context: setting up the GPU failed on another rank (rank " +
                    std::to_string(rank) + " succeeded)");
  s.ready = true;
  return s.ctx;
}

void* allocate(std::size_t bytes) {
  if (bytes == 0) return nullptr;
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  // A cached block of at least the size and at most twice it: reuse without wasting
  // more than half of the block.
  auto it = s.free_blocks.lower_bound(bytes);
  if (it != s.free_blocks.end() && it->first - bytes <= bytes) {
    void* p = it->second;
    s.in_use.emplace(p, it->first);
    s.free_blocks.erase(it);
    return p;
  }
  if (s.ready) check(cudaSetDevice(s.device), "device::allocate: cudaSetDevice");
  void* p = nullptr;
  cudaError_t err = cudaMalloc(&p, bytes);
  if (err == cudaErrorMemoryAllocation && !s.free_blocks.empty()) {
    // The cache may hold the memory that is missing: give it back and try once more.
    cudaGetLastError();
    free_cached_locked(s);
    err = cudaMalloc(&p, bytes);
  }
  if (err != cudaSuccess) {
    cudaGetLastError();
    if (err != cudaErrorMemoryAllocation) check(err, "device::allocate: cudaMalloc");
    std::size_t free_bytes = 0, total_bytes = 0;
    if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) cudaGetLastError();
    char text[160];
    std::snprintf(text, sizeof text, "device allocation of %.1f MiB failed (%.1f MiB free of %.1f)",
                  mib(bytes), mib(free_bytes), mib(total_bytes));
    throw Error(ErrorCode::out_of_memory, text);
  }
  try {
    s.in_use.emplace(p, bytes);
  } catch (...) {
    cudaFree(p);
    throw;
  }
  return p;
}

// No synchronization: work queued on ctx.stream may still use p, which is safe because
// every later user of the block queues its work on that same stream, after it.
void release(void* p) noexcept {
  if (p == nullptr) return;
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  auto it = s.in_use.find(p);
  if (it == s.in_use.end()) return;  // not from allocate: not ours to free
  const std::size_t size = it->second;
  s.in_use.erase(it);
  try {
    s.free_blocks.emplace(size, p);
  } catch (...) {
    cudaFree(p);  // no room to cache it: free it instead
  }
}

void release_cached() noexcept {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  free_cached_locked(s);
}

namespace {

// A copy queued on ctx's stream (`queued`: its status), then the wait for it: the host
// side may be pageable memory that the caller reuses at once.
void finish_copy(cuda::Context& ctx, cudaError_t queued, const char* what) {
  check(queued, what);
  check(cudaStreamSynchronize(ctx.stream), what);
}

}  // namespace

void to_device(cuda::Context& ctx, void* dst, const void* src, std::size_t bytes) {
  if (bytes == 0) return;
  finish_copy(ctx, cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, ctx.stream),
              "device::to_device");
}

void to_host(cuda::Context& ctx, void* dst, const void* src, std::size_t bytes) {
  if (bytes == 0) return;
  finish_copy(ctx, cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, ctx.stream),
              "device::to_host");
}

void to_device_2d(cuda::Context& ctx, void* dst, std::size_t dpitch, const void* src,
                  std::size_t spitch, std::size_t width_bytes, std::size_t rows) {
  if (width_bytes == 0 || rows == 0) return;
  finish_copy(ctx,
              cudaMemcpy2DAsync(dst, dpitch, src, spitch, width_bytes, rows, cudaMemcpyHostToDevice,
                                ctx.stream),
              "device::to_device_2d");
}

void to_host_2d(cuda::Context& ctx, void* dst, std::size_t dpitch, const void* src,
                std::size_t spitch, std::size_t width_bytes, std::size_t rows) {
  if (width_bytes == 0 || rows == 0) return;
  finish_copy(ctx,
              cudaMemcpy2DAsync(dst, dpitch, src, spitch, width_bytes, rows, cudaMemcpyDeviceToHost,
                                ctx.stream),
              "device::to_host_2d");
}

void synchronize(cuda::Context& ctx) {
  check(cudaStreamSynchronize(ctx.stream), "device::synchronize");
  check(cudaGetLastError(), "device::synchronize");
}

}  // namespace tseig::device
