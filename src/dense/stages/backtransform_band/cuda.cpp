// Stage 4 on the GPU: the host stage's pipeline (host.cpp) with the rows of each rank in
// device memory and the kernel of kernel.cu applying the reflectors. The panel moves to
// the device once and back once; between blocks of sweeps only the halo rows travel
// (device → host → MPI → host → device). Without process-row neighbours there are no
// halos, and all sweeps go in one launch.
#include <algorithm>

#include "core/buffer_cache.hpp"
#include "core/collectives.hpp"
#include "core/instantiate.hpp"
#include "core/mpi_types.hpp"
#include "dense/stages/backtransform_band/api.hpp"
#include "dense/stages/backtransform_band/cuda_kernel.hpp"
#include "dense/stages/backtransform_band/row_panels.hpp"
#include "device/deferred_failure.hpp"
#include "device/runtime.hpp"
#include "tseig/error.hpp"

namespace tseig::dense {

template <Device D, class T>
void backtransform_band(BandReflectors<T> chased, DistMatrix<T>& Z, int nev,
                        const TuneParameters& tune) {
  static_assert(D == Device::cuda);
  const Grid& g = Z.grid();
  const int n = Z.m(), sweeps = n - 1;
  if (n <= 1 || nev <= 0) return;
  cuda::Context& ctx = device::context(g.comm());
  const PipelineRows p(g, n, Z.local_cols_before(nev), chased.b,
                       g.nprow() == 1 ? sweeps : std::max(2, tune.band_sweeps_per_pass));
  const auto& [k, halo, row_cut, me, lo, hi, ext, cols, top, below, mine, up, down] = p;
  const BandReflectors<T> q =
      reflectors_for_rows(chased, g.comm(), lo, mine ? std::min(n, hi + k - 1) : lo);
  chased = {};
  const int ld = std::max(ext - lo, 1);
  const bool work = mine && cols > 0;
  // Column-major rows [lo, ext) of my columns: the host side of the transfers.
  cached_vector<T> panel, buf;
  device::Array<T> X, v, tau;
  device::Array<std::size_t> first;
  allocate_collectively(g.comm(), [&] {
    panel.resize(static_cast<std::size_t>(ld) * cols);
    buf.resize(static_cast<std::size_t>(std::max(top, below)) * cols);
    if (!work) return;
    X = device::Array<T>(panel.size());
    v = device::Array<T>(q.v.size());
    tau = device::Array<T>(q.tau.size());
    first = device::Array<std::size_t>(q.first_.size());
  });
  exchange_panels(Z, row_cut, cols, panel.data(), PanelStorage{ld, 1}, true);
  device::DeferredFailure failure;
  if (work) {
    failure.run([&] {
      device::to_device(ctx, X.data(), panel.data(), panel.size() * sizeof(T));
      device::to_device(ctx, v.data(), q.v.data(), q.v.size() * sizeof(T));
      device::to_device(ctx, tau.data(), q.tau.data(), q.tau.size() * sizeof(T));
      device::to_device(ctx, first.data(), q.first_.data(), q.first_.size() * sizeof(std::size_t));
    });
    const DeviceBandReflectors<T> dq{v.data(), tau.data(), first.data(), q.n,
                                     q.b,      q.row_lo,   q.row_hi};
    const MPI_Comm col = g.col_comm();
    const MPI_Datatype type = mpi_type<T>();
    const std::size_t pitch = static_cast<std::size_t>(ld) * sizeof(T);
    // Rows [row, row + nrows) of my columns: device ↔ buf ↔ neighbour.
    auto send = [&](int row, int nrows, int peer) {
      failure.run([&] {
        device::to_host_2d(ctx, buf.data(), nrows * sizeof(T), X.data() + (row - lo), pitch,
                           nrows * sizeof(T), cols);
      });
      MPI_Send(buf.data(), nrows * cols, type, peer, 0, col);
    };
    auto receive = [&](int row, int nrows, int peer) {
      MPI_Recv(buf.data(), nrows * cols, type, peer, 0, col, MPI_STATUS_IGNORE);
      failure.run([&] {
        device::to_device_2d(ctx, X.data() + (row - lo), pitch, buf.data(), nrows * sizeof(T),
                             nrows * sizeof(T), cols);
      });
    };
    if (up) send(lo, top, me - 1);  // the halo of the rows above, before any block
    for (int s0 = last_block_start(sweeps, k); s0 >= 0; s0 -= k) {
      if (up) receive(lo, top, me - 1);
      if (down) receive(hi, below, me + 1);
      const auto [j0, j1] = q.steps_in(s0, lo, hi);
      failure.run([&] {
        apply_band_reflectors(ctx, dq, s0, std::min(s0 + k, sweeps), j0, j1, X.data(), ld, lo, cols,
                              {tune.gpu_band_kernel, tune.gpu_band_columns});
      });
      if (down) send(hi, below, me + 1);
      if (up && s0 > 0) send(lo, top, me - 1);
    }
    failure.run([&] { device::to_host(ctx, panel.data(), X.data(), panel.size() * sizeof(T)); });
  }
  failure.raise(g.comm(), "band back-transform on the GPU");
  exchange_panels(Z, row_cut, cols, panel.data(), PanelStorage{ld, 1}, false);
}

#define TSEIG_INSTANTIATE(T)                                                                \
  template void backtransform_band<Device::cuda, T>(BandReflectors<T>, DistMatrix<T>&, int, \
                                                    const TuneParameters&);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense
