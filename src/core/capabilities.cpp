// capabilities_json(): assembled from what the build configured (version.hpp, the CUDA
// backend) and what the process sees at run time (devices, MPI's CUDA support).
#include "tseig/capabilities.hpp"

#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

#include <complex>
#include <string>

#include "core/json.hpp"
#include "dense/stages/backtransform_band/reflector_group_kernel.hpp"
#include "sparse/kernels/lanes.hpp"
#include "tseig/device.hpp"
#include "tseig/version.hpp"
#include "tune/signature.hpp"

namespace tseig {

namespace {

std::string cuda_aware_mpi() {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support() ? "true" : "false";
#elif defined(MPIX_CUDA_AWARE_SUPPORT)
  return "false";  // this MPI was built without CUDA support
#else
  return "null";  // this MPI cannot tell
#endif
}

std::string devices_json() {
  std::string out = "[";
  for (const gpu::DeviceInfo& d : gpu::devices()) {
    if (out.size() > 1) out += ",";
    out += "{\"id\":" + std::to_string(d.id) + ",\"name\":" + json::string(d.name) +
           ",\"memory_bytes\":" + std::to_string(d.memory_bytes) + ",\"compute_capability\":\"" +
           std::to_string(d.major) + "." + std::to_string(d.minor) +
           "\",\"multiprocessors\":" + std::to_string(d.multiprocessors) + "}";
  }
  return out + "]";
}

}  // namespace

std::string capabilities_json() {
  int mpi_version = 0, mpi_subversion = 0;
  MPI_Get_version(&mpi_version, &mpi_subversion);
  std::string s = "{";
  s += "\"version\":" + json::string(TSEIG_VERSION_STRING);
  s += ",\"scalar_types\":[\"float\",\"double\",\"complex<float>\",\"complex<double>\"]";
  s += ",\"dense_solvers\":[\"one_stage\",\"two_stage\",\"scalapack\"]";
  s += ",\"dense_problems\":[\"standard\",\"generalized\"]";
  // The two-stage back-transform kernel (stage 4): host SIMD, any bandwidth and N.
  s += ",\"dense_kernels\":{\"backtransform_band\":{\"backend\":\"host\"";
  s += ",\"simd_bytes\":" + std::to_string(dense::band_kernel_vector_bytes);
  s += ",\"stripe_bytes\":" + std::to_string(dense::stripe_width<double>() * sizeof(double));
  s += ",\"reflectors_per_pass\":{\"real\":" +
       std::to_string(dense::reflector_group_size<double>()) +
       ",\"complex\":" + std::to_string(dense::reflector_group_size<std::complex<double>>()) + "}";
  s += ",\"bandwidth\":\"any\"}}";
  s += ",\"sparse\":{\"formats\":[\"crs\",\"sell_c_sigma\"]";
  s += ",\"kernels\":[\"spmmv\",\"aug_spmmv\",\"chebfd_op\"]";
  s += ",\"specialised_block_widths\":[1,2,4,8,16,32,64]";
  s += ",\"other_block_widths\":\"any, as panels of the specialised widths\"";
  s += ",\"simd_bytes\":" + std::to_string(sparse::simd_bytes);
  s += ",\"index_bits\":{\"global\":64,\"local\":32}";
  s += ",\"methods\":[\"kpm\",\"lobpcg\",\"chebfd\"]}";
  s += ",\"cuda\":{\"built\":" + std::string(gpu::built_with_cuda() ? "true" : "false");
  s += ",\"status\":" + json::string(gpu::status());
  s += ",\"devices\":" + devices_json() + "}";
  s += ",\"blas\":" + json::string(blas_description());
  s += ",\"mpi\":{\"version\":\"" + std::to_string(mpi_version) + "." +
       std::to_string(mpi_subversion) + "\",\"cuda_aware\":" + cuda_aware_mpi() + "}";
  return s + "}";
}

std::string blas_description() {
  return tune::blas_name();
}

}  // namespace tseig
