#pragma once
// The sparse solvers' first step: every rank must pass the same options, or the ranks
// would take different numbers of iterations (a tolerance) or block sizes and hang.
#include <mpi.h>

#include <string>
#include <vector>

#include "core/collectives.hpp"
#include "tseig/error.hpp"
#include "tseig/sparse/tune.hpp"

namespace tseig::sparse {

inline void append_tune(std::vector<int>& values, const SparseTuneParameters& t) {
  values.insert(values.end(), {static_cast<int>(t.format), t.sell_chunk, t.sell_sigma,
                               t.block_width, t.pipeline_blocks, t.rr_distributed_min,
                               t.lobpcg_recompute_hx, t.overlap_halo, t.prefetch_x});
}

/// Collective: Error(invalid_argument) on every rank unless all ranks passed `values`.
inline void require_same_options(MPI_Comm comm, const std::vector<int>& values, const char* what) {
  raise_if_any(comm, !ranks_agree(comm, values), ErrorCode::invalid_argument,
               std::string(what) + ": ranks passed different options");
}

}  // namespace tseig::sparse
