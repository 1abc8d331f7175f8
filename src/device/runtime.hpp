#pragma once
// The CUDA runtime as stage code sees it: this process's GPU (its library handles and
// stream), device memory and copies. device/cuda/runtime.cu defines it; in builds
// without CUDA, device/none/runtime.cpp's hooks throw Error(unsupported) with the reason.
// Stage code calls these in every build and needs no #ifdef.
#include <mpi.h>

#include <cstddef>
#include <utility>

#include "core/blas/cuda.hpp"

namespace tseig::device {

/// Collective over comm on its first call in a process, free afterwards: the GPU of this
/// process (visible device number node-local rank mod device count, so several ranks may
/// share one) with a cuBLAS and a cuSOLVER handle bound to one stream, created once and
/// kept for the life of the process. Throws Error(unsupported) on every rank of comm
/// when any rank has no usable GPU.
cuda::Context& context(MPI_Comm comm);

/// Device memory of `bytes` bytes from a per-process cache (a block freed by release
/// is reused by a later request of up to its size and at least half of it, so the
/// solves of an SCF loop allocate once). Error(out_of_memory) naming the size asked for
/// and the free memory when the device cannot serve it.
void* allocate(std::size_t bytes);
/// Returns p (from allocate, or nullptr) to the cache.
void release(void* p) noexcept;
/// Frees every cached block (tests; a process that is done with the GPU).
void release_cached() noexcept;

/// Copies on ctx's stream; both return when the data has arrived (the host side may be
/// pageable memory).
void to_device(cuda::Context& ctx, void* dst, const void* src, std::size_t bytes);
void to_host(cuda::Context& ctx, void* dst, const void* src, std::size_t bytes);
/// rows × width_bytes blocks with pitches (bytes between the starts of rows), host ↔ device.
void to_device_2d(cuda::Context& ctx, void* dst, std::size_t dpitch, const void* src,
                  std::size_t spitch, std::size_t width_bytes, std::size_t rows);
void to_host_2d(cuda::Context& ctx, void* dst, std::size_t dpitch, const void* src,
                std::size_t spitch, std::size_t width_bytes, std::size_t rows);
/// Waits for all work queued on ctx's stream; a kernel's error surfaces here as
/// Error(device_error) with CUDA's message.
void synchronize(cuda::Context& ctx);

/// An array of n T in device memory, from the cache, returned to it when destroyed.
template <class T>
class Array {
 public:
  Array() = default;
  explicit Array(std::size_t n) : p_(static_cast<T*>(allocate(n * sizeof(T)))), n_(n) {}
  Array(Array&& o) noexcept : p_(o.p_), n_(o.n_) { o.p_ = nullptr, o.n_ = 0; }
  Array& operator=(Array&& o) noexcept {
    std::swap(p_, o.p_), std::swap(n_, o.n_);
    return *this;
  }
  ~Array() { release(p_); }
  T* data() const { return p_; }
  std::size_t size() const { return n_; }

 private:
  T* p_ = nullptr;
  std::size_t n_ = 0;
};

}  // namespace tseig::device
