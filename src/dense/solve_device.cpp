#include "dense/solve_device.hpp"

#include "device/runtime.hpp"

namespace tseig::dense {

Device solve_device(GpuUse use, MPI_Comm comm) {
  if (use == GpuUse::off) return Device::host;
  if (use == GpuUse::automatic) {
    int everywhere = gpu::device_count() > 0 ? 1 : 0;
    MPI_Allreduce(MPI_IN_PLACE, &everywhere, 1, MPI_INT, MPI_MIN, comm);
    if (!everywhere) return Device::host;
  }
  device::context(comm);
  return Device::cuda;
}

}  // namespace tseig::dense
