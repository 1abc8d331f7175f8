// Hooks for device/runtime.hpp while no CUDA implementation is compiled in: what needs a
// GPU throws Error(unsupported) with the reason; what only gives memory back does nothing.
#include "device/runtime.hpp"
#include "device/none/unsupported.hpp"

namespace tseig::device {

cuda::Context& context(MPI_Comm) {
  unsupported("device::context");
}

// An empty request needs no device: default and empty Arrays work in every build.
void* allocate(std::size_t bytes) {
  if (bytes == 0) return nullptr;
  unsupported("device::allocate");
}

void release(void*) noexcept {}

void release_cached() noexcept {}

void to_device(cuda::Context&, void*, const void*, std::size_t) {
  unsupported("device::to_device");
}

void to_host(cuda::Context&, void*, const void*, std::size_t) {
  unsupported("device::to_host");
}

void to_device_2d(cuda::Context&, void*, std::size_t, const void*, std::size_t, std::size_t,
                  std::size_t) {
  unsupported("device::to_device_2d");
}

void to_host_2d(cuda::Context&, void*, std::size_t, const void*, std::size_t, std::size_t,
                std::size_t) {
  unsupported("device::to_host_2d");
}

void synchronize(cuda::Context&) {
  unsupported("device::synchronize");
}

}  // namespace tseig::device
