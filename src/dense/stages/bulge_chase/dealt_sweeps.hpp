#pragma once
// The bulge chase on the ranks of one node: the band in shared memory, whole sweeps dealt
// out to the ranks (the other way, chunks of columns per rank, is in host.cpp).
#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <optional>
#include <vector>

#include "dense/stages/bulge_chase/api.hpp"

namespace tseig::dense {

/// Sweeps per group. A group's sweeps in flight span three steps each, about 6·b² entries:
/// some 1.5 MiB in all stays in a core's L2 cache. Measured on two ranks (Xeon, 2 MiB L2),
/// real N = 4000, b = 64, groups of 1 / 4 / 8 / 16: 0.34 / 0.26 / 0.25 / 0.32 s; complex
/// N = 3000: 4 → 0.39 s, 8 → 0.46 s, 12 → 0.60 s.
inline int dealt_sweep_group(int b, std::size_t element_bytes) {
  const double per_sweep = 6.0 * b * b * static_cast<double>(element_bytes);
  return std::clamp(static_cast<int>(1.5 * (1 << 20) / per_sweep), 1, 16);
}

/// Collective over comm. The chase of bulge_chase with groups of `group` consecutive
/// sweeps dealt to the ranks in turn (BandReflectors::deal says which a rank keeps, of all
/// rows). Nothing, on every rank, when the ranks are not on one node or the shared
/// memory cannot be had.
template <class T>
std::optional<BandReflectors<T>> chase_dealt_sweeps(const std::vector<T>& band, int n, int b,
                                                    MPI_Comm comm, bool keep_reflectors, int group);

}  // namespace tseig::dense
