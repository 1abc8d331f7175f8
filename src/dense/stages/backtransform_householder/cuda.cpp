// The Householder back-transform on the GPU: this rank's tile of Z moves to the device
// once and back once; per compact-WY block (formed on the host, wy_blocks.hpp) V and T
// go up and cuBLAS applies W = T·(Vᴴ·Z), Z −= V·W. Only W, summed over the process
// column, travels through the host between the two products (not at all on one row).
#include <algorithm>

#include "core/blas/cuda.hpp"
#include "core/buffer_cache.hpp"
#include "core/collectives.hpp"
#include "core/instantiate.hpp"
#include "dense/stages/backtransform_householder/api.hpp"
#include "dense/stages/backtransform_householder/wy_blocks.hpp"
#include "device/deferred_failure.hpp"
#include "device/runtime.hpp"

namespace tseig::dense {

template <Device D, class T>
void backtransform_householder(const DistMatrix<T>& A, const std::vector<T>& tau, int offset,
                               DistMatrix<T>& Z, int ncols, const TuneParameters& tune) {
  static_assert(D == Device::cuda);
  const Grid& g = A.grid();
  require_z_like_a(Z.mb() == A.nb() && Z.rsrc() == A.rsrc() && Z.m() == A.n() &&
                   Z.grid().same_as(g));
  if (tau.empty() || ncols <= 0) return;
  cuda::Context& ctx = device::context(g.comm());
  const int lr = Z.local_rows(), lcz = Z.local_cols_before(ncols), ldz = std::max(lr, 1);
  const bool work = lr > 0 && lcz > 0;
  WyBlocks<T> blocks(A, tau, offset, tune);
  const int width = blocks.width();
  cached_vector<T> Wt;
  device::Array<T> dZ, dV, dT, dW;
  allocate_collectively(g.comm(), [&] {
    if (!work) return;
    if (g.nprow() > 1) Wt.resize(static_cast<std::size_t>(width) * lcz);
    dZ = device::Array<T>(static_cast<std::size_t>(ldz) * lcz);
    dV = device::Array<T>(static_cast<std::size_t>(ldz) * width);
    dT = device::Array<T>(static_cast<std::size_t>(width) * width);
    dW = device::Array<T>(static_cast<std::size_t>(width) * lcz);
  });
  device::DeferredFailure failure;
  const std::size_t zpitch = static_cast<std::size_t>(Z.lld()) * sizeof(T);
  if (work)
    failure.run([&] {
      device::to_device_2d(ctx, dZ.data(), ldz * sizeof(T), Z.data(), zpitch, lr * sizeof(T), lcz);
    });
  for (int b0 = blocks.last(); b0 >= 0; b0 -= width) {
    const auto blk = blocks.form(b0);
    if (!work) continue;
    const int w = blk.w, m = blk.m;
    T* z = dZ.data() + blk.r0;
    failure.run([&] {
      device::to_device(ctx, dV.data(), blk.V, static_cast<std::size_t>(blk.ldv) * w * sizeof(T));
      device::to_device(ctx, dT.data(), blk.T_, static_cast<std::size_t>(w) * w * sizeof(T));
      cuda::blas::gemm(ctx, 'C', 'N', w, lcz, m, T(1), dV.data(), blk.ldv, z, ldz, T(0), dW.data(),
                       w);
    });
    if (g.nprow() > 1) {
      failure.run([&] {
        device::to_host(ctx, Wt.data(), dW.data(), static_cast<std::size_t>(w) * lcz * sizeof(T));
      });
      sum_over_column(g, Wt.data(), w * lcz);
      failure.run([&] {
        device::to_device(ctx, dW.data(), Wt.data(), static_cast<std::size_t>(w) * lcz * sizeof(T));
      });
    }
    failure.run([&] {
      cuda::blas::trmm(ctx, 'L', 'U', 'N', 'N', w, lcz, T(1), dT.data(), w, dW.data(), w);
      cuda::blas::gemm(ctx, 'N', 'N', m, lcz, w, T(-1), dV.data(), blk.ldv, dW.data(), w, T(1), z,
                       ldz);
    });
  }
  if (work)
    failure.run([&] {
      device::to_host_2d(ctx, Z.data(), zpitch, dZ.data(), ldz * sizeof(T), lr * sizeof(T), lcz);
    });
  failure.raise(g.comm(), "Householder back-transform on the GPU");
}

#define TSEIG_INSTANTIATE(T)                                                 \
  template void backtransform_householder<Device::cuda, T>(                  \
      const DistMatrix<T>&, const std::vector<T>&, int, DistMatrix<T>&, int, \
      const TuneParameters&);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense
