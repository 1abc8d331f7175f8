#pragma once
// The GEMMs of a merge (host.cpp): per panel of S and per segment of my rows,
// tmp = V·S_h. On the host with BLAS; with D = cuda, a segment whose product is large
// enough to pay for the copies keeps V on the GPU for the whole merge (copied up once)
// and each panel's S_h goes up and its product comes down. A segment whose V finds no
// room on the GPU, or whose device work fails, continues on the host: the same result,
// only slower, and the merge's collectives stay in step on every rank.
#include <cstddef>
#include <vector>

#include "core/blas/cuda.hpp"
#include "core/blas/host.hpp"
#include "device/runtime.hpp"
#include "tseig/device.hpp"
#include "tseig/error.hpp"

namespace tseig::dense::dc {

template <Device D, class R>
class SegmentGemm {
 public:
  /// Flops of one segment's products (2·len·kh·columns) below which the host does them.
  static constexpr double device_min_flops = 1e9;

  SegmentGemm() = default;
  explicit SegmentGemm(std::size_t segments) : seg_(segments) {}

  /// Segment i's V: len × kh at v (leading dimension ld), multiplied by `columns`
  /// columns of S in all. With D = cuda the process's GPU must be open (device::context).
  void set(std::size_t i, int len, int kh, const R* v, long ld, int columns) {
    seg_[i] = {len, kh, v, ld, {}};
    if constexpr (D == Device::cuda) {
      if (2.0 * len * kh * columns < device_min_flops) return;
      Seg& s = seg_[i];
      try {
        s.dv = device::Array<R>(static_cast<std::size_t>(len) * kh);
        device::to_device_2d(device::context(MPI_COMM_SELF), s.dv.data(), len * sizeof(R), v,
                             ld * sizeof(R), len * sizeof(R), kh);
      } catch (const Error&) {
        s.dv = {};
      }
    }
  }

  /// tmp (len × bw, leading dimension len) = V_i · Sh (kh × bw, leading dimension kh).
  void multiply(std::size_t i, int bw, const R* Sh, R* tmp) {
    Seg& s = seg_[i];
    if constexpr (D == Device::cuda) {
      if (s.dv.data()) try {
          cuda::Context& ctx = device::context(MPI_COMM_SELF);
          const std::size_t ns = static_cast<std::size_t>(s.kh) * bw,
                            nt = static_cast<std::size_t>(s.len) * bw;
          if (dS_.size() < ns) dS_ = device::Array<R>(ns);
          if (dT_.size() < nt) dT_ = device::Array<R>(nt);
          device::to_device(ctx, dS_.data(), Sh, ns * sizeof(R));
          cuda::blas::gemm(ctx, 'N', 'N', s.len, bw, s.kh, R(1), s.dv.data(), s.len, dS_.data(),
                           s.kh, R(0), dT_.data(), s.len);
          device::to_host(ctx, tmp, dT_.data(), nt * sizeof(R));
          return;
        } catch (const Error&) {
          s.dv = {};
        }
    }
    blas::gemm('N', 'N', s.len, bw, s.kh, R(1), s.v, s.ld, Sh, s.kh, R(0), tmp, s.len);
  }

 private:
  struct Seg {
    int len = 0, kh = 0;
    const R* v = nullptr;
    long ld = 0;
    device::Array<R> dv;
  };
  std::vector<Seg> seg_;
  device::Array<R> dS_, dT_;
};

}  // namespace tseig::dense::dc
