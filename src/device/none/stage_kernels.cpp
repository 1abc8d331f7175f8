// Hooks for the stages' CUDA kernels while no CUDA implementation is compiled in: the
// entry points exist and throw Error(unsupported) with the reason.
#include <complex>

#include "dense/stages/backtransform_band/cuda_kernel.hpp"
#include "device/none/unsupported.hpp"

namespace tseig::dense {

template <class T>
void apply_band_reflectors(cuda::Context&, const DeviceBandReflectors<T>&, int, int, int, int, T*,
                           int, int, int, BandKernelShape) {
  device::unsupported("the band back-transform kernel");
}

#define TSEIG_HOOK(T)                                                                           \
  template void apply_band_reflectors(cuda::Context&, const DeviceBandReflectors<T>&, int, int, \
                                      int, int, T*, int, int, int, BandKernelShape);
TSEIG_HOOK(float)
TSEIG_HOOK(double)
TSEIG_HOOK(std::complex<float>)
TSEIG_HOOK(std::complex<double>)
#undef TSEIG_HOOK

}  // namespace tseig::dense
