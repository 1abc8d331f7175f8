#pragma once
// Where a dense solve's device stages run, from EigensolverOptions::gpu.
#include <mpi.h>

#include "tseig/device.hpp"
#include "tseig/eigensolver.hpp"

namespace tseig::dense {

/// Collective over comm; the same answer on every rank. off: host. on: cuda, after
/// opening each rank's GPU (Error(unsupported) on every rank, with the reason, when any
/// rank has none). automatic: cuda when every rank has a GPU, else host.
Device solve_device(GpuUse use, MPI_Comm comm);

}  // namespace tseig::dense
