// The device.hpp queries of a CUDA build, on the CUDA runtime alone (no kernels): a missing
// driver or device is an answer here, not an error.
#include <cuda_runtime.h>

#include <cstdio>

#include "tseig/device.hpp"

namespace tseig::gpu {
namespace {

// cudaGetDeviceCount reports why no device is usable (no driver, driver too old, ...).
cudaError_t count_devices(int& count) {
  count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    count = 0;
    cudaGetLastError();  // clear the sticky error so later runtime calls start clean
  }
  return err;
}

std::string cuda_version() {
  return std::to_string(CUDART_VERSION / 1000) + "." + std::to_string(CUDART_VERSION % 1000 / 10);
}

}  // namespace

bool built_with_cuda() {
  return true;
}

int device_count() {
  int count = 0;
  count_devices(count);
  return count;
}

std::vector<DeviceInfo> devices() {
  std::vector<DeviceInfo> result;
  int count = 0;
  if (count_devices(count) != cudaSuccess) return result;
  for (int id = 0; id < count; ++id) {
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, id) != cudaSuccess) continue;
    result.push_back(
        {id, prop.name, prop.totalGlobalMem, prop.major, prop.minor, prop.multiProcessorCount});
  }
  return result;
}

std::string status() {
  std::string head = "built with CUDA " + cuda_version();
  int count = 0;
  cudaError_t err = count_devices(count);
  if (err != cudaSuccess) return head + " but no usable GPU: " + cudaGetErrorString(err);
  if (count == 0) return head + " but no usable GPU: no CUDA device found";
  std::string s = head + ", " + std::to_string(count) + (count == 1 ? " device:" : " devices:");
  for (const DeviceInfo& d : devices()) {
    char line[384];
    std::snprintf(line, sizeof line, " [%d] %s (sm_%d%d, %d SMs, %.1f GiB)", d.id, d.name.c_str(),
                  d.major, d.minor, d.multiprocessors,
                  static_cast<double>(d.memory_bytes) / (1024.0 * 1024.0 * 1024.0));
    s += line;
  }
  return s;
}

}  // namespace tseig::gpu
