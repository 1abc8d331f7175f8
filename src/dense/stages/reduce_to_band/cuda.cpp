// Full → band on the GPU. This rank's part of A, made a full Hermitian matrix on the host
// (fill_upper_from_lower), moves to the device once. Y = Ã·V and the update
// Ã −= V·Wᴴ + W·Vᴴ are then one cuBLAS GEMM each over my whole trailing block: twice the
// flops of the lower triangle's tiles, but two large GEMMs per panel instead of a loop of
// small ones. Per panel only its columns come down (for the QR on the host), V on my
// columns goes up and Y on my rows comes down, [V W] and [W V] go up; the rest is
// band_reduction.hpp's host code. The last trailing block comes down at the end.
#include <algorithm>

#include "core/blas/cuda.hpp"
#include "core/collectives.hpp"
#include "core/instantiate.hpp"
#include "dense/check_input.hpp"
#include "dense/stages/reduce_to_band/api.hpp"
#include "dense/stages/reduce_to_band/band_reduction.hpp"
#include "device/deferred_failure.hpp"
#include "device/runtime.hpp"

namespace tseig::dense {

template <Device D, class T>
std::vector<T> reduce_to_band(DistMatrix<T>& A, int b) {
  static_assert(D == Device::cuda);
  if (!band_reduction_needed(A, b)) return {};
  const Grid& g = A.grid();
  const int n = A.n(), lr = A.local_rows(), lc = A.local_cols();
  const int ldd = std::max(lr, 1), ldc_max = std::max(lc, 1);
  cuda::Context& ctx = device::context(g.comm());
  fill_upper_from_lower(A);
  // A Hermitian matrix's diagonal is real; the host variant reads only its real part too.
  for (int lj = 0; lj < lc; ++lj) {
    const int j = A.global_col(lj);
    if (A.row_owner(j) == g.myrow())
      A.local(A.local_row(j), lj) = std::real(A.local(A.local_row(j), lj));
  }
  BandReduction<T> r(A, b);
  device::Array<T> dA, dL, dR;
  allocate_collectively(g.comm(), [&] {
    dA = device::Array<T>(static_cast<std::size_t>(ldd) * lc);
    dL = device::Array<T>(static_cast<std::size_t>(ldd) * 2 * b);
    dR = device::Array<T>(static_cast<std::size_t>(ldc_max) * 2 * b);
  });
  device::DeferredFailure failure;
  const std::size_t hpitch = static_cast<std::size_t>(A.lld()) * sizeof(T),
                    dpitch = static_cast<std::size_t>(ldd) * sizeof(T);
  // My rows from local row r0 of my columns [c0, c1) between A and the device.
  const auto down = [&](int r0, int c0, int c1) {
    if (lr > r0 && c1 > c0)
      failure.run([&] {
        device::to_host_2d(ctx, &A.local(r0, c0), hpitch, dA.data() + r0 + std::size_t(c0) * ldd,
                           dpitch, (lr - r0) * sizeof(T), c1 - c0);
      });
  };
  if (lr > 0 && lc > 0)
    failure.run([&] {
      device::to_device_2d(ctx, dA.data(), dpitch, A.data(), hpitch, lr * sizeof(T), lc);
    });
  int k = 0;
  for (; k + b < n; k += b) {
    const BandPanel p(A, b, k);
    const int kk = p.kk;
    // The panel's columns, my rows from k: its diagonal block is part of the band.
    down(A.local_rows_before(k), A.local_cols_before(k), A.local_cols_before(k + b));
    r.factor(p);
    T* trailing = dA.data() + p.r0 + static_cast<std::size_t>(p.c0) * ldd;
    const bool mine = p.mr > 0 && p.mc > 0;
    const auto bytes = [](int ld, int cols) {
      return static_cast<std::size_t>(ld) * cols * sizeof(T);
    };
    if (mine)
      failure.run([&] {
        device::to_device(ctx, dR.data(), r.Vc(), bytes(p.ldc, kk));
        cuda::blas::gemm(ctx, 'N', 'N', p.mr, kk, p.mc, T(1), trailing, ldd, dR.data(), p.ldc, T(0),
                         dL.data(), p.ldr);
        device::to_host(ctx, r.Yr(), dL.data(), bytes(p.ldr, kk));
      });
    r.complete_y(p, false);
    r.form_w(p);
    if (mine)
      failure.run([&] {
        device::to_device(ctx, dL.data(), r.L(), bytes(p.ldr, 2 * kk));
        device::to_device(ctx, dR.data(), r.R(), bytes(p.ldc, 2 * kk));
        cuda::blas::gemm(ctx, 'N', 'C', p.mr, p.mc, 2 * kk, T(-1), dL.data(), p.ldr, dR.data(),
                         p.ldc, T(1), trailing, ldd);
      });
  }
  // The last trailing block: the band's last diagonal block.
  down(A.local_rows_before(k), A.local_cols_before(k), lc);
  failure.raise(g.comm(), "band reduction on the GPU");
  return r.take_tau();
}

#define TSEIG_INSTANTIATE(T) \
  template std::vector<T> reduce_to_band<Device::cuda, T>(DistMatrix<T>&, int);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense
