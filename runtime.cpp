// FAKE (scratch): device memory is host memory.
#include "device/runtime.hpp"
#include <cstdlib>
#include <cstring>
namespace tseig::device {
cuda::Context& context(MPI_Comm) { static cuda::Context c; return c; }
void* allocate(std::size_t bytes) { return bytes ? std::malloc(bytes) : nullptr; }
void release(void* p) noexcept { std::free(p); }
void release_cached() noexcept {}
void to_device(cuda::Context&, void* d, const void* s, std::size_t n) { std::memcpy(d, s, n); }
void to_host(cuda::Context&, void* d, const void* s, std::size_t n) { std::memcpy(d, s, n); }
static void copy2d(void* d, std::size_t dp, const void* s, std::size_t sp, std::size_t w, std::size_t rows) {
  for (std::size_t r = 0; r < rows; ++r) std::memcpy(static_cast<char*>(d) + r * dp, static_cast<const char*>(s) + r * sp, w);
}
void to_device_2d(cuda::Context&, void* d, std::size_t dp, const void* s, std::size_t sp, std::size_t w, std::size_t r) { copy2d(d, dp, s, sp, w, r); }
void to_host_2d(cuda::Context&, void* d, std::size_t dp, const void* s, std::size_t sp, std::size_t w, std::size_t r) { copy2d(d, dp, s, sp, w, r); }
void synchronize(cuda::Context&) {}
}  // namespace tseig::device
