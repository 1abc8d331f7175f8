// The device.hpp queries of a build without CUDA: no devices, and a status that says why.
#include "tseig/device.hpp"

namespace tseig::gpu {

bool built_with_cuda() {
  return false;
}

int device_count() {
  return 0;
}

std::vector<DeviceInfo> devices() {
  return {};
}

std::string status() {
  return "built without CUDA";
}

}  // namespace tseig::gpu
