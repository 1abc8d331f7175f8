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

/// Why stages cannot run on CUDA here: no stage has a CUDA instantiation yet, so CUDA
/// cases skip everywhere, with what this build and machine offer.
inline std::string cuda_skip_reason() {
  return "CUDA stages are not built yet (" + gpu::status() + ")";
}

}  // namespace tseig::test
