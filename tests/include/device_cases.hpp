#pragma once
// Stage tests typed over (Device, scalar): one test source for every backend. A device
// this build or machine cannot run skips with gpu::status()'s reason.
#include <gtest/gtest.h>

#include <complex>
#include <string>

#include "tseig/device.hpp"

namespace tseig::test {

template <Device D, class T>
struct OnDevice {
  static constexpr Device device = D;
  using type = T;
};

using DeviceScalarTypes =
    ::testing::Types<OnDevice<Device::host, float>, OnDevice<Device::host, double>,
                     OnDevice<Device::host, std::complex<float>>,
                     OnDevice<Device::host, std::complex<double>>, OnDevice<Device::cuda, double>,
                     OnDevice<Device::cuda, std::complex<double>>>;

/// Why these stage chains cannot run on CUDA: the reductions and the divide & conquer
/// have no CUDA variant yet (the back-transforms' are checked against their host
/// variants in test_gpu_stages), so CUDA cases skip, with what this build and machine offer.
inline std::string cuda_skip_reason() {
  return "the reductions have no CUDA variant yet (" + gpu::status() + ")";
}

}  // namespace tseig::test
