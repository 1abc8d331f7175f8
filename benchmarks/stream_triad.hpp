#pragma once
// STREAM triad a = b + s·c, run on every rank at once: the memory bandwidth the sparse
// roofline is drawn against.
#include <mpi.h>

#include <cstddef>

namespace tseig::bench {

/// Collective: the best aggregate triad bandwidth (bytes/s, 24 bytes per element as
/// STREAM counts) of all ranks of `comm` together, each on `elements` doubles.
double stream_triad_bandwidth(MPI_Comm comm, std::size_t elements, int repeats);

}  // namespace tseig::bench
