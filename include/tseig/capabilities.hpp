#pragma once
// What this build of tseig can do on this machine, as one JSON object: version, scalar
// types, dense and sparse solvers, the CUDA backend and its devices, whether MPI is
// CUDA-aware, and the sparse kernels with their constraints. Not collective; cheap
// (the device query runs once per call).
#include <string>

#include "tseig/export.hpp"

namespace tseig {

TSEIG_API std::string capabilities_json();

/// The BLAS tseig calls, as the library describes itself (OpenBLAS's configuration
/// string: version, build options and the kernel set in use, which OPENBLAS_CORETYPE
/// can override), or "unknown". Timings from different kernel sets do not compare.
TSEIG_API std::string blas_description();

}  // namespace tseig
