#pragma once
// Where a stage runs (Device) and the run-time view of the CUDA backend: was it built,
// which devices can it use. Works in every build (a build without CUDA reports zero
// devices), so callers never need #ifdefs.
#include <cstddef>
#include <string>
#include <vector>

#include "tseig/export.hpp"

namespace tseig {

/// The backends a stage can run on: the host CPUs (BLAS/LAPACK) or a CUDA GPU.
enum class Device { host, cuda };

}  // namespace tseig

namespace tseig::gpu {

struct DeviceInfo {
  int id;                    ///< CUDA device ordinal
  std::string name;          ///< e.g. "NVIDIA H100 80GB HBM3"
  std::size_t memory_bytes;  ///< total global memory
  int major, minor;          ///< compute capability
  int multiprocessors;
};

/// True if this library was compiled with the CUDA backend.
TSEIG_API bool built_with_cuda();

/// Number of CUDA devices visible to this process; 0 without CUDA, driver or device.
TSEIG_API int device_count();

/// Properties of every visible device, ordered by id.
TSEIG_API std::vector<DeviceInfo> devices();

/// One line for humans: "built without CUDA", "built with CUDA X.Y but no usable GPU:
/// <reason>", or the CUDA version followed by the list of devices.
TSEIG_API std::string status();

}  // namespace tseig::gpu
